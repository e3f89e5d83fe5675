/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for where a kernel boots, offline: --target's forms and its refusals, the rounds' rotation,
 * the ssh and scp command lines, shell quoting, and the plan of boots stored in the database. */
#include "common/error.h"
#include "common/spawn.h"
#include "db/db.h"
#include "db/target_plan.h"
#include "tests/suite.h"
#include "vm/ssh.h"
#include "vm/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void parsed(const char *text, enum ior_vm_target_kind kind, const char *user, const char *host, unsigned port)
{
	struct ior_vm_target_url u;
	int rc = ior_vm_target_parse(&u, text);
	if (rc)
		fprintf(stderr, "\n  %s: %s", text, ior_error_last());
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	CU_ASSERT_EQUAL(u.kind, kind);
	CU_ASSERT_STRING_EQUAL(u.user, user);
	CU_ASSERT_STRING_EQUAL(u.host, host);
	CU_ASSERT_EQUAL(u.port, port);
}

static void refused(const char *text, const char *words)
{
	struct ior_vm_target_url u;
	CU_ASSERT_EQUAL(ior_vm_target_parse(&u, text), IOR_EINVALID);
	if (!strstr(ior_error_last(), words))
		fprintf(stderr, "\n  %s: '%s' lacks '%s'", text, ior_error_last(), words);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), words));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "--target"));
}

static void test_target_forms(void)
{
	parsed("qemu", IOR_VM_TARGET_QEMU, "", "", 0);
	parsed("local", IOR_VM_TARGET_LOCAL, "", "", 0);
	parsed("ssh://lab-box", IOR_VM_TARGET_SSH, "", "lab-box", 0);
	parsed("ssh://root@lab-box.example.org", IOR_VM_TARGET_SSH, "root", "lab-box.example.org", 0);
	parsed("ssh://tester@127.0.0.1:2222", IOR_VM_TARGET_SSH, "tester", "127.0.0.1", 2222);
	parsed("ssh://[::1]:22", IOR_VM_TARGET_SSH, "", "::1", 22);
	parsed("ssh://me@[fe80::1]", IOR_VM_TARGET_SSH, "me", "fe80::1", 0);
	struct ior_vm_target_url u;
	CU_ASSERT_EQUAL(ior_vm_target_parse(&u, "ssh://root@box:2200"), IOR_OK);
	CU_ASSERT_STRING_EQUAL(u.name, "ssh://root@box:2200");   /* vm_boots.target: as given */
	CU_ASSERT_EQUAL(ior_vm_target_parse(&u, "qemu"), IOR_OK);
	CU_ASSERT_STRING_EQUAL(u.name, "");
}

static void test_target_refusals(void)
{
	refused("lab-box", "not a target");
	refused("lab-box.example.org", "ssh://HOST");
	refused("http://lab-box", "'http' is no kind of target");
	refused("ssh://", "host is empty");
	refused("ssh://root@", "host is empty");
	refused("ssh://@box", "user name is empty");
	refused("ssh://-oProxyCommand=x", "cannot start with '-'");
	refused("ssh://-l@box", "cannot start with '-'");
	refused("ssh://box:0", "port '0'");
	refused("ssh://box:65536", "port '65536'");
	refused("ssh://box:22x", "port '22x'");
	refused("ssh://box:", "port ''");
	refused("ssh://box/tmp", "no path");
	refused("ssh://bo x", "' ' cannot be part of a host");
	refused("ssh://box;reboot", "';' cannot be part of a host");
	refused("ssh://ro'ot@box", "''' cannot be part of a user name");
	refused("ssh://[::1", "without ']'");
	refused("ssh://[::1]x", "only :PORT may follow");
}

/* A B C, B C A, C A B: every kernel in every place once over n rounds. */
static void test_rotation(void)
{
	static const char want[3][4] = { "ABC", "BCA", "CAB" };
	for (unsigned r = 1; r <= 3; r++)
		for (size_t j = 0; j < 3; j++)
			CU_ASSERT_EQUAL("ABC"[ior_vm_round_slot(r, j, 3)], want[r - 1][j]);
	CU_ASSERT_EQUAL(ior_vm_round_slot(4, 0, 3), 0);   /* round 4 starts again as round 1 */
	CU_ASSERT_EQUAL(ior_vm_round_slot(2, 0, 2), 1);
	CU_ASSERT_EQUAL(ior_vm_round_slot(7, 0, 1), 0);
}

