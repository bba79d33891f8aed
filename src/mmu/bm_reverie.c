/*
 * bm_reverie.c — Reverie (Addanki et al., NSDI'24): one shared pool for lossless and lossy
 * traffic, thresholds on low-pass-filtered queue lengths (docs/schemes/reverie.md; the paper's
 * §3 and Appendix B, artifact details from inet-tub/ns3-datacenter's SwitchMmu with
 * bufferModel = "reverie", simulator/ns-3.39/src/point-to-point/model/switch-mmu.cc).
 *
 * Each packet is counted once: a lossless packet in its ingress queue (s, p), a lossy one in
 * its egress queue (d, p) — the core keeps both views, the scheme reads the right one. All of
 * them share one pool of size b* = b − b_h (plus the dedicated PFC headroom, pfc_ingress.c),
 * and every threshold follows its free space, Eq. (6):
 *
 *     Γ(i,p) = α_p / n_p · max(0, b* − q*)
 *
 * with q* = lossless bytes not in headroom + lossy bytes (= Q − q_h), and n_p the fractional
 * number of congested queues of the packet's class and priority, Σ min(1, q̂/CI). Each queue
 * has a low-pass filter q̂ = γ·q̂ + (1−γ)·q, updated on each of its departures (artifact) and
 * clamped to the queue length, so it rises slowly and falls at once: a burst reaches the
 * threshold later than steady congestion does (Property 1: the threshold grows with the
 * smoothed growth rate).
 *
 *   lossy     drop if L + q̂_egr > Γ (α_high for unscheduled packets), or q* + L > b*;
 *   lossless  never a threshold drop; after the shared-pool increment, if q̂_ing > Γ the
 *             packet goes to headroom and the queue pauses its upstream; RESUME when its
 *             headroom is empty and q̂_ing < XON or q̂_ing + XON_OFFSET <= Γ.
 *
 * Theorem 1: under contention lossless and lossy get α•:α° of the buffer whatever the numbers
 * of queues, because n_p queues of a class at α/n_p·(b* − q*) sum to α·(b* − q*).
 */
#include "mmu/bm_reverie.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "core/util.h"

enum { LL = 0, LY = 1 }; /* lossless ingress queues, lossy egress queues */
enum { LPF_DEQUEUE = 0, LPF_ARRIVAL_DEQUEUE, LPF_TIMER };

static const char *const lpf_update_choices[] = { "dequeue", "arrival_dequeue", "timer", NULL };

struct reverie_state {
	/* parameters */
	double gamma;
	double alpha_ll[SB_MMU_NPRIO], alpha_ly[SB_MMU_NPRIO];
	double alpha_high;
	bool unsched_boost;
	int64_t ci_bytes;
	int lpf_update;
	bool np_refresh_on_dequeue;
	bool pause_on_full_pool;
	int64_t shared_pool_bytes;
	struct sb_pfc_ingress_params pfc_params;

	/* derived in init, in units */
	uint64_t b_shared;        /* b* */
	uint64_t lossless_limit;  /* b* + b_h */
	uint64_t ci_units;
	struct sb_pfc_ingress pfc;
	size_t nq;

	/* per queue, indexed class · nq + queue (lossless: ingress queue, lossy: egress queue) */
	double *lpf;
	uint64_t *sat;            /* min(q̂, CI) at the queue's last refresh, whole units */
	uint64_t sat_sum[2][SB_MMU_NPRIO];
	uint64_t *tick;           /* lpf_update = timer: last filter tick applied */
	sb_time *period;          /* lpf_update = timer: one MTU time at each port's rate */
};

