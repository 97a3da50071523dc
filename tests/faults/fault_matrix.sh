#!/usr/bin/env bash
# The fault matrix on lab pair 3 (needs root and `ci/lab up --pair 3`): one
# fault per case, injected into a real `labgate run` at the moment the hosts'
# namespaces show the step under attack. Each case checks that the run ends in
# time with exit 3 (1 where the servers really failed), that the message names
# the host and the step, that the results folder and junit.xml keep what
# finished before the fault, and that nothing is left on either host
# (inspect_leftovers.sh) — after a repair run where the fault cut a host off.
#
#   fault_matrix.sh CASE BIN_DIR SOURCE_DIR
#   CASE: sshd-before sshd-upload sshd-measure mgmt-cut ic-cut probe-kill
#         probe-stop disk-full sigint sigterm facts-flood facts-garbage facts-endless
# FAULT_SEED picks the random moments of sigint/sigterm (printed; fixed by default).
set -uo pipefail
case_name=$1
bin=$(cd "$2" && pwd)
src=$(cd "$3" && pwd)
work=$(mktemp -d /var/tmp/labgate-faults.XXXXXX)
unset LABGATE_RUN_DIR LABGATE_RUN_DIR_FILE LABGATE_PROFILE
# shellcheck source=fault_lib.sh
. "$src/tests/faults/fault_lib.sh"
cleanup() {
  [ -n "${gate_pid:-}" ] && kill -KILL -- -"$gate_pid" 2>/dev/null
  tc qdisc del dev "$veth_b" root 2>/dev/null
  mountpoint -q "$work/results" 2>/dev/null && umount "$work/results"
  [ -n "${FAULT_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
  "$src/ci/lab" up --pair "$pair" >/dev/null 2>&1  # the next case finds the lab whole
}
trap cleanup EXIT
cd "$src"
"$src/ci/lab" up --pair "$pair" >/dev/null || fail "ci/lab up --pair $pair failed"
# A case that failed before may have left the pair dirty: a gate step sweeps it.
if ! bash "$src/tests/faults/inspect_leftovers.sh" --pair "$pair" --wait 2; then
  make_profile 3s
  recover
fi

# The server half of the measurement runs on b, the client on a.
server_probe() { wait_remote_process "$ns_b" "pingpong" "${1:-40}" comm; }
client_probe() { wait_remote_process "$ns_a" "pingpong" "${1:-40}" comm; }

case $case_name in
  sshd-before)
    make_profile 20s
    kill_sshd "$ns_b"
    start_gate
    wait_gate 60
    expect_rc 3
    expect_message 'host b.*(cannot connect|connect)'
    expect_results
    recover
    expect_clean
    ;;
  sshd-upload)
    # A slow management link to b (tbf) so the facts probe's upload takes seconds:
    # sshd dies while the probe is growing on b (written in place in the run's
    # private directory, no temporary name).
    make_profile 20s
    # A copy an earlier run kept on b (issue 23's probe cache) would be copied
    # there, not uploaded: none, so the probe crosses the slow link.
    rm -rf "$state"/tmp-b/labgate-probe-cache.*
    tc qdisc add dev "$veth_b" root tbf rate 400kbit burst 4kb latency 400ms || fail "cannot slow $veth_b"
    start_gate
    until=$((SECONDS + 40))
    while [ -z "$(ls "$state"/tmp-b/labgate-lab-pair$pair.*/facts 2>/dev/null)" ]; do
      [ $SECONDS -lt $until ] && kill -0 "$gate_pid" 2>/dev/null || fail "no upload of the facts probe to b seen within 40 s"
      sleep 0.02
    done
    echo "uploading: $(ls -l "$state"/tmp-b/labgate-lab-pair$pair.*/facts)"
    kill_sshd "$ns_b"
    tc qdisc del dev "$veth_b" root
    wait_gate 60
    expect_rc 3
    expect_message 'host b .*SFTP .*facts.*connection lost'
    expect_results
    recover
    expect_clean
    ;;
  sshd-measure)
    make_profile 10s
    start_gate
    server_probe >/dev/null
    client_probe >/dev/null
    sleep 3
    kill_sshd "$ns_b"
    # The measurement itself (client on a, server on b over ic0) still completes;
    # stopping b's server and cleaning b up cannot, so the run cannot be vouched for.
    wait_gate 90
    expect_rc 3
    expect_message 'host b.*(could not clean up|tcp_rr_64)'
    expect_results
    recover
    expect_clean
    ;;
  mgmt-cut)
    make_profile 20s
    start_gate
    client_probe >/dev/null
    sleep 3
    ip link set "$veth_a" down
    # Silence, no RST: the keepalives (TCP_USER_TIMEOUT 20 s) notice it.
    wait_gate 120
    ip link set "$veth_a" up
    expect_rc 3
    expect_message 'tcp_rr_64/a->b: host a .*connection lost while running .*pingpong client'
    expect_results
    recover
    expect_clean
    ;;
  ic-cut)
    make_profile 20s
    start_gate
    client_probe >/dev/null
    sleep 3
    ip netns exec "$ns_b" ip link set ic0 down
    wait_gate 120
    ip netns exec "$ns_b" ip link set ic0 up
    # The probe cannot tell a dead path from a dead server: no figures, so exit 3.
    expect_rc 3
    expect_message 'tcp_rr_64/a->b: host a: .*pingpong client .*no reply from the server'
    # The link state read then (issue 22): b's ic0 named down, the probe named once.
    expect_message 'no reply from the server.*; the interconnect now: .*ic0 on host b down'
    LC_ALL=C grep -a 'no reply from the server' "$work/out" | grep -q 'pingpong client.*pingpong client' &&
      fail "'pingpong client' said twice in one message"
    expect_results
    expect_clean
    ;;
  probe-kill)
    make_profile 20s
    start_gate
    pids=$(server_probe)
    client_probe >/dev/null
    sleep 2
    kill -KILL $pids
    wait_gate 90
    expect_rc 3
    expect_message 'host [ab].*tcp_rr_64.*pingpong'
    expect_results
    expect_clean
    ;;
  probe-stop)
    make_profile 20s
    start_gate
    pids=$(server_probe)
    client_probe >/dev/null
    sleep 2
    kill -STOP $pids
    wait_gate 120
    expect_rc 3
    expect_message 'host [ab].*tcp_rr_64.*pingpong'
    expect_results
    expect_clean
    ;;
  disk-full)
    make_profile 3s
    results_root=$work/results
    mkdir -p "$results_root"
    mount -t tmpfs -o size=200k labgate-faults "$results_root" || fail "cannot mount a small tmpfs"
    # What the run needs before the measurement fits; fill it so the measurement's
    # files do not.
    start_gate
    client_probe >/dev/null
    avail=$(df -k --output=avail "$results_root" | tail -1)
    head -c $(( (avail - 4) * 1024 )) /dev/zero >"$results_root/filler" 2>/dev/null
    wait_gate 90
    expect_rc 3
    expect_message 'tcp_rr_64/a->b: recording the results: cannot write results file .*No space left on device'
    # The last publish could not happen: the folder keeps what the run had
    # published before (the preconditions), never a half-written file.
    no_exit_record=1 finished_before=Preconditions expect_results
    expect_clean
    ;;
  sigint|sigterm)
    seed=${FAULT_SEED:-20261130}
    [ "$case_name" = sigterm ] && seed=$((seed + 1))
    RANDOM=$seed
    echo "FAULT_SEED=${FAULT_SEED:-20261130} (this case's seed $seed; set FAULT_SEED to explore other moments)"
    make_profile 20s
    # Two moments (in tenths of a second): while connecting and checking the
    # preconditions (about the first 1.5 s on the lab), and while measuring.
    for window in "1 15" "15 120"; do
      set -- $window
      delay=$(( $1 + RANDOM % ($2 - $1) ))
      start_gate
      sleep "$(printf '%d.%d' $((delay / 10)) $((delay % 10)))"
      if [ "$case_name" = sigint ]; then
        echo "Ctrl-C (SIGINT to the process group) after ${delay}00 ms"
        kill -INT -- -"$gate_pid"
      else
        echo "SIGTERM to labgate run alone after ${delay}00 ms"
        kill -TERM "$gate_pid"
      fi
      wait_gate 60
      expect_rc 3
      expect_message "interrupted by SIG(INT|TERM)"
      # A stopped gate starts nothing new: no measurement after the interruption.
      # (GoogleTest may still list a case it then skips, saying why: that case
      # never measured; a "measuring for" line is a measurement begun.)
      after=$(sed -n '/interrupted by SIG/,$p' "$work/out")
      grep -qE '^(info: )?Latency\.[^ ]*: measuring for' <<<"$after" &&
        fail "a measurement began after the harness was interrupted: $after"
      for t in $(sed -nE 's/^\[ RUN      \] (Latency\.[^ ]*).*/\1/p' <<<"$after"); do
        grep -qF "[  SKIPPED ] $t" <<<"$after" || fail "$t ran after the harness was interrupted, and was not skipped"
      done
      expect_results
      expect_clean
    done
    ;;
  facts-flood|facts-garbage|facts-endless)
    # Hostile remote output: a facts "probe" (LABGATE_PROBE_DIR wins over the
    # built one) that floods, prints binary garbage, or never ends.
    make_profile 3s
    sed -i 's/^command_timeout = .*/command_timeout = "5s"/' "$profile"
    mkdir -p "$work/probes"
    case $case_name in
      facts-flood) body='exec yes labgate-flood-line' want='host [ab].*facts.* wrote more than .* to stdout; stopped it' ;;
      facts-garbage) body='head -c 300000 /dev/urandom' want='host [ab].*facts probe output unusable' ;;
      facts-endless) body='exec sleep 3600' want='host [ab].*facts.*(timed out|time limit|after 5)' ;;
    esac
    # It passes the install check (--self-digest: the SHA-256 of the file uploaded),
    # so the hostile part is what the gate reads as facts.
    printf '#!/bin/sh\n[ "$1" = --self-digest ] && { sha256sum "$0" | cut -d" " -f1; exit 0; }\n%s\n' \
      "$body" >"$work/probes/facts"
    chmod +x "$work/probes/facts"
    LABGATE_PROBE_DIR=$work/probes start_gate -L preconditions
    wait_gate 60
    expect_rc 3
    expect_message "$want"
    # What the hostile probe printed reaches the output escaped, never raw.
    LC_ALL=C grep -aq $'[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\xff]' "$work/out" &&
      fail "raw control or binary bytes from the probe reached labgate's output"
    expect_results
    expect_clean
    ;;
  *) fail "unknown case $case_name" ;;
esac
echo "ok: $case_name"
