/*
 * report_pfc.c — PFC statistics and files (see report_pfc.h).
 */
#include "sim/report_pfc.h"

#include <stdlib.h>
#include "core/util.h"
#include "net/deadlock.h"
#include "net/pfc.h"
#include "sim/report.h"

static int cmp_time(const void *a, const void *b)
{
	sb_time x = *(const sb_time *)a, y = *(const sb_time *)b;
	return (x > y) - (x < y);
}

/* The nearest rank (1-based) of percentile p among n values. */
static size_t rank_of(size_t n, double p)
{
	size_t k = (size_t)((p / 100.0) * (double)n + 0.999999999);
	return k < 1 ? 1 : k > n ? n : k;
}

/* Nearest-rank percentile of sorted times, in µs. */
static double pct_us(const sb_time *v, size_t n, double p)
{
	return n ? sb_time_to_us(v[rank_of(n, p) - 1]) : 0;
}

void sb_pfc_summarize(const struct sb_sim *sim, struct sb_pfc_summary *s)
{
	*s = (struct sb_pfc_summary){ .first_deadlock_us = -1 };
	size_t cap = 0, n = 0;
	sb_time *totals = NULL;
	sb_time now = sb_now(&sim->net.engine);
	for (uint32_t i = 0; i < sim->net.nnodes; i++) {
		const struct sb_node *node = sim->net.nodes[i];
		for (uint16_t k = 0; k < node->nports; k++) {
			const struct sb_port *port = &node->ports[k];
			for (unsigned p = 0; p < SB_NPRIO; p++) {
				if (!port->pause_episodes[p])
					continue;
				if (n == cap) {
					cap = cap ? 2 * cap : 256;
					totals = sb_xrealloc(totals, cap * sizeof(*totals));
				}
				totals[n++] = sb_pfc_paused_time(&sim->net, port, p);
				s->episodes += port->pause_episodes[p];
			}
		}
	}
	/* episodes still open at the end of the run count with their length so far: they join
	 * the finished ones (on disk, core/spill.h) for the percentile without being added */
	struct sb_spill *closed = sim->net.pfc.episodes;
	size_t nclosed = closed ? (size_t)closed->n : 0, open = (size_t)s->episodes - nclosed, m = 0;
	double *open_ep = sb_xcalloc(open + 1, sizeof(*open_ep));
	sb_time longest = sim->net.pfc.episode_max;
	for (uint32_t i = 0; i < sim->net.nnodes; i++) {
		const struct sb_node *node = sim->net.nodes[i];
		for (uint16_t k = 0; k < node->nports; k++)
			for (unsigned p = 0; p < SB_NPRIO; p++)
				if (node->ports[k].pfc_effective & (1u << p)) {
					sb_time d = now - node->ports[k].pause_since[p];
					open_ep[m++] = (double)d;
					if (d > longest)
						longest = d;
				}
	}
	s->paused_queues = n;
	sb_time total = 0;
	for (size_t i = 0; i < n; i++)
		total += totals[i];
	s->total_us = sb_time_to_us(total);
	if (n) /* totals is NULL when nothing was paused, and qsort(NULL, 0) is undefined */
		qsort(totals, n, sizeof(*totals), cmp_time);
	s->per_queue_p99_us = pct_us(totals, n, 99);
	s->per_queue_max_us = n ? sb_time_to_us(totals[n - 1]) : 0;
	size_t all = nclosed + m;
	if (all) {
		struct sb_spill *none = closed ? NULL : sb_spill_new(); /* none finished: the open ones alone */
		double p99 = sb_spill_select_with(closed ? closed : none, open_ep, m, rank_of(all, 99));
		sb_spill_free(none);
		s->episode_p99_us = sb_time_to_us((sb_time)p99);
		s->episode_max_us = sb_time_to_us(longest);
	}
	free(totals);
	free(open_ep);
	const struct sb_deadlock_detector *d = sim->net.deadlock;
	if (d && d->nfound) {
		s->deadlocks = d->nfound;
		s->first_deadlock_us = sb_time_to_us(d->found[0].onset);
		for (size_t i = 1; i < d->nfound; i++)
			if (sb_time_to_us(d->found[i].onset) < s->first_deadlock_us)
				s->first_deadlock_us = sb_time_to_us(d->found[i].onset);
	}
}

