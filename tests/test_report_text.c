/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the report model, variance alerts and the text/JSON renderers, on the field report's
 * seed data (tests/data/hdparm-2.6-kernels.csv). */
#include "common/error.h"
#include "db/db.h"
#include "judge/alerts.h"
#include "stats/changepoint.h"
#include "reports/model.h"
#include "reports/render.h"
#include "judge/table.h"
#include "tests/suite.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEAR(a, b, tol) CU_ASSERT_DOUBLE_EQUAL((a), (b), (tol))

/* --- rows built in memory from the seed CSV, independent of db/ ----------- */

static struct ior_db_row mem_rows[128];
static size_t mem_n;

static int64_t cell_id_for(const struct ior_db_row *r)
{
	for (size_t i = 0; i < mem_n; i++)
		if (!strcmp(mem_rows[i].host, r->host) && !strcmp(mem_rows[i].kernel, r->kernel) &&
		    !strcmp(mem_rows[i].device, r->device) && !strcmp(mem_rows[i].scheduler, r->scheduler) &&
		    !strcmp(mem_rows[i].engine, r->engine))
			return mem_rows[i].cell_id;
	return (int64_t)mem_n + 1;
}

static void load_seed_in_memory(void)
{
	if (mem_n)
		return;
	FILE *f = fopen(ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"), "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char line[512];
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));  /* header */
	while (fgets(line, sizeof(line), f) && mem_n < 128) {
		line[strcspn(line, "\r\n")] = 0;
		char *field[8], *save = NULL, *p = line;
		int k = 0;
		for (char *t; k < 8 && (t = strtok_r(p, ",", &save)); p = NULL)
			field[k++] = t;
		CU_ASSERT_EQUAL_FATAL(k, 8);
		struct ior_db_row r = { .run_id = 1, .host = strdup(field[0]), .kernel = strdup(field[1]),
					.device = strdup(field[2]), .scheduler = strdup(field[3]),
					.engine = strdup(field[4]), .rep = atoi(field[5]), .value = atof(field[6]),
					.unit = strdup(field[7]), .higher_is_better = true };
		r.cell_id = cell_id_for(&r);
		mem_rows[mem_n++] = r;
	}
	fclose(f);
	CU_ASSERT_EQUAL(mem_n, 72);
}

/* The field report's figures (../shared/FACTS.md). */
static void check_seed_figures(const struct ior_tables *rt)
{
	CU_ASSERT_EQUAL_FATAL(rt->ngroups, 4);
	/* hosts by name, then kernels in version order, whatever order the rows came in */
	CU_ASSERT_STRING_EQUAL(rt->groups[0].kernel, "2.6.31");
	CU_ASSERT_STRING_EQUAL(rt->groups[1].kernel, "2.6.30-2");
	CU_ASSERT_STRING_EQUAL(rt->groups[2].kernel, "2.6.32");
	CU_ASSERT_STRING_EQUAL(rt->groups[3].kernel, "2.6.33-rc5");
	const struct ior_rt_group *g = ior_rt_find(rt, "quadcore-8g", "2.6.30-2", "hdparm-t");
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	const struct ior_rt_cell *noop = ior_rt_cell_find(g, "SSD RAID", "noop");
	const struct ior_rt_cell *cfq = ior_rt_cell_find(g, "SSD RAID", "cfq");
	const struct ior_rt_cell *dl = ior_rt_cell_find(g, "SSD RAID", "deadline");
	CU_ASSERT_PTR_NOT_NULL_FATAL(noop);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfq);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dl);
	NEAR(noop->total, 327.76, 1e-9);
	NEAR(cfq->total, 323.39, 1e-9);
	NEAR(dl->total, 325.37, 1e-9);
	NEAR(noop->share * 100, 33.564, 0.0005);
	NEAR(cfq->share * 100, 33.117, 0.0005);
	NEAR(dl->share * 100, 33.319, 0.0005);
	CU_ASSERT_TRUE(noop->best);
	CU_ASSERT_FALSE(cfq->best || dl->best);
	CU_ASSERT_EQUAL(noop->n, 3);
	g = ior_rt_find(rt, NULL, "2.6.32", NULL);
	NEAR(ior_rt_device_find(g, "SSD RAID")->st.spread * 100, 66.9, 0.05);
	NEAR(ior_rt_device_find(g, "SATA RAID")->st.spread * 100, 3.1, 0.05);
	g = ior_rt_find(rt, NULL, "2.6.33-rc5", NULL);
	NEAR(ior_rt_device_find(g, "SSD RAID")->st.spread * 100, 54.6, 0.05);
	NEAR(ior_rt_device_find(g, "SATA RAID")->st.spread * 100, 4.6, 0.05);
	g = ior_rt_find(rt, NULL, "2.6.31", NULL);
	NEAR(ior_rt_device_find(g, "SSD")->st.spread * 100, 2.1, 0.05);
	NEAR(ior_rt_device_find(g, "SATA RAID")->st.spread * 100, 6.4, 0.05);
	NEAR(ior_rt_device_find(ior_rt_find(rt, NULL, "2.6.30-2", NULL), "SSD RAID")->st.spread * 100, 18.6, 0.05);
}

