/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report --format kcidb through the binary: the seed data, a VM database and a bisection's database
 * each give a document valid against KCIDB's schema v5.3 (python3-jsonschema, Draft 7, format
 * checker on) whose tests, statuses, issues and incidents say what the database holds; a test is
 * one run of a cell (or one verdict), its id the same on every render and another for every run;
 * ids carry the required --origin and are never cut; hostile and long names stay valid. */
#include "db/db.h"
#include "reports/render.h"
#include "tests/bisect_repo.h"
#include "tests/suite.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char out[65536], err[8192];

/* ioregress --db DB report --format kcidb -o FILE EXTRA... (NULL-terminated), with --origin
 * ioregress unless EXTRA names one; the exit status. */
#define kcidb(db, file, ...) kcidb_args(db, file, (const char *[]){ __VA_ARGS__ })
static int kcidb_args(const char *db, const char *file, const char *const *extra)
{
	char *args[20] = { "--db", (char *)db, "report", "--format", "kcidb", "-o", (char *)file };
	int n = 7;
	bool origin = false;
	for (int i = 0; extra[i] && n < 17; i++) {
		origin |= !strcmp(extra[i], "--origin");
		args[n++] = (char *)extra[i];
	}
	if (!origin) {
		args[n++] = "--origin";
		args[n++] = "ioregress";
	}
	args[n] = NULL;
	int rc = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	if (rc)
		fprintf(stderr, "\n  report --format kcidb: %d %s", rc, err);
	return rc;
}

/* The schema and the links, by tests/kcidb_validate.py; 0 when the document passes. */
static int validate(const char *file, const char *origin)
{
	char script[4096], schema[4096];
	snprintf(script, sizeof(script), "%s", ior_test_source_path("tests/kcidb_validate.py"));
	snprintf(schema, sizeof(schema), "%s", ior_test_source_path("tests/data/kcidb/io-schema-v5.3.json"));
	char *argv[] = { "python3", script, schema, (char *)file, (char *)origin, NULL };
	const char *log = ior_test_path("validate.log");
	int rc = ior_test_spawn_to(argv, NULL, log, log);
	char *text = ior_test_read_file(log, NULL);
	if (rc)
		fprintf(stderr, "\n  %s is not valid KCIDB: %s", file, text ? text : "");
	else
		printf("\n  %s: %s", strrchr(file, '/') + 1, text ? text : "");
	free(text);
	return rc;
}

