#!/usr/bin/env bash
# Issue 13's cases of the fault matrix, on lab pair 13 with its operator
# accounts (root; `ci/lab up --pair 13 --accounts`, which the ctest fixture
# does): what real servers do to a gate that reaches them, injected into a real
# `labgate run` (two where the case is about two runs):
#   banner            root's ~/.bashrc prints a banner on stdout on both hosts:
#                     the run passes as without it, the banner reaches no result
#   csh               the login shell is tcsh (labgate-csh; its ~/.cshrc prints a
#                     banner): the run passes, the lease is taken on both hosts as
#                     that user and released
#   maxsessions       sshd on b allows one session per connection: the run passes,
#                     one channel at a time, what still finds no slot going over
#                     another connection, said at most once naming MaxSessions on
#                     host b, never sftp
#   probe-dir-full    host a's probe_dir is a full 64 KiB tmpfs: exit 3 naming host
#                     a, "No space left" and the bytes free there, for the lease
#                     (lease_dir defaults to probe_dir) and, with the lease
#                     elsewhere, for the run's own files
#   revoked-key       known_hosts holds only @revoked lines for b's keys, and
#                     accept_new_host_keys is on: exit 3 naming host b and
#                     "revoked", known_hosts untouched
#   lease-profiles    two profiles with different [lab] names for the same two
#                     servers, started at once: never both measuring; the one
#                     that waited fails naming the holder's run and lab
#   shared-probe-dir  both hosts' probe_dir is the one directory they mount
#                     (labgate-ops): a run passes, each host's run directory
#                     carries its host's tag, and a run on b alone sweeps b's
#                     leftovers there while a run on a is live, sparing it
# Every case checks the exit code, the message (host and cause, said once in
# labgate.log), the results folder, and that nothing is left on either host.
#
#   reach_matrix.sh CASE BIN_DIR SOURCE_DIR
set -uo pipefail
case_name=$1
bin=$(cd "$2" && pwd)
src=$(cd "$3" && pwd)
work=$(mktemp -d /var/tmp/labgate-reach-faults.XXXXXX)
unset LABGATE_RUN_DIR LABGATE_RUN_DIR_FILE LABGATE_PROFILE
# shellcheck source=fault_lib.sh
. "$src/tests/faults/fault_lib.sh"
use_pair "${LABGATE_FAULT_REACH_PAIR:-13}" # or a helper's own pair, up with --accounts
shared=/var/tmp/labgate-shared # ci/lab --accounts: .lab/pair13/shared, on both hosts
full=/tmp/lgfault-full         # host a's tiny tmpfs (probe-dir-full)
lab_up() { "$src/ci/lab" up --pair "$pair" --accounts >/dev/null; }
planted=()
other_pid=

