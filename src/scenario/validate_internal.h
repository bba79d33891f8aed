/*
 * validate_internal.h — what the network's checks (scenario_validate.c) and the workloads'
 * (validate_workloads.c) share; not part of the API (that is scenario.h).
 */
#ifndef SB_VALIDATE_INTERNAL_H
#define SB_VALIDATE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "scenario/scenario.h"

/* The counts a topology's host indices are checked against. */
struct sb_topo_shape {
	int64_t hosts, racks, hosts_per_rack;
	bool has_uplinks;
};

struct sb_topo_shape sb_topo_shape(const struct sb_topo_params *t);

/* 0, or -1 + err placed at `key` when host `h` is not one of the topology's. */
int sb_scenario_check_host(const struct sb_scenario *sc, struct sb_error *err, const char *key, int64_t h,
			   const struct sb_topo_shape *s);

/* names[0..count-1] as "a|b|c" in buf (truncated to n), for "expected one of" messages. */
void sb_list_names(char *buf, size_t n, const char *const *names, size_t count);

#endif
