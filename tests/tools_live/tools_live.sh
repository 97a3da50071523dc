#!/usr/bin/env bash
# sockperf 3.10 and iperf3 3.21 driven live by a real `labgate run` on a lab pair
# (issue 21), each picked by its test's tool_path. Needs root, `ci/lab up --pair N`
# and the /usr/local/bin links ci/sockperf and ci/iperf3 make.
#   sockperf310   udp_rr and tcp_rr with tool_path = "sockperf-3.10", 2 s each: both
#                 pass; the command run was sockperf-3.10, its output is 3.8+'s
#                 summary form (avg-rtt=… (std-dev=…, mean-ad=…)) and run.json
#                 carries version 3.10, ping-pong, the round trip as printed
#                 (--full-rtt) and the accounting passed; `labgate import` of the
#                 same client.out gives the same verdict
#   iperf321      tcp_stream and udp_stream with tool_path = "iperf3-3.21": both
#                 pass, run.json says iperf 3.21 and the forward direction, and
#                 the client's own import agrees
#   sfnt          udp_rr and tcp_rr with tool = "sfnt-pingpong" (ci/sfnt-pingpong),
#                 2 s each, on pair 21: both pass, its output says RTT (--rtt, so
#                 its figures are round trips as measured) for one size, run.json
#                 carries its figures and iterations, and the import agrees
#   tools_live.sh CASE BIN_DIR SOURCE_DIR [PAIR]   (PAIR: 17, CI's; 21 for sfnt)
set -uo pipefail
case_name=$1
bin=$2
src=$3
default_pair=17
[ "$case_name" = sfnt ] && default_pair=21
pair=${4:-$default_pair}
work=$(mktemp -d /tmp/lg-tools-live.XXXXXX)
if [ "$pair" -eq 1 ]; then prefix=lg; else prefix=lg$pair; fi
fail() { echo "FAIL: $*" >&2; exit 1; }
trap 'rm -rf "$work"' EXIT
cd "$src"

if [ "$case_name" = sfnt ]; then
  bash "$src/ci/sfnt-pingpong" --check >/dev/null || fail "sfnt-pingpong is not installed for the lab (run: sudo ci/sfnt-pingpong)"
else
  bash "$src/ci/sockperf" --check >/dev/null || fail "sockperf 3.10 is not installed for the lab (run: sudo ci/sockperf)"
  bash "$src/ci/iperf3" --check >/dev/null || fail "iperf3 3.21 is not installed for the lab (run: sudo ci/iperf3)"
fi
ip netns list | awk '{print $1}' | grep -qx "$prefix-a" || fail "lab pair $pair is not up (ci/lab up --pair $pair)"

# shellcheck source=../lab_pair_profile.sh
. "$src/tests/lab_pair_profile.sh"
profile() {  # profile TOOL TOOL_PATH KIND...
  local tool=$1 path=$2
  shift 2
  lab_pair_profile "$pair" ipv4 "the current $tool on lab pair $pair (tests/tools_live)"
  cat <<EOF
# Lab budgets a loaded 2-core VM keeps; what is judged here is that the version is
# driven and read. sockperf times each message, not the loop around it: a VM that
# deschedules it between messages leaves its valid duration less full than its
# mean allows (netperf_live measured ~0.5% on a quiet machine); 20% keeps a busy
# CI machine passing and still fails a run that lost a fifth of its loop.
[defaults.test]
duration = "2s"
warmup = "0s"
sample_tolerance = "20%"
message_size = 64
tool = "$tool"
tool_path = "$path"
from = "a"
to = "b"
EOF
  for kind in "$@"; do
    printf '\n[[test]]\nname = "%s_%s"\nkind = "%s"\n' "$kind" "${tool//-/_}" "$kind"
    case $kind in
      *_rr) echo 'budget = { p50 = "5ms", max = "1s" }' ;;
      tcp_stream) echo 'message_size = 65536' ; echo 'budget = { min_throughput = "1Mbit/s" }' ;;
      udp_stream) echo 'message_size = 1024' ; echo 'rate = "10000/s"' ; echo 'budget = { min_throughput = "1Mbit/s" }' ;;
    esac
  done
}