cleanup() {
  local p
  for p in ${gate_pid:-} $other_pid; do kill -KILL -- -"$p" 2>/dev/null; done
  rm -f "$state"/home-[ab]/.bashrc
  in_host a umount "$full" 2>/dev/null
  rmdir "$state/tmp-a/${full#/tmp/}" 2>/dev/null
  for p in ${planted[@]+"${planted[@]}"}; do rm -rf "$p"; done
  cd /
  [ -n "${FAULT_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
  lab_up 2>&1 # the sshds' configs as ci/lab writes them (MaxSessions back), for the next case
}
trap cleanup EXIT

# sshd on b refuses a second session on one connection (MaxSessions 1 has taken
# effect), seen with OpenSSH's client: one connection, one session held open,
# then a second asked for on it. Without this the case would pass on a server
# that never limited anything.
expect_one_session_per_connection() {
  local ctl=$work/mux
  mux() {
    timeout 15 ssh -F /dev/null -i "$state/id_rsa" -o IdentitiesOnly=yes -o BatchMode=yes \
      -o UserKnownHostsFile="$state/known_hosts" -o StrictHostKeyChecking=yes -o ConnectTimeout=5 \
      -o ControlPath="$ctl" "$@"
  }
  # The master goes away by itself 20 s after its last session, whatever fails below.
  mux -M -f -N -o ControlPersist=20 "root@$mgmt_b" </dev/null >/dev/null 2>"$work/master.err" ||
    fail "cannot open an OpenSSH connection to host b ($mgmt_b): $(cat "$work/master.err")"
  mux "root@$mgmt_b" 'echo open; sleep 5' >"$work/first.out" 2>&1 &
  local first=$!
  for _ in $(seq 100); do grep -q open "$work/first.out" && break; sleep 0.05; done
  grep -q open "$work/first.out" || fail "the first session on host b did not open: $(cat "$work/first.out")"
  # Refused, the client says so and falls back to a connection of its own, so
  # its exit code says nothing: the refusal is the proof.
  mux "root@$mgmt_b" true >"$work/second.out" 2>&1
  kill "$first" 2>/dev/null
  wait "$first" 2>/dev/null
  mux -O exit "root@$mgmt_b" 2>/dev/null
  grep -qiE 'session open refused|administratively prohibited' "$work/second.out" ||
    fail "host b opened a second session on one connection: MaxSessions 1 did not take effect ($(cat "$work/second.out"))"
  echo "MaxSessions 1 in effect on host b: $(grep -iE 'refused|prohibited' "$work/second.out")"
}
cd "$work" || fail "cannot enter $work"
lab_up || fail "ci/lab up --pair $pair --accounts failed"
# A case that failed before may have left the pair dirty: start from new hosts.
if ! bash "$src/tests/faults/inspect_leftovers.sh" --pair "$pair" --wait 2 --host-dir "$shared"; then
  note "pair $pair is not clean: down and up again"
  "$src/ci/lab" down --pair "$pair" >/dev/null
  lab_up || fail "ci/lab up --pair $pair --accounts failed"
fi

# Exit 0 and every test gtest ran passed (none failed, none skipped).
expect_pass() {
  expect_rc 0
  local ran ok
  ran=$(sed -nE 's/^\[==========\] Running ([0-9]+) tests? .*/\1/p' "$work/out" | head -1)
  ok=$(grep -c '^\[       OK \]' "$work/out")
  [ -n "$ran" ] && [ "$ran" -gt 0 ] && [ "$ok" -eq "$ran" ] || fail "$ok of ${ran:-no} tests passed"
  echo "passed: all $ran tests"
}

# The login banner (text $1) is only ever quoted in the warning about it: not in
# any other line of the output, nor in any result file.
expect_banner_kept_out() {
  local dir
  dir=$(run_dir)
  ! grep -aF -- "$1" "$work/out" | grep -qv 'the login shell of .* prints' ||
    fail "the banner '$1' reached the output outside the warning about it"
  ! grep -raF -- "$1" "$dir" | grep -v '^[^:]*/labgate\.log:.*the login shell of .* prints' | grep -q . ||
    fail "the banner '$1' reached a result file: $(grep -rlaF -- "$1" "$dir" | tr '\n' ' ')"
}

# A dead run's directory with host tag $1 in the shared directory, as a run
# killed on that host leaves it (labgate-ops', 0700); prints its path there.
plant_leftover() {
  local d=$state/shared/labgate-lab-pair$pair.$1.$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')
  mkdir -m 0700 "$d" && : >"$d/pgids" && chown -R labgate-ops: "$d" || fail "cannot plant $d"
  # An earlier labgate's, from before this boot: no boot file and over a minute
  # old, which is what lets a sweep take it (one made this instant may be a
  # clone's run directory that is still being made).
  touch -d '2 minutes ago' "$d" || fail "cannot date $d back"
  planted+=("$d")
  echo "$shared/${d##*/}"
}

case $case_name in
  banner)
    for h in a b; do
      echo "echo '*** Authorized use only: lab host $h, root banner ***'" >"$state/home-$h/.bashrc"
      # Probes an earlier run kept there (issue 23's cache) would send no file:
      # none, so the probes' uploads meet the banner.
      rm -rf "$state/tmp-$h"/labgate-probe-cache.*
    done
    lab_profile "$work/p.toml"
    profile=$work/p.toml
    rr_test 1s
    start_gate
    wait_gate 60
    expect_pass
    # Named once per host as what it is; never an SFTP fault or a swept leftover.
    expect_once "host a \\(root@$mgmt_a:22\\): the login shell of root prints .*Authorized use only"
    expect_once "host b \\(root@$mgmt_b:22\\): the login shell of root prints .*Authorized use only"
    expect_no_message 'Subsystem sftp|SFTP subsystem|not by us|left behind'
    expect_banner_kept_out 'Authorized use only: lab host'
    expect_results
    expect_clean
    ;;
  csh)
    [ "$(getent passwd labgate-csh | cut -d: -f7)" = /bin/tcsh ] || fail "labgate-csh's login shell is not /bin/tcsh"
    lab_profile "$work/p.toml"
    profile=$work/p.toml
    set_key "$profile" user '"labgate-csh"'
    rr_test 1s
    start_gate
    # The lease on each host, as the csh user, naming this run (its id is the
    # run's first line).
    leased_a='' leased_b=''
    while kill -0 "$gate_pid" 2>/dev/null && { [ -z "$leased_a" ] || [ -z "$leased_b" ]; }; do
      id=$(sed -nE 's/^info: gate run ([^ ]+) on .*/\1/p' "$work/out" | head -1)
      for h in a b; do
        for f in "$state/tmp-$h"/labgate-lease-hk-*/holder; do
          [ -n "$id" ] && [ -f "$f" ] && grep -qE "^run_id=$id(\.[0-9a-f]+)?$" "$f" 2>/dev/null &&
            [ "$(stat -c %U "$f" 2>/dev/null)" = labgate-csh ] && eval "leased_$h=\${f#\$state/}"
        done
      done
      sleep 0.02
    done
    wait_gate 60
    [ -n "$leased_a" ] && [ -n "$leased_b" ] ||
      fail "the lease was not seen taken as labgate-csh on both hosts (a: ${leased_a:-no}, b: ${leased_b:-no})"
    echo "leased as labgate-csh: $leased_a, $leased_b"
    expect_pass
    expect_once "host a \\(labgate-csh@$mgmt_a:22\\): the login shell of labgate-csh prints .*csh banner"
    expect_once "host b \\(labgate-csh@$mgmt_b:22\\): the login shell of labgate-csh prints .*csh banner"
    expect_no_message "Unmatched|Subsystem sftp|SFTP subsystem|left behind|cannot read the lab lease"
    expect_banner_kept_out 'csh banner on lab host'
    expect_results
    expect_clean # the lease released, the run directories gone, as labgate-csh
    ;;
  maxsessions)
    conf=$state/sshd-b-22.conf
    sed -i 's/^MaxSessions .*/MaxSessions 1/' "$conf"
    grep -qx 'MaxSessions 1' "$conf" || fail "no MaxSessions line in $conf"
    kill -HUP "$(cat "$state/sshd-b-22.pid")" # sshd re-executes itself with the new config
    sleep 0.3
    for _ in $(seq 50); do bash -c "exec 3<>/dev/tcp/$mgmt_b/22" 2>/dev/null && break; sleep 0.1; done
    expect_one_session_per_connection
    lab_profile "$work/p.toml"
    profile=$work/p.toml
    rr_test 1s
    start_gate
    wait_gate 60
    # It copes: its steps take one channel at a time (a refused one is retried
    # while sshd frees the last one's slot, after the idle SFTP channel is
    # closed), and whatever still finds no slot goes over another connection,
    # said once, naming MaxSessions. Needing none, it says nothing.
    expect_pass
    said=$(LC_ALL=C grep -aEc -- "host b \\(root@$mgmt_b:22\\): .*MaxSessions" "$(run_log)")
    if [ "$said" -gt 0 ]; then
      expect_once "host b \\(root@$mgmt_b:22\\): .*MaxSessions"
      expect_message "host b \\(root@$mgmt_b:22\\): .*(opens connection 2 to this host|over a connection of its own)"
    fi
    echo "MaxSessions named $said time(s) (a second connection was $([ "$said" -gt 0 ] || echo "not ")needed)"
    expect_results
    # Never blamed on the SFTP server's configuration, a lost link, or host a.
    expect_no_message 'Subsystem sftp|SFTP subsystem|connection lost|host a [^:]*:[^(]*MaxSessions'
    expect_clean
    ;;
  probe-dir-full)
    mkdir -p "$state/tmp-a/${full#/tmp/}"
    in_host a mount -t tmpfs -o size=64k,mode=1777 lgfault-full "$full" || fail "cannot mount a tmpfs on host a"
    in_host a sh -c "head -c 1M /dev/zero > $full/filler" 2>/dev/null
    avail=$(in_host a df -k --output=avail "$full" | tail -1)
    [ "$avail" -eq 0 ] || fail "host a's $full still has ${avail} KiB free"
    lab_profile "$work/p.toml"
    profile=$work/p.toml
    sed -i "/^\\[hosts\\.a\\]/a probe_dir = \"$full\"" "$profile"
    rr_test 1s
    # The lease first (lease_dir is probe_dir unless set), then, with the lease
    # elsewhere, the run's own files: each named with the bytes free.
    for step in lease files; do
      note "host a's probe_dir $full is full; the $step would go there"
      [ $step = files ] && sed -i "/^\\[hosts\\.a\\]/a lease_dir = \"/tmp\"" "$profile"
      start_gate
      wait_gate 60
      expect_rc 3
      if [ $step = lease ]; then
        expect_message "host a: cannot take the lab lease $full/labgate-lease-hk-[0-9a-f]+ .*No space left on device.* 0 bytes free on $full"
      else
        # The run's owner note is its first file there, written by the request that makes the directory (issue 23).
        expect_message "host a: cannot write the owner note into the run's directory $full/labgate-lab-pair$pair\\.hk-[0-9a-f]+\\.[0-9a-f]+: .*No space left on device; 0 bytes free on $full"
      fi
      expect_once "host a.*No space left on device"
      expect_no_message ': ok$|host b[ :(].*(No space|bytes free)'
      expect_results
      left=$(in_host a ls -A "$full")
      [ "$left" = filler ] || fail "left on host a's full $full: $(echo $left)"
      host_dirs=("$full")
      expect_clean
    done
    ;;
  revoked-key)
    kh=$work/known_hosts
    grep -E "^(\\[)?${mgmt_a}[] ]" "$state/known_hosts" >"$kh"
    for t in rsa ed25519 ecdsa; do echo "@revoked * $(cut -d' ' -f1,2 "$state/host-b-$t.pub")" >>"$kh"; done
    before=$(md5sum <"$kh")
    lab_profile "$work/p.toml"
    profile=$work/p.toml
    set_key "$profile" known_hosts "\"$kh\""
    set_key "$profile" accept_new_host_keys true
    rr_test 1s
    start_gate
    wait_gate 60
    expect_rc 3
    expect_message "host b \\(root@$mgmt_b:22\\): REVOKED HOST KEY: .*marks @revoked"
    expect_once "host b \\(root@$mgmt_b:22\\): REVOKED HOST KEY"
    expect_no_message 'ACCEPTED NEW HOST KEY|host a \(root'
    [ "$(md5sum <"$kh")" = "$before" ] || { cat "$kh"; fail "known_hosts changed"; }
    expect_results
    expect_clean # host a, reached, keeps nothing either
    ;;
  lease-profiles)
    # Same servers, two lab names; each waits 1 s at most for the other. Started
    # in the same second with the same --suffix (two agents' nightly jobs), the
    # two results folders have one name: the leases must still tell them apart.
    for n in x y; do
      lab_profile "$work/$n.toml" "lab-pair$pair-$n"
      set_key "$work/$n.toml" lease_wait '"1s"'
      rr_test 2s "$work/$n.toml"
      mkdir -p "$work/res-$n"
    done
    setsid "$bin/labgate" run "$work/x.toml" --suffix fault --results "$work/res-x" >"$work/out.x" 2>&1 &
    gate_pid=$!
    setsid "$bin/labgate" run "$work/y.toml" --suffix fault --results "$work/res-y" >"$work/out.y" 2>&1 &
    other_pid=$!
    t0=$SECONDS
    # Anything of both runs on a host at the same moment is two runs measuring.
    both=
    while kill -0 "$gate_pid" 2>/dev/null || kill -0 "$other_pid" 2>/dev/null; do
      [ $((SECONDS - t0)) -lt 60 ] || fail "the two runs still run after 60 s"
      for ns in "$ns_a" "$ns_b"; do
        [ -n "$(ns_pids "$ns" "labgate-lab-pair$pair-x\\.")" ] && [ -n "$(ns_pids "$ns" "labgate-lab-pair$pair-y\\.")" ] &&
          both="$both $ns@$((SECONDS - t0))s"
      done
      sleep 0.02
    done
    wait "$gate_pid"
    rc_x=$?
    wait "$other_pid"
    rc_y=$?
    gate_pid= other_pid=
    echo "run x exited $rc_x, run y $rc_y"
    [ -z "$both" ] || fail "both runs had processes on a host at once:$both"
    if [ "$rc_x" -eq 0 ] && [ "$rc_y" -eq 0 ]; then
      fail "both runs passed within one lease_wait: they cannot have taken turns"
    fi
    if [ "$rc_x" -eq 0 ]; then winner=x loser=y; else winner=y loser=x; fi
    eval "rc_w=\$rc_$winner rc_l=\$rc_$loser"
    win_id=$(sed -nE 's/^info: gate run ([^ ]+) on .*/\1/p' "$work/out.$winner" | head -1)
    for n in $winner $loser; do
      cp "$work/out.$n" "$work/out"
      eval "rc=\$rc_$n"
      note "run $n"
      tail -8 "$work/out" | sed 's/^/  | /'
      if [ "$n" = "$winner" ]; then
        results_root=$work/res-$n expect_pass
      else
        expect_rc 3
        expect_message "host a: the lab lease .* is held by .*, run ${win_id}[^ ]* of lab lab-pair$pair-$winner.*waited 1s"
        results_root=$work/res-$n expect_once "host a: the lab lease .* is held by .*run $win_id"
      fi
      results_root=$work/res-$n expect_results
    done
    profile=$work
    expect_clean
    ;;
  shared-probe-dir)
    lab_profile "$work/p.toml"
    profile=$work/p.toml
    set_key "$profile" user '"labgate-ops"'
    set_key "$profile" probe_dir "\"$shared\""
    rr_test 1s
    tag_a=$(host_tag a) tag_b=$(host_tag b)
    [ -n "$tag_a" ] && [ -n "$tag_b" ] && [ "$tag_a" != "$tag_b" ] || fail "host tags '$tag_a' (a) and '$tag_b' (b)"
    prefix=labgate-lab-pair$pair.
    host_dirs=("$shared")
    note "one run, both hosts' probe_dir the one directory ($tag_a on a, $tag_b on b)"
    stale=$(plant_leftover "$tag_b")
    start_gate
    together=
    while kill -0 "$gate_pid" 2>/dev/null; do
      seen=$(ls "$state/shared" 2>/dev/null | grep -E "^${prefix//./\\.}hk-[0-9a-f]{16}\.[0-9a-f]{16}$" | grep -vxF "${stale##*/}")
      grep -q "^$prefix$tag_a\\." <<<"$seen" && grep -q "^$prefix$tag_b\\." <<<"$seen" && together=$seen
      [ -n "$together" ] && break
      sleep 0.02
    done
    wait_gate 60
    expect_pass
    [ -n "$together" ] || fail "never saw both hosts' run directories, each with its tag, in $shared"
    echo "run directories side by side in $shared:" $together
    # b's sweep took b's dead run, not a's: a's own sweep may not take it either.
    expect_once "host b: removed $stale left behind"
    expect_no_message "host a: removed"
    [ ! -e "$state/shared/${stale##*/}" ] || fail "b's dead run $stale is still there"
    expect_results
    expect_clean

    note "a run on a alone is live; a run on b alone sweeps the same directory"
    # a's command runs until this case releases it (a file in a's /tmp).
    release=$state/tmp-a/lgfault-release
    planted+=("$release")
    for h in a b; do
      if [ $h = a ]; then
        test_name=live_on_a argv='["sh", "-c", "until [ -e /tmp/lgfault-release ]; do sleep 0.05; done"]'
      else
        test_name=quick_on_b argv='["true"]'
      fi
      cat >"$work/only-$h.toml" <<EOF
