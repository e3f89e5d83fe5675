/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the console readers of vm/: a panic's recorded reason is the head of its oops (fault
 * line, kernel RIP, first frames), never its last line, consoles as Debian's 6.1 and 6.12 kernels
 * print them (vm/oops.c); and qemu's virtqueue answer after a stuck device (vm/virtqueue.c). */
#include "tests/suite.h"
#include "vm/internal.h"

#include <string.h>

/* The shape of the double fault the field saw in a TCG guest (aio iodepth 8), abridged. */
static const char double_fault[] =
	"$ qemu-system-x86_64 -nodefaults\n"
	"[    9.101112] random: crng init done\n"
	"[   41.000001] traps: PANIC: double fault, error_code: 0x0\n"
	"[   41.000002] double fault: 0000 [#1] PREEMPT SMP NOPTI\n"
	"[   41.000003] CPU: 0 PID: 212 Comm: ioregress Not tainted 6.12.113+deb12-cloud-amd64 #1\n"
	"[   41.000004] RIP: 0010:kmem_cache_alloc_noprof+0x5a/0x2d0\n"
	"[   41.000005] Code: 41 57 41 56\n"
	"[   41.000006] Call Trace:\n"
	"[   41.000007]  <TASK>\n"
	"[   41.000008]  ? __die_body.cold+0x19/0x27\n"
	"[   41.000009]  io_submit_one+0x8e/0x8a0\n"
	"[   41.000010]  __x64_sys_io_submit+0x84/0x190\n"
	"[   41.000011]  do_syscall_64+0x58/0xc0\n"
	"[   41.000012]  entry_SYSCALL_64_after_hwframe+0x64/0xce\n"
	"[   41.000013]  </TASK>\n"
	"[   41.000014] Kernel panic - not syncing: Fatal exception in interrupt\n"
	"[   41.000015] Kernel Offset: 0x1e000000 from 0xffffffff81000000\n";

/* sysrq's crash: no kernel RIP, the user task's registers after the trace (RIP: 0033:). */
static const char sysrq[] =
	"[   28.100000] sysrq: Trigger a crash\n"
	"[   28.100001] Kernel panic - not syncing: sysrq triggered crash\n"
	"[   28.100002] CPU: 0 PID: 230 Comm: sh Not tainted 6.1.0-47-cloud-amd64 #1  Debian 6.1.170-3\n"
	"[   28.100003] Call Trace:\n"
	"[   28.100004]  <TASK>\n"
	"[   28.100005]  dump_stack_lvl+0x44/0x5c\n"
	"[   28.100006]  panic+0x118/0x2ed\n"
	"[   28.100007]  sysrq_handle_crash+0x16/0x20\n"
	"[   28.100008]  __handle_sysrq.cold+0x43/0x11b\n"
	"[   28.100009]  write_sysrq_trigger+0x24/0x40\n"
	"[   28.100010] RIP: 0033:0x47b7a0\n"
	"[   28.100011]  </TASK>\n"
	"[   28.100012] Kernel Offset: 0x2a000000 from 0xffffffff81000000\n";

static void test_double_fault_head(void)
{
	char out[512];
	ior_vm_oops_head(double_fault, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "traps: PANIC: double fault, error_code: 0x0; Kernel panic - not syncing: Fatal "
				    "exception in interrupt; RIP: kmem_cache_alloc_noprof+0x5a/0x2d0; trace: io_submit_one < "
				    "__x64_sys_io_submit < do_syscall_64 < entry_SYSCALL_64_after_hwframe");
	CU_ASSERT_PTR_NULL(strstr(out, "Kernel Offset"));
}

/* The double fault of a vm.ini boot of 6.12.117 (stop 33), as printed: its saved EFLAGS has reserved
 * bits set, which the reason names; an ordinary one (00010246) adds nothing. */
