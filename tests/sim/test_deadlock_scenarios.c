/*
 * test_deadlock_scenarios.c — a PFC deadlock from real traffic, found by the detector
 * (src/net/deadlock.c): the DSH Fig. 12 scenario (experiments/dsh/fig12.cfg: the 2 × 4
 * leaf-spine with S0–L3 and S1–L0 removed, four Hadoop fan-in groups under DCQCN) run for 6 ms.
 *
 * Under SIH, seed 10 closes the cyclic buffer dependency spine0 → leaf1 → spine1 → leaf2 →
 * spine0 at 4.28 ms: four egress queues, each paused by the next switch and holding packets that
 * came from the previous one. The detector reports it once the cycle has stood for
 * pfc.deadlock_persist_us (1 ms, our choice, docs/pfc.md §4), with its onset and its queues in
 * wait order, and deadlocks.csv and summary.json say the same. The queues are still paused and full at the
 * end: a deadlock does not clear.
 *
 * Under DSH, the same seed (the same flows: the workload's draws do not depend on the network)
 * does not deadlock. That is this seed's outcome, not a theorem; what the paper's argument
 * supports, and what is asserted besides, is the mechanism: DSH's shared segment is 3.8× SIH's
 * on this switch (14.44 MB against 3.77 MB), so its queues reach their pause threshold less
 * often and it sends fewer PAUSE frames for the same traffic. experiments/dsh/sweeps/fig12.cfg
 * measures the rates over many seeds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/cfgfile.h"
#include "net/deadlock.h"
#include "sim/report.h"
#include "sim/sim.h"
#include "testlib.h"

#define FIG12_CFG "experiments/dsh/fig12.cfg"

static void load_fig12(struct sb_scenario *sc, const char *scheme)
{
	char set_scheme[64];
	snprintf(set_scheme, sizeof(set_scheme), "switch.scheme=%s", scheme);
	const char *sets[] = { set_scheme, "run.seed=10", "run.duration_ms=6", "run.arrivals_ms=6" };
	struct sb_error err = { "" };
	sb_scenario_defaults(sc);
	if (sb_cfg_load(sc, FIG12_CFG, NULL, sets, 4, &err) || sb_scenario_validate(sc, &err))
		fail_msg("%s", err.msg);
}

static const char *name_of(const struct sb_sim *sim, uint32_t node) { return sim->net.nodes[node]->name; }

static void test_sih_deadlocks(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	load_fig12(&sc, "sih");
	char *dir = tl_run_streamed(&sim, &sc);
	const struct sb_deadlock_detector *d = sim.net.deadlock;
	assert_non_null(d);
	assert_int_equal(d->nfound, 1);
	const struct sb_deadlock *dl = &d->found[0];
	print_message("SIH: deadlock of %zu queues, onset %.3f us, detected %.3f us\n", dl->count,
		      sb_time_to_us(dl->onset), sb_time_to_us(dl->detected));
	/* onset: when the last queue of the cycle paused; found at the first check (every 100 us)
	 * after the cycle stood for 1 ms */
	assert_true(dl->onset > 4200 * SB_US && dl->onset < 4400 * SB_US);
	assert_true(dl->detected >= dl->onset + 1000 * SB_US && dl->detected <= dl->onset + 1100 * SB_US);

	/* the cycle: 4 egress queues of priority 2, each leading to the next one's switch, through
	 * spine0, leaf1, spine1 and leaf2 (the paper's S0 -> L1 -> S1 -> L2 -> S0, Fig. 12a) */
	assert_int_equal(dl->count, 4);
	const char *want[] = { "leaf1", "spine1", "leaf2", "spine0" }; /* rotated to start at leaf1 */
	size_t start = 0;
	while (start < 4 && strcmp(name_of(&sim, d->members[dl->first + start].node), "leaf1") != 0)
		start++;
	assert_true(start < 4);
	for (size_t k = 0; k < 4; k++) {
		const struct sb_deadlock_member *m = &d->members[dl->first + (start + k) % 4];
		const struct sb_deadlock_member *next = &d->members[dl->first + (start + k + 1) % 4];
		assert_string_equal(name_of(&sim, m->node), want[k]);
		assert_int_equal(m->prio, 2);
		const struct sb_port *p = &sim.net.nodes[m->node]->ports[m->port];
		assert_int_equal(p->peer->node->id, next->node);
		/* still stuck at the end of the run: paused, and holding packets */
		assert_true(p->pfc_effective & (1u << 2));
		assert_non_null(p->q[2].head);
	}

	/* what the run writes (into dir, where it streamed its rows): one row in deadlocks.csv,
	 * the same cycle and times; summary.json */
	struct sb_error err = { "" };
	if (sb_report_write(&sim, dir, 0.0, &err))
		fail_msg("write: %s", err.msg);
	char row[512];
	size_t used = (size_t)snprintf(row, sizeof(row), "onset_ns,detected_ns,length,cycle\n%.3f,%.3f,4,",
				       sb_time_to_ns(dl->onset), sb_time_to_ns(dl->detected));
	for (size_t k = 0; k < 4; k++) {
		const struct sb_deadlock_member *m = &d->members[dl->first + k];
		used += (size_t)snprintf(row + used, sizeof(row) - used, "%s%s:%u:2", k ? " > " : "", name_of(&sim, m->node),
					 m->port);
	}
	snprintf(row + used, sizeof(row) - used, "\n");
	char *csv = tl_slurp_in(dir, "deadlocks.csv");
	print_message("deadlocks.csv:\n%s", csv);
	assert_string_equal(csv, row);
	assert_non_null(strstr(csv, ",4,spine0:1:2 > leaf1:17:2 > spine1:1:2 > leaf2:16:2\n"));
	char *summary = tl_slurp_in(dir, "summary.json");
	assert_non_null(strstr(summary, "\"deadlocks\": 1,"));
	const char *first = strstr(summary, "\"first_deadlock_us\": ");
	assert_non_null(first);
	double first_us = strtod(first + strlen("\"first_deadlock_us\": "), NULL);
	assert_true(first_us > sb_time_to_us(dl->onset) - 0.001 && first_us < sb_time_to_us(dl->onset) + 0.001);
	free(csv);
	free(summary);
	tl_rmtree(dir);
	free(dir);
	assert_int_equal(sim.net.stats.pkts_dropped_lossless, 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_dsh_same_seed(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	load_fig12(&sc, "sih");
	tl_run_checked(&sim, &sc);
	uint64_t sih_pauses = sim.net.stats.pfc_pause_frames, sih_flows = sim.flows.table.next_id;
	sb_sim_free(&sim);
	sb_scenario_free(&sc);

	load_fig12(&sc, "dsh");
	char *dir = tl_run_streamed(&sim, &sc);
	print_message("DSH: %zu deadlocks; PAUSE frames SIH %llu, DSH %llu; %u flows\n", sim.net.deadlock->nfound,
		      (unsigned long long)sih_pauses, (unsigned long long)sim.net.stats.pfc_pause_frames, sim.flows.table.next_id);
	assert_int_equal(sim.flows.table.next_id, sih_flows); /* the same traffic */
	assert_int_equal(sim.net.deadlock->nfound, 0);
	assert_true(sim.net.stats.pfc_pause_frames > 0);          /* the fan-in does congest DSH ... */
	assert_true(sim.net.stats.pfc_pause_frames < sih_pauses); /* ... less often than SIH */
	assert_int_equal(sim.net.stats.pkts_dropped_lossless, 0);
	struct sb_error err = { "" };
	if (sb_report_write(&sim, dir, 0.0, &err))
		fail_msg("write: %s", err.msg);
	char *csv = tl_slurp_in(dir, "deadlocks.csv");
	assert_string_equal(csv, "onset_ns,detected_ns,length,cycle\n");
	free(csv);
	tl_rmtree(dir);
	free(dir);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sih_deadlocks),
		cmocka_unit_test(test_dsh_same_seed),
	};
	return cmocka_run_group_tests_name("deadlock_scenarios", tests, NULL, NULL);
}