static const struct ior_alert *device_alert(const struct ior_alert *a, size_t n, const char *kernel, const char *dev)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].kind == IOR_ALERT_DEVICE && !strcmp(a[i].kernel, kernel) && !strcmp(a[i].device, dev))
			return &a[i];
	return NULL;
}

static void check_seed_alerts(const struct ior_alert *a, size_t n)
{
	const struct ior_alert *x = device_alert(a, n, "2.6.32", "SSD RAID");
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	NEAR(x->spread * 100, 66.9, 0.05);
	/* the words compare it with the other device here and the same device elsewhere */
	char text[1600];
	ior_alert_describe(text, sizeof(text), x);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "SATA RAID 3.1%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "2.6.30-2 18.6%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "2.6.33-rc5 54.6%"));
	/* and as fields: one device beside it, two other kernels */
	CU_ASSERT_EQUAL(x->here.n, 1);
	CU_ASSERT_EQUAL(x->elsewhere.n, 2);
	NEAR(x->here.median * 100, 3.1, 0.05);
	CU_ASSERT_PTR_NOT_NULL(device_alert(a, n, "2.6.33-rc5", "SSD RAID"));
	const char *kernels[] = { "2.6.30-2", "2.6.31", "2.6.32", "2.6.33-rc5" };
	for (int k = 0; k < 4; k++)
		CU_ASSERT_PTR_NULL(device_alert(a, n, kernels[k], "SATA RAID"));
	CU_ASSERT_PTR_NULL(device_alert(a, n, "2.6.31", "SSD"));
	CU_ASSERT_PTR_NULL(device_alert(a, n, "2.6.30-2", "SSD RAID"));
	/* no cell stands out from its device's other schedulers and other kernels */
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL(a[i].kind, IOR_ALERT_DEVICE);
	CU_ASSERT_EQUAL(n, 2);
}

/* One renderer's output of the report on a CSV of samples, through the real path: imported into a
 * database of its own, the model built from it as `ioregress report` builds it. Not inlined: gcc 12
 * at -O3 then takes pointers into open_memstream's buffer for pointers to the local that held its
 * address (-Wdangling-pointer, a false positive). */
__attribute__((noinline)) static char *render_csv(const char *csv, const char *format)
{
	static int made;
	char path[512];
	snprintf(path, sizeof(path), "%s/render-%d.db", ior_test_tmpdir(), made++);
	struct ior_db *db;
	size_t imported = 0;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_import_samples_csv(db, csv, &imported), 0);
	const struct ior_renderer *x;
	CU_ASSERT_EQUAL_FATAL(ior_renderer_find(&x, format), 0);
	struct ior_report_opts o;
	ior_report_opts_default(&o);
	o.parts = x->parts;
	struct ior_report *r;
	CU_ASSERT_EQUAL_FATAL(ior_report_build(&r, db, &o), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(ior_render(x, f, r), 0);
	fclose(f);
	ior_report_free(r);
	ior_db_free(db);
	return buf;
}