static char *joined(char **argv)
{
	static char out[2048];
	out[0] = '\0';
	for (size_t i = 0; argv[i]; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? " " : "", argv[i]);
	return out;
}

static void test_ssh_command_lines(void)
{
	struct ior_vm_target_url u;
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_parse(&u, "ssh://tester@127.0.0.1:2222"), IOR_OK);
	const char *opts[] = { "IdentityFile=/tmp/k", "UserKnownHostsFile=/dev/null" };
	struct ior_vm_ssh s = { .url = &u, .options = opts, .noptions = 2, .connect_timeout_s = 7 };
	char **argv;
	CU_ASSERT_EQUAL_FATAL(ior_vm_ssh_argv(&s, "uname -r", &argv), IOR_OK);
	CU_ASSERT_STRING_EQUAL(joined(argv), "ssh -o BatchMode=yes -o ConnectTimeout=7 -o ServerAliveInterval=5 -o "
					     "ServerAliveCountMax=3 -p 2222 -o IdentityFile=/tmp/k -o "
					     "UserKnownHostsFile=/dev/null -l tester -- 127.0.0.1 uname -r");
	ior_argv_free(argv);
	CU_ASSERT_EQUAL_FATAL(ior_vm_scp_argv(&s, "/tmp/a.deb", "/var/tmp/d/a.deb", true, &argv), IOR_OK);
	CU_ASSERT_STRING_EQUAL(joined(argv), "scp -q -o BatchMode=yes -o ConnectTimeout=7 -o ServerAliveInterval=5 -o "
					     "ServerAliveCountMax=3 -P 2222 -o IdentityFile=/tmp/k -o "
					     "UserKnownHostsFile=/dev/null /tmp/a.deb tester@127.0.0.1:/var/tmp/d/a.deb");
	ior_argv_free(argv);
	/* a download; a local name with ':' is not taken for a host; an IPv6 host in brackets */
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_parse(&u, "ssh://[::1]"), IOR_OK);
	s.noptions = 0;
	CU_ASSERT_EQUAL_FATAL(ior_vm_scp_argv(&s, "a:b.db", "/var/tmp/r.db", false, &argv), IOR_OK);
	CU_ASSERT_STRING_EQUAL(joined(argv), "scp -q -o BatchMode=yes -o ConnectTimeout=7 -o ServerAliveInterval=5 -o "
					     "ServerAliveCountMax=3 [::1]:/var/tmp/r.db ./a:b.db");
	ior_argv_free(argv);
}

/* Connection sharing (issue 36, the per-boot overhead): the master started once in a private 0700
 * directory, every command and copy through its socket, and the directory gone at the end. An `ssh`
 * of the test's own in PATH stands in for OpenSSH's: -M makes the socket, -O check answers while it
 * is there, -O exit removes it; it logs its arguments. */
