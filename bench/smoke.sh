#!/usr/bin/env bash
# A bench script's smoke test (ctest label `bench`): it passes only when the
# script exits 0 and its output holds the table row REGEX (grep -E), so a crash
# after the header or a table cut short fails. It never judges a timing. Exit
# 77 is passed on: a script that cannot measure on this machine says why and is
# a skip (SKIP_RETURN_CODE 77), never a pass.
#   smoke.sh REGEX COMMAND...
set -uo pipefail
regex=$1
shift
out=$(mktemp /tmp/labgate-bench-smoke.XXXXXX)
trap 'rm -f "$out"' EXIT
"$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 77 ]; then
  echo "smoke: SKIP: ${*:1:2} cannot measure here (it said why above)" >&2
  exit 77
fi
if [ "$rc" -ne 0 ]; then
  echo "smoke: FAIL: ${*:1:2} exited $rc" >&2
  exit 1
fi
if ! grep -qE -- "$regex" "$out"; then
  echo "smoke: FAIL: ${*:1:2} printed no line matching '$regex'" >&2
  exit 1
fi
echo "smoke: ${*:1:2} exited 0 and printed its table"
