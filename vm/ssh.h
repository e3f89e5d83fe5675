/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Commands on another machine and files to and from it, through the system's ssh and scp with the
 * user's keys and ~/.ssh/config: never a password (BatchMode), always a deadline. */
#ifndef IOR_VM_SSH_H
#define IOR_VM_SSH_H

#include "common/spawn.h"
#include "vm/target.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ssh's exit status when the connection failed or was lost (the remote command's own are 0-254). */
#define IOR_VM_SSH_LOST 255

struct ior_vm_ssh {
	const struct ior_vm_target_url *url;
	const char *const *options;   /* each passed as -o VALUE after ours (a later -o cannot override an
				       * earlier one, so ours are only those a batch run needs) */
	size_t noptions;
	double connect_timeout_s;
	const char *sudo;             /* "" as root; "sudo -n " for a user who may (checked by the caller) */
	/* The shared connection's socket (ior_vm_ssh_share), "" for none: every command and copy goes
	 * through it while its master lives, and connects on its own when it does not (a reboot ends it). */
	char control[96];
	/* The socket's directory held open with an exclusive flock(2) while this process shares the
	 * connection (dir_fd valid only when dir_locked): a sweep leaves a locked directory alone, and the
	 * lock ends with the process, however it ends. */
	int dir_fd;
	bool dir_locked;
};

/* The argument lists, NULL-terminated in *argv (free with ior_argv_free):
 *   ssh -o BatchMode=yes -o ConnectTimeout=N -o ServerAliveInterval=5 -o ServerAliveCountMax=3
 *       [-p PORT] [-l USER] [-o OPTION]... -- HOST COMMAND
 *   scp -q -o BatchMode=yes ... [-P PORT] [-o OPTION]... FROM TO   ([USER@]HOST:PATH on the remote side,
 *       [v6] in brackets) */
int ior_vm_ssh_argv(const struct ior_vm_ssh *s, const char *command, char ***argv);
int ior_vm_scp_argv(const struct ior_vm_ssh *s, const char *local, const char *remote, bool upload, char ***argv);

/* Runs command on the target (through its login shell), stdout captured into c->out, stderr's tail in
 * c->err, ended after limit_s. IOR_OK whenever ssh ran (see ior_vm_ssh_lost and c->status);
 * IOR_EINTERRUPTED on a stop request. Free c with ior_spawn_free. */
int ior_vm_ssh_run(const struct ior_vm_ssh *s, const char *command, double limit_s, struct ior_spawn *c);
/* True when the command never ran to its end on the target: the connection failed or was lost
 * (status 255), or the deadline ended it. */
bool ior_vm_ssh_lost(const struct ior_spawn *c);
/* command on the target, which must exit 0; its stdout (trailing newlines dropped) into out when out
 * is not NULL. Otherwise an error naming what and how it ended: IOR_ETIMEDOUT when the connection
 * failed, was lost or the deadline passed (the target may come back: a fault to retry), IOR_ERROR
 * when the command itself failed. */
int ior_vm_ssh_check(const struct ior_vm_ssh *s, const char *command, double limit_s, const char *what, char *out,
		     size_t len);
/* One file copied to (upload) or from the target with scp; errors as ior_vm_ssh_check's. */
int ior_vm_ssh_copy(const struct ior_vm_ssh *s, const char *local, const char *remote, bool upload, double limit_s);

/* One connection shared by the commands that follow (ssh's ControlMaster, its socket in a private
 * 0700 directory of ours under $TMPDIR or /tmp, IOR_VM_SSH_DIR_PREFIX and six random characters,
 * locked while we use it): started unless it lives, with limit_s to come up. The first call sweeps
 * what killed controllers of this user left there (ior_vm_ssh_sweep).
 * Each command then costs a channel, not a key exchange (seconds on a slow machine). A master that
 * cannot start is no error: the commands connect on their own, as before. */
int ior_vm_ssh_share(struct ior_vm_ssh *s, double limit_s);
/* True when the shared connection's socket is there (its master came up); false without one. */
bool ior_vm_ssh_shared(const struct ior_vm_ssh *s);
/* The shared connection ended (ssh -O exit) and its directory removed; a no-op without one. A master
 * left by a controller that was SIGKILLed ends by itself after 10 idle minutes (ControlPersist). */
void ior_vm_ssh_unshare(struct ior_vm_ssh *s);

/* The socket directories' name before mkdtemp's six characters; "ior-ssh." is the name of those made
 * before the lock (no process holds them). */
#define IOR_VM_SSH_DIR_PREFIX "ior-ssh-"
#define IOR_VM_SSH_DIR_PREFIX_UNLOCKED "ior-ssh."

/* Where the socket directories are made: $TMPDIR when it is an absolute path of at most 40 bytes
 * (a socket's path holds 107), else /tmp. */
const char *ior_vm_ssh_base(void);

/* The socket directories a controller of this user left in base (NULL: $TMPDIR when it is set and
 * short, else /tmp) when it was killed: removed when the directory is this user's (owner and 0700, not
 * a link), holds nothing but the socket "m", and nobody uses it: no process holds its lock (a directory
 * from before the lock: untouched for a day) and its socket is gone or refuses a connection (its
 * master is dead). A master left running by its killed controller (ControlPersist) is asked to exit
 * first (ssh -O exit); one in a directory from before the lock is left, and its directory. One line
 * on out (NULL: none) for each directory removed and each that could not be; counted in *removed and
 * *failed (NULL: not counted). */
void ior_vm_ssh_sweep(const char *base, FILE *out, unsigned *removed, unsigned *failed);

/* s as one word of a POSIX shell command line: in single quotes, each ' written '\''. False when it
 * does not fit. */
bool ior_vm_shell_quote(const char *s, char *out, size_t len);

#endif