#define ST(f) offsetof(struct reverie_state, f)
static const struct sb_param reverie_params[] = {
	{ "gamma", SB_P_DOUBLE, ST(gamma), "0.999", 0, 0.999999, "", NULL,
	  "low-pass filter gain γ: q̂ = γ·q̂ + (1−γ)·q; higher absorbs longer bursts (paper and artifact "
	  "runs: 0.999; Fig. 10 sweeps 0.8-0.999999)" },
	{ "alpha_lossless", SB_P_PRIO, ST(alpha_ll), "1", 0, 1e6, "", NULL,
	  "α• per priority of lossless (ingress) queues (paper §4.1: 1)" },
	{ "alpha_lossy", SB_P_PRIO, ST(alpha_ly), "1", 0, 1e6, "", NULL,
	  "α° per priority of lossy (egress) queues (paper §4.1: 1)" },
	{ "alpha_high", SB_P_DOUBLE, ST(alpha_high), "1024", 0, 1e6, "", NULL,
	  "α of lossy packets tagged unscheduled (first RTT): the artifact's burst boost, not in the paper" },
	{ "unsched_boost", SB_P_BOOL, ST(unsched_boost), "true", 0, 0, "", NULL,
	  "use alpha_high for unscheduled lossy packets (artifact: on; false = the paper's rule). Lossless "
	  "thresholds never use it" },
	{ "ci_bytes", SB_P_INT, ST(ci_bytes), "20480", 1, 1e12, "bytes", NULL,
	  "congestion indicator CI: a queue whose filtered length reaches it counts as one whole congested "
	  "queue in n_p = max(1, Σ min(1, q̂/CI)) (artifact 20 KiB)" },
	{ "lpf_update", SB_P_ENUM, ST(lpf_update), "dequeue", 0, 0, "", lpf_update_choices,
	  "when a queue's filter takes a sample: dequeue = after each of its departures (artifact); "
	  "arrival_dequeue = also after each admitted arrival; timer = every MTU time at the port's rate "
	  "(the artifact's disabled UpdateLpfCounters), computed in closed form at the queue's events" },
	{ "np_refresh_on_dequeue", SB_P_BOOL, ST(np_refresh_on_dequeue), "false", 0, 0, "", NULL,
	  "also refresh a queue's share of n_p after its departures (artifact: only when its threshold is "
	  "evaluated, so a drained lossy queue counts as congested until its next arrival)" },
	{ "pause_on_full_pool", SB_P_BOOL, ST(pause_on_full_pool), "true", 0, 0, "", NULL,
	  "a lossless packet that would take the shared pool beyond b* goes to headroom (pauses) even "
	  "if its queue's filter is still 0; false = artifact exact: such queues fill the headroom's "
	  "share of the buffer and can lose packets (deviation, docs/schemes/reverie.md)" },
	{ "shared_pool_bytes", SB_P_INT, ST(shared_pool_bytes), "0", 0, 1e15, "bytes", NULL,
	  "shared pool b*; 0 = buffer − headroom pool (paper §3.1)" },
	SB_PFC_PARAMS(struct reverie_state, pfc_params),
	SB_PARAM_END
};

static inline uint64_t units_floor(const struct sb_mmu *m, uint64_t bytes)
{
	return m->cell_bytes ? bytes / m->cell_bytes : bytes;
}

/* q*: the shared pool holds everything but headroom (and the lossless reserves). */
static inline uint64_t shared_used(const struct sb_mmu *m, const struct reverie_state *s)
{
	return m->used - s->pfc.used - s->pfc.reserved_used;
}

static inline uint64_t shared_cap(const struct reverie_state *s) { return s->b_shared - s->pfc.reserve_total; }

/* Refresh the queue's share of n_p from its filter and return n_p. */
static double refresh_n(struct reverie_state *s, int cls, size_t k, uint8_t prio)
{
	double f = s->lpf[k];
	uint64_t v = f >= (double)s->ci_units ? s->ci_units : (uint64_t)f;
	s->sat_sum[cls][prio] = s->sat_sum[cls][prio] - s->sat[k] + v;
	s->sat[k] = v;
	double n = (double)s->sat_sum[cls][prio] / (double)s->ci_units;
	return n > 1.0 ? n : 1.0;
}

/* Γ = α/n_p · max(0, b* − q*), refreshing the queue's share of n_p (artifact). */
static uint64_t threshold(const struct sb_mmu *m, struct reverie_state *s, int cls, size_t k, uint8_t prio,
			  double alpha)
{
	double n = refresh_n(s, cls, k, prio);
	uint64_t used = shared_used(m, s), cap = shared_cap(s);
	return sb_mmu_scale(alpha / n, cap > used ? cap - used : 0);
}

/* One filter sample: q̂ = γ·q̂ + (1−γ)·q, clamped to q (rises slowly, falls at once). */
static inline void lpf_sample(struct reverie_state *s, size_t k, uint64_t q)
{
	double v = s->gamma * s->lpf[k] + (1.0 - s->gamma) * (double)q;
	s->lpf[k] = (double)q < v ? (double)q : v;
}

/*
 * lpf_update = timer: apply the ticks since the queue's last event. Between two events of a
 * queue its length is constant (q_before), so k ticks give q − (q − q̂)·γ^k exactly, or q at the
 * first tick if q̂ was above it (the clamp). One pow per event instead of a timer per MTU time.
 */
static void lpf_catch_up(const struct sb_mmu *m, struct reverie_state *s, size_t k, uint16_t port,
			 uint64_t q_before)
{
	sb_time period = s->period[port];
	if (!period)
		return;
	uint64_t now = sb_mmu_now(m) / period, ticks = now - s->tick[k];
	s->tick[k] = now;
	if (!ticks)
		return;
	double q = (double)q_before;
	if (s->lpf[k] >= q)
		s->lpf[k] = q;
	else
		s->lpf[k] = q - (q - s->lpf[k]) * pow(s->gamma, (double)ticks);
}

