/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The head of a kernel oops in a console log: the fault line, RIP and the first frames, for a
 * panic's recorded reason. */
#include "vm/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines that open an oops or a panic, earliest first wins: the last line of a panic
 * ("Kernel Offset: ...", "end Kernel panic") says nothing of what went wrong. */
static const char *const heads[] = {
	"BUG: ", "Oops: ", "general protection fault", "traps: ", "double fault", "kernel BUG at",
	"Unable to handle", "WARNING: CPU", "sysrq: Trigger a crash", "Kernel panic",
};

/* The line at p without its "[    1.234567] " time stamp and trailing blanks. */
static void line_at(const char *p, char *out, size_t len)
{
	const char *end = p + strcspn(p, "\r\n");
	if (*p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p));
		if (close)
			p = close + 1;
	}
	while (p < end && *p == ' ')
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	snprintf(out, len, "%.*s", (int)(end - p), p);
}

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');
	return nl ? nl + 1 : NULL;
}

static void append(char *out, size_t len, const char *sep, const char *text)
{
	size_t used = strlen(out);
	if (used < len)
		snprintf(out + used, len - used, "%s%s", used ? sep : "", text);
}

/* A frame line ("? foo+0x12/0x40" or "foo+0x12/0x40 [mod]"): its function name in fn. */
static bool frame(const char *line, char *fn, size_t len)
{
	if (!strncmp(line, "? ", 2))
		return false; /* a guess of the unwinder, not a frame */
	const char *plus = strstr(line, "+0x"), *space = strchr(line, ' ');
	if (!plus || plus == line || (space && space < plus))
		return false;
	snprintf(fn, len, "%.*s", (int)(plus - line), line);
	return true;
}

/* The faulting context's saved EFLAGS (the register line after its RIP): one with a reserved bit
 * set (1 clear, or 3, 5, 15 or 22-31 set) is no state an x86 CPU saves. The double faults in TCG
 * guests under io_submit showed 552f3602, the upper half of a register beside it: the emulated
 * CPU's state was corrupt, which points at qemu rather than the kernel, and the reason says so. */
static void corrupt_flags(const char *hex, char *out, size_t len)
{
	char *end;
	unsigned long v = strtoul(hex, &end, 16);
	if (end == hex || ((v & 0x2) && !(v & 0xffc08028UL)))
		return;
	char text[200];
	snprintf(text, sizeof(text), "EFLAGS %.*s has reserved bits set, which no x86 CPU saves: the (emulated) "
		 "CPU's state was corrupt", (int)(end - hex), hex);
	append(out, len, "; ", text);
}

void ior_vm_oops_head(const char *console, char *out, size_t len)
{
	out[0] = '\0';
	if (!console)
		return;
	const char *start = NULL;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		const char *p = strstr(console, heads[i]);
		if (p && (!start || p < start))
			start = p;
	}
	if (!start)
		return;
	while (start > console && start[-1] != '\n')
		start--;
	char line[256], fn[128];
	line_at(start, line, sizeof(line));
	append(out, len, "", line);
	/* the panic's own line says why it panicked when the head is what led to it */
	const char *panic = strstr(start, "Kernel panic - not syncing");
	if (panic && panic > start + strcspn(start, "\n")) {
		char why[200];
		line_at(panic, why, sizeof(why));
		append(out, len, "; ", why);
	}
	/* the fault's RIP and the first frames of its trace, within the oops's next 60 lines */
	bool rip = false, trace = false, flags = false;
	int frames = 0, n = 0;
	for (const char *p = next_line(start); p && *p && n < 60 && frames < 4; p = next_line(p), n++) {
		line_at(p, line, sizeof(line));
		const char *ef = rip && !flags ? strstr(line, "EFLAGS: ") : NULL;
		if (ef) {
			flags = true;
			corrupt_flags(ef + 8, out, len);
		} else if (!rip && !strncmp(line, "RIP: ", 5) && strncmp(line + 5, "0033:", 5)) { /* 0033: a user task's */
			const char *r = line + 5; /* "0010:" is the kernel's code segment */
			if (strspn(r, "0123456789abcdef") == 4 && r[4] == ':')
				r += 5;
			char rip_text[160];
			snprintf(rip_text, sizeof(rip_text), "RIP: %s", r);
			append(out, len, "; ", rip_text);
			rip = true;
		} else if (!trace && strstr(line, "Call Trace:")) {
			trace = true;
		} else if (trace && frame(line, fn, sizeof(fn))) {
			append(out, len, frames ? " < " : "; trace: ", fn);
			frames++;
		} else if (trace && frames && (!strncmp(line, "</TASK>", 7) || !strncmp(line, "---[", 4))) {
			break;
		}
	}
}

/* After sysrq l (backtrace of the active CPUs), what each CPU was running when the NMI came: "sysrq l:
 * cpu 0 ran ioregress (pid 97) in user space at 0033:0x7f..." or "... in the kernel at fn+0x..: f1 <
 * f2", the frames after the interrupt's own (</IRQ>). A task spinning where sysrq w shows nothing
 * blocked (a process retrying a refused call, a kernel livelock) is told apart from an idle CPU
 * (swapper: the task sleeps on something that never wakes it). */
