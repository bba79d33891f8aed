/*
 * bm_sonic.c — the SONiC buffer model: ingress and egress pools, PFC headroom, Dynamic
 * Thresholds per counter view, or "ABM extended to lossless" (docs/schemes/sonic.md; Reverie
 * §2.2 and §4.1, artifact details from inet-tub/ns3-datacenter's SwitchMmu,
 * simulator/ns-3.39/src/point-to-point/model/switch-mmu.cc).
 *
 * Every packet is stored once and counted twice: in its ingress queue (s, p) and in its
 * egress queue (d, p) — the core's q_ing and q_egr. On top of them SONiC keeps four pools:
 *
 *   ingress pool      b_ing = b − b_h     every packet, lossless ones only while not in headroom;
 *                                         occupancy Q − q_h (− the lossless reserves)
 *   headroom pool     b_h = Σ xoff        lossless packets of paused queues (pfc_ingress.c)
 *   egress lossless   b•_egr = b          lossless packets
 *   egress lossy      b°_egr = 0.8·b_ing  lossy packets
 *
 * and one threshold per counter view, Eq. (1):  Γ = α · (pool size − pool occupancy), with α
 * per class and view. The operators' three heuristics (Reverie §2.2.2) make two of the four
 * thresholds "infinite" (α = 10000): lossless traffic is controlled only at ingress, by PFC,
 * and lossy traffic only at egress, by drops.
 *
 * A packet must pass both the ingress and the egress check, on pre-arrival counters. A lossless
 * packet is never dropped by the ingress threshold: after the ingress increment the threshold
 * is recomputed and, if the queue exceeds it, the packet goes to headroom and the queue pauses
 * its upstream. Departures drain headroom first; RESUME follows the artifact's XON hysteresis.
 * The order of these steps is the artifact's to the letter (SwitchNode and SwitchMmu), because
 * it decides which threshold value each test sees.
 *
 * policy = abm replaces Eq. (1) by ABM's threshold within the same pools (Reverie §4.1):
 *   Γ = α' · (pool size − pool occupancy) · (1/n_p) · μ(i,p)
 * α' = alpha_high for packets tagged unscheduled (first RTT), n_p the fractional count of
 * saturated queues of the view and priority, μ the queue's normalised drain rate over the last
 * interval. n_p is refreshed lazily, one queue at a time when its threshold is evaluated; μ by a
 * timer that visits only the queues that sent something (so an idle switch has no events).
 */
#include "mmu/bm_sonic.h"

#include <stddef.h>
#include <stdlib.h>
#include "core/util.h"

enum { LL = 0, LY = 1 };   /* class: lossless, lossy */
enum { ING = 0, EGR = 1 }; /* counter view */
enum { POLICY_DT = 0, POLICY_ABM };

static const char *const policy_choices[] = { "dt", "abm", NULL };

struct sonic_state {
	/* parameters */
	int policy;
	int64_t ingress_pool_bytes;
	double lossy_pool_fraction;
	int64_t lossy_pool_bytes;
	int64_t lossless_pool_bytes;
	double alpha_ll_ing[SB_MMU_NPRIO], alpha_ly_ing[SB_MMU_NPRIO];
	double alpha_ll_egr[SB_MMU_NPRIO], alpha_ly_egr[SB_MMU_NPRIO];
	double alpha_high;
	bool unsched_boost;
	int64_t sat_bytes;
	double interval_us;
	int64_t mu_queue_bytes, mu_deq_bytes;
	struct sb_pfc_ingress_params pfc_params;

	/* derived in init, in units */
	uint64_t b_ing;
	uint64_t pool_egr[2];       /* [class] */
	uint64_t lossless_limit;    /* b_ing + b_h */
	struct sb_pfc_ingress pfc;

	uint64_t egr_used[2];       /* [class] egress pool occupancies */