static char *render_seed(const char *format)
{
	return render_csv(ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"), format);
}

static void test_seed_figures_in_memory(void)
{
	load_seed_in_memory();
	/* reverse the rows: the model must not depend on input order */
	struct ior_db_row rev[128];
	for (size_t i = 0; i < mem_n; i++)
		rev[i] = mem_rows[mem_n - 1 - i];
	struct ior_tables *rt;
	CU_ASSERT_EQUAL_FATAL(ior_rt_build(&rt, rev, mem_n), 0);
	check_seed_figures(rt);
	/* devices keep the order they were imported in (SSD RAID first, noop first) */
	const struct ior_rt_group *g = ior_rt_find(rt, NULL, "2.6.30-2", NULL);
	CU_ASSERT_STRING_EQUAL(g->cells[0].device, "SSD RAID");
	CU_ASSERT_STRING_EQUAL(g->cells[0].scheduler, "noop");
	ior_rt_free(rt);
}

static void test_seed_alerts_defaults(void)
{
	load_seed_in_memory();
	struct ior_tables *rt;
	CU_ASSERT_EQUAL_FATAL(ior_rt_build(&rt, mem_rows, mem_n), 0);
	struct ior_alert *a;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_alerts_compute(&a, &n, rt, NULL), 0);
	check_seed_alerts(a, n);
	free(a);
	/* a floor above every spread silences everything; the floor is the knob */
	struct ior_alert_opts o;
	ior_alert_opts_default(&o);
	o.floor = 0.70;
	CU_ASSERT_EQUAL_FATAL(ior_alerts_compute(&a, &n, rt, &o), 0);
	CU_ASSERT_EQUAL(n, 0);
	free(a);
	ior_rt_free(rt);
}

static void test_alone_a_device_meets_only_the_floor(void)
{
	load_seed_in_memory();
	/* only 2.6.30-2 SSD RAID: no peers, so 18.6% > 10% alerts and says so */
	struct ior_db_row only[16];
	size_t k = 0;
	for (size_t i = 0; i < mem_n; i++)
		if (!strcmp(mem_rows[i].kernel, "2.6.30-2") && !strcmp(mem_rows[i].device, "SSD RAID"))
			only[k++] = mem_rows[i];
	struct ior_tables *rt;
	CU_ASSERT_EQUAL_FATAL(ior_rt_build(&rt, only, k), 0);
	struct ior_alert *a;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_alerts_compute(&a, &n, rt, NULL), 0);
	const struct ior_alert *x = device_alert(a, n, "2.6.30-2", "SSD RAID");
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	char text[1600];
	ior_alert_describe(text, sizeof(text), x);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "nothing to compare it with"));
	free(a);
	ior_rt_free(rt);
}

static void test_text_report_layout(void)
{
	char *text = render_seed("text");
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "quadcore-8g, kernel 2.6.30-2, hdparm-t (MB/s, higher is better)"));
	/* the best total is starred only when the verdict says it is better than the others: 3 against 3
	 * samples cannot say so */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "   115.51    107.73    104.52     327.76   33.564%\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "SSD RAID: schedulers not told apart: n = 3: not enough to decide; against noop: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "323.39   33.117%\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "325.37   33.319%\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "ratio SSD RAID / SATA RAID: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "66.9%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "alert: device 'SSD RAID' on 2.6.32"));
	/* on quadcore-8g the kernels come in version order */
	char *k30 = strstr(text, "kernel 2.6.30-2"), *k31 = strstr(text, "kernel 2.6.31,"),
	     *k32 = strstr(text, "kernel 2.6.32"), *k33 = strstr(text, "kernel 2.6.33-rc5");
	CU_ASSERT_TRUE(k30 && k31 && k32 && k33 && k30 < k32 && k32 < k33);
	if (getenv("IOR_SHOW_REPORT"))
		fputs(text, stderr);
	free(text);
	char *json = render_seed("json");
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"kernel\":\"2.6.32\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"alerts\""));
	free(json);
}

/* The same figures through the real path: CSV import into SQLite, then ior_db_samples. */
static void test_seed_through_database(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/seed.db", ior_test_tmpdir());
	struct ior_db *db;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	size_t imported = 0;
	int rc = ior_db_import_samples_csv(db, ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"), &imported);
	if (rc)
		fprintf(stderr, "import: %s\n", ior_error_last());
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(imported, 72);
	struct ior_db_row *rows;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_db_samples(db, NULL, &rows, &n), 0);
	CU_ASSERT_EQUAL(n, 72);
	struct ior_tables *rt;
	CU_ASSERT_EQUAL_FATAL(ior_rt_build(&rt, rows, n), 0);
	check_seed_figures(rt);
	struct ior_alert *a;
	size_t na;
	CU_ASSERT_EQUAL_FATAL(ior_alerts_compute(&a, &na, rt, NULL), 0);
	check_seed_alerts(a, na);
	free(a);
	ior_rt_free(rt);
	ior_db_rows_free(rows, n);
	ior_db_free(db);
}

