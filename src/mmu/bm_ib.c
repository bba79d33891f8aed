/*
 * bm_ib.c — Cisco Intelligent Buffer as the ABM paper configures it: Dynamic Thresholds
 * followed by Approximate Fair Drop (AFD), "the typical hierarchical scheme" (ABM §4.1; the
 * constants of the artifact's GenQueueDisc, inet-tub/ns3-datacenter gen-queue-disc.cc).
 * docs/schemes/ib.md has the full description.
 *
 * Admission, on pre-arrival counters (q = egress queue, Q = occupancy, B = buffer, L = units):
 *   1. drop buffer_full iff Q + L > B;  drop threshold iff q + L > α_p·(B − Q)      (DT)
 *   2. AFD: if q > desired and U(0,1) < p, drop aqm, where
 *          p = max(0, 1 − min(s·M, M_fair)/(s·M))          (s = rate_scale = 15)
 *      and M is the arriving packet's arrival count in the last AFD window: of its egress queue
 *      (afd_mode = queue, the artifact) or of its flow if the flow is an elephant (afd_mode =
 *      flow, Cisco's intent and the default; mice are never dropped by AFD).
 * Every arrival is measured before the decision, also the ones DT or AFD then refuse (as the
 * artifact does). Random draws come from mmu->rng, only when 0 < p < 1.
 *
 * Control loop, every window_us per egress queue of this MMU (one timer per MMU):
 *          M_fair ← max(0, M_fair − a1·(Q_now − Q_ref) + a2·(Q_old − Q_ref)),  Q_old ← Q_now
 * a PI controller that drives M_fair down while the queue stays above Q_ref and up below it.
 * afd_update = tick (default) updates every queue every period, as a hardware timer does;
 * afd_update = active updates only the ports that saw an arrival in the period, which is what
 * the artifact's update — run lazily by the first arrival after the window — amounts to.
 * To keep an idle network from holding an event every 50 µs forever, the timer stops at a tick
 * that finds the MMU empty with no arrival in the window just closed, and the next arrival
 * replays the skipped ticks in closed form (an empty queue adds (a1 − a2)·Q_ref per tick), so
 * the state is exactly what a free-running timer would have produced.
 *
 * DPP (dynamic packet prioritisation: a flow's first packets go to priority queue 0) is left
 * out: it moves packets to another egress queue, and the MMU only admits or refuses a packet
 * into the queue the embedder chose (docs/mmu.md §5 item 9). The ABM runs disable it too.
 */
#include "mmu/bm_ib.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/util.h"

enum { IB_TIMER_AFD = 0 };

static const char *const ib_afd_mode_choices[] = { "flow", "queue", NULL };
static const char *const ib_afd_update_choices[] = { "tick", "active", NULL };

