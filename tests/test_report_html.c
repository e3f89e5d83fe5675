/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report in headless Chromium (Debian's chromium, from ci/setup.sh): it loads with no
 * console message, holds one chart per cell and device that needs one, fetches nothing, and its
 * screenshot is not blank. */
#include "tests/suite.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static const char *chromium(void)
{
	static const char *const names[] = { "/usr/bin/chromium", "/usr/bin/chromium-browser" };
	for (size_t i = 0; i < 2; i++)
		if (!access(names[i], X_OK))
			return names[i];
	ior_test_skip("no chromium (ci/setup.sh installs Debian's chromium)");
}

static const char *path_in_tmp(const char *name)
{
	static char slots[64][4096];
	static int next;
	char *p = slots[next++ % 64];
	snprintf(p, 4096, "%s/%s", ior_test_tmpdir(), name);
	return p;
}

static int ioregress(char *const args[], const char *out)
{
	const char *bin = getenv("IOR_BINARY");
	if (!bin || access(bin, X_OK))
		ior_test_skip("IOR_BINARY is not set to a built ioregress");
	char *argv[24] = { (char *)bin };
	for (int i = 0; args[i] && i < 22; i++)
		argv[i + 1] = args[i];
	return ior_test_spawn_to(argv, NULL, out, path_in_tmp("ioregress.err"));
}

/* Loads url in headless Chromium: the DOM as Chromium built it into dom, its log into log. */
static int load(const char *url, const char *dom, const char *log, const char *screenshot)
{
	char profile[4096], shot[4200];
	snprintf(profile, sizeof(profile), "--user-data-dir=%s", path_in_tmp("chromium-profile"));
	snprintf(shot, sizeof(shot), "--screenshot=%s", screenshot ? screenshot : "");
	char *argv[] = { (char *)chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
			 profile, "--enable-logging=stderr", "--v=0", "--window-size=1280,2400",
			 screenshot ? shot : "--dump-dom", (char *)url, NULL };
	return ior_test_spawn_to(argv, NULL, dom, log);
}

/* Console messages (errors, CSP refusals, failed loads) in Chromium's log. */
static int console_lines(const char *log)
{
	char *text = ior_test_read_file(log, NULL);
	int n = 0;
	for (const char *p = text; p && (p = strstr(p, "CONSOLE")); p++)
		n++;
	if (n)
		fprintf(stderr, "chromium log:\n%s\n", text);
	free(text);
	return n;
}

/* The method itself: a page with a console error must be caught. */
static void test_console_errors_are_seen(void)
{
	const char *page = ior_test_write_file("error.html",
		"<!DOCTYPE html><html><body><p>x</p><script>console.error('planted')</script></body></html>\n");
	char url[4200];
	snprintf(url, sizeof(url), "file://%s", page);
	CU_ASSERT_EQUAL(load(url, path_in_tmp("error.dom"), path_in_tmp("error.log"), NULL), 0);
	char *log = ior_test_read_file(path_in_tmp("error.log"), NULL);
	CU_ASSERT_PTR_NOT_NULL(log && strstr(log, "CONSOLE") ? strstr(log, "planted") : NULL);
	free(log);
}

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;
	json_object_object_get_ex(o, k, &v);
	return v;
}

struct key {
	char text[512];
};

static void add_key(struct key *keys, size_t *n, json_object *o, bool device)
{
	struct key k;
	snprintf(k.text, sizeof(k.text), "%s|%s|%s|%s", json_object_get_string(get(o, "host")),
		 json_object_get_string(get(o, "engine")), json_object_get_string(get(o, "device")),
		 device ? "" : json_object_get_string(get(o, "scheduler")));
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(keys[i].text, k.text))
			return;
	keys[(*n)++] = k;
}

/* The charts the page should hold, from the JSON of the same report: two per cell with a
 * cell alert, a change point or a verdict, one per device with a device alert. */
static size_t expected_charts(const char *json_path)
{
	char *text = ior_test_read_file(json_path, NULL);
	json_object *root = json_tokener_parse(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	static struct key cells[512], devices[512];
	size_t nc = 0, nd = 0;
	json_object *a = get(root, "alerts"), *cp = get(root, "change_points"), *v = get(get(root, "verdicts"), "cells");
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *x = json_object_array_get_idx(a, i);
		if (!strcmp(json_object_get_string(get(x, "kind")), "device"))
			add_key(devices, &nd, x, true);
		else
			add_key(cells, &nc, x, false);
	}
	for (size_t i = 0; i < json_object_array_length(cp); i++)
		if (json_object_array_length(get(json_object_array_get_idx(cp, i), "changes")))
			add_key(cells, &nc, json_object_array_get_idx(cp, i), false);
	for (size_t i = 0; v && i < json_object_array_length(v); i++)
		add_key(cells, &nc, json_object_array_get_idx(v, i), false);
	json_object_put(root);
	free(text);
	return 2 * nc + nd;
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* --- a PNG's pixels, to tell a drawn page from a blank one ------------------------ */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Share of pixels that differ from the top-left one (the page's background); -1 when the file
 * is not an 8-bit RGB or RGBA PNG. */
