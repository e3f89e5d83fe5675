/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The local kind of target: this machine across its own reboots. A one-shot systemd unit runs the
 * same vm run again at every boot, which takes the stored plan over and does its next step: check
 * what booted, measure, boot the next kernel (kexec, or GRUB's one-time entry); at the end the unit
 * is removed and the machine boots its default kernel. A power loss resumes at the next boot. */
#include "vm/target.h"

#include "common/error.h"
#include "common/spawn.h"
#include "db/db.h"
#include "db/target_plan.h"
#include "kernel/info.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Where the unit lives, and the link that makes multi-user.target start it at every boot. Written
 * by hand rather than with `systemctl enable` so that nothing depends on the manager's state. */
#define UNIT_NAME "ioregress-local.service"
#define UNIT_DIR "/etc/systemd/system"
#define UNIT_PATH UNIT_DIR "/" UNIT_NAME
#define UNIT_LINK UNIT_DIR "/multi-user.target.wants/" UNIT_NAME
/* What the unit's process writes on its way (the journal has it too). */
#define UNIT_LOG "/var/log/ioregress-local.log"
/* The state kept beside the unit across reboots: when the boot command was given (boot_s). */
#define STATE_DIR "/var/lib/ioregress-local"
#define BOOTED_AT STATE_DIR "/boot-command-at"

/* The release the machine ran when the plan began: its default kernel, booted again at the end. */
#define DEFAULT_ENV "IOR_LOCAL_DEFAULT"
/* Set in the unit's environment: this process was started by the unit at a boot. */
#define UNIT_ENV "IOR_LOCAL_UNIT"

#define SHORT_S 120.0
#define INSTALL_S 1800.0

struct local_target {
	const struct ior_vm_run_opts *o;
	char self[PATH_MAX];          /* this binary, as the unit starts it */
	char default_release[128];
	char release[128], boot_id[64];
};

static struct local_target *of(struct ior_vm_target *t)
{
	return t->priv;
}

static void say(const struct ior_vm_target *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct ior_vm_target *t, const char *fmt, ...)
{
	const struct local_target *l = t->priv;
	if (l && l->o && !l->o->progress)
		return;
	fprintf(stderr, "vm: local: ");
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A tool of the machine's, its output discarded; fails naming what unless it exits 0. */
static int tool(const char *const *argv, double limit, const char *what)
{
	struct ior_spawn c = { .argv = argv, .out_to = IOR_SPAWN_OUT_NULL, .limit_s = limit };
	int rc = ior_spawn_run(&c);
	if (!rc)
		rc = ior_spawn_check(&c, what);
	ior_spawn_free(&c);
	return rc;
}

/* A tool's stdout (trailing newlines cut) into out; fails unless it exits 0. */
static int tool_out(const char *const *argv, double limit, const char *what, char *out, size_t len)
{
	struct ior_spawn c = { .argv = argv, .out_to = IOR_SPAWN_OUT_CAPTURE, .limit_s = limit, .max_out = 1 << 20 };
	int rc = ior_spawn_run(&c);
	if (!rc)
		rc = ior_spawn_check(&c, what);
	snprintf(out, len, "%s", !rc && c.out ? c.out : "");
	for (size_t l = strlen(out); l && out[l - 1] == '\n';)
		out[--l] = '\0';
	ior_spawn_free(&c);
	return rc;
}

static void where_now(struct local_target *l)
{
	struct utsname u;
	uname(&u);
	snprintf(l->release, sizeof(l->release), "%s", u.release);
	ior_kernel_boot_id(l->boot_id, sizeof(l->boot_id));
}

/* One argument as systemd's ExecStart= reads it: double-quoted, with \ and " escaped, and the
 * specifier and variable characters doubled. */
static int unit_quote(const char *s, char *out, size_t len)
{
	size_t o = 0;
	if (len < 3)
		return ior_error_set(IOR_ERROR, "no room for the unit's command line");
	out[o++] = '"';
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			return ior_error_set(IOR_EINVALID, "an argument with a line break cannot go into the unit's command line");
		const char *rep = *s == '"' ? "\\\"" : *s == '\\' ? "\\\\" : *s == '%' ? "%%" : *s == '$' ? "$$" : NULL;
		char one[2] = { *s, '\0' };
		const char *add = rep ? rep : one;
		size_t n = strlen(add);
		if (o + n + 2 > len)
			return ior_error_set(IOR_ERROR, "the unit's command line is too long");
		memcpy(out + o, add, n);
		o += n;
	}
	out[o++] = '"';
	out[o] = '\0';
	return IOR_OK;
}

/* This process's command line, argv[0] made this binary's absolute path: what the unit runs at every
 * boot (the driver takes the stored plan over instead of starting another). */
static int own_command_line(const struct local_target *l, char *out, size_t len)
{
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot read /proc/self/cmdline");
	static char raw[32768];
	ssize_t n = read(fd, raw, sizeof(raw) - 1);
	close(fd);
	if (n <= 0 || n == (ssize_t)sizeof(raw) - 1)
		return ior_error_set(IOR_ERROR, "cannot read this process's command line");
	raw[n] = '\0';
	size_t o = 0;
	int rc = IOR_OK;
	for (const char *a = raw; !rc && a < raw + n; a += strlen(a) + 1) {
		char q[8192];
		rc = unit_quote(a == raw ? l->self : a, q, sizeof(q));
		if (!rc && o + strlen(q) + 2 > len)
			rc = ior_error_set(IOR_ERROR, "the unit's command line is too long");
		if (!rc)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", q);
	}
	return rc;
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	FILE *f = fopen(tmp, "we");
	if (!f)
		return ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", tmp);
	fputs(text, f);
	int bad = fflush(f) != 0 || fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || chmod(tmp, mode) != 0 || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		return ior_error_errno(IOR_ERROR, e, "cannot write '%s'", path);
	}
	return IOR_OK;
}

