/*
 * flowlog.c — finished flows' rows and compact statistics (see flowlog.h).
 */
#include "sim/flowlog.h"

#include <stdlib.h>
#include <string.h>
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
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4096;
		l->slowdown = sb_xrealloc(l->slowdown, l->cap * sizeof(*l->slowdown));
		l->groups = sb_xrealloc(l->groups, l->cap * sizeof(*l->groups));
	}
	l->slowdown[l->n] = sb_flow_slowdown(r);
	l->groups[l->n++] = (uint8_t)((r->size < 100000 ? SB_FLG_SHORT : 0) | (r->size > 1000000 ? SB_FLG_LONG : 0) |
				      (r->kind == SB_KIND_INCAST ? SB_FLG_INCAST : 0));
	if (l->rows)
		sb_flowlog_row(l->rows, r);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The statistics of the flows whose groups include `mask` (0: all), through `scratch`. The
 * mean sums the values in sorted order, as the summary always did, so that it is the same
 * number to the last bit. */
static void group(const struct sb_flowlog *l, uint8_t mask, double *scratch, struct sb_summary_group *g)
{
	size_t n = 0;
	for (size_t i = 0; l && i < l->n; i++)
		if ((l->groups[i] & mask) == mask)
			scratch[n++] = l->slowdown[i];
	memset(g, 0, sizeof(*g));
	g->count = n;
	if (!n)
		return;
	qsort(scratch, n, sizeof(*scratch), cmp_double);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += scratch[i];
	g->mean = sum / (double)n;
	g->p50 = sb_percentile_sorted(scratch, n, 50);
	g->p95 = sb_percentile_sorted(scratch, n, 95);
	g->p99 = sb_percentile_sorted(scratch, n, 99);
}

void sb_flowlog_groups(const struct sb_sim *sim, struct sb_summary_group *all, struct sb_summary_group *small,
		       struct sb_summary_group *large, struct sb_summary_group *incast)
{
	const struct sb_flowlog *l = sim->flowlog;
	double *scratch = sb_xmalloc(((l ? l->n : 0) + 1) * sizeof(double));
	group(l, 0, scratch, all);
	group(l, SB_FLG_SHORT, scratch, small);
	group(l, SB_FLG_LONG, scratch, large);
	group(l, SB_FLG_INCAST, scratch, incast);
	free(scratch);
}

void sb_flowlog_free(struct sb_sim *sim)
{
	struct sb_flowlog *l = sim->flowlog;
	if (!l)
		return;
	free(l->slowdown);
	free(l->groups);
	free(l);
	sim->flowlog = NULL;
}
