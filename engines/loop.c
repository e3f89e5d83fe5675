/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loop engine: builds a stack of loop devices (in tmpfs or a directory, nested depth times) and
 * runs another engine of the matrix on its top. */
#include "engines/engine.h"
#include "engines/loopstack.h"
#include "common/spawn.h"
#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* fs = none: the inner engine gets the top loop device (the field report: dd to the loop block device).
 * fs = ext4: the top device gets ext4 too and the inner engine gets a file on it.
 * Lower levels always carry ext4, because the next level's file lives on it. */
enum loop_fs { LOOP_FS_NONE, LOOP_FS_EXT4, LOOP_FS_COUNT };

struct loop_opts {
	char *inner;
	char *inner_options;
	char *backing;
	uint64_t backing_size;
	uint64_t size;
	uint64_t depth;
	int fs;
	int file;
};

/* By value; at LOOP_FS_COUNT, the NULL that ends the choices. */
static const char *const fs_names[] = { [LOOP_FS_NONE] = "none", [LOOP_FS_EXT4] = "ext4", [LOOP_FS_COUNT] = NULL };

#define LOOP_OPT(field) offsetof(struct loop_opts, field)

static const struct ior_option loop_rows[] = {
	{ .name = "inner", .type = IOR_OPT_STRING, .offset = LOOP_OPT(inner), .def = "dd",
	  .help = "engine run on the top of the stack: an [engine NAME] of the matrix, or an engine type with its defaults" },
	{ .name = "inner_options", .type = IOR_OPT_STRING, .offset = LOOP_OPT(inner_options),
	  .help = "key=value settings for an inner engine type, e.g. \"bs=1M count=256 sync=each\" (not for the matrix's engines)" },
	{ .name = "backing", .type = IOR_OPT_STRING, .offset = LOOP_OPT(backing),
	  .def = "tmpfs", .help = "tmpfs (a private tmpfs is mounted) or a directory for the first file" },
	{ .name = "backing_size", .type = IOR_OPT_SIZE, .offset = LOOP_OPT(backing_size),
	  .def = "0", .help = "size of the tmpfs; 0 = size" },
	{ .name = "size", .type = IOR_OPT_SIZE, .offset = LOOP_OPT(size), .min = IOR_MIB, .max = IOR_TIB,
	  .def = "256M", .help = "each level's file (less when the level below cannot hold it)" },
	{ .name = "depth", .type = IOR_OPT_UINT, .offset = LOOP_OPT(depth), .min = 1, .max = IOR_LOOPSTACK_MAX_DEPTH,
	  .def = "1",
	  .help = "loop devices stacked: 2 = a loop device over a file on ext4 on another loop device" },
	{ .name = "fs", .type = IOR_OPT_ENUM, .offset = LOOP_OPT(fs), .def = "none", .choices = fs_names,
	  .help = "none: the inner engine writes the top loop device; ext4: a file on ext4 on it" },
	{ .name = "file", .type = IOR_OPT_ENUM, .offset = LOOP_OPT(file),
	  .def = "random", .choices = ior_fill_names,
	  .help = "each level's file, written once before the repetitions: random (data no layer can compress), "
		  "zeros (like dd if=/dev/zero of=FILE) or sparse (the first repetition allocates it)" },
	IOR_OPTION_END
};

extern const struct ior_engine_ops ior_engine_loop;

struct loop_state {
	struct ior_loopstack st;
	const struct ior_engine_ops *inner;
	void *inner_opts;            /* ours to free when inner_owned */
	bool inner_owned;
	void *inner_state;
	struct ior_target target;    /* outlives the inner engine's state, which may keep its pointers */
	char target_name[80];
	char stack[192];
	const char *fill;            /* what the stack's files hold, stored with each sample */
};

static void loop_cleanup(void *state)
{
	struct loop_state *s = state;
	if (!s)
		return;
	if (s->inner && s->inner_state)
		s->inner->cleanup(s->inner_state);
	ior_loopstack_teardown(&s->st);
	if (s->inner_owned) {
		ior_options_free(s->inner->options, s->inner_opts);
		free(s->inner_opts);
	}
	free(s);
}

