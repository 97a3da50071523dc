#!/usr/bin/python3
"""Proves from a pool run's results that CTest spread the gate over the pairs:
each test ran exactly once, on one pair, measured that pair's interconnect, never
overlapped another test on the same pair, and tests on different pairs overlapped.

usage: check_pool_run.py RESULTS_DIR PAIR=NET [PAIR=NET...] -- TEST [TEST...]
  PAIR=NET   a pool pair and its interconnect prefix, e.g. pair6=198.19.6.
  TEST       every measurement test the pool was asked to run
Reads each pair's results folder (<time>-pool-<pair>): run.json, pool.jsonl (one
line per suite process: pair, program, test, start_ms, end_ms) and the raw
command.txt of each test. Exits 1 naming the first broken property."""
import glob
import json
import os
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main(argv):
    if "--" not in argv or len(argv) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sep = argv.index("--")
    results, pair_args, tests = argv[1], argv[2:sep], argv[sep + 1:]
    nets = dict(a.split("=", 1) for a in pair_args)
    entries, ran_on = [], {}
    for pair, net in nets.items():
        folders = glob.glob(os.path.join(results, "*-pool-" + pair))
        if len(folders) != 1:
            fail("%s: expected one results folder *-pool-%s in %s, found %d" % (pair, pair, results, len(folders)))
        run_dir = folders[0]
        run = json.load(open(os.path.join(run_dir, "run.json")))
        addresses = [h["test_address"] for h in run["hosts"]]
        if not all(a.startswith(net) for a in addresses):
            fail("%s: run.json hosts %s are not on %s" % (pair, addresses, net))
        if not run["checks"]:
            fail("%s: no precondition was checked on this pair" % pair)
        ledger = os.path.join(run_dir, "pool.jsonl")
        if not os.path.exists(ledger):
            fail("%s: no pool.jsonl: no suite process recorded running here" % pair)
        for line in open(ledger):
            e = json.loads(line)
            if e["pair"] != pair:
                fail("%s: ledger line for pair %s in this pair's folder" % (pair, e["pair"]))
            entries.append(e)
            if e["program"] != "labgate-latency":
                continue
            test = e["test"]
            if test in ran_on:
                fail("%s ran twice: on %s and on %s" % (test, ran_on[test], pair))
            ran_on[test] = pair
            records = [t for t in run["tests"] if t["name"] == test or t["name"].startswith(test + "/")]
            if not records:
                fail("%s: ran on %s but %s/run.json has no record of it" % (test, pair, run_dir))
            for r in records:
                if r["verdict"] == "error":
                    fail("%s on %s could not run: %s" % (test, pair, r["failure"]))
            for cmd in glob.glob(os.path.join(run_dir, "tests", test, "*", "command.txt")):
                text = open(cmd).read()
                others = [n for p, n in nets.items() if p != pair and n in text]
                if net not in text or others:
                    fail("%s: %s does not measure %s's interconnect %s only" % (test, cmd, pair, net))
    missing = [t for t in tests if t not in ran_on]
    if missing:
        fail("never ran: " + ", ".join(missing))

    # The timeline, and the two scheduling properties.
    entries.sort(key=lambda e: e["start_ms"])
    t0 = entries[0]["start_ms"]
    for e in entries:
        print("%-6s %-22s %-24s %7.2f .. %7.2f s" % (e["pair"], e["program"], e["test"] or "(preconditions)",
                                                   (e["start_ms"] - t0) / 1e3, (e["end_ms"] - t0) / 1e3))
    for pair in nets:
        mine = [e for e in entries if e["pair"] == pair]
        for a, b in zip(mine, mine[1:]):
            if b["start_ms"] < a["end_ms"]:
                fail("%s: %s %s and %s %s overlapped on one pair" % (pair, a["program"], a["test"], b["program"],
                                                                     b["test"]))
    last_precondition = max(e["end_ms"] for e in entries if e["program"] == "labgate-preconditions")
    first_measurement = min(e["start_ms"] for e in entries if e["program"] == "labgate-latency")
    if first_measurement < last_precondition:
        fail("a measurement started before every pair's preconditions were checked")
    overlap = 0
    for a in entries:
        for b in entries:
            if a["pair"] < b["pair"]:
                overlap = max(overlap, min(a["end_ms"], b["end_ms"]) - max(a["start_ms"], b["start_ms"]))
    if overlap <= 0:
        fail("no two tests on different pairs ever ran at the same time")
    per_pair = {p: sum(1 for t in ran_on.values() if t == p) for p in nets}
    print("ok: %d tests on %s; longest cross-pair overlap %.2f s; never two tests on one pair"
          % (len(ran_on), ", ".join("%s %d" % kv for kv in per_pair.items()), overlap / 1e3))


if __name__ == "__main__":
    main(sys.argv)
