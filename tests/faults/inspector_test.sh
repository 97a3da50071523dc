#!/usr/bin/env bash
# inspect_leftovers.sh finds each kind of leftover on lab pair 3 (a process and
# a listener in a host's namespace, a run directory and a lease in a host's
# /tmp) and passes a clean pair. Needs root and `ci/lab up --pair 3`.
set -uo pipefail
src=$(cd "$1" && pwd)
inspect=$src/tests/faults/inspect_leftovers.sh
pair=${LABGATE_FAULT_PAIR:-3} # or a helper's own pair, up
tmp_b=$src/.lab/pair$pair/tmp-b
fail() { echo "FAIL: $*" >&2; exit 1; }
pids=()
cleanup() {
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  rm -rf "$tmp_b/labgate-lab-pair$pair.inspector" "$tmp_b/labgate-lease-lab-pair$pair"
}
trap cleanup EXIT
"$src/ci/lab" up --pair "$pair" >/dev/null || fail "ci/lab up --pair $pair failed"
bash "$inspect" --pair "$pair" --wait 5 || fail "a freshly repaired pair is reported dirty"

expect_found() {
  local out
  out=$(bash "$inspect" --pair "$pair" --wait 1 2>&1) && fail "inspector passed with $1 left"
  grep -q -- "$2" <<<"$out" || { echo "$out"; fail "inspector did not name $1"; }
  echo "found $1: $(grep -m1 -- "$2" <<<"$out")"
}

ip netns exec "lg$pair-b" sleep 300 &
pids+=($!)
sleep 0.3
expect_found "a process on b" "b: process .*sleep 300"
kill "${pids[@]}"; wait 2>/dev/null; pids=()

# A listener, as a probe server left running would be.
ip netns exec "lg$pair-a" bash -c 'exec 3<>/dev/null; exec python3 -c "import socket,time
s=socket.socket(); s.bind((\"198.19.'"$pair"'.1\", 47001)); s.listen(); time.sleep(300)"' &
pids+=($!)
for _ in $(seq 50); do ip netns exec "lg$pair-a" ss -Hltn 'sport = :47001' | grep -q . && break; sleep 0.1; done
expect_found "a listener on a" "a: listening in lg$pair-a: .*198.19.$pair.1:47001"
kill "${pids[@]}"; wait 2>/dev/null; pids=()

mkdir "$tmp_b/labgate-lab-pair$pair.inspector"
expect_found "a run directory on b" "b: left in /tmp: labgate-lab-pair$pair.inspector"
rmdir "$tmp_b/labgate-lab-pair$pair.inspector"
mkdir "$tmp_b/labgate-lease-lab-pair$pair"
expect_found "a lease on b" "b: left in /tmp: labgate-lease-lab-pair$pair"
rmdir "$tmp_b/labgate-lease-lab-pair$pair"

bash "$inspect" --pair "$pair" --wait 5 || fail "inspector still reports leftovers after they were removed"
bash "$inspect" --pair "$pair" --bogus >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown option is not a usage error (exit 2)"
echo "ok: inspector"
