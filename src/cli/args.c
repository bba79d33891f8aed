/*
 * args.c — options shared by `run` and `compare` (see args.h).
 */
#include "cli/args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_args_valued(int argc, char **argv, int *i, const char *const *valued, size_t n, const char **opt,
		   const char **val)
{
	const char *a = argv[*i];
	for (size_t k = 0; k < n; k++) {
		size_t len = strlen(valued[k]);
		if (!strcmp(a, valued[k])) {
			if (*i + 1 >= argc) {
				fprintf(stderr, "sharebuf: %s needs a value\n", a);
				return 2;
			}
			*opt = valued[k];
			*val = argv[++*i];
			return 1;
		}
		if (valued[k][1] == '-' && !strncmp(a, valued[k], len) && a[len] == '=') {
			*opt = valued[k];
			*val = a + len + 1;
			return 1;
		}
	}
	return 0;
}

int sb_args_seed(const char *v, char *buf, size_t n)
{
	char *end;
	errno = 0;
	long long seed = strtoll(v, &end, 10);
	if (!*v || *end || errno || seed < 0) {
		fprintf(stderr, "sharebuf: --seed: expected a non-negative integer, got \"%s\"\n", v);
		return 2;
	}
	snprintf(buf, n, "run.seed=%lld", seed);
	return 0;
}

int sb_args_set(const char *v, const char *next)
{
	if (strchr(v, '='))
		return 0;
	if (next && next[0] != '-')
		fprintf(stderr, "sharebuf: --set %s: expected KEY=VALUE, got no \"=\"; write --set %s=%s\n", v, v, next);
	else
		fprintf(stderr, "sharebuf: --set %s: expected KEY=VALUE, got no \"=\"\n", v);
	return 2;
}

int sb_args_is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}
