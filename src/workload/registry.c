/*
 * registry.c — the workload types, in the order `sharebuf list workloads`, `sharebuf params`
 * and the messages that list them show them; and what every type's parameters share.
 */
#include "workload/ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workload/types.h"

static const struct sb_workload_ops *const all[] = {
	&sb_workload_poisson, &sb_workload_incast, &sb_workload_longlived,
	&sb_workload_burst,   &sb_workload_cbr,    &sb_workload_file,
	NULL,
};

const struct sb_workload_ops *const *sb_workload_all(void)
{
	return all;
}

const struct sb_workload_ops *sb_workload_find(const char *name)
{
	return sb_workload_find_in(all, name);
}
