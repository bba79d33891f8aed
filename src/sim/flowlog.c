/*
 * flowlog.c — finished flows' rows and compact statistics (see flowlog.h).
 */
#include "sim/flowlog.h"

#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include "core/spill.h"
#include "core/util.h"
#include "sim/report.h"
#include "sim/sim.h"

double sb_flow_slowdown(const struct sb_flow_result *r)
{
	return r->ideal ? (double)r->fct / (double)r->ideal : 0;
}

void sb_flowlog_header(FILE *f)
{
	fprintf(f, "flow_id,src,dst,size_bytes,priority,class,kind,query_id,start_ns,fct_ns,ideal_fct_ns,slowdown,"
		   "rx_fct_ns\n");
}

void sb_flowlog_row(FILE *f, const struct sb_flow_result *r)
{
	fprintf(f, "%u,%u,%u,%llu,%u,%s,%s,%d,%.3f,%.3f,%.3f,%.6f,%.3f\n", r->id, r->src, r->dst,
		(unsigned long long)r->size, r->prio, r->lossless ? "lossless" : "lossy", sb_flow_kind_name[r->kind],
		r->query_id, sb_time_to_ns(r->start), sb_time_to_ns(r->fct), sb_time_to_ns(r->ideal),
		sb_flow_slowdown(r), sb_time_to_ns(r->rx_fct));
}

static struct sb_flowlog *log_of(struct sb_sim *sim)
{
	if (!sim->flowlog)
		sim->flowlog = sb_xcalloc(1, sizeof(*sim->flowlog));
	return sim->flowlog;
}

void sb_flowlog_add(struct sb_sim *sim, const struct sb_flow_result *r)
{
	struct sb_flowlog *l = log_of(sim);
	double slowdown = sb_flow_slowdown(r);
	bool in[SB_FLOWLOG_NGROUPS] = { true, r->size < 100000, r->size > 1000000, r->kind == SB_KIND_INCAST };
	for (int g = 0; g < SB_FLOWLOG_NGROUPS; g++) {
		if (!in[g])
			continue;
		if (!l->slowdowns[g])
			l->slowdowns[g] = sb_spill_new();
		sb_spill_add(l->slowdowns[g], slowdown, 1);
		l->sum[g] += slowdown;
	}
	if (l->rows)
		sb_flowlog_row(l->rows, r);
}

/* count, mean (summed in completion order) and nearest-rank percentiles of one group. */
static void group(struct sb_flowlog *l, int g, struct sb_summary_group *out)
{
	memset(out, 0, sizeof(*out));
	struct sb_spill *s = l ? l->slowdowns[g] : NULL;
	if (!s || !s->n)
		return;
	out->count = s->n;
	out->mean = l->sum[g] / (double)s->n;
	out->p50 = sb_spill_percentile(s, 50);
	out->p95 = sb_spill_percentile(s, 95);
	out->p99 = sb_spill_percentile(s, 99);
}

void sb_flowlog_groups(const struct sb_sim *sim, struct sb_summary_group *all, struct sb_summary_group *small,
		       struct sb_summary_group *large, struct sb_summary_group *incast)
{
	struct sb_flowlog *l = sim->flowlog;
	group(l, SB_FLOWLOG_ALL, all);
	group(l, SB_FLOWLOG_SHORT, small);
	group(l, SB_FLOWLOG_LONG, large);
	group(l, SB_FLOWLOG_INCAST, incast);
}

void sb_flowlog_free(struct sb_sim *sim)
{
	struct sb_flowlog *l = sim->flowlog;
	if (!l)
		return;
	for (int g = 0; g < SB_FLOWLOG_NGROUPS; g++)
		sb_spill_free(l->slowdowns[g]);
	free(l);
	sim->flowlog = NULL;
}
