/*
 * topo.h — building the network graph: nodes, full-duplex links, shortest-path ECMP tables.
 *
 * Node numbering: hosts first (node id = host index), then switches. A builder describes the
 * shape as a list of links; sb_topo_build allocates nodes with exactly the ports they need,
 * in link order (so a leaf's host-facing ports come before its uplinks, matching how the
 * papers' artifacts group ports into MMUs), then computes forwarding tables.
 */
#ifndef SB_TOPO_H
#define SB_TOPO_H

#include "net/net.h"
#include "topo/params.h"

struct sb_topo_link {
	uint32_t a, b;       /* node ids */
	uint64_t rate_bps;
	sb_time delay;
};

struct sb_topo_plan {
	uint32_t nhosts, nswitches;
	uint32_t *host_rack;         /* [nhosts] */
	uint32_t nracks;
	uint8_t *switch_tier;        /* [nswitches]: 1 leaf/ToR/edge, 2 spine/agg, 3 core */
	struct sb_topo_link *links;
	size_t nlinks, links_cap;
};

/* Shape builders (shapes.c): fill a plan from the scenario. */
int sb_topo_plan_make(struct sb_topo_plan *plan, const struct sb_topo_params *t, struct sb_error *err);
void sb_topo_plan_free(struct sb_topo_plan *plan);
void sb_topo_plan_link(struct sb_topo_plan *plan, uint32_t a, uint32_t b, uint64_t rate_bps, sb_time delay);
uint32_t sb_topo_hosts(const struct sb_topo_params *t);

/*
 * Remove the links `list` names ("A-B", node names as built: h<i>, leaf<n>, spine<n>, core<n>;
 * every parallel link between A and B) from the plan (remove.c). `source` is the scenario file
 * for messages. Fails, naming the list element, on a malformed entry, an unknown node, a pair
 * without a link, a link listed twice or a host's link; and when what remains leaves some node
 * without a path to host 0.
 */
int sb_topo_plan_remove_links(struct sb_topo_plan *plan, const struct sb_str_list *list, const char *source,
			      struct sb_error *err);

/* Switch names by tier (switch_tier): "leaf", "spine", "core"; index 0 is unused. */
extern const char *const sb_topo_tier_name[4];

/* Instantiate the plan in net: nodes, ports, links, forwarding tables. */
int sb_topo_build(struct sb_net *net, const struct sb_topo_plan *plan, struct sb_error *err);

/* Compute the forwarding tables of a built network (routes.c; net/routes.h says what they hold)
 * and give every switch its view: the last step of sb_topo_build. -1 + err when a rack's hosts
 * hang off different switches, a switch serves two racks, or a host cannot be reached from
 * some switch. */
int sb_routes_build(struct sb_net *net, struct sb_error *err);

#endif