/* The environment the unit's process needs to find what this one found: that the unit started it,
 * the default kernel, and where the kernel cache is (HOME or XDG_CACHE_HOME) and the tools (PATH). */
static void unit_environment(const struct local_target *l, char *out, size_t len)
{
	size_t o = (size_t)snprintf(out, len, "Environment=" UNIT_ENV "=1\nEnvironment=" DEFAULT_ENV "=%s\n",
				    l->default_release);
	static const char *const passed[] = { "HOME", "XDG_CACHE_HOME", "PATH" };
	for (size_t i = 0; i < sizeof(passed) / sizeof(*passed) && o < len; i++) {
		const char *v = getenv(passed[i]);
		char q[4096];
		if (v && *v && !strchr(v, '\n') && !strchr(v, '"') && strlen(v) < 2000 &&
		    unit_quote(v, q + 0, sizeof(q)) == IOR_OK)
			o += (size_t)snprintf(out + o, len - o, "Environment=\"%s=%.*s\"\n", passed[i], (int)strlen(q) - 2, q + 1);
	}
}

/* The unit, written once (before the first boot command) and left until the plan ends. */
static int install_unit(struct ior_vm_target *t, struct local_target *l)
{
	struct stat st;
	if (stat(UNIT_PATH, &st) == 0 && lstat(UNIT_LINK, &st) == 0)
		return IOR_OK;
	static char cmd[40000], env[12000], unit[60000];
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return ior_error_errno(IOR_ERROR, errno, "cannot read the working directory");
	int rc = own_command_line(l, cmd, sizeof(cmd));
	if (rc)
		return rc;
	/* WorkingDirectory= takes the path as it is (no quotes), with only the specifiers' '%' doubled */
	char qcwd[PATH_MAX * 2 + 8];
	size_t q = 0;
	for (const char *c = cwd; *c && q + 3 < sizeof(qcwd); c++) {
		if (*c == '\n')
			return ior_error_set(IOR_EINVALID, "the working directory's name has a line break");
		if (*c == '%')
			qcwd[q++] = '%';
		qcwd[q++] = *c;
	}
	qcwd[q] = '\0';
	unit_environment(l, env, sizeof(env));
	snprintf(unit, sizeof(unit),
		 "# Written by ioregress vm run --target local: runs the plan's next step at every boot.\n"
		 "# Removed when the plan ends, by `ioregress recover` and by the run's abort.\n"
		 "[Unit]\n"
		 "Description=ioregress: the next step of a vm run --target local\n"
		 "After=multi-user.target\n"
		 "\n[Service]\n"
		 "Type=oneshot\n"
		 "WorkingDirectory=%s\n"
		 "%s"
		 "ExecStart=%s\n"
		 "StandardOutput=append:" UNIT_LOG "\n"
		 "StandardError=append:" UNIT_LOG "\n"
		 "TimeoutStartSec=infinity\n"
		 "\n[Install]\n"
		 "WantedBy=multi-user.target\n",
		 qcwd, env, cmd);
	if (mkdir(UNIT_DIR "/multi-user.target.wants", 0755) != 0 && errno != EEXIST)
		return ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", UNIT_DIR "/multi-user.target.wants");
	if ((rc = write_file(UNIT_PATH, unit, 0644)))
		return rc;
	unlink(UNIT_LINK);
	if (symlink(UNIT_PATH, UNIT_LINK) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", UNIT_LINK);
	say(t, "installed %s: the plan goes on at every boot until it ends", UNIT_PATH);
	return IOR_OK;
}

/* Removes the unit and the state beside it; true when there was one. */
static bool remove_unit(void)
{
	bool had = access(UNIT_PATH, F_OK) == 0;
	unlink(UNIT_LINK);
	unlink(UNIT_PATH);
	unlink(BOOTED_AT);
	rmdir(STATE_DIR);
	sync();
	return had;
}

/* The release the unit says the machine boots by default, "" when there is no unit. */
static void unit_default(char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen(UNIT_PATH, "re");
	char line[1024];
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Environment=" DEFAULT_ENV "=", strlen("Environment=" DEFAULT_ENV "="))) {
			snprintf(out, len, "%.*s", (int)strcspn(line + strlen("Environment=" DEFAULT_ENV "="), "\n"),
				 line + strlen("Environment=" DEFAULT_ENV "="));
			break;
		}
	if (f)
		fclose(f);
}

