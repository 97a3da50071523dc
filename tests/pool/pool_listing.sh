#!/usr/bin/env bash
# The pool's CTest tests without a lab (no root): with LABGATE_POOL set, ctest
# lists a set-up, preconditions and clean-up test per pair and the gate's tests,
# each measurement asking for one pair (RESOURCE_GROUPS pairs:1) and each
# preconditions test for every pair; run without --resource-spec-file a pool test
# fails at once saying how to run it; a pool without resources.json is one
# failing test naming the file.
#   pool_listing.sh BUILD_DIR SOURCE_DIR POOL_CTEST_DIR
set -uo pipefail
build=$1 src=$2 ctest_dir=$3
work=$(mktemp -d)
state=$build/gate/pool/$(printf '%s' "$work/pool" | md5sum | cut -c1-12)  # as gate_pool_tests.cmake names it
trap 'rm -rf "$work" "$state"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

bash "$src/ci/pool" lab "$work/pool" 6 7 >/dev/null || fail "ci/pool lab"
LABGATE_POOL=$work/pool ctest --test-dir "$ctest_dir" --show-only=json-v1 >"$work/tests.json" 2>"$work/err" ||
  { cat "$work/err"; fail "ctest --show-only"; }
/usr/bin/python3 - "$work/tests.json" <<'PY' || fail "the pool's tests are not as designed"
import json, sys
tests = {t["name"]: {p["name"]: p["value"] for p in t.get("properties", [])} for t in json.load(open(sys.argv[1]))["tests"]}
def groups(name):
    return [[(r[".type"], r["slots"]) for r in g["requirements"]] for g in tests[name].get("RESOURCE_GROUPS", [])]
for pair in ("pair6", "pair7"):
    for step in ("setup", "finish"):
        name = "gate.pool.%s.%s" % (step, pair)
        assert name in tests and not groups(name), name + ": missing, or holds a pair"
    assert groups("gate.pool.preconditions." + pair) == [[("pairs", 1)]] * 2, "preconditions must hold every pair"
measured = [n for n in tests if not n.startswith("gate.pool.")]
assert "gate.latency.tcp_rr_64" in measured, "the gate's tests are missing"
for n in measured:
    assert groups(n) == [[("pairs", 1)]], n + " must ask for exactly one pair"
    assert "gate.pool.preconditions.pair6" in tests[n]["DEPENDS"], n + " must follow the preconditions"
    assert "RESOURCE_LOCK" not in tests[n], n + ": a lock would serialise the pool"
print("ok: %d measurement tests, each on one pair of 2" % len(measured))
PY

LABGATE_POOL=$work/pool LABGATE_RESULTS=$work/results timeout 60 \
  ctest --test-dir "$ctest_dir" -R '^gate\.latency\.tcp_rr_64$' --output-on-failure >"$work/out" 2>&1
rc=$?
[ $rc -ne 0 ] || { cat "$work/out"; fail "a pool test passed without resource allocation"; }
grep -q "no pair was allocated: run ctest with --resource-spec-file $work/pool/resources.json" "$work/out" ||
  { cat "$work/out"; fail "the pool test does not say how to run it"; }

rm "$work/pool/resources.json"
LABGATE_POOL=$work/pool timeout 60 ctest --test-dir "$ctest_dir" --output-on-failure >"$work/out" 2>&1
[ $? -ne 0 ] || fail "a pool without resources.json passed"
grep -q "gate.pool.spec" "$work/out" && grep -q "no $work/pool/resources.json" "$work/out" ||
  { cat "$work/out"; fail "a pool without resources.json is not one failing test naming it"; }
echo "ok: pool listing"
