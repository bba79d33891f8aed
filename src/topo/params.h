/*
 * params.h — the topology of a run (the scenario group `topology`) and its parameter table.
 *
 * The table (topo/params.c) gives every key its type, default, unit, range and documentation;
 * topo/ builds the network from these values (topo/topo.h), the scenario composes them
 * (scenario/scenario.h).
 */
#ifndef SB_TOPO_PARAMS_H
#define SB_TOPO_PARAMS_H

#include <stdint.h>
#include "core/param.h"

enum { SB_TOPO_SINGLE = 0, SB_TOPO_LEAFSPINE, SB_TOPO_FATTREE };
extern const char *const sb_topo_names[]; /* by SB_TOPO_*, as scenarios spell them */
struct sb_topo_params {
	int type;
	int64_t hosts;           /* single: hosts on the switch */
	int64_t hosts_per_leaf;  /* leafspine */
	int64_t leaves;
	int64_t spines;
	int64_t links_per_spine; /* parallel links between each leaf and each spine */
	int64_t k;               /* fattree: k-ary (k even), k^3/4 hosts */
	double host_rate_gbps, host_delay_us;     /* host <-> first switch */
	double fabric_rate_gbps, fabric_delay_us; /* switch <-> switch */
	struct sb_str_list remove_links;          /* failed links, "A-B" by node name (topo/remove.c) */
};

extern const struct sb_param sb_topo_param_table[];

#endif
