/*
 * routes.c — computing the forwarding tables by destination rack (net/routes.h): a breadth-first
 * search over switches from every rack switch, then each switch's row of ECMP groups, rows and
 * port lists shared between switches whose contents are equal.
 */
#include "topo/topo.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "net/net.h"

#define NONE UINT32_MAX
#define FAR 0xff /* a distance not reached (yet) */

/*
 * Interning: an open-addressing set of ids of items kept elsewhere, keyed by their content's
 * hash; `same` compares an id's content with the candidate's. Used for port lists and rows, so
 * that equal ones are stored once.
 */
struct intern {
	uint64_t *hash;
	uint32_t *id;
	uint32_t cap, count;
};

typedef bool (*same_fn)(const void *ctx, uint32_t id);

static void intern_init(struct intern *t)
{
	t->cap = 64;
	t->count = 0;
	t->hash = sb_xmalloc(t->cap * sizeof(*t->hash));
	t->id = sb_xmalloc(t->cap * sizeof(*t->id));
	memset(t->id, 0xff, t->cap * sizeof(*t->id));
}

static void intern_free(struct intern *t)
{
	free(t->hash);
	free(t->id);
}

/* The id of an item equal to the candidate (hash h), or NONE after reserving its slot: the
 * caller then stores the item and calls intern_set. */
static uint32_t intern_find(struct intern *t, uint64_t h, same_fn same, const void *ctx, uint32_t *slot)
{
	if (2 * (t->count + 1) > t->cap) {
		struct intern bigger = { sb_xmalloc(2 * t->cap * sizeof(uint64_t)), sb_xmalloc(2 * t->cap * sizeof(uint32_t)),
					 2 * t->cap, t->count };
		memset(bigger.id, 0xff, bigger.cap * sizeof(uint32_t));
		for (uint32_t i = 0; i < t->cap; i++) {
			if (t->id[i] == NONE)
				continue;
			uint32_t j = (uint32_t)t->hash[i] & (bigger.cap - 1);
			while (bigger.id[j] != NONE)
				j = (j + 1) & (bigger.cap - 1);
			bigger.hash[j] = t->hash[i];
			bigger.id[j] = t->id[i];
		}
		intern_free(t);
		*t = bigger;
	}
	uint32_t i = (uint32_t)h & (t->cap - 1);
	for (; t->id[i] != NONE; i = (i + 1) & (t->cap - 1))
		if (t->hash[i] == h && same(ctx, t->id[i]))
			return t->id[i];
	*slot = i;
	return NONE;
}

static void intern_set(struct intern *t, uint32_t slot, uint64_t h, uint32_t id)
{
	t->hash[slot] = h;
	t->id[slot] = id;
	t->count++;
}