/* The seed data imported as stored, and again with its rows ordered by repetition, last first:
 * the same cells, but every cell's samples stored apart and in falling order. The model reads
 * samples in storage order and places them itself, so both databases give the same report, and
 * the view of one kernel's device (few cells: read cell by cell through the index) the same too. */
static char *report_of(const char *csv, const char *name, const char *kernel, const char *device)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.db", ior_test_tmpdir(), name);
	struct ior_db *db;
	size_t imported = 0;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_import_samples_csv(db, csv, &imported), 0);
	CU_ASSERT_EQUAL(imported, 72);
	struct ior_report_opts o;
	ior_report_opts_default(&o);
	o.kernel = kernel;
	o.device = device;
	o.parts = IOR_REPORT_TABLES;  /* no alerts or changes: the scan filter is the view */
	struct ior_report *r = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_report_build(&r, db, &o), 0);
	for (size_t i = 0; i < r->stored.ncells; i++)
		for (size_t k = 1; k < r->stored.cells[i].n; k++)
			CU_ASSERT(r->stored.reps[r->stored.cells[i].first + k - 1] < r->stored.reps[r->stored.cells[i].first + k]);
	const struct ior_renderer *text;
	CU_ASSERT_EQUAL_FATAL(ior_renderer_find(&text, "text"), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(ior_render(text, out, r), 0);
	fclose(out);
	ior_report_free(r);
	ior_db_free(db);
	return buf;
}

