#!/usr/bin/python3
"""Figure: wall time and SSH round trips to check 100 precondition rules on both
hosts of a lab pair, labgate (one facts-probe run per host, judged locally) vs
one SSH command per rule (what Testinfra and InSpec do), side by side in one run.

SSH round trips are counted from the lab sshds' own logs (LogLevel VERBOSE): an
authenticated connection logs 'Accepted publickey', every exec or sftp channel
'Starting session'. Each such session costs at least one request/reply exchange
(channel open, exec, exit status) on top of the connection's handshake."""
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402
import rules100  # noqa: E402


def per_rule(pair, rules, extra=None):
    """Both hosts in parallel (in the baseline's favour), one ssh per rule each;
    every answer is judged, so the baseline really checks what labgate checks."""
    failures = []

    def host_loop(host):
        for r in rules:
            out = bl.run(pair.ssh(host, r.command, (extra or {}).get(host, ())), timeout=30, check=False)
            if out.returncode != 0 or not r.holds(out.stdout):
                failures.append(f"{host}: `{r.command}` printed {out.stdout.strip()!r} {out.stderr.strip()!r}")

    threads = [threading.Thread(target=host_loop, args=(h,)) for h in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        bl.die(f"{len(failures)} rule(s) fail in the per-rule baseline, e.g. {failures[0]}")


def multiplexed(pair, rules, sock_dir):
    """One master connection per host kept open (OpenSSH ControlMaster; Testinfra's
    paramiko backend and InSpec's train-ssh keep one connection likewise); still
    one exec channel, one round trip, per rule."""
    opts = {h: ("-o", f"ControlPath={sock_dir}/{h}.sock", "-o", "ControlMaster=no") for h in ("a", "b")}
    try:
        for h in ("a", "b"):
            # -f: the master goes to the background once logged in; its output must
            # not hold our pipes, or run() would wait for it to exit.
            master = pair.ssh(h, "", opts[h][:2] + ("-o", "ControlMaster=yes", "-o", "ControlPersist=60",
                                                     "-f", "-N"))
            r = subprocess.run(master, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=20)
            if r.returncode != 0:
                bl.die(f"`{' '.join(master)}` exited {r.returncode}")
        per_rule(pair, rules, opts)
    finally:
        for h in ("a", "b"):
            bl.run(pair.ssh(h, "", opts[h][:2] + ("-O", "exit")), timeout=10, check=False)


def labgate_check(labgate, profile):
    """Returns (rule checks passed, ms of the slower host's facts probe run)."""
    out = bl.run([str(labgate), "-v", "check", str(profile)], timeout=120, check=False)
    if out.returncode != 0:
        bl.die(f"labgate check {profile} exited {out.returncode}:\n{out.stdout[-2000:]}{out.stderr[-1000:]}")
    m = bl.search_or_die(r"(\d+) passed, (\d+) failed, (\d+) not checkable", out.stdout, "the tally")
    facts = [int(x) for x in re.findall(r"host \w+: facts gathered in (\d+) ms", out.stderr)]
    return int(m.group(1)), max(facts, default=0)


def measure(pair, fn):
    counter = bl.LogCounter([pair.sshd_log("a"), pair.sshd_log("b")])
    t0 = time.monotonic()
    result = fn()
    wall = time.monotonic() - t0
    time.sleep(0.3)  # sshd's last log lines of the run
    conns, sessions = counter.counts()
    return wall, conns, sessions, result


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3, help="runs of each method; the median is shown")
    p.add_argument("--rules", type=int, default=100, help="rules per host (default 100)")
    a = p.parse_args()
    pair = bl.LabPair(a.pair)
    pair.require_up()
    labgate = bl.labgate_with_facts(a.build)

    rules, toml = rules100.build(pair, a.rules)
    with tempfile.TemporaryDirectory(prefix="labgate-bench-") as tmp:
        profile = pair.write_profile(Path(tmp) / f"pair{pair.n}-{len(rules)}-rules.toml", toml)
        methods = [("labgate check (1 facts probe run per host)", lambda: labgate_check(labgate, profile)),
                   ("1 ssh per rule (new connection each)", lambda: per_rule(pair, rules)),
                   ("1 ssh exec per rule on a kept connection", lambda: multiplexed(pair, rules, tmp))]
        results = {name: [] for name, _ in methods}
        for _ in range(a.repeat):  # interleaved, so load changes hit every method alike
            for name, fn in methods:
                results[name].append(measure(pair, fn))

    lg = results[methods[0][0]]
    passed = lg[0][3][0]
    if passed < 2 * len(rules):
        bl.die(f"labgate passed only {passed} of {2 * len(rules)} rule checks; the profile is off")
    base = bl.median([r[0] for r in results[methods[0][0]]])
    rows = []
    for name, _ in methods:
        runs = results[name]
        wall = bl.median([r[0] for r in runs])
        rows.append([name, f"{wall * 1000:.0f} ms", f"{min(r[0] for r in runs) * 1000:.0f} ms",
                     runs[-1][1], runs[-1][2], f"{wall / base:.1f}x"])
        if runs is lg:
            facts = [r[3][1] for r in lg]
            rows.append(["  of which the facts probe run (hosts in parallel)", f"{bl.median(facts):.0f} ms",
                         f"{min(facts)} ms", "", 2, ""])
    bl.print_table(f"Preconditions: {len(rules)} rules on 2 hosts ({2 * len(rules)} checks), lab pair {pair.n}",
                   ["method", "wall (median)", "wall (best)", "SSH connections", "SSH sessions (exec/sftp)",
                    "vs labgate"], rows, bl.this_command(),
                   notes=[f"Median of {a.repeat} interleaved runs. Hosts are checked in parallel by every "
                          "method. SSH connections and sessions are counted from the lab sshds' logs "
                          "(LogLevel VERBOSE: 'Accepted publickey', 'Starting session'). labgate's sessions "
                          "include the lease, the run directory, the probe upload (sftp), the facts run "
                          "and the clean-up; only the facts run depends on the rules."])


if __name__ == "__main__":
    main()