static int local_open(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_run_opts *o)
{
	struct local_target *l = calloc(1, sizeof(*l));
	if (!l)
		return ior_error_set(IOR_ERROR, "out of memory");
	t->priv = l;
	l->o = o;
	/* the consent is on the command line, which the unit replays at every boot */
	if (!t->opts.reboot_this_machine)
		return ior_error_set(IOR_EREFUSED, "--target local reboots this machine into each kernel, %s, and leaves a "
				     "systemd unit that goes on at every boot until the plan ends: give --reboot-this-machine "
				     "to confirm (never on a machine you cannot power-cycle)",
				     t->opts.boot == IOR_VM_TARGET_KEXEC ? "with kexec" : "with GRUB's one-time entry");
	if (geteuid() != 0)
		return ior_error_set(IOR_EREFUSED, "--target local installs kernels and a systemd unit: run it as root");
	if (access("/run/systemd/system", F_OK) != 0)
		return ior_error_set(IOR_EUNSUPPORTED, "--target local needs systemd as init (/run/systemd/system is missing)");
	if (t->opts.boot == IOR_VM_TARGET_KEXEC && !ior_spawn_in_path("kexec") && access("/usr/sbin/kexec", X_OK) != 0 &&
	    access("/sbin/kexec", X_OK) != 0)
		return ior_error_set(IOR_EUNSUPPORTED, "no kexec on this machine: install kexec-tools, or give --boot bootloader");
	if (t->opts.boot == IOR_VM_TARGET_BOOTLOADER && !ior_spawn_in_path("grub-reboot") &&
	    access("/usr/sbin/grub-reboot", X_OK) != 0)
		return ior_error_set(IOR_EUNSUPPORTED, "no grub-reboot on this machine for --boot bootloader");
	/* Started by the unit with no plan left to go on with (it was aborted, or ended while the unit
	 * could not be removed): the unit must not start the whole plan again at every boot. */
	struct ior_db_target_plan p;
	int rc = getenv(UNIT_ENV) ? ior_db_target_plan_running(db, t->opts.url.name, &p) : IOR_OK;
	if (rc == IOR_OK && getenv(UNIT_ENV))
		ior_db_target_plan_free(&p);
	if (rc == IOR_ENOTFOUND) {
		remove_unit();
		return ior_error_set(IOR_EREFUSED, "started by %s with no plan running in '%s': the unit is removed",
				     UNIT_NAME, ior_db_path(db));
	}
	if (rc)
		return rc;
	ssize_t n = readlink("/proc/self/exe", l->self, sizeof(l->self) - 1);
	if (n <= 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot read /proc/self/exe");
	l->self[n] = '\0';
	where_now(l);
	/* At a later boot, the release the plan began on is the unit's (the machine may run a test kernel). */
	unit_default(l->default_release, sizeof(l->default_release));
	if (!l->default_release[0] && getenv(DEFAULT_ENV))
		snprintf(l->default_release, sizeof(l->default_release), "%s", getenv(DEFAULT_ENV));
	if (!l->default_release[0])
		snprintf(l->default_release, sizeof(l->default_release), "%s", l->release);
	struct utsname u;
	uname(&u);
	snprintf(t->host, sizeof(t->host), "%s", u.nodename);
	snprintf(t->machine, sizeof(t->machine), "%s", u.machine);
	snprintf(t->accel, sizeof(t->accel), "-");
	snprintf(t->accel_reason, sizeof(t->accel_reason), "this machine");
	say(t, "%s running %s (default %s), boot %s", t->host, l->release, l->default_release, l->boot_id);
	return IOR_OK;
}

/* The package's installed version here, "" when it is not installed. */
static void installed_version(const char *package, char *version, size_t len)
{
	char out[300] = "";
	version[0] = '\0';
	if (tool_out((const char *const[]){ "dpkg-query", "-W", "-f=${db:Status-Abbrev} ${Version}", package, NULL },
		     SHORT_S, "dpkg-query", out, sizeof(out)) == IOR_OK && !strncmp(out, "ii ", 3))
		snprintf(version, len, "%s", out + 3 + strspn(out + 3, " "));
	ior_error_clear();
}

static int local_prepare(struct ior_vm_target *t, struct ior_db *db, struct ior_vm_target_kernel *k)
{
	if (!k->k.deb[0]) {
		snprintf(k->error, sizeof(k->error), "'%s': --target local boots Debian packages (a built image is not "
			 "installable here yet)", k->k.spec);
		return IOR_OK;
	}
	char have[128];
	installed_version(k->k.package, have, sizeof(have));
	int rc = IOR_OK;
	if (strcmp(have, k->k.package_version) != 0) {
		say(t, "%s: installing %s", k->k.spec, k->k.package_version);
		struct utsname u;
		uname(&u);
		char boot[64];
		ior_kernel_boot_id(boot, sizeof(boot));
		int64_t host_id = 0, id = 0;
		rc = ior_db_host_get(db, u.nodename, u.machine, &host_id);
		/* recorded before dpkg runs: a run killed in the middle leaves it to recover */
		if (!rc)
			rc = ior_db_target_install_add(db, t->opts.url.name, k->k.package, k->k.package_version, k->k.release,
						       host_id, (int)getpid(), boot, &id);
		if (!rc) {
			struct ior_spawn c = { .argv = (const char *const[]){ "dpkg", "-i", k->k.deb, NULL },
					       .env = (const char *const[]){ "DEBIAN_FRONTEND=noninteractive", NULL },
					       .out_to = IOR_SPAWN_OUT_STDERR, .limit_s = INSTALL_S };
			rc = ior_spawn_run(&c);
			if (!rc)
				rc = ior_spawn_check(&c, "dpkg -i");
			ior_spawn_free(&c);
		}
	} else {
		say(t, "%s: %s is installed already (left as it is at the end)", k->k.spec, have);
	}
	char image[300];
	snprintf(image, sizeof(image), "/boot/vmlinuz-%s", k->k.release);
	if (!rc && access(image, R_OK) != 0)
		rc = ior_error_set(IOR_ENOTFOUND, "no %s after installing %s", image, k->k.spec);
	if (rc == IOR_EINTERRUPTED)
		return rc;
	if (rc) {
		snprintf(k->error, sizeof(k->error), "%s", ior_error_last());
		return IOR_OK;
	}
	k->ready = true;
	return IOR_OK;
}

/* GRUB's one-time entry for release: "SUBMENU>TITLE" of the entry whose title ends "with Linux
 * RELEASE", read from grub.cfg, never guessed. */
static int grub_entry(const char *release, char *out, size_t len)
{
	FILE *f = fopen("/boot/grub/grub.cfg", "re");
	if (!f)
		return ior_error_errno(IOR_ENOTFOUND, errno, "cannot read /boot/grub/grub.cfg for --boot bootloader");
	char line[2048], submenu[512] = "", want[200];
	snprintf(want, sizeof(want), "with Linux %s'", release);
	int rc = IOR_ENOTFOUND;
	while (rc && fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " \t");
		bool sub = !strncmp(p, "submenu '", 9), entry = !strncmp(p, "menuentry '", 11);
		if (!sub && !entry)
			continue;
		const char *title = strchr(p, '\'') + 1, *end = strchr(title, '\'');
		if (!end)
			continue;
		if (sub && !submenu[0])
			snprintf(submenu, sizeof(submenu), "%.*s", (int)(end - title), title);
		else if (entry && (size_t)(end - title) + 1 >= strlen(want) &&
			 !strncmp(end + 1 - strlen(want), want, strlen(want))) {
			snprintf(out, len, "%s%s%.*s", submenu, submenu[0] ? ">" : "", (int)(end - title), title);
			rc = IOR_OK;
		}
	}
	fclose(f);
	return rc ? ior_error_set(IOR_ENOTFOUND, "/boot/grub/grub.cfg has no entry 'with Linux %s'", release) : IOR_OK;
}

