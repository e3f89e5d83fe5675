/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ssh kind of target: another machine, its kernels installed from Debian packages with its own
 * dpkg, booted once with kexec (or GRUB's one-time entry), checked by release and boot id, measured
 * by its own ioregress, its database brought back. Lost boots are tried again, then power-cycled. */
#include "vm/target.h"

#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "db/target_plan.h"
#include "kernel/info.h"
#include "vm/ssh.h"
#include "vm/workdir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Root's tools are outside a user's PATH on Debian. */
#define PATHS "PATH=$PATH:/usr/sbin:/sbin; "
#define SHORT_S 60.0          /* a quick command on the target: id, uname, test, rm */
#define INSTALL_S 1800.0      /* dpkg -i with its initramfs hook on a slow machine */
#define POLL_MS 500           /* between tries to reach a booting target */
#define POLL_CONNECT_S 4.0    /* how long one such try waits for the target's SSH banner */
#define WORKDIR_PREFIX "/var/tmp/ioregress-target."

struct ssh_target {
	struct ior_vm_ssh ssh;
	const struct ior_vm_run_opts *o;
	char matrix[260];         /* the matrix copied into t->workdir, "" for --boot-only */
	char boot_id[64];         /* the target's boot id as last seen */
	char release[128];        /* the target's release as last seen */
	double uptime;            /* its /proc/uptime then: how long the kernel had been up */
	bool grub;                /* grub-reboot is there */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct ssh_target *of(struct ior_vm_target *t)
{
	return t->priv;
}

/* "KEY VALUE" lines of out: VALUE of key into val ("" when absent). */
static void field(const char *out, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);
	val[0] = '\0';
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, kl) && p[kl] == ' ') {
			snprintf(val, len, "%.*s", (int)strcspn(p + kl + 1, "\n"), p + kl + 1);
			return;
		}
}