/* inner_options: "key=value ..." (quotes as in ior_argv_split) through the inner engine's own rows. */
static int apply_inner_options(struct loop_state *s, const char *text, const char *name)
{
	char **words = NULL;
	int rc = ior_argv_split(&words, text);
	for (char **w = words; rc == IOR_OK && *w; w++) {
		char *eq = strchr(*w, '=');
		if (!eq) {
			rc = ior_error_set(IOR_EINVALID, "loop: inner_options: '%s' is not key=value", *w);
			break;
		}
		*eq = '\0';
		rc = ior_option_set(s->inner->options, s->inner_opts, *w, eq + 1);
		if (rc != IOR_OK)
			rc = ior_error_wrap(rc, "loop: inner_options for '%s'", name);
	}
	if (words == NULL && rc != IOR_OK)
		rc = ior_error_wrap(rc, "loop: inner_options");
	ior_argv_free(words);
	return rc;
}

/* The matrix's engine of that name, or else an engine type with its default options and inner_options. */
static int resolve_inner(struct loop_state *s, const struct ior_engine_args *args, const char *name,
			 const char *inner_options)
{
	const struct ior_engine_ref *ref = args->lookup ? args->lookup(args->lookup_ctx, name) : NULL;
	if (ref && ref->ops) {
		if (inner_options && inner_options[0])
			return ior_error_set(IOR_EINVALID, "loop: inner_options applies to an engine type, but '%s' is an engine of the matrix: set its options there",
					     name);
		s->inner = ref->ops;
		s->inner_opts = (void *)ref->opts;
	} else {
		s->inner = ior_engine_find(name);
		if (!s->inner)
			return ior_error_wrap(IOR_EINVALID, "loop: inner '%s' is neither an engine of the matrix nor an engine type", name);
		s->inner_opts = calloc(1, s->inner->options_size ? s->inner->options_size : 1);
		if (!s->inner_opts)
			return ior_error_set(IOR_ERROR, "loop: out of memory");
		s->inner_owned = true;
		if (s->inner->options && ior_options_defaults(s->inner->options, s->inner_opts) != IOR_OK)
			return ior_error_wrap(IOR_ERROR, "loop: defaults of '%s'", name);
		if (inner_options && inner_options[0]) {
			int rc = apply_inner_options(s, inner_options, name);
			if (rc != IOR_OK)
				return rc;
		}
	}
	if (s->inner == &ior_engine_loop)
		return ior_error_set(IOR_EINVALID, "loop: inner '%s' is itself a loop engine; use depth to nest", name);
	if (s->inner->supported) {
		int rc = s->inner->supported(s->inner_opts);
		if (rc != IOR_OK)
			return ior_error_wrap(rc, "loop: inner '%s'", name);
	}
	return IOR_OK;
}

static int build(struct loop_state *s, const struct loop_opts *o, const char *inner_name,
		 const struct ior_engine_args *args)
{
	struct ior_loopstack_spec spec = {
		.journal = args->journal,
		.scheduler = args->scheduler,
		.deadline_s = args->deadline_s,
		.backing = o->backing,
		.backing_size = o->backing_size,
		.size = o->size,
		.depth = (unsigned)o->depth,
		.top_fs = o->fs == LOOP_FS_EXT4,
		.fill = (enum ior_fill)o->file,
	};
	int rc = ior_loopstack_build(&s->st, &spec);
	if (rc != IOR_OK)
		return rc;
	ior_loopstack_describe(&s->st, s->stack, sizeof(s->stack));
	s->fill = ior_fill_names[spec.fill];
	snprintf(s->target_name, sizeof(s->target_name), "loop:%s", inner_name);
	s->target = (struct ior_target){
		.name = s->target_name,
		.path = s->st.target,
		.size = s->st.target_size,
		.logical_block = 512,
		.destructive = true, /* the stack is ours, made for this cell */
		.fill = s->fill,
	};
	return IOR_OK;
}

