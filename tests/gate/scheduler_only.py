#!/usr/bin/env python3
"""gate.e2e.pass's verdict on a run of profiles/lab.toml: the gate must have run
and judged every case, and the lab must conform; a budget that only the host's
scheduler can break on a shared CI VM (a latency or throughput figure: timer
jitter, a max, a p99; a TCP run's samples short of its time, which only a stall
explains) may fail without failing this test, said on stdout. Any other failure
fails it: a precondition, an error or not-run case, lost UDP samples or drops,
a rule. The budgets themselves are proven by tests that inject their
cause (ctest -L faults, -L impair).

    scheduler_only.py RESULTS_FOLDER     exit 0 when only timing budgets failed
"""
import json
import sys

# Figures a descheduled process moves: times and rates. Counts (dropped, loss,
# failures) and sizes (MTU) are the system's, not the scheduler's.
TIMING = {"p50", "p90", "p99", "p99_9", "p99_99", "max", "mean", "stddev", "mdev", "min_throughput", "min_iops"}


def main():
    folder = sys.argv[1]
    with open(f"{folder}/run.json", encoding="utf-8") as f:
        run = json.load(f)
    problems, broken = [], []
    if run.get("error"):
        problems.append(f"the run's error: {run['error']}")
    if run.get("conforming") != "yes":
        problems.append(f"the lab does not conform ({run.get('conforming')}): {run.get('conforming_why')}")
    if not run["tests"]:
        problems.append("no test was recorded")
    for t in run["tests"]:
        name = f"{t['suite']}.{t['name']}/{t['pair']}"
        if t["verdict"] == "pass":
            continue
        if t["verdict"] != "fail":
            problems.append(f"{name}: {t['verdict']}: {t['failure']}")
            continue
        accounting = t.get("accounting") or {}
        if accounting.get("checked") and not accounting.get("pass"):
            # TCP loses nothing: a shortfall there is time the tool did not run
            # (descheduled), the scheduler's; over UDP it may be real loss.
            line = f"{name}: samples short: {accounting.get('message')}"
            (broken if t["kind"].startswith("tcp_") else problems).append(line)
        for b in t["budget"]:
            if b["pass"]:
                continue
            line = f"{name}: {b['stat']} {b['observed']} over {b['limit']} {b['unit']}"
            (broken if b["stat"] in TIMING and b["observed"] is not None else problems).append(line)
    for line in broken:
        print(f"note: a timing budget the loaded host broke (not this test's verdict): {line}")
    for line in problems:
        print(f"FAIL: {line}")
    if run.get("exit_code") not in (0, 1) or (run.get("exit_code") == 1 and not broken and not problems):
        problems.append(f"exit code {run.get('exit_code')} in run.json")
        print(f"FAIL: {problems[-1]}")
    print(f"{len(run['tests'])} cases judged; {len(broken)} timing budget(s) broken by the host, "
          f"{len(problems)} other failure(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
