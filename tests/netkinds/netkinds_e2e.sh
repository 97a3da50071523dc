#!/usr/bin/env bash
# End-to-end checks of the network kinds on lab pair 2 (needs root):
#   kinds               path_mtu, ping_flood and three sweeps run and pass; the probes
#                       report the congestion control and socket buffers they set; the
#                       report draws the sweeps; JUnit carries the counter deltas
#   mtu_mismatch        b's ic0 at 1400: path_mtu fails (exit 1) naming both MTUs
#   congestion_missing  congestion = "htcp": exit 3 listing the algorithms the kernel has
#   loss                an nftables 5% random drop in lg2-b: retransmits and ping loss
#                       are counted, the budgets on them fail (exit 1)
#   bdp                 buffers_cover_bdp is judged on a tcp_stream with its arithmetic
set -uo pipefail
case_name=$1
bin=$2
src=$3
# shellcheck source=../e2e_work.sh
. "$src/tests/e2e_work.sh"
e2e_work "$bin" "netkinds-$case_name"
ns_a=lg2-a ns_b=lg2-b
fail() { echo "FAIL: $*" >&2; exit 1; }
cleanup() {
  local rc=$?
  ip netns exec $ns_b nft delete table inet lgloss 2>/dev/null
  ip netns exec $ns_b ip link set ic0 mtu 1500 2>/dev/null
  if [ -n "${brought_up:-}" ]; then "$src/ci/lab" down --pair 2 >/dev/null 2>&1; fi
  e2e_work_done $rc
}
trap cleanup EXIT
cd "$src"
if ! ci/lab status --pair 2 >/dev/null 2>&1; then
  timeout 180 ci/lab up --pair 2 >"$work/lab.out" 2>&1 || { cat "$work/lab.out"; fail "ci/lab up --pair 2"; }
  brought_up=1
fi

# A profile for pair 2 with the given [preconditions] lines and tests.
profile() {
  cat >"$work/p.toml" <<TOML
[lab]
name = "lab-pair2"
lease_wait = "120s"
[defaults.ssh]
user = "root"
identity = "$src/.lab/pair2/id_rsa"
known_hosts = "$src/.lab/pair2/known_hosts"
connect_timeout = "5s"
command_timeout = "60s"
probe_dir = "/tmp"
[hosts.a]
address = "198.18.0.10"
test_address = "198.19.2.1"
[hosts.b]
address = "198.18.0.14"
test_address = "198.19.2.2"
[preconditions]
$1
[preconditions.interfaces.ic0]
mtu = 1500
[defaults.test]
duration = "1s"
warmup = "500ms"
interval = "500ms"
tool = "builtin"
$2
TOML
}

