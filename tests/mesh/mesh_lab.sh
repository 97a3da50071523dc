#!/usr/bin/env bash
# The mesh lab's tests (issue 16): `labgate run` of profiles/lab-mesh.toml, a
# six-host tcp_rr mesh in disjoint rounds, on the mesh lab (ci/lab up --mesh 6,
# brought up by the CTest fixture). One case per call:
#   rounds        the whole mesh: schedule, every ordered pair once, no host in
#                 two pairs at once, each round's pairs at the same time, results
#                 in run.json/JUnit/report.html, nothing left on any host
#   failing-pair  m3 and m4 cannot reach each other (a prohibit route on m3): those
#                 two pairs are errors, every other pair of their rounds and of
#                 the later rounds still measures
#   sigint        Ctrl-C during round 2: the run ends within 15 s, exit 3, the
#                 round's pairs interrupted, none begun after, every host clean
#
#   mesh_lab.sh CASE BIN_DIR SOURCE_DIR      (root)
set -uo pipefail
case_name=$1
bin=$(cd "$2" && pwd)
src=$(cd "$3" && pwd)
hosts=m1,m2,m3,m4,m5,m6
work=$(mktemp -d /var/tmp/labgate-mesh.XXXXXX)
unset LABGATE_RUN_DIR LABGATE_RUN_DIR_FILE LABGATE_PROFILE
cleanup() {
  [ -n "${gate_pid:-}" ] && kill -KILL -- -"$gate_pid" 2>/dev/null
  ip netns exec lgm-m3 ip route del prohibit 198.19.200.4/32 2>/dev/null
  [ -n "${MESH_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
cd "$src"

# start_gate (labgate run "$profile" in its own process group) and wait_gate
# (a hard deadline; sets rc and took) are the fault matrix's.
# shellcheck source=../faults/fault_lib.sh
. "$src/tests/faults/fault_lib.sh"
profile=$src/profiles/lab-mesh.toml
fail() { echo "mesh_lab $case_name: FAIL: $*" >&2; exit 1; }
run_dir() { ls -d "$work/results"/*/ 2>/dev/null | head -1; }
check() {
  python3 "$src/tests/mesh/check_mesh_run.py" "$(run_dir)" --hosts "$hosts" "$@" ||
    { tail -30 "$work/out"; fail "the results break the disjoint schedule's promises (above)"; }
}
clean() {
  bash "$src/tests/faults/inspect_leftovers.sh" --mesh 6 --wait 10 --local "$work" ||
    fail "the run left something on a host (above)"
}

case $case_name in
  rounds)
    start_gate -L latency
    wait_gate 80
    # Budgets are not the point here (three pairs share 2 cores): pass or budget fail.
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || { tail -30 "$work/out"; fail "exit $rc, expected 0 or 1"; }
    grep -q "mesh_rr: round 10: " "$work/out" || fail "no round 10 in the log"
    check
    clean
    ;;
  failing-pair)
    ip netns exec lgm-m3 ip route add prohibit 198.19.200.4/32 || fail "cannot add the prohibit route on m3"
    start_gate -L latency
    wait_gate 80
    [ "$rc" = 3 ] || { tail -30 "$work/out"; fail "exit $rc, expected 3 (two pairs could not run)"; }
    check --failing "m3->m4,m4->m3"
    ip netns exec lgm-m3 ip route del prohibit 198.19.200.4/32
    clean
    ;;
  sigint)
    start_gate -L latency
    # Round 2 begins: its three pairs are measuring when Ctrl-C lands.
    until=$((SECONDS + 40))
    until grep -q "mesh_rr: round 2: " "$work/out" 2>/dev/null; do
      [ $SECONDS -lt $until ] || fail "round 2 did not start within 40 s"
      kill -0 "$gate_pid" 2>/dev/null || fail "labgate ended before round 2"
      sleep 0.1
    done
    sleep 0.5
    echo "Ctrl-C (SIGINT to the process group) in round 2"
    kill -INT -- -"$gate_pid"
    signalled=$SECONDS
    wait_gate 15
    [ "$rc" = 3 ] || { tail -30 "$work/out"; fail "exit $rc after SIGINT, expected 3"; }
    echo "ended $((SECONDS - signalled)) s after the signal"
    check --interrupted
    clean
    ;;
  *)
    echo "mesh_lab: unknown case '$case_name' (rounds, failing-pair, sigint)" >&2
    exit 2
    ;;
esac
echo "mesh_lab $case_name: ok"
