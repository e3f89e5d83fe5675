/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bench driver: runs one engine once on a device with key=value options and prints the sample as one key=value line. */
#include "common/error.h"
#include "common/stop.h"
#include "engines/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
	fprintf(stderr, "usage: engine_once [--destructive] ENGINE DEVICE [key=value ...]\n");
	return 2;
}

static int set_options(const struct ior_engine_ops *ops, void *blob, int argc, char **argv)
{
	if (ior_options_defaults(ops->options, blob))
		return -1;
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) {
			fprintf(stderr, "error: option '%s' is not key=value\n", argv[i]);
			return -1;
		}
		*eq = '\0';
		if (ior_option_set(ops->options, blob, argv[i], eq + 1))
			return -1;
	}
	return 0;
}

static void print_sample(const struct ior_sample *s)
{
	printf("value=%.3f unit=%s bytes=%llu ios=%llu wall=%.6f usr=%.6f sys=%.6f", s->value, s->unit,
	       (unsigned long long)s->bytes, (unsigned long long)s->ios, s->wall_s, s->usr_s, s->sys_s);
	if (s->has_latency)
		printf(" p50=%.1f p99=%.1f p999=%.1f mean=%.1f", s->lat_p50_us, s->lat_p99_us, s->lat_p999_us,
		       s->lat_mean_us);
	if (s->has_clat)
		printf(" clat_p50=%.1f clat_p99=%.1f clat_p999=%.1f clat_mean=%.1f", s->clat_p50_us, s->clat_p99_us,
		       s->clat_p999_us, s->clat_mean_us);
	printf(" detail=\"%s\"\n", s->detail);
}

int main(int argc, char **argv)
{
	bool destructive = argc > 1 && strcmp(argv[1], "--destructive") == 0;
	argc -= destructive;
	argv += destructive;
	if (argc < 3)
		return usage();
	const struct ior_engine_ops *ops = ior_engine_find(argv[1]);
	if (!ops) {
		fprintf(stderr, "error: %s\n", ior_error_last());
		return 2;
	}
	void *blob = calloc(1, ops->options_size ? ops->options_size : 1);
	if (!blob || set_options(ops, blob, argc - 3, argv + 3)) {
		fprintf(stderr, "error: %s\n", ior_error_last());
		return 2;
	}
	ior_stop_install_handlers();
	struct ior_target target = { .name = argv[2], .path = argv[2], .destructive = destructive };
	struct ior_engine_args args = { .opts = blob, .target = &target,
					.deadline_s = IOR_ENGINE_DEADLINE_SECONDS };
	void *state = NULL;
	int rc = ops->supported ? ops->supported(blob) : IOR_OK;
	if (rc == IOR_OK)
		rc = ops->init(&state, &args);
	struct ior_sample s;
	if (rc == IOR_OK)
		rc = ops->measure(state, &s);
	if (rc == IOR_OK)
		print_sample(&s);
	else
		fprintf(stderr, "error: %s\n", ior_error_last());
	ops->cleanup(state);
	ior_options_free(ops->options, blob);
	free(blob);
	return rc == IOR_OK ? 0 : rc == IOR_EUNSUPPORTED ? 77 : 1;
}