/* The boot command: the kernel loaded (kexec) or chosen for the next boot only (grub-reboot), the
 * time noted, then systemd asked to kexec or reboot without waiting for it. */
static int boot_into(struct ior_vm_target *t, const char *release)
{
	int rc;
	char image[300], initrd[320], initrd_opt[340];
	snprintf(image, sizeof(image), "/boot/vmlinuz-%s", release);
	snprintf(initrd, sizeof(initrd), "/boot/initrd.img-%s", release);
	snprintf(initrd_opt, sizeof(initrd_opt), "--initrd=%s", initrd);
	if (t->opts.boot == IOR_VM_TARGET_KEXEC) {
		bool has_initrd = access(initrd, R_OK) == 0;
		rc = tool((const char *const[]){ "kexec", "-l", image, "--reuse-cmdline", has_initrd ? initrd_opt : NULL, NULL },
			  SHORT_S, "kexec -l");
	} else {
		char entry[1100];
		rc = grub_entry(release, entry, sizeof(entry));
		if (!rc)
			rc = tool((const char *const[]){ "grub-reboot", entry, NULL }, SHORT_S, "grub-reboot");
	}
	if (!rc && mkdir(STATE_DIR, 0700) != 0 && errno != EEXIST)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", STATE_DIR);
	if (!rc) {
		char now[32];
		snprintf(now, sizeof(now), "%lld\n", (long long)time(NULL));
		rc = write_file(BOOTED_AT, now, 0600);
	}
	sync();
	if (!rc)
		rc = tool((const char *const[]){ "systemctl", "--no-block",
						 t->opts.boot == IOR_VM_TARGET_KEXEC ? "kexec" : "reboot", NULL },
			  SHORT_S, "systemctl");
	return rc;
}

