/*
 * arrivals.h — per-host Poisson processes, the clock of the poisson and incast generators.
 *
 * Each host of a workload owns a random stream (SB_STREAM_WORKLOAD + workload index << 32 +
 * host), so a host's draws depend neither on the other hosts nor on the other workloads, and
 * only one arrival per host and workload is pending at a time: a long run does not hold its
 * future flows in memory.
 */
#ifndef SB_WORKLOAD_ARRIVALS_H
#define SB_WORKLOAD_ARRIVALS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/event.h"
#include "core/rng.h"
#include "workload/world.h"

struct sb_wl_gen {
	struct sb_wl_run *run;
	uint32_t host;         /* UINT32_MAX: a process of the whole workload */
	double mean_gap_ps;    /* mean inter-arrival time */
	struct sb_rng rng;
};

/*
 * One process per host of the topology (an array of sb_world_hosts(), malloc'd). Every host's
 * stream is seeded; a host outside `only` (when not NULL, 1 = in), or every host when
 * `draw_only` (its stream only draws, another process keeps the time), gets no arrivals, and
 * so does one whose `rate(r, host)` (events per second) is not positive and finite. The first
 * arrival of each is scheduled at fn if it falls inside [r->start, r->stop).
 */
struct sb_wl_gen *sb_wl_arrivals_start(struct sb_wl_run *r, const uint8_t *only, bool draw_only,
				       double (*rate)(const struct sb_wl_run *r, uint32_t host), sb_event_fn fn);
/* The first arrival of g, from r->start, if it falls inside the window. */
void sb_wl_arrivals_first(struct sb_wl_gen *g, sb_event_fn fn);
/* The next arrival of g after now, if it falls inside the window. */
void sb_wl_arrivals_next(struct sb_wl_gen *g, sb_event_fn fn);

#endif
