/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared connections' socket directories left by controllers that were killed, removed when they are this user's and nobody uses them. */
#include "vm/ssh.h"

#include "common/spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* A directory from before the lock: no process can say it uses it, so only one left untouched this
 * long (longer than any boot's wait, whose polls make and remove the socket) is taken for left. */
#define UNLOCKED_AGE_S (24 * 3600)

/* mkdtemp's name: the prefix and six characters of [A-Za-z0-9]. */
static bool ours_by_name(const char *name, bool *locked)
{
	size_t pl = strlen(IOR_VM_SSH_DIR_PREFIX);
	*locked = !strncmp(name, IOR_VM_SSH_DIR_PREFIX, pl);
	if (!*locked && strncmp(name, IOR_VM_SSH_DIR_PREFIX_UNLOCKED, pl))
		return false;
	if (strlen(name) != pl + 6)
		return false;
	for (const char *p = name + pl; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

/* True when a master answers on path (a live ssh holds the connection: in use); a socket that refuses
 * (ECONNREFUSED: nobody listens) is a dead master's. */
static bool master_lives(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(a.sun_path))
		return true;   /* cannot tell: leave it */
	memcpy(a.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);   /* a full backlog says EAGAIN, never blocks */
	if (fd < 0)
		return true;
	bool lives = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 || (errno != ECONNREFUSED && errno != ENOENT);
	close(fd);
	return lives;
}

/* A master whose controller is gone (its directory's lock is free) serves nobody: asked to exit, as
 * the controller's own end does (ssh -O exit; the host is only a name there). True when it is gone. */
static bool end_orphan(const char *sock)
{
	const char *argv[] = { "ssh", "-o", "BatchMode=yes", "-S", sock, "-O", "exit", "--", "ior-orphan", NULL };
	struct ior_spawn c = { .argv = argv, .out_to = IOR_SPAWN_OUT_NULL, .err_to = IOR_SPAWN_ERR_TAIL, .limit_s = 10 };
	ior_spawn_run(&c);
	ior_spawn_free(&c);
	for (int i = 0; i < 20 && master_lives(sock); i++) {
		struct timespec pause = { .tv_nsec = 50 * 1000000L };
		nanosleep(&pause, NULL);
	}
	return !master_lives(sock);
}

/* What the directory (open as fd) holds is a left one's: nothing, or the socket "m" of a dead master
 * (with orphans, of a master ended here) and nothing else. *socket says whether "m" is there. */
static bool left_inside(int fd, const char *path, bool orphans, bool *socket)
{
	*socket = false;
	int copy = dup(fd);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	if (!d) {
		if (copy >= 0)
			close(copy);
		return false;
	}
	bool left = true;
	for (struct dirent *e; left && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		struct stat st;
		if (strcmp(e->d_name, "m") != 0 || fstatat(fd, "m", &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISSOCK(st.st_mode) ||
		    st.st_uid != geteuid()) {
			left = false;
			break;
		}
		char sock[PATH_MAX];
		snprintf(sock, sizeof(sock), "%s/m", path);
		*socket = true;
		left = !master_lives(sock) || (orphans && end_orphan(sock));
	}
	closedir(d);
	return left;
}

/* One entry of base: removed when it is a left directory of ours (a locked kind's orphan master ended
 * first; one from before the lock may be a live old controller's, whose master is left). 1 removed, 0 not ours or in use,
 * -1 could not be removed (errno). */
static int sweep_one(int basefd, const char *base, const char *name)
{
	bool locked;
	if (!ours_by_name(name, &locked))
		return 0;
	int fd = openat(basefd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", base, name);
	bool socket = false;
	int r = 0;
	/* another user's, a link or one whose mode was changed is not ours to judge; a locked one is in use */
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 07777) == 0700 &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0 && (locked || time(NULL) - st.st_mtime > UNLOCKED_AGE_S) &&
	    left_inside(fd, path, locked, &socket)) {
		r = 1;
		if ((socket && unlinkat(fd, "m", 0) != 0 && errno != ENOENT) ||
		    (unlinkat(basefd, name, AT_REMOVEDIR) != 0 && errno != ENOENT))
			r = -1;
	}
	int saved = errno;
	close(fd);
	errno = saved;
	return r;
}

void ior_vm_ssh_sweep(const char *base, FILE *out, unsigned *removed, unsigned *failed)
{
	if (!base)
		base = ior_vm_ssh_base();
	DIR *d = opendir(base);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		int r = sweep_one(dirfd(d), base, e->d_name);
		if (r > 0 && out)
			fprintf(out, "vm: ssh connection directory '%s/%s' left by a controller that is gone: removed\n", base,
				e->d_name);
		if (r < 0 && out)
			fprintf(out, "vm: cannot remove '%s/%s': %s\n", base, e->d_name, strerror(errno));
		if (r > 0 && removed)
			(*removed)++;
		if (r < 0 && failed)
			(*failed)++;
	}
	closedir(d);
}
