#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of a guest's start-up (#38): boots a vm run initramfs from the cache with its /init replaced by one that times `ioregress --version` and `busybox true` five times each from /proc/uptime, and prints the archive's size, the guest uptime at init and each time.
# Not a test. Wrap it in flock /tmp/ior-root-tests.lock. From the source tree:
#   bench/vm-guest-start.sh CPIO [KERNEL]   env: BOOTS=2
# CPIO: an archive from ~/.cache/ioregress/kernels/initramfs/ (`cpio -itv < F` shows which ioregress
# it holds); KERNEL: a bzImage, default the 6.1.0-47 cloud kernel of that cache. TCG, -smp 1 -m 512.
set -euo pipefail
cpio=$1
kernel=${2:-$HOME/.cache/ioregress/kernels/linux-image-6.1.0-47-cloud-amd64/boot/vmlinuz-6.1.0-47-cloud-amd64}
d=$(mktemp -d /tmp/ior-bench-guest.XXXXXX)
trap 'rm -rf "$d"' EXIT
mkdir "$d/root"
# the archive repeats some libraries under two names: the later copy is the same file
(cd "$d/root" && cpio -id --quiet <"$cpio" 2>/dev/null) || true
cat >"$d/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mkdir -p /proc
/bin/busybox mount -t proc proc /proc
read up _ </proc/uptime; echo "T init $up"
/bin/busybox --install -s /bin
export PATH=/bin
for i in 1 2 3 4 5; do
  read a _ </proc/uptime; ioregress --version >/dev/null; read b _ </proc/uptime; echo "T version $a $b"
  read a _ </proc/uptime; busybox true; read b _ </proc/uptime; echo "T true $a $b"
done
poweroff -f
INIT
chmod 755 "$d/root/init"
(cd "$d/root" && find . | cpio -o -H newc --quiet >"$d/t.cpio")
for _ in $(seq "${BOOTS:-2}"); do
	echo "initramfs $(stat -c %s "$cpio") bytes; load $(cut -d' ' -f1-3 /proc/loadavg)"
	timeout 300 qemu-system-x86_64 -accel tcg -m 512 -smp 1 -nodefaults -display none -serial stdio -no-reboot \
		-kernel "$kernel" -initrd "$d/t.cpio" -append "console=ttyS0 quiet panic=-1" </dev/null | tr -d '\r' |
		awk '/^T init/ {print "  init reached at " $3 " s"}
		     /^T version/ {v = v sprintf(" %.2f", $4 - $3)} /^T true/ {t = t sprintf(" %.2f", $4 - $3)}
		     END {print "  ioregress --version:" v; print "  busybox true:" t}'
done
