#!/usr/bin/env bash
# The cmdrun probe under the RHEL 5 (2.6.18) system-call filter, children
# included (the filter is inherited): runs that pass, runs that fail with their
# stderr kept, and a run killed at its timeout; nothing is left in --scratch.
set -uo pipefail
rhel5=$1
probe=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
check() {  # check JSON PYTHON-EXPRESSION-ON-j
  python3 -c 'import json,sys; j=json.loads(sys.argv[1]); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2" ||
    fail "$2 does not hold for: $1"
}

out=$("$rhel5" "$probe" --count 3 --scratch "$dir" -- "$probe" --version) || fail "cmdrun exited $? under the filter"
check "$out" 'j["status"] == "ok" and len(j["runs"]) == 3 and all(r[1] == 0 and r[2] == 0 for r in j["runs"])'
check "$out" 'j["exec_overhead_p50_ns"] > 0 and all(r[0] > 0 for r in j["runs"])'

out=$("$rhel5" "$probe" --count 2 --scratch "$dir" -- "$probe") || fail "cmdrun exited $? under the filter"
check "$out" '[r[1] for r in j["runs"]] == [2, 2] and "no command" in j["first_failure_stderr"]'

out=$("$rhel5" "$probe" --count 1 --timeout 300ms --scratch "$dir" -- "$probe" --count 2 --pause 5s -- "$probe" --version) ||
  fail "cmdrun exited $? under the filter"
check "$out" 'j["runs"][0][2] == 1 and 3e8 <= j["runs"][0][0] < 3e9'

[ -z "$(ls -A "$dir")" ] || fail "cmdrun left files in --scratch: $(ls -A "$dir")"
echo "ok: cmdrun under the RHEL 5 filter"
