/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's /init: mount the pseudo filesystems, load the virtio modules, run the matrix, write
 * the results disk, power off. */
#include "vm/internal.h"
#include "vm/guest.h"

/* The exit status travels in /results/status on the results disk, never on the console: the
 * console only carries the markers the host's watchdog reads for signs of life. */
const char ior_vm_init_script[] =
	"#!/bin/busybox sh\n"
	"/bin/busybox mkdir -p /proc /sys /dev /tmp /run /results\n"
	"/bin/busybox --install -s /bin\n"
	"export PATH=/bin:/sbin HOME=/tmp\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev\n"
	"mount -t tmpfs tmpfs /tmp\n"
	/* blk-mq's debugfs: a cell whose requests never complete says where they sit (kyber's lists,
	 * the dispatch list, the driver); quiet when the kernel has none */
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"echo \"" IOR_VM_MARK_UP " $(cut -d' ' -f1 /proc/uptime)\"\n"
	"rel=$(uname -r)\n"
	"for m in $(cat /etc/ior/load); do\n"
	"  insmod /lib/modules/$rel/$m || echo \"ioregress-init: cannot insert $m\"\n"
	"done\n"
	"hostname \"$(cat /etc/ior/host)\"\n"
	"case \" $(cat /proc/cmdline) \" in *' ior.probe=1 '*)\n"
	"  echo \"" IOR_VM_MARK_DONE " probe\"; poweroff -f;;\n"
	"esac\n"
	"n=0\n"
	"while [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; do\n"
	"  n=$((n + 1)); [ $n -gt 200 ] && break; sleep 0.05\n"
	"done\n"
	"status=0\n"
	"if [ -f /etc/ior/matrix.ini ]; then\n"
	"  export " IOR_VM_RESULTS_ENV "=/dev/vdb " IOR_VM_SENT_ENV "=/tmp/ior-sent\n"
	/* the guest's clock at each step, so a boot's time outside its run can be placed */
	"  echo \"ioregress-init: run starts at $(cut -d' ' -f1 /proc/uptime) s\"\n"
	"  ioregress --db /results/guest.db run /etc/ior/matrix.ini --set matrix.load_modules=yes \\\n"
	"    --allow-destructive=/dev/vda\n"
	"  status=$?\n"
	"fi\n"
	"echo \"ioregress-init: run ended at $(cut -d' ' -f1 /proc/uptime) s\"\n"
	/* the run's last commit wrote the disk with its status and flushed it: written again, the same
	 * tar cost a whole database's write and a sync at every boot's end */
	"if [ ! -e /tmp/ior-sent ]; then\n"
	"  echo $status > /results/status\n"
	"  (cd /results && tar cf /dev/vdb .) && sync\n"
	"fi\n"
	"echo \"" IOR_VM_MARK_DONE "\"\n"
	"poweroff -f\n";