static int loop_init(void **state, const struct ior_engine_args *args)
{
	*state = NULL;
	const struct loop_opts *o = args->opts;
	const char *name = o->inner && o->inner[0] ? o->inner : "dd";
	struct loop_state *s = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "loop: out of memory");
	int rc = resolve_inner(s, args, name, o->inner_options);
	if (rc == IOR_OK)
		rc = build(s, o, name, args);
	if (rc == IOR_OK) {
		struct ior_engine_args inner_args = { .opts = s->inner_opts, .target = &s->target,
						      .journal = args->journal, .deadline_s = args->deadline_s };
		rc = s->inner->init(&s->inner_state, &inner_args);
		if (rc != IOR_OK)
			rc = ior_error_wrap(rc, "loop: inner '%s' on %s", name, s->stack);
	}
	if (rc != IOR_OK) {
		/* Teardown may overwrite the message; the build or inner failure is the one to report. */
		struct ior_error_state failed;
		ior_error_save(&failed, rc);
		loop_cleanup(s);
		return ior_error_restore(&failed, rc);
	}
	*state = s;
	return IOR_OK;
}

static int loop_measure(void *state, struct ior_sample *out)
{
	struct loop_state *s = state;
	/* the requests of the top device, the one the inner engine measures, not the matrix's device */
	const char *top = s->st.depth ? s->st.lv[s->st.depth - 1].ld.path : NULL;
	struct ior_blkstat before, after;
	bool counted = top && ior_blkstat_read(top, &before) == IOR_OK;
	int rc = s->inner->measure(s->inner_state, out);
	if (rc != IOR_OK)
		return ior_error_wrap(rc, "loop: %s", s->stack);
	if (counted && ior_blkstat_read(top, &after) == IOR_OK)
		out->has_blkstat = ior_blkstat_delta(&before, &after, &out->blk);
	char inner[sizeof(out->detail)];
	snprintf(inner, sizeof(inner), "%s", out->detail);
	/* The stack first: when both do not fit, the inner engine's detail loses its tail. */
	int n = snprintf(out->detail, sizeof(out->detail), "%s | %s", s->stack, inner);
	(void)n;
	out->fill = s->fill; /* the stack's files, not the matrix device the cell names */
	return IOR_OK;
}

static int loop_supported(const void *opts)
{
	const struct loop_opts *o = opts;
	if (geteuid() != 0)
		return ior_error_set(IOR_EUNSUPPORTED, "loop: needs root to mount and attach loop devices");
	if (access("/dev/loop-control", R_OK | W_OK) != 0)
		return ior_error_set(IOR_EUNSUPPORTED, "loop: no '/dev/loop-control' (loop module missing?)");
	if ((o->depth > 1 || o->fs == LOOP_FS_EXT4) && !ior_spawn_in_path("mke2fs"))
		return ior_error_set(IOR_EUNSUPPORTED, "loop: 'mke2fs' is not in PATH (e2fsprogs), needed for depth > 1 or fs = ext4");
	return IOR_OK;
}

/* The stack's first file, on its tmpfs (sized backing_size, or size) or in the backing directory;
 * the levels above it live inside it. */
static uint64_t loop_file_bytes(const void *opts)
{
	const struct loop_opts *o = opts;
	bool tmpfs = !o->backing || !o->backing[0] || !strcmp(o->backing, "tmpfs");
	return tmpfs && o->backing_size ? o->backing_size : o->size;
}

const struct ior_engine_ops ior_engine_loop = {
	.name = "loop",
	.help = "a stack of loop devices (tmpfs or directory, nested depth times) with another engine on top",
	.flags = 0, /* writes only to the devices it makes, never to the cell's device */
	.options = loop_rows,
	.options_size = sizeof(struct loop_opts),
	.supported = loop_supported,
	.init = loop_init,
	.measure = loop_measure,
	.cleanup = loop_cleanup,
	.file_bytes = loop_file_bytes,
};
