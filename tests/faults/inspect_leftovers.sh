#!/usr/bin/env bash
# Lists what a labgate run left behind on a lab pair (ci/lab), looking inside
# both hosts: processes in each network namespace other than the lab's own
# sshd daemons, listening sockets other than sshd's, and labgate run, lease or
# upload files in each host's private /tmp (the probe dir); the probe cache
# (labgate-probe-cache.*, kept between runs) only for what is not a whole copy. Optionally also
# labgate processes on this machine whose command line holds a given string.
#
#   inspect_leftovers.sh --pair N [--wait SECS] [--local STRING] [--host-dir DIR]...
#   inspect_leftovers.sh --mesh N ...   the mesh lab (ci/lab --mesh N): hosts m1..mN
#
# --host-dir also looks in DIR as each host sees it (inside its sshd's mount
# namespace): a probe_dir elsewhere than /tmp, a tmpfs mounted on one host, a
# directory both hosts mount. One not there on a host is skipped.
#
# Waits up to SECS (default 10) for leftovers to go (an sshd session closing,
# a killed probe being reaped), then prints each one and exits 1; exit 0 when
# nothing is left, 2 on a usage error or a pair that is not up. Needs root.
set -uo pipefail

die() { echo "inspect_leftovers: $*" >&2; exit 2; }
pair= wait_s=10 local_pattern= host_dirs=() mesh=0
while [ $# -gt 0 ]; do
  case $1 in
    --pair) pair=${2:-}; shift 2 || die "--pair needs a value" ;;
    --wait) wait_s=${2:-}; shift 2 || die "--wait needs a value" ;;
    --local) local_pattern=${2:-}; shift 2 || die "--local needs a value" ;;
    --host-dir) host_dirs+=("${2:-}"); shift 2 || die "--host-dir needs a value" ;;
    --mesh) mesh=${2:-}; pair=mesh; shift 2 || die "--mesh needs a value" ;;
    *) die "unknown argument '$1' (use --pair N | --mesh N, [--wait SECS] [--local STRING] [--host-dir DIR])" ;;
  esac
done
[[ $pair =~ ^[1-9][0-9]?$ ]] || [ "$mesh" != 0 ] || die "--pair must be a lab pair number, got '$pair'"
[[ $mesh =~ ^[0-9]+$ ]] || die "--mesh must be a number of hosts, got '$mesh'"
[[ $wait_s =~ ^[0-9]+$ ]] || die "--wait must be whole seconds, got '$wait_s'"
[ "$(id -u)" -eq 0 ] || die "needs root (ip netns exec)"

repo=$(cd "$(dirname "$0")/../.." && pwd)
state=$repo/.lab/pair$pair
hosts="a b"
if [ "$mesh" != 0 ]; then
  state=$repo/.lab/mesh prefix=lgm hosts=$(for k in $(seq 1 "$mesh"); do printf 'm%d ' "$k"; done)
elif [ "$pair" -eq 1 ]; then prefix=lg; else prefix=lg$pair; fi

# The lab's own sshd daemons (their pid files); every other process is the run's.
daemon_pids() {
  local f
  for f in "$state"/sshd-"$1"-*.pid; do [ -s "$f" ] && cat "$f"; done
}

zombie() { [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]; }