static void test_ssh_connection_shared(void)
{
	const char *log = ior_test_path("ssh.log");
	char script[1200];
	snprintf(script, sizeof(script),
		 "#!/bin/sh\necho \"$*\" >> %s\nsock=\nprev=\nfor a; do case \"$prev\" in -S) sock=$a;; esac; "
		 "case \"$a\" in ControlPath=*) [ -z \"$sock\" ] && sock=${a#ControlPath=};; esac; prev=$a; done\n"
		 "case \" $* \" in *' -M '*) touch \"$sock\"; exit 0;; *'-O check'*) test -e \"$sock\"; exit;; "
		 "*'-O exit'*) rm -f \"$sock\"; exit 0;; esac\nexit 0\n",
		 log);
	char bin[4200];
	snprintf(bin, sizeof(bin), "%s/bin", ior_test_tmpdir());
	mkdir(bin, 0700);
	const char *fake = ior_test_write_file("bin/ssh", script);
	CU_ASSERT_EQUAL_FATAL(chmod(fake, 0755), 0);
	char path[4400], *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	snprintf(path, sizeof(path), "%s/bin:%s", ior_test_tmpdir(), old ? old : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	setenv("TMPDIR", ior_test_tmpdir(), 1);

	struct ior_vm_target_url u;
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_parse(&u, "ssh://root@127.0.0.1:2222"), IOR_OK);
	struct ior_vm_ssh s = { .url = &u, .connect_timeout_s = 7, .sudo = "" };
	CU_ASSERT_FALSE(ior_vm_ssh_shared(&s));
	CU_ASSERT_EQUAL(ior_vm_ssh_share(&s, 10), IOR_OK);
	CU_ASSERT_TRUE(ior_vm_ssh_shared(&s));
	char dir[96];
	snprintf(dir, sizeof(dir), "%s", s.control);
	*strrchr(dir, '/') = '\0';
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(stat(dir, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	/* a master that lives is not started again */
	CU_ASSERT_EQUAL(ior_vm_ssh_share(&s, 10), IOR_OK);
	char **argv;
	CU_ASSERT_EQUAL_FATAL(ior_vm_ssh_argv(&s, "true", &argv), IOR_OK);
	char want[256];
	snprintf(want, sizeof(want), "ssh -o ControlPath=%s -o ControlMaster=no -o BatchMode=yes", s.control);
	CU_ASSERT_EQUAL(strncmp(joined(argv), want, strlen(want)), 0);
	ior_argv_free(argv);
	CU_ASSERT_EQUAL_FATAL(ior_vm_scp_argv(&s, "/tmp/a", "/tmp/b", true, &argv), IOR_OK);
	snprintf(want, sizeof(want), "scp -q -o ControlPath=%s -o ControlMaster=no", s.control);
	CU_ASSERT_EQUAL(strncmp(joined(argv), want, strlen(want)), 0);
	ior_argv_free(argv);
	ior_vm_ssh_unshare(&s);
	CU_ASSERT_FALSE(ior_vm_ssh_shared(&s));
	CU_ASSERT_NOT_EQUAL(access(dir, F_OK), 0);
	char *text = ior_test_read_file(log, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	size_t masters = 0;
	for (const char *p = strstr(text, "-M -N -f"); p; p = strstr(p + 1, "-M -N -f"))
		masters++;
	CU_ASSERT_EQUAL(masters, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "-O exit"));
	free(text);
	setenv("PATH", old ? old : "/usr/bin:/bin", 1);
	free(old);
	unsetenv("TMPDIR");
}

static void make_dir_in(const char *base, const char *name, mode_t mode)
{
	char p[600];
	snprintf(p, sizeof(p), "%s/%s", base, name);
	CU_ASSERT_EQUAL_FATAL(mkdir(p, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(chmod(p, mode), 0);
}

static bool there(const char *base, const char *name)
{
	char p[600];
	snprintf(p, sizeof(p), "%s/%s", base, name);
	struct stat st;
	return lstat(p, &st) == 0;
}

/* A unix socket at base/dir/m; its listening descriptor returned (a live master) or closed (-1: the
 * master died and left the file, whose connections are refused). */
static int socket_in(const char *base, const char *dir, bool live)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s/m", base, dir);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL_FATAL(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	CU_ASSERT_EQUAL_FATAL(listen(fd, 1), 0);
	if (live)
		return fd;
	close(fd);
	return -1;
}

/* Issue 36: a controller killed with SIGKILL left its 0700 socket directory. The sweep (the next
 * share, and recover) removes this user's left ones: empty, or holding a dead master's socket; it
 * leaves one in use (locked by a live controller, or with a master that answers), another user's, a
 * link, a changed mode, one holding anything else, and one from before the lock (unless a day old). */
static void test_ssh_dirs_swept(void)
{
	char base[200];
	snprintf(base, sizeof(base), "%s/sw", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(base, 0700), 0);
	make_dir_in(base, "ior-ssh-Empty1", 0700);
	make_dir_in(base, "ior-ssh-Dead01", 0700);
	socket_in(base, "ior-ssh-Dead01", false);
	make_dir_in(base, "ior-ssh-Live01", 0700);
	int live = socket_in(base, "ior-ssh-Live01", true);
	make_dir_in(base, "ior-ssh-Other1", 0700);
	char p[600];
	snprintf(p, sizeof(p), "%s/ior-ssh-Other1/notes", base);
	ior_test_write_file("sw-notes", "x");
	CU_ASSERT_EQUAL(rename(ior_test_path("sw-notes"), p), 0);
	make_dir_in(base, "ior-ssh-Mode01", 0755);
	make_dir_in(base, "ior-ssh.Old001", 0700);   /* from before the lock, used a moment ago */
	make_dir_in(base, "ior-ssh.Old002", 0700);   /* from before the lock, untouched for two days */
	snprintf(p, sizeof(p), "%s/ior-ssh.Old002", base);
	struct timespec old[2] = { { .tv_sec = time(NULL) - 2 * 86400 }, { .tv_sec = time(NULL) - 2 * 86400 } };
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, p, old, 0), 0);
	make_dir_in(base, "ior-ssh-Short", 0700);    /* not mkdtemp's name */
	make_dir_in(base, "elsewhere", 0700);
	snprintf(p, sizeof(p), "%s/ior-ssh-Link01", base);
	CU_ASSERT_EQUAL(symlink("elsewhere", p), 0);
	/* in use: a controller's directory, locked for its life (another open file holds the lock) */
	make_dir_in(base, "ior-ssh-Held01", 0700);
	snprintf(p, sizeof(p), "%s/ior-ssh-Held01", base);
	int held = open(p, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_EQUAL_FATAL(flock(held, LOCK_EX), 0);
	/* another user's (root only can make one) */
	bool root = geteuid() == 0;
	if (root) {
		make_dir_in(base, "ior-ssh-Nobody", 0700);
		snprintf(p, sizeof(p), "%s/ior-ssh-Nobody", base);
		CU_ASSERT_EQUAL(chown(p, 65534, 65534), 0);
	}

	/* Live01's master belongs to nobody here: an ssh whose -O exit ends nothing leaves it answering */
	char bin[300], *old_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin"), path[800];
	snprintf(bin, sizeof(bin), "%s/swbin", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(bin, 0700), 0);
	snprintf(p, sizeof(p), "%s/ssh", bin);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(chmod(p, 0755), 0);
	snprintf(path, sizeof(path), "%s:%s", bin, old_path);
	setenv("PATH", path, 1);

	unsigned removed = 0, failed = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	ior_vm_ssh_sweep(base, out, &removed, &failed);
	fclose(out);
	CU_ASSERT_EQUAL(removed, 3);
	CU_ASSERT_EQUAL(failed, 0);
	CU_ASSERT(text && strstr(text, "ior-ssh-Dead01' left by a controller that is gone: removed") != NULL);
	CU_ASSERT_FALSE(there(base, "ior-ssh-Empty1"));
	CU_ASSERT_FALSE(there(base, "ior-ssh-Dead01"));
	CU_ASSERT_FALSE(there(base, "ior-ssh.Old002"));
	const char *kept[] = { "ior-ssh-Live01", "ior-ssh-Live01/m", "ior-ssh-Other1", "ior-ssh-Mode01", "ior-ssh.Old001",
			       "ior-ssh-Short", "ior-ssh-Link01", "elsewhere", "ior-ssh-Held01", root ? "ior-ssh-Nobody" : "elsewhere" };
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		if (!there(base, kept[i]))
			fprintf(stderr, "\n  '%s' was removed", kept[i]);
		CU_ASSERT_TRUE(there(base, kept[i]));
	}
	free(text);
	/* once the controller is gone (its lock with it) and the master died, they go too */
	close(held);
	close(live);
	removed = 0;
	ior_vm_ssh_sweep(base, NULL, &removed, &failed);
	CU_ASSERT_EQUAL(removed, 2);
	CU_ASSERT_FALSE(there(base, "ior-ssh-Held01"));
	CU_ASSERT_FALSE(there(base, "ior-ssh-Live01"));
	CU_ASSERT_TRUE(there(base, "ior-ssh-Other1"));
	setenv("PATH", old_path, 1);
	free(old_path);
}

static int dirs_in(const char *base)
{
	char pattern[300];
	snprintf(pattern, sizeof(pattern), "%s/ior-ssh*", base);
	return ior_test_count_glob(pattern);
}

/* The whole story with the real share: a controller (a child here, with a fake ssh whose master binds
 * the socket and dies) is SIGKILLed while it shares a connection; its directory stays, locked no more;
 * `ioregress recover` removes it and says so. */
static void test_killed_controller_dir_recovered(void)
{
	char base[200], bin[200];
	snprintf(base, sizeof(base), "%s/kc", ior_test_tmpdir());
	snprintf(bin, sizeof(bin), "%s/kcbin", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(base, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(bin, 0700), 0);
	/* the master: a listener on the socket that outlives the controller (ControlPersist), its pid in
	 * master.pid; -O exit ends it and its socket, as OpenSSH's master does */
	char script[1600], fake[300], pidfile[300];
	snprintf(pidfile, sizeof(pidfile), "%s/master.pid", bin);
	snprintf(script, sizeof(script),
		 "#!/bin/sh\nsock=\nprev=\nfor a; do case \"$prev\" in -S) sock=$a;; esac; "
		 "case \"$a\" in ControlPath=*) [ -z \"$sock\" ] && sock=${a#ControlPath=};; esac; prev=$a; done\n"
		 "case \" $* \" in *' -M '*) python3 -c 'import os, socket, sys\n"
		 "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4)\n"
		 "open(sys.argv[2], \"w\").write(str(os.getpid()))\n"
		 "while True: s.accept()[0].close()' \"$sock\" %s </dev/null >/dev/null 2>&1 &\n"
		 "  while [ ! -s %s ]; do sleep 0.05; done; exit 0;;\n"
		 "*'-O check'*) test -S \"$sock\"; exit;;\n"
		 "*'-O exit'*) kill $(cat %s); rm -f \"$sock\"; exit 0;; esac\nexit 0\n",
		 pidfile, pidfile, pidfile);
	snprintf(fake, sizeof(fake), "%s/ssh", bin);
	FILE *f = fopen(fake, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(script, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(chmod(fake, 0755), 0);
	int ready[2];
	CU_ASSERT_EQUAL_FATAL(pipe(ready), 0);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		char path[600];
		snprintf(path, sizeof(path), "%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
		setenv("PATH", path, 1);
		setenv("TMPDIR", base, 1);
		struct ior_vm_target_url u;
		ior_vm_target_parse(&u, "ssh://root@127.0.0.1:2222");
		struct ior_vm_ssh s = { .url = &u, .connect_timeout_s = 7, .sudo = "" };
		ior_vm_ssh_share(&s, 10);
		char ok = ior_vm_ssh_shared(&s) ? 'y' : 'n';
		if (write(ready[1], &ok, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	char ok = 0;
	CU_ASSERT_EQUAL(read(ready[0], &ok, 1), 1);
	close(ready[0]);
	CU_ASSERT_EQUAL(ok, 'y');
	CU_ASSERT_EQUAL(dirs_in(base), 1);
	/* while the controller lives its directory is in use, even with its master dead */
	unsigned removed = 0;
	ior_vm_ssh_sweep(base, NULL, &removed, NULL);
	CU_ASSERT_EQUAL(removed, 0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CU_ASSERT_EQUAL(dirs_in(base), 1);
	char *text = ior_test_read_file(pidfile, NULL);
	pid_t master = text ? (pid_t)atoi(text) : 0;
	free(text);
	CU_ASSERT_FATAL(master > 0);
	CU_ASSERT_EQUAL(kill(master, 0), 0);   /* the master outlived its controller */
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL, *old_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	char path[700];
	snprintf(path, sizeof(path), "%s:%s", bin, old_path);
	setenv("PATH", path, 1);
	setenv("TMPDIR", base, 1);
	char out[8192], err[8192];
	int rc = ior_test_ioregress((char *[]){ "--db", (char *)ior_test_path("kc.db"), "recover", NULL }, out, sizeof(out),
				    err, sizeof(err));
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	setenv("PATH", old_path, 1);
	free(old);
	free(old_path);
	/* the orphan master was asked to exit (and did), then its directory went */
	for (int i = 0; i < 50 && kill(master, 0) == 0; i++) {
		waitpid(master, NULL, WNOHANG);
		usleep(100000);
	}
	CU_ASSERT_NOT_EQUAL(kill(master, 0), 0);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "left by a controller that is gone: removed"));
	if (!strstr(out, "left by a controller that is gone: removed"))
		fprintf(stderr, "\n  recover: %s%s", out, err);
	CU_ASSERT_EQUAL(dirs_in(base), 0);
}

/* --shutdown (issue 36's boot round): the default stops every unit (systemctl kexec); force adds
 * systemctl's --force and nothing else, to the kexec, the GRUB entry's reboot and the plain reboot. */
static void test_boot_command_shutdown(void)
{
	struct ior_vm_target_opts o;
	ior_vm_target_opts_default(&o);
	char cmd[1600];
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_ssh_boot_command(&o, "6.1.0-47-cloud-amd64", cmd, sizeof(cmd)), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(cmd, "kexec -l /boot/vmlinuz-6.1.0-47-cloud-amd64 --initrd=/boot/initrd.img-6.1.0-47"));
	CU_ASSERT_PTR_NOT_NULL(strstr(cmd, "; systemctl kexec'"));
	CU_ASSERT_PTR_NULL(strstr(cmd, "--force"));
	o.shutdown = IOR_VM_TARGET_SHUTDOWN_FORCE;
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_ssh_boot_command(&o, "6.1.0-47-cloud-amd64", cmd, sizeof(cmd)), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(cmd, "; systemctl --force kexec'"));
	/* once: twice would kexec at once, without killing processes or unmounting anything */
	CU_ASSERT_PTR_NULL(strstr(cmd, "--force --force"));
	CU_ASSERT_PTR_NULL(strstr(cmd, "-ff"));
	o.boot = IOR_VM_TARGET_BOOTLOADER;
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_ssh_boot_command(&o, "6.1.0-47-cloud-amd64", cmd, sizeof(cmd)), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(cmd, "grub-reboot"));
	CU_ASSERT_PTR_NOT_NULL(strstr(cmd, "; systemctl --force reboot'"));
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_ssh_boot_command(&o, NULL, cmd, sizeof(cmd)), IOR_OK);
	CU_ASSERT_PTR_NULL(strstr(cmd, "grub-reboot"));
	CU_ASSERT_PTR_NOT_NULL(strstr(cmd, "; systemctl --force reboot'"));
	o.shutdown = IOR_VM_TARGET_SHUTDOWN_CLEAN;
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_ssh_boot_command(&o, NULL, cmd, sizeof(cmd)), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(cmd, "; systemctl reboot'"));
	CU_ASSERT_EQUAL(ior_vm_target_ssh_boot_command(&o, "6.1", cmd, 20), IOR_EINVALID);
}

static void test_shell_quote(void)
{
	char out[64];
	CU_ASSERT_TRUE(ior_vm_shell_quote("/var/tmp/a b", out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "'/var/tmp/a b'");
	CU_ASSERT_TRUE(ior_vm_shell_quote("it's $(x)", out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "'it'\\''s $(x)'");
	/* the quoted word read back by a shell is the text itself */
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "printf %%s %s", out);
	struct ior_spawn c = { .shell = cmd, .out_to = IOR_SPAWN_OUT_CAPTURE };
	CU_ASSERT_EQUAL_FATAL(ior_spawn_run(&c), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.out, "it's $(x)");
	ior_spawn_free(&c);
	char small[6];
	CU_ASSERT_FALSE(ior_vm_shell_quote("abcdef", small, sizeof(small)));
}

/* The plan: stored steps come back in seq order, one at a time until each is done or skipped; a
 * step's state, tries, boot id before it and reason are kept; installs are pending until closed. */
static void test_plan_in_database(void)
{
	struct ior_db *db = NULL;
	const char *path = ior_test_path("plan.db");
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), IOR_OK);
	int64_t host = 0, plan = 0;
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, "controller", "x86_64", &host), IOR_OK);
	struct ior_db_target_plan p = { .vm_run = "c/1/t", .target = "ssh://box", .options = "boot=kexec\n", .rounds = 2 };
	CU_ASSERT_EQUAL_FATAL(ior_db_target_plan_add(db, &p, host, 1234, "boot-a", &plan), IOR_OK);
	const char *kernels[] = { "A", "B" };
	int seq = 0;
	for (unsigned r = 1; r <= 2; r++)
		for (size_t j = 0; j < 2; j++)
			CU_ASSERT_EQUAL(ior_db_target_step_add(db, plan, ++seq, (int)r, kernels[ior_vm_round_slot(r, j, 2)]),
					IOR_OK);
	int steps = 0, rounds = 0;
	CU_ASSERT_EQUAL(ior_db_target_steps_count(db, plan, &steps, &rounds), IOR_OK);
	CU_ASSERT_EQUAL(steps, 4);
	CU_ASSERT_EQUAL(rounds, 2);
	struct ior_db_target_plan got;
	CU_ASSERT_EQUAL_FATAL(ior_db_target_plan_running(db, "ssh://box", &got), IOR_OK);
	CU_ASSERT_EQUAL(got.id, plan);
	CU_ASSERT_STRING_EQUAL(got.vm_run, "c/1/t");
	CU_ASSERT_STRING_EQUAL(got.options, "boot=kexec\n");
	ior_db_target_plan_free(&got);
	CU_ASSERT_EQUAL(ior_db_target_plan_running(db, "ssh://other", &got), IOR_ENOTFOUND);

	static const char order[] = "ABBA";
	for (int i = 0; i < 4; i++) {
		struct ior_db_target_step s;
		CU_ASSERT_EQUAL_FATAL(ior_db_target_step_next(db, plan, &s), IOR_OK);
		CU_ASSERT_EQUAL(s.seq, i + 1);
		CU_ASSERT_EQUAL(s.kernel[0], order[i]);
		CU_ASSERT_STRING_EQUAL(s.state, "pending");
		/* booting keeps the step the next one (a resumed run goes on there) */
		CU_ASSERT_EQUAL(ior_db_target_step_set(db, s.id, "booting", 1, 0, "boot-a", NULL), IOR_OK);
		struct ior_db_target_step again;
		CU_ASSERT_EQUAL_FATAL(ior_db_target_step_next(db, plan, &again), IOR_OK);
		CU_ASSERT_EQUAL(again.id, s.id);
		CU_ASSERT_STRING_EQUAL(again.state, "booting");
		CU_ASSERT_STRING_EQUAL(again.from_boot_id, "boot-a");
		CU_ASSERT_EQUAL(again.tries, 1);
		ior_db_target_step_free(&again);
		CU_ASSERT_EQUAL(ior_db_target_step_set(db, s.id, i == 2 ? "skipped" : "done", 1, 0, NULL,
						       i == 2 ? "lost 3 times" : NULL),
				IOR_OK);
		ior_db_target_step_free(&s);
	}
	struct ior_db_target_step none;
	CU_ASSERT_EQUAL(ior_db_target_step_next(db, plan, &none), IOR_ENOTFOUND);
	CU_ASSERT_EQUAL(ior_db_target_plan_finish(db, plan, "done"), IOR_OK);
	CU_ASSERT_EQUAL(ior_db_target_plan_running(db, "ssh://box", &got), IOR_ENOTFOUND);

	int64_t i1 = 0, i2 = 0;
	CU_ASSERT_EQUAL(ior_db_target_install_add(db, "ssh://box", "linux-image-a", "1", "a", host, 1234, "boot-a", &i1),
			IOR_OK);
	CU_ASSERT_EQUAL(ior_db_target_install_add(db, "ssh://box2", "linux-image-b", "2", "b", host, 1234, "boot-a", &i2),
			IOR_OK);
	struct ior_db_target_install *v;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_db_target_installs_pending(db, "ssh://box", &v, &n), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(v[0].package, "linux-image-a");
	ior_db_target_installs_free(v, n);
	CU_ASSERT_EQUAL(ior_db_target_install_done(db, i1, false), IOR_OK);
	CU_ASSERT_EQUAL(ior_db_target_install_done(db, i2, true), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(ior_db_target_installs_pending(db, NULL, &v, &n), IOR_OK);
	CU_ASSERT_EQUAL(n, 0);
	ior_db_target_installs_free(v, n);
	ior_db_free(db);
}

