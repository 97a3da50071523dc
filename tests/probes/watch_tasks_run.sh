#!/usr/bin/env bash
# The noise watch's task scan finds the tasks born after it first listed /proc:
# a thread started in a process it already knows (found through that process's
# task count: its task directory is not listed again for every fork) and a
# child process, each busy on the watched CPU for 300 ms of CPU time, then the
# process's own task, known to the watch and asleep through several scans
# (where the watch skips a process whose CPU clock did not move), busy the same
# way. Each must
# be in the watch's document with that run time on that CPU, less at most two
# scans' worth (what ran before a scan first saw it), never more.
# Run plain and under the RHEL 5 (2.6.18) system-call emulation.
# Usage: PROBE_DIR=... NEWCOMERS=... RHEL5_EXEC=... watch_tasks_run.sh
set -euo pipefail
: "${PROBE_DIR:?PROBE_DIR must name the built probes}" "${NEWCOMERS:?NEWCOMERS must name watch_newcomers}"
: "${RHEL5_EXEC:?RHEL5_EXEC must name tests/rhel5_exec}"
work=$(mktemp -d /tmp/lgp-watchtasks.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "watch_tasks_run: $*" >&2; exit 1; }
cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')

for mode in plain rhel5; do
  prefix=()
  [ "$mode" = rhel5 ] && prefix=("$RHEL5_EXEC")
  "${prefix[@]}" "$PROBE_DIR/watch" --cpus "$cpu" --duration 60s >"$work/watch.json" 2>"$work/watch.err" &
  watch=$!
  sleep 0.3  # its first listing of /proc is done: whatever comes now is new to it
  # The process starts now; its thread 400 ms later, after scans have listed it.
  "$NEWCOMERS" "$cpu" 400 300 >"$work/tasks.txt" || fail "$mode: watch_newcomers failed"
  sleep 0.2
  kill -TERM "$watch"  # its last window scans the tasks
  wait "$watch" || fail "$mode: watch exited $? ($(cat "$work/watch.err"))"
  python3 - "$work/watch.json" "$work/tasks.txt" "$mode" <<'PY' || fail "$mode: see above"
import json, sys
doc = json.load(open(sys.argv[1]))
mode = sys.argv[3]
assert doc["status"] == "ok", doc["status"]
ok = True
for line in open(sys.argv[2]):
    what, tid, cpu_ns = line.split()
    tid, cpu_ns = int(tid), int(cpu_ns)
    ix = [i for i, t in enumerate(doc["tasks"]) if t["pid"] == tid]
    seen = sum(e[2] for w in doc["windows"] for e in w["tasks"] if e[1] in ix and e[0] == 0)
    print(f"{mode}: {what} {tid}: ran {cpu_ns / 1e6:.1f} ms, the watch saw {seen / 1e6:.1f} ms on the watched CPU")
    # Its run time before the first scan that saw it is its baseline (a scan
    # every 100 ms): all the rest is on record, never more than it ran.
    if seen < cpu_ns - 200_000_000 or seen > cpu_ns + 20_000_000:
        print(f"{mode}: {what} {tid}: not found in time, or more run time than it had", file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY
  [ "$(wc -l <"$work/tasks.txt")" -eq 3 ] || fail "$mode: expected a thread, a child and the known task: $(cat "$work/tasks.txt")"
done
echo "ok: the watch found a new thread, a new process and a known task that slept, plain and under the 2.6.18 emulation"
