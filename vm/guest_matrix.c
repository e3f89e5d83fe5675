/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's matrix checked on the host, as the guest will expand it, before any boot. */
#include "vm/guest_matrix.h"

#include "common/error.h"
#include "common/trust.h"
#include "matrix/matrix_dry_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int ior_vm_guest_matrix_check(const char *path, struct ior_vm_run_opts *o, char *said, size_t len)
{
	said[0] = '\0';
	struct ior_matrix *m = NULL;
	int rc = ior_check_trusted_file(path, "matrix");
	if (!rc)
		rc = ior_matrix_parse_file(&m, path);
	if (!rc)
		rc = ior_matrix_set(m, "matrix.load_modules=yes");
	FILE *null = rc ? NULL : fopen("/dev/null", "w");
	if (!rc)
		rc = null ? ior_matrix_dry_run(null, m) : ior_error_errno(IOR_ERROR, errno, "cannot open '/dev/null'");
	if (null)
		fclose(null);
	for (size_t i = 0; !rc && i < m->ndevices; i++)
		if (m->devices[i].opts.path && !strcmp(m->devices[i].opts.path, "/dev/vda"))
			o->scratch_fill = m->devices[i].opts.fill;
	uint64_t device_files = 0, cell_files = 0;
	if (!rc)
		ior_matrix_file_bytes(m, &device_files, &cell_files);
	if (!rc)
		rc = ior_vm_size_memory(&o->machine, device_files, cell_files, said, len);
	ior_matrix_free(m);
	if (rc) {
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s", ior_error_last());
		ior_error_set(rc, "%s (no boot was started)", msg);
	}
	return rc;
}
