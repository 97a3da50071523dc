#!/usr/bin/env bash
# The command, storage and BIOS parts of the gate on a lab pair (needs root; the
# pair is brought up here if it is not): a profile for the pair with
#   - command tests: one within budget, one whose runs fail (max_failures = 0),
#     one over its latency budget (sleep 50ms vs max = 10ms);
#   - disk tests: random read / write / rw with the built-in probe, a random read
#     under an impossible min_iops, and a random read by sysbench fileio;
#   - [preconditions.bios] rules, which the lab (no conrep) must skip with the reason;
# then `labgate run` and `labgate check`, and the results folder is checked test
# by test: passing budgets pass, failing ones fail naming the statistic, nothing
# could-not-run, and no test file is left in the hosts' /tmp.
set -uo pipefail
bin=$1
src=$2
pair=${3:-8}
# shellcheck source=../e2e_work.sh
. "$src/tests/e2e_work.sh"
e2e_work "$bin" kinds
# A pair this test brought up is taken down again: nothing is left running.
lab_down_if_ours() { [ -z "${brought_up:-}" ] || "$src/ci/lab" down --pair "$pair" >/dev/null 2>&1; }
trap 'rc=$?; lab_down_if_ours; e2e_work_done $rc' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

if ! "$src/ci/lab" status --pair "$pair" >/dev/null 2>&1; then
  "$src/ci/lab" up --pair "$pair" >/dev/null || fail "ci/lab up --pair $pair failed"
  brought_up=1
fi
a_mgmt=198.18.0.$((8 * pair - 6))
b_mgmt=198.18.0.$((8 * pair - 2))
state=$src/.lab/pair$pair

cat >"$work/kinds.toml" <<TOML
[lab]
name = "lab-pair$pair"
lease_wait = "120s"

[defaults.ssh]
user = "root"
identity = "$state/id_rsa"
known_hosts = "$state/known_hosts"
connect_timeout = "5s"
command_timeout = "60s"
probe_dir = "/tmp"

[hosts.a]
address = "$a_mgmt"
test_address = "198.19.$pair.1"

[hosts.b]
address = "$b_mgmt"
test_address = "198.19.$pair.2"

[preconditions.sysctl]
"net.ipv4.tcp_sack" = 0

[preconditions.bios]
Intel_Hyperthreading = "Disabled"
HP_Power_Profile = "Maximum_Performance"

[defaults.test]
duration = "1500ms"
warmup = "300ms"
interval = "500ms"
disk_dir = "/tmp"

[[test]]
name = "cmd_ok"
kind = "command"
on = "a"
argv = ["cat", "/proc/loadavg"]
count = 50
budget = { p99 = "500ms", max = "2s", max_failures = 0 }

[[test]]
name = "cmd_exit_fails"
kind = "command"
on = "b"
argv = ["sh", "-c", "echo no answer from ns1 >&2; exit 9"]
count = 5
budget = { max_failures = 0 }

[[test]]
name = "cmd_too_slow"
kind = "command"
on = "a"
argv = ["sleep", "0.05"]
duration = "300ms"
timeout = "2s"
budget = { max = "10ms", max_failures = 0 }

[[test]]
name = "disk_read_ok"
kind = "disk_random_read"
on = "b"
file_size = "16MiB"
budget = { min_iops = 5, p99 = "500ms", max = "3s" }

[[test]]
name = "disk_write_ok"
kind = "disk_random_write"
on = "a"
file_size = "16MiB"
budget = { min_iops = 5, p99 = "500ms" }

[[test]]
name = "disk_rw_ok"
kind = "disk_random_rw"
on = "a"
file_size = "16MiB"
read_mix = "50%"
budget = { min_iops = 5, max = "3s" }

[[test]]
name = "disk_read_floor"
kind = "disk_random_read"
on = "b"
file_size = "16MiB"
budget = { min_iops = 100000000 }

[[test]]
name = "sysbench_read_ok"
kind = "disk_random_read"
tool = "sysbench"
on = "b"
file_size = "16MiB"
duration = "2s"
budget = { min_iops = 5, p99 = "500ms", max = "3s" }
TOML

"$bin/labgate" validate "$work/kinds.toml" >"$work/validate" 2>&1 || { cat "$work/validate"; fail "the profile does not validate"; }

"$bin/labgate" run "$work/kinds.toml" -L preconditions -L command -L storage --suffix kinds \
  --results "$work/results" >"$work/out" 2>&1
