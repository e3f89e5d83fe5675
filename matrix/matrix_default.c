/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The built-in default matrix, written as INI text so it passes the same parser and checks as any file. */
#include "matrix/matrix.h"

static const char default_matrix[] =
	"; built-in default: hdparm's buffered and direct reads on a scratch loop device\n"
	"[matrix]\n"
	"repetitions = 3\n"
	"schedulers = all\n"
	"drop_caches = yes\n"
	"\n"
	"[device scratch]\n"
	"loop = 1G\n"
	"destructive = yes\n"
	"\n"
	"[engine buffered]\n"
	"type = hdparm\n"
	"direct = no\n"
	"\n"
	"[engine direct]\n"
	"type = hdparm\n"
	"direct = yes\n";

int ior_matrix_default(struct ior_matrix **out)
{
	return ior_matrix_parse_string(out, "(built-in default)", default_matrix);
}