/* A progress line on stderr: "vm: TARGET: what". */
static void say(const struct ior_vm_target *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct ior_vm_target *t, const char *fmt, ...)
{
	const struct ssh_target *s = t->priv;
	if (!s->o || !s->o->progress)
		return;
	fprintf(stderr, "vm: %s: ", t->opts.url.name);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* One command as root on the target (sudo -n when the user is not root). */
static int root_cmd(struct ssh_target *s, const char *cmd, double limit, const char *what, char *out, size_t len)
{
	char line[4096], q[3800];
	/* as another user the whole command runs under sudo, not only its first word */
	if ((s->ssh.sudo[0] && !ior_vm_shell_quote(cmd, q, sizeof(q))) ||
	    (size_t)snprintf(line, sizeof(line), PATHS "%s%s%s", s->ssh.sudo, s->ssh.sudo[0] ? "sh -c " : "",
			     s->ssh.sudo[0] ? q : cmd) >= sizeof(line))
		return ior_error_set(IOR_ERROR, "%s: command too long", what);
	return ior_vm_ssh_check(&s->ssh, line, limit, what, out, len);
}

/* Who the target is, what it runs, and whether it can do what the run asks. */
static int probe(struct ior_vm_target *t, struct ssh_target *s)
{
	char q[600], cmd[2048], out[2048];
	if (!ior_vm_shell_quote(t->opts.remote_ioregress, q, sizeof(q)))
		return ior_error_set(IOR_EINVALID, "--target-ioregress is too long");
	snprintf(cmd, sizeof(cmd),
		 PATHS "echo uid $(id -u); echo host $(uname -n); echo machine $(uname -m); echo release $(uname -r); "
		 "echo boot $(cat /proc/sys/kernel/random/boot_id); echo kexec $(command -v kexec); "
		 "echo grub $(command -v grub-reboot); echo version $(%s --version 2>/dev/null); "
		 "echo sudo $(sudo -n true 2>/dev/null && echo yes)",
		 q);
	int rc = ior_vm_ssh_check(&s->ssh, cmd, t->opts.connect_timeout_s + SHORT_S, "reaching the target", out, sizeof(out));
	if (rc)
		return rc;
	char uid[16], sudo[8], kexec[256], grub[256], version[128];
	field(out, "uid", uid, sizeof(uid));
	field(out, "host", t->host, sizeof(t->host));
	field(out, "machine", t->machine, sizeof(t->machine));
	field(out, "release", s->release, sizeof(s->release));
	field(out, "boot", s->boot_id, sizeof(s->boot_id));
	field(out, "kexec", kexec, sizeof(kexec));
	field(out, "grub", grub, sizeof(grub));
	field(out, "version", version, sizeof(version));
	field(out, "sudo", sudo, sizeof(sudo));
	/* a resumed plan's target may run one of its kernels now: the plan's first release is the default;
	 * a bisection's later measurements begin on a test kernel and are given the default */
	if (t->opts.default_release && t->opts.default_release[0])
		snprintf(t->default_release, sizeof(t->default_release), "%s", t->opts.default_release);
	else if (!t->resuming || !t->default_release[0])
		snprintf(t->default_release, sizeof(t->default_release), "%s", s->release);
	s->grub = grub[0] != '\0';
	if (!uid[0] || !t->host[0] || !s->boot_id[0])
		return ior_error_set(IOR_ERROR, "'%s' answered, but not as a Linux machine: %.200s", t->opts.url.name, out);
	/* ssh://localhost is this very machine: booting "it" would reboot the controller */
	char ours_boot[64];
	ior_kernel_boot_id(ours_boot, sizeof(ours_boot));
	if (!strcmp(ours_boot, s->boot_id))
		return ior_error_set(IOR_EREFUSED, "'%s' is this machine (the same boot id): it cannot be booted from "
				     "here over SSH (--target local boots this machine)", t->opts.url.name);
	s->ssh.sudo = strcmp(uid, "0") == 0 ? "" : "sudo -n ";
	if (uid[0] && strcmp(uid, "0") != 0 && strcmp(sudo, "yes") != 0)
		return ior_error_set(IOR_EREFUSED, "'%s': the user (uid %s) is not root and cannot run sudo without a "
				     "password: kernels are installed and booted as root", t->opts.url.name, uid);
	if (t->opts.boot == IOR_VM_TARGET_KEXEC && !kexec[0])
		return ior_error_set(IOR_EUNSUPPORTED, "'%s' has no kexec: install kexec-tools there, or give --boot "
				     "bootloader", t->opts.url.name);
	if (t->opts.boot == IOR_VM_TARGET_BOOTLOADER && !s->grub)
		return ior_error_set(IOR_EUNSUPPORTED, "'%s' has no grub-reboot for --boot bootloader", t->opts.url.name);
	static const char ours[] = "ioregress " IOR_VERSION;
	if (!s->o->boot_only && strcmp(version, ours) != 0)
		return ior_error_set(IOR_EREFUSED, "'%s' %s%s%s, this one is %s: install the same version there "
				     "(its .deb: ci/package.sh)", t->opts.url.name, version[0] ? "runs '" : "has no ioregress",
				     version[0] ? version : "", version[0] ? "'" : "", ours);
	return IOR_OK;
}

static void ssh_free(struct ior_vm_target *t);

/* Ours: a directory mktemp made under /var/tmp (kept across reboots), never a path taken on trust. */
static bool ours(const char *dir)
{
	return !strncmp(dir, WORKDIR_PREFIX, strlen(WORKDIR_PREFIX)) && !strchr(dir + strlen(WORKDIR_PREFIX), '/') &&
	       strlen(dir) == strlen(WORKDIR_PREFIX) + 6;
}

/* The work directory on the target: a resumed plan's when it is still there (its files are the
 * plan's), else a new one. */
static int workdir(struct ior_vm_target *t, struct ssh_target *s)
{
	char cmd[400], out[16];
	if (t->resuming && ours(t->workdir)) {
		snprintf(cmd, sizeof(cmd), "test -d %s && test ! -L %s && echo yes", t->workdir, t->workdir);
		if (ior_vm_ssh_check(&s->ssh, cmd, SHORT_S, "looking for the work directory", out, sizeof(out)) == IOR_OK &&
		    !strcmp(out, "yes"))
			return IOR_OK;
	}
	int rc = ior_vm_ssh_check(&s->ssh, "mktemp -d " WORKDIR_PREFIX "XXXXXX", SHORT_S, "mktemp on the target",
				  t->workdir, sizeof(t->workdir));
	if (!rc && !ours(t->workdir))
		rc = ior_error_set(IOR_ERROR, "mktemp on '%s' answered '%s'", t->opts.url.name, t->workdir);
	return rc;
}

static int ssh_open(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_run_opts *o)
{
	(void)db;
	struct ssh_target *s = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "out of memory");
	t->priv = s;
	s->o = o;
	s->ssh = (struct ior_vm_ssh){ .url = &t->opts.url, .options = t->opts.ssh_options, .noptions = t->opts.nssh_options,
				      .connect_timeout_s = t->opts.connect_timeout_s, .sudo = "" };
	snprintf(t->accel, sizeof(t->accel), "-");
	snprintf(t->accel_reason, sizeof(t->accel_reason), "a real machine");
	say(t, "checking the target");
	int rc = ior_vm_ssh_share(&s->ssh, t->opts.connect_timeout_s + 10);
	if (!rc)
		rc = probe(t, s);
	/* a resumed plan's target may be in the middle of a boot the killed controller began */
	for (double t0 = now_s(); rc == IOR_ETIMEDOUT && t->resuming && now_s() - t0 < t->opts.boot_timeout_s;) {
		say(t, "not answering yet (%s); waiting for it, up to --boot-timeout", ior_error_last());
		struct timespec pause = { .tv_nsec = POLL_MS * 1000000L };
		nanosleep(&pause, NULL);
		rc = ior_stop_requested() ? ior_error_set(IOR_EINTERRUPTED, "stopped while waiting for '%s'", t->opts.url.name)
					  : probe(t, s);
	}
	if (!rc)
		rc = workdir(t, s);
	if (!rc && o->guest.matrix && !o->boot_only) {
		snprintf(s->matrix, sizeof(s->matrix), "%s/matrix.ini", t->workdir);
		rc = ior_vm_ssh_copy(&s->ssh, o->guest.matrix, s->matrix, true, SHORT_S);
	}
	if (!rc)
		say(t, "%s (running %s, default %s)", t->host, s->release, t->default_release);
	return rc;
}

