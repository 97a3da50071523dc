#!/usr/bin/env python3
"""Every lab pair is locked under one name in CTest: `lab-pairN`, the [lab] name
its profile gives it, which the gate preset's tests lock too. Two names for one
pair would let two tests drive its namespaces (and kill its sshds) at once.
Reads what CTest itself will schedule: `ctest -N --show-only=json-v1` of BUILD.

    lab_locks.py BUILD_DIR
"""
import json
import re
import subprocess
import sys


def main():
    build = sys.argv[1]
    listing = subprocess.run(["ctest", "--test-dir", build, "-N", "--show-only=json-v1"],
                             capture_output=True, text=True, check=True, timeout=120).stdout
    locks = {}  # pair -> lock name -> the tests that take it
    for test in json.loads(listing)["tests"]:
        for prop in test.get("properties", []):
            if prop["name"] != "RESOURCE_LOCK":
                continue
            for lock in prop["value"]:
                m = re.search(r"pair_?(\d+)$", lock)
                if m:
                    locks.setdefault(int(m.group(1)), {}).setdefault(lock, []).append(test["name"])
    bad = 0
    for pair, names in sorted(locks.items()):
        for lock, tests in sorted(names.items()):
            if lock != f"lab-pair{pair}":
                print(f"FAIL: lab pair {pair} is locked as '{lock}' by {tests[0]} and {len(tests) - 1} more "
                      f"test(s); its one name is lab-pair{pair}")
                bad = 1
    if not locks:
        print("FAIL: no test locks a lab pair: is this a build directory?")
        return 1
    print(f"{len(locks)} lab pairs, each locked under one name (pairs {', '.join(map(str, sorted(locks)))})")
    return bad


if __name__ == "__main__":
    sys.exit(main())