# labgate run on the profile; sets $run (the results folder) and $rc.
gate() {
  timeout 240 "$bin/labgate" run "$work/p.toml" --suffix nk --results "$work/results" >"$work/out" 2>&1
  rc=$?
  run=$(ls -d "$work"/results/*-nk 2>/dev/null | tail -1)
  [ -n "$run" ] && [ -s "$run/run.json" ] || { cat "$work/out"; fail "no run.json (exit $rc)"; }
}

# jq over run.json.
q() { jq -r "$1" "$run/run.json"; }

case $case_name in
  kinds)
    profile "" '
[[test]]
name = "mtu"
kind = "path_mtu"
from = "a"
to = "b"
[[test]]
name = "flood"
kind = "ping_flood"
from = "a"
to = "b"
count = 300
duration = "3s"
budget = { max_loss = "1%", max = "200ms", mdev = "50ms" }
[[test]]
name = "sizes"
kind = "tcp_stream"
from = "a"
to = "b"
message_size = [64, 1024, 4096]
budget = { min_throughput = "10Mbit/s" }
[[test]]
name = "cc"
kind = "tcp_stream"
from = "a"
to = "b"
message_size = 1024
congestion = ["reno", "cubic", "bbr"]
budget = { min_throughput = "10Mbit/s" }
[[test]]
name = "sockbuf"
kind = "tcp_rr"
from = "a"
to = "b"
socket_buffer = ["16KiB", "256KiB"]
budget = { p99 = "50ms" }'
    gate
    [ $rc -eq 0 ] || { tail -40 "$work/out"; fail "labgate run exited $rc, expected 0"; }
    [ "$(q '[.tests[] | select(.suite == "Network")] | length')" = 2 ] || fail "two Network records expected"
    [ "$(q '.tests[] | select(.name == "mtu") | .budget[] | select(.stat == "path_mtu a->b") | .observed')" = 1500 ] ||
      fail "path_mtu a->b did not observe 1500"
    [ "$(q '.tests[] | select(.name == "mtu") | .budget[] | select(.stat == "path_mtu b->a") | .pass')" = true ] ||
      fail "path_mtu b->a not judged a pass"
    [ "$(q '.tests[] | select(.name == "flood") | .measurement.sent')" = 300 ] || fail "the flood did not send 300"
    q '.tests[] | select(.name == "flood") | .measurement.reported.mdev' | grep -Eq '^[0-9]' || fail "no mdev"
    for cc in reno cubic bbr; do
      got=$(q ".tests[] | select(.name == \"cc/congestion=$cc\") | .measurement.parameters.congestion")
      [ "$got" = "$cc" ] || fail "cc/congestion=$cc: the probe's socket had '$got'"
    done
    got=$(q '.tests[] | select(.name == "sockbuf/socket_buffer=16KiB") | .measurement.parameters.sndbuf')
    [ "$got" = 32768 ] || fail "socket_buffer=16KiB: SO_SNDBUF read back $got, expected 32768 (the kernel doubles it)"
    [ "$(q '[.tests[] | select(.name | startswith("sizes/"))] | length')" = 3 ] || fail "3 message sizes expected"
    q '.tests[] | select(.name == "sizes/message_size=64") | .figures | map(.stat) | index("retransmits") != null' | grep -q true ||
      fail "no retransmits delta in the figures"
    grep -q 'name="retransmits"' "$run/junit.xml" || fail "junit.xml has no retransmits property"
    grep -q '<h2>Sweeps</h2>' "$run/report.html" || fail "report.html has no Sweeps section"
    grep -qF "p99 (µs)" "$run/report.html" || fail "the socket_buffer sweep of tcp_rr is not drawn as p99"
    for t in "sizes a-&gt;b by message_size" "cc a-&gt;b by congestion" "sockbuf a-&gt;b by socket_buffer"; do
      grep -qF "$t" "$run/report.html" || fail "report.html lacks the chart '$t'"
    done
    ;;
  mtu_mismatch)
    ip netns exec $ns_b ip link set ic0 mtu 1400 || fail "cannot set b's ic0 mtu"
    profile "" '
[[test]]
name = "mtu"
kind = "path_mtu"
from = "a"
to = "b"'
    gate
    [ $rc -eq 1 ] || { tail -30 "$work/out"; fail "labgate run exited $rc, expected 1"; }
    msg=$(q '.tests[] | select(.name == "mtu") | .failure')
    echo "$msg"
    # veth takes 4 bytes over its MTU (room for a VLAN tag), so a->b may show 1404.
    fwd=$(echo "$msg" | sed -n 's/.*a->b carries \([0-9]*\) bytes and b->a carries 1400 bytes; expected 1500.*/\1/p' | head -1)
    [ -n "$fwd" ] || fail "the failure does not name both MTUs and the expectation"
    [ "$fwd" -ge 1400 ] && [ "$fwd" -lt 1500 ] || fail "a->b carries $fwd: not the narrowed path"
    [ "$(q '.tests[] | select(.name == "mtu") | .budget[] | select(.stat == "path_mtu b->a") | .observed')" = 1400 ] ||
      fail "path_mtu b->a did not observe 1400"
    grep -q 'narrower than the profile expects' <<<"$msg" || fail "the failure does not say the path is narrower"
    ;;
  congestion_missing)
    profile "" '
[[test]]
name = "cc"
kind = "tcp_stream"
from = "a"
to = "b"
congestion = "htcp"
budget = { min_throughput = "1Mbit/s" }'
    gate
    [ $rc -eq 3 ] || { tail -30 "$work/out"; fail "labgate run exited $rc, expected 3"; }
    msg=$(q '.tests[] | select(.name == "cc") | .failure')
    echo "$msg"
    have=$(tr -s ' ' '\n' </proc/sys/net/ipv4/tcp_available_congestion_control | sort | tr '\n' ' ')
    echo "$msg" | grep -q 'has no TCP congestion control "htcp"; it has: ' || fail "no clear error"
    for cc in $have; do echo "$msg" | grep -qw "$cc" || fail "the error does not list $cc"; done
    ;;
  loss)
    ip netns exec $ns_b nft -f - <<'NFT' || fail "cannot add the nftables drop rule in $ns_b"
