#!/usr/bin/env bash
# Gates over lab pair 19 (needs root and `ci/lab up --pair 19`):
#   gate        profiles/lab-ipv6.toml, moved to pair 19, passes (exit 0): every test
#               measured between the IPv6 addresses (run.json's parameters), ic0's
#               network rule judged on /proc/net/if_inet6, netperf ran with -6
#   ipv4        profiles/lab.toml, moved to pair 19, still passes over IPv4
#   sockperf37  a sockperf test over IPv6 against Debian's sockperf 3.7 is exit 3
#               naming sockperf's own refusal of the address, not a pass or a hang
#   ipv6_lab.sh CASE BIN_DIR SOURCE_DIR
set -uo pipefail
case_name=$1
bin=$2
src=$3
pair=19
work=$(mktemp -d /tmp/lg-ipv6.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$src"
fail() { echo "FAIL: $*" >&2; exit 1; }
ip netns list | awk '{print $1}' | grep -qx "lg$pair-a" || fail "lab pair $pair is not up (ci/lab up --pair $pair)"

# A pair-1 profile moved to pair N: ci/lab's addresses (management 198.18.0.(8(N-1)+2|6),
# interconnect 198.19.N.1|2 and fd4c:6762:0:N::1|2), keys and lease.
base=$(((pair - 1) * 8))
moved() {
  sed -e "s#\.\./\.lab/pair1/#$src/.lab/pair$pair/#g" \
    -e "s/\"198\.18\.0\.2\"/\"198.18.0.$((base + 2))\"/; s/\"198\.18\.0\.6\"/\"198.18.0.$((base + 6))\"/" \
    -e "s/198\.19\.1\.\([12]\)/198.19.$pair.\1/g; s/fd4c:6762:0:1::/fd4c:6762:0:$pair::/g" \
    -e "s/^name = \"lab-pair1\"/name = \"lab-pair$pair\"/" "$1"
}

gate_run() {  # gate_run SUFFIX PROFILE [ARGS...]: sets rc and run
  local suffix=$1
  shift
  timeout 280 "$bin/labgate" run "$@" --suffix "$suffix" --results "$work/results" >"$work/$suffix.out" 2>&1
  rc=$?
  run=$(ls -d "$work"/results/*-"$suffix" 2>/dev/null | head -1)
  [ -n "$run" ] || { cat "$work/$suffix.out"; fail "labgate run ($suffix) left no results folder (exit $rc)"; }
}

case $case_name in
  gate)
    moved profiles/lab-ipv6.toml >"$work/v6.toml"
    grep -q "fd4c:6762:0:$pair::2" "$work/v6.toml" || fail "could not move lab-ipv6.toml to pair $pair"
    gate_run v6 "$work/v6.toml"
    tail -25 "$work/v6.out"
    [ $rc -eq 0 ] || fail "the IPv6 gate exited $rc, expected 0"
    jq -e --arg b "fd4c:6762:0:$pair::2" '.hosts[] | select(.name == "b") | .test_address == $b' "$run/run.json" \
      >/dev/null || fail "run.json's host b: $(jq -c '.hosts' "$run/run.json")"
    # Every measured test passed, and the ones that bind or connect name the IPv6 address.
    n=$(jq '[.tests[] | select(.verdict == "pass")] | length' "$run/run.json")
    [ "$n" -ge 9 ] || fail "only $n tests passed: $(jq -c '[.tests[] | {name, verdict}]' "$run/run.json")"
    jq -e '[.tests[] | select(.verdict != "pass")] | length == 0' "$run/run.json" >/dev/null ||
      fail "not every test passed: $(jq -c '[.tests[] | select(.verdict != "pass") | {name, verdict}]' "$run/run.json")"
    grep -rq -- "-6" "$run/tests/tcp_rr_64_netperf_v6/" || fail "netperf's command line has no -6"
    grep -rqi "fd4c:6762:0:$pair::2" "$run/tests/tcp_rr_64_v6/" || fail "the built-in tcp_rr does not name the IPv6 address"
    grep -rqi "fd4c:6762:0:$pair::2" "$run/tests/tcp_stream_iperf3_v6/" || fail "iperf3's output does not name the IPv6 address"
    jq -e '[.checks[] | select(.rule == "interfaces/ic0/network") | .verdict] | length == 2 and all(. == "pass")' \
      "$run/run.json" >/dev/null || fail "ic0's network rule: $(jq -c '[.checks[] | select(.rule | test("network"))]' "$run/run.json")"
    jq -r '.tests[] | "\(.name): \(.verdict)"' "$run/run.json"
    ;;
  ipv4)
    moved profiles/lab.toml >"$work/v4.toml"
    grep -q "198.19.$pair.2" "$work/v4.toml" || fail "could not move lab.toml to pair $pair"
    gate_run v4 "$work/v4.toml"
    tail -25 "$work/v4.out"
    [ $rc -eq 0 ] || fail "profiles/lab.toml over IPv4 exited $rc, expected 0"
    ;;
  sockperf37)
    sockperf --version 2>&1 | grep -q 'version 3\.7' || fail "this case needs Debian's sockperf 3.7 as \`sockperf\`"
    moved profiles/lab-ipv6.toml | awk '/^\[\[test\]\]/ { exit } { print }' >"$work/sp.toml"
    printf '%s\n' '[[test]]' 'name = "udp_rr_sockperf_v6"' 'kind = "udp_rr"' 'tool = "sockperf"' \
      'budget = { p50 = "5ms" }' >>"$work/sp.toml"
    gate_run sp "$work/sp.toml" -L latency
    tail -8 "$work/sp.out"
    [ $rc -eq 3 ] || fail "sockperf 3.7 over IPv6 exited $rc, expected 3 (could not run)"
    grep -q "Invalid address: fd4c:6762:0:$pair::2" "$work/sp.out" ||
      fail "the console does not carry sockperf's own refusal of the IPv6 address"
    ;;
  *) fail "unknown case '$case_name' (gate, ipv4, sockperf37)" ;;
esac
echo "ok: $case_name"