static void test_samples_stored_out_of_order(void)
{
	FILE *in = fopen(ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"), "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	char csv[512], line[512];
	snprintf(csv, sizeof(csv), "%s/by-rep.csv", ior_test_tmpdir());
	FILE *out = fopen(csv, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	char rows[128][512];
	size_t n = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(fgets(line, sizeof(line), in));
	fputs(line, out);
	while (n < 128 && fgets(rows[n], sizeof(rows[n]), in))
		n++;
	fclose(in);
	for (int rep = 9; rep >= 1; rep--)
		for (size_t i = 0; i < n; i++) {
			int r = 0;  /* the sixth field */
			const char *p = rows[i];
			for (int f = 0; f < 5 && p; f++)
				p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
			if (p && sscanf(p, "%d", &r) == 1 && r == rep)
				fputs(rows[i], out);
		}
	fclose(out);
	char *stored = report_of(ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"), "stored", NULL, NULL);
	char *by_rep = report_of(csv, "by-rep", NULL, NULL);
	CU_ASSERT_STRING_EQUAL(by_rep, stored);
	CU_ASSERT_PTR_NOT_NULL(strstr(stored, "2.6.33-rc5"));
	free(stored), free(by_rep);
	stored = report_of(ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"), "stored-one", "2.6.31", "SATA RAID");
	by_rep = report_of(csv, "by-rep-one", "2.6.31", "SATA RAID");
	CU_ASSERT_STRING_EQUAL(by_rep, stored);
	CU_ASSERT_PTR_NOT_NULL(strstr(stored, "SATA RAID"));
	CU_ASSERT_PTR_NULL(strstr(stored, "SSD RAID"));
	free(stored), free(by_rep);
}

/* The change-point section on the seed data: the quad-core host has three kernels, so each
 * of its cells is a series; the dual-core host has one kernel and no series. */
static void test_change_points_section(void)
{
	char *all = render_seed("text");
	char *buf = strstr(all, "change points across kernels");
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "quadcore-8g, hdparm-t, SSD RAID noop, value over 3 kernels (2.6.30-2 .. 2.6.33-rc5): "
					   "change arrived in 2.6.32"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "SATA RAID noop, value over 3 kernels (2.6.30-2 .. 2.6.33-rc5): no change point"));
	CU_ASSERT_PTR_NULL(strstr(buf, "dualcore-8g"));
	/* every SATA RAID series is flat: no change point on any of its schedulers */
	for (const char *p = buf; (p = strstr(p, "SATA RAID")); p++)
		CU_ASSERT_EQUAL(strncmp(strstr(p, "): ") + 3, "no change point", 15), 0);
	free(all);
}

/* Issue 37: the answer said "2 change point(s)" without naming them, so the seed data's story, cfq
 * on the SSD RAID falling from about 103 to 61 MB/s at 2.6.33-rc5, sat below the fold. The
 * answer names each change point: scheduler, device, engine, the levels before and after, the
 * size and the kernels it arrived between, the largest first, in text and Markdown alike. */
static void test_answer_names_change_points(void)
{
	static char out[1 << 16], err[4096];
	char db[4096], csv[4096];
	snprintf(db, sizeof(db), "%s/answer.db", ior_test_tmpdir());
	snprintf(csv, sizeof(csv), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	char *import[] = { "--db", db, "import", csv, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(import, out, sizeof(out), err, sizeof(err)), 0);
	const char *formats[] = { "text", "md" };
	for (size_t f = 0; f < 2; f++) {
		char *report[] = { "--db", db, "report", "--format", (char *)formats[f], NULL };
		CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(report, out, sizeof(out), err, sizeof(err)), 0);
		const char *line = strstr(out, "change points: ");
		CU_ASSERT_PTR_NOT_NULL_FATAL(line);
		const char *first = strstr(out, "\n") ? out : NULL;
		CU_ASSERT(first && line - out < 2048);   /* on the first screen, with the answer */
		char text[1280];
		snprintf(text, sizeof(text), "%.*s", (int)strcspn(line, "\n"), line);
		printf("\n  %s: %s", formats[f], text);
		const char *cfq = strstr(text, "cfq on SSD RAID (hdparm-t) fell from about 103 to 60.9 MB/s (-40.1%, worse) at "
					  "2.6.33-rc5 (after 2.6.32)");
		const char *noop = strstr(text, "noop on SSD RAID (hdparm-t) fell from about 108 to 73.9 MB/s (-31.4%, worse) at "
					   "2.6.32 (after 2.6.30-2)");
		CU_ASSERT_PTR_NOT_NULL(cfq);
		CU_ASSERT_PTR_NOT_NULL(noop);
		CU_ASSERT(cfq && noop && cfq < noop);   /* the larger first */
	}
}

/* Each group's table is followed by its own cells' warm-up repetitions, and only theirs, even for a
 * stored cell that holds nothing but warm-ups (6.3's); a kernel whose samples are all warm-ups has no
 * table and so no warm-up line. */
static void test_warmups_under_their_own_group(void)
{
	char csv[512];
	snprintf(csv, sizeof(csv), "%s/warmups.csv", ior_test_tmpdir());
	FILE *f = fopen(csv, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("host,kernel,device,scheduler,engine,rep,value,unit,warmup\n"
	      "h,6.1,sda,none,hdparm-t,1,101,MB/s,1\n"
	      "h,6.1,sda,none,hdparm-t,2,200,MB/s,0\n"
	      "h,6.1,sda,none,hdparm-t,3,210,MB/s,0\n"
	      "h,6.2,sda,none,hdparm-t,1,152,MB/s,1\n"
	      "h,6.2,sda,none,hdparm-t,2,300,MB/s,0\n"
	      "h,6.2,sda,none,hdparm-t,3,310,MB/s,0\n"
	      "h,6.3,sda,none,hdparm-t,1,99,MB/s,1\n", f);
	CU_ASSERT_EQUAL_FATAL(fclose(f), 0);
	char *out = render_csv(csv, "text");
	char *t61 = strstr(out, "h, kernel 6.1, hdparm-t"), *t62 = strstr(out, "h, kernel 6.2, hdparm-t");
	char *w61 = strstr(out, "warm-up: sda none, run 1: 1 repetition(s) run first and left out (101.00)");
	char *w62 = strstr(out, "warm-up: sda none, run 2: 1 repetition(s) run first and left out (152.00)");  /* a run per kernel */
	CU_ASSERT_PTR_NOT_NULL_FATAL(t61);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t62);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w61);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w62);
	CU_ASSERT_TRUE(t61 < w61 && w61 < t62 && t62 < w62);
	CU_ASSERT_PTR_NULL(strstr(strchr(w61, '\n'), "(101.00)"));  /* once */
	CU_ASSERT_PTR_NULL(strstr(out, "kernel 6.3, hdparm-t"));
	CU_ASSERT_PTR_NULL(strstr(out, "(99.00)"));
	free(out);
}