/* The package's installed version on the target, "" when it is not installed. */
static int installed_version(struct ssh_target *s, const char *package, char *version, size_t len)
{
	char q[300], cmd[600], out[300];
	ior_vm_shell_quote(package, q, sizeof(q));
	snprintf(cmd, sizeof(cmd), "dpkg-query -W -f='${db:Status-Abbrev} ${Version}' %s 2>/dev/null || true", q);
	int rc = ior_vm_ssh_check(&s->ssh, cmd, SHORT_S, "dpkg-query on the target", out, sizeof(out));
	version[0] = '\0';
	if (!rc && !strncmp(out, "ii ", 3))
		snprintf(version, len, "%s", out + strspn(out + 3, " ") + 3);
	return rc;
}

/* The .deb copied over and installed with the target's dpkg (its hooks make the initramfs), recorded
 * before dpkg runs, so a run killed in the middle leaves it to recover. */
static int install(struct ior_vm_target *t, struct ssh_target *s, struct ior_db *db, struct ior_vm_target_kernel *k)
{
	const char *base = strrchr(k->k.deb, '/');
	char remote[400], q[500], cmd[1200], boot[64];
	snprintf(remote, sizeof(remote), "%s/%s", t->workdir, base ? base + 1 : k->k.deb);
	ior_vm_shell_quote(remote, q, sizeof(q));
	int64_t host_id = 0, id = 0;
	say(t, "%s: installing %s", k->k.spec, k->k.package_version);
	int rc = ior_vm_ssh_copy(&s->ssh, k->k.deb, remote, true, INSTALL_S);
	if (!rc)
		rc = ior_vm_owner(db, &host_id, boot, sizeof(boot));
	if (!rc)
		rc = ior_db_target_install_add(db, t->opts.url.name, k->k.package, k->k.package_version, k->k.release, host_id,
					       (int)getpid(), boot, &id);
	snprintf(cmd, sizeof(cmd), "env DEBIAN_FRONTEND=noninteractive dpkg -i %s; s=$?; rm -f %s; exit $s", q, q);
	if (!rc)
		rc = root_cmd(s, cmd, INSTALL_S, "dpkg -i on the target", NULL, 0);
	return rc;
}

static int ssh_prepare(struct ior_vm_target *t, struct ior_db *db, struct ior_vm_target_kernel *k)
{
	struct ssh_target *s = of(t);
	if (!k->k.deb[0]) {
		snprintf(k->error, sizeof(k->error), "'%s': a target over SSH boots Debian packages (a built image is not "
			 "installable there: give --tree DIR and revisions, built as packages with its config)", k->k.spec);
		return IOR_OK;
	}
	char have[128];
	int rc = installed_version(s, k->k.package, have, sizeof(have));
	if (!rc && strcmp(have, k->k.package_version) != 0)
		rc = install(t, s, db, k);
	else if (!rc)
		say(t, "%s: %s is installed already (left as it is at the end)", k->k.spec, have);
	char path[300], cmd[800], out[16];
	snprintf(path, sizeof(path), "/boot/vmlinuz-%s", k->k.release);
	snprintf(cmd, sizeof(cmd), "test -r %s && echo yes", path);
	if (!rc && ior_vm_ssh_check(&s->ssh, cmd, SHORT_S, "looking for the image", out, sizeof(out)) != IOR_OK)
		rc = ior_error_set(IOR_ENOTFOUND, "'%s' has no %s after installing %s", t->opts.url.name, path, k->k.spec);
	if (rc == IOR_EINTERRUPTED)
		return rc;
	if (rc) {
		snprintf(k->error, sizeof(k->error), "%s", ior_error_last());
		return IOR_OK;
	}
	k->ready = true;
	return IOR_OK;
}

/* The target's boot id and release now; IOR_ETIMEDOUT when it does not answer within limit. */
static int where_now(struct ssh_target *s, double limit, char *boot, size_t blen, char *release, size_t rlen)
{
	char out[300];
	int rc = ior_vm_ssh_check(&s->ssh, "cat /proc/sys/kernel/random/boot_id; uname -r; cut -d' ' -f1 /proc/uptime", limit,
				  "asking the target", out, sizeof(out));
	if (rc)
		return rc;
	size_t l = strcspn(out, "\n");
	snprintf(boot, blen, "%.*s", (int)l, out);
	const char *r = out[l] ? out + l + 1 : "";
	size_t rl = strcspn(r, "\n");
	snprintf(release, rlen, "%.*s", (int)rl, r);
	s->uptime = r[rl] ? atof(r + rl + 1) : -1;
	return IOR_OK;
}

