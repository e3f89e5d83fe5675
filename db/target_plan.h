/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A vm run's plan of boots on a target (ssh, local), stored before its first boot so a killed
 * controller or a machine that rebooted goes on at the next step; and what it installed there. */
#ifndef IOR_DB_TARGET_PLAN_H
#define IOR_DB_TARGET_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ior_db;

/* target_plans: one per vm run on a target. options is the command line's options that shape a
 * boot, one "name=value" a line (boot=kexec, shutdown=clean, boot_timeout=600, retries=2, keep_kernels=0,
 * power_cycle=CMD, ssh_option=VALUE for each --ssh-option), so a resumed or rebooted plan boots as it began. */
struct ior_db_target_plan {
	int64_t id;
	char *vm_run, *target, *matrix_file, *matrix_text, *options, *state;
	int rounds;          /* --boots N, or --boots auto's cap */
	bool rounds_auto;
	int pid;             /* its owner: the controller's (or the local unit's) process, in boot boot_id */
	char *boot_id;
};
/* Stores a plan, owned by this process (host host_id, pid, boot_id: recover leaves a live owner's
 * plan alone), state 'running'. */
int ior_db_target_plan_add(struct ior_db *db, const struct ior_db_target_plan *p, int64_t host_id, int pid,
			   const char *boot_id, int64_t *id);
/* The newest plan still 'running' on target (its name as vm_boots.target stores it): IOR_ENOTFOUND
 * when there is none. */
int ior_db_target_plan_running(struct ior_db *db, const char *target, struct ior_db_target_plan *out);
/* The newest plan on target whatever its state (recover reaches the target with its ssh options). */
int ior_db_target_plan_latest(struct ior_db *db, const char *target, struct ior_db_target_plan *out);
/* Every plan still 'running', on any target, oldest first (recover looks at each whose owner is gone). */
int ior_db_target_plans_running(struct ior_db *db, struct ior_db_target_plan **out, size_t *n);
void ior_db_target_plans_free(struct ior_db_target_plan *v, size_t n);
/* The value of the first "name=value" line of a plan's options into out ("" when absent). */
void ior_db_target_plan_option(const char *options, const char *name, char *out, size_t len);
/* Takes a plan over (a resumed controller, the local unit at a new boot): its owner becomes pid in boot_id,
 * and its options options (NULL: unchanged). */
int ior_db_target_plan_own(struct ior_db *db, int64_t plan_id, int pid, const char *boot_id, const char *options);
/* state 'done' or 'aborted', finished now. */
int ior_db_target_plan_finish(struct ior_db *db, int64_t plan_id, const char *state);
void ior_db_target_plan_free(struct ior_db_target_plan *p);

/* target_steps: one boot of one kernel in a round, seq its place in the plan (1, 2, ... in boot
 * order: the rotation is decided when the round's steps are stored). state goes pending -> booting
 * (the boot command was sent) -> measuring (the kernel answered as expected) -> done, or skipped
 * (with reason); tries counts the boots tried for it. vm_boot_id is its vm_boots row once recorded. */
struct ior_db_target_step {
	int64_t id, plan_id, vm_boot_id;
	int seq, round, tries;
	char *kernel, *state, *reason;
	char *from_boot_id;   /* the target's boot id when the boot command was sent: the new boot must differ */
};
int ior_db_target_step_add(struct ior_db *db, int64_t plan_id, int seq, int round, const char *kernel);
/* The first step (lowest seq) neither done nor skipped: IOR_ENOTFOUND when the plan has none left. */
int ior_db_target_step_next(struct ior_db *db, int64_t plan_id, struct ior_db_target_step *out);
/* The number of steps stored for the plan and the highest round among them. */
int ior_db_target_steps_count(struct ior_db *db, int64_t plan_id, int *steps, int *rounds);
/* The number of the plan's steps neither done nor skipped. */
int ior_db_target_steps_left(struct ior_db *db, int64_t plan_id, int *left);
/* Sets a step's state and tries (never lowered: a kind's own retries within a boot count); its boot row (0: unchanged), the boot id before its boot and its
 * reason (NULL: unchanged). */
int ior_db_target_step_set(struct ior_db *db, int64_t step_id, const char *state, int tries, int64_t vm_boot_id,
			   const char *from_boot_id, const char *reason);
void ior_db_target_step_free(struct ior_db_target_step *s);
/* The newest vm_boots row of kernel in round boot_index of vm run vm_run that was not interrupted, and its
 * outcome into outcome (len bytes; NULL: not wanted): IOR_ENOTFOUND when none. */
int ior_db_target_boot_row(struct ior_db *db, const char *vm_run, const char *kernel, int boot_index, int64_t *id,
			   char *outcome, size_t len);

/* target_installs: a package a run installed on a target, until it is removed (or kept). */
struct ior_db_target_install {
	int64_t id;
	char *target, *package, *version, *release, *boot_id;
	int pid;
};
int ior_db_target_install_add(struct ior_db *db, const char *target, const char *package, const char *version,
			      const char *release, int64_t host_id, int pid, const char *boot_id, int64_t *id);
/* Removed (kept false) or left on purpose (kept true, --keep-kernels). */
int ior_db_target_install_done(struct ior_db *db, int64_t id, bool kept);
/* Installs neither removed nor kept, on target (NULL: every target), oldest first. */
int ior_db_target_installs_pending(struct ior_db *db, const char *target, struct ior_db_target_install **out,
				   size_t *n);
void ior_db_target_installs_free(struct ior_db_target_install *v, size_t n);

#endif
