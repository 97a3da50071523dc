#!/usr/bin/env python3
"""Checks a udp_multicast run's results folder (run.json, junit.xml): one record
per subscriber and one for the worst, each with its loss, longest gap and round
trips, every subscriber listed in JUnit.

  check_multicast_run.py RUN_DIR --subscribers m2,...,m6 [--silent m3:rp_filter] [--gap m4]

--silent HOST:WORD: HOST received nothing and its record fails naming WORD; the
others still measure. --gap HOST: HOST's longest gap is at least 100 messages
and longer than every other subscriber's. Exit 0 when all holds, 1 with every
broken promise listed."""
import argparse
import json
import sys
import xml.etree.ElementTree as ET


def figure(t, name):
    for f in t.get("figures", []):
        if f["stat"] == name:
            return f["value"]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run_dir")
    ap.add_argument("--subscribers", required=True)
    ap.add_argument("--silent", default="")
    ap.add_argument("--gap", default="")
    a = ap.parse_args()
    subs = a.subscribers.split(",")
    silent_host, _, silent_word = a.silent.partition(":")
    errors = []
    run = json.load(open(f"{a.run_dir}/run.json"))
    feed = {t["pair"]: t for t in run["tests"] if t["kind"] == "udp_multicast"}
    want = [f"m1/{s}" for s in subs] + ["m1/worst"]
    if sorted(feed) != sorted(want):
        errors.append(f"records {sorted(feed)}, expected {sorted(want)}")
    for s in subs:
        t = feed.get(f"m1/{s}")
        if not t:
            continue
        if s == silent_host:
            if t["verdict"] != "fail" or silent_word not in t["failure"]:
                errors.append(f"{s}: verdict {t['verdict']}, failure {t['failure']!r}: expected a failure naming {silent_word}")
            if figure(t, "received") != 0 or figure(t, "loss") != 1:
                errors.append(f"{s}: received {figure(t, 'received')}, loss {figure(t, 'loss')}: expected 0 and all lost")
            continue
        for name in ("p50", "p99", "max", "loss", "longest_gap", "dropped", "received"):
            if figure(t, name) is None:
                errors.append(f"{s}: no figure {name}")
        if (figure(t, "received") or 0) <= 0:
            errors.append(f"{s}: received nothing")
        if t["verdict"] not in ("pass", "fail"):
            errors.append(f"{s}: verdict {t['verdict']} ({t['failure']})")
    if a.gap:
        gaps = {s: figure(feed.get(f"m1/{s}", {}), "longest_gap") or 0 for s in subs}
        print("longest gaps:", gaps)
        if gaps[a.gap] < 100:
            errors.append(f"{a.gap}: longest gap {gaps[a.gap]}, expected the dropped burst (>= 100)")
        for s, g in gaps.items():
            if s != a.gap and g >= gaps[a.gap]:
                errors.append(f"{s}: longest gap {g}, not shorter than {a.gap}'s {gaps[a.gap]}")
    worst = feed.get("m1/worst")
    if worst and figure(worst, "longest_gap") is None:
        errors.append("the worst subscriber's record has no longest_gap")
    names = {c.get("name") for c in ET.parse(f"{a.run_dir}/junit.xml").iter("testcase")}
    for p in want:
        if not any(p in (n or "") for n in names):
            errors.append(f"JUnit lists no case for {p} (cases: {sorted(n for n in names if n)})")
    for e in errors:
        print("check_multicast_run:", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
