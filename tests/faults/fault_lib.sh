# Shared steps of the fault matrix (sourced by fault_matrix.sh, and by
# reach_matrix.sh for issue 13's cases): a profile for the lab pair (pair 3
# unless use_pair picks another), a gate run in its own process group with a
# hard deadline, watching the hosts' namespaces for the moment to strike, and
# the checks every fault ends with.
# Expects: $bin (labgate's bin dir), $src (the checkout), $work (scratch dir).

fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "--- $*"; }

# The lab pair the helpers act on, addressed as ci/lab builds it (pair N: mgmt
# 198.18.0.(8N-6) and .(8N-2), interconnect 198.19.N.1/.2, keys and each host's
# /tmp in .lab/pairN).
use_pair() {
  local base=$((($1 - 1) * 8))
  pair=$1 state=$src/.lab/pair$1
  if [ "$1" -eq 1 ]; then ns_a=lg-a ns_b=lg-b; else ns_a=lg$1-a ns_b=lg$1-b; fi
  mgmt_a=198.18.0.$((base + 2)) mgmt_b=198.18.0.$((base + 6))
  ic_a=198.19.$1.1 ic_b=198.19.$1.2
  veth_a=lg$1a-m veth_b=lg$1b-m # the root namespace's ends of the management links
}
# LABGATE_FAULT_PAIR: another pair than CI's (a helper's own, already up).
use_pair "${LABGATE_FAULT_PAIR:-3}"

# lab_profile OUT [LAB_NAME]: profiles/lab.toml's SSH settings, hosts and
# preconditions moved to the pair, lab name LAB_NAME (default lab-pairN), a
# short lease_wait, and none of its tests (the caller appends its own).
lab_profile() {
  local out=$1 name=${2:-lab-pair$pair}
  sed -e "s/\"198\.18\.0\.2\"/\"$mgmt_a\"/" -e "s/\"198\.18\.0\.6\"/\"$mgmt_b\"/" \
    -e "s/198\.19\.1\./198.19.$pair./g" -e "s#\"\.\./\.lab/pair1/#\"$state/#g" \
    -e "s/^name = \"lab-pair1\"/name = \"$name\"/" -e 's/^lease_wait = .*/lease_wait = "5s"/' \
    -e '/^\[\[test\]\]/,$d' "$src/profiles/lab.toml" >"$out"
  # Guard against profiles/lab.toml changing under the sed: every address is the pair's.
  grep -q "\"$mgmt_a\"" "$out" && grep -q "\"$mgmt_b\"" "$out" && grep -q "\"$ic_b\"" "$out" &&
    grep -q "^name = \"$name\"" "$out" && ! grep -qE '\.lab/pair1/|"lab-pair1"' "$out" ||
    fail "could not move profiles/lab.toml to pair $pair; see $out"
}

# profiles/lab.toml moved to pair 3 (ci/lab: mgmt 198.18.0.18/.22, interconnect
# 198.19.3.1/.2, keys in .lab/pair3) with one a->b round-trip test lasting
# $1 (so a fault lands mid-test) and a short lease_wait. Its budget is loose: these
# cases judge fault handling, and CI runs them beside other tests (label
# `concurrent`), where a shared machine's scheduling must not decide their verdict.
make_profile() {
  local duration=$1 out=$work/pair$pair.toml
  lab_profile "$out"
  rr_test "$duration" "$out" 1s '{ p50 = "5ms", p99 = "50ms", max = "1s" }'
  profile=$out
}

# Starts `labgate run` in a new session (so a Ctrl-C can reach its whole process
# group, as a terminal's does); sets gate_pid and t0.
start_gate() {
  local root=${results_root:-$work/results}
  mkdir -p "$root"
  find "$root" -mindepth 1 -delete
  setsid "$bin/labgate" run "$profile" --suffix fault --results "${results_root:-$work/results}" "$@" \
    >"$work/out" 2>&1 &
  gate_pid=$!
  t0=$SECONDS
}