static double drawn_share(const char *png)
{
	size_t len;
	unsigned char *f = (unsigned char *)ior_test_read_file(png, &len);
	if (!f || len < 33 || memcmp(f, "\x89PNG\r\n\x1a\n", 8)) {
		free(f);
		return -1;
	}
	uint32_t w = be32(f + 16), h = be32(f + 20);
	int bpp = f[25] == 6 ? 4 : f[25] == 2 ? 3 : 0;
	if (f[24] != 8 || !bpp || f[28]) {
		free(f);
		return -1;
	}
	unsigned char *z = malloc(len);
	size_t zn = 0;
	for (size_t at = 8; at + 12 <= len;) {
		uint32_t n = be32(f + at);
		if (!memcmp(f + at + 4, "IDAT", 4))
			memcpy(z + zn, f + at + 8, n), zn += n;
		at += 12 + n;
	}
	size_t stride = (size_t)w * bpp;
	uLongf rawn = (stride + 1) * h;
	unsigned char *raw = malloc(rawn);
	double share = -1;
	if (raw && uncompress(raw, &rawn, z, zn) == Z_OK) {
		size_t differ = 0;
		unsigned char bg[4];
		for (uint32_t y = 0; y < h; y++) {
			unsigned char *row = raw + y * (stride + 1) + 1, *up = y ? row - stride - 1 : NULL;
			int filter = row[-1];
			for (size_t x = 0; x < stride; x++) {
				int a = x >= (size_t)bpp ? row[x - bpp] : 0, b = up ? up[x] : 0,
				    c = up && x >= (size_t)bpp ? up[x - bpp] : 0;
				int add = filter == 1 ? a : filter == 2 ? b : filter == 3 ? (a + b) / 2 : filter == 4 ? paeth(a, b, c) : 0;
				row[x] = (unsigned char)(row[x] + add);
			}
			if (!y)
				memcpy(bg, row, (size_t)bpp);
			for (uint32_t x = 0; x < w; x++)
				differ += memcmp(row + (size_t)x * bpp, bg, 3) != 0;
		}
		share = (double)differ / ((double)w * h);
	}
	free(raw), free(z), free(f);
	return share;
}

static void test_seed_report_in_chromium(void)
{
	const char *db = path_in_tmp("seed.db");
	char a[4096], b[4096];
	snprintf(a, sizeof(a), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	snprintf(b, sizeof(b), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	char *imp[] = { "--db", (char *)db, "import", a, b, NULL };
	CU_ASSERT_EQUAL_FATAL(ioregress(imp, path_in_tmp("import.out")), 0);
	const char *html = path_in_tmp("seed.html"), *json = path_in_tmp("seed.json");
	char *h[] = { "--db", (char *)db, "report", "--format", "html", "--baseline", "2.6.30-2", "-o", (char *)html, NULL };
	char *j[] = { "--db", (char *)db, "report", "--format", "json", "--baseline", "2.6.30-2", "-o", (char *)json, NULL };
	CU_ASSERT_EQUAL_FATAL(ioregress(h, path_in_tmp("html.out")), 0);
	CU_ASSERT_EQUAL_FATAL(ioregress(j, path_in_tmp("json.out")), 0);
	char *page = ior_test_read_file(html, NULL);
	/* self-contained: no script, nothing to fetch */
	CU_ASSERT_PTR_NULL(strstr(page, "<script"));
	CU_ASSERT_PTR_NULL(strstr(page, "src=\""));
	CU_ASSERT_PTR_NULL(strstr(page, "href=\"http"));
	/* every link inside the page lands on an anchor of the page (alerts to charts and samples) */
	size_t links = 0;
	for (const char *p = page; (p = strstr(p, "href=\"#")); p += 7, links++) {
		char id[128];
		snprintf(id, sizeof(id), "id=\"%.*s\"", (int)strcspn(p + 7, "\""), p + 7);
		if (!strstr(page, id))
			fprintf(stderr, "no anchor for %s\n", id);
		CU_ASSERT_PTR_NOT_NULL(strstr(page, id));
	}
	CU_ASSERT_TRUE(links > 10);
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "href=\"#raw-device-"));
	char url[4200];
	snprintf(url, sizeof(url), "file://%s", html);
	const char *dom = path_in_tmp("seed.dom"), *log = path_in_tmp("seed.log");
	CU_ASSERT_EQUAL_FATAL(load(url, dom, log, NULL), 0);
	CU_ASSERT_EQUAL(console_lines(log), 0);
	char *built = ior_test_read_file(dom, NULL);
	size_t want = expected_charts(json);
	CU_ASSERT_EQUAL(want, 13);  /* 6 compared cells x 2, the SSD RAID device */
	CU_ASSERT_EQUAL(count(built, "<svg class=\"chart "), want);
	char attr[64];
	snprintf(attr, sizeof(attr), "data-charts=\"%zu\"", want);
	CU_ASSERT_PTR_NOT_NULL(strstr(built, attr));
	CU_ASSERT_EQUAL(count(built, "<svg class=\"heatmap\""), 2);  /* one per host and engine */
	const char *png = path_in_tmp("seed.png");
	CU_ASSERT_EQUAL(load(url, path_in_tmp("shot.out"), path_in_tmp("shot.log"), png), 0);
	double share = drawn_share(png);
	fprintf(stderr, "screenshot: %.1f%% of pixels drawn\n", share * 100);
	CU_ASSERT_TRUE(share > 0.02);
	free(page);
	free(built);
}

int main(void)
{
	chromium();
	static const struct ior_test tests[] = {
		IOR_TEST(test_console_errors_are_seen),
		IOR_TEST(test_seed_report_in_chromium),
		IOR_TEST_END,
	};
	return ior_test_run("report_html", tests);
}