/* Waits, up to the boot timeout, for the target to answer SSH as a boot other than `from`; *waited
 * is how long it took. IOR_ETIMEDOUT when it did not. */
static int wait_new_boot(struct ior_vm_target *t, struct ssh_target *s, const char *from, double *waited)
{
	double t0 = now_s(), limit = t->opts.boot_timeout_s, full = t->opts.connect_timeout_s;
	char boot[64] = "", release[128] = "";
	for (unsigned tries = 0; now_s() - t0 < limit; tries++) {
		if (ior_stop_requested())
			return ior_error_set(IOR_EINTERRUPTED, "stopped while waiting for '%s'", t->opts.url.name);
		/* a booting machine takes the connection and sends no banner until its sshd runs: each try
		 * waits POLL_CONNECT_S for it (measured on the test-bed: a try with 15 s left SSH answering up
		 * to 18 s unseen), every fourth the whole --connect timeout, for a slow sshd */
		s->ssh.connect_timeout_s = tries % 4 == 3 || full < POLL_CONNECT_S ? full : POLL_CONNECT_S;
		double left = limit - (now_s() - t0);
		double each = left < s->ssh.connect_timeout_s + 10 ? left : s->ssh.connect_timeout_s + 10;
		/* each try starts the shared connection (the old one ended with the old boot): the first that
		 * answers is the new boot's, and its commands cost no key exchange of their own. Without a
		 * socket directory the tries connect on their own. */
		int rc = ior_vm_ssh_share(&s->ssh, each);
		if (!rc && (ior_vm_ssh_shared(&s->ssh) || !s->ssh.control[0]))
			rc = where_now(s, each, boot, sizeof(boot), release, sizeof(release));
		else if (!rc)
			rc = ior_error_set(IOR_ETIMEDOUT, "'%s' does not answer SSH yet", t->opts.url.name);
		s->ssh.connect_timeout_s = full;
		if (!rc && strcmp(boot, from) != 0) {
			*waited = now_s() - t0;
			snprintf(s->boot_id, sizeof(s->boot_id), "%s", boot);
			snprintf(s->release, sizeof(s->release), "%s", release);
			return IOR_OK;
		}
		if (rc && rc != IOR_ETIMEDOUT && rc != IOR_ERROR)
			return rc;
		struct timespec pause = { .tv_nsec = POLL_MS * 1000000L };
		nanosleep(&pause, NULL);
	}
	return ior_error_set(IOR_ETIMEDOUT, "'%s' did not answer SSH as a new boot within %.0f s (--boot-timeout)",
			     t->opts.url.name, limit);
}

int ior_vm_target_ssh_boot_command(const struct ior_vm_target_opts *o, const char *release, char *out, size_t len)
{
	/* --shutdown force: systemctl's --force, no unit's stop job runs (under TCG most of a boot round);
	 * systemd-shutdown still signals every process and unmounts or remounts the file systems */
	const char *force = o->shutdown == IOR_VM_TARGET_SHUTDOWN_FORCE ? "--force " : "";
	/* one connection for the loading and the boot command (each costs a key exchange, seconds on a
	 * slow machine): the boot starts detached after a second, so ssh hears the status first */
	int n;
	if (!release)
		n = snprintf(out, len, "setsid -f sh -c 'sleep 1; systemctl %sreboot' </dev/null >/dev/null 2>&1", force);
	else if (o->boot == IOR_VM_TARGET_KEXEC)
		n = snprintf(out, len,
			     "if test -r /boot/initrd.img-%s; then kexec -l /boot/vmlinuz-%s --initrd=/boot/initrd.img-%s "
			     "--reuse-cmdline; else kexec -l /boot/vmlinuz-%s --reuse-cmdline; fi && "
			     "setsid -f sh -c 'sleep 1; systemctl %skexec' </dev/null >/dev/null 2>&1",
			     release, release, release, release, force);
	else
		/* Debian's GRUB names a kernel's entry "Advanced options for Debian GNU/Linux>Debian GNU/Linux,
		 * with Linux R": the one-time entry is read from grub.cfg's titles, never guessed */
		n = snprintf(out, len,
			     "e=$(grep -o \"menuentry '[^']*with Linux %s'\" /boot/grub/grub.cfg | head -n1 | cut -d\"'\" -f2); "
			     "s=$(grep -o \"submenu '[^']*'\" /boot/grub/grub.cfg | head -n1 | cut -d\"'\" -f2); "
			     "test -n \"$e\" && grub-reboot \"${s:+$s>}$e\" && "
			     "setsid -f sh -c 'sleep 1; systemctl %sreboot' </dev/null >/dev/null 2>&1",
			     release, force);
	return n > 0 && (size_t)n < len ? IOR_OK : ior_error_set(IOR_EINVALID, "the boot command for '%s' is too long",
								 release ? release : "a reboot");
}

/* The boot command run on the target (kexec, GRUB's one-time entry, or a plain reboot into the
 * default entry when release is NULL). */