rc=$?
tail -30 "$work/out"
[ $rc -eq 1 ] || fail "labgate run exited $rc, expected 1 (servers failed: the failing budgets)"
run=$(ls -d "$work"/results/*-kinds)
junit=$run/junit.xml
[ -s "$junit" ] || fail "no junit.xml"

# The testcase element of NAME (its lines up to </testcase> or a self-closing end).
testcase() { awk -v n="name=\"$1\"" 'index($0, n) { on = 1 } on { print } on && (/<\/testcase>/ || /<testcase [^>]*\/>$/) { exit }' "$junit"; }
passes() {
  local tc; tc=$(testcase "$1")
  [ -n "$tc" ] || fail "junit.xml has no testcase $1"
  ! grep -q '<failure\|<error\|<skipped' <<<"$tc" || { echo "$tc"; fail "$1 did not pass"; }
}
fails_on() {
  local tc; tc=$(testcase "$1")
  [ -n "$tc" ] || fail "junit.xml has no testcase $1"
  grep -q '<failure' <<<"$tc" || { echo "$tc"; fail "$1 is not a failure"; }
  grep -q "$2" <<<"$tc" || { echo "$tc"; fail "$1's failure does not say '$2'"; }
}
skipped_because() {
  local tc; tc=$(testcase "$1")
  [ -n "$tc" ] || fail "junit.xml has no testcase $1"
  grep -q "<skipped message=\"[^\"]*$2" <<<"$tc" || { echo "$tc"; fail "$1 is not skipped with '$2'"; }
}

passes 'cmd_ok/a'
fails_on 'cmd_exit_fails/b' 'max_failures = 5'
fails_on 'cmd_too_slow/a' 'max = '
passes 'disk_read_ok/b'
passes 'disk_write_ok/a'
passes 'disk_rw_ok/a'
fails_on 'disk_read_floor/b' 'min_iops = .* is below the floor'
passes 'sysbench_read_ok/b'
for h in a b; do
  skipped_because "$h/bios/Intel_Hyperthreading" "conrep is not installed on $h"
  skipped_because "$h/bios/HP_Power_Profile" "conrep is not installed on $h"
done
grep -q '<error' "$junit" && { grep -B2 -A3 '<error' "$junit"; fail "a test could not run"; }
# The figures a dashboard reads, and the failing run's stderr kept with the measurement.
grep -q 'name="iops"' "$junit" || fail "junit.xml carries no iops property"
grep -rq 'no answer from ns1' "$run" || fail "the first failure's stderr is not in the results"

"$bin/labgate" check "$work/kinds.toml" >"$work/check" 2>&1
rc=$?
cat "$work/check"
[ $rc -eq 0 ] || fail "labgate check exited $rc, expected 0 (skipped BIOS rules are not failures)"
grep -q 'bios/Intel_Hyperthreading .*not_checkable' "$work/check" || fail "labgate check does not list the BIOS rule as not checkable"
grep -q 'conrep is not installed on b' "$work/check" || fail "labgate check does not say why"

left=$(ls "$state"/tmp-a "$state"/tmp-b 2>/dev/null | grep -c 'labgate-disk\|test_file\|\.dat$')
[ "$left" -eq 0 ] || fail "test files left in the hosts' /tmp: $(ls "$state"/tmp-a "$state"/tmp-b)"
# Runs that cannot measure are "could not run" (exit 3) naming host, test and
# why; a command that is not installed is a failed run with the shell's reason.
ln -sfn /var/tmp "$state/tmp-b/lgw2-escape"
trap 'rc=$?; rm -f "$state/tmp-b/lgw2-escape"; lab_down_if_ours; e2e_work_done $rc' EXIT
sed '/^\[\[test\]\]/,$d' "$work/kinds.toml" >"$work/errors.toml"
cat >>"$work/errors.toml" <<'TOML'
[[test]]
name = "disk_escape"
kind = "disk_random_read"
on = "b"
path = "/tmp/lgw2-escape/f.dat"
file_size = "4MiB"
budget = { min_iops = 1 }

[[test]]
name = "sysbench_no_dir"
kind = "disk_random_read"
tool = "sysbench"
on = "b"
path = "/tmp/lgw2-missing/f.dat"
file_size = "4MiB"
budget = { min_iops = 1 }

[[test]]
name = "cmd_missing"
kind = "command"
on = "a"
argv = ["labgate-no-such-command", "x"]
count = 2
budget = { max_failures = 0 }
TOML
"$bin/labgate" run "$work/errors.toml" -L command -L storage --suffix errors --results "$work/results" >"$work/out2" 2>&1
rc=$?
tail -20 "$work/out2"
[ $rc -eq 3 ] || fail "labgate run on tests that cannot measure exited $rc, expected 3"
junit=$(ls "$work"/results/*-errors/junit.xml)
errs_on() {
  local tc; tc=$(testcase "$1")
  grep -q '<error' <<<"$tc" || { echo "$tc"; fail "$1 is not an error"; }
  grep -q "$2" <<<"$tc" || { echo "$tc"; fail "$1's error does not say '$2'"; }
}
errs_on 'disk_escape/b' 'host b: disk_escape/b: .*below'
errs_on 'sysbench_no_dir/b' 'host b: sysbench_no_dir/b: .*prepare'
fails_on 'cmd_missing/a' 'max_failures = 2'
grep -rq 'cannot execute labgate-no-such-command' "$work"/results/*-errors/tests/cmd_missing ||
  fail "the missing command's reason is not kept"
[ -z "$(ls /var/tmp | grep '^f\.dat$')" ] || fail "the disk probe wrote through the symlink"

echo "ok: command, storage and bios on pair $pair"
