/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The expansion `run --dry-run` shows (see dry_run.h): cells from the matrix and this kernel's
 * scheduler lists, with the engines' own duration estimates. */
#include "matrix/matrix_dry_run.h"
#include "common/error.h"
#include "device/blockdev.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a device will offer: its own list for a path, a loop device's for a scratch device (any
 * attached loop device's queue offers what the kernel has for loop devices). */
static bool offered_list(const struct ior_matrix_device *d, const struct ior_blockdev *all, size_t n,
			 struct ior_blockdev *out)
{
	if (d->opts.path)
		return ior_blockdev_probe(d->opts.path, out) == IOR_OK;
	for (size_t i = 0; i < n; i++)
		if (strncmp(all[i].name, "loop", 4) == 0 && all[i].has_scheduler) {
			*out = all[i];
			return true;
		}
	for (size_t i = 0; i < n; i++)
		if (all[i].has_scheduler) {
			*out = all[i];
			return true;
		}
	return false;
}

static void format_seconds(char *buf, size_t len, double s)
{
	if (s < 90)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 5400)
		snprintf(buf, len, "%.0f min %.0f s", floor(s / 60), fmod(s, 60));
	else
		snprintf(buf, len, "%.0f h %.0f min", floor(s / 3600), fmod(s, 3600) / 60);
}

/* Each device's offered list into offered[d] (a NULL-ended row of IOR_MAX_SCHEDULERS + 1), pointing
 * into infos[d]; then the scheduler names checked as the real run checks them, so a typo is the same
 * error here ("no kernel ever had it", did you mean) and not a cell shown as unavailable. */
static int offered_lists(const struct ior_matrix *m, struct ior_blockdev *infos, char *(*offered)[IOR_MAX_SCHEDULERS + 1])
{
	struct ior_blockdev *all = NULL;
	size_t nall = 0;
	if (ior_blockdev_list(&all, &nall) != IOR_OK)
		nall = 0;
	char **rows[m->ndevices ? m->ndevices : 1];
	for (size_t d = 0; d < m->ndevices; d++) {
		if (offered_list(&m->devices[d], all, nall, &infos[d]))
			for (size_t i = 0; i < infos[d].nschedulers; i++)
				offered[d][i] = infos[d].schedulers[i];
		rows[d] = offered[d];
	}
	free(all);
	return ior_matrix_check_scheduler_names(m, (char *const *const *)rows, m->ndevices);
}

int ior_matrix_dry_run(FILE *out, const struct ior_matrix *m)
{
	size_t nd = m->ndevices ? m->ndevices : 1;
	struct ior_blockdev *infos = calloc(nd, sizeof(*infos));
	char *(*offered)[IOR_MAX_SCHEDULERS + 1] = calloc(nd, sizeof(*offered));
	if (!infos || !offered) {
		free(infos);
		free(offered);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	int rc = offered_lists(m, infos, offered);
	if (rc) {
		free(infos);
		free(offered);
		return rc;
	}
	uint64_t cells = 0, unknown = 0, warmups = 0;
	double seconds = 0;
	uint64_t reps = m->settings.max_repetitions ? m->settings.max_repetitions : m->settings.repetitions;
	fprintf(out, "%-16s %-14s %-28s %s\n", "device", "scheduler", "engine", "parameters");
	for (size_t d = 0; d < m->ndevices; d++) {
		char **scheds = ior_matrix_schedulers_for(m, offered[d]);
		for (size_t s = 0; scheds && scheds[s]; s++) {
			bool here = false;
			for (size_t i = 0; offered[d][i]; i++)
				here |= strcmp(offered[d][i], scheds[s]) == 0;
			for (size_t e = 0; e < m->nengines; e++) {
				const struct ior_matrix_engine *en = &m->engines[e];
				uint64_t warm = ior_matrix_warmup(m, en);
				char extra[48] = "";
				if (warm)
					snprintf(extra, sizeof(extra), "  (+%llu warm-up)", (unsigned long long)warm);
				fprintf(out, "%-16s %-14s %-28s %s%s%s\n", m->devices[d].name, scheds[s], en->name, en->params,
					extra, here ? "" : "  (not offered here: unavailable)");
				cells++;
				if (!here)
					continue; /* an unavailable cell takes no time */
				warmups += warm;
				double each = en->ops->duration ? en->ops->duration(en->opts) : -1;
				if (each < 0)
					unknown++;
				else
					seconds += each * (double)(reps + warm);
			}
		}
		ior_strv_free(scheds);
	}
	free(infos);
	free(offered);
	char est[64];
	format_seconds(est, sizeof(est), seconds);
	fprintf(out, "%llu cells (%zu devices, %zu engines after sweeps), %llu repetitions each%s", (unsigned long long)cells,
		m->ndevices, m->nengines, (unsigned long long)reps, m->settings.max_repetitions ? " at most" : "");
	if (warmups)  /* measured like the rest, so they take their time: counted in the estimate */
		fprintf(out, ", plus %llu warm-up repetitions in all (not judged)", (unsigned long long)warmups);
	fputs(": ", out);
	if (unknown)
		fprintf(out, "at least %s of measuring; %llu cells' engines cannot say how long they take\n", est,
			(unsigned long long)unknown);
	else
		fprintf(out, "about %s of measuring, plus filling scratch devices\n", est);
	if (cells > m->settings.max_cells)
		return ior_error_set(IOR_EINVALID, "%s: the matrix expands to %llu cells on this kernel, more than "
				     "max_cells = %llu", m->file, (unsigned long long)cells,
				     (unsigned long long)m->settings.max_cells);
	return IOR_OK;
}
