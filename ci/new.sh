#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scaffolds the two commonest additions so that the tree still builds and its tests pass (blktests'
# ./new): an engine, or a stored metric. Each edit is one the HACKING.md list names; the script
# prints what is left to write by hand. Run from a clean tree, then build and test:
#   ci/new.sh engine NAME "one-line help"
#   ci/new.sh metric NAME UNIT lower|higher TIMED|LATENCY|CLAT|BLKSTAT "help"
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "error: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: ci/new.sh engine NAME HELP | ci/new.sh metric NAME UNIT lower|higher GROUP HELP"

# A C identifier that is also a matrix or column name: lowercase letters, digits and '_'.
check_name() {
	[[ $1 =~ ^[a-z][a-z0-9_]{0,30}$ ]] || die "'$1' is not a name (lowercase letters, digits and '_', at most 31)"
}

new_engine() {
	local name=$1 help=$2
	check_name "$name"
	[ ! -e "engines/$name.c" ] || die "engines/$name.c exists"
	grep -q "X($name)" engines/registry.c && die "'$name' is in engines/registry.c already"
	# 1. the engine: buffered reads of the target, timed; a working start to change
	sed -e "s/@NAME@/$name/g" -e "s/@HELP@/${help//\//\\/}/g" > "engines/$name.c" <<'EOF'
/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The @NAME@ engine: @HELP@. */
#include "engines/engine.h"
#include "common/error.h"
#include "common/stop.h"
#include "engines/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct @NAME@_opts {
	uint64_t bs;
	uint64_t size;
};

#define OPT(field) offsetof(struct @NAME@_opts, field)

static const struct ior_option @NAME@_rows[] = {
	{ .name = "bs", .type = IOR_OPT_SIZE, .offset = OPT(bs), .min = 512, .max = 64 << 20, .def = "1M",
	  .help = "bytes per read" },
	{ .name = "size", .type = IOR_OPT_SIZE, .offset = OPT(size), .min = 512, .max = 1ull << 40, .def = "16M",
	  .help = "bytes read per repetition, from the start of the target (at most its size)" },
	IOR_OPTION_END
};

struct @NAME@_state {
	int fd;
	char *buf;
	uint64_t bs, size;
};

static void @NAME@_cleanup(void *state)
{
	struct @NAME@_state *s = state;
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s);
}

static int @NAME@_init(void **state, const struct ior_engine_args *args)
{
	const struct @NAME@_opts *o = args->opts;
	struct @NAME@_state *s = calloc(1, sizeof(*s));
	*state = s;
	if (!s)
		return ior_error_set(IOR_ERROR, "@NAME@: out of memory");
	s->fd = open(args->target->path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "@NAME@: cannot open '%s'", args->target->path);
	s->bs = o->bs;
	s->size = args->target->size && args->target->size < o->size ? args->target->size : o->size;
	if (!(s->buf = malloc(s->bs)))
		return ior_error_set(IOR_ERROR, "@NAME@: out of memory");
	return IOR_OK;
}

static int @NAME@_measure(void *state, struct ior_sample *out)
{
	struct @NAME@_state *s = state;
	struct ior_cpu c0, c1;
	ior_cpu_now(&c0, true);
	double t0 = ior_clock_s();
	uint64_t done = 0, ios = 0;
	while (done < s->size) {
		if (ior_stop_requested())
			return IOR_EINTERRUPTED;
		size_t want = s->size - done < s->bs ? (size_t)(s->size - done) : (size_t)s->bs;
		ssize_t got = pread(s->fd, s->buf, want, (off_t)done);
		if (got < 0)
			return ior_error_errno(IOR_ERROR, errno, "@NAME@: read at %llu", (unsigned long long)done);
		if (got == 0)
			break;
		done += (uint64_t)got;
		ios++;
	}
	out->wall_s = ior_clock_s() - t0;
	ior_cpu_now(&c1, true);
	out->usr_s = c1.usr_s - c0.usr_s;
	out->sys_s = c1.sys_s - c0.sys_s;
	out->bytes = done;
	out->ios = ios;
	out->value = out->wall_s > 0 ? (double)done / (1024.0 * 1024.0) / out->wall_s : 0;
	out->unit = IOR_UNIT_MIB_S;
	out->higher_is_better = true;
	return IOR_OK;
}