# live TOOL PATH TESTS...: runs the profile, checks each test's record, imports its output.
live() {
  local tool=$1 path=$2
  shift 2
  profile "$tool" "$path" "$@" >"$work/$tool.toml"
  timeout 120 "$bin/labgate" run "$work/$tool.toml" --suffix live --results "$work/results" >"$work/run.out" 2>&1
  local rc=$?
  run=$(ls -d "$work"/results/*-live 2>/dev/null | head -1)
  [ -n "$run" ] || { cat "$work/run.out"; fail "labgate run left no results folder (exit $rc)"; }
  tail -8 "$work/run.out"
  [ $rc -eq 0 ] || { grep -i "error\|fail\|could not" "$work/run.out" | head -20; fail "a clean $path run exited $rc, expected 0"; }
  for kind in "$@"; do
    local t=${kind}_${tool//-/_}
    grep -q "client@a: $path " "$run/tests/$t/a-to-b/command.txt" || fail "$t did not run $path: $(cat "$run/tests/$t/a-to-b/command.txt")"
    jq -e --arg t "$t" '.tests[] | select(.name == $t) | .verdict == "pass" and .accounting.pass' "$run/run.json" >/dev/null ||
      fail "$t: $(jq -c --arg t "$t" '.tests[] | select(.name == $t) | {verdict, failure, accounting}' "$run/run.json")"
    "$bin/labgate" import "$run/tests/$t/a-to-b/client.out" --tool "$tool" --profile "$work/$tool.toml" --test "$t" \
      --out "$work/$t.json" >"$work/import-$t.out" 2>&1 || { cat "$work/import-$t.out"; fail "import of $t's own output exited $?"; }
  done
}

param() { jq -r --arg t "$1" --arg k "$2" '.tests[] | select(.name == $t) | .measurement.parameters[$k]' "$run/run.json"; }

case $case_name in
  sockperf310)
    live sockperf sockperf-3.10 udp_rr tcp_rr
    for t in udp_rr_sockperf tcp_rr_sockperf; do
      grep -q '== version #3.10' "$run/tests/$t/a-to-b/client.out" || fail "$t's output is not sockperf 3.10's"
      grep -q '====> avg-rtt=[0-9.]* (std-dev=[0-9.]*, mean-ad=' "$run/tests/$t/a-to-b/client.out" ||
        fail "$t's summary is not 3.8+'s form: $(grep '====>' "$run/tests/$t/a-to-b/client.out")"
      [ "$(param $t sockperf.version)" = 3.10-no.git ] || fail "$t: sockperf.version $(param $t sockperf.version)"
      [ "$(param $t sockperf.mode)" = "ping-pong (pp)" ] || fail "$t: sockperf.mode $(param $t sockperf.mode)"
      param $t latency_normalised | grep -q -- '--full-rtt' || fail "$t: $(param $t latency_normalised)"
      param $t sockperf.dispersion | grep -q 'mean-ad=' || fail "$t: no dispersion kept"
      jq -e '.reported.p99 > 0 and .parameters["sockperf.version"] == "3.10-no.git"' "$work/$t.json" >/dev/null ||
        fail "$t's import: $(jq -c '{reported, version: .parameters["sockperf.version"]}' "$work/$t.json")"
      echo "ok: $t: sockperf 3.10, p99 $(jq '.reported.p99' "$work/$t.json") ns round trip"
    done
    left=$(pgrep -af "^sockperf-3.10 .*198\.19\.$pair\.2")
    ;;

  iperf321)
    live iperf3 iperf3-3.21 tcp_stream udp_stream
    for t in tcp_stream_iperf3 udp_stream_iperf3; do
      [ "$(param $t iperf3.version)" = "iperf 3.21" ] || fail "$t: iperf3.version $(param $t iperf3.version)"
      param $t direction | grep -q '^forward' || fail "$t: direction $(param $t direction)"
      jq -e '.throughput_bps > 0 and .parameters["iperf3.version"] == "iperf 3.21"' "$work/$t.json" >/dev/null ||
        fail "$t's import: $(jq -c '{throughput_bps, version: .parameters["iperf3.version"]}' "$work/$t.json")"
      echo "ok: $t: iperf 3.21, $(jq '.throughput_bps / 1e6 | floor' "$work/$t.json") Mbit/s"
    done
    [ "$(param tcp_stream_iperf3 iperf3.tcp_srtt_mean_us)" != null ] || fail "the client sent: its srtt should be there"
    left=$(pgrep -af "^iperf3-3.21 .*198\.19\.$pair\.2")
    ;;

  sfnt)
    live sfnt-pingpong sfnt-pingpong udp_rr tcp_rr
    for t in udp_rr_sfnt_pingpong tcp_rr_sfnt_pingpong; do
      out=$run/tests/$t/a-to-b/client.out
      grep -qx '# reporting: RTT' "$out" || fail "$t's output does not say RTT: $(grep '# reporting' "$out")"
      [ "$(grep -c $'^\t64\t' "$out")" = 1 ] || fail "$t's output is not one 64-byte row"
      param $t latency_normalised | grep -q -- '--rtt' || fail "$t: $(param $t latency_normalised)"
      [ "$(param $t sfnt.iterations)" -gt 1000 ] || fail "$t: sfnt.iterations $(param $t sfnt.iterations)"
      # Its own row, doubled nowhere: the median column is run.json's p50.
      median=$(awk -F'\t' '$2 == 64 { print $5 }' "$out")
      jq -e --arg t "$t" --argjson m "$median" '.tests[] | select(.name == $t) | .measurement.reported.p50 == $m' \
        "$run/run.json" >/dev/null || fail "$t: p50 is not its printed median $median"
      jq -e '.reported.p99 > 0 and .source == "sfnt-pingpong"' "$work/$t.json" >/dev/null ||
        fail "$t's import: $(jq -c '{source, reported}' "$work/$t.json")"
      echo "ok: $t: sfnt-pingpong, p50 $median ns round trip, $(param $t sfnt.iterations) pings"
    done
    left=$(pgrep -af "^sfnt-pingpong .*198\.19\.$pair\.2")
    ;;

  *) fail "unknown case '$case_name' (sockperf310, iperf321, sfnt)" ;;
esac
# Nothing left running on the hosts: the driver stops the server however the case ended.
[ -z "$left" ] || fail "left running after the run: $left"
