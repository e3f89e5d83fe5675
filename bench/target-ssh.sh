#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of `vm run --target ssh://` on the test-bed guest (#36): per boot, the seconds beyond the kernel's own boot and the measuring (the boot command, the old kernel's shutdown and the wait for SSH, the pull-back, the merge), beside the load. Target: <= 5 s a boot.
# Not a test. Run as root from the source tree, under the lock (it boots the guest and kexecs it):
#   flock /tmp/ior-root-tests.lock bench/target-ssh.sh [BUILD_DIR]    env: ROUNDS=1 SHUTDOWN="clean force" OUT=DIR
# It boots the test-bed (tests/machine/boot.sh; the image is built on first use), puts BUILD_DIR's
# ioregress on it, and then, ROUNDS times, for each --shutdown way in SHUTDOWN (alternating), runs
# `vm run --target ssh://root@127.0.0.1:PORT --boots 1 --shutdown WAY` of the two kernels the guest has
# installed (nothing to install: the install is a one-off per kernel and is not in the figure) with a
# 3-repetition hdparm matrix on the guest's /dev/vdb. Each boot's breakdown comes from the run's
# progress lines:
#   command  the connection that loads the kernel (kexec -l) and starts the boot
#   ssh_back from then to SSH answering as the new boot; "up" is the new kernel's own /proc/uptime
#            at that moment, so shut+ = ssh_back - up is the old kernel's shutdown plus the polling's slack
#   measured the target's ioregress run (and its dmesg), pulled = the database copied back
#   all      the boot from its first command to its database back (the merge after it is not in
#            it); beyond = all - up - measured
# and from the guest's persistent journal (the boot by its id):
#   units    the old kernel's units stopping: its first "Stopped target" to its last entry ("-" with
#            --shutdown force, which stops none)
#   k+initrd the new boot's kernel and initrd ("Startup finished"); sshd_at its uptime when sshd listened
# Then the guest is stopped. OUT keeps the runs' stderr, the journal extract and the database.
# Figures: bench/README.md (target-ssh.sh).
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$src/build}
binary=$build/harness/ioregress
[ -x "$binary" ] || binary=$build/ioregress
[ -x "$binary" ] || { echo "error: no ioregress in '$build'" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "error: run as root (the test-bed's image and qemu)" >&2; exit 2; }
rounds=${ROUNDS:-1}
out=${OUT:-$(mktemp -d /tmp/ior-bench-target.XXXXXX)}
mkdir -p "$out"
bed="$out/bed"

stamper=
cleanup() {
	[ -z "$stamper" ] || kill "$stamper" 2>/dev/null || true
	bash "$src/tests/machine/boot.sh" stop "$bed" >/dev/null 2>&1 || true
}
trap cleanup EXIT

eval "$(bash "$src/tests/machine/boot.sh" start "$bed" 600)"
ssh_opts=(-o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR
	-i "$IOR_MACHINE_KEY")
scp -q -P "$IOR_MACHINE_PORT" "${ssh_opts[@]}" "$binary" root@127.0.0.1:/usr/local/bin/ioregress
echo "guest up in ${IOR_MACHINE_BOOT_SECONDS} s on $IOR_MACHINE_DEFAULT_KERNEL; load $(cut -d' ' -f1-3 /proc/loadavg)"

archives=${IOR_MACHINE_CACHE:-/var/tmp/ioregress-machine}/apt-archives
mkdir -p "$out/kernels"
cp "$archives"/linux-image-"$IOR_MACHINE_DEFAULT_KERNEL"_*.deb "$archives"/linux-image-"$IOR_MACHINE_SECOND_KERNEL"_*.deb \
	"$out/kernels/"
cat >"$out/matrix.ini" <<'EOF'
[matrix]
repetitions = 3
warmup = 1
schedulers = mq-deadline
[device vdb]
path = /dev/vdb
[engine hdparm-direct]
type = hdparm
direct = yes
duration = 1s
settle = 0.2s
EOF