#define IB(f) offsetof(struct sb_ib_state, f)
static const struct sb_param ib_params[] = {
	{ "alpha", SB_P_PRIO, IB(alpha), "0.5", 0.0, 1e6, "", NULL,
	  "DT α per priority: threshold = α · (buffer − occupancy) (ABM paper: 0.5)" },
	{ "afd", SB_P_BOOL, IB(afd), "true", 0, 0, "", NULL, "run AFD after DT (false: IB = DT)" },
	{ "afd_mode", SB_P_ENUM, IB(afd_mode), "flow", 0, 0, "", ib_afd_mode_choices,
	  "flow = per-flow arrival rate, elephants only (Cisco's intent); queue = per-queue rate, "
	  "every packet (the ABM artifact)" },
	{ "afd_update", SB_P_ENUM, IB(afd_update), "tick", 0, 0, "", ib_afd_update_choices,
	  "tick = every period updates every queue (a hardware timer); active = only the queues of "
	  "ports that saw an arrival in the period (the artifact updates on arrivals)" },
	{ "window_us", SB_P_DOUBLE, IB(window_us), "50", 0.001, 1e6, "us", NULL,
	  "AFD period: M_fair update and rate measurement window (Cisco ultra-burst profile)" },
	{ "a1", SB_P_DOUBLE, IB(a1), "1.8", 0, 1e6, "", NULL, "AFD gain on (Q_now − Q_ref)" },
	{ "a2", SB_P_DOUBLE, IB(a2), "1.7", 0, 1e6, "", NULL, "AFD gain on (Q_old − Q_ref)" },
	{ "qref_bytes", SB_P_INT, IB(qref_bytes), "100000", 0, 1e15, "bytes", NULL,
	  "Q_ref, the queue length AFD steers to (artifact: one BDP)" },
	{ "desired_bytes", SB_P_INT, IB(desired_bytes), "153600", 0, 1e15, "bytes", NULL,
	  "AFD drops only while the queue holds more than this (Cisco queue-desired, 150 KiB at 10G)" },
	{ "mfair_init", SB_P_DOUBLE, IB(mfair_init), "4000000", 0, 1e18, "bytes", NULL,
	  "M_fair of every queue at start" },
	{ "rate_scale", SB_P_DOUBLE, IB(rate_scale), "15", 1e-9, 1e9, "", NULL,
	  "s in p = 1 − min(s·M, M_fair)/(s·M) (artifact: 15)" },
	{ "mfair_max", SB_P_DOUBLE, IB(mfair_max), "0", 0, 1e18, "bytes", NULL,
	  "upper clamp of M_fair against wind-up while queues stay below Q_ref; 0 = none (artifact)" },
	{ "elephant_bytes", SB_P_INT, IB(elephant_bytes), "100000", 0, 4e9, "bytes", NULL,
	  "afd_mode = flow: a flow is an elephant once it sent this many bytes since it was last "
	  "idle (artifact's short-flow bound: 72 packets ≈ one BDP)" },
	{ "elephant_idle_us", SB_P_DOUBLE, IB(elephant_idle_us), "5000", 0, 1e9, "us", NULL,
	  "afd_mode = flow: a flow idle for longer than this is a mouse again (artifact DppWindow)" },
	{ "table_slots", SB_P_INT, IB(table_slots), "16384", 1, 1e7, "", NULL,
	  "afd_mode = flow: slots of the per-flow table (a power of two, 32 bytes each, per MMU); "
	  "flows hashing to a busy slot share it" },
	SB_PARAM_END
};

double sb_ib_afd_drop_prob(double mfair, double m_last, double rate_scale)
{
	double rate = rate_scale * m_last;
	if (rate <= mfair)
		return 0.0;
	return 1.0 - mfair / rate;
}

double sb_ib_mfair_step(double mfair, double q_now, double q_old, double q_ref, double a1, double a2,
			double cap)
{
	double v = mfair - a1 * (q_now - q_ref) + a2 * (q_old - q_ref);
	if (v < 0)
		v = 0;
	if (cap > 0 && v > cap)
		v = cap;
	return v;
}

static int ib_init(struct sb_mmu *m, struct sb_error *err)
{
	struct sb_ib_state *s = sb_mmu_state(m);
	if (!s->afd)
		return 0;
	if (!m->env.arm_timer)
		return sb_fail(err, "ib: AFD needs timers (env.arm_timer); set afd = false to run DT alone");
	s->window = sb_time_from_us(s->window_us);
	s->elephant_idle = sb_time_from_us(s->elephant_idle_us);
	if (s->window == 0)
		return sb_fail(err, "ib: window_us = %g is shorter than a picosecond", s->window_us);
	/* Everything in MMU units (bytes, or cells), like the counters it is compared with. */
	s->unit_bytes = m->cell_bytes ? (double)m->cell_bytes : 1.0;
	s->qref = (double)s->qref_bytes / s->unit_bytes;
	s->desired = (uint64_t)s->desired_bytes / (m->cell_bytes ? m->cell_bytes : 1);
	s->mfair_cap = s->mfair_max / s->unit_bytes;
	s->nq = (size_t)m->nports * SB_MMU_NPRIO;
	s->mfair = sb_xcalloc(s->nq, sizeof(*s->mfair));
	s->qold = sb_xcalloc(s->nq, sizeof(*s->qold));
	s->m_cur = sb_xcalloc(s->nq, sizeof(*s->m_cur));
	s->m_last = sb_xcalloc(s->nq, sizeof(*s->m_last));
	s->afd_drops = sb_xcalloc(s->nq, sizeof(*s->afd_drops));
	s->port_active = sb_xcalloc(m->nports, sizeof(*s->port_active));
	double mfair0 = s->mfair_init / s->unit_bytes;
	if (s->mfair_cap > 0 && mfair0 > s->mfair_cap)
		mfair0 = s->mfair_cap;
	for (size_t i = 0; i < s->nq; i++)
		s->mfair[i] = mfair0;
	if (s->afd_mode == SB_IB_AFD_FLOW) {
		uint64_t n = (uint64_t)s->table_slots;
		if (n & (n - 1))
			return sb_fail(err, "ib: table_slots = %lld is not a power of two", (long long)s->table_slots);
		s->mask = (uint32_t)(n - 1);
		s->flows = sb_xcalloc(n, sizeof(*s->flows));
	}
	s->last_tick = sb_mmu_now(m);
	s->ticking = true;
	sb_mmu_arm_timer(m, s->last_tick + s->window, IB_TIMER_AFD);
	return 0;
}

