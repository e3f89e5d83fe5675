/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The head of a kernel oops in a console log: the fault line, RIP and the first frames, for a
 * panic's recorded reason. */
#include "vm/internal.h"

#include <stdio.h>
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
	bool rip = false, trace = false;
	int frames = 0, n = 0;
	for (const char *p = next_line(start); p && *p && n < 60 && frames < 4; p = next_line(p), n++) {
		line_at(p, line, sizeof(line));
		if (!rip && !strncmp(line, "RIP: ", 5) && strncmp(line + 5, "0033:", 5)) { /* 0033: a user task's */
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

bool ior_vm_blocked_head(const char *console, char *out, size_t len)
{
	out[0] = '\0';
	const char *start = console ? strstr(console, "Show Blocked State") : NULL;
	if (!start)
		return false;
	char line[256], fn[128];
	int tasks = 0, frames = 0, n = 0;
	bool trace = false;
	for (const char *p = next_line(start); p && *p && n < 80 && tasks <= 2; p = next_line(p), n++) {
		line_at(p, line, sizeof(line));
		if (!strncmp(line, "task:", 5)) {   /* "task:ioregress state:D stack:0 pid:97 ..." */
			char *cut = strstr(line, " stack:");
			if (cut)
				*cut = '\0';
			if (!tasks)
				append(out, len, "", "blocked: ");
			append(out, len, tasks ? "; " : "", line + 5);
			tasks++, frames = 0, trace = false;
		} else if (tasks && !trace && strstr(line, "Call Trace:")) {
			trace = true;
		} else if (trace && frames < 5 && frame(line, fn, sizeof(fn))) {
			append(out, len, frames ? " < " : ": ", fn);
			frames++;
		}
	}
	if (!tasks)
		snprintf(out, len, "sysrq w showed no blocked task (the guest's tasks were running or it was frozen)");
	return true;
}
