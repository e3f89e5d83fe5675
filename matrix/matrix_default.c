/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The built-in default matrix, written as INI text so it passes the same parser and checks as any file. */
#include "matrix/matrix.h"

/*
 * What the default is for: one question a newcomer's first screen can answer, which scheduler is
 * best on the scratch device, or that they are within noise (issue 24). So:
 * - direct reads only: a buffered read of a loop device goes through the backing file's page cache
 *   (FACTS.md: 150-300% spread run to run), which is not the scheduler's doing; it raised six spread
 *   alerts on a quiet machine and could never be decided. seed-hdparm.ini keeps hdparm -t's method.
 * - adaptive rounds (decide_schedulers): 5 repetitions of every scheduler, then more rounds until
 *   the verdict names the best or finds them within noise, 10 at most;
 * - one warm-up repetition per cell: a fresh loop device's first reads differ from the rest;
 * - 2 s reads after a 0.5 s settle, so the cap (4 schedulers x 11 repetitions) stays near two minutes.
 */
static const char default_matrix[] =
	"; built-in default: which scheduler is best for direct reads of a scratch loop device\n"
	"[matrix]\n"
	"repetitions = 5\n"
	"max_repetitions = 10\n"
	"decide_schedulers = yes\n"
	"warmup = 1\n"
	"schedulers = all\n"
	"drop_caches = yes\n"
	"\n"
	"[device scratch]\n"
	"loop = 1G\n"
	"destructive = yes\n"
	"\n"
	"[engine direct]\n"
	"type = hdparm\n"
	"direct = yes\n"
	"duration = 2s\n"
	"settle = 0.5s\n";

int ior_matrix_default(struct ior_matrix **out)
{
	return ior_matrix_parse_string(out, "(built-in default)", default_matrix);
}