static int start_boot(struct ior_vm_target *t, struct ssh_target *s, const char *release)
{
	char cmd[1600];
	int rc = ior_vm_target_ssh_boot_command(&t->opts, release, cmd, sizeof(cmd));
	if (!rc)
		rc = root_cmd(s, cmd, SHORT_S, !release ? "reboot on the target" : t->opts.boot == IOR_VM_TARGET_KEXEC ?
			      "kexec on the target" : "grub-reboot on the target", NULL, 0);
	/* a session cut by the boot itself is no failure: only the new boot id tells */
	return rc == IOR_ETIMEDOUT ? IOR_OK : rc;
}

/* The failed boot's kernel log head, from the journal of the boot before this one (when the target
 * keeps one), appended to the reason. */
static void previous_boot_log(struct ssh_target *s, const char *from, char *reason, size_t len)
{
	char out[800], want[64];
	/* the journal's previous boot is the failed one only when that kernel got as far as journald;
	 * otherwise it is the boot the boot command was sent from, whose log says nothing of the failure
	 * (its command line's panic= matched every time) */
	if (root_cmd(s, "echo $(journalctl -b -1 -n 1 -o export 2>/dev/null | sed -n 's/^_BOOT_ID=//p' | head -n 1); "
			"journalctl -k -b -1 -o cat --no-pager 2>/dev/null | grep -iE 'panic|oops|error|fail|not syncing|unable' | "
			"grep -viE 'command line' | head -n 4 | tr '\\n' '|'",
		     SHORT_S, "journalctl", out, sizeof(out)) != IOR_OK)
		return;
	size_t j = 0;
	for (const char *p = from; *p && j + 1 < sizeof(want); p++)
		if (*p != '-')
			want[j++] = *p;
	want[j] = '\0';
	size_t l = strlen(reason), first = strcspn(out, "\n");
	if (first == j && j && !strncmp(out, want, j))
		snprintf(reason + l, len - l, "; the failed boot left no journal");
	else if (out[first] && out[first + 1])
		snprintf(reason + l, len - l, "; the failed boot's kernel log: %s", out + first + 1);
}

/* The target's ioregress runs the matrix into a database of its own in the work directory; the same
 * connection first prints the boot's kernel log (kept as qemu's console is), so a boot costs one key
 * exchange less. *pulled is the seconds the database took to come back. */
static int measure(struct ior_vm_target *t, struct ssh_target *s, int round, const char *dir, struct ior_vm_boot *b,
		   double *pulled)
{
	char remote[300], qi[600], qdb[400], qm[400], cmd[2000];
	snprintf(remote, sizeof(remote), "%s/round%d.db", t->workdir, round);
	ior_vm_shell_quote(t->opts.remote_ioregress, qi, sizeof(qi));
	ior_vm_shell_quote(remote, qdb, sizeof(qdb));
	ior_vm_shell_quote(s->matrix, qm, sizeof(qm));
	snprintf(cmd, sizeof(cmd), PATHS "%sdmesg 2>/dev/null | head -c 262144; rm -f %s; %s%s --db %s --quiet run %s >/dev/null",
		 s->ssh.sudo, qdb, s->ssh.sudo, qi, qdb, qm);
	struct ior_spawn c;
	int rc = ior_vm_ssh_run(&s->ssh, cmd, t->opts.run_timeout_s, &c);
	if (!rc && ior_vm_ssh_lost(&c))
		rc = ior_error_set(IOR_ETIMEDOUT, "the connection to '%s' was lost while it measured%s", t->opts.url.name,
				   c.timed_out ? " (past its deadline)" : "");
	if (!rc) {
		b->guest_status = WIFEXITED(c.status) ? WEXITSTATUS(c.status) : 128;
		if (b->guest_status) {
			size_t l = strlen(c.err);
			while (l && c.err[l - 1] == '\n')
				c.err[--l] = '\0';
			const char *last = strrchr(c.err, '\n');
			snprintf(b->reason, sizeof(b->reason), "the target's ioregress run exited %d: %s", b->guest_status,
				 last ? last + 1 : c.err);
		}
		if (c.out) {
			b->console = c.out;
			b->console_len = c.out_len;
			c.out = NULL;
		}
	}
	ior_spawn_free(&c);
	if (rc)
		return rc;
	double t0 = now_s();
	snprintf(b->guest_db, sizeof(b->guest_db), "%s/target.db", dir);
	rc = ior_vm_ssh_copy(&s->ssh, b->guest_db, remote, false, SHORT_S * 10);
	*pulled = now_s() - t0;
	if (rc)
		b->guest_db[0] = '\0';
	/* the file stays until the work directory goes: the next run of this round overwrites it */
	return rc;
}