/* Seconds since the boot command (the state file's time), -1 when unknown. */
static double since_boot_command(void)
{
	FILE *f = fopen(BOOTED_AT, "re");
	long long at = 0;
	int got = f ? fscanf(f, "%lld", &at) : 0;
	if (f)
		fclose(f);
	return got == 1 && at > 0 ? (double)(time(NULL) - at) : -1;
}

/* The head of the previous boot's kernel log (a failed kernel's), appended to reason. */
static void previous_boot_log(char *reason, size_t len)
{
	char out[700] = "";
	struct ior_spawn c = { .shell = "journalctl -k -b -1 -o cat --no-pager 2>/dev/null | grep -iE "
					"'panic|oops|error|fail|not syncing|unable' | head -n 4 | tr '\\n' '|'",
			       .out_to = IOR_SPAWN_OUT_CAPTURE, .limit_s = SHORT_S, .max_out = 4096 };
	if (ior_spawn_run(&c) == IOR_OK && c.out && c.out[0])
		snprintf(out, sizeof(out), "%s", c.out);
	ior_spawn_free(&c);
	if (out[0]) {
		size_t l = strlen(reason);
		snprintf(reason + l, len - l, "; the previous boot's kernel log: %s", out);
	}
}

/* This machine's ioregress runs the matrix into a database of its own in dir. */
static int measure(struct ior_vm_target *t, struct local_target *l, const char *dir, struct ior_vm_boot *b)
{
	snprintf(b->guest_db, sizeof(b->guest_db), "%s/target.db", dir);
	unlink(b->guest_db);
	struct ior_spawn c = {
		.argv = (const char *const[]){ l->self, "--db", b->guest_db, "run", l->o->guest.matrix, "--quiet", NULL },
		.out_to = IOR_SPAWN_OUT_STDERR,
		.limit_s = t->opts.run_timeout_s,
		.flags = IOR_SPAWN_DIE_WITH_US,
	};
	int rc = ior_spawn_run(&c);
	if (!rc) {
		b->guest_status = c.timed_out ? 124 : WIFEXITED(c.status) ? WEXITSTATUS(c.status) : 128 + WTERMSIG(c.status);
		if (b->guest_status) {
			size_t n = strlen(c.err);
			while (n && c.err[n - 1] == '\n')
				c.err[--n] = '\0';
			const char *last = strrchr(c.err, '\n');
			snprintf(b->reason, sizeof(b->reason), "ioregress run %s %d: %s", c.timed_out ? "passed --timeout, status" :
				 "exited", b->guest_status, last ? last + 1 : c.err);
		}
	}
	ior_spawn_free(&c);
	return rc;
}