# One vm run of the two kernels a way and round, the ways alternating (clean, force, clean, ...), so
# the load's drift falls on both alike; each run ends on the default kernel (round 1's order), so no
# boot back is counted.
ways=${SHUTDOWN:-clean force}
# The guest's console lines that bound the kexec jump (purgatory, then the new kernel's decompression
# and early boot until it prints), stamped with this machine's clock as they arrive.
python3 -u - "$bed/console.log" >"$out/console.times" <<'EOF' &
import sys, time
f = open(sys.argv[1], "rb")
f.seek(0, 2)
buf = b""
while True:
    d = f.read()
    if not d:
        time.sleep(0.05)
        continue
    t, buf = time.time(), buf + d
    *lines, buf = buf.split(b"\n")
    for l in lines:
        if b"kexec_core: Starting new kernel" in l or b"] Linux version " in l:
            print(f"{t:.3f} {l.decode('utf-8', 'replace')}", flush=True)
EOF
stamper=$!
started=$(date +%s)
for r in $(seq 1 "$rounds"); do
	for way in $ways; do
		"$binary" --db "$out/bench.db" vm run --target "ssh://root@127.0.0.1:$IOR_MACHINE_PORT" \
			--ssh-option "IdentityFile=$IOR_MACHINE_KEY" --ssh-option StrictHostKeyChecking=no \
			--ssh-option UserKnownHostsFile=/dev/null --ssh-option LogLevel=ERROR --shutdown "$way" \
			--matrix "$out/matrix.ini" --boots 1 --cache-dir "$out/kernels" --boot-timeout 600 \
			"linux-image-$IOR_MACHINE_SECOND_KERNEL" "linux-image-$IOR_MACHINE_DEFAULT_KERNEL" \
			2>"$out/stderr.now" >/dev/null ||
			{ echo "error: vm run --shutdown $way failed; its stderr: $out/stderr.now" >&2; tail -n 5 "$out/stderr.now" >&2; exit 1; }
		sed "s/^/$way $r: /" "$out/stderr.now" >>"$out/stderr"
		echo "round $r, --shutdown $way: done at $(($(date +%s) - started)) s; load $(cut -d' ' -f1-3 /proc/loadavg)"
	done
done
kill "$stamper" 2>/dev/null || true

# Where the guest's time went, from its own persistent journal, each boot by its id (vm_boots.boot_id):
# the old kernel's units stopping (from its first "Stopped target" after "Startup finished" to its last
# entry: none with --force), the new boot's kernel + initrd ("Startup finished") and sshd listening.
# shellcheck disable=SC2016 # expanded on the guest
bash "$src/tests/machine/boot.sh" ssh "$bed" 'for b in $(journalctl --list-boots --no-pager | awk "NR > 1 {print \$2}"); do
	journalctl -b "$b" -o json --no-pager --output-fields=MESSAGE,_PID |
		grep -E "Startup finished|Stopped target|Server listening on 0.0.0.0"; journalctl -b "$b" -n 1 -o json --no-pager
done' >"$out/journal.json" 2>/dev/null || echo "warning: the guest's journal could not be read" >&2

# Each boot's breakdown line, then its "N s in all" line (the driver's, after the merge).
python3 - "$out/stderr" "$out/bench.db" "$out/journal.json" "$out/console.times" <<'EOF'
import json, re, sqlite3, statistics, sys
rows, cur = [], {}
for line in open(sys.argv[1]):
    way = line.split(" ", 1)[0]
    m = re.search(r": (\S+) round (\d+): boot command ([\d.]+) s, SSH back ([\d.]+) s later \(the kernel up ([\d.-]+) s "
                  r"of it\), measured ([\d.]+) s, database back in ([\d.]+) s", line)
    if m:
        cur[way] = [way, m.group(1).replace("linux-image-", "")] + [float(x) for x in m.groups()[2:]]
        continue
    m = re.search(r"round \d+/\d+: ok.*, ([\d.]+) s in all", line)
    if m and cur.get(way):
        rows.append(cur.pop(way) + [float(m.group(1))])