/* The kernel log of this boot, as qemu's console is kept: what the kernel said, cut at 256 KiB. */
static void kernel_log(struct ssh_target *s, struct ior_vm_boot *b)
{
	struct ior_spawn c;
	char line[200];
	snprintf(line, sizeof(line), PATHS "%sdmesg 2>/dev/null | head -c 262144", s->ssh.sudo);
	if (ior_vm_ssh_run(&s->ssh, line, SHORT_S, &c) == IOR_OK && c.out && !ior_vm_ssh_lost(&c)) {
		b->console = c.out;
		b->console_len = c.out_len;
		c.out = NULL;
	}
	ior_spawn_free(&c);
}

enum attempt { ATTEMPT_DONE, ATTEMPT_LOST };

/* One try: boot, check, measure, bring back. ATTEMPT_LOST when the target went out of reach (a try
 * again may do); ATTEMPT_DONE with b's outcome otherwise. */
static int attempt(struct ior_vm_target *t, struct ssh_target *s, struct ior_db *db, const struct ior_vm_target_kernel *k,
		   const struct ior_db_target_step *step, int tries, int round, const char *dir, struct ior_vm_boot *b,
		   enum attempt *how)
{
	*how = ATTEMPT_LOST;
	char from[64], release[128];
	int rc = where_now(s, t->opts.connect_timeout_s + 10, from, sizeof(from), release, sizeof(release));
	if (!rc && step)
		rc = ior_db_target_step_set(db, step->id, "booting", tries, 0, from, NULL);
	say(t, "%s round %d: booting (%s)", k->k.spec, round, t->opts.boot == IOR_VM_TARGET_KEXEC ? "kexec" : "grub-reboot");
	double c0 = now_s(), commanded = 0;
	if (!rc)
		rc = start_boot(t, s, k->k.release);
	commanded = now_s() - c0;
	double waited = 0;
	if (!rc)
		rc = wait_new_boot(t, s, from, &waited);
	if (rc == IOR_ETIMEDOUT) {
		snprintf(b->reason, sizeof(b->reason), "%s", ior_error_last());
		return IOR_OK;
	}
	if (rc)
		return rc;
	*how = ATTEMPT_DONE;
	double up = s->uptime;
	b->boot_s = waited;
	snprintf(b->boot_id, sizeof(b->boot_id), "%s", s->boot_id);
	say(t, "%s round %d: SSH back as a new boot after %.1f s, running %s", k->k.spec, round, waited, s->release);
	if (strcmp(s->release, k->k.release) != 0) {
		b->outcome = IOR_VM_BOOT_FAILED;
		snprintf(b->reason, sizeof(b->reason), "the target came back running %s, not %s", s->release, k->k.release);
		previous_boot_log(s, from, b->reason, sizeof(b->reason));
		return IOR_OK;
	}
	if (s->o->boot_only || !s->matrix[0]) {
		kernel_log(s, b);
		b->outcome = IOR_VM_OK;
		return IOR_OK;
	}
	if (step && (rc = ior_db_target_step_set(db, step->id, "measuring", tries, 0, NULL, NULL)))
		return rc;
	say(t, "%s round %d: measuring", k->k.spec, round);
	double m0 = now_s(), pulled = 0;
	rc = measure(t, s, round, dir, b, &pulled);
	if (!rc)
		say(t, "%s round %d: boot command %.1f s, SSH back %.1f s later (the kernel up %.1f s of it), measured %.1f s, "
		    "database back in %.1f s", k->k.spec, round, commanded, waited, up, now_s() - m0 - pulled, pulled);
	if (rc == IOR_ETIMEDOUT) {
		*how = ATTEMPT_LOST;
		snprintf(b->reason, sizeof(b->reason), "%s", ior_error_last());
		return IOR_OK;
	}
	if (rc)
		return rc;
	b->outcome = b->guest_status == 0 ? IOR_VM_OK : IOR_VM_TEST_FAILED;
	return IOR_OK;
}

/* --power-cycle: the lab's own command (IPMI, a PDU), run on this machine with the boot timeout as
 * its deadline; then the target must answer as a new boot. */
static void power_cycle(struct ior_vm_target *t, struct ssh_target *s, struct ior_vm_boot *b)
{
	say(t, "running --power-cycle: %s", t->opts.power_cycle);
	struct ior_spawn c = { .shell = t->opts.power_cycle, .out_to = IOR_SPAWN_OUT_STDERR, .err_to = IOR_SPAWN_ERR_TAIL,
			       .flags = IOR_SPAWN_GROUP | IOR_SPAWN_DIE_WITH_US, .limit_s = t->opts.boot_timeout_s };
	int rc = ior_spawn_run(&c);
	if (!rc)
		rc = ior_spawn_check(&c, "--power-cycle");
	ior_spawn_free(&c);
	double waited;
	size_t l = strlen(b->reason);
	if (!rc)
		rc = wait_new_boot(t, s, s->boot_id, &waited);
	snprintf(b->reason + l, sizeof(b->reason) - l, "; power-cycled: %s", rc ? ior_error_last() : "back on its own kernel");
}