static bool running_head(const char *from, char *out, size_t len)
{
	out[0] = '\0';
	const char *start = strstr(from, "NMI backtrace for cpu");
	if (!start)
		return false;
	char line[256], fn[128], comm[64] = "?", pid[16] = "?", cpu[8] = "?";
	int frames = 0, n = 0;
	bool task = false, rip = false;
	sscanf(strstr(start, "cpu") + 3, " %7s", cpu);
	for (const char *p = next_line(start); p && *p && n < 60; p = next_line(p), n++) {
		line_at(p, line, sizeof(line));
		const char *c = strstr(line, " Comm: "), *pp = strstr(line, " PID: ");
		if (!strncmp(line, "CPU: ", 5) && c && pp) {
			sscanf(c + 7, "%63s", comm);
			sscanf(pp + 6, "%15s", pid);
		} else if (!strncmp(line, "</IRQ>", 6) || !strncmp(line, "<TASK>", 6)) {
			task = true;
		} else if (!rip && !strncmp(line, "RIP: ", 5) && (task || strstr(line, "0033:"))) {
			char where[160];
			bool user = !strncmp(line + 5, "0033:", 5);
			snprintf(where, sizeof(where), "sysrq l: cpu %s ran %s (pid %s) in %s at %s", cpu, comm, pid,
				 user ? "user space" : "the kernel", line + 5 + (user ? 0 : 5));
			append(out, len, "", where);
			rip = true;
			if (user)
				break;
		} else if (rip && frames < 4 && frame(line, fn, sizeof(fn))) {
			append(out, len, frames ? " < " : ": ", fn);
			frames++;
		} else if (rip && (!strncmp(line, "</TASK>", 7) || strstr(line, "NMI backtrace for cpu"))) {
			break;
		}
	}
	if (!rip && strcmp(comm, "?"))
		snprintf(out, len, "sysrq l: cpu %s ran %s (pid %s)", cpu, comm, pid);
	return out[0] != '\0';
}

/* The lines of one sysrq dump: from after the line holding header to the next sysrq line (the
 * next key's header) or the end. NULL when the console holds no such header. */
static const char *dump_section(const char *console, const char *header, const char **end)
{
	const char *start = console ? strstr(console, header) : NULL;
	if (!start)
		return NULL;
	start = next_line(start);
	*end = start ? strstr(start, "sysrq: ") : NULL;
	if (!*end)
		*end = start ? start + strlen(start) : console + strlen(console);
	return start ? start : *end;
}

/* The scheduler's own frames, the same in every sleeping task's trace, and the system call's entry:
 * left out, so the frames shown say what the task waits for. */
static bool says_nothing(const char *fn)
{
	return !strcmp(fn, "__schedule") || !strcmp(fn, "schedule") || !strncmp(fn, "schedule_", 9) ||
	       !strncmp(fn, "io_schedule", 11) || !strcmp(fn, "do_syscall_64") || !strncmp(fn, "entry_SYSCALL", 13);
}

/* The tasks a sysrq dump lists in [p, end) ("task:NAME state:X stack:0 pid:N ppid:N ..." and its
 * trace), each as "NAME (pid N) state:X: f1 < f2 < f3 < f4", at most max of them; user_only: the
 * run's own (neither init, pid 1, nor a kernel thread, whose parent is kthreadd, pid 2, or none). */
static int list_tasks(const char *p, const char *end, bool user_only, int max, char *out, size_t len)
{
	char line[256], fn[128];
	int tasks = 0, frames = 0;
	bool shown = false, trace = false;
	for (; p && p < end && *p; p = next_line(p)) {
		line_at(p, line, sizeof(line));
		if (!strncmp(line, "task:", 5)) {
			char comm[64] = "?", state[8] = "?";
			long pid = -1, ppid = -1;
			sscanf(line + 5, "%63s", comm);
			const char *st = strstr(line, " state:"), *pp = strstr(line, " pid:"), *ppp = strstr(line, " ppid:");
			if (st)
				sscanf(st + 7, "%7s", state);
			if (pp)
				pid = strtol(pp + 5, NULL, 10);
			if (ppp)
				ppid = strtol(ppp + 6, NULL, 10);
			shown = tasks < max && (!user_only || (pid > 1 && ppid != 0 && ppid != 2));
			if (shown) {
				char head[128];
				snprintf(head, sizeof(head), "%s (pid %ld) state:%s", comm, pid, state);
				append(out, len, "; ", head);
				tasks++;
			}
			frames = 0, trace = false;
		} else if (shown && !trace && strstr(line, "Call Trace:")) {
			trace = true;
		} else if (shown && trace && frames < 4 && frame(line, fn, sizeof(fn)) && !says_nothing(fn)) {
			append(out, len, frames ? " < " : ": ", fn);
			frames++;
		}
	}
	return tasks;
}

bool ior_vm_blocked_head(const char *console, char *out, size_t len)
{
	out[0] = '\0';
	const char *end, *start = dump_section(console, "Show Blocked State", &end);
	if (!start)
		return false;
	char tasks[512] = "";
	if (list_tasks(start, end, false, 3, tasks, sizeof(tasks))) {
		snprintf(out, len, "blocked: %s", tasks);
		return true;
	}
	/* "no blocked task" is a finding only where the console showed everything (sysrq 9 before w):
	 * under `quiet` the list never reaches the console */
	bool loud = strstr(console, "Loglevel set to 9") != NULL;
	snprintf(out, len, loud ? "sysrq w showed no blocked task" : "sysrq w listed nothing at the console's log level");
	char running[512];
	if (running_head(start, running, sizeof(running)))
		append(out, len, "; ", running);
	/* then where the run's own tasks sleep (sysrq t): a wait whose wake-up never comes (a timer
	 * that does not fire, a completion that never arrives) shows its function here */
	const char *state = dump_section(console, "sysrq: Show State", &end);
	if (state && list_tasks(state, end, true, 3, tasks, sizeof(tasks)))
		append(out, len, "; sysrq t, the run's tasks: ", tasks);
	else if (!running[0])
		append(out, len, " ", "(the guest's tasks were running or it was frozen)");
	return true;
}