/* This boot's kernel log, as qemu's console is kept (cut at 256 KiB). */
static void kernel_log(struct ior_vm_boot *b)
{
	struct ior_spawn c = { .argv = (const char *const[]){ "dmesg", NULL }, .out_to = IOR_SPAWN_OUT_CAPTURE,
			       .limit_s = SHORT_S, .max_out = 256 << 10 };
	if (ior_spawn_run(&c) == IOR_OK && c.out) {
		b->console = c.out;
		b->console_len = c.out_len;
		c.out = NULL;
	}
	ior_spawn_free(&c);
}

/* A step whose boot command went out: did the expected kernel come up as a new boot? Then measure. */
static int after_boot(struct ior_vm_target *t, struct local_target *l, struct ior_db *db,
		      const struct ior_vm_target_kernel *k, const struct ior_db_target_step *step, int round,
		      const char *dir, struct ior_vm_boot *b)
{
	b->boot_s = since_boot_command();
	snprintf(b->boot_id, sizeof(b->boot_id), "%s", l->boot_id);
	bool same = step->from_boot_id && !strcmp(step->from_boot_id, l->boot_id);
	if (same || strcmp(l->release, k->k.release) != 0) {
		b->outcome = IOR_VM_BOOT_FAILED;
		if (same)
			snprintf(b->reason, sizeof(b->reason), "the machine did not boot again (boot %s as before the boot "
				 "command)", l->boot_id);
		else
			snprintf(b->reason, sizeof(b->reason), "the machine came back running %s, not %s", l->release,
				 k->k.release);
		previous_boot_log(b->reason, sizeof(b->reason));
		return IOR_OK;
	}
	say(t, "%s round %d: booted as %s %.0f s after the boot command; measuring", k->k.spec, round, l->release,
	    b->boot_s);
	kernel_log(b);
	if (l->o->boot_only || !l->o->guest.matrix) {
		b->outcome = IOR_VM_OK;
		return IOR_OK;
	}
	int rc = ior_db_target_step_set(db, step->id, "measuring", step->tries, 0, NULL, NULL);
	if (!rc)
		rc = measure(t, l, dir, b);
	if (!rc)
		b->outcome = b->guest_status == 0 ? IOR_VM_OK : IOR_VM_TEST_FAILED;
	return rc;
}

