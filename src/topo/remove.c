/*
 * remove.c — failed links: `topology.remove_links` takes links out of a topology plan before it
 * is built, so that every later stage (ports, shortest-path ECMP tables, headroom per port) sees
 * only the links that remain. This is how the DSH paper's deadlock benchmark (Fig. 12) breaks the
 * up-down routing of a leaf-spine: with S0–L3 and S1–L0 gone, L0 reaches L3 through another leaf,
 * and the paths of four fan-in groups close a cyclic buffer dependency.
 *
 * A link is named by its two ends, "A-B", with the node names of the built network (h<i>,
 * leaf<n>, spine<n>, core<n>; topo.c). Every parallel link between A and B goes. Mistakes are
 * reported against the list element that made them: a malformed entry, a node the topology does
 * not have, two nodes that share no link, a link listed twice, a host's only link, and a result
 * in which some node can no longer reach host 0.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "topo/topo.h"

/* "FILE:LINE: topology.remove_links[i]" when the element came from a file, else the bare key. */
static void place(char *buf, size_t n, const char *source, const struct sb_str_list *l, size_t i)
{
	if (l->line && l->line[i] > 0)
		snprintf(buf, n, "%.200s:%d: topology.remove_links[%zu]", source ? source : "(default)", l->line[i], i);
	else
		snprintf(buf, n, "topology.remove_links[%zu]", i);
}

/* The position of switch `s` among the switches of its tier: the n of leaf<n>. */
static uint32_t tier_ordinal(const struct sb_topo_plan *plan, uint32_t s)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < s; i++)
		n += plan->switch_tier[i] == plan->switch_tier[s];
	return n;
}

static void node_name(const struct sb_topo_plan *plan, uint32_t id, char *buf, size_t n)
{
	if (id < plan->nhosts) {
		snprintf(buf, n, "h%u", id);
		return;
	}
	uint32_t s = id - plan->nhosts;
	snprintf(buf, n, "%s%u", sb_topo_tier_name[plan->switch_tier[s] & 3], tier_ordinal(plan, s));
}

/* The node called `name`, or UINT32_MAX. */
static uint32_t find_node(const struct sb_topo_plan *plan, const char *name)
{
	size_t len = 0;
	while (isalpha((unsigned char)name[len]))
		len++;
	const char *digits = name + len;
	if (!*digits || len == 0)
		return UINT32_MAX;
	for (const char *d = digits; *d; d++)
		if (!isdigit((unsigned char)*d))
			return UINT32_MAX;
	if (strlen(digits) > 9 || (digits[0] == '0' && digits[1])) /* "leaf01" is not leaf1's name */
		return UINT32_MAX;
	uint32_t k = (uint32_t)strtoul(digits, NULL, 10);
	if (len == 1 && name[0] == 'h')
		return k < plan->nhosts ? k : UINT32_MAX;
	for (uint32_t s = 0, n = 0; s < plan->nswitches; s++) {
		const char *t = sb_topo_tier_name[plan->switch_tier[s] & 3];
		if (strlen(t) != len || strncmp(t, name, len) != 0)
			continue;
		if (n++ == k)
			return plan->nhosts + s;
	}
	return UINT32_MAX;
}

/* "h0..h63, leaf0..leaf3, spine0..spine1": the names this plan has, for messages. */
static void names_text(const struct sb_topo_plan *plan, char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "h0..h%u", plan->nhosts - 1);
	uint32_t count[4] = { 0 };
	for (uint32_t s = 0; s < plan->nswitches; s++)
		count[plan->switch_tier[s] & 3]++;
	for (int t = 1; t < 4 && used < n; t++)
		if (count[t])
			used += (size_t)snprintf(buf + used, n - used, ", %s0..%s%u", sb_topo_tier_name[t],
						 sb_topo_tier_name[t], count[t] - 1);
}

/* "spine0, spine1": the switches `a` is linked to (hosts are left out: a leaf has many). */
static void peers_text(const struct sb_topo_plan *plan, uint32_t a, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < plan->nlinks && used < n; i++) {
		const struct sb_topo_link *l = &plan->links[i];
		uint32_t peer = l->a == a ? l->b : l->b == a ? l->a : UINT32_MAX;
		if (peer == UINT32_MAX || peer < plan->nhosts)
			continue;
		bool seen = false; /* parallel links name the peer once */
		for (size_t j = 0; j < i && !seen; j++)
			seen = (plan->links[j].a == a && plan->links[j].b == peer) ||
			       (plan->links[j].b == a && plan->links[j].a == peer);
		if (seen)
			continue;
		char name[32];
		node_name(plan, peer, name, sizeof(name));
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", name);
	}
}

/* 0 if every node is reachable from host 0 without passing through another host; else -1 and
 * a node that is not (a switch if there is one). */
