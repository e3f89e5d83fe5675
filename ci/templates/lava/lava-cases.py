#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Turns the tests of one kernel in a KCIDB document (ioregress report --format kcidb) into lava-test-case calls: one per cell and metric, with its median as the measurement.
import json
import subprocess
import sys

# KCIDB statuses as LAVA results: a measurement without a verdict passes (it ran).
RESULTS = {"PASS": "pass", "DONE": "pass", "FAIL": "fail", "ERROR": "fail", "SKIP": "skip", "MISS": "skip"}


def cases(doc, kernel):
    """(name, result, value, unit) per test of kernel; names are the KCIDB path without its
    "ioregress." root, made unique by a counter when two cells share a path (engine params)."""
    seen = {}
    for test in doc.get("tests", []):
        misc = test.get("misc", {})
        if misc.get("kernel") != kernel:
            continue
        name = test["path"].removeprefix("ioregress.")
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name}-{seen[name]}"
        number = test.get("number", {})
        yield name, RESULTS[test["status"]], number.get("value"), number.get("unit")


def main(path, kernel):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    n = 0
    for name, result, value, unit in cases(doc, kernel):
        argv = ["lava-test-case", name, "--result", result]
        if value is not None:
            argv += ["--measurement", repr(float(value))]
            if unit:
                argv += ["--units", unit]
        subprocess.run(argv, check=True)
        n += 1
    if not n:
        sys.exit(f"lava-cases: no test of kernel '{kernel}' in '{path}'")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
