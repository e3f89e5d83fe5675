#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds, once, the Debian 12 test-bed that stands in for a real machine (issue 36): a root disk image made with mmdebstrap, two cloud kernels, sshd with a key of its own, and the default kernel beside it for qemu.
#
# Usage: tests/machine/build-image.sh        prints the directory of the built (or cached) test-bed
#
# The result lives in $IOR_MACHINE_CACHE (default /var/tmp/ioregress-machine)/<key>/, where <key> is
# the hash of this script: changing the script builds a new one. Worktrees with other versions of the
# script share the cache, so a test-bed is removed only when unused for 3 days (each use touches
# its `used` file), never because another version was built. It holds
#   root.img          the root file system (ext4 on a sparse raw file; boot it through a qcow2 overlay)
#   vmlinuz initrd.img  the default kernel and its initramfs, for qemu's -kernel/-initrd: a reboot or a
#                     panic (panic=5) comes back to them, as a real machine's default boot entry
#   id_ed25519        root's SSH key for the guest (0600); id_ed25519.pub is in its authorized_keys
#   debs/             the two kernels' .deb files, as apt downloaded them
#   machine.env       shell assignments: the kernels installed, the command line, the sizes
# Needs root, mmdebstrap and network access to deb.debian.org; ~3 GiB under the cache while building.
set -euo pipefail

# The kernels installed: the default one (booted by qemu's -kernel, as GRUB's first entry would be:
# the newest) and a second one to kexec into. Both are Debian cloud kernels apt knows in bookworm.
default_kernel=6.1.0-57-cloud-amd64
second_kernel=6.1.0-47-cloud-amd64
# What the guest runs ioregress with: its .deb's Depends (dpkg-shlibdeps of the binary) and the
# Recommends a measurement uses, so that `dpkg -i ioregress_*.deb` needs no network in the guest.
ioregress_deps=(libsqlite3-0 libaio1 liburing2 libkmod2 libblkid1 libjson-c5 zlib1g libssl3
	libgit2-1.5 libarchive13 r-mathlib fio hdparm e2fsprogs sqlite3
	libasan8 libubsan1)   # so that the sanitize build's binary runs there too
# A machine: systemd as init, udev, sshd, kexec, DHCP on the virtio NIC (systemd-networkd).
machine_packages=(systemd-sysv udev dbus openssh-server kexec-tools iproute2 procps kmod
	initramfs-tools util-linux)
image_size=4G
cmdline="root=/dev/vda rw console=ttyS0 panic=5"
mirror=http://deb.debian.org/debian
security=http://deb.debian.org/debian-security

