#!/usr/bin/env bash
# udp_multicast on the mesh lab (issue 24): `labgate run -L multicast` of
# profiles/lab-mesh.toml's feed, m1 publishing to m2..m6 over the switch. One
# case per call:
#   feed       every subscriber's loss, longest gap and round trips recorded,
#              in run.json and JUnit, plus the worst subscriber's
#   rp-filter  m3 with a strict rp_filter and its route back to m1 over the
#              management link: m3 receives nothing, and its record fails naming
#              rp_filter (not a timeout); the other four still measure
#   burst      m4 drops the feed for 250 ms mid-run (an nft rule in its
#              namespace): the gap shows on m4 only
#
#   multicast_lab.sh CASE BIN_DIR SOURCE_DIR      (root)
set -uo pipefail
case_name=${1#multicast-}
bin=$(cd "$2" && pwd)
src=$(cd "$3" && pwd)
subs=m2,m3,m4,m5,m6
work=$(mktemp -d /var/tmp/labgate-mcast.XXXXXX)
unset LABGATE_RUN_DIR LABGATE_RUN_DIR_FILE LABGATE_PROFILE
m3() { ip netns exec lgm-m3 "$@"; }
cleanup() {
  [ -n "${gate_pid:-}" ] && kill -KILL -- -"$gate_pid" 2>/dev/null
  m3 ip route del 198.19.200.1/32 2>/dev/null
  [ -n "${rp_saved:-}" ] && m3 sysctl -qw net.ipv4.conf.all.rp_filter="${rp_saved%,*}" \
    net.ipv4.conf.ic0.rp_filter="${rp_saved#*,}"
  ip netns exec lgm-m4 nft delete table ip lgburst 2>/dev/null
  [ -n "${MESH_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
cd "$src"
# shellcheck source=../faults/fault_lib.sh
. "$src/tests/faults/fault_lib.sh"
profile=$src/profiles/lab-mesh.toml
fail() { echo "multicast_lab $case_name: FAIL: $*" >&2; exit 1; }
run_dir() { ls -d "$work/results"/*/ 2>/dev/null | head -1; }
check() {
  python3 "$src/tests/mesh/check_multicast_run.py" "$(run_dir)" --subscribers "$subs" "$@" ||
    { tail -30 "$work/out"; fail "the results miss what a multicast run promises (above)"; }
}

case $case_name in
  feed)
    start_gate -L multicast
    wait_gate 60
    # Budgets are not the point here (six hosts share 2 cores): pass or budget fail.
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || { tail -30 "$work/out"; fail "exit $rc, expected 0 or 1"; }
    check
    ;;
  rp-filter)
    rp_saved="$(m3 sysctl -n net.ipv4.conf.all.rp_filter),$(m3 sysctl -n net.ipv4.conf.ic0.rp_filter)"
    # The management veth (198.18.2.x): m1's interconnect address is routed there,
    # so the reverse path of the feed (from 198.19.200.1, arriving on ic0) is not ic0.
    mg=$(m3 ip -o -4 addr show | awk '$4 ~ /^198\.18\./ {print $2; exit}')
    [ -n "$mg" ] || fail "no management interface on m3"
    m3 ip route add 198.19.200.1/32 dev "$mg" || fail "cannot route m1 via m3's management link"
    m3 sysctl -qw net.ipv4.conf.all.rp_filter=1 net.ipv4.conf.ic0.rp_filter=1 || fail "cannot set rp_filter on m3"
    start_gate -L multicast
    wait_gate 60
    [ "$rc" = 1 ] || { tail -30 "$work/out"; fail "exit $rc, expected 1 (m3's case fails)"; }
    check --silent m3:rp_filter
    grep -q "rp_filter is strict (1) on ic0 and the route back to the publisher 198.19.200.1 goes via $mg" "$work/out" ||
      { tail -30 "$work/out"; fail "the console does not name m3's rp_filter and route"; }
    ;;
  burst)
    ip netns exec lgm-m4 nft list tables >/dev/null 2>&1 || fail "nft cannot run in m4's namespace"
    start_gate -L multicast
    until=$((SECONDS + 40))
    until grep -q "Multicast.feed/m1: publishing" "$work/out" 2>/dev/null; do
      [ $SECONDS -lt $until ] || fail "the feed did not start within 40 s"
      sleep 0.05
    done
    # Subscribers join, the publisher starts, 500 ms of warm-up: then mid-run.
    sleep 2
    ip netns exec lgm-m4 nft -f - <<'NFT' || fail "cannot add the drop rule on m4"
table ip lgburst {
  chain in { type filter hook input priority 0; ip daddr 239.1.1.1 drop; }
}
NFT
    sleep 0.25
    ip netns exec lgm-m4 nft delete table ip lgburst
    wait_gate 60
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || { tail -30 "$work/out"; fail "exit $rc, expected 0 or 1"; }
    check --gap m4
    ;;
  *)
    echo "multicast_lab: unknown case '$case_name' (feed, rp-filter, burst)" >&2
    exit 2
    ;;
esac
echo "multicast_lab $case_name: ok"