static json_object *load(const char *file)
{
	char *text = ior_test_read_file(file, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	json_object *j = json_tokener_parse(text);
	free(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	return j;
}

static json_object *list(json_object *doc, const char *name)
{
	json_object *l = NULL;
	CU_ASSERT_FATAL(json_object_object_get_ex(doc, name, &l));
	return l;
}

static const char *field(json_object *o, const char *path)
{
	char key[128];
	snprintf(key, sizeof(key), "%s", path);
	json_object *x = o;
	for (char *save, *k = strtok_r(key, ".", &save); k && x; k = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(x, k, &x))
			x = NULL;
	return x ? json_object_get_string(x) : NULL;
}

/* The first object of list whose key equals value, or NULL. */
static json_object *find(json_object *doc, const char *name, const char *key, const char *value)
{
	json_object *l = list(doc, name);
	for (size_t i = 0; i < json_object_array_length(l); i++) {
		const char *v = field(json_object_array_get_idx(l, i), key);
		if (v && !strcmp(v, value))
			return json_object_array_get_idx(l, i);
	}
	return NULL;
}

static size_t count_status(json_object *doc, const char *status)
{
	json_object *l = list(doc, "tests");
	size_t n = 0;
	for (size_t i = 0; i < json_object_array_length(l); i++)
		n += !strcmp(field(json_object_array_get_idx(l, i), "status"), status);
	if (getenv("IOR_TEST_VERBOSE"))
		for (size_t i = 0; i < json_object_array_length(l); i++)
			printf("\n    %s %s", field(json_object_array_get_idx(l, i), "status"), field(json_object_array_get_idx(l, i), "id"));
	return n;
}

static void skip_without_jsonschema(void)
{
	char *argv[] = { "python3", "-c", "import jsonschema", NULL };
	if (ior_test_spawn(argv, NULL))
		ior_test_skip("no python3 with jsonschema (ci/setup.sh installs python3-jsonschema)");
}

/* --- the seed data ------------------------------------------------------------- */

static const char *seed_db(void)
{
	static char db[4096];
	snprintf(db, sizeof(db), "%s", ior_test_path("seed.db"));  /* path_in's buffers are reused */
	if (access(db, F_OK)) {
		char a[4096], b[4096];
		snprintf(a, sizeof(a), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
		snprintf(b, sizeof(b), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
		char *args[] = { "--db", (char *)db, "import", a, b, NULL };
		CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(args, out, sizeof(out), err, sizeof(err)), 0);
	}
	return db;
}

/* The test of kernel's run of a cell (misc names it), or NULL. */
static json_object *run_test_of(json_object *doc, const char *kernel, const char *engine, const char *device,
				const char *scheduler)
{
	json_object *l = list(doc, "tests");
	for (size_t i = 0; i < json_object_array_length(l); i++) {
		json_object *t = json_object_array_get_idx(l, i);
		const char *id = field(t, "id"), *k = field(t, "misc.kernel"), *e = field(t, "misc.engine"),
			   *d = field(t, "misc.device"), *sc = field(t, "misc.scheduler");
		if (id && !strncmp(id, "ioregress:test:", 15) && k && e && d && sc && !strcmp(k, kernel) &&
		    !strcmp(e, engine) && !strcmp(d, device) && !strcmp(sc, scheduler))
			return t;
	}
	return NULL;
}

/* Every cell of the seed data (one imported run per kernel) is a test at
 * ioregress.ENGINE.DEVICE.SCHEDULER with its median and its run's start, checked against the JSON
 * report of the same database. */
static void test_seed_data_is_valid_kcidb(void)
{
	skip_without_jsonschema();
	const char *db = seed_db(), *doc = ior_test_path("seed.kcidb.json"), *judged = ior_test_path("seed-judged.kcidb.json");
	CU_ASSERT_EQUAL_FATAL(kcidb(db, doc, NULL), 0);
	CU_ASSERT_EQUAL(validate(doc, "ioregress"), 0);
	json_object *k = load(doc);
	char *args[] = { "--db", (char *)db, "report", "--format", "json", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(args, out, sizeof(out), err, sizeof(err)), 0);
	json_object *j = json_tokener_parse(out), *groups = list(j, "groups");
	size_t cells = 0, matched = 0;
	for (size_t g = 0; g < json_object_array_length(groups); g++) {
		json_object *gr = json_object_array_get_idx(groups, g), *cl = NULL;
		json_object_object_get_ex(gr, "cells", &cl);
		for (size_t c = 0; c < json_object_array_length(cl); c++, cells++) {
			json_object *cell = json_object_array_get_idx(cl, c);
			char id[512], path[256], dev[64];
			snprintf(dev, sizeof(dev), "%s", field(cell, "device"));
			json_object *t = run_test_of(k, field(gr, "kernel"), field(gr, "engine"), dev, field(cell, "scheduler"));
			/* the id names the run: its start, '-' and ':' left out */
			snprintf(id, sizeof(id), "ioregress:test:%s:%s:2", field(gr, "host"), field(gr, "kernel"));
			for (char *p = dev; *p; p++)
				*p = *p == ' ' ? '_' : *p;
			snprintf(path, sizeof(path), "ioregress.%s.%s.%s", field(gr, "engine"), dev, field(cell, "scheduler"));
			if (!t) {
				fprintf(stderr, "\n  no test of %s %s", field(gr, "kernel"), path);
				continue;
			}
			matched += !strncmp(field(t, "id"), id, strlen(id)) && strlen(field(t, "id")) < 128 &&
				   field(t, "start_time") && !strncmp(field(t, "start_time"), "20", 2) &&
				   !strcmp(field(t, "path"), path) && !strcmp(field(t, "status"), "DONE") &&
				   !strcmp(field(t, "number.unit"), field(gr, "unit")) &&
				   !strcmp(field(t, "number.value"), field(cell, "stats.median")) &&
				   !strcmp(field(t, "misc.samples"), field(cell, "stats.n"));
		}
	}
	printf("\n  %zu cells, %zu tests match them", cells, matched);
	CU_ASSERT_EQUAL(cells, 24);
	CU_ASSERT_EQUAL(matched, cells);
	CU_ASSERT_EQUAL(json_object_array_length(list(k, "tests")), cells);
	CU_ASSERT_EQUAL(json_object_array_length(list(k, "checkouts")), 4);
	CU_ASSERT_EQUAL(json_object_array_length(list(k, "builds")), 4);
	CU_ASSERT_EQUAL(json_object_array_length(list(k, "issues")), 0);
	/* every checkout and build says when it was first measured; an import knows no tree, compiler or
	 * architecture, so none is written */
	for (const char *const *kind = (const char *const[]){ "checkouts", "builds", NULL }; *kind; kind++)
		for (size_t i = 0; i < json_object_array_length(list(k, *kind)); i++) {
			json_object *o = json_object_array_get_idx(list(k, *kind), i);
			CU_ASSERT_PTR_NOT_NULL(field(o, "start_time"));
			for (const char *const *f = (const char *const[]){ "git_repository_url", "tree_name", "git_repository_branch",
									     "compiler", "architecture", NULL }; *f; f++)
				CU_ASSERT_PTR_NULL(field(o, *f));
		}
	/* against a baseline: the two kernels' runs are tests as they were, and each verdict is a test of its
	 * own; three repetitions are too few for a verdict, and an inconclusive one ran: DONE, never SKIP */
	CU_ASSERT_EQUAL_FATAL(kcidb(db, judged, "--baseline", "2.6.30-2", "--candidate", "2.6.32", NULL), 0);
	CU_ASSERT_EQUAL(validate(judged, "ioregress"), 0);
	json_object *kj = load(judged);
	CU_ASSERT_EQUAL(count_status(kj, "SKIP"), 0);
	CU_ASSERT_EQUAL(count_status(kj, "DONE"), 18);
	json_object *run = run_test_of(kj, "2.6.32", "hdparm-t", "SSD RAID", "cfq");
	CU_ASSERT_PTR_NOT_NULL_FATAL(run);
	CU_ASSERT_PTR_NOT_NULL_FATAL(run_test_of(k, "2.6.32", "hdparm-t", "SSD RAID", "cfq"));
	CU_ASSERT_STRING_EQUAL(field(run, "id"), field(run_test_of(k, "2.6.32", "hdparm-t", "SSD RAID", "cfq"), "id"));
	CU_ASSERT_PTR_NULL(field(run, "misc.verdict"));
	json_object *t = find(kj, "tests", "path", "ioregress.hdparm-t.SSD_RAID.cfq.verdict");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_STRING_EQUAL(field(t, "status"), "DONE");
	CU_ASSERT_STRING_EQUAL(field(t, "misc.verdict"), "inconclusive");
	CU_ASSERT_STRING_EQUAL(field(t, "misc.baseline"), "2.6.30-2");
	CU_ASSERT_STRING_EQUAL(field(t, "misc.kernel"), "2.6.32");
	CU_ASSERT_PTR_NOT_NULL(field(t, "misc.p.mann_whitney"));
	const char *verdict = "ioregress:verdict:kernel:quadcore-8g:2.6.30-2:hdparm-t::SSD RAID:cfq:value:2.6.32:";
	CU_ASSERT(!strncmp(field(t, "id"), verdict, strlen(verdict)));
	json_object_put(kj);
	json_object_put(j);
	json_object_put(k);
}

/* The same database gives the same bytes; --origin changes the ids' prefix and nothing else;
 * an origin KCIDB would refuse is refused before anything is written. */
static void test_ids_stable_and_origin(void)
{
	skip_without_jsonschema();
	const char *db = seed_db(), *a = ior_test_path("a.json"), *b = ior_test_path("b.json"), *c = ior_test_path("c.json");
	CU_ASSERT_EQUAL_FATAL(kcidb(db, a, "--baseline", "2.6.30-2", NULL), 0);
	CU_ASSERT_EQUAL_FATAL(kcidb(db, b, "--baseline", "2.6.30-2", NULL), 0);
	char *ta = ior_test_read_file(a, NULL), *tb = ior_test_read_file(b, NULL);
	CU_ASSERT_STRING_EQUAL(ta, tb);
	CU_ASSERT_EQUAL_FATAL(kcidb(db, c, "--baseline", "2.6.30-2", "--origin", "lab_2", NULL), 0);
	CU_ASSERT_EQUAL(validate(c, "lab_2"), 0);
	char *tc = ior_test_read_file(c, NULL);
	/* lab_2's document with its origin put back is the default one, byte for byte */
	size_t len = strlen(tc), n = 0;
	char *back = malloc(len * 2 + 1);
	for (const char *p = tc; *p;) {
		if (!strncmp(p, "\"lab_2:", 7) || !strncmp(p, "\"lab_2\"", 7)) {
			n += (size_t)sprintf(back + n, "\"ioregress%c", p[6]);
			p += 7;
		} else {
			back[n++] = *p++;
		}
	}
	back[n] = 0;
	CU_ASSERT_STRING_EQUAL(back, ta);
	free(back);
	char longest[KCIDB_ORIGIN_MAX + 1], too_long[5001];
	memset(longest, 'a', sizeof(longest) - 1), longest[sizeof(longest) - 1] = 0;
	memset(too_long, 'a', sizeof(too_long) - 1), too_long[sizeof(too_long) - 1] = 0;
	const char *bad[] = { "Lab", "my-lab", "", "a:b", too_long, too_long + 5000 - KCIDB_ORIGIN_MAX - 1 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unlink(ior_test_path("bad.json"));
		CU_ASSERT_EQUAL(kcidb(db, ior_test_path("bad.json"), "--origin", bad[i], NULL), 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, i < 4 ? "is not a KCIDB origin" : "is longer than 32 characters"));
		CU_ASSERT(strlen(err) < 200);
		CU_ASSERT_NOT_EQUAL(access(ior_test_path("bad.json"), F_OK), 0);
	}
	CU_ASSERT_EQUAL(kcidb(db, ior_test_path("longest.json"), "--origin", longest, NULL), 0);
	CU_ASSERT_EQUAL(validate(ior_test_path("longest.json"), longest), 0);
	/* no --origin: two systems that forget it would write one id, so kcidb needs it, in every command */
	char *none[] = { "--db", (char *)db, "report", "--format", "kcidb", "-o", (char *)ior_test_path("none.json"), NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(none, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--format kcidb needs --origin NAME"));
	CU_ASSERT_NOT_EQUAL(access(ior_test_path("none.json"), F_OK), 0);
	char *check[] = { "--db", (char *)db, "check", "--baseline", "2.6.30-2", "--candidate", "2.6.32", "--format", "kcidb", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(check, out, sizeof(out), err, sizeof(err)), 128);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--format kcidb needs --origin NAME"));
	char *check_origin[] = { "--db", (char *)db, "check", "--baseline", "2.6.30-2", "--candidate", "2.6.32", "--format",
				 "kcidb", "--origin", "lab", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(check_origin, out, sizeof(out), err, sizeof(err)), 125);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"lab:verdict:kernel:"));
	char *args[] = { "--db", (char *)db, "report", "--format", "json", "--origin", "lab", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(args, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--origin needs --format kcidb"));
	free(ta);
	free(tb);
	free(tc);
}

/* --- a VM database ------------------------------------------------------------- */

#define VM_HOST "ci<&\"'>:%host"
#define VM_DEVICE "vd \xff|*.x:y"         /* invalid UTF-8, a dot and a colon */
#define VM_ENGINE "rand.read:4k%"
#define OLD "6.1.0-47-cloud-amd64"
#define NEW "6.1.0-57-cloud-amd64"
#define TREE "6.13.0-rc1+"
#define TREE_CONFIG "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
#define TREE_SHA "0123456789abcdef0123456789abcdef01234567"
#define TREE_CC "gcc (Debian 12.2.0-14) 12.2.0"
#define NEW_CC "x86_64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0"

static void samples(struct ior_db *db, int64_t cell, double level, int n)
{
	for (int i = 0; i < n; i++) {
		double v = level * (1 + 0.003 * ((i * 7) % 5 - 2));
		struct ior_sample s = { .value = v, .unit = "IOPS", .higher_is_better = true, .bytes = 4096000, .ios = 1000,
					.wall_s = 1, .usr_s = 0.1, .sys_s = 0.2, .has_latency = true,
					.lat_p50_us = 100, .lat_p99_us = 1e6 / v, .lat_p999_us = 300, .lat_mean_us = 110 };
		CU_ASSERT_EQUAL(ior_test_ok(ior_db_sample_add(db, cell, i + 1, &s)), 0);
	}
}

/* Two packaged kernels as vm run leaves them: on the newer, none loses 20%, mq-deadline holds,
 * kyber is unavailable, the dd cell failed, a second run was interrupted before its cell, and
 * one more boot panicked. */
static const char *vm_db(void)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s", ior_test_path("vm.db"));
	if (!access(path, F_OK))
		return path;
	struct ior_db *db;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	int64_t host;
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, VM_HOST, "x86_64", &host), 0);
	const char *releases[] = { OLD, NEW }, *versions[] = { "6.1.158-1", "6.1.162-1" };
	for (int k = 0; k < 2; k++) {
		int64_t kid, run, dev, cell;
		/* the newer package's config names its compiler; the older's is not known */
		struct ior_db_kernel kr = { .release = releases[k], .machine = "x86_64", .compiler = k ? NEW_CC : NULL };
		CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &kr, &kid), 0);
		CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, host, kid, "vm.ini", "[matrix]\n", IOR_RUN_RUNNING, &run), 0);
		struct ior_db_device d = { .name = VM_DEVICE, .path = "/dev/vda", .rotational = 0 };
		CU_ASSERT_EQUAL_FATAL(ior_db_device_get(db, host, &d, &dev), 0);
		const char *scheds[] = { "none", "mq-deadline", "kyber" };
		for (int s = 0; s < 3; s++) {
			CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, scheds[s], VM_ENGINE, "aio", "bs=4k", &cell), 0);
			if (s == 2)
				ior_db_cell_set_status(db, cell, IOR_CELL_UNAVAILABLE, "kyber not offered");
			else
				samples(db, cell, 1000.0 * (s + 1) * (k == 1 && s == 0 ? 0.8 : 1.0), 12);
		}
		CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, "none", "seqwrite", "dd", "bs=1M", &cell), 0);
		if (k == 1)
			ior_db_cell_set_status(db, cell, IOR_CELL_FAILED, "dd: write error: No space left <on> device");
		else
			samples(db, cell, 500, 12);
		CU_ASSERT_EQUAL(ior_db_run_finish(db, run, IOR_RUN_COMPLETE), 0);
		if (k == 0) {   /* and a kernel built from a tree: no package, its config hash */
			int64_t tree, trun, tcell;
			struct ior_db_kernel tk = { .release = TREE, .machine = "x86_64", .config_hash = TREE_CONFIG,
						    .compiler = TREE_CC };
			CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &tk, &tree), 0);
			/* its tree's branch and remote, as run --kernel-tree or vm run --tree store them */
			struct ior_db_commit tc = { .sha = TREE_SHA, .subject = "block: fix", .branch = "for-next",
						    .repository_url = "git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git" };
			CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_kernel_set_commit(db, tree, &tc)), 0);
			CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, host, tree, "vm.ini", "[matrix]\n", IOR_RUN_RUNNING, &trun), 0);
			CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, trun, dev, "none", VM_ENGINE, "aio", "bs=4k", &tcell), 0);
			samples(db, tcell, 1000, 12);
			CU_ASSERT_EQUAL(ior_db_run_finish(db, trun, IOR_RUN_COMPLETE), 0);
		}
		char package[64];
		snprintf(package, sizeof(package), "linux-image-%s", releases[k]);
		struct ior_db_vm_boot boot = { .host_id = host, .run_id = run, .kernel = package, .kernel_release = releases[k],
					       .package_version = versions[k], .boot_index = 1, .outcome = "ok",
					       .accelerator = "tcg", .cpus = 2, .memory_mb = 1024, .qemu_version = "7.2.15",
					       .boot_s = 3.5, .total_s = 20.0, .vm_run = "host/1/t" };
		int64_t id;
		CU_ASSERT_EQUAL(ior_test_ok(ior_db_vm_boot_add(db, &boot, &id)), 0);
		/* three more rounds of the aio cells: kernel verdicts take one observation per boot, and one
		 * boot a side decides nothing (test_boot_verdict) */
		for (int b = 2; b <= 4; b++) {
			int64_t brun, bcell;
			CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, host, kid, "vm.ini", "[matrix]\n", IOR_RUN_RUNNING, &brun), 0);
			for (int s = 0; s < 2; s++) {
				CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, brun, dev, scheds[s], VM_ENGINE, "aio", "bs=4k", &bcell), 0);
				samples(db, bcell, 1000.0 * (s + 1) * (k == 1 && s == 0 ? 0.8 : 1.0) * (1 + 0.002 * (1 + k) * (b % 2 ? 1 : -1)),
					12);
			}
			CU_ASSERT_EQUAL(ior_db_run_finish(db, brun, IOR_RUN_COMPLETE), 0);
			boot.run_id = brun;
			boot.boot_index = b;
			CU_ASSERT_EQUAL(ior_test_ok(ior_db_vm_boot_add(db, &boot, &id)), 0);
		}
		if (k == 1) {
			boot.boot_index = 5;
			boot.outcome = "panic";
			boot.reason = "Kernel panic - not syncing: <VFS>";
			boot.run_id = 0;
			CU_ASSERT_EQUAL(ior_test_ok(ior_db_vm_boot_add(db, &boot, &id)), 0);
			/* the next run stopped before its first cell measured */
			CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, host, kid, "vm.ini", "[matrix]\n", IOR_RUN_RUNNING, &run), 0);
			CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, "none", "seqread", "hdparm", "", &cell), 0);
			CU_ASSERT_EQUAL(ior_db_run_finish(db, run, IOR_RUN_INTERRUPTED), 0);
		}
	}
	ior_db_free(db);
	return path;
}

