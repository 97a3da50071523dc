#!/usr/bin/env bash
# The probe servers' peer filter under the RHEL 5 (Linux 2.6.18) system-call
# emulation of tests/rhel5_seccomp, on loopback: for pingpong and stream, tcp
# and udp, a stranger on 127.0.0.9 is reset (tcp) or ignored (udp) and counted
# as foreign, the real client (127.0.0.1, the --peer) measures, and the server
# leaves on its idle timeout. Proves the reset (SO_LINGER), accept and recvfrom
# paths use nothing newer than 2.6.18.
# Usage: rhel5_peers.sh RHEL5_EXEC PROBE_DIR STRANGER
set -uo pipefail
rhel5=${1:?usage: rhel5_peers.sh RHEL5_EXEC PROBE_DIR STRANGER}
probes=${2:?}
stranger=${3:?}
work=$(mktemp -d /tmp/lgsec-rhel5.XXXXXX)
spid=
trap '[ -n "$spid" ] && kill $spid 2>/dev/null; rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

for spec in "pingpong tcp" "pingpong udp" "stream tcp" "stream udp"; do
  set -- $spec
  "$rhel5" "$probes/$1" server --bind 127.0.0.1 --proto "$2" --peer 127.0.0.1 --idle-timeout 2s >"$work/server" 2>&1 &
  spid=$!
  port=
  for _ in $(seq 100); do
    port=$(grep -o '"port":[0-9]*' "$work/server" | head -1 | cut -d: -f2)
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || fail "$spec: no listening line: $(cat "$work/server")"
  if [ "$1$2" = pingpongudp ]; then
    [ "$("$stranger" udp 127.0.0.9 127.0.0.1 "$port" 3 20)" = ignored ] || fail "$spec answered a stranger"
  else
    [ "$("$stranger" tcp 127.0.0.9 127.0.0.1 "$port" 2 20 | sort -u)" = reset ] || fail "$spec did not reset a stranger"
  fi
  if [ "$1$2" = streamudp ]; then
    uport=$(grep -o '"udp_port":[0-9]*' "$work/server" | cut -d: -f2)
    [ "$("$stranger" udp 127.0.0.9 127.0.0.1 "$uport" 3 20)" = ignored ] || fail "$spec answered stranger datagrams"
  fi
  "$rhel5" "$probes/$1" client --connect 127.0.0.1 --port "$port" --proto "$2" --duration 1s --warmup 100ms \
    >"$work/client" 2>&1 || fail "$spec client failed under the filter: $(cat "$work/client")"
  grep -q '"status":"ok"' "$work/client" || fail "$spec client did not measure"
  wait $spid || fail "$spec server failed under the filter: $(cat "$work/server")"
  spid=
  summary=$(sed -n 2p "$work/server")
  grep -q '"exit_reason":"idle_timeout"' <<<"$summary" || fail "$spec server summary: $summary"
  foreign=$(grep -o '"foreign":[0-9]*' <<<"$summary" | cut -d: -f2)
  [ "${foreign:-0}" -ge 2 ] || fail "$spec counted ${foreign:-0} foreign attempts: $summary"
  echo "ok: $spec ($foreign foreign)"
done
