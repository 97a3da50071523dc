#!/usr/bin/python3
"""Figure: what each ping-pong loop spends per round trip (issue 25's probe fidelity).
The built-in probe, sockperf and bench/pingpong_min.c (the raw loop: one send, one
blocking recv) each run on a lab pair's interconnect under `perf stat`, which counts
the client's system calls by name (kernel tracepoints: exact, and they do not slow
the loop the way strace does) and its CPU time. Per round trip: system calls in
all, the ones beyond the raw loop's send + recv, and CPU microseconds on the
client. Unlike a latency percentile on a shared machine, counts do not depend on
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
    """Figures per request sent: every tool sends each request with one system call."""
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
    pair = bl.LabPair(a.pair)
    pair.require_up()
    got = {(proto, t): [] for proto in protos for t in tools}
    with tempfile.TemporaryDirectory(prefix="labgate-bench-") as tmp:
        runner = fidelity.Runner(a, pair, tmp)
        for i in range(a.rounds):
            for proto in protos:
                for t in tools:
                    out = Path(tmp) / f"perf-{i}-{proto}-{tools.index(t)}.csv"
                    runner.one(t, proto, wrap=["perf", "stat", "-x,", "-o", str(out), "-e", ",".join(EVENTS), "--"])
                    fig = per_round_trip(read_perf(out))
                    if fig is None:
                        bl.die(f"{t} {proto}: perf counted no send system call ({out})")
                    got[(proto, t)].append(fig)

    rows = []
    for proto in protos:
        for t in tools:
            runs = got[(proto, t)]
            extra = {n: bl.median([r["extra"][n] for r in runs]) for n in runs[0]["extra"]}
            named = ", ".join(f"{n} {v:.3f}" for n, v in sorted(extra.items(), key=lambda kv: -kv[1]) if v >= 0.0005)
            cpus = [r["cpu_us"] for r in runs]
            rows.append([f"{proto}_rr {a.size} B", t, int(bl.median([r["round_trips"] for r in runs])),
                         f"{bl.median([r['syscalls'] for r in runs]):.3f}",
                         f"{bl.median([r['beyond'] for r in runs]):.3f}", named or "none",
                         f"{bl.median(cpus):.2f} µs ({min(cpus):.2f}–{max(cpus):.2f})"])
    pinning = "unpinned" if a.client_cpu is None else f"client CPU {a.client_cpu}, server CPU {a.server_cpu}"
    if a.compare_probe:
        pinning += f"; --compare-probe {a.compare_probe}"
    bl.print_table(f"Ping-pong loops: the client's work per round trip on lab pair {pair.n}'s interconnect, {pinning}",
                   ["test", "tool", "round trips per run", "system calls per round trip",
                    "beyond one send + recv", "of which (per round trip)", "client CPU per round trip"],
                   rows, bl.this_command(),
                   notes=[f"Medians over {a.rounds} interleaved rounds of {a.duration} s (+ warm-up), counted by "
                          "`perf stat` on the client's whole process (start-up and output included, a few "
                          "hundred calls per run). Per round trip = per request sent: each tool sends a "
                          "request with one system call. A recv that returns EAGAIN (busy-poll) counts as a call. "
                          "CPU is task-clock (on-CPU time, user + system), range over rounds in brackets."])


if __name__ == "__main__":
    main()
