#!/usr/bin/python3
"""Figure: what each ping-pong loop spends per round trip (issue 25's probe fidelity).
The built-in probe, sockperf and bench/pingpong_min.c (the raw loop: one send, one
blocking recv) each run on a lab pair's interconnect under `perf stat`, which counts
the system calls of the client and of the server by name (kernel tracepoints:
exact, and they do not slow the loop the way strace does) and their CPU time. Per
round trip: system calls in all, the ones beyond the raw loop's send + recv, and
CPU microseconds, on each side (sockperf's server runs until stopped, so only its
client is counted). The built-in probe also runs with no sample an outlier
(`--worst 0 --outlier 1h`, both sides): what every round trip costs, whatever
the noise (captures depend on how many outliers the machine makes). Unlike a latency percentile on a shared machine, counts do not depend on
the scheduler, so the probe's extra work per round trip is a figure, not noise."""
import shutil
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402
import fidelity  # noqa: E402

# What a ping-pong client may call per round trip. The total covers every other
# system call too (raw_syscalls), so nothing hides outside this list.
SENDS = ("sendto", "sendmsg", "write")
RECVS = ("recvfrom", "recvmsg", "read")
OTHERS = ("poll", "ppoll", "select", "pselect6", "epoll_wait", "epoll_pwait", "getrusage", "getcpu", "ioctl",
          "clock_gettime")
EVENTS = ["raw_syscalls:sys_enter", "task-clock"] + [f"syscalls:sys_enter_{n}" for n in SENDS + RECVS + OTHERS]


def perf_available():
    if shutil.which("perf") is None:
        return False
    r = bl.run(["perf", "stat", "-x,", "-e", "raw_syscalls:sys_enter,syscalls:sys_enter_sendto", "--", "true"],
               timeout=30, check=False)
    return r.returncode == 0 and "<not supported>" not in r.stderr and "sys_enter" in r.stderr


def read_perf(path):
    """perf stat -x, output: {event: count}; task-clock in ms."""
    counts = {}
    for line in Path(path).read_text().splitlines():
        f = line.split(",")
        if len(f) < 3 or line.startswith("#") or not f[2]:
            continue
        try:
            counts[f[2]] = float(f[0])
        except ValueError:
            bl.die(f"perf stat could not count {f[2]} ({f[0]}) in {path}: run as root with tracefs mounted")
    return counts


def per_round_trip(counts):
    """Figures per message sent (a request on the client, a reply on the server):
    every tool sends each with one system call."""
    sends = sum(counts.get(f"syscalls:sys_enter_{n}", 0) for n in SENDS)
    recvs = sum(counts.get(f"syscalls:sys_enter_{n}", 0) for n in RECVS)
    if sends == 0:
        return None
    extra = {n: counts.get(f"syscalls:sys_enter_{n}", 0) / sends for n in OTHERS}
    extra["recv beyond one"] = max(0.0, recvs / sends - 1)
    total = counts["raw_syscalls:sys_enter"] / sends
    return {"round_trips": sends, "syscalls": total, "beyond": total - 2, "extra": extra,
            "cpu_us": counts["task-clock"] * 1000 / sends}


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    fidelity.add_run_args(p, rounds=3)
    p.add_argument("--skip-without-perf", action="store_true",
                   help="exit 77 (a skip for CTest) when perf cannot count system calls here")
    a = p.parse_args()
    if not perf_available():
        msg = "perf stat cannot count system call tracepoints here (install linux-perf; root; tracefs)"
        if a.skip_without_perf:
            print(f"bench: skipped: {msg}", file=sys.stderr)
            sys.exit(77)
        bl.die(msg)
    tools, protos = fidelity.tools_and_protos(a)
    # The rows no noise moves: no sample an outlier, so only the per-sample work counts.
    tools[1:1] = [fidelity.NO_OUTLIER] + ([fidelity.OTHER_NO_OUTLIER] if a.compare_probe else [])
    pair = bl.LabPair(a.pair)
    pair.require_up()
    sides = ("client", "server")
    got = {(proto, t, side): [] for proto in protos for t in tools for side in sides}
    with tempfile.TemporaryDirectory(prefix="labgate-bench-") as tmp:
        runner = fidelity.Runner(a, pair, tmp)
        for i in range(a.rounds):
            for proto in protos:
                for t in tools:
                    out = {side: Path(tmp) / f"perf-{i}-{proto}-{tools.index(t)}-{side}.csv" for side in sides}
                    wrap = {side: ["perf", "stat", "-x,", "-o", str(out[side]), "-e", ",".join(EVENTS), "--"]
                            for side in sides}
                    runner.one(t, proto, wrap=wrap["client"],
                               server_wrap=() if t == fidelity.TOOLS[1] else wrap["server"])
                    for side in sides:
                        if not out[side].exists():
                            continue  # sockperf's server: not counted
                        fig = per_round_trip(read_perf(out[side]))
                        if fig is None:
                            bl.die(f"{t} {proto} {side}: perf counted no send system call ({out[side]})")
                        got[(proto, t, side)].append(fig)

    rows = []
    for proto in protos:
        for t in tools:
            for side in sides:
                runs = got[(proto, t, side)]
                if not runs:
                    rows.append([f"{proto}_rr {a.size} B", t, side, "not counted: runs until stopped",
                                 "", "", "", ""])
                    continue
                extra = {n: bl.median([r["extra"][n] for r in runs]) for n in runs[0]["extra"]}
                named = ", ".join(f"{n} {v:.4f}" for n, v in sorted(extra.items(), key=lambda kv: -kv[1])
                                  if v >= 0.00005)
                cpus = [r["cpu_us"] for r in runs]
                rows.append([f"{proto}_rr {a.size} B", t, side, int(bl.median([r["round_trips"] for r in runs])),
                             f"{bl.median([r['syscalls'] for r in runs]):.4f}",
                             f"{bl.median([r['beyond'] for r in runs]):.4f}", named or "none",
                             f"{bl.median(cpus):.2f} µs ({min(cpus):.2f}–{max(cpus):.2f})"])
    pinning = "unpinned" if a.client_cpu is None else f"client CPU {a.client_cpu}, server CPU {a.server_cpu}"
    if a.compare_probe:
        pinning += f"; --compare-probe {a.compare_probe}"
    bl.print_table(f"Ping-pong loops: each side's work per round trip on lab pair {pair.n}'s interconnect, {pinning}",
                   ["test", "tool", "side", "round trips per run", "system calls per round trip",
                    "beyond one send + recv", "of which (per round trip)", "CPU per round trip"],
                   rows, bl.this_command(),
                   notes=[f"Medians over {a.rounds} interleaved rounds of {a.duration} s (+ warm-up), counted by "
                          "`perf stat` on each side's whole process (start-up, warm-up and output included, a few "
                          "hundred calls per run). Per round trip = per message sent: each tool sends a "
                          "request (client) or a reply (server) with one system call. A recv that returns EAGAIN "
                          "(busy-poll, or a UDP server's idle wake-up every 100 ms) counts as a call. "
                          "Clock reads do not show: every tool reads CLOCK_MONOTONIC through the vDSO. "
                          "CPU is task-clock (on-CPU time, user + system), range over rounds in brackets."])


if __name__ == "__main__":
    main()