table inet lgloss {
  chain input {
    type filter hook input priority 0; policy accept;
    iifname "ic0" numgen random mod 100 < 5 drop
  }
}
NFT
    profile "" '
[[test]]
name = "lossy_stream"
kind = "tcp_stream"
from = "a"
to = "b"
message_size = 8192
duration = "2s"
budget = { max_retransmits = 0 }
[[test]]
name = "lossy_flood"
kind = "ping_flood"
from = "a"
to = "b"
count = 500
duration = "5s"
budget = { max_loss = "0%" }'
    gate
    [ $rc -eq 1 ] || { tail -30 "$work/out"; fail "labgate run exited $rc, expected 1"; }
    re=$(q '.tests[] | select(.name == "lossy_stream") | .figures[] | select(.stat == "retransmits") | .value')
    echo "retransmits during the lossy stream: $re"
    [ "${re%.*}" -gt 0 ] 2>/dev/null || fail "no retransmits counted under 5% loss ($re)"
    q '.tests[] | select(.name == "lossy_stream") | .failure' | grep -q 'max_retransmits = ' ||
      fail "the max_retransmits budget did not fail"
    q '.tests[] | select(.name == "lossy_stream") | .measurement.parameters["counters.a.retransmits"]' |
      grep -Eq '^[1-9]' || fail "host a's own delta is not recorded"
    loss=$(q '.tests[] | select(.name == "lossy_flood") | .figures[] | select(.stat == "loss") | .value * 100')
    echo "flood loss: $loss%"
    awk -v l="$loss" 'BEGIN { exit !(l > 0) }' || fail "no ping loss under 5% drop"
    grep -q 'name="retransmits"' "$run/junit.xml" || fail "junit.xml has no retransmits property"
    ;;
  bdp)
    profile "buffers_cover_bdp = true" '
[[test]]
name = "stream"
kind = "tcp_stream"
from = "a"
to = "b"
message_size = 4096
budget = { min_throughput = "1Mbit/s" }'
    gate
    [ $rc -le 1 ] || { tail -30 "$work/out"; fail "labgate run exited $rc"; }
    for h in a b; do
      line=$(q ".tests[] | select(.name == \"stream\") | .budget[] | select(.stat == \"buffers_cover_bdp $h\")")
      [ -n "$line" ] || fail "no buffers_cover_bdp verdict for host $h"
      echo "$line" | jq -r .reason
      echo "$line" | jq -r .reason | grep -q 'BDP = .*bit/s x .* ms / 8 = .* bytes' || fail "no BDP arithmetic for $h"
      echo "$line" | jq -r .reason | grep -q "$h: net.core.rmem_max = " || fail "no rmem_max line for $h"
      # The verdict must agree with the numbers it shows: every limit >= the BDP.
      ok=$(echo "$line" | jq -r '(.observed >= .limit) == .pass')
      [ "$ok" = true ] || fail "verdict for $h disagrees with its figures"
    done
    ;;
  *) fail "unknown case $case_name" ;;
esac
echo "ok: $case_name"