	/* policy = abm; arrays indexed view · nq + queue */
	size_t nq;
	sb_time interval;
	uint64_t sat_units, mu_queue_units;
	uint64_t *sat;              /* min(q, sat_units) at the queue's last threshold evaluation */
	uint64_t sat_sum[2][SB_MMU_NPRIO]; /* [view][prio]; integers, so the running sum never drifts */
	double *mu;
	uint64_t *tx;               /* bytes sent in the current interval */
	uint32_t *touched, ntouched;     /* queues with tx > 0 */
	uint32_t *nonunit, nnonunit;     /* queues with μ != 1 */
	bool tick_armed;
	uint64_t ticks;
};

#define ST(f) offsetof(struct sonic_state, f)
static const struct sb_param sonic_params[] = {
	{ "policy", SB_P_ENUM, ST(policy), "dt", 0, 0, "", policy_choices,
	  "threshold of every counter view: dt = Dynamic Thresholds, Eq. (1) (the paper's \"DT\"); abm = ABM "
	  "extended to lossless within the same pools (the paper's \"ABM\", §4.1)" },
	{ "ingress_pool_bytes", SB_P_INT, ST(ingress_pool_bytes), "0", 0, 1e15, "bytes", NULL,
	  "ingress pool b_ing; 0 = buffer − headroom pool (paper §4.1, heuristic H1 with equality)" },
	{ "lossy_pool_fraction", SB_P_DOUBLE, ST(lossy_pool_fraction), "0.8", 0, 1, "", NULL,
	  "egress lossy pool as a fraction of b_ing when lossy_pool_bytes = 0 (paper §4.1: 0.8; Fig. 9 sweeps 0.2-0.8)" },
	{ "lossy_pool_bytes", SB_P_INT, ST(lossy_pool_bytes), "0", 0, 1e15, "bytes", NULL,
	  "egress lossy pool b°_egr; 0 = lossy_pool_fraction × b_ing" },
	{ "lossless_pool_bytes", SB_P_INT, ST(lossless_pool_bytes), "0", 0, 1e15, "bytes", NULL,
	  "egress lossless pool b•_egr; 0 = the whole buffer (heuristic H2)" },
	{ "alpha_lossless_ingress", SB_P_PRIO, ST(alpha_ll_ing), "1", 0, 1e6, "", NULL,
	  "α of ingress lossless queues: the PFC threshold (paper §4.1: 1)" },
	{ "alpha_lossy_ingress", SB_P_PRIO, ST(alpha_ly_ing), "10000", 0, 1e6, "", NULL,
	  "α of ingress lossy queues (heuristic H3: infinite; artifact 10000)" },
	{ "alpha_lossless_egress", SB_P_PRIO, ST(alpha_ll_egr), "10000", 0, 1e6, "", NULL,
	  "α of egress lossless queues (heuristic H2: infinite; artifact 10000)" },
	{ "alpha_lossy_egress", SB_P_PRIO, ST(alpha_ly_egr), "1", 0, 1e6, "", NULL,
	  "α of egress lossy queues: the drop threshold (paper §4.1: 1)" },
	{ "alpha_high", SB_P_DOUBLE, ST(alpha_high), "1024", 0, 1e6, "", NULL,
	  "policy = abm: α of packets tagged unscheduled (first RTT), in every view (artifact 1024)" },
	{ "unsched_boost", SB_P_BOOL, ST(unsched_boost), "true", 0, 0, "", NULL,
	  "policy = abm: honour the unscheduled tag (artifact: on for both classes)" },
	{ "sat_bytes", SB_P_INT, ST(sat_bytes), "20480", 1, 1e12, "bytes", NULL,
	  "policy = abm: queue length counted as one whole congested queue in n_p = max(1, Σ min(1, q/sat_bytes)) (artifact 20 KiB)" },
	{ "interval_us", SB_P_DOUBLE, ST(interval_us), "17.28", 0.001, 1e9, "us", NULL,
	  "policy = abm: period of the drain-rate (μ) measurement; the artifact uses the largest base RTT "
	  "of the topology (17.28 µs in the Reverie evaluation): set it to the scenario's" },
	{ "mu_queue_bytes", SB_P_INT, ST(mu_queue_bytes), "20480", 0, 1e12, "bytes", NULL,
	  "policy = abm: μ = 1 unless the queue is longer than this (artifact 20 KiB) ..." },
	{ "mu_deq_bytes", SB_P_INT, ST(mu_deq_bytes), "2048", 0, 1e12, "bytes", NULL,
	  "... and sent more than this in the interval (artifact 2 KiB)" },
	SB_PFC_PARAMS(struct sonic_state, pfc_params),
	SB_PARAM_END
};