/* The words of text in order, each once, joined by one space: what wrapping must not change. */
static char *word_sequence(const char *text)
{
	char *w = malloc(strlen(text) + 1), *o = w;
	for (const char *p = text; *p; p++) {
		if (*p == ' ' || *p == '\n') {
			if (o > w && o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = *p;
		}
	}
	*o = 0;
	return w;
}

/* Display columns of a line: UTF-8 continuation bytes take none. */
static size_t line_columns(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* --width 72 for a mail (issue 37): text and md keep every word in order, no prose line passes 72
 * columns (a table row or a heading stays whole), a continuation is indented (under a Markdown list
 * item's text), and a format without prose refuses the option. */
static void test_width_wraps_prose_for_mail(void)
{
	char db[4200], err[4096];
	snprintf(db, sizeof(db), "%s/width.db", ior_test_tmpdir());
	unlink(db);
	char kernels[4200], schedulers[4200];   /* ior_test_source_path's buffer is its own */
	snprintf(kernels, sizeof(kernels), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	snprintf(schedulers, sizeof(schedulers), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	char *imp[] = { "--db", db, "import", kernels, schedulers, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(imp, NULL, 0, err, sizeof(err)), 0);
	static char plain[65536], wrapped[65536];
	const char *formats[] = { "text", "md" };
	for (size_t f = 0; f < 2; f++) {
		char *whole[] = { "--db", db, "report", "--format", (char *)formats[f], NULL };
		char *narrow[] = { "--db", db, "report", "--format", (char *)formats[f], "--width", "72", NULL };
		CU_ASSERT_EQUAL(ior_test_ioregress(whole, plain, sizeof(plain), err, sizeof(err)), 0);
		CU_ASSERT_EQUAL(ior_test_ioregress(narrow, wrapped, sizeof(wrapped), err, sizeof(err)), 0);
		char *a = word_sequence(plain), *b = word_sequence(wrapped);
		CU_ASSERT_STRING_EQUAL(a, b);
		free(a);
		free(b);
		size_t long_prose = 0, long_before = 0, continued = 0;
		for (const char *line = wrapped; *line;) {
			size_t n = strcspn(line, "\n");
			bool table = line[0] == '|' || line[0] == '#' || memmem(line, n, "  ", 2) != NULL;
			if (line_columns(line, n) > 72 && !table)
				long_prose++;
			continued += !strncmp(line, "  ", 2) && f == 1;   /* md: only continuations are indented */
			line += n + (line[n] == '\n');
		}
		for (const char *line = plain; *line;) {
			size_t n = strcspn(line, "\n");
			long_before += line_columns(line, n) > 72 && line[0] != '|' && !memmem(line, n, "  ", 2);
			line += n + (line[n] == '\n');
		}
		CU_ASSERT_EQUAL(long_prose, 0);
		CU_ASSERT(long_before >= 10);       /* the seed's answer, verdicts and alerts were long */
		if (f == 1)
			CU_ASSERT(continued >= 4);
		if (long_prose)
			fprintf(stderr, "\n%s", wrapped);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(wrapped, "- change points: cfq on SSD RAID (hdparm-t) fell from about 103 to 60.9\n  MB/s"));
	char *html[] = { "--db", db, "report", "--format", "html", "--width", "72", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(html, NULL, 0, err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--width wraps the prose of the text and md formats, not html"));
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_seed_figures_in_memory),
		IOR_TEST(test_seed_alerts_defaults),
		IOR_TEST(test_alone_a_device_meets_only_the_floor),
		IOR_TEST(test_text_report_layout),
		IOR_TEST(test_seed_through_database),
		IOR_TEST(test_change_points_section),
		IOR_TEST(test_answer_names_change_points),
		IOR_TEST(test_samples_stored_out_of_order),
		IOR_TEST(test_warmups_under_their_own_group),
		IOR_TEST(test_width_wraps_prose_for_mail),
		IOR_TEST_END,
	};
	return ior_test_run("report_text", tests);
}
