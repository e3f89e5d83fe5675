#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boots the test-bed built by build-image.sh as a machine for one test: a copy-on-write overlay, SSH on a free port of 127.0.0.1, a sparse second disk to measure.
#
# Usage: tests/machine/boot.sh start DIR [SECONDS]  boot in the background, wait for SSH (default 300 s),
#                                                  print the connection as shell assignments
#        tests/machine/boot.sh stop DIR             end qemu (by its pid) and remove the overlay and disk
#        tests/machine/boot.sh ssh DIR [COMMAND]    run a command on the guest as root
#        tests/machine/boot.sh run DIR PORT         qemu in the foreground (what start and the C tests run)
#
# DIR is this boot's own directory (created): root.qcow2 (the overlay over the cached root.img, so
# the cache stays clean), data.img (the device measured, /dev/vdb in the guest; its size is
# $IOR_MACHINE_DATA_SIZE, default 2G), console.log, qemu.pid, port and ssh_config (`ssh -F
# DIR/ssh_config ior-machine` connects as root with the test-bed's key). The guest boots its default
# kernel through qemu's -kernel, without -no-reboot: a reboot, or a panic (panic=5), comes back to it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
	sed -n '/^# Usage:/,/^#$/p' "${BASH_SOURCE[0]}" >&2
	exit 2
}

# The cached test-bed (built on first use) and the settings it was built with.
image() {
	image_dir=${IOR_MACHINE_DIR:-$(bash "$here/build-image.sh")}
	# shellcheck source=/dev/null
	. "$image_dir/machine.env"
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

write_ssh_config() {
	local dir=$1 port=$2
	cat >"$dir/ssh_config" <<EOF
Host ior-machine
	HostName 127.0.0.1
	Port $port
	User root
	IdentityFile $image_dir/id_ed25519
	IdentitiesOnly yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
	BatchMode yes
	ConnectTimeout 10
	ServerAliveInterval 5
	ServerAliveCountMax 3
EOF
	echo "$port" >"$dir/port"
}

run() {
	local dir=$1 port=$2
	image
	mkdir -p "$dir"
	[ -f "$dir/root.qcow2" ] ||
		qemu-img create -q -f qcow2 -b "$image_dir/root.img" -F raw "$dir/root.qcow2"
	[ -f "$dir/data.img" ] || truncate -s "${IOR_MACHINE_DATA_SIZE:-2G}" "$dir/data.img"
	write_ssh_config "$dir" "$port"
	# TCG: this machine's KVM cannot run a Linux guest (FACTS.md). One CPU, 1 GiB; virtio-rng so
	# sshd's early getrandom does not wait for entropy.
	exec qemu-system-x86_64 -accel tcg -m 1024 -smp 1 -nodefaults -display none \
		-serial "file:$dir/console.log" -monitor none -pidfile "$dir/qemu.pid" \
		-kernel "$image_dir/vmlinuz" -initrd "$image_dir/initrd.img" -append "$IOR_MACHINE_CMDLINE" \
		-drive "file=$dir/root.qcow2,if=virtio,format=qcow2" \
		-drive "file=$dir/data.img,if=virtio,format=raw,cache=none" \
		-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$port-:22" -device virtio-net-pci,netdev=n0 \
		-device virtio-rng-pci
}

ssh_to() {
	local dir=$1
	shift
	ssh -F "$dir/ssh_config" ior-machine "$@"
}

start() {
	local dir=$1 deadline=$(($(date +%s) + ${2:-300})) port started
	image
	mkdir -p "$dir"
	port=$(free_port)
	started=$(date +%s)
	IOR_MACHINE_DIR=$image_dir setsid bash "${BASH_SOURCE[0]}" run "$dir" "$port" </dev/null >"$dir/qemu.out" 2>&1 &
	echo $! >"$dir/qemu.pid"
	until ssh_to "$dir" true 2>/dev/null; do
		if ! kill -0 "$(cat "$dir/qemu.pid")" 2>/dev/null; then
			echo "error: qemu ended before SSH answered: $(tail -n 3 "$dir/qemu.out")" >&2
			return 1
		fi
		if [ "$(date +%s)" -ge "$deadline" ]; then
			echo "error: no SSH on port $port within the deadline (console: $dir/console.log)" >&2
			stop "$dir"
			return 1
		fi
		sleep 2
	done
	echo "IOR_MACHINE_PORT=$port"
	echo "IOR_MACHINE_KEY=$image_dir/id_ed25519"
	echo "IOR_MACHINE_SSH_CONFIG=$dir/ssh_config"
	echo "IOR_MACHINE_PID=$(cat "$dir/qemu.pid")"
	echo "IOR_MACHINE_BOOT_SECONDS=$(($(date +%s) - started))"
	echo "IOR_MACHINE_DEFAULT_KERNEL=$IOR_MACHINE_DEFAULT_KERNEL"
	echo "IOR_MACHINE_SECOND_KERNEL=$IOR_MACHINE_SECOND_KERNEL"
}

stop() {
	local dir=$1 pid
	if [ -f "$dir/qemu.pid" ]; then
		pid=$(cat "$dir/qemu.pid")
		# qemu exec'ed in place of `run`, so the pid is qemu's: it ends on SIGTERM.
		if kill "$pid" 2>/dev/null; then
			for _ in 1 2 3 4 5 6 7 8 9 10; do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.5
			done
			kill -KILL "$pid" 2>/dev/null || true
		fi
		rm -f "$dir/qemu.pid"
	fi
	rm -f "$dir/root.qcow2" "$dir/data.img"
}

[ $# -ge 2 ] || usage
case $1 in
run) [ $# -eq 3 ] || usage; run "$2" "$3" ;;
start) start "$2" "${3:-300}" ;;
stop) stop "$2" ;;
ssh) dir=$2; shift 2; ssh_to "$dir" "$@" ;;
*) usage ;;
esac