static int local_boot(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_target_kernel *k,
		      const struct ior_db_target_step *step, int round, const char *dir, struct ior_vm_boot *b)
{
	struct local_target *l = of(t);
	if (!step)
		return ior_error_set(IOR_ERROR, "--target local boots only from a stored plan");
	double t0 = (double)time(NULL);
	where_now(l);
	int rc = IOR_OK;
	if (!strcmp(step->state, "booting")) {
		rc = after_boot(t, l, db, k, step, round, dir, b);
		/* a failed boot (a panic's reset, a power loss) is tried again, as a lost boot over SSH */
		if (!rc && b->outcome == IOR_VM_BOOT_FAILED && (unsigned)step->tries <= t->opts.retries) {
			say(t, "%s round %d: %s; trying again (%d of %u)", k->k.spec, round, b->reason, step->tries + 1,
			    t->opts.retries + 1);
			ior_vm_boot_free(b);
			*b = (struct ior_vm_boot){ .guest_status = -1, .boot_s = -1, .total_s = -1 };
		} else {
			b->total_s = since_boot_command() >= 0 ? since_boot_command() : (double)time(NULL) - t0;
			return rc;
		}
	} else if (!strcmp(step->state, "measuring")) {
		/* the machine went down while it measured (power, a crash): what that boot measured was not
		 * merged, so the step is booted and measured again, within the retries */
		if ((unsigned)step->tries > t->opts.retries) {
			b->outcome = IOR_VM_HANG;
			snprintf(b->reason, sizeof(b->reason), "the machine restarted while measuring, %d times (power loss or "
				 "a crash)", step->tries);
			previous_boot_log(b->reason, sizeof(b->reason));
			b->total_s = 0;
			return IOR_OK;
		}
		say(t, "%s round %d: the machine restarted while measuring; booting the kernel again", k->k.spec, round);
	}
	rc = install_unit(t, l);
	if (!rc)
		rc = ior_db_target_step_set(db, step->id, "booting", step->tries + 1, 0, l->boot_id, NULL);
	if (!rc) {
		say(t, "%s round %d: booting %s (%s)", k->k.spec, round, k->k.release,
		    t->opts.boot == IOR_VM_TARGET_KEXEC ? "kexec" : "grub-reboot");
		rc = boot_into(t, k->k.release);
	}
	return rc ? rc : IOR_VM_TARGET_REBOOTING;
}

/* What prepare installed, purged unless kept; the package of the kernel running now is left for the
 * next call (the unit's, on the default kernel). Returns how many are left. */
static int remove_installs(struct ior_vm_target *t, struct ior_db *db, const char *running, size_t *left)
{
	struct ior_db_target_install *v = NULL;
	size_t n = 0;
	*left = 0;
	int rc = ior_db_target_installs_pending(db, t->opts.url.name, &v, &n);
	for (size_t i = 0; !rc && i < n; i++) {
		if (t->opts.keep_kernels) {
			say(t, "%s %s: kept (--keep-kernels)", v[i].package, v[i].version ? v[i].version : "");
			rc = ior_db_target_install_done(db, v[i].id, true);
		} else if (v[i].release && !strcmp(v[i].release, running)) {
			(*left)++;
		} else {
			rc = tool((const char *const[]){ "dpkg", "--purge", v[i].package, NULL }, INSTALL_S, "dpkg --purge");
			if (!rc) {
				say(t, "%s %s: removed", v[i].package, v[i].version ? v[i].version : "");
				rc = ior_db_target_install_done(db, v[i].id, false);
			}
		}
	}
	ior_db_target_installs_free(v, n);
	return rc;
}

/* The end of the plan. On a test kernel: the machine reboots into its default kernel first, and the
 * unit's process there calls this again (the plan is still running). On the default kernel: the
 * unit and what was installed are removed. From recover (nothing open): the same, without a reboot. */
static int local_finish(struct ior_vm_target *t, struct ior_db *db)
{
	struct local_target *l = of(t);
	struct local_target none = { 0 };
	if (!l) {
		l = &none;
		unit_default(l->default_release, sizeof(l->default_release));
	}
	where_now(l);
	bool on_default = !l->default_release[0] || !strcmp(l->release, l->default_release);
	if (l != &none && !on_default) {
		/* the unit stays for that one more boot, and every package too (the next process prepares
		 * the kernels again before it finishes: nothing is installed twice); a plain reboot is the
		 * default entry on any machine */
		say(t, "the plan is done: rebooting into the default kernel %s to finish", l->default_release);
		sync();
		int rc = tool((const char *const[]){ "systemctl", "--no-block", "reboot", NULL }, SHORT_S, "systemctl reboot");
		return rc ? rc : IOR_VM_TARGET_REBOOTING;
	}
	size_t left = 0;
	int rc = remove_installs(t, db, l->release, &left);
	if (remove_unit())
		say(t, "removed %s", UNIT_PATH);
	if (left)
		say(t, "%zu kernel package%s left installed: this machine runs it now (boot its default kernel, then "
		    "'ioregress recover')", left, left == 1 ? "" : "s");
	return rc;
}

static void local_free(struct ior_vm_target *t)
{
	free(t->priv);
	t->priv = NULL;
}

const struct ior_vm_target_ops ior_vm_target_local = {
	.kind = "local",
	.open = local_open,
	.prepare = local_prepare,
	.boot = local_boot,
	.finish = local_finish,
	.free = local_free,
};
