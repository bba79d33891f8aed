/*
 * arrivals.c — per-host Poisson processes (arrivals.h).
 */
#include "workload/arrivals.h"

#include <math.h>
#include "core/util.h"

void sb_wl_arrivals_first(struct sb_wl_gen *g, sb_event_fn fn)
{
	/* a first arrival beyond the window (or beyond what sb_time holds) never happens */
	const struct sb_wl_run *r = g->run;
	double gap = sb_rng_exponential(&g->rng, g->mean_gap_ps);
	if (r->start < r->stop && gap < (double)(r->stop - r->start))
		sb_world_at(r->world, r->start + (sb_time)(gap + 0.5), fn, g);
}

void sb_wl_arrivals_next(struct sb_wl_gen *g, sb_event_fn fn)
{
	struct sb_wl_world *w = g->run->world;
	sb_time now = sb_world_now(w);
	double gap = sb_rng_exponential(&g->rng, g->mean_gap_ps);
	if (now < g->run->stop && gap < (double)(g->run->stop - now))
		sb_world_at(w, now + (sb_time)(gap + 0.5), fn, g);
}

struct sb_wl_gen *sb_wl_arrivals_start(struct sb_wl_run *r, const uint8_t *only, bool draw_only,
				       double (*rate)(const struct sb_wl_run *r, uint32_t host), sb_event_fn fn)
{
	uint32_t hosts = sb_world_hosts(r->world);
	struct sb_wl_gen *gens = sb_xcalloc(hosts, sizeof(*gens));
	for (uint32_t h = 0; h < hosts; h++) {
		struct sb_wl_gen *g = &gens[h];
		g->run = r;
		g->host = h;
		sb_rng_init(&g->rng, sb_world_seed(r->world), SB_STREAM_WORKLOAD + ((uint64_t)r->index << 32) + h);
		if ((only && !only[h]) || draw_only)
			continue;
		double per_s = rate(r, h);
		if (!(per_s > 0) || !isfinite(per_s))
			continue;
		g->mean_gap_ps = 1e12 / per_s;
		sb_wl_arrivals_first(g, fn);
	}
	return gens;
}
