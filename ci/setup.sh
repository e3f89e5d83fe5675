#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs, from Debian's packages, everything ioregress needs to build, test and benchmark.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libsqlite3-dev sqlite3 libaio-dev liburing-dev libkmod-dev libblkid-dev
  libjson-c-dev libcunit1-dev zlib1g-dev libssl-dev
  util-linux fdisk e2fsprogs kmod hdparm fio valgrind
  clang libclang-rt-14-dev        # the clang Release build; bench/fuzz.sh: libFuzzer, sanitizer runtimes
  scdoc man-db                    # the man pages and their test (man -l)
  dpkg-dev file                   # cpack -G DEB: dpkg-shlibdeps computes Depends:
  shellcheck                      # ci/lint.sh
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
