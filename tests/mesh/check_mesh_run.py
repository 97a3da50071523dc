#!/usr/bin/env python3
"""Checks a mesh run's results folder (run.json, junit.xml, report.html) against
what a disjoint schedule promises: every ordered pair of the hosts once, rounds
of pairs that share no host, each round's pairs measured at the same time and
no host in two pairs at once (the recorded start and duration of each case),
and the JUnit/HTML saying which schedule ran.

  check_mesh_run.py RUN_DIR --hosts m1,...,m6 [--failing m3->m4,...] [--interrupted]

--failing: pairs that must be errors (the fault injected); every other pair must
be measured (pass or fail against its budget, with figures). --interrupted: the
run was stopped during a round; the pairs measured before it must be whole, the
round's own pairs interrupted, and none begun after it. Exit 0 when all holds,
1 with every broken promise listed."""
import argparse
import json
import sys
import xml.etree.ElementTree as ET
from datetime import datetime

# The recorded start has millisecond resolution: allow that much between rounds.
SLACK_S = 0.002


def when(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run_dir")
    ap.add_argument("--hosts", required=True)
    ap.add_argument("--failing", default="")
    ap.add_argument("--interrupted", action="store_true")
    a = ap.parse_args()
    hosts = a.hosts.split(",")
    failing = set(filter(None, a.failing.split(",")))
    errors = []
    run = json.load(open(f"{a.run_dir}/run.json"))
    tests = run["tests"]
    pairs = [t["pair"] for t in tests]
    expected = {f"{x}->{y}" for x in hosts for y in hosts if x != y}
    if sorted(pairs) != sorted(expected):
        errors.append(f"pairs recorded {sorted(pairs)} are not every ordered pair of {hosts} once")
    n = len(hosts)
    rounds_expected = 2 * (n - 1 if n % 2 == 0 else n)
    by_round = {}
    for t in tests:
        if t.get("mesh_schedule") != "disjoint":
            errors.append(f"{t['pair']}: mesh_schedule {t.get('mesh_schedule')!r}, expected 'disjoint'")
        by_round.setdefault(t.get("round", 0), []).append(t)
    if sorted(by_round) != list(range(1, rounds_expected + 1)):
        errors.append(f"rounds {sorted(by_round)}, expected 1..{rounds_expected}")
    for r, ts in by_round.items():
        busy = [h for t in ts for h in t["pair"].split("->")]
        if len(busy) != len(set(busy)):
            errors.append(f"round {r}: a host in two pairs: {[t['pair'] for t in ts]}")
        if len(ts) != n // 2:
            errors.append(f"round {r}: {len(ts)} pairs, expected {n // 2}")

    started = [t for t in tests if t.get("started") and t.get("duration_s", 0) > 0]
    span = {t["pair"]: (when(t["started"]), when(t["started"]) + t["duration_s"]) for t in started}
    # No host in two pairs at once: cases sharing a host never overlap in time.
    for i, x in enumerate(started):
        for y in started[i + 1:]:
            if not set(x["pair"].split("->")) & set(y["pair"].split("->")):
                continue
            (a0, a1), (b0, b1) = span[x["pair"]], span[y["pair"]]
            if a0 < b1 - SLACK_S and b0 < a1 - SLACK_S:
                errors.append(f"{x['pair']} (round {x.get('round')}) and {y['pair']} (round {y.get('round')}) "
                              f"share a host and overlapped in time")
    # A round's pairs were measured at the same time: their spans all overlap.
    for r, ts in by_round.items():
        spans = [span[t["pair"]] for t in ts if t["pair"] in span]
        if len(spans) > 1 and max(s[0] for s in spans) >= min(s[1] for s in spans):
            errors.append(f"round {r}: its pairs were not measured at the same time: {spans}")
    # Rounds in order: each round starts after the one before has ended.
    ends = {r: max(span[t["pair"]][1] for t in ts if t["pair"] in span)
            for r, ts in by_round.items() if any(t["pair"] in span for t in ts)}
    for r in sorted(ends):
        if r + 1 in ends:
            nxt = min(span[t["pair"]][0] for t in by_round[r + 1] if t["pair"] in span)
            if nxt < ends[r] - SLACK_S:
                errors.append(f"round {r + 1} started before round {r} had ended")

    stopped_round = None
    for t in sorted(tests, key=lambda t: t.get("round", 0)):
        p, v = t["pair"], t["verdict"]
        if a.interrupted and v in ("error", "not_run") and stopped_round is None:
            stopped_round = t.get("round")
        if p in failing:
            if v != "error":
                errors.append(f"{p}: verdict {v}, expected error (the injected fault)")
            elif not t.get("failure"):
                errors.append(f"{p}: an error without its reason")
            continue
        if a.interrupted and stopped_round is not None and t.get("round", 0) >= stopped_round:
            # Stopped while measuring (its round) or never begun (later rounds): not
            # run, saying so; a signal is never the hosts' error.
            want = ("not_run",)
            if v not in want:
                errors.append(f"{p} (round {t.get('round')}): verdict {v} after the interrupt in round "
                              f"{stopped_round}, expected {want[0]}")
            elif "interrupt" not in t.get("failure", ""):
                errors.append(f"{p}: {v} without saying it was interrupted: {t.get('failure')!r}")
            continue
        if v not in ("pass", "fail"):
            errors.append(f"{p}: verdict {v} ({t.get('failure', '')[:200]}): another pair's fault stopped it")
            continue
        samples = [f.get("value", 0) for f in t.get("figures", []) if f.get("stat") == "samples"]
        if not samples or not samples[0] > 0:
            errors.append(f"{p}: measured without samples")
    if a.interrupted and (stopped_round is None or stopped_round < 2):
        errors.append(f"the interrupt was to land in a round after the first; it stopped round {stopped_round}")

    # JUnit: each pair its own testcase with the schedule and its round.
    cases = {}
    for tc in ET.parse(f"{a.run_dir}/junit.xml").iter("testcase"):
        props = {p.get("name"): p.get("value") for p in tc.iter("property")}
        if "labgate.mesh_schedule" in props:
            cases[tc.get("name")] = props
    if len(cases) != len(expected):
        errors.append(f"junit.xml: {len(cases)} testcases carry labgate.mesh_schedule, expected {len(expected)}")
    by_name = {f"{t['name']}/{t['pair']}": t for t in tests}
    for name, props in cases.items():
        t = by_name.get(name)
        if props.get("labgate.mesh_schedule") != "disjoint" or (t and props.get("labgate.round") != str(t["round"])):
            errors.append(f"junit.xml {name}: {props.get('labgate.mesh_schedule')} round {props.get('labgate.round')}")
    html = open(f"{a.run_dir}/report.html").read()
    if "schedule disjoint" not in html or "shared the switch" not in html:
        errors.append("report.html does not say the mesh ran in disjoint rounds sharing the switch")

    for e in errors:
        print("check_mesh_run:", e, file=sys.stderr)
    print(f"check_mesh_run: {len(tests)} pairs in {len(by_round)} rounds, {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