static void test_corrupt_eflags_named(void)
{
	static const char console[] =
		"[    9.447534] traps: PANIC: double fault, error_code: 0x0\n"
		"[    9.450049] Oops: double fault: 0000 [#1] PREEMPT SMP NOPTI\n"
		"[    9.450743] CPU: 0 UID: 0 PID: 146 Comm: ioregress Not tainted 6.12.117+deb12-cloud-amd64 #1\n"
		"[    9.451012] RIP: 0010:kmem_cache_alloc_noprof+0x6b/0x2f0\n"
		"[    9.451666] Code: 8b 75 08 48 c7 04 24 00 00 00 00 <49> 8b 04 24\n"
		"[    9.451815] RSP: 0018:ffffcfc780613c20 EFLAGS: 552f3602\n"
		"[    9.452202] RAX: ffff8e1e552f36c0 RBX: ffff8e1e552f30c0 RCX: 0000000002efc000\n"
		"[    9.452487] Call Trace:\n"
		"[    9.452904]  <TASK>\n"
		"[    9.453332]  io_submit_one+0x89/0x870\n"
		"[    9.453380]  __x64_sys_io_submit+0x95/0x1b0\n"
		"[    9.453650] RIP: 0033:0x7fca5b813829\n"
		"[    9.453865] RSP: 002b:00007fca576fc8f8 EFLAGS: 00000246 ORIG_RAX: 00000000000000d1\n"
		"[    9.454002]  </TASK>\n";
	char out[700];
	ior_vm_oops_head(console, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "traps: PANIC: double fault, error_code: 0x0; RIP: kmem_cache_alloc_noprof+0x6b/0x2f0; "
				    "EFLAGS 552f3602 has reserved bits set, which no x86 CPU saves: the (emulated) CPU's "
				    "state was corrupt; trace: io_submit_one < __x64_sys_io_submit");
	static const char fine[] =
		"[    1.0] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		"[    1.0] RIP: 0010:blk_mq_submit_bio+0x10/0x500\n"
		"[    1.0] RSP: 0018:ffffcfc780613c20 EFLAGS: 00010246\n"
		"[    1.0] Call Trace:\n"
		"[    1.0]  submit_bio_noacct+0x1/0x2\n";
	ior_vm_oops_head(fine, out, sizeof(out));
	CU_ASSERT_PTR_NULL(strstr(out, "EFLAGS"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "RIP: blk_mq_submit_bio+0x10/0x500; trace: submit_bio_noacct"));
}

static void test_sysrq_head_has_no_user_rip(void)
{
	char out[512];
	ior_vm_oops_head(sysrq, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "sysrq: Trigger a crash; Kernel panic - not syncing: sysrq triggered crash; trace: "
				    "dump_stack_lvl < panic < sysrq_handle_crash < __handle_sysrq.cold");
}

static void test_no_oops(void)
{
	char out[64] = "x";
	ior_vm_oops_head("[    1.0] Linux version 6.1\nioregress-init: up 1.2\n", out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "");
	ior_vm_oops_head(NULL, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "");
}

/* A hang's sysrq w (shown blocked tasks, as 6.1 prints it): each blocked task with its first frames,
 * the unwinder's guesses ("? ...") and the scheduler's own frames left out; no sysrq output, no head. */