# The whole build is one function, read by bash before it starts: editing this file while a build
# runs cannot change what that build does.
main() {
	# Descriptors inherited from whoever started us (a CI runner, a test harness, a tool's shell)
	# push the pipes mmdebstrap hands apt past 9, and its hooks run `cat >&N` under dash, which
	# takes one digit only ("Bad fd number": the build failed so when started with fds 10 and 251
	# open). Close them before taking our own lock on 9.
	local fd
	for fd in "/proc/$$/fd"/*; do
		fd=${fd##*/}
		if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
	done
	[ "$(id -u)" = 0 ] || { echo "error: building the test-bed needs root (mmdebstrap, mkfs.ext4 -d)" >&2; exit 1; }
	for tool in mmdebstrap mkfs.ext4 ssh-keygen sha256sum flock; do
		command -v "$tool" >/dev/null || { echo "error: '$tool' not found (bash ci/setup.sh installs it)" >&2; exit 1; }
	done

	cache_root=${IOR_MACHINE_CACHE:-/var/tmp/ioregress-machine}
	key=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)
	dir=$cache_root/$key
	mkdir -p "$cache_root"

	# One builder at a time; the others wait and then find the result.
	exec 9>"$cache_root/.lock"
	flock 9
	if [ -f "$dir/machine.env" ]; then
		touch "$dir/used"
		echo "$dir"
		exit 0
	fi

	work=$(mktemp -d "$cache_root/.build-XXXXXX")
	# --one-file-system: should mmdebstrap die with /proc or /dev still mounted in the root, the
	# removal stops there instead of reaching into the host's own.
	trap 'rm -rf --one-file-system "$work"' EXIT
	rootfs=$work/rootfs
	started=$(date +%s)

	echo "building the test-bed in $dir (mmdebstrap bookworm, a few minutes)" >&2
	include=$(IFS=,; echo "${machine_packages[*]},${ioregress_deps[*]},linux-image-$default_kernel,linux-image-$second_kernel")
	# Documentation is left out of the image (about 100 MB less to write and copy); dpkg does not
	# fsync what it unpacks (the image is written from the tree afterwards).
	# The downloaded packages are kept under the cache (apt-archives/) for the next build of a
	# changed script: only the hooks' shell sees IOR_APT_CACHE, hence the single quotes.
	export IOR_APT_CACHE=$cache_root/apt-archives
	mkdir -p "$IOR_APT_CACHE"
	# shellcheck disable=SC2016
	mmdebstrap --variant=minbase --include="$include" \
		--skip=download/empty --skip=essential/unlink \
		--setup-hook='mkdir -p "$1/var/cache/apt/archives" && cp -a "$IOR_APT_CACHE/." "$1/var/cache/apt/archives/"' \
		--customize-hook='cp -a "$1"/var/cache/apt/archives/*.deb "$IOR_APT_CACHE/"' \
		--dpkgopt=force-unsafe-io --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
		bookworm "$rootfs" \
		"deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb $security bookworm-security main" >&2
	debootstrapped=$(date +%s)

	# The machine's own settings.
	echo ior-machine >"$rootfs/etc/hostname"
	# A machine id of its own now: an "uninitialized" one would make every boot of a fresh overlay a
	# first boot (systemd then applies presets and may re-enable what is disabled below).
	rm -f "$rootfs/etc/machine-id"
	chroot "$rootfs" systemd-machine-id-setup >/dev/null 2>&1
	printf '127.0.0.1\tlocalhost\n127.0.1.1\tior-machine\n' >"$rootfs/etc/hosts"
	printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$rootfs/etc/fstab"
	# Reboots stay real reboots (a reset brings back the default kernel, as on a real machine): kexec
	# only when asked for, never loaded by kexec-tools' own unit at shutdown.
	sed -i 's/^LOAD_KEXEC=.*/LOAD_KEXEC=false/' "$rootfs/etc/default/kexec"
	# DHCP on whatever the virtio NIC is named (ens3, enp0s3 ...), through systemd-networkd.
	cat >"$rootfs/etc/systemd/network/20-wired.network" <<-'EOF'
	[Match]
	Name=en* eth*

	[Network]
	DHCP=ipv4
	EOF
	chroot "$rootfs" systemctl enable systemd-networkd.service >/dev/null 2>&1
	# Waiting for the network would hold boot back for nothing: sshd listens on every address anyway.
	chroot "$rootfs" systemctl disable systemd-networkd-wait-online.service >/dev/null 2>&1 || true
	# Timers that would start work in the middle of a measurement on a machine booted for minutes,
	# and units that cost a boot time for nothing here (under TCG at load 8: e2scrub_reap 21-26 s,
	# kexec-load 10-14 s, which with LOAD_KEXEC=false loads nothing).
	for unit in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer \
		e2scrub_reap.service kexec-load.service; do
		chroot "$rootfs" systemctl mask "$unit" >/dev/null 2>&1 || true
	done
	# A persistent journal: the kernel log of a boot that failed is read from the next one
	# (journalctl -k -b -1), as issue 36 asks of a real machine.
	mkdir -p "$rootfs/var/log/journal"
	# Root logs in with the test-bed's key only.
	ssh-keygen -q -t ed25519 -N '' -C ior-machine -f "$work/id_ed25519"
	install -d -m 0700 "$rootfs/root/.ssh"
	install -m 0600 "$work/id_ed25519.pub" "$rootfs/root/.ssh/authorized_keys"
	printf 'PermitRootLogin prohibit-password\nPasswordAuthentication no\nUseDNS no\n' \
		>"$rootfs/etc/ssh/sshd_config.d/ior-machine.conf"
	# The two kernels' packages beside the image (debs/): a test that runs ioregress inside the guest
	# puts them in its kernel cache there, so that `vm run` finds them without apt-get download.
	mkdir -p "$work/debs"
	# (mmdebstrap empties the root's apt cache at its end: they come from the copy kept above)
	for k in "$default_kernel" "$second_kernel"; do
		# shellcheck disable=SC2016  # ${Version} is dpkg-query's
		version=$(chroot "$rootfs" dpkg-query -W -f='${Version}' "linux-image-$k")
		cp "$IOR_APT_CACHE/linux-image-${k}_${version}_amd64.deb" "$work/debs/"
	done
	# Tidy: apt's lists and downloaded packages are not needed to boot (apt-get update brings them back).
	rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb

	for k in "$default_kernel" "$second_kernel"; do
		if [ ! -f "$rootfs/boot/vmlinuz-$k" ] || [ ! -f "$rootfs/boot/initrd.img-$k" ]; then
			echo "error: kernel $k has no vmlinuz or initrd.img in /boot" >&2
			exit 1
		fi
	done
	cp "$rootfs/boot/vmlinuz-$default_kernel" "$work/vmlinuz"
	cp "$rootfs/boot/initrd.img-$default_kernel" "$work/initrd.img"

	truncate -s "$image_size" "$work/root.img"
	mkfs.ext4 -q -L ior-root -d "$rootfs" "$work/root.img"
	rm -rf --one-file-system "$rootfs"
	chmod 0600 "$work/id_ed25519"
	finished=$(date +%s)

	cat >"$work/machine.env" <<-EOF
	# ioregress test-bed, built by tests/machine/build-image.sh (key $key)
	IOR_MACHINE_DEFAULT_KERNEL=$default_kernel
	IOR_MACHINE_SECOND_KERNEL=$second_kernel
	IOR_MACHINE_CMDLINE='$cmdline'
	IOR_MACHINE_BUILD_SECONDS=$((finished - started))
	IOR_MACHINE_MMDEBSTRAP_SECONDS=$((debootstrapped - started))
	IOR_MACHINE_IMAGE_SIZE=$image_size
	IOR_MACHINE_IMAGE_USED_KIB=$(du -k "$work/root.img" | cut -f1)
	EOF

	# Publish at once (rename), then drop the test-beds nobody used for 3 days (old versions).
	mv "$work" "$dir.new"
	rm -rf "$dir"
	mv "$dir.new" "$dir"
	trap - EXIT
	touch "$dir/used"
	for old in "$cache_root"/*/; do
		old=${old%/}
		if [ "$old" != "$dir" ] && [ -f "$old/machine.env" ] && [ -z "$(find "$old/used" -mtime -3 2>/dev/null)" ]; then
			rm -rf "$old"
		fi
	done
	echo "built the test-bed in $((finished - started)) s ($(du -sh "$dir/root.img" | cut -f1) used of $image_size)" >&2
	echo "$dir"
}

main "$@"
exit