static int ssh_boot(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_target_kernel *k,
		    const struct ior_db_target_step *step, int round, const char *dir, struct ior_vm_boot *b)
{
	struct ssh_target *s = of(t);
	double t0 = now_s();
	enum attempt how = ATTEMPT_LOST;
	int rc = IOR_OK;
	unsigned tried = 0;
	char first[512] = "";
	for (; !rc && how == ATTEMPT_LOST && tried <= t->opts.retries; tried++) {
		if (tried) {
			fprintf(stderr, "vm: %s: %s round %d: %s; trying again (%u of %u)\n", t->opts.url.name, k->k.spec,
				round, b->reason, tried + 1, t->opts.retries + 1);
			double waited;
			char boot[64], release[128];
			/* a target that is booting (or rebooting after a panic) is waited for first */
			if (where_now(s, t->opts.connect_timeout_s + 10, boot, sizeof(boot), release, sizeof(release)) != IOR_OK)
				wait_new_boot(t, s, s->boot_id, &waited);
		}
		b->reason[0] = '\0';
		rc = attempt(t, s, db, k, step, (step ? step->tries : 0) + (int)tried + 1, round, dir, b, &how);
		if (!first[0])
			snprintf(first, sizeof(first), "%s", b->reason);
	}
	if (!rc && how == ATTEMPT_LOST) {
		b->outcome = IOR_VM_BOOT_FAILED;
		char last[sizeof(b->reason)];
		snprintf(last, sizeof(last), "%s", b->reason);
		snprintf(b->reason, sizeof(b->reason), "lost %u time%s: %.400s%s%.400s", tried, tried == 1 ? "" : "s", first,
			 strcmp(first, last) ? "; last: " : "", strcmp(first, last) ? last : "");
		if (t->opts.power_cycle)
			power_cycle(t, s, b);
	}
	b->total_s = now_s() - t0;
	return rc;
}

static void remove_workdir(struct ior_vm_target *t, struct ssh_target *s, FILE *out)
{
	if (!ours(t->workdir))
		return;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->workdir);
	if (root_cmd(s, cmd, SHORT_S, "rm on the target", NULL, 0) == IOR_OK && !t->opts.stay)
		fprintf(out, "vm: %s: work directory '%s': removed\n", t->opts.url.name, t->workdir);
}

/* Back on the kernel the target ran when the plan began (kexec, or a plain reboot with --boot
 * bootloader: the default entry), so no test kernel is left running; then what was installed is
 * purged (or kept) and the work directory removed. One line on out for each. */
static int finish_to(struct ior_vm_target *t, struct ior_db *db, FILE *out)
{
	struct ssh_target *s = of(t);
	int first = IOR_OK;
	char boot[64], release[128];
	if (where_now(s, t->opts.connect_timeout_s + 10, boot, sizeof(boot), release, sizeof(release)) == IOR_OK &&
	    t->default_release[0] && strcmp(release, t->default_release) != 0) {
		fprintf(out, "vm: %s: running %s: booting %s again\n", t->opts.url.name, release, t->default_release);
		/* --boot bootloader: a plain reboot is the default entry */
		int rc = start_boot(t, s, t->opts.boot == IOR_VM_TARGET_KEXEC ? t->default_release : NULL);
		double waited;
		if (!rc)
			rc = wait_new_boot(t, s, boot, &waited);
		if (rc)
			first = rc;
	}
	int rc = ior_vm_target_ssh_remove(t, db, out);
	if (!first)
		first = rc;
	remove_workdir(t, s, out);
	return first;
}

static int ssh_finish(struct ior_vm_target *t, struct ior_db *db)
{
	/* a bisection's measurement: the next one boots from the kernel this one left, with what is
	 * installed; the bisection's end step boots the default again and removes them (recover's undo) */
	if (t->opts.stay) {
		remove_workdir(t, of(t), stderr);
		return IOR_OK;
	}
	return finish_to(t, db, stderr);
}

int ior_vm_target_ssh_remove(struct ior_vm_target *t, struct ior_db *db, FILE *out)
{
	struct ssh_target *s = of(t);
	struct ior_db_target_install *v;
	size_t n;
	int rc = ior_db_target_installs_pending(db, t->opts.url.name, &v, &n);
	char running[128] = "", boot[64];
	if (!rc && n)
		rc = where_now(s, t->opts.connect_timeout_s + 10, boot, sizeof(boot), running, sizeof(running));
	for (size_t i = 0; !rc && i < n; i++) {
		if (t->opts.keep_kernels) {
			fprintf(out, "vm: %s: %s %s: kept (--keep-kernels)\n", t->opts.url.name, v[i].package,
				v[i].version ? v[i].version : "");
			rc = ior_db_target_install_done(db, v[i].id, true);
			continue;
		}
		if (v[i].release && !strcmp(v[i].release, running)) {
			fprintf(out, "vm: %s: %s: left installed: the target runs it now (boot its default kernel, then "
				"'ioregress recover')\n", t->opts.url.name, v[i].package);
			continue;
		}
		char q[300], cmd[700];
		ior_vm_shell_quote(v[i].package, q, sizeof(q));
		snprintf(cmd, sizeof(cmd), "env DEBIAN_FRONTEND=noninteractive dpkg --purge %s", q);
		rc = root_cmd(s, cmd, INSTALL_S, "dpkg --purge on the target", NULL, 0);
		if (!rc) {
			fprintf(out, "vm: %s: %s %s: removed\n", t->opts.url.name, v[i].package, v[i].version ? v[i].version : "");
			rc = ior_db_target_install_done(db, v[i].id, false);
		}
	}
	ior_db_target_installs_free(v, n);
	return rc;
}

