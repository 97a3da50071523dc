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
#   rhel5      the mcast probe's both ends under the RHEL 5 (2.6.18) system-call
#              emulation (tests/rhel5_exec), an SSM and an any-source join
#   one-way    each subscriber's one-way delay, publisher -> subscriber: the six
#              hosts share one kernel, so the offset found must lie within its
#              bound of the truth (the anchors' difference, 0 unless the clock
#              stepped); the forward budgets are judged on figures, and a second
#              feed whose one_way_max_error (1ns) no bound meets fails every
#              record saying why (tests/mesh/check_multicast_one_way.py)
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
  rhel5)
    # The probe itself under the RHEL 5 (2.6.18) system-call emulation, both
    # ends: an any-source and an SSM (IP_ADD_SOURCE_MEMBERSHIP) subscriber.
    x=$bin/../tests/rhel5_exec
    p=$bin/../probes/mcast
    [ -x "$x" ] && [ -x "$p" ] || fail "no $x or $p"
    ip netns exec lgm-m2 "$x" "$p" subscribe --group 232.1.1.1 --port 5001 --bind 198.19.200.2 \
      --source 198.19.200.1 --reply-every 10 --idle-timeout 5s >"$work/m2.out" 2>"$work/m2.err" &
    ip netns exec lgm-m3 "$x" "$p" subscribe --group 232.1.1.1 --port 5001 --bind 198.19.200.3 \
      --reply-every 10 --idle-timeout 5s >"$work/m3.out" 2>"$work/m3.err" &
    for h in m2 m3; do
      for _ in $(seq 50); do grep -q '"joined"' "$work/$h.out" && break; sleep 0.1; done
      grep -q '"joined"' "$work/$h.out" || fail "$h did not join under the filter: $(cat "$work/$h.out" "$work/$h.err")"
    done
    ip netns exec lgm-m1 "$x" "$p" publish --group 232.1.1.1 --port 5001 --bind 198.19.200.1 \
      --subscriber 198.19.200.2 --subscriber 198.19.200.3 --rate 1000/s --duration 500ms --warmup 100ms \
      --reply-every 10 >"$work/m1.out" 2>"$work/m1.err" || fail "publisher: exit $? ($(cat "$work/m1.err"))"
    wait
    python3 - "$work" <<'PY' || fail "the runs under the filter are not whole (above)"
import json, sys
w = sys.argv[1]
pub = json.loads(open(f"{w}/m1.out").read())
assert pub["status"] == "ok", pub
for h, addr in (("m2", "198.19.200.2"), ("m3", "198.19.200.3")):
    sub = json.loads(open(f"{w}/{h}.out").read().strip().splitlines()[-1])
    m = sub["counters"]["measured"]
    assert sub["status"] == "ok" and sub["end_seen"], sub
    assert m["received"] == m["expected"] == pub["counters"]["measured"]["sent"] > 0, (h, m)
    e = [s for s in pub["subscribers"] if s["address"] == addr][0]
    assert e["replies"] > 0 and e["histogram"]["total"] == e["replies"], (h, e["replies"])
    # Every reply carried the subscriber's receive stamp (clock_gettime under the filter too).
    ow = e["one_way"]
    assert ow["stamped"] == e["replies"] + e["warmup_replies"] and ow["unstamped"] == 0, (h, ow["stamped"])
    assert ow["intersection"]["lo_ns"] <= 0 <= ow["intersection"]["hi_ns"], (h, ow["intersection"])
    print(h, "received", m["received"], "of", m["expected"], "replies", e["replies"])
PY
    ;;
  one-way)
    # The mesh's hosts and defaults, then two feeds: one whose bound the lab
    # meets (about the clocks, not the loaded machine's latency), one it cannot.
    . "$src/tests/mesh/mesh_feed_profile.sh"
    {
      mesh_profile_head "$src"
      for limit in 1s 1ns; do
        name=feed_one_way
        [ $limit = 1ns ] && name=feed_one_way_unmet
        mesh_feed_test $name 2000/s 10 2s \
          '{ p99 = "100ms", one_way_p99_forward = "1s", one_way_max_forward = "1s" }' \
          "one_way_max_error = \"$limit\""
      done
    } >"$work/one-way.toml"
    profile=$work/one-way.toml
    start_gate
    wait_gate 80
    [ "$rc" = 1 ] || { tail -30 "$work/out"; fail "exit $rc, expected 1 (the unmet feed's one-way budgets)"; }
    python3 "$src/tests/mesh/check_multicast_one_way.py" "$(run_dir)" "$work/out" --subscribers "$subs" \
      --test feed_one_way --unmet feed_one_way_unmet ||
      { tail -30 "$work/out"; fail "the one-way records miss what they promise (above)"; }
    ;;
  tools)
    . "$src/tests/mesh/mesh_feed_profile.sh"
    tool_feed() {  # NAME TOOL [TOOL_PATH]: a 2-s ping-pong through 239.1.1.2 from m1 to m2
      printf '[[test]]\nname = "%s"\nkind = "udp_multicast"\ntool = "%s"\n%sfrom = "m1"\nto = ["m2"]\n' \
        "$1" "$2" "${3:+tool_path = \"$3\"
}"
      printf 'group = "239.1.1.2:5002"\nmessage_size = 64\nduration = "2s"\nbudget = { p99 = "100ms" }\n\n'
    }
    {
      mesh_profile_head "$src"
      tool_feed sockperf37_feed sockperf
      tool_feed sockperf310_feed sockperf sockperf-3.10
      tool_feed sfnt_feed sfnt-pingpong
    } >"$work/tools.toml"
    profile=$work/tools.toml
    start_gate -L multicast
    wait_gate 90
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || { tail -30 "$work/out"; fail "exit $rc, expected 0 or 1"; }
    python3 "$src/tests/mesh/check_multicast_tools.py" "$(run_dir)" ||
      { tail -30 "$work/out"; fail "the tool records miss what they promise (above)"; }
    # Two subscribers with a tool: refused at load, naming the file:line and why.
    { mesh_profile_head "$src"; tool_feed two sockperf | sed 's/^to = \["m2"\]/to = ["m2", "m3"]/'; } >"$work/two.toml"
    line=$(grep -n '^to = \["m2", "m3"\]' "$work/two.toml" | cut -d: -f1)
    "$bin/labgate" validate "$work/two.toml" >"$work/two.out" 2>&1
    vrc=$?
    [ $vrc = 2 ] || { cat "$work/two.out"; fail "validate of a two-subscriber sockperf feed: exit $vrc, expected 2"; }
    grep -q "two.toml:$line:.*test\[two\].to: sockperf measures multicast as a ping-pong with one subscriber; found 2" \
      "$work/two.out" && grep -q "sockperf issue #220" "$work/two.out" ||
      { cat "$work/two.out"; fail "the refusal does not name two.toml:$line, the key and #220"; }
    ;;
  *)
    echo "multicast_lab: unknown case '$case_name' (feed, rp-filter, burst, rhel5, one-way, tools)" >&2
    exit 2
    ;;
esac
echo "multicast_lab $case_name: ok"
