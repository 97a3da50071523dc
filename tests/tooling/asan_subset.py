#!/usr/bin/env python3
"""Every GoogleTest binary whose tests carry the label `unit` is in the
sanitizer_subset target that ci/test's ASan pass builds: a binary left out
has no tests in that pass (missing, not failing), so nothing would say so.
Reads what CTest runs (`ctest -N --show-only=json-v1`) and what ninja builds
for the target (`ninja -t inputs sanitizer_subset`) in BUILD.

    asan_subset.py BUILD_DIR
"""
import json
import os
import subprocess
import sys


def main():
    build = sys.argv[1]
    listing = subprocess.run(["ctest", "--test-dir", build, "-N", "--show-only=json-v1"],
                             capture_output=True, text=True, check=True, timeout=120).stdout
    unit_binaries = {}
    for test in json.loads(listing)["tests"]:
        labels = next((p["value"] for p in test.get("properties", []) if p["name"] == "LABELS"), [])
        command = test.get("command") or []
        if "unit" in labels and command and command[0].endswith("_tests"):
            unit_binaries.setdefault(os.path.basename(command[0]), test["name"])
    inputs = subprocess.run(["ninja", "-C", build, "-t", "inputs", "sanitizer_subset"],
                            capture_output=True, text=True, check=True, timeout=120).stdout.split()
    built = {i.rsplit("cmake_object_order_depends_target_", 1)[1] for i in inputs
             if "cmake_object_order_depends_target_" in i}
    missing = sorted(b for b in unit_binaries if b not in built)
    for b in missing:
        print(f"FAIL: {b} runs unit tests ({unit_binaries[b]}, ...) but is not in sanitizer_subset: "
              "register it with labgate_unit_gtest()")
    if not unit_binaries:
        print("FAIL: no unit-test binary found: is this a built build directory?")
        return 1
    print(f"{len(unit_binaries)} unit-test binaries, {len(unit_binaries) - len(missing)} in sanitizer_subset")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