/* recover's undo on an ssh target, with the options its newest plan stored (its ssh options, how it
 * boots, its default kernel and work directory): the target booted back to its default kernel, what was
 * installed purged, the work directory removed, and a plan left running set aside. */
static int ssh_recover(struct ior_vm_target *t, struct ior_db *db, FILE *out)
{
	struct ssh_target *s = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "out of memory");
	t->priv = s;
	struct ior_db_target_plan p;
	const char *opts[32];
	size_t n = 0;
	bool have = ior_db_target_plan_latest(db, t->opts.url.name, &p) == IOR_OK;
	char value[64];
	if (have) {
		ior_db_target_plan_option(p.options, "workdir", t->workdir, sizeof(t->workdir));
		ior_db_target_plan_option(p.options, "default_release", t->default_release, sizeof(t->default_release));
		ior_db_target_plan_option(p.options, "boot", value, sizeof(value));
		t->opts.boot = ior_vm_target_boot_from(value);
		ior_db_target_plan_option(p.options, "shutdown", value, sizeof(value));
		t->opts.shutdown = ior_vm_target_shutdown_from(value);
		ior_db_target_plan_option(p.options, "boot_timeout", value, sizeof(value));
		if (atof(value) > 0)
			t->opts.boot_timeout_s = atof(value);
		ior_db_target_plan_option(p.options, "keep_kernels", value, sizeof(value));
		t->opts.keep_kernels = !strcmp(value, "1");
	}
	for (char *line = have && p.options ? p.options : NULL; line && *line && n < 32;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if (!strncmp(line, "ssh_option=", 11))
			opts[n++] = line + 11;
		line = end ? end + 1 : NULL;
	}
	s->ssh = (struct ior_vm_ssh){ .url = &t->opts.url, .options = opts, .noptions = n,
				      .connect_timeout_s = t->opts.connect_timeout_s, .sudo = "" };
	char uid[16];
	int rc = ior_vm_ssh_share(&s->ssh, t->opts.connect_timeout_s + 10);
	if (!rc)
		rc = ior_vm_ssh_check(&s->ssh, "id -u", SHORT_S, "reaching the target", uid, sizeof(uid));
	if (!rc && strcmp(uid, "0") != 0)
		s->ssh.sudo = "sudo -n ";
	if (!rc)
		rc = finish_to(t, db, out);
	ssh_free(t);
	if (have)
		ior_db_target_plan_free(&p);
	return rc;
}

int ior_vm_target_recover(struct ior_db *db, const char *target, FILE *out)
{
	struct ior_vm_target t = { 0 };
	ior_vm_target_opts_default(&t.opts);
	int rc = ior_vm_target_parse(&t.opts.url, target);
	if (!rc && t.opts.url.kind == IOR_VM_TARGET_QEMU)
		return ior_error_set(IOR_EINVALID, "'%s': a qemu guest leaves nothing on a target to recover", target);
	if (rc)
		return rc;
	if (t.opts.url.kind == IOR_VM_TARGET_LOCAL) {
		/* nothing open: the local kind removes its unit and what it installed, and reboots nothing */
		t.ops = &ior_vm_target_local;
		rc = t.ops->finish(&t, db);
		if (!rc)
			fprintf(out, "vm: local: the unit and the kernels it installed: removed\n");
	} else {
		t.ops = &ior_vm_target_ssh;
		rc = ssh_recover(&t, db, out);
	}
	/* the plan is given up: a later vm run begins a new one */
	struct ior_db_target_plan p;
	while (!rc && ior_db_target_plan_running(db, t.opts.url.name, &p) == IOR_OK) {
		if (!ior_kernel_process_alive(p.pid, p.boot_id)) {
			rc = ior_db_target_plan_finish(db, p.id, "aborted");
			if (!rc)
				fprintf(out, "vm: %s: the plan of vm run %s: aborted\n", target, p.vm_run);
		}
		bool live = ior_kernel_process_alive(p.pid, p.boot_id);
		ior_db_target_plan_free(&p);
		if (live)
			break;
	}
	return rc;
}

static void ssh_free(struct ior_vm_target *t)
{
	if (!t->priv)
		return;
	ior_vm_ssh_unshare(&of(t)->ssh);
	free(t->priv);
	t->priv = NULL;
}

const struct ior_vm_target_ops ior_vm_target_ssh = {
	.kind = "ssh",
	.open = ssh_open,
	.prepare = ssh_prepare,
	.boot = ssh_boot,
	.finish = ssh_finish,
	.free = ssh_free,
};
