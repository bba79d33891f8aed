/*
 * deadlock.c — the wait-for graph of paused queues and its cycles (see deadlock.h).
 */
#include "net/deadlock.h"

#include <stdlib.h>
#include "core/util.h"
#include "net/pfc.h"
#include "net/net.h"

enum { WHITE = 0, GREY, BLACK };

struct sb_deadlock_detector *sb_deadlock_new(struct sb_net *net)
{
	const struct sb_pfc_params *p = net->pfc_params;
	if (p->deadlock_check_us <= 0)
		return NULL;
	struct sb_deadlock_detector *d = sb_xcalloc(1, sizeof(*d));
	d->interval = sb_time_from_us(p->deadlock_check_us);
	if (d->interval == 0)
		d->interval = 1;
	d->persist = sb_time_from_us(p->deadlock_persist_us);
	d->port_base = sb_xcalloc(net->nswitches + 1, sizeof(*d->port_base));
	uint32_t n = 0;
	for (uint32_t s = 0; s < net->nswitches; s++) {
		d->port_base[s] = n;
		n += (uint32_t)net->switches[s]->node.nports * SB_NPRIO;
	}
	d->port_base[net->nswitches] = n;
	d->state = sb_xcalloc(n + 1, sizeof(*d->state));
	d->parent = sb_xcalloc(n + 1, sizeof(*d->parent));
	return d;
}

void sb_deadlock_free(struct sb_deadlock_detector *d)
{
	if (!d)
		return;
	free(d->found);
	free(d->members);
	free(d->port_base);
	free(d->state);
	free(d->parent);
	free(d);
}

/* A queue that may be stuck: paused long enough, still holding packets, not yet reported. */
static bool blocked(const struct sb_port *port, unsigned prio, sb_time now, sb_time persist)
{
	uint8_t bit = (uint8_t)(1u << prio);
	return (port->pfc_effective & bit) && port->q[prio].head && !(port->deadlock_reported & bit) &&
	       now - port->pause_since[prio] >= persist;
}

static bool holds_from(const struct sb_fifo *q, uint16_t in_port)
{
	for (const struct sb_packet *p = q->head; p; p = p->next)
		if (p->in_port == in_port)
			return true;
	return false;
}

static void vertex(const struct sb_deadlock_detector *d, uint32_t v, uint32_t nswitches, uint32_t *sw,
		   uint16_t *port, uint8_t *prio)
{
	uint32_t s = 0;
	while (s + 1 < nswitches && d->port_base[s + 1] <= v)
		s++;
	*sw = s;
	*port = (uint16_t)((v - d->port_base[s]) / SB_NPRIO);
	*prio = (uint8_t)((v - d->port_base[s]) % SB_NPRIO);
}

static void record(struct sb_net *net, struct sb_deadlock_detector *d, uint32_t from, uint32_t to, sb_time now)
{
	/* the cycle is to -> ... -> from -> to, found by following parents back from `from` */
	struct sb_deadlock dl = { 0, now, d->nmembers, 0 };
	for (int32_t v = (int32_t)from;; v = d->parent[v]) {
		uint32_t s;
		uint16_t port;
		uint8_t prio;
		vertex(d, (uint32_t)v, net->nswitches, &s, &port, &prio);
		struct sb_port *p = &net->switches[s]->node.ports[port];
		p->deadlock_reported |= (uint8_t)(1u << prio);
		if (p->pause_since[prio] > dl.onset)
			dl.onset = p->pause_since[prio];
		if (d->nmembers == d->members_cap) {
			d->members_cap = d->members_cap ? 2 * d->members_cap : 64;
			d->members = sb_xrealloc(d->members, d->members_cap * sizeof(*d->members));
		}
		d->members[d->nmembers++] = (struct sb_deadlock_member){ net->switches[s]->node.id, port, prio };
		dl.count++;
		if ((uint32_t)v == to)
			break;
	}
	/* members were collected backwards along the wait-for edges: put them in wait order */
	for (size_t i = 0, j = dl.count - 1; i < j; i++, j--) {
		struct sb_deadlock_member t = d->members[dl.first + i];
		d->members[dl.first + i] = d->members[dl.first + j];
		d->members[dl.first + j] = t;
	}
	if (d->nfound == d->found_cap) {
		d->found_cap = d->found_cap ? 2 * d->found_cap : 8;
		d->found = sb_xrealloc(d->found, d->found_cap * sizeof(*d->found));
	}
	d->found[d->nfound++] = dl;
}

/* Depth-first search from v over blocked queues; true once a cycle was recorded. */
static bool search(struct sb_net *net, struct sb_deadlock_detector *d, uint32_t v, sb_time now)
{
	uint32_t s;
	uint16_t port_index;
	uint8_t prio;
	vertex(d, v, net->nswitches, &s, &port_index, &prio);
	d->state[v] = GREY;
	const struct sb_port *port = &net->switches[s]->node.ports[port_index];
	const struct sb_node *down = port->peer->node;
	if (down->kind == SB_NODE_SWITCH) {
		const struct sb_switch *next = (const struct sb_switch *)down;
		uint16_t ingress = port->peer->index;
		for (uint16_t z = 0; z < down->nports; z++) {
			const struct sb_port *out = &down->ports[z];
			if (!blocked(out, prio, now, d->persist) || !holds_from(&out->q[prio], ingress))
				continue;
			uint32_t w = d->port_base[next->index] + (uint32_t)z * SB_NPRIO + prio;
			if (d->state[w] == GREY) {
				record(net, d, v, w, now);
				return true;
			}
			if (d->state[w] == WHITE) {
				d->parent[w] = (int32_t)v;
				if (search(net, d, w, now))
					return true;
			}
		}
	}
	d->state[v] = BLACK;
	return false;
}

static bool any_paused(const struct sb_net *net)
{
	for (uint32_t n = 0; n < net->nnodes; n++)
		for (uint16_t i = 0; i < net->nodes[n]->nports; i++)
			if (net->nodes[n]->ports[i].pfc_effective)
				return true;
	return false;
}

static void check(void *obj, uint64_t arg)
{
	struct sb_net *net = obj;
	struct sb_deadlock_detector *d = net->deadlock;
	sb_time now = sb_now(&net->engine);
	(void)arg;
	d->armed = false;
	uint32_t nq = d->port_base[net->nswitches];
	bool again = true;
	while (again) { /* one search per cycle found, until none is left */
		again = false;
		for (uint32_t v = 0; v < nq; v++)
			d->state[v] = WHITE;
		for (uint32_t s = 0; s < net->nswitches && !again; s++) {
			const struct sb_node *n = &net->switches[s]->node;
			for (uint16_t i = 0; i < n->nports && !again; i++)
				for (uint8_t p = 0; p < SB_NPRIO && !again; p++) {
					uint32_t v = d->port_base[s] + (uint32_t)i * SB_NPRIO + p;
					if (d->state[v] == WHITE && blocked(&n->ports[i], p, now, d->persist)) {
						d->parent[v] = -1;
						again = search(net, d, v, now);
					}
				}
		}
	}
	if (any_paused(net) && now + d->interval <= net->stop_at) {
		d->armed = true;
		sb_at(&net->engine, now + d->interval, check, net, 0);
	}
}

void sb_deadlock_pause_started(struct sb_net *net)
{
	struct sb_deadlock_detector *d = net->deadlock;
	if (!d || d->armed)
		return;
	sb_time at = sb_now(&net->engine) + d->interval;
	if (at > net->stop_at)
		return;
	d->armed = true;
	sb_at(&net->engine, at, check, net, 0);
}