static int check_connected(const struct sb_topo_plan *plan, uint32_t *unreached)
{
	uint32_t N = plan->nhosts + plan->nswitches;
	uint32_t *queue = sb_xmalloc(N * sizeof(*queue));
	bool *seen = sb_xcalloc(N, sizeof(*seen));
	size_t qh = 0, qt = 0;
	seen[0] = true;
	queue[qt++] = 0;
	while (qh < qt) {
		uint32_t v = queue[qh++];
		if (v < plan->nhosts && v != 0)
			continue; /* hosts are never transit */
		for (size_t i = 0; i < plan->nlinks; i++) {
			const struct sb_topo_link *l = &plan->links[i];
			uint32_t w = l->a == v ? l->b : l->b == v ? l->a : UINT32_MAX;
			if (w != UINT32_MAX && !seen[w]) {
				seen[w] = true;
				queue[qt++] = w;
			}
		}
	}
	/* a switch first: "no path to leaf3" says more than "no path to h48" behind it */
	int rc = 0;
	for (uint32_t k = 0; k < N && rc == 0; k++) {
		uint32_t v = (plan->nhosts + k) % N;
		if (!seen[v]) {
			*unreached = v;
			rc = -1;
		}
	}
	free(queue);
	free(seen);
	return rc;
}

int sb_topo_plan_remove_links(struct sb_topo_plan *plan, const struct sb_str_list *list, const char *source,
			      struct sb_error *err)
{
	if (list->n == 0)
		return 0;
	/* which list element removed each link, so a repeated entry can point at the first */
	size_t *removed_by = sb_xmalloc(plan->nlinks * sizeof(*removed_by));
	for (size_t i = 0; i < plan->nlinks; i++)
		removed_by[i] = SIZE_MAX;
	char where[300], all[200];
	int rc = 0;
	for (size_t e = 0; e < list->n && rc == 0; e++) {
		place(where, sizeof(where), source, list, e);
		char *text = sb_xstrdup(list->v[e]);
		char *dash = strchr(text, '-');
		if (!dash || strchr(dash + 1, '-')) {
			rc = sb_fail(err, "%s: expected \"NODE-NODE\" naming the two ends of a link, e.g. \"spine0-leaf3\", got \"%.80s\"",
				     where, list->v[e]);
			free(text);
			break;
		}
		*dash = 0;
		char *name[2] = { sb_trim(text), sb_trim(dash + 1) };
		uint32_t id[2];
		for (int k = 0; k < 2 && rc == 0; k++) {
			id[k] = find_node(plan, name[k]);
			if (id[k] == UINT32_MAX) {
				names_text(plan, all, sizeof(all));
				rc = sb_fail(err, "%s: no node \"%.40s\" in this topology (its nodes: %s)", where, name[k], all);
			}
		}
		if (rc == 0 && id[0] == id[1])
			rc = sb_fail(err, "%s: \"%.80s\" names %s at both ends; a link joins two nodes", where, list->v[e],
				     name[0]);
		if (rc == 0 && (id[0] < plan->nhosts || id[1] < plan->nhosts))
			rc = sb_fail(err, "%s: %s-%s is a host's link; a host has only one, so removing it would cut %s off",
				     where, name[0], name[1], id[0] < plan->nhosts ? name[0] : name[1]);
		size_t found = 0, earlier = SIZE_MAX;
		for (size_t i = 0; rc == 0 && i < plan->nlinks; i++) {
			const struct sb_topo_link *l = &plan->links[i];
			if (!((l->a == id[0] && l->b == id[1]) || (l->a == id[1] && l->b == id[0])))
				continue;
			if (removed_by[i] != SIZE_MAX)
				earlier = removed_by[i];
			else
				removed_by[i] = e;
			found++;
		}
		if (rc == 0 && found == 0) {
			peers_text(plan, id[0], all, sizeof(all));
			rc = sb_fail(err, "%s: no link between %s and %s to remove (%s is linked to %s)", where, name[0],
				     name[1], name[0], *all ? all : "no switch");
		} else if (rc == 0 && earlier != SIZE_MAX) {
			rc = sb_fail(err, "%s: the link %s-%s is already removed by topology.remove_links[%zu]", where,
				     name[0], name[1], earlier);
		}
		free(text);
	}
	if (rc == 0) {
		size_t kept = 0;
		for (size_t i = 0; i < plan->nlinks; i++)
			if (removed_by[i] == SIZE_MAX)
				plan->links[kept++] = plan->links[i];
		plan->nlinks = kept;
		uint32_t cut;
		if (check_connected(plan, &cut)) {
			char name[32];
			node_name(plan, cut, name, sizeof(name));
			place(where, sizeof(where), source, list, 0);
			/* the key's place without the element index: the whole list is to blame */
			char *bracket = strrchr(where, '[');
			if (bracket)
				*bracket = 0;
			rc = sb_fail(err, "%s: without these links the network is disconnected: no path from h0 to %s",
				     where, name);
		}
	}
	free(removed_by);
	return rc;
}
