#!/usr/bin/env bash
# Gates over lab pair 19 (needs root and `ci/lab up --pair 19`):
#   gate        profiles/lab-ipv6.toml, moved to pair 19, passes (exit 0): every test
#               (built-in probes, netperf -6, iperf3, sockperf 3.10) measured between
#               the IPv6 addresses, ic0's network rule judged on /proc/net/if_inet6
#   ipv4        profiles/lab.toml, moved to pair 19, still passes over IPv4: its
#               preconditions and every test that uses a test address (latency,
#               throughput, network: built-in probes, sockperf, iperf3, path_mtu,
#               ping_flood); its jitter, command and disk tests use no address
#               and run in gate.e2e
# Both run at --duration 1s --warmup 200ms: what they prove is that each tool and
# probe runs and is read over that family, not its figures at the profile's
# durations (CI's time is tight: ~75 s and ~30 s at those).
#   names       test_address given as a name only the hosts know: one name that
#               resolves to fd4c:6762:0:19::1 on a and to ::2 on b (each host's own
#               /etc/hosts, bound over it in its sshd's mount namespace); the gate
#               passes, run.json says which address each host's name gave, and
#               the probes measured between those addresses
#   sockperf37  a sockperf test over IPv6 against Debian's sockperf 3.7 is exit 3
#               naming sockperf's own refusal of the address and why (3.7 takes no
#               IPv6 address; run 3.8+ with tool_path), not a pass or a hang
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
  timeout 280 "$bin/labgate" run "$@" --duration 1s --warmup 200ms --suffix "$suffix" --results "$work/results" >"$work/$suffix.out" 2>&1
  rc=$?
  run=$(ls -d "$work"/results/*-"$suffix" 2>/dev/null | head -1)
  [ -n "$run" ] || { cat "$work/$suffix.out"; fail "labgate run ($suffix) left no results folder (exit $rc)"; }
}

case $case_name in
  gate)
    bash ci/sockperf --check >/dev/null || fail "sockperf 3.10 is not installed for the lab (run: sudo ci/sockperf)"
    moved profiles/lab-ipv6.toml >"$work/v6.toml"
    grep -q "fd4c:6762:0:$pair::2" "$work/v6.toml" || fail "could not move lab-ipv6.toml to pair $pair"
    gate_run v6 "$work/v6.toml"
    tail -25 "$work/v6.out"
    [ $rc -eq 0 ] || fail "the IPv6 gate exited $rc, expected 0"
    jq -e --arg b "fd4c:6762:0:$pair::2" '.hosts[] | select(.name == "b") | .test_address == $b' "$run/run.json" \
      >/dev/null || fail "run.json's host b: $(jq -c '.hosts' "$run/run.json")"
    # Every measured test passed, and the ones that bind or connect name the IPv6 address.
    n=$(jq '[.tests[] | select(.verdict == "pass")] | length' "$run/run.json")
    [ "$n" -ge 11 ] || fail "only $n tests passed: $(jq -c '[.tests[] | {name, verdict}]' "$run/run.json")"
    jq -e '[.tests[] | select(.verdict != "pass")] | length == 0' "$run/run.json" >/dev/null ||
      fail "not every test passed: $(jq -c '[.tests[] | select(.verdict != "pass") | {name, verdict}]' "$run/run.json")"
    grep -rq -- "-6" "$run/tests/tcp_rr_64_netperf_v6/" || fail "netperf's command line has no -6"
    grep -rqi "fd4c:6762:0:$pair::2" "$run/tests/tcp_rr_64_v6/" || fail "the built-in tcp_rr does not name the IPv6 address"
    grep -rqi "fd4c:6762:0:$pair::2" "$run/tests/tcp_stream_iperf3_v6/" || fail "iperf3's output does not name the IPv6 address"
    for t in udp_rr_64_sockperf_v6 tcp_rr_64_sockperf_v6; do
      grep -q "client@a: sockperf-3.10 .*-i fd4c:6762:0:$pair::2" "$run/tests/$t/a-to-b/command.txt" ||
        fail "$t did not run sockperf-3.10 against the IPv6 address: $(cat "$run/tests/$t/a-to-b/command.txt")"
      grep -q '== version #3.10' "$run/tests/$t/a-to-b/client.out" || fail "$t's output is not sockperf 3.10's"
    done
    jq -e '[.checks[] | select(.rule == "interfaces/ic0/network") | .verdict] | length == 2 and all(. == "pass")' \
      "$run/run.json" >/dev/null || fail "ic0's network rule: $(jq -c '[.checks[] | select(.rule | test("network"))]' "$run/run.json")"
    jq -r '.tests[] | "\(.name): \(.verdict)"' "$run/run.json"
    ;;
  ipv4)
    moved profiles/lab.toml >"$work/v4.toml"
    grep -q "198.19.$pair.2" "$work/v4.toml" || fail "could not move lab.toml to pair $pair"
    gate_run v4 "$work/v4.toml" -L preconditions -L latency -L throughput -L network
    tail -25 "$work/v4.out"
    [ $rc -eq 0 ] || fail "profiles/lab.toml over IPv4 exited $rc, expected 0"
    # Every test that uses an address ran, over IPv4, and passed.
    for t in tcp_rr_64 udp_rr_64 udp_rr_64_sockperf tcp_stream_iperf3 path_mtu ping_flood; do
      jq -e --arg t "$t" '[.tests[] | select(.name | startswith($t)) | .verdict] | length > 0 and all(. == "pass")' \
        "$run/run.json" >/dev/null || fail "$t did not pass: $(jq -c '[.tests[] | {name, verdict}]' "$run/run.json")"
    done
    grep -rq "198\.19\.$pair\.2" "$run/tests/udp_rr_64_sockperf/" || fail "sockperf did not measure to 198.19.$pair.2"
    jq -r '.tests[] | "\(.name): \(.verdict)"' "$run/run.json"
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
    grep -q 'sockperf takes an IPv6 address from 3.8 on.*tool_path = "sockperf-3.10"' "$work/sp.out" ||
      fail "the console does not say why (3.7 takes no IPv6 address) and what to run instead"
    grep -m1 "Invalid address" "$work/sp.out"
    ;;
  names)
    # A name only each host knows, and knows differently: the machine running
    # labgate cannot resolve it, so a pass shows each host resolved its own.
    name=ic0.labgate-names.test
    getent ahosts "$name" >/dev/null && fail "$name resolves here too; it must be known only on the hosts"
    bound=()
    unbind() {
      for pid in "${bound[@]}"; do nsenter -t "$pid" -m umount /etc/hosts; done
      rm -f .lab/pair$pair/tmp-[ab]/lg-names-hosts
    }
    trap 'unbind; rm -rf "$work"' EXIT
    for h in a b; do
      pid=$(cat ".lab/pair$pair/sshd-$h-22.pid") || fail "no sshd pid for host $h"
      # ip netns exec gave the sshd a mount namespace of its own (its /tmp is bound there).
      [ "$(readlink /proc/"$pid"/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ] ||
        fail "host $h's sshd shares this mount namespace: a hosts file bound there would be everyone's"
      # Written into the host's own /tmp (.lab/pairN/tmp-h): the only place its namespace and this one share.
      { cat /etc/hosts; echo "fd4c:6762:0:$pair::$([ $h = a ] && echo 1 || echo 2) $name"; } \
        >".lab/pair$pair/tmp-$h/lg-names-hosts"
      nsenter -t "$pid" -m mount --bind /tmp/lg-names-hosts /etc/hosts || fail "cannot bind a hosts file for $h"
      bound+=("$pid")
    done
    moved profiles/lab-ipv6.toml | awk '/^\[\[test\]\]/ { exit } { print }' |
      sed -e "s/test_address = { direct = \"fd4c:6762:0:$pair::[12]\" }/test_address = { direct = \"$name\" }/" \
        >"$work/names.toml"
    [ "$(grep -c "\"$name\"" "$work/names.toml")" = 2 ] || fail "could not name both test addresses"
    printf '%s\n' '[[test]]' 'name = "tcp_rr_named"' 'kind = "tcp_rr"' \
      'budget = { p50 = "5ms", max = "1s" }' >>"$work/names.toml"
    gate_run names "$work/names.toml"
    tail -12 "$work/names.out"
    [ $rc -eq 0 ] || fail "the gate over named test addresses exited $rc, expected 0"
    for h in a b; do
      want="fd4c:6762:0:$pair::$([ $h = a ] && echo 1 || echo 2)"
      jq -e --arg h $h --arg n "$name" --arg w "$want" \
        '.hosts[] | select(.name == $h) | .resolved | to_entries | length == 1 and
         (.[0].value | .name == $n and .address == $w and .resolved_on == $h)' "$run/run.json" >/dev/null ||
        fail "run.json's host $h does not say $name gave $want there: $(jq -c '.hosts' "$run/run.json")"
      grep -q "host $h: .*\"$name\" is $want (resolved on $h)" "$work/names.out" ||
        fail "the console does not say which address $name gave on $h"
    done
    grep -rq "fd4c:6762:0:$pair::2" "$run/tests/tcp_rr_named/" || fail "the probe did not measure to b's resolved address"
    ;;
  *) fail "unknown case '$case_name' (gate, ipv4, names, sockperf37)" ;;
esac
echo "ok: $case_name"
