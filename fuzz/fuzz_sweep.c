/*
 * fuzz_sweep.c — the sweep spec reader (src/cli/sweep_spec.c): the spec's libconfig text, its
 * axes, variants, schemes and seeds, the grid of points it makes and the check of every run's
 * scenario (the embedded default scenario with the spec's overrides). See fuzz.h.
 *
 * Contract: refused with a one-line, non-empty message, or a well-formed sweep: at least one
 * point and at most the limit of runs, runs = points x seeds, every point named, distinct in
 * name and in its values (a value, a scheme or a seed twice is refused), every run's `run`
 * arguments ending in its own --out directory.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/sweep.h"
#include "fuzz.h"

/* Few runs per input, so that an input stays fast (each run's scenario is loaded); the limit's
 * own path is then reached often. */
#define FUZZ_MAX_RUNS 64

static void check_message(const struct sb_error *err)
{
	size_t n = strnlen(err->msg, sizeof(err->msg));
	SB_FUZZ_CHECK(n > 0 && n < sizeof(err->msg), "an error without a message");
	for (size_t i = 0; i < n; i++)
		SB_FUZZ_CHECK((unsigned char)err->msg[i] >= 0x20 && err->msg[i] != 0x7f,
			      "a message of more than one line: %s", err->msg);
}

static bool same_values(const struct sb_sweep *sw, size_t a, size_t b)
{
	for (size_t c = 0; c < sw->ncolumns; c++)
		if (strcmp(sw->points[a].values[c], sw->points[b].values[c]))
			return false;
	return true;
}

static void check_sweep(const struct sb_sweep *sw)
{
	SB_FUZZ_CHECK(sw->npoints >= 1 && sw->nseeds >= 1, "an empty sweep: %zu points, %zu seeds", sw->npoints,
		      sw->nseeds);
	SB_FUZZ_CHECK(sw->nruns == sw->npoints * sw->nseeds && sw->nruns <= FUZZ_MAX_RUNS,
		      "%zu runs for %zu points x %zu seeds (limit %d)", sw->nruns, sw->npoints, sw->nseeds, FUZZ_MAX_RUNS);
	for (size_t p = 0; p < sw->npoints; p++) {
		SB_FUZZ_CHECK(sw->points[p].name && *sw->points[p].name, "point %zu has no name", p);
		for (size_t c = 0; c < sw->ncolumns; c++)
			SB_FUZZ_CHECK(sw->points[p].values[c], "point %zu has no value in column %zu", p, c);
		for (size_t q = 0; q < p; q++) {
			SB_FUZZ_CHECK(strcmp(sw->points[p].name, sw->points[q].name), "two points named %s",
				      sw->points[p].name);
			SB_FUZZ_CHECK(!same_values(sw, p, q), "points %zu and %zu have the same values", q, p);
		}
	}
	for (size_t s = 0; sw->seeds && s < sw->nseeds; s++)
		for (size_t k = 0; k < s; k++)
			SB_FUZZ_CHECK(sw->seeds[s] != sw->seeds[k], "seed %lld twice", (long long)sw->seeds[s]);
	for (size_t r = 0; r < sw->nruns; r++) {
		SB_FUZZ_CHECK(sw->runs[r].point == r / sw->nseeds, "run %zu is of point %zu", r, sw->runs[r].point);
		int argc;
		char **args = sb_sweep_run_args(sw, r, &argc);
		SB_FUZZ_CHECK(argc >= 3 && !strcmp(args[argc - 3], "--out") && !strcmp(args[argc - 2], sw->runs[r].dir),
			      "run %zu's arguments do not end in --out %s", r, sw->runs[r].dir);
		sb_sweep_run_args_free(args);
	}
}

int sb_fuzz_sweep(const uint8_t *data, size_t size, struct sb_error *why)
{
	/* text only (a NUL is refused before libconfig), and nothing that opens a file: a base
	 * scenario, an extract script, an @include, a CDF or flow list named by an override */
	if (size > 1 << 16 || memchr(data, 0, size))
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	static const char *const opens[] = { "base", "extract", "@include", "cdf", "path" };
	for (size_t i = 0; i < sizeof(opens) / sizeof(*opens); i++)
		if (strstr(text, opens[i])) {
			free(text);
			return 0;
		}
	struct sb_sweep sw;
	struct sb_error err = { "" };
	int rc = sb_sweep_load_text(&sw, "fuzz.spec", text, "fuzz-out", NULL, 0, FUZZ_MAX_RUNS, &err);
	if (rc == 0)
		check_sweep(&sw);
	else
		check_message(&err);
	if (rc && why)
		*why = err;
	sb_sweep_free(&sw);
	free(text);
	return rc ? 1 : 0;
}

#ifdef SB_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sb_fuzz_sweep(data, size, NULL);
	return 0;
}
#endif
