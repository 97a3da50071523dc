#!/usr/bin/env bash
# Probes listen only on the test address, only for the test's duration, and
# refuse a peer that is not the harness's client. On lab pair 9, for each probe
# server (pingpong and stream, tcp and udp) started in lg9-b on its test
# address with --peer = lg9-a's test address:
#  - the listener is bound to that one address (ss), nothing else;
#  - a stranger on another address (a second address on lg9-a's ic0, and
#    lg9-b's own management address) is reset (tcp) or ignored (udp), before
#    and during a real measurement, and counted as `foreign`;
#  - the real client meanwhile measures normally;
#  - the server still leaves on its own after --idle-timeout, however much the
#    stranger keeps talking to it.
# Then a whole `labgate run`: every server got --peer with the client's test
# address, counted no stranger, and no probe is left running afterwards.
source "$(dirname "$0")/lib.sh"

STRANGER_IP=198.19.$SEC_PAIR.3
stranger=$build/tests/security_stranger
[ -x "$stranger" ] || fail "$stranger is not built"
ip netns exec $NS_A ip addr replace $STRANGER_IP/24 dev ic0 || fail "cannot add $STRANGER_IP to $NS_A"
on_exit "ip netns exec $NS_A ip addr del $STRANGER_IP/24 dev ic0"

