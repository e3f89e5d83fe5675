#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes a LAVA test definition's run steps as the shell script LAVA's test shell runs: the default params, the job's overrides, set -e, the repository root as the directory, the declared dependencies installed, each step a line.
import shlex
import sys

import yaml


def main(definition, root, out, *overrides):
    with open(definition, encoding="utf-8") as f:
        d = yaml.safe_load(f)
    if d["metadata"]["format"] not in ("Lava-Test Test Definition 1.0", "Lava-Test-Shell Test Definition 1.0"):
        sys.exit(f"{definition}: not a Lava-Test Test Definition 1.0")
    lines = ["###default parameters from test definition###"]
    lines += [f"{k}={shlex.quote(str(v))}" for k, v in d.get("params", {}).items()]
    lines += ["######", "###test parameters from job submission###"]
    lines += [f"{k}={shlex.quote(v)}" for k, v in (o.split("=", 1) for o in overrides)]
    lines += ["######", "set -e", "set -x", f"cd {shlex.quote(root)}"]
    # LAVA installs the declared dependencies with the distribution's tool before the steps
    deps = d.get("install", {}).get("deps", [])
    if deps:
        lines += ["apt-get -q -y install " + " ".join(shlex.quote(p) for p in deps)]
    lines += d["run"]["steps"]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