static void ib_fini(struct sb_mmu *m)
{
	struct sb_ib_state *s = sb_mmu_state(m);
	free(s->mfair);
	free(s->qold);
	free(s->m_cur);
	free(s->m_last);
	free(s->afd_drops);
	free(s->flows);
	free(s->port_active);
	s->port_active = NULL;
	s->mfair = NULL;
	s->qold = s->m_cur = s->m_last = s->afd_drops = NULL;
	s->flows = NULL;
}

/* One AFD period for every egress queue of this MMU. */
static void ib_tick(struct sb_mmu *m, struct sb_ib_state *s)
{
	s->epoch++;
	s->ticks_run++;
	for (uint16_t port = m->port_lo; port < m->port_hi; port++) {
		if (s->afd_update == SB_IB_UPDATE_ACTIVE && !s->port_active[port])
			continue; /* no arrival: the artifact would not have run its update */
		s->port_active[port] = 0;
		for (uint8_t prio = 0; prio < SB_MMU_NPRIO; prio++) {
			size_t qi = sb_mmu_qi(port, prio);
			uint64_t q_now = m->q_egr[qi];
			s->mfair[qi] = sb_ib_mfair_step(s->mfair[qi], (double)q_now, (double)s->qold[qi], s->qref,
							s->a1, s->a2, s->mfair_cap);
			s->qold[qi] = q_now;
			s->m_last[qi] = s->m_cur[qi];
			s->m_cur[qi] = 0;
		}
	}
}

static void ib_on_timer(struct sb_mmu *m, unsigned timer_id)
{
	struct sb_ib_state *s = sb_mmu_state(m);
	if (!s->afd || timer_id != IB_TIMER_AFD || !s->ticking)
		return;
	s->last_tick += s->window; /* the scheduled instant, whatever the embedder's lateness */
	ib_tick(m, s);
	if (m->used == 0 && !s->arrivals_in_window) {
		/* Idle: stop; the next arrival replays the skipped ticks (ib_wake). */
		s->ticking = false;
	} else {
		sb_mmu_arm_timer(m, s->last_tick + s->window, IB_TIMER_AFD);
	}
	s->arrivals_in_window = false;
}

/* First arrival after the timer stopped: apply the k ticks a free-running timer would have
 * run in (last_tick, now]. Every queue was empty at the stopping tick and no packet arrived
 * since, so each skipped tick saw Q_now = Q_old = 0 and no arrivals: M_fair moves by
 * (a1 − a2)·Q_ref per tick (monotone, so the clamps apply once), the rate windows stay empty. */