idle=3
# one_server PROBE PROTO: the whole story for one server kind.
one_server() {
  local probe=$1 proto=$2 out=$work/$1-$2 port uport listen got rc from
  ip netns exec $NS_B "$probes/$probe" server --bind $IC_B --proto "$proto" --peer $IC_A \
    --idle-timeout ${idle}s >"$out.server" 2>"$out.server-err" &
  local spid=$!
  on_exit "kill $spid 2>/dev/null"
  for _ in $(seq 50); do grep -q listening "$out.server" 2>/dev/null && break; sleep 0.1; done
  port=$(grep -o '"port":[0-9]*' "$out.server" | head -1 | cut -d: -f2)
  [ -n "$port" ] || fail "$probe $proto server did not listen: $(cat "$out.server-err")"
  uport=$port
  [ "$probe" = stream ] && [ "$proto" = udp ] && uport=$(grep -o '"udp_port":[0-9]*' "$out.server" | head -1 | cut -d: -f2)

  # Bound to the test address only (tcp and udp sockets of the server).
  listen=$(ip netns exec $NS_B ss -Hlnptu | grep "pid=$spid," | awk '{print $5}' | sort -u)
  [ -n "$listen" ] || fail "$probe $proto: no socket of the server found by ss"
  ! grep -qv "^$IC_B:" <<<"$listen" || fail "$probe $proto listens beyond $IC_B: $listen"

  # Strangers before any client, from another address of a, and from b's own
  # management address: a tcp connection is reset, a udp datagram ignored.
  for from in "$NS_A $STRANGER_IP" "$NS_B $MGMT_B"; do
    set -- $from
    if [ "$probe" = pingpong ] && [ "$proto" = udp ]; then
      got=$(ip netns exec "$1" "$stranger" udp "$2" $IC_B "$port" 3 50)
      [ "$got" = ignored ] || fail "$probe udp answered stranger $2: $got"
      continue
    fi
    got=$(ip netns exec "$1" "$stranger" tcp "$2" $IC_B "$port" 2 50)
    [ "$(sort -u <<<"$got")" = reset ] || fail "$probe $proto did not reset stranger $2: $got"
    if [ "$probe" = stream ] && [ "$proto" = udp ]; then
      got=$(ip netns exec "$1" "$stranger" udp "$2" $IC_B "$uport" 3 50)
      [ "$got" = ignored ] || fail "stream udp answered stranger $2's datagrams: $got"
    fi
  done

  # The stranger keeps at it (every 50 ms) during the client's run and after it.
  local flood=tcp
  [ "$proto" = udp ] && flood=udp
  ip netns exec $NS_A "$stranger" $flood $STRANGER_IP $IC_B "$uport" 160 50 >"$out.flood" &
  local fpid=$!
  local client_args=(client --connect $IC_B --port "$port" --proto "$proto" --duration 2s --warmup 200ms)
  ip netns exec $NS_A "$probes/$probe" "${client_args[@]}" >"$out.client" 2>"$out.client-err"
  rc=$?
  local client_end
  client_end=$(date +%s.%N)
  [ $rc -eq 0 ] || fail "$probe $proto client failed beside a stranger (exit $rc): $(cat "$out.client-err")"
  grep -q '"status":"ok"' "$out.client" || fail "$probe $proto client did not measure: $(head -c 300 "$out.client")"
  # The server leaves on its own, idle, while the stranger is still talking.
  for _ in $(seq $(((idle + 3) * 10))); do kill -0 $spid 2>/dev/null || break; sleep 0.1; done
  kill -0 $fpid 2>/dev/null || fail "the stranger stopped before the server left: the idle exit proves nothing"
  kill -0 $spid 2>/dev/null && fail "$probe $proto server still runs $((idle + 3)) s after its client, with a stranger talking"
  wait $spid
  local left
  left=$(date +%s.%N)
  kill $fpid 2>/dev/null
  wait $fpid 2>/dev/null
  awk -v a="$client_end" -v b="$left" -v i=$idle 'BEGIN { exit !(b - a < i + 1.5) }' ||
    fail "$probe $proto server left $(awk -v a="$client_end" -v b="$left" 'BEGIN{print b-a}') s after its client (idle ${idle}s)"
  local summary
  summary=$(sed -n 2p "$out.server")
  grep -q '"exit_reason":"idle_timeout"' <<<"$summary" || fail "$probe $proto server summary: $summary"
  grep -q "\"peer\":\"$IC_A\"" <<<"$summary" || fail "$probe $proto server summary lacks the peer: $summary"
  local foreign
  foreign=$(grep -o '"foreign":[0-9]*' <<<"$summary" | cut -d: -f2)
  [ "${foreign:-0}" -ge 10 ] || fail "$probe $proto counted ${foreign:-0} foreign attempts, expected the stranger's (>= 10): $summary"
  if [ "$flood" = tcp ]; then
    # While the one client slot is busy a stranger waits in the listen queue
    # ("silent"), then is reset: never answered, never served.
    grep -qE '^(answered|closed)$' "$out.flood" && fail "$probe $proto served a stranger: $(sort <"$out.flood" | uniq -c)"
    grep -q '^reset$' "$out.flood" || fail "$probe $proto: no stranger connection was reset: $(sort <"$out.flood" | uniq -c)"
  else
    ! grep -q answered "$out.flood" || fail "$probe $proto answered the stranger's datagrams: $(sort <"$out.flood" | uniq -c)"
  fi
  note "$probe $proto: bound to $listen, $foreign foreign attempts refused, idle exit after $(awk -v a="$client_end" -v b="$left" 'BEGIN{printf "%.1f", b-a}') s"
}

one_server pingpong tcp
one_server pingpong udp
one_server stream tcp
one_server stream udp

note "a whole run: each server answers only the client's test address"
profile=$work/p.toml
make_profile "$profile"
timeout 300 "$bin/labgate" run "$profile" -L latency -L throughput --suffix peers --results "$work/results" \
  >"$work/out" 2>&1
rc=$?
[ $rc -eq 0 ] || { tail -30 "$work/out"; fail "labgate run exited $rc, expected 0"; }
run=$(ls -d "$work"/results/*-peers)
n=0
while IFS= read -r cmd; do
  n=$((n + 1))
  case $cmd in
    *"server@b:"*) want="--peer $IC_A" ;;
    *) want="--peer $IC_B" ;;
  esac
  grep -qF -- "$want" <<<"$cmd" || fail "a server was started without $want: $cmd"
done < <(grep -rh '^server@' "$run")
[ $n -eq 4 ] || fail "found $n server command lines in the results, expected 4"
grep -rh '"role":"server","status"' "$run" | grep -v '"foreign":0' && fail "a server of the run counted strangers"
sleep 0.5
[ -z "$(probe_pids $NS_A)$(probe_pids $NS_B)" ] || fail "probes are still running after the run"
echo "ok: probe_peers"