/* What a resumed run reads: a boot interrupted is not a step's row (it is booted again), a boot
 * recorded is (a controller killed between the merge and the step's end does not merge it twice);
 * every running plan is listed for recover; options are read by name. */
static void test_resume_reads(void)
{
	const char *path = ior_test_path("resume.db");
	struct ior_db *db;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), IOR_OK);
	int64_t host = 0, plan = 0, row = 0;
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, "box", "x86_64", &host), IOR_OK);
	struct ior_db_vm_boot b = { .host_id = host, .vm_run = "c/1/t", .kernel = "k1", .boot_index = 1,
				    .outcome = "interrupted", .cpus = -1, .memory_mb = -1, .guest_status = -1 };
	CU_ASSERT_EQUAL_FATAL(ior_db_vm_boot_add(db, &b, NULL), IOR_OK);
	char outcome[32] = "";
	CU_ASSERT_EQUAL(ior_db_target_boot_row(db, "c/1/t", "k1", 1, &row, outcome, sizeof(outcome)), IOR_ENOTFOUND);
	b.outcome = "boot-failed";
	CU_ASSERT_EQUAL_FATAL(ior_db_vm_boot_add(db, &b, NULL), IOR_OK);
	CU_ASSERT_EQUAL(ior_db_target_boot_row(db, "c/1/t", "k1", 1, &row, outcome, sizeof(outcome)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(outcome, "boot-failed");
	CU_ASSERT(row > 0);
	CU_ASSERT_EQUAL(ior_db_target_boot_row(db, "c/1/t", "k1", 2, &row, NULL, 0), IOR_ENOTFOUND);

	struct ior_db_target_plan p = { .vm_run = "c/1/t", .target = "ssh://box", .rounds = 1,
					.options = "boot=kexec\nkernel=k1\nworkdir=/var/tmp/ioregress-target.abcdef\n" };
	CU_ASSERT_EQUAL_FATAL(ior_db_target_plan_add(db, &p, host, 1234, "boot-a", &plan), IOR_OK);
	p.target = "local";
	p.vm_run = "c/2/t";
	CU_ASSERT_EQUAL_FATAL(ior_db_target_plan_add(db, &p, host, 99, "boot-b", &plan), IOR_OK);
	CU_ASSERT_EQUAL(ior_db_target_plan_finish(db, plan, "done"), IOR_OK);
	struct ior_db_target_plan *v;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_db_target_plans_running(db, &v, &n), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(v[0].target, "ssh://box");
	CU_ASSERT_EQUAL(v[0].pid, 1234);
	CU_ASSERT_STRING_EQUAL(v[0].boot_id, "boot-a");
	char value[128];
	ior_db_target_plan_option(v[0].options, "workdir", value, sizeof(value));
	CU_ASSERT_STRING_EQUAL(value, "/var/tmp/ioregress-target.abcdef");
	ior_db_target_plan_option(v[0].options, "work", value, sizeof(value));
	CU_ASSERT_STRING_EQUAL(value, "");
	ior_db_target_plans_free(v, n);
	ior_db_free(db);
}

/* A plan whose controller still runs (here: this test's own process, in this boot) is not taken
 * over: a second vm run on that target is refused before it reaches the target, and stores nothing. */
static void test_live_plan_refused(void)
{
	const char *path = ior_test_path("live.db");
	struct ior_db *db;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), IOR_OK);
	int64_t host = 0, plan = 0;
	char boot[64];
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	CU_ASSERT_FATAL(f && fgets(boot, sizeof(boot), f));
	fclose(f);
	boot[strcspn(boot, "\n")] = '\0';
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, "here", "x86_64", &host), IOR_OK);
	struct ior_db_target_plan p = { .vm_run = "c/1/t", .target = "ssh://box.invalid", .options = "kernel=linux-image-6.1.0-47-cloud-amd64\n",
					.rounds = 1 };
	CU_ASSERT_EQUAL_FATAL(ior_db_target_plan_add(db, &p, host, (int)getpid(), boot, &plan), IOR_OK);
	ior_db_free(db);
	const char *matrix = ior_test_write_file("m.ini", "[device d]\npath = /dev/vdb\n[engine e]\ntype = hdparm\n");
	char out[2048], err[4096];
	char *args[] = { "--db", (char *)path, "vm", "run", "--target", "ssh://box.invalid", "--matrix", (char *)matrix,
			 "linux-image-6.1.0-47-cloud-amd64", NULL };
	int status = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	CU_ASSERT_NOT_EQUAL(status, 0);
	if (!strstr(err, "one controller per target"))
		fprintf(stderr, "\n%s", err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "one controller per target"));
	CU_ASSERT_EQUAL(ior_test_query(path, "SELECT count(*) FROM target_plans"), 1);
	CU_ASSERT_EQUAL(ior_test_query(path, "SELECT count(*) FROM target_plans WHERE state = 'running'"), 1);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_target_forms),
		IOR_TEST(test_target_refusals),
		IOR_TEST(test_rotation),
		IOR_TEST(test_ssh_command_lines),
		IOR_TEST(test_ssh_connection_shared),
		IOR_TEST(test_boot_command_shutdown),
		IOR_TEST(test_ssh_dirs_swept),
		IOR_TEST(test_killed_controller_dir_recovered),
		IOR_TEST(test_shell_quote),
		IOR_TEST(test_plan_in_database),
		IOR_TEST(test_resume_reads),
		IOR_TEST(test_live_plan_refused),
		IOR_TEST_END,
	};
	return ior_test_run("vm_target", tests);
}
