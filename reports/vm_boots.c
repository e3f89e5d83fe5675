/* The report's VM section: each boot's kernel, outcome and machine, so a table says what was measured where. */
#include "reports/vm_boots.h"

#include "common/error.h"
#include "db/db.h"

#include <stdbool.h>
#include <string.h>

static void print_time(FILE *out, double s)
{
	if (s < 0)
		fprintf(out, " %7s", "-");
	else
		fprintf(out, " %7.1f", s);
}

int ior_report_vm_boots(FILE *out, const struct ior_db_vm_boot_row *rows, size_t n)
{
	if (!n)
		return IOR_OK;
	fprintf(out, "\nVM boots (vm run)\n%-30s %4s %-12s %-5s %4s %6s %-9s %-8s %7s %7s  %s\n", "kernel", "boot",
		"outcome", "accel", "cpus", "memory", "cache", "qemu", "init s", "total s", "reason");
	size_t not_ok = 0;
	bool tcg = false;
	for (size_t i = 0; i < n; i++) {
		const struct ior_db_vm_boot_row *r = &rows[i];
		fprintf(out, "%-30s %4d %-12s %-5s %4d %5dM %-9s %-8s", r->release[0] ? r->release : r->kernel,
			r->boot_index, r->outcome, r->accel[0] ? r->accel : "-", r->cpus, r->memory_mb,
			r->cache_mode[0] ? r->cache_mode : "-", r->qemu_version[0] ? r->qemu_version : "-");
		print_time(out, r->boot_s);
		print_time(out, r->total_s);
		fprintf(out, "  %s\n", strcmp(r->outcome, "ok") ? r->reason : "");
		not_ok += strcmp(r->outcome, "ok") != 0;
		tcg |= strcmp(r->accel, "tcg") == 0;
	}
	if (not_ok)
		fprintf(out, "%zu of %zu boots were not ok: their kernels have no samples from those boots\n", not_ok, n);
	if (tcg)
		fputs("under TCG the guest's CPU is emulated: the figures compare kernels with each other on this "
		      "host, not the device's speed\n", out);
	return IOR_OK;
}
