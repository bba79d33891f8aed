/*
 * flowlog.h — finished flows: their flows.csv rows, written as they complete, and the compact
 * data the summary's FCT statistics need.
 *
 * A flow's record is handed over once, when it completes (transport/flows.c), and the flow's state
 * is released soon after. Two things survive it:
 *
 *   its row      written at once to flows.csv's temporary file when the run streams its
 *                outputs (sb_report_stream, report.h): rows are in completion order, the
 *                order flows.csv always had (docs/outputs.md §2);
 *   its slowdown added to the FCT statistics of each group it counts in (all, short, long,
 *                incast): a running sum for the mean, in completion order, and the value to
 *                an exact order-statistics stream (core/spill.h: 16 bytes on disk, not in
 *                memory) from which sb_flowlog_groups() takes the nearest-rank percentiles.
 *
 * So a finished flow costs no memory at all: a run's memory does not grow with the number of
 * flows it finishes, however long it runs.
 */
#ifndef SB_FLOWLOG_H
#define SB_FLOWLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sb_spill;

struct sb_sim;
struct sb_flow_result;
struct sb_summary_group;

/* The groups of the summary's FCT statistics (docs/outputs.md). */
enum sb_flowlog_group {
	SB_FLOWLOG_ALL = 0,
	SB_FLOWLOG_SHORT,   /* size < 100 KB */
	SB_FLOWLOG_LONG,    /* size > 1 MB */
	SB_FLOWLOG_INCAST,  /* an incast response */
	SB_FLOWLOG_NGROUPS
};

struct sb_flowlog {
	FILE *rows;        /* flows.csv's temporary while the run streams it, else NULL */
	struct sb_spill *slowdowns[SB_FLOWLOG_NGROUPS]; /* NULL until the group's first flow */
	double sum[SB_FLOWLOG_NGROUPS];                 /* Σ slowdown, in completion order */
};

/* The FCT slowdown of a record: fct / ideal (0 when the ideal is 0). */
double sb_flow_slowdown(const struct sb_flow_result *r);
/* flows.csv's header line, and one record's row. */
void sb_flowlog_header(FILE *f);
void sb_flowlog_row(FILE *f, const struct sb_flow_result *r);
/* A flow completed: log its slowdown and stream its row. */
void sb_flowlog_add(struct sb_sim *sim, const struct sb_flow_result *r);
/* count, mean, p50, p95, p99 of all finished flows, the short, the long and the incast ones. */
void sb_flowlog_groups(const struct sb_sim *sim, struct sb_summary_group *all, struct sb_summary_group *small,
		       struct sb_summary_group *large, struct sb_summary_group *incast);
void sb_flowlog_free(struct sb_sim *sim);

#endif
