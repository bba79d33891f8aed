/*
 * params.c — the parameter table of the topology (topo/params.h).
 *
 * Its docs are written for users of the tool (docs/scenario-keys.md is generated from it): what
 * the key is, its unit, and what 0 means when 0 is special.
 */
#include "topo/params.h"

#include <stddef.h>

#define TOPO(f) SB_FIELD(struct sb_topo_params, f)

const char *const sb_topo_names[] = { "single", "leafspine", "fattree", NULL };

const struct sb_param sb_topo_param_table[] = {
	{ "type", SB_P_ENUM, TOPO(type), "leafspine", 0, 0, "", sb_topo_names,
	  "single = one switch with `hosts` hosts; leafspine = two tiers, every leaf linked to every spine; fattree = three-tier k-ary fat tree" },
	{ "hosts", SB_P_INT, TOPO(hosts), "8", 1, 4096, "hosts", NULL,
	  "single: hosts attached to the switch (ignored by the other types)" },
	{ "hosts_per_leaf", SB_P_INT, TOPO(hosts_per_leaf), "8", 1, 4096, "hosts", NULL,
	  "leafspine: hosts attached to each leaf (one rack per leaf)" },
	{ "leaves", SB_P_INT, TOPO(leaves), "4", 1, 1024, "switches", NULL, "leafspine: number of leaf switches" },
	{ "spines", SB_P_INT, TOPO(spines), "2", 1, 1024, "switches", NULL, "leafspine: number of spine switches" },
	{ "links_per_spine", SB_P_INT, TOPO(links_per_spine), "1", 1, 64, "links", NULL,
	  "leafspine: parallel links between each leaf and each spine (all used by ECMP)" },
	{ "k", SB_P_INT, TOPO(k), "4", 2, 64, "ports", NULL,
	  "fattree: switch radix k (even); k^3/4 hosts, k/2 hosts per edge switch (rack)" },
	{ "host_rate_gbps", SB_P_DOUBLE, TOPO(host_rate_gbps), "25", 0.001, 10000, "Gb/s", NULL,
	  "rate of every host link, in both directions" },
	{ "host_delay_us", SB_P_DOUBLE, TOPO(host_delay_us), "2", 0, 1e6, "us", NULL,
	  "one-way propagation delay of every host link" },
	{ "fabric_rate_gbps", SB_P_DOUBLE, TOPO(fabric_rate_gbps), "25", 0.001, 10000, "Gb/s", NULL,
	  "rate of every switch-to-switch link, in both directions" },
	{ "fabric_delay_us", SB_P_DOUBLE, TOPO(fabric_delay_us), "2", 0, 1e6, "us", NULL,
	  "one-way propagation delay of every switch-to-switch link" },
	{ "remove_links", SB_P_STR_LIST, TOPO(remove_links), "", 0, 0, "", NULL,
	  "switch-to-switch links taken out of the topology (failed links), each \"A-B\" by the names of its two ends, e.g. (\"spine0-leaf3\", \"spine1-leaf0\"); every parallel link between A and B goes, and routing is shortest-path ECMP over what remains. Names are h<i> for hosts and leaf<n>, spine<n>, core<n> for switches (a fattree's edge and aggregation switches are leaf and spine), counted from 0; the rest must stay connected. Empty = none" },
	SB_PARAM_END
};
