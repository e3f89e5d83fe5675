/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bisection's rows (bisects, bisect_commits, bisect_samples, bisect_log) through db's prepared
 * statements; bisect/state.h adds what needs the commit graph. */
#ifndef IOR_DB_BISECT_STATE_H
#define IOR_DB_BISECT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* The bisects row. Named for bisect/, which drives it: every caller there reads it by this name. */
struct ior_bisect_info {
	int64_t id;
	char *source, *repo, *good, *bad, *orig_head;   /* good: space separated */
	bool higher_is_better;
	char *measure_cmd, *build_cmd, *boot_cmd, *image;
	char *kernels, *matrix;                         /* packages: the list (space separated), the matrix */
	char *target, *target_default;                  /* bisect run --target: the machine, the kernel it ran first */
	char *status, *result, *started_at;
};
void ior_bisect_info_free(struct ior_bisect_info *b);

int ior_bisect_create(struct ior_db *db, const struct ior_bisect_info *b, int64_t *id);
/* The newest bisection not reset: IOR_ENOTFOUND when there is none. */
int ior_bisect_current(struct ior_db *db, struct ior_bisect_info *out);
int ior_bisect_set_commands(struct ior_db *db, int64_t id, const char *measure, const char *build, const char *boot,
			    const char *image);
int ior_bisect_set_matrix(struct ior_db *db, int64_t id, const char *matrix);
/* The machine a bisection runs on and the kernel it ran before its first measurement (booted again at
 * the end); the log keeps it too, as event target-default "TARGET RELEASE". */
int ior_bisect_set_target_default(struct ior_db *db, int64_t id, const char *target, const char *release);
int ior_bisect_set_status(struct ior_db *db, int64_t id, const char *status, const char *result);

int ior_bisect_log(struct ior_db *db, int64_t id, const char *commit, const char *event, const char *detail);

/* The build of commit: *built false when none finished; outcome "ok" or "build failed". */
int ior_bisect_build_get(struct ior_db *db, int64_t id, const char *commit, bool *built, bool *ok, char *image,
			 size_t len);
int ior_bisect_build_set(struct ior_db *db, int64_t id, const char *commit, bool ok, const char *image);

/* The commit's mark ("good", "bad", "skip"; NULL: none) and the judgement's reason. */
int ior_db_bisect_mark_set(struct ior_db *db, int64_t id, const char *commit, const char *mark, const char *reason);
/* Another commit of the bisection built to this image and marked good or bad: its id and mark (as
 * stored), or *found false. */
int ior_db_bisect_same_image(struct ior_db *db, int64_t id, const char *commit, const char *image, bool *found,
			     char *other, size_t len, char *mark, size_t mark_len);
/* Every marked commit with its mark. fn returns 0 to go on. */
int ior_db_bisect_marks(struct ior_db *db, int64_t id, int (*fn)(void *ctx, const char *commit, const char *mark),
			void *ctx);
int ior_bisect_reason_get(struct ior_db *db, int64_t id, const char *commit, char *buf, size_t len);

/* One measurement's samples, stored in one transaction. */
int ior_bisect_samples_add(struct ior_db *db, int64_t id, const char *commit, const double *x, size_t n);
int ior_bisect_samples_get(struct ior_db *db, int64_t id, const char *commit, double **x, size_t *n);
/* The same with the round it was measured in (0: none, as before rounds existed). */
int ior_bisect_samples_add_round(struct ior_db *db, int64_t id, const char *commit, const double *x, size_t n,
				 size_t round);
/* The number the next round takes: one above the highest stored. */
int ior_bisect_round_next(struct ior_db *db, int64_t id, size_t *round);
/* The samples of rounds from `from` on, by round, then commit, then as stored. fn returns 0 to go on. */
int ior_db_bisect_round_samples(struct ior_db *db, int64_t id, size_t from,
				int (*fn)(void *ctx, size_t round, const char *commit, double value), void *ctx);

