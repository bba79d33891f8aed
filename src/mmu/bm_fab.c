/*
 * bm_fab.c — FAB, Flow-Aware Buffer (Apostolaki et al., "FAB: Toward Flow-aware Buffer
 * Sharing on Programmable Switches", 2019), as the ABM paper evaluates it: "DT but prioritizes
 * short flows" (ABM §4.1). docs/schemes/fab.md has the full description.
 *
 * Rule, on pre-arrival counters (q = egress queue, Q = occupancy, B = buffer, L = units):
 *     drop buffer_full  iff Q + L > B
 *     drop threshold    iff q + L > α · (B − Q),   α = alpha_short if the packet's flow is short,
 *                                                   else alpha[prio]
 * exactly DT's comparison and order, so that with no short flow FAB *is* DT.
 *
 * Who is short — two variants, because the two code paths of the ABM artifact differ
 * (inet-tub/ns3-datacenter: SwitchMmu in switch-mmu.cc vs GenQueueDisc in gen-queue-disc.cc):
 *   flow_counter (default): a per-flow byte counter, reset when the flow has been idle for
 *       longer than `window_us`; the counter includes the arriving packet and every arrival
 *       counts, refused or not; short iff counter < threshold_bytes. This is the GenQueueDisc
 *       path the ABM paper's runs used, with its constants (5 ms, 15 × 1400 B, α_short 1024).
 *   first_rtt: short iff the transport tagged the packet SB_MT_FIRST_RTT (switch-mmu path);
 *       no state at all.
 *
 * The per-flow table is a direct-mapped array of `table_slots` slots allocated in init and
 * indexed by flow_hash & (slots − 1): no allocation and no iteration per packet, so run time
 * and results do not depend on how many flows exist. A slot belongs to the first flow that
 * counts into it while it is free (bytes == 0, or idle for longer than the window). Another
 * flow hashing to a busy slot *shares* its counter rather than evicting the owner: a collision
 * can only make a flow look longer than it is — it loses the short-flow boost — and never lets
 * a long flow borrow a short flow's α_short (1024 × the free buffer). `shared_arrivals`
 * counts such packets; with F concurrently active flows per MMU the share of colliding flows is
 * about F / table_slots.
 */
#include "mmu/bm_fab.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/util.h"

static const char *const fab_mode_choices[] = { "flow_counter", "first_rtt", NULL };

#define FAB(f) offsetof(struct sb_fab_state, f)
static const struct sb_param fab_params[] = {
	{ "alpha", SB_P_PRIO, FAB(alpha), "0.5", 0.0, 1e6, "", NULL,
	  "α per priority for long flows: threshold = α · (buffer − occupancy) (ABM paper: 0.5)" },
	{ "alpha_short", SB_P_DOUBLE, FAB(alpha_short), "1024", 0.0, 1e6, "", NULL,
	  "α for packets of short flows (the artifact's alphaUnsched)" },
	{ "mode", SB_P_ENUM, FAB(mode), "flow_counter", 0, 0, "", fab_mode_choices,
	  "who is short: flow_counter = per-flow bytes since the flow was last idle < threshold_bytes "
	  "(the paper's runs); first_rtt = packets the transport tagged first-RTT" },
	{ "threshold_bytes", SB_P_INT, FAB(threshold_bytes), "21000", 0, 4e9, "bytes", NULL,
	  "flow_counter: a flow is short while its counter, including this packet, is below this "
	  "(15 × 1400 B); 0 = no flow is short (FAB = DT)" },
	{ "window_us", SB_P_DOUBLE, FAB(window_us), "5000", 0, 1e9, "us", NULL,
	  "flow_counter: a flow idle for longer than this starts counting from zero again" },
	{ "table_slots", SB_P_INT, FAB(table_slots), "16384", 1, 1e7, "", NULL,
	  "flow_counter: slots of the per-flow table (a power of two, 16 bytes each, per MMU); "
	  "flows hashing to a busy slot share its counter" },
	SB_PARAM_END
};

static int fab_init(struct sb_mmu *m, struct sb_error *err)
{
	struct sb_fab_state *s = sb_mmu_state(m);
	if (s->mode != SB_FAB_FLOW_COUNTER)
		return 0;
	uint64_t n = (uint64_t)s->table_slots;
	if (n & (n - 1))
		return sb_fail(err, "fab: table_slots = %lld is not a power of two", (long long)s->table_slots);
	s->mask = (uint32_t)(n - 1);
	s->window = sb_time_from_us(s->window_us);
	s->table = sb_xcalloc(n, sizeof(*s->table));
	return 0;
}

static void fab_fini(struct sb_mmu *m)
{
	struct sb_fab_state *s = sb_mmu_state(m);
	free(s->table);
	s->table = NULL;
}

/* Count the arrival into its flow's slot; true iff the flow is (still) short. */
static bool fab_count_short(struct sb_fab_state *s, const struct sb_mmu_pkt *pkt, sb_time now)
{
	bool shared, reset;
	uint32_t bytes = sb_flow_meter_count(&s->table[pkt->flow_hash & s->mask], pkt->flow_hash, pkt->bytes,
					     now, s->window, &shared, &reset);
	s->shared_arrivals += shared;
	s->idle_resets += reset;
	return (int64_t)bytes < s->threshold_bytes;
}

static enum sb_drop_cause fab_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct sb_fab_state *s = sb_mmu_state(m);
	/* Classify first: the artifact counts every arrival, also the ones it then refuses. */
	bool is_short = s->mode == SB_FAB_FIRST_RTT ? (pkt->tags & SB_MT_FIRST_RTT) != 0
						    : fab_count_short(s, pkt, sb_mmu_now(m));
	if (is_short)
		s->short_arrivals++;
	if (m->used + pkt->units > m->buffer)
		return SB_DROP_BUFFER_FULL;
	double alpha = is_short ? s->alpha_short : s->alpha[pkt->prio];
	uint64_t threshold = sb_mmu_scale(alpha, m->buffer - m->used);
	if (m->q_egr[sb_mmu_qi(pkt->out_port, pkt->prio)] + pkt->units > threshold)
		return SB_DROP_THRESHOLD;
	return SB_ADMIT;
}

/* The flow table, counted as 32 bytes a slot (a slot rounded up, the same for fab and ib) in
 * every mode: an estimate that errs on the large side. */
static double fab_state_bytes(const void *state, const char **key, char *what, size_t n)
{
	const struct sb_fab_state *s = state;
	*key = "table_slots";
	snprintf(what, n, "flow tables of %.0f slots", (double)s->table_slots);
	return (double)s->table_slots * 32.0;
}

const struct sb_bm_ops sb_bm_fab = {
	.name = "fab",
	.summary = "Flow-Aware Buffer: DT with a large alpha for short flows (per-flow counter or first-RTT tag)",
	.params = fab_params,
	.state_size = sizeof(struct sb_fab_state),
	.init = fab_init,
	.admit = fab_admit,
	.fini = fab_fini,
	.state_bytes = fab_state_bytes,
};
