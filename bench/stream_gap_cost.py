#!/usr/bin/env python3
"""What the stream receiver's gap capture (issue 25: its 64 worst receive gaps,
a clock read and a histogram count per read) costs its receive loop: this
build's probes/stream server beside an earlier revision's (compiled from `git
archive`, the same musl command as probes/CMakeLists.txt), on loopback, the
server pinned to one CPU and an unpaced client to another, rounds interleaved.
Each row: the server's CPU time (utime + stime from wait4) per datagram (udp)
or per MiB (tcp) it received, and the throughput that arrived; median and
range over the rounds. No lab needed; root only for nothing."""
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402


def one_run(binary, proto, size, seconds, cpus):
    """One server (--once) and one client; returns (server CPU s, datagrams, bytes, arrived bit/s)."""
    server = subprocess.Popen([str(binary), "server", "--bind", "127.0.0.1", "--proto", proto, "--once",
                               "--cpu", cpus[0]], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = server.stdout.readline().decode()
    try:
        port = json.loads(first)["port"]
    except (ValueError, KeyError):
        bl.die(f"{binary} server printed no listening line: {first[:200]!r}")
    client = bl.run([str(binary), "client", "--connect", "127.0.0.1", "--port", str(port), "--proto", proto,
                     "--cpu", cpus[1], "--size", str(size), "--duration", f"{seconds}s", "--warmup", "300ms"],
                    timeout=seconds + 30)
    _, status, ru = os.wait4(server.pid, 0)
    summary = server.stdout.read().decode().strip().splitlines()
    if os.waitstatus_to_exitcode(status) != 0 or not summary:
        bl.die(f"{binary} server exited {os.waitstatus_to_exitcode(status)}: {server.stderr.read().decode()[-300:]}")
    counters = json.loads(summary[-1])["counters"]
    doc = json.loads(client.stdout)
    return ru.ru_utime + ru.ru_stime, counters["total_datagrams"], counters["total_bytes"], doc.get("throughput_bps", 0)


def main():
    p = bl.common_args(__doc__)
    p.add_argument("--before-rev", default="main", help="the revision to compare with (default main)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--cpus", default="0,1", help="server CPU,client CPU (default 0,1)")
    a = p.parse_args()
    cpus = a.cpus.split(",")
    now = bl.built(a.build, "probes/stream", "probe_stream")
    with tempfile.TemporaryDirectory() as work:
        before = bl.compile_probe_revision("stream", a.before_rev, work)
        builds = [(f"before ({a.before_rev})", before), ("this build", now)]
        cases = [("udp", 64), ("tcp", 16384)]
        got = {(b, c): [] for b, _ in builds for c, _ in cases}
        for _ in range(a.rounds):
            for proto, size in cases:
                for name, binary in builds:
                    got[(name, proto)].append(one_run(binary, proto, size, a.seconds, cpus))
                    time.sleep(0.2)
    rows = []
    for proto, size in cases:
        for name, _ in builds:
            runs = got[(name, proto)]
            if proto == "udp":
                cost = [cpu * 1e9 / max(d, 1) for cpu, d, _, _ in runs]
                unit = "ns CPU / datagram"
            else:
                cost = [cpu * 1e9 / max(b / 2**20, 1) for cpu, _, b, _ in runs]
                unit = "ns CPU / MiB"
            mbit = [t / 1e6 for _, _, _, t in runs]
            rows.append([f"{proto} {size} B", name, f"{bl.median(cost):.0f} ({min(cost):.0f}-{max(cost):.0f}) {unit}",
                         f"{bl.median(mbit):.0f} ({min(mbit):.0f}-{max(mbit):.0f}) Mbit/s"])
    bl.print_table("Stream receiver: the gap capture's cost in its receive loop",
                   ["case", "server", "server CPU (median, range)", "arrived (median, range)"], rows,
                   "python3 " + " ".join(["bench/stream_gap_cost.py"] + sys.argv[1:]),
                   [f"{a.rounds} interleaved rounds of {a.seconds} s (+300 ms warm-up), loopback, server on CPU "
                    f"{cpus[0]}, unpaced client on CPU {cpus[1]}."])


if __name__ == "__main__":
    main()
