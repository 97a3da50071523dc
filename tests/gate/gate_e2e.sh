#!/usr/bin/env bash
# End-to-end gate tests on the built-in lab (needs root and `ci/lab up`):
#   pass       labgate run on profiles/lab.toml runs and judges every case on a
#              conforming lab: exit 0, or 1 when only timing budgets failed (a
#              loaded host's scheduler breaks those; tests/gate/scheduler_only.py)
#   sysctl     with net.ipv4.tcp_sack=1 on host b, `labgate check` exits 1 naming
#              host b, the key and both values, and the run's junit.xml names the test
#   unreachable an unreachable host is exit 3 ("the gate could not run"), not 1
#   adapters   `labgate run` and the CTest adapter (`ctest -L gate`, what
#              `ctest --preset gate` runs) on one profile made to fail the same way
#              every time (adapters_agree.py): the same exit code, conformance,
#              check and case verdicts in run.json, and the same JUnit cases
# LABGATE_E2E_RUN_ARGS adds options to the pass case's `labgate run`: ci/test
# shortens its measurements with --duration (it proves the whole path of `labgate
# run`, and under ASan its memory safety; the gate suite, gate.*, runs the lab
# profile as written, and the adapters case shows both paths judge alike).
set -uo pipefail
case_name=$1
bin=$2
src=$3
# shellcheck source=../e2e_work.sh
. "$src/tests/e2e_work.sh"
e2e_work "$bin" "gate-$case_name"
trap 'e2e_work_done $?' EXIT
cd "$src"
export LABGATE_RESULTS=$work/results
fail() { echo "FAIL: $*" >&2; exit 1; }

case $case_name in
  pass)
    # shellcheck disable=SC2086 # LABGATE_E2E_RUN_ARGS is a list of options
    "$bin/labgate" run profiles/lab.toml --suffix e2e --results "$work/results" ${LABGATE_E2E_RUN_ARGS:-} \
      >"$work/out" 2>&1
    rc=$?
    tail -25 "$work/out"
    # 0, or 1 when only a timing budget failed: a shared VM's scheduler can break
    # those (timer jitter, a max), so they are said, not asserted (scheduler_only.py).
    [ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "labgate run exited $rc, expected 0 (or 1 for a timing budget)"
    run=$(ls -d "$work"/results/*-e2e) || fail "no results folder"
    python3 "$src/tests/gate/scheduler_only.py" "$run" || fail "labgate run exited $rc for more than timing"
    for f in run.json junit.xml report.html checks.json profile.toml facts/a.json facts/b.json; do
      [ -s "$run/$f" ] || fail "results folder lacks $f"
    done
    grep -q 'name="p99_us"' "$run/junit.xml" || fail "junit.xml carries no p99_us property"
    grep -q 'tcp_rr_64/a-&gt;b' "$run/junit.xml" || fail "junit.xml does not name Latency.tcp_rr_64/a->b"
    ;;
  sysctl)
    ip netns exec lg-b sysctl -qw net.ipv4.tcp_sack=1 || fail "cannot change the sysctl in lg-b"
    trap 'rc=$?; ip netns exec lg-b sysctl -qw net.ipv4.tcp_sack=0; e2e_work_done $rc' EXIT
    "$bin/labgate" check profiles/lab.toml >"$work/out" 2>&1
    rc=$?
    cat "$work/out"
    [ $rc -eq 1 ] || fail "labgate check exited $rc, expected 1"
    grep -q 'host b: /proc/sys/net/ipv4/tcp_sack is 1, profile wants 0' "$work/out" ||
      fail "the failure does not name host b, the key and both values"
    "$bin/labgate" run profiles/lab.toml -L preconditions --suffix sack --results "$work/results" >"$work/run" 2>&1
    rc=$?
    [ $rc -eq 1 ] || { cat "$work/run"; fail "labgate run -L preconditions exited $rc, expected 1"; }
    junit=$(ls "$work"/results/*-sack/junit.xml)
    grep -q 'name="b/sysctl/net.ipv4.tcp_sack"' "$junit" || fail "junit.xml does not name b/sysctl/net.ipv4.tcp_sack"
    sed -n '/name="b\/sysctl\/net.ipv4.tcp_sack"/,\#<\/testcase>#p' "$junit" | grep -q '<failure' || fail "that testcase is not a failure"
    ;;
  unreachable)
    sed 's/198\.18\.0\.6/198.18.0.250/; s/connect_timeout = .*/connect_timeout = "2s"/' profiles/lab.toml >"$work/lab.toml"
    sed -i "s#\.\./\.lab/#$src/.lab/#g" "$work/lab.toml"
    timeout 120 "$bin/labgate" check "$work/lab.toml" >"$work/out" 2>&1
    rc=$?
    cat "$work/out"
    [ $rc -eq 3 ] || fail "labgate check exited $rc, expected 3"
    grep -q 'host b' "$work/out" || fail "the error does not name host b"
    ;;
  adapters)
    python3 "$src/tests/gate/adapters_agree.py" profile "$src" "$work/agree.toml" || fail "cannot write the profile"
    timeout 300 "$bin/labgate" run "$work/agree.toml" --suffix direct --results "$work/results" >"$work/run.out" 2>&1
    rc=$?
    tail -8 "$work/run.out"
    [ $rc -eq 1 ] || fail "labgate run exited $rc, expected 1 (see $work/run.out)"
    # The CTest adapter: its own results folder (build dir's results/, suffix ctest).
    build=$(cd "$bin/.." && pwd)
    before=$(ls -d "$build"/results/*-ctest 2>/dev/null | sort | tail -1)
    LABGATE_PROFILE=$work/agree.toml timeout 400 ctest --test-dir "$build" -L '^gate$' >"$work/ctest.out" 2>&1
    ctest_rc=$?
    tail -12 "$work/ctest.out"
    [ $ctest_rc -ne 0 ] || fail "ctest -L gate passed a profile made to fail"
    ctest_run=$(ls -d "$build"/results/*-ctest 2>/dev/null | sort | tail -1)
    [ -n "$ctest_run" ] && [ "$ctest_run" != "$before" ] || fail "ctest -L gate made no new results folder"
    python3 "$src/tests/gate/adapters_agree.py" compare "$(ls -d "$work"/results/*-direct)" "$ctest_run" ||
      fail "the two adapters disagree (above)"
    ;;
  *) fail "unknown case $case_name" ;;
esac
echo "ok: $case_name"
