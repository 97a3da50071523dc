#!/usr/bin/python3
"""Figures: what the gate costs besides what it measures (issues 16, 23), from one run.
1. `labgate check` of two hosts with two rules against two `ssh host true` run at
   once (the lab's RSA keys), interleaved A B A B, the ratio pair by pair; its
   SSH sessions per host (sshd's log: commands and SFTP); on quiet hosts, on
   hosts whose login shell takes ~350 ms (`ci/lab up --slow-shell`), and both
   again behind 300 ms of management RTT (`ci/impair --link mgmt`), side by
   side, with --before, the same for earlier builds' labgate.
2. A whole gate over the lab profile on the slow-shell hosts, for each build:
   (process wall time minus the time the probes measure, warm-up included,
   minus an external tool's own start-up and wrap-up) / cases, from the run's
   own run.json, and the SSH sessions the whole run opened per host."""
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402

# Two rules per host: one sysctl, one interface fact (the facts probe reads both).
TWO_RULES = """[preconditions]

[preconditions.sysctl]
"net.ipv4.tcp_sack" = 0

[preconditions.interfaces.ic0]
mtu = 1500
"""
CHECK_TARGET = 1.3
QUIET_TARGET = 0.8  # issue 23: on hosts whose login shell starts at once
RTT_TARGET = 1.5  # issue 23: behind 300 ms of management round trip
CASE_TARGET_MS = 100


