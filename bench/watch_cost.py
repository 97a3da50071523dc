#!/usr/bin/env python3
"""The noise watch's own cost (issue 25: <= 1 % of one core per host at its
default 10 ms rate, memory fixed whatever the duration): this build's
probes/watch and an earlier revision's (compiled here from `git archive REV`,
the same musl command as probes/CMakeLists.txt) run side by side, at the same
time, for each duration; each row is one child's CPU time (utime + stime from
wait4) over its wall time, as % of one core, and its max RSS."""
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402

def run_side_by_side(builds, cpus, seconds, keep):
    """Starts every build's watch at once for `seconds`; returns one row per build."""
    procs = []
    for name, binary in builds:
        argv = [str(binary), "--cpus", cpus, "--duration", f"{seconds}s"] + (["--keep", str(keep)] if keep else [])
        out = tempfile.TemporaryFile()
        procs.append((name, argv, out, time.monotonic(), subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)))
    rows = []
    for name, argv, out, t0, p in procs:
        try:
            _, status, ru = os.wait4(p.pid, 0)
        except ChildProcessError:
            bl.die(f"`{shlex.join(argv)}`: lost its child")
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err = p.stderr.read().decode(errors="replace")
        out.seek(0)
        doc = out.read().decode(errors="replace")
        if p.returncode != 0 or '"status":"ok"' not in doc:
            bl.die(f"`{shlex.join(argv)}` exited {p.returncode}: {err.strip()[-400:] or doc[:300]}")
        try:
            parsed = json.loads(doc)
        except ValueError as e:
            bl.die(f"`{shlex.join(argv)}` printed no JSON document: {e}")
        cpu = ru.ru_utime + ru.ru_stime
        # The watch's own VmHWM: wait4's ru_maxrss would include this Python's
        # pages from before the exec.
        rows.append([name, f"{seconds} s", str(len(parsed["windows"])), f"{ru.ru_utime:.3f} + {ru.ru_stime:.3f} s",
                     f"{100 * cpu / wall:.2f} %", f"{parsed['memory']['max_rss_kb']} KiB"])
    return rows


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    p.add_argument("--before-rev", default="main",
                   help="git revision whose probes/watch is the 'before' row (default main; '' for none)")
    p.add_argument("--cpus", default="0,1", help="--cpus of every watch (default 0,1)")
    p.add_argument("--durations", default="10,60", help="comma-separated seconds (default 10,60)")
    p.add_argument("--keep", type=int, default=0,
                   help="--keep of every watch (default: the watch's own, 6000 windows)")
    a = p.parse_args()
    builds = [("this build", bl.built(a.build, "probes/watch", "probe_watch"))]
    with tempfile.TemporaryDirectory(prefix="lg-watch-cost.") as work:
        if a.before_rev:
            builds.append((f"{a.before_rev} (before)", bl.compile_probe_revision("watch", a.before_rev, work)))
        rows = []
        for seconds in [int(s) for s in a.durations.split(",")]:
            rows += run_side_by_side(builds, a.cpus, seconds, a.keep)
    tasks = sum(1 for d in Path("/proc").iterdir() if d.name.isdigit())
    print(f"#### The noise watch's cost at its default rate (10 ms), --cpus {a.cpus}, {os.cpu_count()} CPUs, "
          f"{tasks} processes, load average {os.getloadavg()[0]:.1f}\n")
    print("| build | duration | windows | user + system CPU | of one core | max RSS |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print(f"\n`{shlex.join(['python3', 'bench/watch_cost.py', *sys.argv[1:]])}`")


if __name__ == "__main__":
    main()
