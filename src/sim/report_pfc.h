/*
 * report_pfc.h — the PFC part of a run's outputs (docs/pfc.md documents every column and key):
 *   summary.json "pfc"      frame counts, paused time per (port, priority), deadlocks;
 *   pfc.csv                 every PAUSE/RESUME a switch sent (pfc.log = true);
 *   pfc_paused.csv          per paused (node, port, priority): episodes and paused time;
 *   deadlocks.csv           every deadlocked cycle found, with its onset.
 */
#ifndef SB_REPORT_PFC_H
#define SB_REPORT_PFC_H

#include <jansson.h>
#include <stdio.h>
#include "sim/sim.h"

struct sb_pfc_summary {
	uint64_t paused_queues;   /* (node, port, priority) paused at least once */
	uint64_t episodes;
	double total_us;          /* paused time summed over every (port, priority) */
	double per_queue_p99_us, per_queue_max_us; /* over the paused (port, priority) totals */
	double episode_p99_us, episode_max_us;
	uint64_t deadlocks;
	double first_deadlock_us; /* onset of the first deadlock; -1 if none */
};

void sb_pfc_summarize(const struct sb_sim *sim, struct sb_pfc_summary *out);
json_t *sb_pfc_summary_json(const struct sb_sim *sim, const struct sb_pfc_summary *s);
void sb_pfc_write_events(FILE *f, const struct sb_sim *sim);
void sb_pfc_write_paused(FILE *f, const struct sb_sim *sim);
void sb_pfc_write_deadlocks(FILE *f, const struct sb_sim *sim);

#endif