static int reverie_init(struct sb_mmu *m, struct sb_error *err)
{
	struct reverie_state *s = sb_mmu_state(m);
	if (sb_pfc_init(&s->pfc, &s->pfc_params, m, "reverie", err))
		return -1;
	uint64_t b_h = s->pfc.pool;
	if (b_h >= m->buffer)
		return sb_fail(err, "reverie: the headroom pool (%llu units: %lld priorities × the headroom of %u ports) "
				    "leaves no shared pool in a buffer of %llu units; expected a smaller headroom or "
				    "headroom_prios",
			       (unsigned long long)b_h, (long long)s->pfc_params.headroom_prios, m->nports,
			       (unsigned long long)m->buffer);
	s->b_shared = s->shared_pool_bytes ? units_floor(m, (uint64_t)s->shared_pool_bytes) : m->buffer - b_h;
	if (s->b_shared + b_h > m->buffer)
		return sb_fail(err, "reverie: shared_pool_bytes = %lld plus the headroom pool (%llu units) exceed the "
				    "buffer of %llu units; expected at most %llu",
			       (long long)s->shared_pool_bytes, (unsigned long long)b_h, (unsigned long long)m->buffer,
			       (unsigned long long)(m->buffer - b_h));
	if (s->pfc.reserve_total >= s->b_shared)
		return sb_fail(err, "reverie: reserved_bytes = %lld on every lossless queue (%llu units) leaves no "
				    "shared pool of %llu units",
			       (long long)s->pfc_params.reserved_bytes, (unsigned long long)s->pfc.reserve_total,
			       (unsigned long long)s->b_shared);
	s->lossless_limit = s->b_shared + b_h;
	s->ci_units = units_floor(m, (uint64_t)s->ci_bytes);
	if (!s->ci_units)
		s->ci_units = 1;
	s->nq = (size_t)m->nports * SB_MMU_NPRIO;
	s->lpf = sb_xcalloc(2 * s->nq, sizeof(*s->lpf));
	s->sat = sb_xcalloc(2 * s->nq, sizeof(*s->sat));
	if (s->lpf_update == LPF_TIMER) {
		s->tick = sb_xcalloc(2 * s->nq, sizeof(*s->tick));
		s->period = sb_xcalloc(m->nports, sizeof(*s->period));
		for (uint16_t i = 0; i < m->nports; i++)
			s->period[i] = m->port_rate_bps[i] ? sb_tx_time(m->max_frame_bytes, m->port_rate_bps[i]) : 0;
	}
	return 0;
}

static void reverie_fini(struct sb_mmu *m)
{
	struct reverie_state *s = sb_mmu_state(m);
	sb_pfc_fini(&s->pfc);
	free(s->lpf);
	free(s->sat);
	free(s->tick);
	free(s->period);
	s->lpf = NULL;
	s->sat = s->tick = NULL;
	s->period = NULL;
}

static void reverie_check(const struct sb_mmu *m, const struct reverie_state *s)
{
	struct sb_error err = { "" };
	if (sb_pfc_check(&s->pfc, m, &err) == 0) {
		uint64_t sum[2][SB_MMU_NPRIO] = { { 0 } };
		for (size_t k = 0; k < 2 * s->nq; k++)
			sum[k / s->nq][k % SB_MMU_NPRIO] += s->sat[k];
		bool ok = true;
		for (int c = 0; c < 2; c++)
			for (int p = 0; p < SB_MMU_NPRIO; p++)
				ok = ok && sum[c][p] == s->sat_sum[c][p];
		if (ok)
			return;
		sb_fail(&err, "the n_p sums drifted from the queues' saturations");
	}
	fprintf(stderr, "sharebuf: MMU %u (reverie): %s\n", m->id, err.msg);
	abort();
}

static enum sb_drop_cause reverie_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct reverie_state *s = sb_mmu_state(m);
	if (sb_mmu_pkt_lossless(pkt)) /* lossless: no shared-pool or threshold test (artifact) */
		return sb_pfc_admit(&s->pfc, m, pkt, s->lossless_limit);
	size_t qi = sb_mmu_qi(pkt->out_port, pkt->prio), k = s->nq + qi;
	if (s->lpf_update == LPF_TIMER)
		lpf_catch_up(m, s, k, pkt->out_port, m->q_egr[qi]);
	double alpha = s->unsched_boost && (pkt->tags & SB_MT_FIRST_RTT) ? s->alpha_high : s->alpha_ly[pkt->prio];
	uint64_t t = threshold(m, s, LY, k, pkt->prio, alpha), z = pkt->units;
	if (m->used + z > m->buffer)
		return SB_DROP_BUFFER_FULL;
	if (shared_used(m, s) + z > shared_cap(s))
		return SB_DROP_POOL_FULL;
	if ((double)z + s->lpf[k] > (double)t)
		return SB_DROP_THRESHOLD;
	return SB_ADMIT;
}