const struct ior_engine_ops ior_engine_@NAME@ = {
	.name = "@NAME@",
	.help = "@HELP@",
	.options = @NAME@_rows,
	.options_size = sizeof(struct @NAME@_opts),
	.init = @NAME@_init,
	.measure = @NAME@_measure,
	.cleanup = @NAME@_cleanup,
};
EOF
	# 2. the registry: appended to IOR_ENGINES
	sed -i -E "/^#define IOR_ENGINES\(X\)/,/^$/{s/^(\tX\([a-z0-9_]+\))$/\1 \\\\/; /^$/i\\
\tX($name)
}" engines/registry.c
	# 3. its keys in the matrix's man page, before EXAMPLES
	sed -i "/^# EXAMPLES$/i\\
## type = $name\\
\\
${help^}.\\
\\
*bs* = _size_ (default 1M)\\
\tBytes per read.\\
\\
*size* = _size_ (default 16M)\\
\tBytes read per repetition, from the start of the target (at most its size).\\
" matrix/man/ioregress-matrix.5.scd
	# 4. its test and 5. its line in tests/CMakeLists.txt (sorted)
	sed -e "s/@NAME@/$name/g" > "tests/test_engine_$name.c" <<'EOF'
/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the @NAME@ engine: what it reports for a file of known size. Check its figures against
 * the peer tool (fio, hdparm or dd) on a scratch device too, here or under bench/. */
#include "common/error.h"
#include "engines/engine.h"
#include "tests/engine_fixture.h"
#include "tests/suite.h"

#include <stdio.h>
#include <string.h>

extern const struct ior_engine_ops ior_engine_@NAME@;

/* 3 MiB in 1 MiB reads: three requests, every byte counted once. */
static void test_counts_what_it_reads(void)
{
	size_t len = 3u << 20;
	const char *path = ior_test_write_file("@NAME@.bin", "");
	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	FILE *f = fopen(path, "r+");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fseek(f, (long)len - 1, SEEK_SET), 0);
	CU_ASSERT_EQUAL(fputc('x', f), 'x');
	fclose(f);
	struct ior_target t = { .name = "file", .path = path, .size = len };
	struct ior_sample s;
	memset(&s, 0, sizeof(s));
	const char *const kv[] = { "bs", "1M", "size", "16M", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_test_engine_once(&ior_engine_@NAME@, kv, &t, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, len);
	CU_ASSERT_EQUAL(s.ios, 3);
	CU_ASSERT(s.value > 0);
	CU_ASSERT_STRING_EQUAL(s.unit, IOR_UNIT_MIB_S);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_counts_what_it_reads),
		IOR_TEST_END,
	};
	return ior_test_run("engine_@NAME@", tests);
}
EOF
	insert_sorted "ior_suite(engine_$name LABEL offline LIBS ior_engines ior_testengine)"
	echo "engine '$name': engines/$name.c, engines/registry.c, matrix/man/ioregress-matrix.5.scd," \
	     "tests/test_engine_$name.c, tests/CMakeLists.txt"
	echo "left by hand: what it measures (engines/$name.c), its keys' page text, a test against the peer tool"
}

