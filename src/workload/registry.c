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
	for (const struct sb_workload_ops *const *t = all; *t; t++)
		if (strcmp((*t)->name, name) == 0)
			return *t;
	return NULL;
}

void sb_workload_names(char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t t = 0; all[t] && used < n; t++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", t ? "|" : "", all[t]->name);
}