static inline uint64_t units_floor(const struct sb_mmu *m, uint64_t bytes)
{
	return m->cell_bytes ? bytes / m->cell_bytes : bytes;
}

static inline int class_of(const struct sb_mmu_pkt *pkt) { return sb_mmu_pkt_lossless(pkt) ? LL : LY; }

static inline const double *alpha_row(const struct sonic_state *s, int view, int cls)
{
	if (view == ING)
		return cls == LL ? s->alpha_ll_ing : s->alpha_ly_ing;
	return cls == LL ? s->alpha_ll_egr : s->alpha_ly_egr;
}

/* The ingress pool holds every packet except headroom and reserved bytes. */
static inline uint64_t ingress_pool_used(const struct sb_mmu *m, const struct sonic_state *s)
{
	return m->used - s->pfc.used - s->pfc.reserved_used;
}

/* Free space of the pool a view's threshold follows, clamped at 0 (artifact). */
static inline uint64_t remaining(const struct sb_mmu *m, const struct sonic_state *s, int view, int cls)
{
	uint64_t cap, occ;
	if (view == ING) {
		cap = s->b_ing - s->pfc.reserve_total;
		occ = ingress_pool_used(m, s);
	} else {
		cap = s->pool_egr[cls];
		occ = s->egr_used[cls];
	}
	return cap > occ ? cap - occ : 0;
}

/* policy = abm: refresh the queue's share of n_p from its length now and return n_p. */
static double abm_n(struct sonic_state *s, int view, size_t k, uint8_t prio, uint64_t q)
{
	uint64_t v = q < s->sat_units ? q : s->sat_units;
	s->sat_sum[view][prio] = s->sat_sum[view][prio] - s->sat[k] + v;
	s->sat[k] = v;
	double n = (double)s->sat_sum[view][prio] / (double)s->sat_units;
	return n > 1.0 ? n : 1.0;
}

/* The threshold of queue (port, prio) in `view` for a packet of class `cls`. */
static inline uint64_t threshold(const struct sb_mmu *m, struct sonic_state *s, int view, int cls, uint16_t port,
				 uint8_t prio, bool unsched)
{
	double a = alpha_row(s, view, cls)[prio];
	if (s->policy == POLICY_ABM) {
		size_t qi = sb_mmu_qi(port, prio), k = (size_t)view * s->nq + qi;
		if (unsched && s->unsched_boost)
			a = s->alpha_high;
		a = a / abm_n(s, view, k, prio, view == ING ? m->q_ing[qi] : m->q_egr[qi]) * s->mu[k];
	}
	return sb_mmu_scale(a, remaining(m, s, view, cls));
}

static void arm_next_tick(struct sb_mmu *m, struct sonic_state *s)
{
	s->tick_armed = true;
	sb_mmu_arm_timer(m, (sb_mmu_now(m) / s->interval + 1) * s->interval, 0);
}

