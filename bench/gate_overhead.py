#!/usr/bin/python3
"""Figure: gate overhead per run on a lab pair: what a gate session costs besides
the measurement itself (lease, SSH connections, run directories, probe upload,
clean-up and lease release), from the step timings labgate logs at debug level
("timing: ..." lines of harness/src/gate/session.cc) over repeated
`labgate -v check` runs of the lab profile's own preconditions."""
import re
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402

# (row, regex on the debug log). Every step runs on both hosts at once, over
# one SSH connection per host, so each is one wall time.
STEPS = [
    ("SSH connect (one connection per host, both at once)", r"timing: hosts connected in (\d+) ms"),
    ("lease taken (one exec per host, over those connections)", r"timing: lease taken in (\d+) ms"),
    ("leftover sweep + private run dir (both hosts at once)", r"timing: run directories made in (\d+) ms"),
    ("facts probe upload + verify (both hosts at once)", r"timing: probe facts ready on \d+ host\(s\) in (\d+) ms"),
    ("clean-up + lease release (one exec per host, both at once)",
     r"timing: hosts cleaned up and released in (\d+) ms"),
    ("lease released (what the clean-up could not release) + heartbeat stopped",
     r"timing: lease released in (\d+) ms"),
    ("disconnect", r"timing: hosts disconnected in (\d+) ms"),
]
FACTS_RUN = r"host \w+: facts gathered in (\d+) ms"


def one_run(labgate, profile, pair):
    counter = bl.LogCounter([pair.sshd_log("a"), pair.sshd_log("b")])
    t0 = time.monotonic()
    r = bl.run([str(labgate), "-v", "check", str(profile)], timeout=120, check=False)
    wall = (time.monotonic() - t0) * 1000
    if r.returncode != 0:
        bl.die(f"labgate check {profile} exited {r.returncode}:\n{r.stdout[-1500:]}{r.stderr[-1500:]}")
    steps = {}
    for name, rx in STEPS:
        found = [int(x) for x in re.findall(rx, r.stderr)]
        if not found:
            bl.die(f"no '{rx}' line in labgate's debug log: is {labgate} built from this checkout?")
        steps[name] = sum(found)
    facts = [int(x) for x in re.findall(FACTS_RUN, r.stderr)]
    time.sleep(0.3)  # sshd's last log lines of the run
    conns, sessions = counter.counts()
    return wall, steps, max(facts) if facts else 0, conns, sessions


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=10, help="runs (default 10)")
    a = p.parse_args()
    pair = bl.LabPair(a.pair)
    pair.require_up()
    labgate = bl.labgate_with_facts(a.build)
    with tempfile.TemporaryDirectory(prefix="labgate-bench-") as tmp:
        profile = pair.write_profile(Path(tmp) / f"pair{pair.n}.toml")
        runs = [one_run(labgate, profile, pair) for _ in range(a.repeat)]

    rows = []
    for name, _ in STEPS:
        xs = [r[1][name] for r in runs]
        rows.append([name, f"{bl.median(xs):.0f} ms", f"{max(xs)} ms"])
    overhead = [sum(r[1].values()) for r in runs]
    rows.append(["**gate overhead (sum of the above)**", f"**{bl.median(overhead):.0f} ms**",
                 f"{max(overhead)} ms"])
    facts = [r[2] for r in runs]
    rows.append(["(the work: facts probe run, hosts in parallel)", f"{bl.median(facts):.0f} ms", f"{max(facts)} ms"])
    walls = [r[0] for r in runs]
    rows.append(["whole `labgate check` process, wall", f"{bl.median(walls):.0f} ms", f"{max(walls):.0f} ms"])
    rows.append(["SSH connections / sessions per run", f"{runs[-1][3]} / {runs[-1][4]}", ""])
    bl.print_table(f"Gate overhead per run, lab pair {pair.n} (2 hosts)", ["step", "median", "max"], rows,
                   bl.this_command(),
                   notes=[f"{a.repeat} runs of `labgate -v check` on the lab profile's preconditions; step "
                          "times from labgate's 'timing:' debug lines, per-host steps summed over both "
                          "hosts. Connections and sessions counted in the lab sshds' logs (LogLevel "
                          "VERBOSE). Every gate suite process (preconditions, latency, ...) pays this once."])


if __name__ == "__main__":
    main()
