#!/usr/bin/env python3
"""Checks the results of udp_multicast tests run by sockperf 3.7, sockperf 3.10
and sfnt-pingpong (issue 24; tests/mesh/multicast_lab.sh tools): one record
m1/m2 per test, kind udp_multicast, measured (pass or a budget's fail, never an
error), its figures the tool's own round trips (source named, metric round
trip, p50 <= p99 <= max, above 0), the group it went through said.

  check_multicast_tools.py RUN_DIR

Exit 0 when all holds, 1 with every broken promise listed."""
import json
import sys

WANT = {  # test name -> the measurement's source, and a parameter that names the version run
    "sockperf37_feed": ("sockperf", ("sockperf.version", "3.7")),
    "sockperf310_feed": ("sockperf", ("sockperf.version", "3.10")),
    "sfnt_feed": ("sfnt-pingpong", ("sfnt.cmdline", "--mcast 239.1.1.2")),
}


def figure(t, name):
    return next((f["value"] for f in t.get("figures", []) if f["stat"] == name), None)


def main():
    run_dir = sys.argv[1]
    run = json.load(open(f"{run_dir}/run.json"))
    errors = []
    for name, (source, (key, needle)) in WANT.items():
        recs = [t for t in run["tests"] if t["name"] == name]
        if [t["pair"] for t in recs] != ["m1/m2"]:
            errors.append(f"{name}: records {[t['pair'] for t in recs]}, expected ['m1/m2']")
            continue
        t = recs[0]
        m = t.get("measurement") or {}
        p = m.get("parameters", {})
        if t["kind"] != "udp_multicast" or t["verdict"] not in ("pass", "fail"):
            errors.append(f"{name}: kind {t['kind']}, verdict {t['verdict']} ({t.get('failure')})")
        if m.get("source") != source or m.get("metric") != "round_trip":
            errors.append(f"{name}: source {m.get('source')}, metric {m.get('metric')}: expected {source}, round_trip")
        if needle not in str(p.get(key, "")):
            errors.append(f"{name}: parameter {key} = {p.get(key)!r}, expected {needle!r} in it")
        if "239.1.1.2" not in str(p.get("multicast.group", "")):
            errors.append(f"{name}: multicast.group = {p.get('multicast.group')!r}")
        p50, p99, mx = figure(t, "p50"), figure(t, "p99"), figure(t, "max")
        if None in (p50, p99, mx) or not 0 < p50 <= p99 <= mx:
            errors.append(f"{name}: p50 {p50}, p99 {p99}, max {mx}: expected 0 < p50 <= p99 <= max")
        print(f"{name}: {source} p50 {p50} p99 {p99} max {mx} ns, verdict {t['verdict']}")
    for e in errors:
        print("check_multicast_tools:", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