static void ib_wake(struct sb_mmu *m, struct sb_ib_state *s, sb_time now)
{
	uint64_t k = now > s->last_tick ? (now - s->last_tick) / s->window : 0;
	if (k > 0 && s->afd_update == SB_IB_UPDATE_TICK) {
		double shift = (double)k * (s->a1 - s->a2) * s->qref;
		for (uint16_t port = m->port_lo; port < m->port_hi; port++)
			for (uint8_t prio = 0; prio < SB_MMU_NPRIO; prio++) {
				size_t qi = sb_mmu_qi(port, prio);
				double v = s->mfair[qi] + shift;
				if (v < 0)
					v = 0;
				if (s->mfair_cap > 0 && v > s->mfair_cap)
					v = s->mfair_cap;
				s->mfair[qi] = v;
			}
	}
	/* (with afd_update = active, ticks without arrivals change nothing but the clock) */
	s->epoch += k;
	s->last_tick += k * s->window;
	s->ticks_skipped += k;
	s->ticking = true;
	sb_mmu_arm_timer(m, s->last_tick + s->window, IB_TIMER_AFD);
}

static inline uint32_t sat_add32(uint32_t a, uint64_t b)
{
	uint64_t v = (uint64_t)a + b;
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* Flow mode: count the arrival into its flow's slot; returns the slot. */
static struct sb_ib_flow *ib_count_flow(struct sb_ib_state *s, const struct sb_mmu_pkt *pkt, sb_time now)
{
	struct sb_ib_flow *f = &s->flows[pkt->flow_hash & s->mask];
	bool shared, reset;
	sb_flow_meter_count(&f->meter, pkt->flow_hash, pkt->bytes, now, s->elephant_idle, &shared, &reset);
	s->shared_arrivals += shared;
	if (f->epoch != s->epoch) {
		/* roll the rate windows lazily: the table is never iterated */
		f->m_last = f->epoch + 1 == s->epoch ? f->m_cur : 0;
		f->m_cur = 0;
		f->epoch = s->epoch;
	}
	f->m_cur = sat_add32(f->m_cur, pkt->units);
	return f;
}

static enum sb_drop_cause ib_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct sb_ib_state *s = sb_mmu_state(m);
	size_t qi = sb_mmu_qi(pkt->out_port, pkt->prio);
	uint64_t q = m->q_egr[qi];
	double rate = 0; /* M of the arriving packet; 0 = AFD does not apply */
	if (s->afd) {
		sb_time now = sb_mmu_now(m);
		if (!s->ticking)
			ib_wake(m, s, now);
		s->arrivals_in_window = true;
		s->port_active[pkt->out_port] = 1;
		if (s->afd_mode == SB_IB_AFD_QUEUE) {
			s->m_cur[qi] += pkt->units;
			/* the artifact's guard against a zero rate: M is at least 1 */
			rate = s->m_last[qi] ? (double)s->m_last[qi] : 1.0;
		} else {
			const struct sb_ib_flow *f = ib_count_flow(s, pkt, now);
			if ((int64_t)f->meter.bytes >= s->elephant_bytes)
				rate = (double)f->m_last;
		}
	}
	if (m->used + pkt->units > m->buffer)
		return SB_DROP_BUFFER_FULL;
	if (q + pkt->units > sb_mmu_scale(s->alpha[pkt->prio], m->buffer - m->used))
		return SB_DROP_THRESHOLD;
	if (s->afd && q > s->desired && rate > 0) {
		double p = sb_ib_afd_drop_prob(s->mfair[qi], rate, s->rate_scale);
		if (p > 0 && (p >= 1 || sb_rng_uniform(&m->rng) < p)) {
			s->afd_drops[qi]++;
			return SB_DROP_AQM;
		}
	}
	return SB_ADMIT;
}

/* The flow table, counted as 32 bytes a slot (a slot rounded up, the same for fab and ib) in
 * every mode: an estimate that errs on the large side. */
static double ib_state_bytes(const void *state, const char **key, char *what, size_t n)
{
	const struct sb_ib_state *s = state;
	*key = "table_slots";
	snprintf(what, n, "flow tables of %.0f slots", (double)s->table_slots);
	return (double)s->table_slots * 32.0;
}

const struct sb_bm_ops sb_bm_ib = {
	.name = "ib",
	.summary = "Cisco Intelligent Buffer: DT, then AFD (approximate fair drop) above queue-desired",
	.params = ib_params,
	.state_size = sizeof(struct sb_ib_state),
	.init = ib_init,
	.admit = ib_admit,
	.on_timer = ib_on_timer,
	.fini = ib_fini,
	.state_bytes = ib_state_bytes,
};
