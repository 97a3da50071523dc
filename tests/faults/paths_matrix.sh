#!/usr/bin/env bash
# Issue 22's path and host cases of the fault matrix, on lab pair 3 (root; the
# ctest fixture brings it up): a real `labgate run` each, checking the exit
# code, the cause named, nothing measured discarded, nothing left on either
# host, and for the symlink cases where files landed.
#   results-symlink    the results folder's parent is swapped for a symlink to an
#                      empty folder mid-measurement: one folder holds the whole
#                      run (log, facts, tests, run.json, report), the swap is
#                      said, the symlink's target stays empty
#   symlink-probe-dir  probe_dir = "/tmp/etclink/default" with etclink -> /tmp/lgreal
#                      on host a: exit 3 naming the symlink and the resolved path,
#                      for the lease (lease_dir is probe_dir) and, with the lease
#                      elsewhere, for the run directory; nothing made through it;
#                      named as the resolved path, the run passes
#   cloned-hosts       host b presents host a's host key and both use one probe_dir
#                      on storage they share: named at connect time, the run
#                      passes; a planted directory of a's "live" run there is
#                      kept by b's sweep, a dead one of b's is removed
#   validate-limits    message_size = 1e12, a 100 KB test name, probe_dir =
#                      "/tmp/../etc": exit 2 from `labgate run` at the value's
#                      file:line:column naming the limit, before any host is reached
#
#   paths_matrix.sh CASE BIN_DIR SOURCE_DIR
set -uo pipefail
case_name=$1
bin=$(cd "$2" && pwd)
src=$(cd "$3" && pwd)
work=$(mktemp -d /var/tmp/labgate-path-faults.XXXXXX)
unset LABGATE_RUN_DIR LABGATE_RUN_DIR_FILE LABGATE_PROFILE
# shellcheck source=fault_lib.sh
. "$src/tests/faults/fault_lib.sh"
shared=/var/tmp/lgclone-pair$pair # the real /var/tmp: the pair's hosts share it (only /tmp is theirs)
restore_keys=

