#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the Debian package: installs what is needed, builds the release kind and runs cpack -G DEB,
# leaving build/ioregress_VERSION_ARCH.deb (install it with apt-get install ./build/ioregress_*.deb).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh
bash ci/build.sh release
(cd build && cpack -G DEB)
ls -l build/ioregress_*.deb