json_t *sb_pfc_summary_json(const struct sb_sim *sim, const struct sb_pfc_summary *s)
{
	json_t *pfc = json_object();
	json_object_set_new(pfc, "pause_frames", json_integer((json_int_t)sim->net.stats.pfc_pause_frames));
	json_object_set_new(pfc, "resume_frames", json_integer((json_int_t)sim->net.stats.pfc_resume_frames));
	json_object_set_new(pfc, "port_pause_frames", json_integer((json_int_t)sim->net.stats.pfc_port_pause_frames));
	json_object_set_new(pfc, "port_resume_frames", json_integer((json_int_t)sim->net.stats.pfc_port_resume_frames));
	json_object_set_new(pfc, "refresh_frames", json_integer((json_int_t)sim->net.pfc.refresh_frames));
	json_object_set_new(pfc, "paused_queues", json_integer((json_int_t)s->paused_queues));
	json_object_set_new(pfc, "pause_episodes", json_integer((json_int_t)s->episodes));
	json_t *t = json_object();
	json_object_set_new(t, "total", json_real(s->total_us));
	json_object_set_new(t, "per_queue_p99", json_real(s->per_queue_p99_us));
	json_object_set_new(t, "per_queue_max", json_real(s->per_queue_max_us));
	json_object_set_new(t, "episode_p99", json_real(s->episode_p99_us));
	json_object_set_new(t, "episode_max", json_real(s->episode_max_us));
	json_object_set_new(pfc, "paused_time_us", t);
	json_object_set_new(pfc, "deadlocks", json_integer((json_int_t)s->deadlocks));
	json_object_set_new(pfc, "first_deadlock_us", s->deadlocks ? json_real(s->first_deadlock_us) : json_null());
	return pfc;
}

struct event_row_ctx {
	FILE *f;
	const struct sb_sim *sim;
};

static void event_row(void *ctx, const void *record)
{
	const struct event_row_ctx *c = ctx;
	const struct sb_pfc_event *e = record;
	const struct sb_node *n = c->sim->net.nodes[e->node];
	const char *peer = n->ports[e->port].peer->node->name;
	if (e->prio == SB_PFC_PORT_LEVEL_PRIO)
		fprintf(c->f, "%.3f,%s,%u,%s,all,%s\n", sb_time_to_ns(e->t), n->name, e->port, peer,
			e->pause ? "port_pause" : "port_resume");
	else
		fprintf(c->f, "%.3f,%s,%u,%s,%u,%s\n", sb_time_to_ns(e->t), n->name, e->port, peer, e->prio,
			e->pause ? "pause" : "resume");
}

void sb_pfc_write_events(FILE *f, const struct sb_sim *sim)
{
	fprintf(f, "time_ns,switch,port,peer,prio,event\n");
	struct event_row_ctx ctx = { f, sim };
	if (sim->net.pfc.events)
		sb_reclog_each(sim->net.pfc.events, event_row, &ctx);
}

void sb_pfc_write_paused(FILE *f, const struct sb_sim *sim)
{
	fprintf(f, "node,port,peer,prio,episodes,paused_us\n");
	for (uint32_t i = 0; i < sim->net.nnodes; i++) {
		const struct sb_node *node = sim->net.nodes[i];
		for (uint16_t k = 0; k < node->nports; k++)
			for (unsigned p = 0; p < SB_NPRIO; p++)
				if (node->ports[k].pause_episodes[p])
					fprintf(f, "%s,%u,%s,%u,%u,%.3f\n", node->name, k, node->ports[k].peer->node->name, p,
						node->ports[k].pause_episodes[p],
						sb_time_to_us(sb_pfc_paused_time(&sim->net, &node->ports[k], p)));
	}
}

void sb_pfc_write_deadlocks(FILE *f, const struct sb_sim *sim)
{
	fprintf(f, "onset_ns,detected_ns,length,cycle\n");
	const struct sb_deadlock_detector *d = sim->net.deadlock;
	for (size_t i = 0; d && i < d->nfound; i++) {
		const struct sb_deadlock *dl = &d->found[i];
		fprintf(f, "%.3f,%.3f,%zu,", sb_time_to_ns(dl->onset), sb_time_to_ns(dl->detected), dl->count);
		for (size_t k = 0; k < dl->count; k++) {
			const struct sb_deadlock_member *m = &d->members[dl->first + k];
			fprintf(f, "%s%s:%u:%u", k ? " > " : "", sim->net.nodes[m->node]->name, m->port, m->prio);
		}
		fputc('\n', f);
	}
}