static void reverie_on_enqueue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct reverie_state *s = sb_mmu_state(m);
	bool lossless = sb_mmu_pkt_lossless(pkt);
	uint16_t port = lossless ? pkt->in_port : pkt->out_port;
	size_t qi = sb_mmu_qi(port, pkt->prio), k = (lossless ? LL : LY) * s->nq + qi;
	uint64_t q = lossless ? m->q_ing[qi] : m->q_egr[qi];
	if (s->lpf_update == LPF_TIMER)
		lpf_catch_up(m, s, k, port, q - pkt->units);
	else if (s->lpf_update == LPF_ARRIVAL_DEQUEUE)
		lpf_sample(s, k, q);
	if (lossless) {
		/* The threshold sees the shared pool with this packet in it (artifact order). */
		uint64_t t = threshold(m, s, LL, k, pkt->prio, s->alpha_ll[pkt->prio]);
		bool over = s->lpf[k] > (double)t || (s->pause_on_full_pool && shared_used(m, s) > shared_cap(s));
		sb_pfc_enqueue(&s->pfc, m, pkt, over);
	}
	if (m->check_invariants)
		reverie_check(m, s);
}

static void reverie_on_dequeue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_release_reason why)
{
	struct reverie_state *s = sb_mmu_state(m);
	(void)why;
	bool lossless = sb_mmu_pkt_lossless(pkt);
	uint16_t port = lossless ? pkt->in_port : pkt->out_port;
	uint8_t prio = pkt->prio;
	int cls = lossless ? LL : LY;
	size_t qi = sb_mmu_qi(port, prio), k = (size_t)cls * s->nq + qi;
	uint64_t q = lossless ? m->q_ing[qi] : m->q_egr[qi]; /* after the departure */
	if (lossless)
		sb_pfc_dequeue(&s->pfc, pkt); /* headroom first; q* follows from Q − q_h */
	if (s->lpf_update == LPF_TIMER)
		lpf_catch_up(m, s, k, port, q + pkt->units);
	else
		lpf_sample(s, k, q); /* the length after the departure, as the artifact samples it */
	if (s->np_refresh_on_dequeue)
		refresh_n(s, cls, k, prio);
	if (lossless && sb_pfc_resume_due(&s->pfc, port, prio)) {
		double x = s->lpf[k];
		if (x < (double)s->pfc.xon ||
		    x + (double)s->pfc.xon_offset <= (double)threshold(m, s, LL, k, prio, s->alpha_ll[prio]))
			sb_pfc_resume(&s->pfc, m, port, prio);
	}
	if (m->check_invariants)
		reverie_check(m, s);
}

const struct sb_bm_ops sb_bm_reverie = {
	.name = "reverie",
	.summary = "Reverie: one shared pool, lossless at ingress / lossy at egress, low-pass-filtered thresholds, PFC",
	.lossless = true,
	.params = reverie_params,
	.state_size = sizeof(struct reverie_state),
	.init = reverie_init,
	.admit = reverie_admit,
	.on_enqueue = reverie_on_enqueue,
	.on_dequeue = reverie_on_dequeue,
	.fini = reverie_fini,
};

/* --- read-only views (bm_reverie.h) --- */

static const struct reverie_state *reverie_of(const struct sb_mmu *m)
{
	return m && m->ops->params == reverie_params && ((const struct reverie_state *)sb_mmu_state(m))->lpf ? sb_mmu_state(m)
												  : NULL;
}

bool sb_reverie_pools(const struct sb_mmu *m, struct sb_reverie_pools *out)
{
	const struct reverie_state *s = reverie_of(m);
	if (!s)
		return false;
	*out = (struct sb_reverie_pools){ .b_shared = s->b_shared, .b_h = s->pfc.pool,
					  .q_shared = shared_used(m, s), .q_h = s->pfc.used };
	return true;
}

const struct sb_pfc_ingress *sb_reverie_pfc(const struct sb_mmu *m)
{
	const struct reverie_state *s = reverie_of(m);
	return s ? &s->pfc : NULL;
}

double sb_reverie_lpf(const struct sb_mmu *m, bool egress, uint16_t port, uint8_t prio)
{
	const struct reverie_state *s = reverie_of(m);
	return s && port < m->nports ? s->lpf[(egress ? s->nq : 0) + sb_mmu_qi(port, prio & 7)] : 0.0;
}

double sb_reverie_n(const struct sb_mmu *m, bool egress, uint8_t prio)
{
	const struct reverie_state *s = reverie_of(m);
	if (!s)
		return 1.0;
	double n = (double)s->sat_sum[egress ? LY : LL][prio & 7] / (double)s->ci_units;
	return n > 1.0 ? n : 1.0;
}
