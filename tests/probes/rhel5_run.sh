#!/usr/bin/env bash
# Runs the real work of a measuring probe (pingpong, stream or jitter) under the
# RHEL 5 (Linux 2.6.18) system-call emulation, on loopback: server and client
# both under the filter, each run must end with status "ok", and the CPU must be
# learned the 2.6.18 way (getcpu is newer: "cpu_actual_source":"proc_stat").
# Usage: RHEL5_EXEC=... PROBE_DIR=... rhel5_run.sh pingpong|stream|jitter|watch
set -euo pipefail
: "${RHEL5_EXEC:?RHEL5_EXEC must name tests/rhel5_exec}" "${PROBE_DIR:?PROBE_DIR must name the built probes}"
probe=${1:?usage: rhel5_run.sh pingpong|stream|jitter}
work=$(mktemp -d /tmp/lgp-rhel5.XXXXXX)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "rhel5_run $probe: $*" >&2; exit 1; }

# Starts "$probe server" under the filter and sets $port from its listening line.
start_server() {
  : >"$work/server.out"  # before the background start: never read the last server's port
  "$RHEL5_EXEC" "$PROBE_DIR/$probe" server --bind 127.0.0.1 --idle-timeout 10s "$@" >"$work/server.out" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    port=$(sed -n 's/.*"listening".*"port":\([0-9]*\).*/\1/p' "$work/server.out" | head -1)
    [ -n "$port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || fail "server exited: $(cat "$work/server.out")"
    sleep 0.05
  done
  fail "server printed no listening line: $(cat "$work/server.out")"
}

stop_server() {
  kill "$server_pid"
  wait "$server_pid" || true
  server_pid=""
}

# A --once server (what the gate passes) ends by itself within 1 s of its client.
expect_ended() {
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$server_pid" 2>/dev/null && fail "$1: the --once server still runs 1 s after its client"
  wait "$server_pid" || fail "$1: the --once server exited $?"
  server_pid=""
  grep -q '"exit_reason":"once"' "$work/server.out" || fail "$1: no exit_reason once: $(cat "$work/server.out")"
  echo "ok: $1 ended by itself"
}

# Runs one client (or jitter) under the filter and checks its JSON.
check_run() {
  local what=$1
  shift
  "$RHEL5_EXEC" "$@" >"$work/out.json" 2>"$work/err.txt" || fail "$what: exit $? ($(cat "$work/err.txt"))"
  grep -q '"status":"ok"' "$work/out.json" || fail "$what: status not ok: $(head -c 300 "$work/out.json")"
  grep -q '"cpu_actual_source":"proc_stat"' "$work/out.json" ||
    fail "$what: the CPU was not read from /proc/self/stat under the 2.6.18 filter"
  echo "ok: $what"
}

case "$probe" in
  pingpong)
    for proto in tcp udp; do
      start_server --proto "$proto"
      client=("$PROBE_DIR/pingpong" client --connect 127.0.0.1 --port "$port" --proto "$proto" --duration 500ms
              --warmup 100ms --cpu 0)
      check_run "$proto closed loop" "${client[@]}"
      # Outliers kept with their circumstances, the CPU the 2.6.18 way.
      grep -q '"worst_kept":64,' "$work/out.json" || fail "$proto: no 64 worst kept: $(head -c 600 "$work/out.json")"
      grep -q '"outlier_sources":{"cpu":"proc_stat"' "$work/out.json" ||
        fail "$proto: the outliers' CPU was not read from /proc/self/stat under the filter"
      grep -q '"cpu_after":0,' "$work/out.json" || fail "$proto: no outlier with its CPU: $(grep -o '"items":.\{300\}' "$work/out.json")"
      check_run "$proto open loop" "${client[@]}" --rate 2000/s
      check_run "$proto busy poll" "${client[@]}" --busy-poll
      stop_server
      start_server --proto "$proto" --once
      check_run "$proto once" "$PROBE_DIR/pingpong" client --connect 127.0.0.1 --port "$port" --proto "$proto" \
        --duration 300ms --warmup 0s --cpu 0
      expect_ended "$proto once"
    done
    # A swept socket buffer and congestion control: setsockopt as 2.6.18 has it.
    start_server --proto tcp --socket-buffer 64KiB --congestion reno
    check_run "tcp tuned" "$PROBE_DIR/pingpong" client --connect 127.0.0.1 --port "$port" --proto tcp \
      --duration 500ms --warmup 100ms --cpu 0 --socket-buffer 64KiB --congestion reno
    grep -q '"sndbuf":131072,"rcvbuf":131072,"congestion":"reno"' "$work/out.json" ||
      fail "tcp tuned: the socket did not take the buffer and algorithm: $(head -c 600 "$work/out.json")"
    stop_server
    ;;
  stream)
    for proto in tcp udp; do
      start_server --proto "$proto"
      check_run "$proto stream" "$PROBE_DIR/stream" client --connect 127.0.0.1 --port "$port" --proto "$proto" \
        --duration 500ms --warmup 100ms --cpu 0
      # Paced: clock_nanosleep(TIMER_ABSTIME) as 2.6.18 has it.
      check_run "$proto paced stream" "$PROBE_DIR/stream" client --connect 127.0.0.1 --port "$port" \
        --proto "$proto" --duration 500ms --warmup 100ms --cpu 0 --rate 2000/s
      grep -q '"mode":"open_loop","rate_per_s":2000' "$work/out.json" ||
        fail "$proto paced stream: not paced: $(head -c 600 "$work/out.json")"
      stop_server
      start_server --proto "$proto" --once
      check_run "$proto stream once" "$PROBE_DIR/stream" client --connect 127.0.0.1 --port "$port" \
        --proto "$proto" --duration 300ms --warmup 0s --cpu 0
      expect_ended "$proto stream once"
      # The receiver's worst gaps with their moment under 2.6.18's calls (no
      # getcpu; udp: SIOCGSTAMPNS, or SIOCGSTAMP before 2.6.22).
      # The 64 worst, or every gap when there were fewer: a receiver starved by a
      # busy machine reads a 300 ms TCP stream in few large reads.
      gaps=$(grep -o '"receive_gaps":{[^}]*' "$work/server.out" | grep -o '"count":[0-9]*' | head -1 | cut -d: -f2)
      kept=$(grep -o '"gap_outliers":{"threshold_ns":0,"worst_cap":64,"worst_kept":[0-9]*' "$work/server.out" |
        grep -o '[0-9]*$')
      [ -n "$gaps" ] && [ -n "$kept" ] && [ "$gaps" -ge 1 ] && [ "$kept" -eq $((gaps < 64 ? gaps : 64)) ] ||
        fail "$proto stream once: the receiver kept ${kept:-no} worst gaps of ${gaps:-no} (the 64 worst, or all when fewer): $(tail -c 600 "$work/server.out")"
      grep -q '"outlier_sources":{"cpu":"proc_stat","context_switches":"[a-z_]*"' "$work/server.out" ||
        fail "$proto stream once: the gaps' moment not read the 2.6.18 way: $(grep -o '"outlier_sources":.*' "$work/server.out")"
      [ "$proto" = tcp ] || grep -q '"sock_wait":"SIOCGSTAMP' "$work/server.out" ||
        fail "udp stream once: no socket wait source: $(grep -o '"outlier_sources":.*' "$work/server.out")"
      echo "ok: $proto stream once: the receiver's worst gaps ($kept kept of $gaps)"
    done
    start_server --proto tcp --socket-buffer 64KiB --congestion reno
    check_run "tcp tuned stream" "$PROBE_DIR/stream" client --connect 127.0.0.1 --port "$port" --proto tcp \
      --duration 500ms --warmup 100ms --cpu 0 --socket-buffer 64KiB --congestion reno
    grep -q '"sndbuf":131072,"rcvbuf":131072,"congestion":"reno"' "$work/out.json" ||
      fail "tcp tuned stream: the socket did not take the buffer and algorithm: $(head -c 600 "$work/out.json")"
    stop_server
    ;;
  jitter)
    check_run "jitter" "$PROBE_DIR/jitter" --cpus 0 --duration 500ms --warmup 100ms
    # Its worst gaps' moment under 2.6.18's calls: no getcpu, no RUSAGE_THREAD.
    grep -q '"outliers":{"threshold_ns":0,"worst_cap":64,"worst_kept":64' "$work/out.json" ||
      fail "jitter: no outlier record of the 64 worst gaps: $(head -c 600 "$work/out.json")"
    grep -q '"outlier_sources":{"cpu":"[a-z_]*","context_switches":"[a-z_]*"' "$work/out.json" ||
      fail "jitter: the moment's sources are not available under the filter: $(grep -o '"outlier_sources":{[^}]*}' "$work/out.json")"
    ;;
  watch)
    # /proc and the SMI MSR as 2.6.18 reads them; clock_nanosleep(TIMER_ABSTIME) paces it.
    "$RHEL5_EXEC" "$PROBE_DIR/watch" --cpus 0 --away --interval 10ms --duration 300ms >"$work/out.json" 2>"$work/err.txt" ||
      fail "watch: exit $? ($(cat "$work/err.txt"))"
    grep -q '"probe":"watch","status":"ok"' "$work/out.json" || fail "watch: status not ok: $(head -c 300 "$work/out.json")"
    windows=$(grep -o '"t0":' "$work/out.json" | wc -l)
    [ "$windows" -ge 20 ] || fail "watch: $windows windows in 300 ms at 10 ms (expected about 29)"
    grep -q '"names":{"irq":\["' "$work/out.json" || fail "watch: no interrupt names read under the filter"
    grep -q '"placement":"away from the watched CPUs"' "$work/out.json" ||
      fail "watch: --away did not move it under the filter: $(grep -o '"placement":"[^"]*"' "$work/out.json")"
    echo "ok: watch ($windows windows)"
    ;;
  *) fail "unknown probe '$probe'" ;;
esac
