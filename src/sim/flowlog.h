/*
 * flowlog.h — finished flows: their flows.csv rows, written as they complete, and the compact
 * data the summary's FCT statistics need.
 *
 * A flow's record is handed over once, when it completes (sim/flows.c), and the flow's state
 * is released soon after. Two things survive it:
 *
 *   its row      written at once to flows.csv's temporary file when the run streams its
 *                outputs (sb_report_stream, report.h): rows are in completion order, the
 *                order flows.csv always had (docs/outputs.md §2);
 *   its slowdown 9 bytes (the FCT slowdown as a double and which groups it counts in: short,
 *                long, incast), from which sb_flowlog_groups() computes the summary's
 *                count, mean and nearest-rank percentiles exactly as from full records.
 *
 * So a finished flow costs 9 bytes of memory, not the ~3.3 KB of its state and record.
 */
#ifndef SB_FLOWLOG_H
#define SB_FLOWLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sb_sim;
struct sb_flow_result;
struct sb_summary_group;

enum sb_flowlog_group {
	SB_FLG_SHORT = 1u << 0,  /* size < 100 KB */
	SB_FLG_LONG = 1u << 1,   /* size > 1 MB */
	SB_FLG_INCAST = 1u << 2, /* an incast response */
};

struct sb_flowlog {
	FILE *rows;        /* flows.csv's temporary while the run streams it, else NULL */
	double *slowdown;  /* per finished flow, in completion order */
	uint8_t *groups;   /* enum sb_flowlog_group bits of the same flow */
	size_t n, cap;
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