static int sonic_init(struct sb_mmu *m, struct sb_error *err)
{
	struct sonic_state *s = sb_mmu_state(m);
	if (sb_pfc_init(&s->pfc, &s->pfc_params, m, "sonic", err))
		return -1;
	uint64_t b_h = s->pfc.pool;
	if (b_h >= m->buffer)
		return sb_fail(err, "sonic: the headroom pool (%llu units: %lld priorities × the headroom of %u ports) "
				    "leaves no ingress pool in a buffer of %llu units; expected a smaller headroom or "
				    "headroom_prios",
			       (unsigned long long)b_h, (long long)s->pfc_params.headroom_prios, m->nports,
			       (unsigned long long)m->buffer);
	s->b_ing = s->ingress_pool_bytes ? units_floor(m, (uint64_t)s->ingress_pool_bytes) : m->buffer - b_h;
	if (s->b_ing + b_h > m->buffer)
		return sb_fail(err, "sonic: ingress_pool_bytes = %lld plus the headroom pool (%llu units) exceed the "
				    "buffer of %llu units; expected at most %llu (heuristic H1: b_ing + b_h <= b)",
			       (long long)s->ingress_pool_bytes, (unsigned long long)b_h,
			       (unsigned long long)m->buffer, (unsigned long long)(m->buffer - b_h));
	if (s->pfc.reserve_total >= s->b_ing)
		return sb_fail(err, "sonic: reserved_bytes = %lld on every lossless queue (%llu units) leaves no "
				    "ingress pool of %llu units",
			       (long long)s->pfc_params.reserved_bytes, (unsigned long long)s->pfc.reserve_total,
			       (unsigned long long)s->b_ing);
	s->pool_egr[LY] = s->lossy_pool_bytes ? units_floor(m, (uint64_t)s->lossy_pool_bytes)
					      : (uint64_t)(s->lossy_pool_fraction * (double)s->b_ing + 0.5);
	s->pool_egr[LL] = s->lossless_pool_bytes ? units_floor(m, (uint64_t)s->lossless_pool_bytes) : m->buffer;
	s->lossless_limit = s->b_ing + b_h;
	s->nq = (size_t)m->nports * SB_MMU_NPRIO;
	if (s->policy != POLICY_ABM)
		return 0;
	if (!m->env.arm_timer)
		return sb_fail(err, "sonic: policy = abm measures drain rates with a timer, but the embedder offers none");
	s->interval = sb_time_from_us(s->interval_us);
	if (s->interval < 1)
		return sb_fail(err, "sonic: interval_us = %g is shorter than a picosecond", s->interval_us);
	s->sat_units = units_floor(m, (uint64_t)s->sat_bytes);
	if (!s->sat_units)
		s->sat_units = 1;
	s->mu_queue_units = units_floor(m, (uint64_t)s->mu_queue_bytes);
	s->sat = sb_xcalloc(2 * s->nq, sizeof(*s->sat));
	s->mu = sb_xcalloc(2 * s->nq, sizeof(*s->mu));
	s->tx = sb_xcalloc(2 * s->nq, sizeof(*s->tx));
	s->touched = sb_xcalloc(2 * s->nq, sizeof(*s->touched));
	s->nonunit = sb_xcalloc(2 * s->nq, sizeof(*s->nonunit));
	for (size_t k = 0; k < 2 * s->nq; k++)
		s->mu[k] = 1.0;
	return 0;
}

static void sonic_fini(struct sb_mmu *m)
{
	struct sonic_state *s = sb_mmu_state(m);
	sb_pfc_fini(&s->pfc);
	free(s->sat);
	free(s->mu);
	free(s->tx);
	free(s->touched);
	free(s->nonunit);
	s->sat = s->tx = NULL;
	s->mu = NULL;
	s->touched = s->nonunit = NULL;
}

static void sonic_check(const struct sb_mmu *m, const struct sonic_state *s)
{
	struct sb_error err = { "" };
	if (sb_pfc_check(&s->pfc, m, &err) == 0) {
		if (s->egr_used[LL] + s->egr_used[LY] != m->used)
			sb_fail(&err, "egress pools hold %llu + %llu units, the buffer %llu",
				(unsigned long long)s->egr_used[LL], (unsigned long long)s->egr_used[LY],
				(unsigned long long)m->used);
		else if (s->egr_used[LL] != s->pfc.held_total)
			sb_fail(&err, "egress lossless pool holds %llu units, the ingress queues %llu",
				(unsigned long long)s->egr_used[LL], (unsigned long long)s->pfc.held_total);
		else
			return;
	}
	fprintf(stderr, "sharebuf: MMU %u (sonic): %s\n", m->id, err.msg);
	abort();
}