def timed(argv_or_argvs, timeout=120):
    """Wall seconds of one command, or of several started at once (all waited for);
    exits if any fails."""
    argvs = argv_or_argvs if isinstance(argv_or_argvs[0], list) else [argv_or_argvs]
    t0 = time.monotonic()
    procs = [subprocess.Popen(a, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for a in argvs]
    for a, p in zip(argvs, procs):
        try:
            _, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            bl.die(f"`{' '.join(a)}` did not finish within {timeout} s")
        if p.returncode != 0:
            bl.die(f"`{' '.join(a)}` exited {p.returncode}: {err.decode(errors='replace')[-800:]}")
    return time.monotonic() - t0


def check_vs_ssh(labgate, profile, pair, runs, warmup):
    check = [str(labgate), "check", str(profile)]
    ssh = [pair.ssh("a", "true"), pair.ssh("b", "true")]
    for _ in range(warmup):
        timed(check)
        timed(ssh)
    a, b = [], []
    for _ in range(runs):  # A B A B: a drift of the machine's speed hits both alike
        a.append(timed(check))
        b.append(timed(ssh))
    ratios = [x / y for x, y in zip(a, b)]
    return a, b, ratios


def set_slow_shell(pair, slow):
    argv = [str(bl.REPO / "ci" / "lab"), "up", "--pair", str(pair.n)] + (["--slow-shell"] if slow else [])
    bl.run(argv, timeout=120)


def set_mgmt_rtt(pair, build, rtt_ms):
    """rtt_ms of round trip on both hosts' management links (half each way,
    ci/impair --link mgmt's wire), or the direct links back with 0."""
    impair = [str(bl.REPO / "ci" / "impair"), "--link", "mgmt", "--pair", str(pair.n)]
    if rtt_ms:
        wire = bl.built(build, "bin/labgate-wire", "labgate-wire")
        bl.run(impair[:1] + ["--wire", str(wire)] + impair[1:] + ["delay", f"{rtt_ms / 2:g}ms"], timeout=60)
    else:
        bl.run(impair + ["clear"], timeout=60)


def lab_conditions(pair, build, conditions):
    """Yields each (login shell slow?, management RTT in ms) with the lab set so,
    and leaves the pair quiet and direct whatever happens."""
    try:
        for slow, rtt in conditions:
            set_slow_shell(pair, slow)
            set_mgmt_rtt(pair, build, rtt)
            yield slow, rtt
    finally:
        set_mgmt_rtt(pair, build, 0)
        set_slow_shell(pair, False)


def describe(slow, rtt):
    shell = "login shell ~350 ms" if slow else "quiet login shell"
    return shell + (f", {rtt} ms management RTT" if rtt else "")


def target_of(slow, rtt):
    return RTT_TARGET if rtt else CHECK_TARGET if slow else QUIET_TARGET


def login_shell_cost(builds, profile, pair, runs, warmup, build_dir, rtt_ms):
    """Sessions per host and check / ssh for each build, quiet and slow-shell
    hosts, then both again behind rtt_ms of management RTT."""
    rows = []
    conditions = [(False, 0), (True, 0)] + ([(False, rtt_ms), (True, rtt_ms)] if rtt_ms else [])
    for slow, rtt in lab_conditions(pair, build_dir, conditions):
        target = target_of(slow, rtt)
        for name, labgate in builds:
            counter = bl.LogCounter([pair.sshd_log("a"), pair.sshd_log("b")])
            bl.run([str(labgate), "check", str(profile)], timeout=120)
            time.sleep(0.3)  # sshd's last log lines
            per_host = counter.sessions_by_log()
            a_s, b_s, ratios = check_vs_ssh(labgate, profile, pair, runs, warmup)
            ratio = bl.median(ratios)
            sessions = ", ".join(f"{h}: {c} command + {s} SFTP" for h, (c, s) in zip("ab", per_host))
            rows.append([describe(slow, rtt), name, sessions, f"{bl.median(a_s) * 1000:.0f} ms",
                         f"{bl.median(b_s) * 1000:.0f} ms", f"**{ratio:.2f}**",
                         f"<= {target}: " + ("met" if ratio <= target else "not met")])
    return rows


def lab_profile_with_tests(pair):
    """profiles/lab.toml moved to the pair, tests and all."""
    text = (bl.REPO / "profiles" / "lab.toml").read_text()
    swaps = [('"198.18.0.2"', f'"{pair.mgmt["a"]}"'), ('"198.18.0.6"', f'"{pair.mgmt["b"]}"'),
             ('"198.19.1.1"', f'"{pair.ic["a"]}"'), ('"198.19.1.2"', f'"{pair.ic["b"]}"'),
             ('"../.lab/pair1/', f'"{pair.state}/'), ('"lab-pair1"', f'"lab-pair{pair.n}"')]
    for old, new in swaps:
        if old not in text:
            bl.die(f"profiles/lab.toml no longer contains {old}; update bench/one_connection.py")
        text = text.replace(old, new)
    return text


def figures_of(run):
    """Wall, measured time, cases and the wall the cases cover, from a run.json."""
    start = bl.parse_iso(run["start"])
    end = bl.parse_iso(run["end"])
    wall = end - start
    # Cases that ran at the same time (a jitter test measures every CPU at once)
    # share their wall time: such a group counts its longest measurement once,
    # and the wall its cases cover once.
    cases = len(run["tests"])
    # A tool's run window is warm-up + measured + cool-down (sockperf leaves out
    # its last 50 ms); its own start-up and wrap-up around it (sockperf's fixed
    # 2-s pause, its statistics) are timed by labgate from the tool's lines and
    # counted apart: neither measuring nor the gate's.
    spans = []
    for t in run["tests"]:
        m = t.get("measurement") or {}
        measured_s = sum(float(m.get(k, 0.0)) for k in ("duration_s", "warmup_s", "cooldown_s"))
        tt = m.get("tool_time") or {}
        tool_s = float(tt.get("startup_s", 0.0)) + float(tt.get("wrapup_s", 0.0))
        begin = bl.parse_iso(t["started"]) if t.get("started") else None
        spans.append((begin, t.get("duration_s", 0.0), measured_s, tool_s))
    measured = case_wall = tool_own = 0.0
    group_end = group_begin = None
    group_measured = group_tool = 0.0
    for begin, dur, meas, tool_s in sorted(spans, key=lambda x: x[0] or 0):
        if begin is None:  # never ran
            continue
        if group_end is not None and begin < group_end:  # overlaps the group
            group_end = max(group_end, begin + dur)
            group_measured = max(group_measured, meas)
            group_tool = max(group_tool, tool_s)
            continue
        if group_end is not None:
            measured += group_measured
            tool_own += group_tool
            case_wall += group_end - group_begin
        group_begin, group_end, group_measured, group_tool = begin, begin + dur, meas, tool_s
    if group_end is not None:
        measured += group_measured
        tool_own += group_tool
        case_wall += group_end - group_begin
    return {"wall": wall, "measured": measured, "tool_own": tool_own, "cases": cases, "case_wall": case_wall,
            "checks": len(run.get("checks", []))}


def gate_overhead(labgate, profile, results, label, pair):
    counter = bl.LogCounter([pair.sshd_log("a"), pair.sshd_log("b")])
    t0 = time.monotonic()
    r = bl.run([str(labgate), "run", str(profile), "--results", str(results), *label], timeout=1800,
               check=False)
    wall_process = time.monotonic() - t0
    if r.returncode not in (0, 1):  # 1: a budget failed on this loaded machine; still a whole run
        bl.die(f"{labgate} run exited {r.returncode}:\n{r.stdout[-1500:]}{r.stderr[-1500:]}")
    time.sleep(0.3)  # sshd's last log lines
    runs = sorted(Path(results).glob("*/run.json"))
    if not runs:
        bl.die(f"no run.json under {results}")
    run = json.loads(runs[-1].read_text())
    fig = figures_of(run)
    fig.update({"wall_process": wall_process, "exit": r.returncode, "sessions": counter.sessions_by_log()})
    return fig


def gate_rows(gates):
    """The per-case overhead table, one column per build."""
    def per_case(g, seconds):
        return seconds / g["cases"] * 1000 if g["cases"] else float("nan")

    def verdict(ms):
        return "met" if ms <= CASE_TARGET_MS else f"not met, {ms / CASE_TARGET_MS - 1:+.0%} over"

    figs = []
    for _, g in gates:
        over = g["wall"] - g["measured"] - g["tool_own"]
        whole = g["wall_process"] - g["measured"] - g["tool_own"]
        set_up = g["case_wall"] - g["measured"] - g["tool_own"]
        figs.append({"over": per_case(g, over), "whole": per_case(g, whole), "set_up": per_case(g, set_up),
                     "with_tools": per_case(g, over + g["tool_own"])})
    col = lambda f: [f(g, x) for (_, g), x in zip(gates, figs)]  # noqa: E731
    return [
        ["exit code", *col(lambda g, x: f"{g['exit']}")],
        ["SSH sessions per host over the whole run (sshd's log)",
         *col(lambda g, x: ", ".join(f"{h}: {c} command + {s} SFTP" for h, (c, s) in zip("ab", g["sessions"])))],
        ["the labgate process, start to exit", *col(lambda g, x: f"{g['wall_process']:.1f} s")],
        ["run wall time (run.json start to end)", *col(lambda g, x: f"{g['wall']:.1f} s")],
        ["time the probes measure, warm-up included (measurement duration_s + warmup_s + cooldown_s; "
         "cases run at once counted once)", *col(lambda g, x: f"{g['measured']:.1f} s")],
        ["external tools' own start-up and wrap-up outside their run (measurement tool_time)",
         *col(lambda g, x: f"{g['tool_own']:.1f} s")],
        ["cases (tests records in run.json)", *col(lambda g, x: f"{g['cases']}")],
        ["**overhead per case = (process wall - measured - tools' own) / cases**",
         *col(lambda g, x: f"**{x['whole']:.0f} ms**")],
        ["  the same from run.json's start to end (without process start, profile load, exit)",
         *col(lambda g, x: f"{x['over']:.0f} ms")],
        ["  of which inside the cases (wall the cases cover - measured - tools' own) / cases",
         *col(lambda g, x: f"{x['set_up']:.0f} ms")],
        ["  counting the tools' own start-up and wrap-up as overhead (run.json)",
         *col(lambda g, x: f"{x['with_tools']:.0f} ms")],
        [f"target <= {CASE_TARGET_MS} ms per case", *col(lambda g, x: verdict(x["whole"]))],
    ]


def builds_of(labgate, before):
    """("this build", labgate) and each --before NAME=PATH (or PATH: "build before")."""
    builds = [("this build", labgate)]
    for b in before or []:
        name, _, path = b.rpartition("=")
        builds.append((name or "build before", bl.need_file(path, "pass an earlier build's bin/labgate")))
    return builds


def main():
    p = bl.common_args(__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5, help="counted pairs of check vs ssh (default 5)")
    p.add_argument("--warmup", type=int, default=1, help="uncounted pairs first (default 1)")
    p.add_argument("--label", default="", help="only tests with this CTest label (-L), e.g. latency; "
                                               "default: the whole lab profile")
    p.add_argument("--skip-gate", action="store_true", help="only the check vs ssh figures")
    p.add_argument("--before", action="append", metavar="[NAME=]LABGATE",
                   help="an earlier build's labgate binary, measured beside this one in the login-shell and "
                        "gate tables (repeatable)")
    p.add_argument("--skip-shell", action="store_true", help="leave out the login-shell table")
    p.add_argument("--rtt-ms", type=float, default=300,
                   help="management round trip added for the login-shell table's last rows (default 300; "
                        "0: leave them out)")
    a = p.parse_args()
    pair = bl.LabPair(a.pair)
    pair.require_up()
    labgate = bl.labgate_with_facts(a.build)
    builds = builds_of(labgate, a.before)
    with tempfile.TemporaryDirectory(prefix="labgate-bench-") as tmp:
        check_profile = pair.write_profile(Path(tmp) / f"pair{pair.n}-two-rules.toml", TWO_RULES)
        counter = bl.LogCounter([pair.sshd_log("a"), pair.sshd_log("b")])
        bl.run([str(labgate), "check", str(check_profile)], timeout=120)
        time.sleep(0.3)  # sshd's last log lines
        conns, sessions = counter.counts()
        a_s, b_s, ratios = check_vs_ssh(labgate, check_profile, pair, a.runs, a.warmup)
        shell_rows = None
        if not a.skip_shell:
            shell_rows = login_shell_cost(builds, check_profile, pair, a.runs, a.warmup, a.build,
                                          int(a.rtt_ms))
        gates = []
        if not a.skip_gate:
            full = Path(tmp) / f"pair{pair.n}-lab.toml"
            full.write_text(lab_profile_with_tests(pair))
            label = ["-L", a.label] if a.label else []
            for _ in lab_conditions(pair, a.build, [(True, 0)]):
                for i, (name, lg) in enumerate(builds):
                    gates.append((name, gate_overhead(lg, full, Path(tmp) / f"results-{i}", label, pair)))

    ratio = bl.median(ratios)
    verdict = "met" if ratio <= QUIET_TARGET else f"not met, {ratio / QUIET_TARGET - 1:+.0%} over"
    rows = [
        ["`labgate check`, 2 hosts x 2 rules", f"{bl.median(a_s) * 1000:.0f} ms",
         f"{min(a_s) * 1000:.0f}-{max(a_s) * 1000:.0f} ms", f"{conns} / {sessions}"],
        ["2 x `ssh root@host true` at once (RSA key)", f"{bl.median(b_s) * 1000:.0f} ms",
         f"{min(b_s) * 1000:.0f}-{max(b_s) * 1000:.0f} ms", "2 / 2"],
        [f"**ratio check / ssh (median of {a.runs} pairs)**", f"**{ratio:.2f}**",
         f"{min(ratios):.2f}-{max(ratios):.2f}", f"target <= {QUIET_TARGET}: {verdict}"],
    ]
    bl.print_table(f"labgate check vs two parallel ssh, lab pair {pair.n}",
                   ["what", "wall (median)", "range", "SSH connections / sessions"], rows,
                   bl.this_command(),
                   notes=[f"Interleaved A B A B after {a.warmup} uncounted pair(s); each a whole process "
                          "from start to exit; the ratio is taken pair by pair. Connections and sessions of "
                          "one `labgate check` counted in the lab sshds' logs (LogLevel VERBOSE)."])
    if shell_rows:
        bl.print_table(f"What a login shell and a far network cost a check, lab pair {pair.n}",
                       ["hosts", "labgate", "SSH sessions of one check (sshd's log)", "check (median)",
                        "2 x ssh true (median)", "check / ssh", "target"], shell_rows, bl.this_command(),
                       notes=["Each row from the same run: `ci/lab up --slow-shell` gives root a ~/.bashrc "
                              "that sleeps 350 ms (as one running `pyenv init` does); every session sshd "
                              "starts pays it once, `ssh host true` included. The RTT rows add the round "
                              "trip on both hosts' management links (`ci/impair --link mgmt`: half of it each "
                              "way, a wire in userspace, as netem would), which SSH and `ssh host true` "
                              "alike cross. Interleaved A B A B as above. Sessions counted in the lab sshds' "
                              "logs (`Starting session: command` and `subsystem`) for one `labgate check`."])
    if gates:
        bl.print_table(f"Gate overhead per case on hosts whose login shell takes ~350 ms, lab profile on "
                       f"pair {pair.n}", ["figure", *(name for name, _ in gates)], gate_rows(gates),
                       bl.this_command(),
                       notes=[f"One `labgate run` of profiles/lab.toml moved to the pair per build, one after "
                              f"the other, on `ci/lab up --slow-shell` hosts ({gates[0][1]['checks']} "
                              "precondition checks). Every figure but the process's wall from that run's "
                              "run.json: start and end, each test's duration_s and its measurement's "
                              "duration_s, warmup_s, cooldown_s and tool_time; tests that ran at once (the "
                              "jitter CPUs) count their longest measurement once. An external tool's own "
                              "start-up and wrap-up (sockperf sleeps a fixed 2 s before every run, then "
                              "computes its statistics) is timed by labgate from the tool's own output lines "
                              "and is not the gate's: it is left out of the overhead, and shown counted in "
                              "below it. Sessions: every channel sshd started for the whole run (the one "
                              "shell per host, SFTP, and the probes and tools that take their own channel)."])


if __name__ == "__main__":
    main()
