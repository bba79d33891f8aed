/*
 * fig13-probe.c — why a Fig. 13 run did or did not pause S0: S1's ingress queue from the spine.
 *
 * Runs one Fig. 13 scenario (same file and --set options as `sharebuf run`) and watches, every
 * 0.1 us from the burst start to the end, the lossless ingress queue (leaf1's spine-facing
 * port, priority 2) that SIH pauses when its shared part reaches T, and the largest ingress
 * queue of a burst sender. It prints one line of key=value pairs:
 *   peak_q      largest occupancy of the spine-facing ingress queue (bytes, all parts)
 *   peak_ws     largest shared part of it (omega_s) and T at that moment (T_at_peak)
 *   min_margin  smallest T - omega_s seen (SIH pauses at margin <= 0; DSH at T - eta)
 *   paused_us   time that queue had a queue-level PAUSE asserted
 *   peak_burst_q  largest ingress queue of one burst sender's port
 *   peak_shared largest shared_used of leaf1 and min_T the smallest T(t)
 * Built and run by probe.sh (cc ... build/libsharebuf.a); it only reads MMU state, so the
 * simulated network is the same as in `sharebuf run`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/cfgfile.h"
#include "mmu/bm_dsh.h"
#include "sim/sim.h"

#define PRIO 2

struct probe {
	struct sb_sim *sim;
	const struct sb_mmu *m;
	uint16_t spine_port;
	sb_time step;
	uint64_t peak_q, peak_ws, t_at_peak, peak_burst_q, peak_shared, min_t;
	int64_t min_margin;
	sb_time paused;
};

static void tick(void *obj, uint64_t arg)
{
	struct probe *p = obj;
	(void)arg;
	struct sb_dsh_queue_view q;
	sb_dsh_queue(p->m, p->spine_port, PRIO, &q);
	uint64_t t = sb_dsh_threshold(p->m), used = sb_dsh_shared_used(p->m);
	if (q.total > p->peak_q)
		p->peak_q = q.total;
	if (q.shared > p->peak_ws) {
		p->peak_ws = q.shared;
		p->t_at_peak = t;
	}
	if ((int64_t)t - (int64_t)q.shared < p->min_margin)
		p->min_margin = (int64_t)t - (int64_t)q.shared;
	if (q.paused)
		p->paused += p->step;
	if (used > p->peak_shared)
		p->peak_shared = used;
	if (t < p->min_t)
		p->min_t = t;
	for (uint16_t i = 0; i < p->m->nports; i++) {
		if (i == p->spine_port)
			continue;
		struct sb_dsh_queue_view b;
		sb_dsh_queue(p->m, i, PRIO, &b);
		if (b.total > p->peak_burst_q)
			p->peak_burst_q = b.total;
	}
	if (sb_now(&p->sim->net.engine) + p->step <= p->sim->stop_at)
		sb_at(&p->sim->net.engine, sb_now(&p->sim->net.engine) + p->step, tick, p, 0);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: fig13-probe SCENARIO FROM_MS [KEY=VALUE]...\n");
		return 2;
	}
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_error err = { "" };
	sb_scenario_defaults(&sc);
	if (sb_cfg_load(&sc, argv[1], NULL, (const char *const *)argv + 3, (size_t)(argc - 3), &err) ||
	    sb_scenario_validate(&sc, &err) || sb_sim_build(&sim, &sc, &err)) {
		fprintf(stderr, "fig13-probe: %s\n", err.msg);
		return 1;
	}
	struct probe p = { .sim = &sim, .step = sb_time_from_us(0.1), .min_margin = INT64_MAX, .min_t = UINT64_MAX };
	const struct sb_switch *leaf1 = NULL;
	for (uint32_t i = 0; i < sim.net.nswitches; i++)
		if (!strcmp(sim.net.switches[i]->node.name, "leaf1"))
			leaf1 = sim.net.switches[i];
	if (!leaf1 || leaf1->nmmus != 1) {
		fprintf(stderr, "fig13-probe: expected a switch leaf1 with one MMU\n");
		return 1;
	}
	p.m = leaf1->mmus[0];
	for (uint16_t i = 0; i < leaf1->node.nports; i++)
		if (!strcmp(leaf1->node.ports[i].peer->node->name, "spine0"))
			p.spine_port = i;
	sb_at(&sim.net.engine, sb_time_from_ms(atof(argv[2])), tick, &p, 0);
	sb_sim_run(&sim);
	printf("peak_q=%llu peak_ws=%llu T_at_peak=%llu min_margin=%lld paused_us=%.1f peak_burst_q=%llu "
	       "peak_shared=%llu min_T=%llu\n",
	       (unsigned long long)p.peak_q, (unsigned long long)p.peak_ws, (unsigned long long)p.t_at_peak,
	       (long long)p.min_margin, sb_time_to_us(p.paused), (unsigned long long)p.peak_burst_q,
	       (unsigned long long)p.peak_shared, (unsigned long long)p.min_t);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return 0;
}