cleanup() {
  [ -n "${gate_pid:-}" ] && kill -KILL -- -"$gate_pid" 2>/dev/null
  rm -rf "$state/tmp-a/lgreal" "$state/tmp-a/etclink" "$shared"
  if [ -n "$restore_keys" ]; then
    for f in "$work"/keys/host-b-*; do cp -p "$f" "$state/"; done
    kill_sshd "$ns_b"
  fi
  cd /
  [ -n "${FAULT_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
  "$src/ci/lab" up --pair "$pair" >/dev/null 2>&1 # b's own key back, known_hosts rewritten
}
trap cleanup EXIT
cd "$work" || fail "cannot enter $work"
"$src/ci/lab" up --pair "$pair" >/dev/null || fail "ci/lab up --pair $pair failed"
if ! bash "$src/tests/faults/inspect_leftovers.sh" --pair "$pair" --wait 2; then
  make_profile 3s
  recover
fi

# The run's test passed or failed on figures (0 or 1), never could-not-run: it was measured.
expect_measured() {
  expect_rc 0 1
  grep -q '"name":"tcp_rr_64"' "$(run_dir)/run.json" || fail "run.json lacks the measured tcp_rr_64"
}

case $case_name in
  results-symlink)
    make_profile 8s
    results_root=$work/res/results
    start_gate
    wait_remote_process "$ns_a" "pingpong" 40 comm >/dev/null
    # Mid-measurement, the results root's parent moves away and a symlink to an
    # empty folder takes its place: writing by path would now land there.
    mv "$work/res" "$work/res.moved" && mkdir "$work/decoy" && ln -s "$work/decoy" "$work/res" ||
      fail "cannot swap $work/res"
    wait_gate 90
    results_root=$work/res.moved/results
    expect_measured
    expect_message "the results folder's path $work/res/results/.* no longer leads to this run's folder"
    expect_message "results: $work/res.moved/results/"
    [ -z "$(find "$work/decoy" -mindepth 1 | head -1)" ] ||
      { find "$work/decoy"; fail "the run was split: files landed in the symlink's target"; }
    dir=$(run_dir)
    for f in run.json junit.xml report.html labgate.log profile.toml facts/a.json facts/b.json; do
      [ -s "$dir/$f" ] || fail "$dir lacks $f"
    done
    ls "$dir"/tests/tcp_rr_64/*/measurement.json >/dev/null 2>&1 || fail "$dir lacks the measurement"
    grep -q "no longer leads" "$dir/run.json" || fail "run.json does not record the swap"
    grep -q "labgate: .*(exit $rc)" "$dir/labgate.log" || fail "labgate.log lacks the run's end (written after the swap)"
    echo "one folder: $dir"
    expect_results
    expect_clean
    ;;
  symlink-probe-dir)
    make_profile 2s
    mkdir -p "$state/tmp-a/lgreal/default" && ln -s /tmp/lgreal "$state/tmp-a/etclink" || fail "cannot plant etclink"
    sed -i '/^\[hosts\.a\]/a probe_dir = "/tmp/etclink/default"' "$profile"
    start_gate
    wait_gate 60
    expect_rc 3
    expect_message 'host a: lease_dir \(probe_dir\) /tmp/etclink/default: /tmp/etclink is a symlink.*lease_dir = "/tmp/lgreal/default"'
    [ -z "$(ls -A "$state/tmp-a/lgreal/default")" ] || fail "the lease was taken through the symlink"
    no_exit_record=1 expect_results
    # The lease elsewhere: the run's directory is the one refused.
    sed -i '/^\[hosts\.a\]/a lease_dir = "/tmp"' "$profile"
    start_gate
    wait_gate 60
    expect_rc 3
    expect_message 'host a: probe_dir /tmp/etclink/default: /tmp/etclink is a symlink.*probe_dir = "/tmp/lgreal/default"'
    expect_message 'could not start the run on the hosts'
    [ -z "$(ls -A "$state/tmp-a/lgreal/default")" ] || fail "a run directory was made through the symlink"
    no_exit_record=1 expect_results
    # Named as what it resolves to, it is where the run goes.
    sed -i 's#^probe_dir = "/tmp/etclink/default"#probe_dir = "/tmp/lgreal/default"#' "$profile"
    start_gate
    seen=
    while kill -0 "$gate_pid" 2>/dev/null && [ -z "$seen" ]; do
      seen=$(ls "$state/tmp-a/lgreal/default" 2>/dev/null | grep "^labgate-lab-pair$pair\\.")
      sleep 0.02
    done
    wait_gate 60
    expect_measured
    [ -n "$seen" ] || fail "never saw the run's directory in the resolved probe_dir"
    echo "run directory where the profile said: /tmp/lgreal/default/$seen"
    # The probe cache (issue 23) is kept there on purpose; nothing else may be.
    [ -z "$(ls -A "$state/tmp-a/lgreal/default" | grep -v '^labgate-probe-cache\.')" ] ||
      fail "the run left something in /tmp/lgreal/default"
    expect_results
    expect_clean
    ;;
  cloned-hosts)
    # Host b takes host a's host key (its own kept to restore), as a cloned image has.
    mkdir -p "$work/keys" && cp -p "$state"/host-b-* "$work/keys/" || fail "cannot keep b's keys"
    restore_keys=1
    for f in "$state"/host-a-*; do cp -p "$f" "$state/host-b-${f##*/host-a-}"; done
    kill_sshd "$ns_b"
    "$src/ci/lab" up --pair "$pair" >/dev/null || fail "ci/lab up with b's cloned key failed"
    make_profile 2s
    mkdir -p -m 0755 "$shared" || fail "cannot make $shared"
    set_key "$profile" probe_dir "\"$shared\""
    grep -q "^probe_dir = \"$shared\"" "$profile" || fail "probe_dir not set in $profile"
    host_dirs=("$shared")
    tag_a=$(host_tag a) tag_b=$(host_tag b)
    [ -n "$tag_a" ] && [ "$tag_a" = "$tag_b" ] || fail "host tags '$tag_a' (a) and '$tag_b' (b): not one key"
    prefix=labgate-lab-pair$pair.$tag_a.
    # A dead run of each host's (made in its namespace, stamped as the run
    # directory script does), both under the one prefix the clones share.
    stamp='mkdir -m 0700 "$1" && echo "$(cat /proc/sys/kernel/random/boot_id) $(readlink /proc/self/ns/net)" >"$1/boot"'
    of_a=$shared/${prefix}11111111aaaaaaaa of_b=$shared/${prefix}22222222bbbbbbbb
    ip netns exec "$ns_a" sh -c "$stamp" sh "$of_a" && ip netns exec "$ns_b" sh -c "$stamp" sh "$of_b" ||
      fail "cannot plant the two run directories"
    start_gate
    both=
    while kill -0 "$gate_pid" 2>/dev/null; do
      # The run's own directories, both hosts', live side by side under one prefix.
      n=$(ls "$shared" | grep -E "^${prefix//./\\.}[0-9a-f]{16}$" | grep -cvE '11111111aaaaaaaa|22222222bbbbbbbb')
      [ "$n" -ge 2 ] && both=$(ls "$shared")
      [ -n "$both" ] && break
      sleep 0.02
    done
    wait_gate 60
    expect_measured
    expect_once "hosts a and b present the same host key \\($tag_a\\): cloned image\\?"
    [ -n "$both" ] || fail "never saw both hosts' run directories under the one prefix in $shared"
    echo "side by side in $shared:" $both
    # Each host's sweep took its own dead run and never the other machine's (which
    # it kept, when it saw it before that machine's own sweep took it).
    expect_message "host a: removed $of_a left behind"
    expect_message "host b: removed $of_b left behind"
    expect_no_message "host b: removed $of_a|host a: removed $of_b"
    LC_ALL=C grep -aE "host (a|b): removed " "$work/out" | grep -vE '11111111aaaaaaaa|22222222bbbbbbbb' &&
      fail "a sweep removed one of this run's own directories"
    LC_ALL=C grep -aE "host (a|b): kept " "$work/out" | cut -c1-200
    [ ! -e "$of_a" ] && [ ! -e "$of_b" ] || fail "a dead run is still there"
    expect_results
    expect_clean
    ;;
  validate-limits)
    lab_profile "$work/p.toml"
    profile=$work/p.toml
    rr_test 1s
    cp "$profile" "$work/base.toml"
    for what in size name dir; do
      cp "$work/base.toml" "$profile"
      case $what in
        size) sed -i '/^name = "tcp_rr_64"/a message_size = 1000000000000' "$profile"
              want='p\.toml:[0-9]+:16: test\[tcp_rr_64\]\.message_size: .*at most 1048576 bytes' ;;
        name) sed -i "s/^name = \"tcp_rr_64\"/name = \"$(head -c 102400 /dev/zero | tr '\0' n)\"/" "$profile"
              want='p\.toml:[0-9]+:8: .*may be at most 128 bytes.*NAME_MAX' ;;
        dir)  set_key "$profile" probe_dir '"/tmp/../etc"'
              want='p\.toml:[0-9]+:[0-9]+: defaults\.ssh\.probe_dir: "/tmp/\.\./etc" is not in normal form.*"/etc" if' ;;
      esac
      start_gate
      wait_gate 30
      expect_rc 2
      expect_message "$want"
      [ "$took" -le 5 ] || fail "validate took ${took}s"
      expect_no_message 'connecting|lease'
      [ -z "$(run_dir)" ] || fail "a results folder was made for a profile that does not validate"
    done
    expect_clean
    ;;
  *)
    fail "unknown case $case_name"
    ;;
esac
echo "PASS: $case_name"