[lab]
name = "lab-pair$pair"
lease_wait = "5s"

[defaults.ssh]
user = "labgate-ops"
identity = "$state/id_rsa"
known_hosts = "$state/known_hosts"
connect_timeout = "5s"
command_timeout = "20s"
probe_dir = "$shared"

[hosts.$h]
address = "$(eval echo "\$mgmt_$h")"
test_address = "$(eval echo "\$ic_$h")"

[[test]]
name = "$test_name"
kind = "command"
on = "$h"
argv = $argv
count = 1
timeout = "10s"
budget = { max = "10s" }
EOF
    done
    stale=$(plant_leftover "$tag_b")
    profile=$work/only-a.toml
    start_gate
    wait_remote_process "$ns_a" "lgfault-release" 30 >/dev/null
    live=$(ls -d "$state/shared/$prefix$tag_a".* 2>/dev/null | head -1)
    [ -n "$live" ] || fail "a's live run has no directory tagged $tag_a in $shared"
    mkdir -p "$work/res-b"
    timeout 60 "$bin/labgate" run "$work/only-b.toml" --suffix fault --results "$work/res-b" >"$work/out.b" 2>&1
    rc_b=$?
    [ -n "$(ns_pids "$ns_a" "lgfault-release")" ] || fail "a's live command did not survive b's run"
    [ -d "$live" ] || fail "b's run removed a's live run directory ${live##*/}"
    [ "$rc_b" -eq 0 ] || { tail -20 "$work/out.b"; fail "the run on b alone exited $rc_b"; }
    [ "$(grep -cF "host b: removed $stale left behind" "$work/out.b")" -eq 1 ] ||
      { cat "$work/out.b"; fail "b's run did not say once that it swept b's dead run $stale"; }
    [ ! -e "$state/shared/${stale##*/}" ] || fail "b's dead run $stale is still there"
    echo "b's run swept ${stale##*/} while a's ${live##*/} ran, and left it alone"
    touch "$release"
    wait_gate 60
    expect_pass
    expect_results
    profile=$work
    expect_clean
    ;;
  *) fail "unknown case $case_name (banner csh maxsessions probe-dir-full revoked-key lease-profiles shared-probe-dir)" ;;
esac
echo "ok: $case_name"