# Waits at most $1 s for the gate; sets rc and took. A gate still running then
# is killed (with its group) and the case fails: every fault must end in time.
wait_gate() {
  local limit=$1 until=$((SECONDS + $1))
  while kill -0 "$gate_pid" 2>/dev/null && [ $SECONDS -lt $until ]; do sleep 0.2; done
  if kill -0 "$gate_pid" 2>/dev/null; then
    kill -KILL -- -"$gate_pid" 2>/dev/null
    wait "$gate_pid" 2>/dev/null
    tail -40 "$work/out"
    fail "labgate run still running ${limit}s after it started: a fault must end the run in time"
  fi
  wait "$gate_pid"
  rc=$?
  took=$((SECONDS - t0))
  echo "labgate run ended after ${took}s with exit $rc; its last lines:"
  tail -15 "$work/out" | sed 's/^/  | /'
}

# Pids of processes in namespace $1 whose command line holds $2.
# Prints the pids in namespace $1 whose command line matches $2, or, with a
# third argument `comm`, whose program is exactly $2 (a probe itself, not the
# /bin/sh line that reads the counters around it and names it too).
ns_pids() {
  local pid
  for pid in $(ip netns pids "$1" 2>/dev/null); do
    [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = Z ] && continue
    if [ "${3:-}" = comm ]; then
      [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && echo "$pid"
    else
      tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -q -- "$2" && echo "$pid"
    fi
  done
}

# Waits at most $3 s until a process matching $2 runs in namespace $1; prints its pids.
wait_remote_process() {
  local until=$((SECONDS + $3)) pids
  while [ $SECONDS -lt $until ]; do
    pids=$(ns_pids "$1" "$2" "${4:-}")
    [ -n "$pids" ] && { echo "$pids"; return 0; }
    kill -0 "$gate_pid" 2>/dev/null || break
    sleep 0.05
  done
  tail -20 "$work/out" >&2
  fail "no process matching '$2' appeared in $1 within $3 s"
}

# Kills every sshd in namespace $1 (daemons and sessions), as a crashed server's.
# The listeners first, and the sessions only once the listeners are gone: in pid
# order a session can die first (pids wrap) and labgate's reconnect then reaches a
# listener still up, so the "crashed server" would not be one. A listener is an
# sshd whose parent is not an sshd.
kill_sshd() {
  local pid ppid listeners=() until
  for pid in $(ip netns pids "$1"); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sshd ] || continue
    ppid=$(awk '{ sub(/.*\) /, ""); print $2 }' "/proc/$pid/stat" 2>/dev/null)
    [ "$(cat "/proc/$ppid/comm" 2>/dev/null)" = sshd ] || listeners+=("$pid")
  done
  [ ${#listeners[@]} -eq 0 ] || kill -KILL "${listeners[@]}" 2>/dev/null
  until=$((SECONDS + 5))
  for pid in "${listeners[@]}"; do
    while [ -d "/proc/$pid" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null && [ $SECONDS -lt $until ]; do
      sleep 0.01
    done
  done
  for pid in $(ip netns pids "$1"); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sshd ] && kill -KILL "$pid" 2>/dev/null
  done
  return 0
}

expect_rc() {
  local want
  for want in "$@"; do [ "$rc" -eq "$want" ] && return 0; done
  fail "labgate run exited $rc, expected $*"
}

# The gate's messages name the host and the step ($1: an extended regex).
expect_message() {
  LC_ALL=C grep -aEq -- "$1" "$work/out" || { cat -v "$work/out"; fail "no message matching /$1/ in the output"; }
  echo "message: $(LC_ALL=C grep -aEm1 -- "$1" "$work/out" | cut -c1-600)"
}

run_dir() { ls -d "${results_root:-$work/results}"/*-fault 2>/dev/null | head -1; }

# Suite.name of every test gtest reported finished (passed, failed or skipped);
# only those matching $finished_before when the case knows better (a full disk).
finished_tests() {
  sed -nE 's/^\[ +(OK|FAILED|SKIPPED) +\] ([^ ,]+\.[^ ,]+).*/\2/p' "$work/out" | sort -u |
    grep -E "^${finished_before:-.}"
}

# The results folder holds the run and every test gtest finished before the fault.
expect_results() {
  local dir t name esc
  dir=$(run_dir)
  [ -n "$dir" ] || fail "no results folder under ${results_root:-$work/results}"
  for f in run.json junit.xml; do [ -s "$dir/$f" ] || fail "results folder lacks $f"; done
  [ -n "${no_exit_record:-}" ] || grep -q '"exit_code":'"$rc" "$dir/run.json" || fail "run.json does not record exit $rc"
  while read -r t; do
    name=${t#*.}
    # The preconditions suite's stand-in for "could not run" is the Gate/run testcase.
    [ "$name" = gate/could_not_run ] && name=run
    esc=$(printf '%s' "$name" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')
    grep -qF "name=\"$esc\"" "$dir/junit.xml" || fail "junit.xml lacks $t, which finished before the fault"
  done < <(finished_tests)
  find "$dir" -name '.*.tmp.*' | grep -q . && fail "half-written temporaries left in $dir"
  echo "results: $dir holds run.json, junit.xml and the $(finished_tests | wc -l) test(s) finished before the fault"
}

# Nothing of the run is left on either host (nor a labgate of this profile here);
# also in each directory of the array host_dirs, as the hosts see it.
expect_clean() {
  local d extra=()
  for d in ${host_dirs[@]+"${host_dirs[@]}"}; do extra+=(--host-dir "$d"); done
  bash "$src/tests/faults/inspect_leftovers.sh" --pair "$pair" --wait "${1:-10}" --local "${profile:-$work}" \
    ${extra[@]+"${extra[@]}"} ||
    fail "the fault left something behind (above)"
}

# The lab repaired (sshd restarted, links up), then one gate step on both hosts:
# a run after a fault that cut a host off must sweep what that host kept.
recover() {
  ip link set "$veth_a" up 2>/dev/null
  ip link set "$veth_b" up 2>/dev/null
  ip netns exec "$ns_a" ip link set ic0 up 2>/dev/null
  ip netns exec "$ns_b" ip link set ic0 up 2>/dev/null
  "$src/ci/lab" up --pair "$pair" >/dev/null || fail "ci/lab up --pair $pair could not repair the lab"
  timeout 120 "$bin/labgate" check "$profile" >"$work/recover" 2>&1 || {
    cat "$work/recover"
    fail "the run after the fault (labgate check) failed"
  }
  grep -E 'removed .* left behind|breaking the stale' "$work/recover" | sed 's/^/  recovered: /'
}

# ---------------------------------------------------------------- issue 13's cases
# (reach_matrix.sh: hostile login environments, sshd limits, storage, keys, leases.)

# rr_test DURATION [FILE [WARMUP [BUDGET]]]: one a->b round-trip test on the
# profile; by default no warm-up and a loose budget (issue 13's cases are about
# reaching the hosts, not the shared machine's tail).
rr_test() {
  local budget=${4:-'{ p50 = "5ms" }'}
  cat >>"${2:-$profile}" <<EOF
[[test]]
name = "tcp_rr_64"
kind = "tcp_rr"
from = "a"
to = "b"
duration = "$1"
warmup = "${3:-0s}"
nodelay = true
busy_poll = false
budget = $budget
EOF
}

# set_key FILE KEY VALUE: every `KEY = ...` line of a profile (VALUE in TOML).
set_key() { sed -i "s#^$2 = .*#$2 = $3#" "$1"; }

# host_tag H: host H's tag in run and lease directory names (host_tag.sh).
# shellcheck source=host_tag.sh
. "$src/tests/faults/host_tag.sh"
host_tag() { host_tag_of "$bin/labgate" "$profile" "$1" || fail "no host tag for $1"; }

# in_host H CMD...: CMD inside lab host H's mount namespace (what its sshd
# sessions see: its own /tmp, the shared directory, a tmpfs mounted there).
in_host() {
  local h=$1
  shift
  nsenter -t "$(cat "$state/sshd-$h-22.pid")" -m -- "$@"
}

# The run's labgate.log (the gate's own messages, without gtest's report).
run_log() { local d; d=$(run_dir) && [ -n "$d" ] && echo "$d/labgate.log"; }

# expect_once REGEX: labgate's log holds exactly one line matching REGEX (an
# error is said once, however many suites it stopped).
expect_once() {
  local log n
  log=$(run_log)
  [ -f "$log" ] || fail "no labgate.log in the results folder"
  n=$(LC_ALL=C grep -aEc -- "$1" "$log")
  [ "$n" -eq 1 ] || { grep -aE -- "$1" "$log" | cut -c1-300; fail "labgate.log says /$1/ $n times, not once"; }
}

# expect_no_message REGEX: nothing in the output matches (a wrong cause).
expect_no_message() {
  ! LC_ALL=C grep -aEq -- "$1" "$work/out" ||
    { LC_ALL=C grep -aE -- "$1" "$work/out" | cut -c1-300; fail "the output says /$1/"; }
}