/* How many samples a commit has, without reading them. */
int ior_bisect_samples_count(struct ior_db *db, int64_t id, const char *commit, size_t *n);

struct ior_bisect_counts {
	size_t builds, measurements, samples;
};
int ior_bisect_counts_get(struct ior_db *db, int64_t id, struct ior_bisect_counts *c);

/* The detail of the newest log row of event on commit (NULL: a row of the whole bisection), or *found false. */
int ior_bisect_log_last(struct ior_db *db, int64_t id, const char *commit, const char *event, bool *found, char *detail,
			size_t len);

/* Walks the log (oldest first): fn gets each row's commit (NULL for none), event, detail and time. */
int ior_bisect_log_each(struct ior_db *db, int64_t id,
			int (*fn)(void *ctx, const char *commit, const char *event, const char *detail, const char *at),
			void *ctx);

/* What a bisection keeps of a commit besides its build and mark (bisect_commits' columns; the log
 * tells the same as history): why its build failed ("" none), what it showed when it did not boot,
 * the config hash of its kernel build. Each setter also appends the log row of its event
 * ("build-error", "boot-failed", "config" with detail, whose first word is the hash). */
int ior_bisect_build_error_set(struct ior_db *db, int64_t id, const char *commit, const char *why);
int ior_bisect_boot_failure_set(struct ior_db *db, int64_t id, const char *commit, const char *failure);
int ior_bisect_config_set(struct ior_db *db, int64_t id, const char *commit, const char *detail);
/* Each into buf, *found false (buf "") when the commit has none. */
int ior_bisect_build_error_get(struct ior_db *db, int64_t id, const char *commit, bool *found, char *buf, size_t len);
int ior_bisect_boot_failure_get(struct ior_db *db, int64_t id, const char *commit, bool *found, char *buf, size_t len);
int ior_bisect_config_hash_get(struct ior_db *db, int64_t id, const char *commit, bool *found, char *buf, size_t len);

/* The confirmation of a culprit under way: its fresh rounds start at `from`, against `parent`, and
 * it needs `need` stable ones. */
struct ior_bisect_confirm_state {
	size_t from, need;
	char parent[96];
};
/* Stores it on commit (NULL: none under way, so the next confirmation starts afresh) and logs
 * "confirming" ("FROM PARENT NEED", or "done"). */
int ior_bisect_confirm_set(struct ior_db *db, int64_t id, const char *commit, const struct ior_bisect_confirm_state *c);
int ior_bisect_confirm_get(struct ior_db *db, int64_t id, const char *commit, bool *found,
			   struct ior_bisect_confirm_state *c);

/* bisect start --kernel's config (bisect_kernels, bisect_fragments); found false for a bisection
 * not over a kernel tree. Strings owned (ior_bisect_kconfig_free). */
struct ior_bisect_kconfig {
	bool found;
	char *config, *defconfig;      /* exactly one of them */
	char *build_dir;               /* NULL: the cache's */
	char **fragments;
	size_t nfragments;
	int nice;                      /* 0: make not niced */
};
/* Stores k (replacing the bisection's) and logs it as the "kernel" event, in its text form. */
int ior_bisect_kconfig_set(struct ior_db *db, int64_t id, const struct ior_bisect_kconfig *k);
int ior_bisect_kconfig_get(struct ior_db *db, int64_t id, struct ior_bisect_kconfig *k);
void ior_bisect_kconfig_free(struct ior_bisect_kconfig *k);
/* The text form the log, `bisect log` and the answer show: " --opt 'value'" words, --config or
 * --defconfig first, then each --fragment, --build-dir and --nice when not 0. IOR_EINVALID when it
 * does not fit or a value holds a single quote. */
int ior_bisect_kconfig_format(const struct ior_bisect_kconfig *k, char *buf, size_t len);
/* And back (a replayed log's "kernel" line, the log of a bisection stored before schema 15). */
int ior_bisect_kconfig_parse(const char *text, struct ior_bisect_kconfig *k);

#endif
