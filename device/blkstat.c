/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a block device's request counters from sysfs (see blkstat.h). */
#include "device/blkstat.h"

#include "common/error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

int ior_blkstat_read(const char *path, struct ior_blkstat *out)
{
	struct stat sb;
	if (stat(path, &sb) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot read counters of '%s'", path);
	if (!S_ISBLK(sb.st_mode))
		return ior_error_set(IOR_EINVALID, "cannot read counters of '%s': not a block device", path);
	char sys[64];
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/stat", major(sb.st_rdev), minor(sb.st_rdev));
	FILE *f = fopen(sys, "re");
	if (!f)
		return ior_error_errno(IOR_ERROR, errno, "cannot read counters of '%s' ('%s')", path, sys);
	uint64_t rd_ticks, wr_ticks;
	int n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		       " %" SCNu64, &out->rd_ios, &out->rd_merges, &out->rd_sectors, &rd_ticks, &out->wr_ios,
		       &out->wr_merges, &out->wr_sectors, &wr_ticks);
	fclose(f);
	if (n != 8)
		return ior_error_set(IOR_ERROR, "cannot read counters of '%s': '%s' has %d fields, not 11 or more", path,
				     sys, n < 0 ? 0 : n);
	return IOR_OK;
}

static bool sub(uint64_t b, uint64_t a, uint64_t *d)
{
	*d = a - b;
	return a >= b;
}

bool ior_blkstat_delta(const struct ior_blkstat *before, const struct ior_blkstat *after, struct ior_blkstat *delta)
{
	bool ok = sub(before->rd_ios, after->rd_ios, &delta->rd_ios);
	ok &= sub(before->rd_merges, after->rd_merges, &delta->rd_merges);
	ok &= sub(before->rd_sectors, after->rd_sectors, &delta->rd_sectors);
	ok &= sub(before->wr_ios, after->wr_ios, &delta->wr_ios);
	ok &= sub(before->wr_merges, after->wr_merges, &delta->wr_merges);
	ok &= sub(before->wr_sectors, after->wr_sectors, &delta->wr_sectors);
	return ok;
}