/*
 * Both checks on pre-arrival counters, ingress first (the artifact evaluates the egress check
 * only when the ingress check passed, which matters for n_p refreshes). Causes: the physical
 * buffer first, then the pools, then the thresholds.
 */
static enum sb_drop_cause sonic_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct sonic_state *s = sb_mmu_state(m);
	int cls = class_of(pkt);
	bool unsched = pkt->tags & SB_MT_FIRST_RTT;
	uint64_t z = pkt->units;
	if (cls == LL) {
		/* never a threshold drop: only headroom, the lossless limit and the buffer */
		enum sb_drop_cause why = sb_pfc_admit(&s->pfc, m, pkt, s->lossless_limit);
		if (why != SB_ADMIT)
			return why;
	} else {
		uint64_t t = threshold(m, s, ING, LY, pkt->in_port, pkt->prio, unsched);
		if (m->used + z > m->buffer)
			return SB_DROP_BUFFER_FULL;
		/* The ingress pool less the lossless reserves (all of it with the evaluations' reserve
		 * of 0, the artifact's test): lossy traffic cannot take a reserve it does not own. */
		if (ingress_pool_used(m, s) + z > s->b_ing - s->pfc.reserve_total)
			return SB_DROP_POOL_FULL;
		if (m->q_ing[sb_mmu_qi(pkt->in_port, pkt->prio)] + z > t)
			return SB_DROP_THRESHOLD;
	}
	uint64_t t = threshold(m, s, EGR, cls, pkt->out_port, pkt->prio, unsched);
	if (s->egr_used[cls] + z > s->pool_egr[cls])
		return SB_DROP_POOL_FULL;
	if (m->q_egr[sb_mmu_qi(pkt->out_port, pkt->prio)] + z > t)
		return SB_DROP_THRESHOLD;
	return SB_ADMIT;
}

static void sonic_on_enqueue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct sonic_state *s = sb_mmu_state(m);
	int cls = class_of(pkt);
	if (cls == LL) {
		/* The PFC threshold sees the ingress counters with this packet already added. */
		uint64_t t = threshold(m, s, ING, LL, pkt->in_port, pkt->prio, pkt->tags & SB_MT_FIRST_RTT);
		sb_pfc_enqueue(&s->pfc, m, pkt, m->q_ing[sb_mmu_qi(pkt->in_port, pkt->prio)] > t);
	}
	s->egr_used[cls] += pkt->units;
	if (m->check_invariants)
		sonic_check(m, s);
}

static inline void count_tx(struct sonic_state *s, size_t k, uint32_t bytes)
{
	if (!s->tx[k])
		s->touched[s->ntouched++] = (uint32_t)k;
	s->tx[k] += bytes;
}

static void sonic_on_dequeue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_release_reason why)
{
	struct sonic_state *s = sb_mmu_state(m);
	int cls = class_of(pkt);
	uint16_t in = pkt->in_port;
	uint8_t prio = pkt->prio;
	if (cls == LL)
		sb_pfc_dequeue(&s->pfc, pkt);
	s->egr_used[cls] -= pkt->units;
	if (s->policy == POLICY_ABM && why == SB_RELEASE_TX) {
		count_tx(s, sb_mmu_qi(in, prio), pkt->bytes);
		count_tx(s, s->nq + sb_mmu_qi(pkt->out_port, prio), pkt->bytes);
		if (!s->tick_armed)
			arm_next_tick(m, s);
	}
	/* RESUME: headroom empty and the queue below XON, or XON_OFFSET under its threshold
	 * computed without the unscheduled boost. */
	if (sb_pfc_resume_due(&s->pfc, in, prio)) {
		uint64_t x = m->q_ing[sb_mmu_qi(in, prio)];
		if (x < s->pfc.xon || x + s->pfc.xon_offset <= threshold(m, s, ING, LL, in, prio, false))
			sb_pfc_resume(&s->pfc, m, in, prio);
	}
	if (m->check_invariants)
		sonic_check(m, s);
}

