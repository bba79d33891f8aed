/*
 * args.c — options shared by `run`, `compare` and `sweep` (see args.h).
 */
#include "cli/args.h"

#include <stdio.h>

int sb_args_seed(const struct sb_opt_call *c)
{
	long long seed;
	if (sb_opt_whole_value(c, &seed))
		return 2;
	char buf[64];
	snprintf(buf, sizeof(buf), "run.seed=%lld", seed);
	sb_opt_list_own(SB_OPT_DEST(c, struct sb_opt_list), sb_xstrdup(buf));
	return 0;
}