static uint64_t hash_words(const void *v, size_t bytes)
{
	const unsigned char *b = v;
	uint64_t h = bytes;
	for (size_t i = 0; i < bytes; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return sb_mix64(h);
}

/* --- the work space of one build --- */

struct build {
	struct sb_net *net;
	struct sb_routes *rt;
	uint32_t S, R;
	uint32_t *rack_switch;  /* [R] the switch a rack's hosts hang off, or NONE */
	uint32_t *switch_rack;  /* [S] the rack a switch serves, or NONE */
	uint32_t *adj_off;      /* [S + 1] */
	uint32_t *adj;          /* per switch port: the peer switch's index, or NONE for a host */
	uint8_t *dist;          /* [S × R]: hops from switch s to rack r's switch, FAR if none */
	/* groups: port lists of 2 ports or more, interned */
	struct intern groups;
	size_t *group_off;      /* per group id: its offset in rt->ports */
	uint32_t *group_n;
	uint32_t *group_big;    /* per group id: its index in rt->big, or NONE */
	uint32_t ngroups, groups_cap;
	size_t ports_cap;
	struct intern rows;
	uint32_t rows_cap;
	/* the candidate being interned */
	const uint16_t *cand_ports;
	uint32_t cand_n;
	const uint32_t *cand_row;
};

static bool same_group(const void *ctx, uint32_t id)
{
	const struct build *b = ctx;
	return b->group_n[id] == b->cand_n &&
	       memcmp(b->rt->ports + b->group_off[id], b->cand_ports, b->cand_n * sizeof(uint16_t)) == 0;
}

static bool same_row(const void *ctx, uint32_t id)
{
	const struct build *b = ctx;
	return memcmp(b->rt->rows + (size_t)id * b->R, b->cand_row, b->R * sizeof(uint32_t)) == 0;
}

/* The packed entry (routes.h) of the group ports[0..n), n ≥ 2. */
static uint32_t group_entry(struct build *b, const uint16_t *ports, uint32_t n)
{
	struct sb_routes *rt = b->rt;
	uint64_t h = hash_words(ports, n * sizeof(uint16_t));
	b->cand_ports = ports;
	b->cand_n = n;
	uint32_t slot, id = intern_find(&b->groups, h, same_group, b, &slot);
	if (id == NONE) {
		if (b->ngroups == b->groups_cap) {
			b->groups_cap = b->groups_cap ? 2 * b->groups_cap : 64;
			b->group_off = sb_xrealloc(b->group_off, b->groups_cap * sizeof(*b->group_off));
			b->group_n = sb_xrealloc(b->group_n, b->groups_cap * sizeof(*b->group_n));
			b->group_big = sb_xrealloc(b->group_big, b->groups_cap * sizeof(*b->group_big));
		}
		while (rt->nports + n > b->ports_cap) {
			b->ports_cap = b->ports_cap ? 2 * b->ports_cap : 256;
			rt->ports = sb_xrealloc(rt->ports, b->ports_cap * sizeof(*rt->ports));
		}
		id = b->ngroups++;
		b->group_off[id] = rt->nports;
		b->group_n[id] = n;
		b->group_big[id] = NONE;
		memcpy(rt->ports + rt->nports, ports, n * sizeof(uint16_t));
		rt->nports += n;
		intern_set(&b->groups, slot, h, id);
	}
	size_t off = b->group_off[id];
	if (n < 256 && off < (1u << 24))
		return (uint32_t)off << 8 | n;
	if (b->group_big[id] == NONE) {
		b->group_big[id] = rt->nbig;
		rt->big = sb_xrealloc(rt->big, (rt->nbig + 1) * sizeof(*rt->big));
		rt->big[rt->nbig++] = (struct sb_route_big){ (uint32_t)off, n };
	}
	return b->group_big[id] << 8;
}

/* The row id of `row` (R entries), stored if new. */
static uint32_t row_id(struct build *b, const uint32_t *row)
{
	struct sb_routes *rt = b->rt;
	uint64_t h = hash_words(row, b->R * sizeof(uint32_t));
	b->cand_row = row;
	uint32_t slot, id = intern_find(&b->rows, h, same_row, b, &slot);
	if (id != NONE)
		return id;
	if (rt->nrows == b->rows_cap) {
		b->rows_cap = b->rows_cap ? 2 * b->rows_cap : 4;
		rt->rows = sb_xrealloc(rt->rows, (size_t)b->rows_cap * b->R * sizeof(uint32_t));
	}
	id = rt->nrows++;
	memcpy(rt->rows + (size_t)id * b->R, row, b->R * sizeof(uint32_t));
	intern_set(&b->rows, slot, h, id);
	return id;
}

/* Does host h hang off port h & mask of the switch of rack h >> shift, for every h? Then
 * lookups need no table (sb_route_dst_of). The shift is that of the first host of rack 1. */
static void detect_regular(struct sb_routes *rt, uint32_t nhosts)
{
	rt->regular = false;
	uint32_t first = 0;
	while (first < nhosts && rt->dst[first].rack == 0)
		first++;
	if (first == 0 || first >= nhosts || (first & (first - 1)) || first > 1u << 16)
		return; /* one rack, or not a power of two hosts per rack */
	uint8_t shift = (uint8_t)__builtin_ctz(first);
	for (uint32_t h = 0; h < nhosts; h++)
		if (rt->dst[h].rack != h >> shift || rt->dst[h].port != (h & (first - 1)))
			return;
	rt->rack_shift = shift;
	rt->regular = true;
}

/* Which switch each rack's hosts hang off, and each host's port there. */
static int find_racks(struct build *b, struct sb_error *err)
{
	struct sb_net *net = b->net;
	for (uint32_t h = 0; h < net->nhosts; h++) {
		const struct sb_host *host = net->hosts[h];
		const struct sb_port *at = host->node.ports[0].peer;
		if (at->node->kind != SB_NODE_SWITCH)
			return sb_fail(err, "topology: host %s is linked to host %s, not to a switch", host->node.name,
				       at->node->name);
		uint32_t s = ((const struct sb_switch *)at->node)->index, r = host->rack;
		if (b->rack_switch[r] == NONE) {
			if (b->switch_rack[s] != NONE)
				return sb_fail(err, "topology: switch %s serves racks %u and %u", at->node->name,
					       b->switch_rack[s], r);
			b->rack_switch[r] = s;
			b->switch_rack[s] = r;
		} else if (b->rack_switch[r] != s) {
			return sb_fail(err, "topology: the hosts of rack %u hang off %s and %s", r,
				       net->switches[b->rack_switch[r]]->node.name, at->node->name);
		}
		b->rt->dst[h] = (struct sb_route_dst){ r, at->index };
	}
	detect_regular(b->rt, net->nhosts);
	return 0;
}

/* Every switch's distance to every rack switch, over switches only (hosts are never transit). */
static int measure(struct build *b, struct sb_error *err)
{
	uint32_t S = b->S, R = b->R;
	uint32_t *queue = sb_xmalloc(S * sizeof(*queue));
	int rc = 0;
	for (uint32_t r = 0; r < R && rc == 0; r++) {
		if (b->rack_switch[r] == NONE)
			continue;
		size_t qh = 0, qt = 0;
		b->dist[(size_t)b->rack_switch[r] * R + r] = 0;
		queue[qt++] = b->rack_switch[r];
		while (qh < qt && rc == 0) {
			uint32_t s = queue[qh++];
			uint8_t d = b->dist[(size_t)s * R + r];
			for (uint32_t i = b->adj_off[s]; i < b->adj_off[s + 1]; i++) {
				uint32_t q = b->adj[i];
				if (q == NONE || b->dist[(size_t)q * R + r] != FAR)
					continue;
				if (d + 1 >= FAR) {
					rc = sb_fail(err, "topology: a shortest path longer than %d hops", FAR - 1);
					break;
				}
				b->dist[(size_t)q * R + r] = (uint8_t)(d + 1);
				queue[qt++] = q;
			}
		}
	}
	free(queue);
	return rc;
}

/* Switch s's row: for each rack, the ports whose peer switch is one hop closer to it. */
static int fill_row(struct build *b, uint32_t s, uint32_t *row, uint16_t *group, struct sb_error *err)
{
	struct sb_net *net = b->net;
	uint32_t R = b->R, own = b->switch_rack[s];
	const uint32_t *adj = b->adj + b->adj_off[s];
	uint32_t nports = b->adj_off[s + 1] - b->adj_off[s];
	for (uint32_t r = 0; r < R; r++) {
		row[r] = 0;
		if (b->rack_switch[r] == NONE || r == own)
			continue;
		uint8_t d = b->dist[(size_t)s * R + r];
		if (d == FAR)
			return sb_fail(err, "topology: host %u is unreachable from switch %s", net->rack_first[r],
				       net->switches[s]->node.name);
		uint32_t n = 0;
		for (uint32_t p = 0; p < nports; p++)
			if (adj[p] != NONE && b->dist[(size_t)adj[p] * R + r] + 1 == d)
				group[n++] = (uint16_t)p;
		row[r] = n == 1 ? (uint32_t)group[0] << 8 | 1 : group_entry(b, group, n);
	}
	/* never read (the switch delivers to its own hosts directly): equal to a neighbour's entry,
	 * so that switches which differ only in which rack is theirs share a row */
	if (own != NONE && R > 1)
		row[own] = row[(own + 1) % R];
	return 0;
}

static void build_free(struct build *b)
{
	free(b->rack_switch);
	free(b->switch_rack);
	free(b->adj_off);
	free(b->adj);
	free(b->dist);
	free(b->group_off);
	free(b->group_n);
	free(b->group_big);
	intern_free(&b->groups);
	intern_free(&b->rows);
}

int sb_routes_build(struct sb_net *net, struct sb_error *err)
{
	uint32_t S = net->nswitches, R = net->nracks;
	struct sb_routes *rt = &net->routes;
	*rt = (struct sb_routes){ 0 };
	rt->nracks = R;
	rt->dst = sb_xcalloc(net->nhosts ? net->nhosts : 1, sizeof(*rt->dst));
	struct build b = { .net = net, .rt = rt, .S = S, .R = R };
	b.rack_switch = sb_xmalloc((R ? R : 1) * sizeof(uint32_t));
	b.switch_rack = sb_xmalloc((S ? S : 1) * sizeof(uint32_t));
	memset(b.rack_switch, 0xff, R * sizeof(uint32_t));
	memset(b.switch_rack, 0xff, S * sizeof(uint32_t));
	intern_init(&b.groups);
	intern_init(&b.rows);
	int rc = find_racks(&b, err);
	if (rc == 0) {
		b.adj_off = sb_xcalloc(S + 1, sizeof(uint32_t));
		for (uint32_t s = 0; s < S; s++)
			b.adj_off[s + 1] = b.adj_off[s] + net->switches[s]->node.nports;
		b.adj = sb_xmalloc((b.adj_off[S] ? b.adj_off[S] : 1) * sizeof(uint32_t));
		for (uint32_t s = 0; s < S; s++) {
			const struct sb_node *n = &net->switches[s]->node;
			for (uint16_t p = 0; p < n->nports; p++) {
				const struct sb_node *peer = n->ports[p].peer->node;
				b.adj[b.adj_off[s] + p] =
					peer->kind == SB_NODE_SWITCH ? ((const struct sb_switch *)peer)->index : NONE;
			}
		}
		b.dist = sb_xmalloc((size_t)S * R + 1);
		memset(b.dist, FAR, (size_t)S * R);
		rc = measure(&b, err);
	}
	uint32_t *row_of = sb_xcalloc(S ? S : 1, sizeof(*row_of));
	uint32_t *row = sb_xmalloc((R ? R : 1) * sizeof(*row));
	uint16_t *group = sb_xmalloc((b.adj_off ? b.adj_off[S] + 1 : 1) * sizeof(*group));
	for (uint32_t s = 0; rc == 0 && s < S; s++) {
		rc = fill_row(&b, s, row, group, err);
		if (rc == 0)
			row_of[s] = row_id(&b, row);
	}
	for (uint32_t s = 0; rc == 0 && s < S; s++)
		net->switches[s]->route = (struct sb_route_view){ rt->rows + (size_t)row_of[s] * R, b.switch_rack[s], s };
	if (rc == 0 && rt->nbig >= (1u << 24))
		rc = sb_fail(err, "topology: more than 2^24 ECMP groups of 256 ports or more");
	free(row_of);
	free(row);
	free(group);
	build_free(&b);
	return rc;
}
