/*
 * routes.h — forwarding tables by destination rack: shortest paths, every equal-cost egress
 * port of a switch in one ECMP group, and the per-flow choice among them. This is what a
 * switch reads to forward (net/switch.c); the topology layer computes the tables
 * (topo/routes.c).
 *
 * Why by rack: a host has one link, to its rack's switch (its leaf, ToR or edge), so every
 * shortest path to a host runs through that switch, and a switch's equal-cost next hops towards
 * a host are its next hops towards the host's rack switch. A table per switch and destination
 * host (what sharebuf had before) repeats the same group for every host of a rack: 16 times for
 * a leaf-spine of 16 hosts per leaf, and at 8,192 hosts it is 10.5 M entries that every packet
 * looks up at random, a cache miss per hop. By rack, a switch's table has one entry per rack.
 * Real fabrics route the same way: a ToR announces its rack's prefix.
 *
 * Rows are shared: two switches whose entries are the same for every rack share one row. A
 * switch never reads the entry of its own rack (its hosts are delivered through `dst[].port`),
 * so that entry copies the next rack's, and every leaf of a leaf-spine has the same row, as has
 * every spine, every core of a fat-tree and every aggregation switch of a pod: 2 rows for a
 * leaf-spine and k + 2 for a k-ary fat-tree, whatever their size. Port lists of groups are
 * shared the same way. A topology with links removed (topo/topo.h) keeps exactly its shortest paths:
 * its tables are computed the same way, and rows that differ are simply not shared.
 *
 * The groups and the choice are exactly those of a per-host table: the ports of switch S whose
 * peer is a switch one hop closer to the destination's rack switch (hosts are never transit),
 * in port order; the flow's hash, salted with the switch's index so that tiers choose
 * independently, picks one by multiply-shift. Distances are counted in hops up to 254.
 */
#ifndef SB_NET_ROUTES_H
#define SB_NET_ROUTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/util.h"

/* A destination host: its rack (the column of every table) and the port of its rack switch
 * that leads to it. */
struct sb_route_dst {
	uint32_t rack;
	uint16_t port;
};

/* A group too large for a packed entry (256 ports or more, or a port list beyond 2^24). */
struct sb_route_big {
	uint32_t off, n;
};

/*
 * A packed entry: the group size n in the low 8 bits; above them the egress port when n = 1,
 * or the offset of the group's port list in `ports` when n ≥ 2; n = 0: the group is big[entry
 * >> 8]. Entries of racks without hosts and of the switch's own rack are never read.
 */
struct sb_routes {
	struct sb_route_dst *dst; /* [nhosts]; read through sb_route_dst_of() */
	/* Regular numbering: host h is port h & mask of rack h >> shift's switch, for every h (all
	 * the built-in shapes with a power-of-two number of hosts per rack). Then a lookup is
	 * arithmetic and `dst`, 8 bytes per host read at random by every hop (at 16,384 hosts a
	 * 128 KB table, a cache miss on a third of the hops), stays out of the cache. */
	bool regular;
	uint8_t rack_shift;
	uint32_t nracks;
	uint32_t *rows;           /* [nrows × nracks]: a switch reads rows + its row × nracks */
	uint32_t nrows;
	uint16_t *ports;          /* the port lists of groups of 2 ports or more */
	size_t nports;
	struct sb_route_big *big;
	uint32_t nbig;
};

/* A switch's handle on the tables: its row, and the rack whose hosts hang off it. */
struct sb_route_view {
	const uint32_t *row;      /* [nracks] */
	uint32_t rack;            /* UINT32_MAX: no hosts (spine, aggregation, core) */
	uint32_t salt;            /* the switch's index: its ECMP hash's salt */
};

/* The group size and port list behind an entry (for n = 1, the port is in `*one`). */
static inline const uint16_t *sb_route_entry_group(const struct sb_routes *rt, uint32_t entry, uint32_t *n,
						   uint16_t *one)
{
	*n = entry & 0xff;
	if (*n == 1) {
		*one = (uint16_t)(entry >> 8);
		return one;
	}
	if (*n == 0) {
		const struct sb_route_big *b = &rt->big[entry >> 8];
		*n = b->n;
		return rt->ports + b->off;
	}
	return rt->ports + (entry >> 8);
}

/* The egress port of a switch towards host `dst` for a flow of hash `flow_hash`. */
static inline struct sb_route_dst sb_route_dst_of(const struct sb_routes *rt, uint32_t dst)
{
	if (rt->regular)
		return (struct sb_route_dst){ dst >> rt->rack_shift, (uint16_t)(dst & ((1u << rt->rack_shift) - 1)) };
	return rt->dst[dst];
}

static inline uint16_t sb_route(const struct sb_routes *rt, const struct sb_route_view *v, uint32_t dst,
				uint32_t flow_hash)
{
	struct sb_route_dst d = sb_route_dst_of(rt, dst);
	if (d.rack == v->rack)
		return d.port;
	uint32_t entry = v->row[d.rack], n = entry & 0xff;
	if (n == 1)
		return (uint16_t)(entry >> 8);
	uint16_t one;
	const uint16_t *ports = sb_route_entry_group(rt, entry, &n, &one);
	/* Per-flow ECMP: the flow's hash, salted per switch so tiers choose independently. */
	uint32_t h = (uint32_t)(sb_mix64((uint64_t)flow_hash ^ ((uint64_t)v->salt << 32)) >> 32);
	return ports[(uint32_t)(((uint64_t)h * n) >> 32)];
}

/* The ECMP group of a switch towards host `dst`: its size, and its ports in port order in
 * `ports` (at most `cap` of them are written). */
uint32_t sb_route_group(const struct sb_routes *rt, const struct sb_route_view *v, uint32_t dst, uint16_t *ports,
			uint32_t cap);

void sb_routes_free(struct sb_routes *rt);

#endif