/*
 * policy = abm, every interval: μ of each queue that sent something is its dequeue rate over
 * the interval normalised by its port's line rate, or 1 when the queue is short or sent little
 * (artifact). Queues that sent nothing get μ = 1 too; they are the ones on the `nonunit` list
 * from the previous tick, so a tick costs the active queues only. A tick that finds nothing sent
 * leaves every μ at 1, which later ticks would repeat until a departure: the timer stops and the
 * next departure re-arms it at the next multiple of the interval.
 */
static void sonic_on_timer(struct sb_mmu *m, unsigned timer_id)
{
	struct sonic_state *s = sb_mmu_state(m);
	(void)timer_id;
	s->tick_armed = false;
	s->ticks++;
	for (uint32_t i = 0; i < s->nnonunit; i++)
		s->mu[s->nonunit[i]] = 1.0;
	s->nnonunit = 0;
	double seconds = (double)s->interval * 1e-12;
	for (uint32_t i = 0; i < s->ntouched; i++) {
		size_t k = s->touched[i], qi = k % s->nq;
		uint64_t q = k < s->nq ? m->q_ing[qi] : m->q_egr[qi];
		double rate = (double)m->port_rate_bps[qi / SB_MMU_NPRIO], mu = 1.0;
		if (rate > 0 && q > s->mu_queue_units && s->tx[k] > (uint64_t)s->mu_deq_bytes)
			mu = (double)s->tx[k] * 8.0 / seconds / rate;
		s->mu[k] = mu;
		if (mu != 1.0)
			s->nonunit[s->nnonunit++] = (uint32_t)k;
		s->tx[k] = 0;
	}
	bool active = s->ntouched > 0;
	s->ntouched = 0;
	if (active)
		arm_next_tick(m, s);
}

const struct sb_bm_ops sb_bm_sonic = {
	.name = "sonic",
	.summary = "SONiC pools (ingress, headroom, egress lossless/lossy) with PFC; DT or ABM per view",
	.lossless = true,
	.params = sonic_params,
	.state_size = sizeof(struct sonic_state),
	.init = sonic_init,
	.admit = sonic_admit,
	.on_enqueue = sonic_on_enqueue,
	.on_dequeue = sonic_on_dequeue,
	.on_timer = sonic_on_timer,
	.fini = sonic_fini,
};

/* --- read-only views (bm_sonic.h) --- */

static const struct sonic_state *sonic_of(const struct sb_mmu *m)
{
	return m && m->ops->params == sonic_params && ((const struct sonic_state *)sb_mmu_state(m))->pfc.q ? sb_mmu_state(m)
													: NULL;
}

bool sb_sonic_pools(const struct sb_mmu *m, struct sb_sonic_pools *out)
{
	const struct sonic_state *s = sonic_of(m);
	if (!s)
		return false;
	*out = (struct sb_sonic_pools){
		.b_ing = s->b_ing, .b_h = s->pfc.pool,
		.b_egr_lossless = s->pool_egr[LL], .b_egr_lossy = s->pool_egr[LY],
		.q_ing = ingress_pool_used(m, s), .q_h = s->pfc.used,
		.q_egr_lossless = s->egr_used[LL], .q_egr_lossy = s->egr_used[LY],
	};
	return true;
}

const struct sb_pfc_ingress *sb_sonic_pfc(const struct sb_mmu *m)
{
	const struct sonic_state *s = sonic_of(m);
	return s ? &s->pfc : NULL;
}

double sb_sonic_abm_n(const struct sb_mmu *m, bool egress, uint8_t prio)
{
	const struct sonic_state *s = sonic_of(m);
	if (!s || s->policy != POLICY_ABM)
		return 1.0;
	double n = (double)s->sat_sum[egress ? EGR : ING][prio & 7] / (double)s->sat_units;
	return n > 1.0 ? n : 1.0;
}

double sb_sonic_abm_mu(const struct sb_mmu *m, bool egress, uint16_t port, uint8_t prio)
{
	const struct sonic_state *s = sonic_of(m);
	if (!s || s->policy != POLICY_ABM || port >= m->nports)
		return 1.0;
	return s->mu[(egress ? s->nq : 0) + sb_mmu_qi(port, prio & 7)];
}