boots = {}   # boot id -> its journal entries of interest, in order; in the order the boots came
try:
    for line in open(sys.argv[3]):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        boots.setdefault(e["_BOOT_ID"], []).append(e)
except OSError:
    pass
order = list(boots)
def msg(e):
    return str(e.get("MESSAGE", ""))
def new_boot(bid):
    """seconds of kernel + initrd ("Startup finished") and of the boot's uptime when sshd listened"""
    es = boots.get(bid, [])
    fin = next((msg(e) for e in es if "Startup finished" in msg(e) and e.get("_PID") == "1"), "")
    ki = None
    for part in re.findall(r"((?:[\d.]+min )?[\d.]+m?s) \((?:kernel|initrd)\)", fin):
        sec = sum(float(x) * {"min": 60, "s": 1, "ms": 0.001}[u] for x, u in re.findall(r"([\d.]+)(min|ms|s)", part))
        ki = (ki or 0) + sec
    sshd = next((int(e["__MONOTONIC_TIMESTAMP"]) / 1e6 for e in es if "Server listening" in msg(e)), None)
    return ki, sshd
def units_stop(bid):
    """seconds from the first "Stopped target" after the boot finished to the boot's last entry"""
    es = boots.get(bid, [])
    done = [i for i, e in enumerate(es) if "Startup finished" in msg(e) and e.get("_PID") == "1"]
    stops = [e for e in es[(done[-1] if done else 0):] if msg(e).startswith("Stopped target")]
    if not stops:
        return None
    return (int(es[-1]["__REALTIME_TIMESTAMP"]) - int(stops[0]["__REALTIME_TIMESTAMP"])) / 1e6
jumps, at = [], None   # this machine's seconds from "Starting new kernel" to the new kernel's first line
try:
    for line in open(sys.argv[4]):
        t = float(line.split(" ", 1)[0])
        if "Starting new kernel" in line:
            at = t
        elif at is not None:
            jumps.append(t - at)
            at = None
except (OSError, ValueError):
    pass
ids = [r[0] or "" for r in sqlite3.connect(sys.argv[2]).execute(
    "SELECT boot_id FROM vm_boots WHERE target LIKE 'ssh://%' AND outcome = 'ok' ORDER BY id")]
print(f"{'way':6} {'kernel':21} {'command':>7} {'ssh_back':>8} {'up':>6} {'shut+':>6} {'units':>6} {'k+initrd':>8} "
      f"{'jump':>5} {'sshd_at':>7} {'measured':>8} {'pulled':>6} {'all':>6} {'beyond':>6}")
beyond = {}
f = lambda v: f"{v:.1f}" if v is not None else "-"
for i, (way, k, cmd, back, up, meas, pulled, total) in enumerate(rows):
    b = total - up - meas
    beyond.setdefault(way, []).append(b)
    bid = ids[i].replace("-", "") if i < len(ids) else ""
    ki, sshd = new_boot(bid)
    units = units_stop(order[order.index(bid) - 1]) if bid in order and order.index(bid) > 0 else None
    print(f"{way:6} {k:21} {cmd:7.1f} {back:8.1f} {up:6.1f} {back - up:6.1f} {f(units):>6} {f(ki):>8} {f(jumps[i] if i < len(jumps) else None):>5} {f(sshd):>7} "
          f"{meas:8.1f} {pulled:6.1f} {total:6.1f} {b:6.1f}")
for way, v in beyond.items():
    print(f"--shutdown {way}: beyond the kernel's boot and the measuring, median {statistics.median(v):.1f} s a boot "
          f"(min {min(v):.1f}, max {max(v):.1f}, {len(v)} boots; target <= 5 s)")
if not rows:
    print("no boot's breakdown found: see the run's stderr")
EOF
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg); stderr, journal and database in $out"