static void test_vm_database_regression_is_an_issue(void)
{
	skip_without_jsonschema();
	const char *db = vm_db(), *doc = ior_test_path("vm.kcidb.json");
	CU_ASSERT_EQUAL_FATAL(kcidb(db, doc, "--baseline", OLD, "--candidate", NEW, "--metric", "all", NULL), 0);
	CU_ASSERT_EQUAL_FATAL(validate(doc, "ioregress"), 0);
	json_object *k = load(doc);
	/* the build names the package and its version */
	json_object *b = find(k, "builds", "id", "ioregress:package:linux-image-" NEW ":6.1.162-1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(field(b, "misc.package_version"), "6.1.162-1");
	CU_ASSERT_STRING_EQUAL(field(b, "checkout_id"), "ioregress:kernel:" NEW);
	CU_ASSERT_STRING_EQUAL(field(b, "architecture"), "x86_64");
	CU_ASSERT_PTR_NOT_NULL(field(b, "start_time"));
	CU_ASSERT_STRING_EQUAL(field(b, "compiler"), NEW_CC);
	/* a package's checkout has no repository or branch: none was recorded */
	json_object *co = find(k, "checkouts", "id", "ioregress:kernel:" NEW);
	CU_ASSERT_PTR_NOT_NULL_FATAL(co);
	CU_ASSERT_PTR_NOT_NULL(field(co, "start_time"));
	for (const char *const *f = (const char *const[]){ "git_repository_url", "tree_name", "git_repository_branch",
							     "git_repository_branch_tip", "git_commit_hash", NULL }; *f; f++)
		CU_ASSERT_PTR_NULL(field(co, *f));
	/* nor the older package a compiler */
	b = find(k, "builds", "id", "ioregress:package:linux-image-" OLD ":6.1.158-1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NULL(field(b, "compiler"));
	CU_ASSERT_STRING_EQUAL(field(b, "architecture"), "x86_64");
	/* the regressed cell's verdict fails, at a valid path; its id keeps the names, ':' and '%' encoded,
	 * names the baseline and the candidate, and ends with a digest of the runs it judged */
	const char *id = "ioregress:verdict:kernel:ci<&\"'>%3A%25host:" OLD ":rand.read%3A4k%25:bs=4k:vd \xef\xbf\xbd|*.x%3Ay:none:value:" NEW ":";
	json_object *t = find(k, "tests", "path", "ioregress.rand_read_4k_.vd_____x_y.none.verdict");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_STRING_EQUAL(field(t, "status"), "FAIL");
	CU_ASSERT_EQUAL(strncmp(field(t, "id"), id, strlen(id)), 0);
	CU_ASSERT_EQUAL(strlen(field(t, "id")), strlen(id) + 16);
	CU_ASSERT_PTR_NOT_NULL(field(t, "start_time"));
	CU_ASSERT_STRING_EQUAL(field(t, "misc.verdict"), "regression");
	CU_ASSERT(fabs(atof(field(t, "number.value")) - 800) < 3);
	CU_ASSERT_STRING_EQUAL(field(t, "number.unit"), "IOPS");
	CU_ASSERT(atof(field(t, "misc.interval.ratio_hi")) < 0.85);
	/* the latency that rose with it is a test (and an issue) of its own */
	json_object *lat = find(k, "tests", "path", "ioregress.rand_read_4k_.vd_____x_y.none.lat_p99_us.verdict");
	CU_ASSERT_PTR_NOT_NULL_FATAL(lat);
	CU_ASSERT_STRING_EQUAL(field(lat, "status"), "FAIL");
	CU_ASSERT_EQUAL(count_status(k, "FAIL"), 3);   /* value, lat_p99_us, the panicked boot */
	CU_ASSERT_EQUAL(json_object_array_length(list(k, "issues")), 2);
	/* the incident links the headline's issue to the failing test and its build */
	json_object *inc = find(k, "incidents", "test_id", field(t, "id"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(inc);
	CU_ASSERT_STRING_EQUAL(field(inc, "build_id"), "ioregress:package:linux-image-" NEW ":6.1.162-1");
	json_object *issue = find(k, "issues", "id", field(inc, "issue_id"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(issue);
	CU_ASSERT_STRING_EQUAL(field(issue, "culprit.code"), "true");
	CU_ASSERT_PTR_NOT_NULL(strstr(field(issue, "report_subject"), "-20."));
	/* mq-deadline held; kyber unavailable; dd failed; the interrupted run's cell never ran */
	CU_ASSERT_EQUAL(count_status(k, "PASS") >= 2, 1);
	json_object *e = find(k, "tests", "status", "ERROR");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(field(e, "path"), "ioregress.seqwrite.vd_____x_y.none");
	CU_ASSERT_PTR_NOT_NULL(strstr(field(e, "comment"), "No space left <on> device"));
	CU_ASSERT_EQUAL(count_status(k, "SKIP"), 2);   /* kyber on both kernels */
	CU_ASSERT_EQUAL(count_status(k, "MISS"), 1);
	json_object *boot = find(k, "tests", "comment", "Kernel panic - not syncing: <VFS>");
	CU_ASSERT_PTR_NOT_NULL_FATAL(boot);
	CU_ASSERT_STRING_EQUAL(field(boot, "path"), "boot");   /* the catalog's top level dashboards count boots under */
	CU_ASSERT_STRING_EQUAL(field(boot, "status"), "FAIL");
	CU_ASSERT_PTR_NOT_NULL(field(boot, "start_time"));
	CU_ASSERT_PTR_NOT_NULL(strstr(field(boot, "id"), ":host/1/t:5"));   /* the vm run and its round */
	json_object_put(k);
	/* without a baseline every kernel is there; the tree build is its release and config hash */
	const char *all = ior_test_path("vm-all.kcidb.json");
	CU_ASSERT_EQUAL_FATAL(kcidb(db, all, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(validate(all, "ioregress"), 0);
	k = load(all);
	b = find(k, "builds", "id", "ioregress:config:" TREE ":" TREE_CONFIG);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(field(b, "config_name"), "sha256:" TREE_CONFIG);
	CU_ASSERT_STRING_EQUAL(field(b, "compiler"), TREE_CC);
	CU_ASSERT_STRING_EQUAL(field(b, "checkout_id"), "ioregress:git:" TREE_SHA);
	/* the tree's checkout: where it came from (https, as KCIDB takes it), the tree's name, the branch */
	co = find(k, "checkouts", "id", "ioregress:git:" TREE_SHA);
	CU_ASSERT_PTR_NOT_NULL_FATAL(co);
	CU_ASSERT_STRING_EQUAL(field(co, "git_commit_hash"), TREE_SHA);
	CU_ASSERT_STRING_EQUAL(field(co, "git_repository_url"), "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git");
	CU_ASSERT_STRING_EQUAL(field(co, "tree_name"), "mainline");
	CU_ASSERT_STRING_EQUAL(field(co, "git_repository_branch"), "for-next");
	CU_ASSERT_STRING_EQUAL(field(co, "git_repository_branch_tip"), "true");
	CU_ASSERT_PTR_NOT_NULL(field(co, "start_time"));
	CU_ASSERT_EQUAL(json_object_array_length(list(k, "builds")), 3);
	CU_ASSERT_EQUAL(count_status(k, "FAIL"), 1);   /* the panic: without a baseline no verdict */
	json_object_put(k);
}

/* --- a bisection's database ----------------------------------------------------- */

static void test_bisect_culprit_is_an_issue(void)
{
	skip_without_jsonschema();
	enum { N = 12, CULPRIT = 7 };
	char ids[N][GIT_OID_HEXSZ + 1];
	const char *repo = ior_test_path("repo"), *db = ior_test_path("bisect.db"), *doc = ior_test_path("bisect.kcidb.json");
	setenv("IOR_TEST_SEED", "7", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	char *start[] = { "--db", (char *)db, "bisect", "start", "--repo", (char *)repo, "--good", ids[0], "--bad",
			  ids[N - 1], NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(start, out, sizeof(out), err, sizeof(err)), 0);
	char measure[4200];
	snprintf(measure, sizeof(measure), "sh %s", ior_test_measure_script(ior_test_tmpdir(), 0.05));
	char *run[] = { "--db", (char *)db, "bisect", "run", "--measure", measure, "--build", "true", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(run, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(kcidb(db, doc, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(validate(doc, "ioregress"), 0);
	json_object *k = load(doc);
	char issue_id[128];
	snprintf(issue_id, sizeof(issue_id), "ioregress:culprit:%s", ids[CULPRIT]);
	json_object *issue = find(k, "issues", "id", issue_id);
	CU_ASSERT_PTR_NOT_NULL_FATAL(issue);
	CU_ASSERT_STRING_EQUAL(field(issue, "culprit.code"), "true");
	CU_ASSERT_STRING_EQUAL(field(issue, "misc.commit"), ids[CULPRIT]);
	json_object *inc = find(k, "incidents", "issue_id", issue_id);
	CU_ASSERT_PTR_NOT_NULL_FATAL(inc);
	json_object *t = find(k, "tests", "id", field(inc, "test_id"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_STRING_EQUAL(field(t, "status"), "FAIL");
	CU_ASSERT_STRING_EQUAL(field(t, "path"), "ioregress.bisect");
	CU_ASSERT_STRING_EQUAL(field(t, "misc.commit"), ids[CULPRIT]);
	CU_ASSERT(fabs(atof(field(t, "number.value")) - 900) < 60);   /* the level from the culprit on */
	/* the checkout is the commit itself; the good end passes with the level before */
	char checkout[128];
	snprintf(checkout, sizeof(checkout), "ioregress:git:%s", ids[CULPRIT]);
	json_object *c = find(k, "checkouts", "id", checkout);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(field(c, "git_commit_hash"), ids[CULPRIT]);
	json_object *good = find(k, "tests", "misc.end", "good");
	CU_ASSERT_PTR_NOT_NULL_FATAL(good);
	CU_ASSERT_STRING_EQUAL(field(good, "status"), "PASS");
	CU_ASSERT(fabs(atof(field(good, "number.value")) - 1000) < 60);
	CU_ASSERT_EQUAL(json_object_array_length(list(k, "issues")), 1);
	json_object_put(k);
}

/* --- runs, long names, parameters ---------------------------------------------- */

/* One run of host on release with one aio cell per engine name (params as given) at level. */
static void one_run(struct ior_db *db, const char *host_name, const char *release, const char *const *engines,
		    const char *params, double level)
{
	int64_t host, kid, run, dev, cell;
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, host_name, "x86_64", &host), 0);
	struct ior_db_kernel kr = { .release = release, .machine = "x86_64" };
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &kr, &kid), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, host, kid, "m.ini", "[matrix]\n", IOR_RUN_RUNNING, &run), 0);
	struct ior_db_device d = { .name = "scratch", .path = "/dev/loop9", .rotational = 0 };
	CU_ASSERT_EQUAL_FATAL(ior_db_device_get(db, host, &d, &dev), 0);
	for (size_t e = 0; engines[e]; e++) {
		CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, "none", engines[e], "aio", params, &cell), 0);
		samples(db, cell, level, 8);
	}
	CU_ASSERT_EQUAL(ior_db_run_finish(db, run, IOR_RUN_COMPLETE), 0);
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static void sql(const char *db, const char *statement)
{
	char *argv[] = { "sqlite3", (char *)db, (char *)statement, NULL };
	CU_ASSERT_EQUAL(ior_test_spawn(argv, NULL), 0);
}

/* Every test id of a document, and how many are distinct. */
static size_t distinct_ids(json_object *doc, const char *kind, size_t *total)
{
	json_object *l = list(doc, kind);
	size_t n = json_object_array_length(l), distinct = 0;
	for (size_t i = 0; i < n; i++) {
		const char *id = field(json_object_array_get_idx(l, i), "id");
		bool again = false;
		for (size_t j = 0; j < i && !again; j++)
			again = !strcmp(id, field(json_object_array_get_idx(l, j), "id"));
		distinct += !again;
	}
	*total = n;
	return distinct;
}

/* Issue 37: after a second run of the same matrix the test ids were those of the first while the
 * medians changed. Each run's cell is a test of its own with its own median (two runs in one
 * millisecond too); the same database renders to the same bytes; a run added keeps every earlier
 * test's id and number, while a verdict judged on more runs is another test. */
static void test_ids_name_runs(void)
{
	skip_without_jsonschema();
	char path[4096], a[4096], b[4096], v1[4096], v2[4096];   /* ior_test_path's buffers are reused */
	snprintf(path, sizeof(path), "%s", ior_test_path("runs.db"));
	snprintf(a, sizeof(a), "%s", ior_test_path("runs-a.json"));
	snprintf(b, sizeof(b), "%s", ior_test_path("runs-b.json"));
	snprintf(v1, sizeof(v1), "%s", ior_test_path("runs-v1.json"));
	snprintf(v2, sizeof(v2), "%s", ior_test_path("runs-v2.json"));
	const char *engines[] = { "randread", NULL };
	struct ior_db *db;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	one_run(db, "lab", "6.1.0-47-cloud-amd64", engines, "bs=4k", 1000);
	one_run(db, "lab", "6.1.0-47-cloud-amd64", engines, "bs=4k", 2000);
	one_run(db, "lab", "6.1.0-47-cloud-amd64", engines, "bs=4k", 3000);
	one_run(db, "lab", "6.1.0-57-cloud-amd64", engines, "bs=4k", 1500);
	ior_db_free(db);
	/* the third run started in the same millisecond as the second */
	sql(path, "UPDATE runs SET started_at = (SELECT started_at FROM runs WHERE id = 2) WHERE id = 3");
	CU_ASSERT_EQUAL_FATAL(kcidb(path, a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(validate(a, "ioregress"), 0);
	CU_ASSERT_EQUAL_FATAL(kcidb(path, b, NULL), 0);
	char *ta = ior_test_read_file(a, NULL), *tb = ior_test_read_file(b, NULL);
	CU_ASSERT_STRING_EQUAL(ta, tb);
	json_object *k = load(a);
	size_t total, distinct = distinct_ids(k, "tests", &total);
	CU_ASSERT_EQUAL(total, 4);
	CU_ASSERT_EQUAL(distinct, 4);
	/* each run's own median, not the three runs pooled */
	double seen[4] = { 0 };
	for (size_t i = 0; i < total && i < 4; i++)
		seen[i] = atof(field(json_object_array_get_idx(list(k, "tests"), i), "number.value"));
	qsort(seen, 4, sizeof(seen[0]), by_value);
	CU_ASSERT(fabs(seen[0] - 1000) < 10 && fabs(seen[1] - 1500) < 10 && fabs(seen[2] - 2000) < 10 &&
		  fabs(seen[3] - 3000) < 10);
	/* a verdict on these runs, then a fourth run of the baseline */
	CU_ASSERT_EQUAL_FATAL(kcidb(path, v1, "--baseline", "6.1.0-47-cloud-amd64", NULL), 0);
	CU_ASSERT_EQUAL(validate(v1, "ioregress"), 0);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	one_run(db, "lab", "6.1.0-47-cloud-amd64", engines, "bs=4k", 4000);
	ior_db_free(db);
	CU_ASSERT_EQUAL_FATAL(kcidb(path, v2, "--baseline", "6.1.0-47-cloud-amd64", NULL), 0);
	CU_ASSERT_EQUAL(validate(v2, "ioregress"), 0);
	json_object *j1 = load(v1), *j2 = load(v2);
	json_object *l1 = list(j1, "tests");
	size_t runs_kept = 0;
	for (size_t i = 0; i < json_object_array_length(l1); i++) {
		json_object *t = json_object_array_get_idx(l1, i);
		if (strncmp(field(t, "id"), "ioregress:test:", 15))
			continue;
		json_object *again = find(j2, "tests", "id", field(t, "id"));
		runs_kept += again && !strcmp(field(again, "number.value"), field(t, "number.value"));
	}
	CU_ASSERT_EQUAL(runs_kept, 4);
	CU_ASSERT_EQUAL(json_object_array_length(list(j2, "tests")), 7);   /* 5 runs, 2 verdicts (value, lat_p99_us) */
	json_object *w1 = find(j1, "tests", "path", "ioregress.randread.scratch.none.verdict"),
		    *w2 = find(j2, "tests", "path", "ioregress.randread.scratch.none.verdict");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w2);
	CU_ASSERT_STRING_NOT_EQUAL(field(w1, "id"), field(w2, "id"));
	CU_ASSERT_PTR_NOT_NULL(strstr(field(w1, "id"), ":6.1.0-47-cloud-amd64:"));
	json_object_put(j1);
	json_object_put(j2);
	json_object_put(k);
	free(ta);
	free(tb);
}

/* Issue 35: ids were cut at 4,095 bytes, so two 5,000-character engine names that differ at their end
 * shared one id. No id is cut: a long part keeps its start and a hash of the whole, so every test
 * keeps an id of its own, short enough for a dashboard, and the document stays valid. */
static void test_long_names_never_share_an_id(void)
{
	skip_without_jsonschema();
	char path[4096], doc[4096];
	snprintf(path, sizeof(path), "%s", ior_test_path("long.db"));
	snprintf(doc, sizeof(doc), "%s", ior_test_path("long.json"));
	enum { LONG = 5000, N = 6 };
	static char names[N][LONG + 1], host[LONG + 1];
	const char *engines[N + 1] = { NULL };
	for (int i = 0; i < N; i++) {
		memset(names[i], i % 2 ? 'e' : ':', LONG);   /* ':' is encoded as %3A: three times as long */
		names[i][LONG - 1] = (char)('0' + i);
		engines[i] = names[i];
	}
	memset(host, 'h', LONG);
	memcpy(host + LONG - 4, "\xc3\xa9\xc3\xa9", 4);   /* UTF-8 at the end, never split */
	struct ior_db *db;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	one_run(db, host, "6.1.0-47-cloud-amd64", engines, names[0], 1000);
	one_run(db, host, "6.1.0-57-cloud-amd64", engines, names[0], 1000);
	ior_db_free(db);
	CU_ASSERT_EQUAL_FATAL(kcidb(path, doc, "--baseline", "6.1.0-47-cloud-amd64", NULL), 0);
	CU_ASSERT_EQUAL_FATAL(validate(doc, "ioregress"), 0);
	json_object *k = load(doc);
	size_t total, distinct = distinct_ids(k, "tests", &total);
	printf("\n  %zu tests, %zu distinct ids", total, distinct);
	CU_ASSERT_EQUAL(total, 4 * N);   /* per engine two runs and two verdicts (value, lat_p99_us) */
	CU_ASSERT_EQUAL(distinct, total);
	size_t longest = 0, paths = 0;
	json_object *l = list(k, "tests");
	for (size_t i = 0; i < json_object_array_length(l); i++) {
		const char *id = field(json_object_array_get_idx(l, i), "id");
		longest = strlen(id) > longest ? strlen(id) : longest;
		for (size_t j = 0; j < i; j++)
			paths += !strcmp(field(json_object_array_get_idx(l, i), "path"), field(json_object_array_get_idx(l, j), "path"));
	}
	printf(", the longest %zu bytes", longest);
	CU_ASSERT(longest < 1024);
	CU_ASSERT_EQUAL(paths, N);   /* each engine's two runs share a path, and nothing else does */
	CU_ASSERT_EQUAL(json_object_array_length(list(k, "builds")), 2);
	json_object_put(k);
}

/* Issue 37: parameters the job does not change (rwmixread=50% on a pure randread, batch sizes of 1,
 * ramp_time=0s) made ids up to 204 characters: the id keeps what fio would print, the misc the whole. */
static void test_ids_leave_out_default_params(void)
{
	skip_without_jsonschema();
	char path[4096], doc[4096];
	snprintf(path, sizeof(path), "%s", ior_test_path("params.db"));
	snprintf(doc, sizeof(doc), "%s", ior_test_path("params.json"));
	const char *params = "rw=randread,rwmixread=50%,bs=4K,iodepth=8,iodepth_batch=1,iodepth_batch_complete=1,numjobs=1,"
			     "size=128M,runtime=10s,ramp_time=0s,direct=yes";
	const char *engines[] = { "randread", NULL };
	struct ior_db *db;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	one_run(db, "lab", "6.1.0-47-cloud-amd64", engines, params, 1000);
	ior_db_free(db);
	CU_ASSERT_EQUAL_FATAL(kcidb(path, doc, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(validate(doc, "ioregress"), 0);
	json_object *k = load(doc);
	json_object *t = json_object_array_get_idx(list(k, "tests"), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	printf("\n  %s", field(t, "id"));
	CU_ASSERT_PTR_NOT_NULL(strstr(field(t, "id"), ":randread:rw=randread,iodepth=8,size=128M,runtime=10s,direct=yes:scratch:"));
	CU_ASSERT_STRING_EQUAL(field(t, "misc.params"), params);
	json_object_put(k);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_seed_data_is_valid_kcidb),
		IOR_TEST(test_ids_stable_and_origin),
		IOR_TEST(test_vm_database_regression_is_an_issue),
		IOR_TEST(test_bisect_culprit_is_an_issue),
		IOR_TEST(test_ids_name_runs),
		IOR_TEST(test_long_names_never_share_an_id),
		IOR_TEST(test_ids_leave_out_default_params),
		IOR_TEST_END,
	};
	return ior_test_run("report_kcidb", tests);
}