# One line per leftover on host $1, nothing when it is clean.
leftovers_on() {
  local h=$1 ns=$prefix-$1 pid cmd daemons
  ip netns list | awk '{print $1}' | grep -qx "$ns" || { echo "$h: namespace $ns does not exist"; return; }
  daemons=" $(daemon_pids "$h" | tr '\n' ' ') "
  for pid in $(ip netns pids "$ns" 2>/dev/null); do
    [[ $daemons == *" $pid "* ]] && continue
    zombie "$pid" && continue
    cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || continue
    [ -n "$cmd" ] || continue
    # A session of the lab's sshd (comm sshd, child of a daemon): not labgate's,
    # anything labgate ran under it is listed on its own. One whose client went
    # silent (a cut link) lives until sshd's TCP keepalive gives up: noted only.
    if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sshd ] &&
      [[ $daemons == *" $(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null) "* ]]; then
      echo "$h: note: sshd session $pid still open ($cmd)" >&3
      continue
    fi
    echo "$h: process $pid in $ns: $cmd"
  done
  # Listening sockets: sshd's own are expected; anything else (a probe server) is not.
  ip netns exec "$ns" ss -Hltunp 2>/dev/null | while read -r line; do
    [[ $line == *'"sshd"'* ]] && continue
    echo "$h: listening in $ns: $line"
  done
  # The host's /tmp: run dirs (labgate-<lab>.*), the lease (labgate-lease-<lab>),
  # upload temporaries (*.part-*), and anything else labgate names.
  local f
  for f in "$state/tmp-$h"/labgate-* "$state/tmp-$h"/*.part-* "$state/tmp-$h"/.labgate*; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    # The probe cache is kept between runs on purpose (issue 23); only a copy
    # being written (or anything else) in it is left behind.
    if [[ ${f##*/} == labgate-probe-cache.* ]] && [ -d "$f" ] && [ ! -L "$f" ]; then
      for c in "$f"/* "$f"/.[!.]*; do
        [ -e "$c" ] || [ -L "$c" ] || continue
        [[ ${c##*/} =~ ^[a-z_]+\.[0-9a-f]{64}$ ]] && [ -f "$c" ] && [ ! -L "$c" ] && continue
        echo "$h: left in /tmp: ${c#"$state/tmp-$h"/}"
      done
      continue
    fi
    echo "$h: left in /tmp: ${f#"$state/tmp-$h"/}"
  done
  [ ${#host_dirs[@]} -gt 0 ] || return 0
  local sshd_pid
  sshd_pid=$(cat "$state/sshd-$h-22.pid" 2>/dev/null) || { echo "$h: no sshd pid file to look through"; return; }
  nsenter -t "$sshd_pid" -m -- sh -c '
    for d in "$@"; do
      [ -d "$d" ] || continue
      for f in "$d"/labgate-* "$d"/*.part-* "$d"/.labgate*; do
        case ${f##*/} in
          labgate-probe-cache.*)  # kept on purpose: only what is being written in it is left
            [ -d "$f" ] && [ ! -h "$f" ] && {
              ls -A "$f" | grep -Ev "^[a-z_]+\.[0-9a-f]{64}\$" | sed "s|^|left in $f/|"
              continue
            } ;;
        esac
        [ -e "$f" ] || [ -h "$f" ] && echo "left in $f"
      done
    done' sh "${host_dirs[@]}" | sed "s/^/$h: /"
}

leftovers_here() {
  [ -n "$local_pattern" ] || return 0
  local pid cmd
  for pid in $(pgrep -f -- "$local_pattern" 2>/dev/null); do
    [ "$pid" = $$ ] && continue
    cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || continue
    [[ $cmd == *labgate* ]] || continue
    [[ $cmd == *inspect_leftovers* ]] && continue
    zombie "$pid" && continue
    echo "local: process $pid: $cmd"
  done
}

notes=$(mktemp)
trap 'rm -f "$notes"' EXIT
[ -d "$state" ] || die "no lab state in $state: is pair $pair up (ci/lab up --pair $pair)?"
deadline=$((SECONDS + wait_s))
while :; do
  found=$({ for h in $hosts; do leftovers_on "$h"; done; leftovers_here; } 3>"$notes")
  [ -z "$found" ] && { cat "$notes"; echo "inspect_leftovers: pair $pair is clean"; exit 0; }
  [ $SECONDS -ge $deadline ] && break
  sleep 0.5
done
echo "inspect_leftovers: pair $pair has leftovers after ${wait_s}s:" >&2
echo "$found" >&2
exit 1