static void test_blocked_head(void)
{
	static const char console[] =
		"ioregress-beat expect=32.0 cell 7/16 rep 3/3  vda kyber randread  elapsed 00:52  ETA 00:14\n"
		"[  200.100001] sysrq: Show Blocked State\n"
		"[  200.100002] task:ioregress       state:D stack:0     pid:97    ppid:1      flags:0x00004002\n"
		"[  200.100003] Call Trace:\n"
		"[  200.100004]  <TASK>\n"
		"[  200.100005]  __schedule+0x2f1/0x880\n"
		"[  200.100006]  ? __pfx_autoremove_wake_function+0x10/0x10\n"
		"[  200.100007]  schedule+0x5a/0xd0\n"
		"[  200.100008]  io_schedule+0x42/0x70\n"
		"[  200.100009]  blk_mq_get_tag+0x11e/0x2c0\n"
		"[  200.100010]  __blk_mq_alloc_requests+0x1b3/0x2f0\n"
		"[  200.100011]  blk_mq_submit_bio+0x2b1/0x5a0\n"
		"[  200.100012]  </TASK>\n";
	char out[400];
	CU_ASSERT(ior_vm_blocked_head(console, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "blocked: ioregress (pid 97) state:D: blk_mq_get_tag < __blk_mq_alloc_requests < "
				    "blk_mq_submit_bio");
	/* an empty list is a finding only when the console showed everything (sysrq 9 first): under
	 * `quiet` the tasks never reach it, which is what three hangs' "no blocked task" really was */
	CU_ASSERT(ior_vm_blocked_head("[ 0.9] sysrq: Changing Loglevel\n[ 0.9] sysrq: Loglevel set to 9\n"
				      "[ 1.0] sysrq: Show Blocked State\n", out, sizeof(out)));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "sysrq w showed no blocked task"));
	CU_ASSERT(ior_vm_blocked_head("[ 1.0] sysrq: Show Blocked State\n", out, sizeof(out)));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "sysrq w listed nothing at the console's log level"));
	CU_ASSERT(!ior_vm_blocked_head("ioregress-beat expect=0\n", out, sizeof(out)));
	/* nothing blocked, and sysrq l says what ran when the NMI came: a task spinning in user space,
	 * or in the kernel */
	static const char user[] =
		"[  206.912967] sysrq: Loglevel set to 9\n"
		"[  207.112967] sysrq: Show Blocked State\n"
		"[  207.431002] sysrq: Show backtrace of all active CPUs\n"
		"[  207.431120] NMI backtrace for cpu 0\n"
		"[  207.431180] CPU: 0 PID: 97 Comm: ioregress Not tainted 6.1.0-57-cloud-amd64 #1  Debian 6.1.192-3\n"
		"[  207.431200] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)\n"
		"[  207.431210] Call Trace:\n"
		"[  207.431220]  <IRQ>\n"
		"[  207.431230]  dump_stack_lvl+0x44/0x5c\n"
		"[  207.431240]  nmi_cpu_backtrace.cold+0x30/0x70\n"
		"[  207.431250]  </IRQ>\n"
		"[  207.431260]  <TASK>\n"
		"[  207.431270] RIP: 0033:0x7f2a1b3c4d5e\n"
		"[  207.431280] Code: 00 00 0f 05\n"
		"[  207.431290]  </TASK>\n";
	CU_ASSERT(ior_vm_blocked_head(user, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "sysrq w showed no blocked task; sysrq l: cpu 0 ran ioregress (pid 97) in user space at "
			       "0033:0x7f2a1b3c4d5e");
	static const char kernel[] =
		"[  206.9] sysrq: Loglevel set to 9\n"
		"[  207.1] sysrq: Show Blocked State\n"
		"[  207.4] NMI backtrace for cpu 0\n"
		"[  207.4] CPU: 0 PID: 97 Comm: ioregress Not tainted 6.1.0-57-cloud-amd64 #1\n"
		"[  207.4] Call Trace:\n"
		"[  207.4]  <IRQ>\n"
		"[  207.4]  nmi_cpu_backtrace.cold+0x30/0x70\n"
		"[  207.4]  </IRQ>\n"
		"[  207.4]  <TASK>\n"
		"[  207.4] RIP: 0010:kyber_get_domain_token+0x4b/0x170 [kyber_iosched]\n"
		"[  207.4] Code: 48 8b\n"
		"[  207.4]  kyber_dispatch_request+0x2f/0x90 [kyber_iosched]\n"
		"[  207.4]  ? kyber_has_work+0x10/0x20\n"
		"[  207.4]  __blk_mq_sched_dispatch_requests+0x8e/0x150\n"
		"[  207.4]  blk_mq_sched_dispatch_requests+0x30/0x60\n"
		"[  207.4]  </TASK>\n";
	CU_ASSERT(ior_vm_blocked_head(kernel, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "sysrq w showed no blocked task; sysrq l: cpu 0 ran ioregress (pid 97) in the kernel at "
			       "kyber_get_domain_token+0x4b/0x170 [kyber_iosched]: kyber_dispatch_request < "
			       "__blk_mq_sched_dispatch_requests < blk_mq_sched_dispatch_requests");
	CU_ASSERT(!ior_vm_blocked_head(NULL, out, sizeof(out)));
}

/* Nothing blocked, the CPU idle, and sysrq t (every task, as 6.1 prints it) says where the run's own
 * tasks sleep: init and kernel threads left out, and none of them taken for blocked (before, the w
 * list ran on into t's and named init "blocked" in state S). */
static void test_run_tasks_head(void)
{
	static const char console[] =
		"[   21.272693] sysrq: Loglevel set to 9\n"
		"[   21.672574] sysrq: Show Blocked State\n"
		"[   22.072562] sysrq: Show backtrace of all active CPUs\n"
		"[   22.072884] NMI backtrace for cpu 0\n"
		"[   22.073014] CPU: 0 PID: 0 Comm: swapper/0 Not tainted 6.1.0-47-cloud-amd64 #1  Debian 6.1.170-3\n"
		"[   22.076543]  <TASK>\n"
		"[   22.076736] RIP: 0010:native_safe_halt+0xb/0x10\n"
		"[   22.077656]  amd_e400_idle+0x3d/0x50\n"
		"[   22.077705]  default_idle_call+0x38/0xf0\n"
		"[   22.078159]  </TASK>\n"
		"[   22.472710] sysrq: Show State\n"
		"[   22.473042] task:init            state:S stack:0     pid:1     ppid:0      flags:0x00000002\n"
		"[   22.473100] Call Trace:\n"
		"[   22.473110]  __schedule+0x34d/0x9e0\n"
		"[   22.473120]  do_wait+0x160/0x2f0\n"
		"[   22.554253] task:kworker/u3:0    state:I stack:0     pid:60    ppid:2      flags:0x00004000\n"
		"[   22.554419] Call Trace:\n"
		"[   22.554770]  worker_thread+0xaf/0x380\n"
		"[   22.555190] task:ioregress       state:S stack:0     pid:96    ppid:1      flags:0x00000002\n"
		"[   22.555323] Call Trace:\n"
		"[   22.555379]  <TASK>\n"
		"[   22.555442]  __schedule+0x34d/0x9e0\n"
		"[   22.555534]  schedule+0x5a/0xd0\n"
		"[   22.555600]  schedule_hrtimeout_range_clock+0xd7/0x120\n"
		"[   22.555710]  ? __hrtimer_init+0xe0/0xe0\n"
		"[   22.555801]  do_sys_poll+0x535/0x600\n"
		"[   22.556108]  __x64_sys_poll+0xb7/0x140\n"
		"[   22.556184]  do_syscall_64+0x55/0x80\n"
		"[   22.556413]  entry_SYSCALL_64_after_hwframe+0x6e/0xd8\n"
		"[   22.556522] RIP: 0033:0x7fb209d64230\n"
		"[   22.557296]  </TASK>\n"
		"[   22.557344] task:sleep           state:S stack:0     pid:97    tgid:97   ppid:96     flags:0x00000002\n"
		"[   22.557480] Call Trace:\n"
		"[   22.557640]  schedule+0x5a/0xd0\n"
		"[   22.557698]  do_nanosleep+0x7b/0x130\n"
		"[   22.557765]  hrtimer_nanosleep+0x9e/0x170\n"
		"[   22.606846] Showing busy workqueues and worker pools:\n";
	char out[1024];
	CU_ASSERT(ior_vm_blocked_head(console, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "sysrq w showed no blocked task; sysrq l: cpu 0 ran swapper/0 (pid 0) in the kernel at "
				    "native_safe_halt+0xb/0x10: amd_e400_idle < default_idle_call; sysrq t, the run's tasks: "
				    "ioregress (pid 96) state:S: do_sys_poll < __x64_sys_poll; sleep (pid 97) state:S: "
				    "do_nanosleep < hrtimer_nanosleep");
}

/* qemu 7.2's answer as the console carries it (the monitor's echo left out), and what it means. */
static void test_virtqueue_head(void)
{
	static const char held[] =
		"ioregress-stuck vda\r\n(qemu) info virtio-queue-status ...\r\n"
		"/machine/peripheral-anon/device[0]/virtio-backend:\r\n  device_name:          virtio-blk\r\n"
		"  queue_index:          0\r\n  inuse:                1\r\n  used_idx:             2\r\n"
		"  signalled_used:       2\r\n  signalled_used_valid: true\r\n  last_avail_idx:       3\r\n"
		"  shadow_avail_idx:     3\r\n  VRing:\r\n";
	char out[300];
	CU_ASSERT_TRUE(ior_vm_virtqueue_head(held, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "qemu's virtqueue of vda: 1 in use, last_avail_idx 3, used_idx 2 (qemu still holds "
				    "them: the emulated disk never completed them)");
	static const char taken[] =
		"/machine/peripheral-anon/device[0]/virtio-backend:\n  inuse:                0\n"
		"  used_idx:             907\n  last_avail_idx:       907\n";
	CU_ASSERT_TRUE(ior_vm_virtqueue_head(taken, out, sizeof(out)));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "0 in use, last_avail_idx 907, used_idx 907 (qemu holds none: it completed "
					   "every request it took, so the guest missed the completions or qemu never "
					   "heard of the new requests)"));
	/* an older qemu: "unknown command", nothing said */
	CU_ASSERT_FALSE(ior_vm_virtqueue_head("(qemu) info virtio-queue-status x 0\nunknown command\n", out, sizeof(out)));
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_double_fault_head),
		IOR_TEST(test_corrupt_eflags_named),
		IOR_TEST(test_sysrq_head_has_no_user_rip),
		IOR_TEST(test_no_oops),
		IOR_TEST(test_blocked_head),
		IOR_TEST(test_run_tasks_head),
		IOR_TEST(test_virtqueue_head),
		IOR_TEST_END,
	};
	return ior_test_run("vm_oops", tests);
}