# One ior_suite line into tests/CMakeLists.txt's sorted list of ior_suite lines.
insert_sorted() {
	local line=$1 tmp
	tmp=$(mktemp)
	awk -v add="$line" '
		!done && /^ior_suite\(/ && $0 > add { print add; done = 1 }
		{ print }
		END { if (!done) print add }' tests/CMakeLists.txt > "$tmp"
	cat "$tmp" > tests/CMakeLists.txt
	rm -f "$tmp"
}

new_metric() {
	local name=$1 unit=$2 direction=$3 group=$4 help=$5 hib id version
	check_name "$name"
	case $direction in lower) hib=false ;; higher) hib=true ;; *) die "direction: '$direction' is not lower or higher" ;; esac
	case $group in TIMED | LATENCY | CLAT | BLKSTAT) ;; *) die "group: '$group' is not TIMED, LATENCY, CLAT or BLKSTAT" ;; esac
	grep -q "X([A-Z0-9_]*, $name," measure/metric.h && die "'$name' is a metric already"
	id=${name^^}
	# 1. the field, appended to the record
	sed -i -E "s|^(\tstruct ior_blkstat blk;)\$|\1 \\\\\n\tdouble $name;            /* $help */|" measure/measures.h
	# 2. its column, appended to the table; not in the CSV report until its golden outputs change
	sed -i "s|^\tBLK(wr_sectors),\$|&\n\tREAL($name, IOR_MEASURE_$group, false),|" measure/measures.c
	# 3. its metric row, appended to the list (the last row gains its continuation)
	sed -i -E "/^#define IOR_METRIC_LIST\(X\)/,/^$/{/^\t  \"[^\"]*\"\)\$|^\tX\(.*\"\)\$/{N;s/^(.*\"\))\n\$/\1 \\\\\n\tX($id, $name, \"$unit\", $hib, COLUMN, $group, \"$help\")\n/}}" measure/metric.h
	# 4. the schema step that adds the column; sample_view follows from the table
	version=$(grep -oE '^[[:space:]]\{ [0-9]+, step[0-9]+, (true|false) \},' db/schema.c | tail -n 1 | grep -oE '[0-9]+' | head -n 1)
	version=$((version + 1))
	sed -i "/^static const struct {\$/i\\
/* Step $version: samples.$name ($help; NULL for every sample stored before it). */\\
static const char step${version}[] =\\
\t\"ALTER TABLE samples ADD COLUMN $name REAL;\\\\n\"\\
\t\"PRAGMA user_version = $version;\\\\n\";\\
" db/schema.c
	sed -i -E "s/^(\t\{ $((version - 1)), step$((version - 1)), (true|false) \},)\$/\1\n\t{ $version, step$version, true },/" db/schema.c
	# 5. db/SCHEMA.md: the version and its row
	sed -i -E "s/\(now \*\*$((version - 1))\*\*\)/(now **$version**)/" db/SCHEMA.md
	sed -i "/^| $((version - 1)) | /a\\
| $version | \`samples.$name\` (NULL for every sample stored before it) and \`sample_view\` gains it: $help |" db/SCHEMA.md
	# 6. its name in ioregress-check(1)'s --metric list
	sed -i -E "s/^(\t\*clat_p99_us\*, \*clat_p999_us\*, \*clat_mean_us\*, \*wall_s\*, \*usr_s\*, \*sys_s\*,)\$/\1\n\t*$name* ($help),/" \
		harness/man/ioregress-check.1.scd
	for f in measure/measures.h measure/measures.c measure/metric.h db/schema.c db/SCHEMA.md harness/man/ioregress-check.1.scd; do
		grep -q "$name" "$f" || die "$f: the scaffold did not find its place (edit by hand, see HACKING.md)"
	done
	echo "metric '$name': measure/measures.h, measure/measures.c, measure/metric.h, db/schema.c (step $version)," \
	     "db/SCHEMA.md, harness/man/ioregress-check.1.scd"
	echo "left by hand: an engine that measures it (the $group group's flag set), its column in db/SCHEMA.md's samples" \
	     "table, in_csv in measure/measures.c once the CSV report's golden outputs take the column"
}

case $1 in
engine) [ $# -eq 3 ] || die "usage: ci/new.sh engine NAME HELP"; new_engine "$2" "$3" ;;
metric) [ $# -eq 6 ] || die "usage: ci/new.sh metric NAME UNIT lower|higher GROUP HELP"; new_metric "$2" "$3" "$4" "$5" "$6" ;;
*) die "'$1' is not engine or metric" ;;
esac
