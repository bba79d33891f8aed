/*
 * bm_abm.c — Active Buffer Management (Addanki et al., SIGCOMM'22), docs/schemes/abm.md.
 *
 * An egress queue (i, p) may grow while its length stays below
 *     T_p^i(t) = α_p · (1/n_p) · (B − Q(t)) · γ_p^i,     γ_p^i = μ_p^i / b
 * where B − Q(t) is the instantaneous free (shared) buffer, n_p the number of congested queues
 * of priority p in this buffer, μ_p^i the queue's measured drain rate and b the largest port
 * rate of the switch. Packets tagged first-RTT use α_first_rtt in place of α_p. A packet is
 * dropped iff q + L > T (pre-arrival counters), or it does not fit in the buffer — the DT form,
 * so with n_p = 1 and γ = 1 ABM *is* DT, bit for bit (tests/sim/test_abm.c).
 *
 * n_p and γ are snapshots refreshed by one periodic timer per MMU (period interval_us, phase
 * 0): a data plane cannot count queues or measure rates per packet, and the paper updates them
 * once per RTT. B − Q is always instantaneous.
 *
 * Idle suspension: a tick that finds the buffer empty and nothing dequeued since the previous
 * tick leaves every snapshot at its idle value (γ = full rate, n = 1 or the unchanged SATFRAC
 * sum), which every later tick would reproduce until something arrives. The timer therefore
 * stops there and the next arrival re-arms it at the next multiple of the interval: the same
 * decisions as a timer that never stops, without keeping a finished simulation alive.
 */
#include "mmu/bm_abm.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "core/util.h"

enum { ABM_N_THRESH90 = 0, ABM_N_SATFRAC, ABM_N_ONE };
enum { ABM_G_MEASURED = 0, ABM_G_RR, ABM_G_ONE };
enum { ABM_IDLE_RR_FLOOR = 0, ABM_IDLE_SHORT_QUEUE, ABM_IDLE_CLAMP };

static const char *const n_mode_choices[] = { "thresh90", "satfrac", "one", NULL };
static const char *const gamma_mode_choices[] = { "measured", "rr", "one", NULL };
static const char *const gamma_idle_choices[] = { "rr_floor", "short_queue", "clamp", NULL };

struct abm_state {
	/* parameters */
	double alpha[SB_MMU_NPRIO];
	double alpha_first_rtt;
	bool first_rtt;
	double interval_us;
	int n_mode;
	double congested_fraction;
	int64_t sat_bytes;
	int gamma_mode;
	int gamma_idle;
	double gamma_min;
	int64_t short_queue_bytes;
	int64_t short_deq_bytes;
	int64_t reserve_bytes;

	/* derived in init */
	sb_time interval;           /* ps */
	double b_bps;               /* largest port rate of the switch */
	uint64_t sat_units, short_queue_units, reserve_units;
	uint64_t shared_cap;        /* buffer − own ports × reserve (units) */
	bool needs_timer;

	/* per queue, nports × 8 */
	double *gamma;
	uint64_t *deq_bytes;        /* bytes sent since the last tick */
	uint64_t *sat;              /* SATFRAC: min(q, sat_units) at the queue's last arrival */

	/* per priority */
	double n_snap[SB_MMU_NPRIO];     /* n_p used by admission, >= 1 */
	uint64_t sat_sum[SB_MMU_NPRIO];  /* SATFRAC running Σ sat (exact integers, no drift) */

	uint64_t shared_used;       /* Σ_ports max(0, port units − reserve); only with a reserve */
	bool tick_armed, dequeued_since_tick;
	uint64_t ticks;
};

static const struct sb_param abm_params[] = {
	{ "alpha", SB_P_PRIO, offsetof(struct abm_state, alpha), "0.5", 0.0, 1e6, "", NULL,
	  "α per priority (paper: 0.5 for every data queue; pure ACKs use the control queue, which "
	  "is outside the shared buffer, so the artifact's ACK-queue α = 1 has no counterpart)" },
	{ "alpha_first_rtt", SB_P_DOUBLE, offsetof(struct abm_state, alpha_first_rtt), "64", 0.0, 1e6, "",
	  NULL, "α for packets tagged first-RTT (\"unscheduled\"): paper 64, artifact 1024" },
	{ "first_rtt", SB_P_BOOL, offsetof(struct abm_state, first_rtt), "true", 0, 0, "", NULL,
	  "honour the first-RTT tag (false: every packet uses α of its priority)" },
	{ "interval_us", SB_P_DOUBLE, offsetof(struct abm_state, interval_us), "80", 0.001, 1e9, "us", NULL,
	  "period of the n_p and γ updates: set it to the base RTT of the scenario (80 µs in the paper)" },
	{ "n_mode", SB_P_ENUM, offsetof(struct abm_state, n_mode), "thresh90", 0, 0, "", n_mode_choices,
	  "n_p: thresh90 = queues at >= congested_fraction of their threshold (paper); satfrac = "
	  "Σ min(1, q/sat_bytes) refreshed on arrivals (artifact); one = n_p fixed at 1" },
	{ "congested_fraction", SB_P_DOUBLE, offsetof(struct abm_state, congested_fraction), "0.9", 0.0, 1.0,
	  "", NULL, "thresh90: a queue is congested when q >= this fraction of its threshold" },
	{ "sat_bytes", SB_P_INT, offsetof(struct abm_state, sat_bytes), "28000", 1, 1e12, "bytes", NULL,
	  "satfrac: queue length counted as one full congested queue (artifact 20 × 1400 B)" },
	{ "gamma_mode", SB_P_ENUM, offsetof(struct abm_state, gamma_mode), "measured", 0, 0, "",
	  gamma_mode_choices,
	  "γ = μ/b: measured = bytes sent per interval (paper, artifact); rr = port rate / number of "
	  "non-empty queues of the port (paper §3.4, equal-weight round robin); one = γ fixed at 1" },
	{ "gamma_idle", SB_P_ENUM, offsetof(struct abm_state, gamma_idle), "rr_floor", 0, 0, "",
	  gamma_idle_choices,
	  "measured γ of a queue that is not backlogged is replaced by its port's full rate: "
	  "rr_floor = when below gamma_min of the port rate (ABM artifact, GenQueueDisc); "
	  "short_queue = when q <= short_queue_bytes or <= short_deq_bytes left (artifact SwitchMmu); "
	  "clamp = no substitution, γ clamped into [gamma_min, 1] (Occamy's DPDK ABM)" },
	{ "gamma_min", SB_P_DOUBLE, offsetof(struct abm_state, gamma_min), "0.125", 0.0, 1.0, "", NULL,
	  "rr_floor: the smallest round-robin share a backlogged queue gets (artifact 1/nPrior; "
	  "1/8 for 8 queues per port); clamp: the lower clamp" },
	{ "short_queue_bytes", SB_P_INT, offsetof(struct abm_state, short_queue_bytes), "20480", 0, 1e12,
	  "bytes", NULL, "short_queue: a queue this short counts as not backlogged (artifact 20 KiB)" },
	{ "short_deq_bytes", SB_P_INT, offsetof(struct abm_state, short_deq_bytes), "2048", 0, 1e12, "bytes",
	  NULL, "short_queue: a queue that sent no more than this in an interval counts as idle" },
	{ "reserve_bytes", SB_P_INT, offsetof(struct abm_state, reserve_bytes), "0", 0, 1e15, "bytes", NULL,
	  "static reserve per port, outside the shared pool (artifact staticBuffer; paper runs: 0)" },
	SB_PARAM_END
};

static inline uint64_t units_of(const struct sb_mmu *m, uint64_t bytes)
{
	return m->cell_bytes ? bytes / m->cell_bytes : bytes;
}

static inline uint64_t port_units(const struct sb_mmu *m, uint16_t port)
{
	uint64_t sum = 0;
	for (uint8_t p = 0; p < SB_MMU_NPRIO; p++)
		sum += m->q_egr[sb_mmu_qi(port, p)];
	return sum;
}

static inline uint64_t over(uint64_t x, uint64_t r) { return x > r ? x - r : 0; }

/* The free shared buffer B − Q(t). Without a reserve it is exactly DT's term. */
static inline uint64_t shared_free(const struct sb_mmu *m, const struct abm_state *s)
{
	if (!s->reserve_units)
		return m->buffer - m->used;
	return s->shared_cap > s->shared_used ? s->shared_cap - s->shared_used : 0;
}

/* The queue length the threshold is compared with: beyond the port reserve. */
static inline uint64_t queue_beyond_reserve(const struct sb_mmu *m, const struct abm_state *s, size_t qi)
{
	return over(m->q_egr[qi], s->reserve_units);
}

/* α/n·γ·(B − Q). With n = 1 and γ = 1, α/1·1 == α exactly in IEEE arithmetic, so the product
 * is DT's sb_mmu_scale(α, B − Q) to the bit. */
static inline uint64_t threshold(const struct sb_mmu *m, const struct abm_state *s, size_t qi, uint8_t prio,
				 double alpha)
{
	return sb_mmu_scale(alpha / s->n_snap[prio] * s->gamma[qi], shared_free(m, s));
}

static inline double alpha_of(const struct abm_state *s, const struct sb_mmu_pkt *pkt)
{
	return s->first_rtt && (pkt->tags & SB_MT_FIRST_RTT) ? s->alpha_first_rtt : s->alpha[pkt->prio];
}

static void arm_next_tick(struct sb_mmu *m, struct abm_state *s)
{
	sb_time now = sb_mmu_now(m);
	s->tick_armed = true;
	sb_mmu_arm_timer(m, (now / s->interval + 1) * s->interval, 0);
}

static int abm_init(struct sb_mmu *m, struct sb_error *err)
{
	struct abm_state *s = sb_mmu_state(m);
	s->interval = sb_time_from_us(s->interval_us);
	if (s->interval < 1)
		return sb_fail(err, "abm: interval_us = %g is shorter than a picosecond", s->interval_us);
	s->b_bps = 0;
	for (uint16_t i = 0; i < m->nports; i++)
		if ((double)m->port_rate_bps[i] > s->b_bps)
			s->b_bps = (double)m->port_rate_bps[i];
	s->needs_timer = s->n_mode != ABM_N_ONE || s->gamma_mode != ABM_G_ONE;
	if (s->gamma_mode != ABM_G_ONE && s->b_bps <= 0)
		return sb_fail(err, "abm: gamma_mode %s needs port rates, but every port rate is 0",
			       gamma_mode_choices[s->gamma_mode]);
	if (s->needs_timer && !m->env.arm_timer)
		return sb_fail(err, "abm: n_p and γ updates need a timer, but the embedder offers none "
				    "(set n_mode = one and gamma_mode = one to run without)");
	s->sat_units = units_of(m, (uint64_t)s->sat_bytes);
	if (s->sat_units == 0)
		s->sat_units = 1;
	s->short_queue_units = units_of(m, (uint64_t)s->short_queue_bytes);
	s->reserve_units = units_of(m, (uint64_t)s->reserve_bytes);
	uint64_t own_ports = (uint64_t)(m->port_hi - m->port_lo);
	if (s->reserve_units && s->reserve_units * own_ports >= m->buffer)
		return sb_fail(err, "abm: reserve_bytes = %lld on %llu ports leaves no shared buffer of %llu bytes",
			       (long long)s->reserve_bytes, (unsigned long long)own_ports,
			       (unsigned long long)m->buffer_bytes);
	s->shared_cap = m->buffer - s->reserve_units * own_ports;
	size_t nq = (size_t)m->nports * SB_MMU_NPRIO;
	s->gamma = sb_xcalloc(nq, sizeof(*s->gamma));
	s->deq_bytes = sb_xcalloc(nq, sizeof(*s->deq_bytes));
	s->sat = sb_xcalloc(nq, sizeof(*s->sat));
	/* Before the first measurement every queue drains at its port's full rate (artifact: γ = 1). */
	for (uint16_t i = 0; i < m->nports; i++)
		for (uint8_t p = 0; p < SB_MMU_NPRIO; p++)
			s->gamma[sb_mmu_qi(i, p)] = s->gamma_mode == ABM_G_ONE || !m->port_rate_bps[i]
							    ? 1.0 : (double)m->port_rate_bps[i] / s->b_bps;
	for (uint8_t p = 0; p < SB_MMU_NPRIO; p++)
		s->n_snap[p] = 1.0;
	return 0;
}

static void abm_fini(struct sb_mmu *m)
{
	struct abm_state *s = sb_mmu_state(m);
	free(s->gamma);
	free(s->deq_bytes);
	free(s->sat);
	s->gamma = NULL;
	s->deq_bytes = s->sat = NULL;
}

static enum sb_drop_cause abm_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct abm_state *s = sb_mmu_state(m);
	size_t qi = sb_mmu_qi(pkt->out_port, pkt->prio);
	if (s->needs_timer && !s->tick_armed)
		arm_next_tick(m, s);
	if (s->n_mode == ABM_N_SATFRAC) {
		/* Artifact: every arrival that reaches the admission test refreshes its queue's share
		 * of n_p from the pre-arrival length, admitted or not; a queue that drains without
		 * arrivals keeps its stale share. Integers, so the running sum never drifts. */
		uint64_t v = m->q_egr[qi] < s->sat_units ? m->q_egr[qi] : s->sat_units;
		s->sat_sum[pkt->prio] = s->sat_sum[pkt->prio] - s->sat[qi] + v;
		s->sat[qi] = v;
	}
	if (m->used + pkt->units > m->buffer)
		return SB_DROP_BUFFER_FULL;
	if (s->reserve_units) {
		uint64_t port = port_units(m, pkt->out_port);
		if (port + pkt->units <= s->reserve_units)
			return SB_ADMIT; /* inside the port's static reserve: no BM test */
		uint64_t add = over(port + pkt->units, s->reserve_units) - over(port, s->reserve_units);
		if (s->shared_used + add > s->shared_cap)
			return SB_DROP_POOL_FULL;
	}
	if (queue_beyond_reserve(m, s, qi) + pkt->units > threshold(m, s, qi, pkt->prio, alpha_of(s, pkt)))
		return SB_DROP_THRESHOLD;
	return SB_ADMIT;
}

static void abm_on_enqueue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct abm_state *s = sb_mmu_state(m);
	if (s->reserve_units) {
		uint64_t after = port_units(m, pkt->out_port), before = after - pkt->units;
		s->shared_used += over(after, s->reserve_units) - over(before, s->reserve_units);
	}
}

static void abm_on_dequeue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_release_reason why)
{
	struct abm_state *s = sb_mmu_state(m);
	if (s->reserve_units) {
		/* The reserve fills first and drains last, so the shared share follows from the
		 * port's total alone (the MMU keeps nothing per packet). */
		uint64_t after = port_units(m, pkt->out_port), before = after + pkt->units;
		s->shared_used -= over(before, s->reserve_units) - over(after, s->reserve_units);
	}
	if (why == SB_RELEASE_TX) { /* an expelled packet was not drained by the port */
		s->deq_bytes[sb_mmu_qi(pkt->out_port, pkt->prio)] += pkt->bytes;
		s->dequeued_since_tick = true;
	}
}

/* γ of one queue from what it sent during the last interval (gamma_mode = measured). */
static double measured_gamma(const struct sb_mmu *m, const struct abm_state *s, uint16_t port, size_t qi)
{
	double own = (double)m->port_rate_bps[port];
	if (own <= 0)
		return 1.0;
	double frac = (double)s->deq_bytes[qi] * 8.0 / ((double)s->interval * 1e-12 * own);
	/* A queue that sent nothing is idle under every rule: a γ of 0 would give it T = 0, so it
	 * could never admit, never send, and never be measured above 0 again. */
	bool idle = s->deq_bytes[qi] == 0;
	if (s->gamma_idle == ABM_IDLE_RR_FLOOR)
		idle = idle || frac < s->gamma_min;
	else if (s->gamma_idle == ABM_IDLE_SHORT_QUEUE)
		idle = idle || m->q_egr[qi] <= s->short_queue_units ||
		       s->deq_bytes[qi] <= (uint64_t)s->short_deq_bytes;
	else if (frac < s->gamma_min)
		frac = s->gamma_min; /* clamp: a slow queue keeps at least the floor */
	/* Serialisation starts are counted, so a backlogged queue can exceed its port rate by up to
	 * one packet per interval: that is the full rate too. */
	if (idle || frac > 1.0)
		frac = 1.0;
	return frac * own / s->b_bps;
}

static void abm_check(const struct sb_mmu *m, const struct abm_state *s)
{
	for (uint16_t i = m->port_lo; i < m->port_hi; i++)
		for (uint8_t p = 0; p < SB_MMU_NPRIO; p++) {
			double g = s->gamma[sb_mmu_qi(i, p)];
			if (!(g > 0 && g <= 1.0)) {
				fprintf(stderr, "sharebuf: MMU %u (abm): γ of queue (%u,%u) = %g is outside (0, 1]\n",
					m->id, i, p, g);
				abort();
			}
		}
	for (uint8_t p = 0; p < SB_MMU_NPRIO; p++)
		if (!(s->n_snap[p] >= 1.0)) {
			fprintf(stderr, "sharebuf: MMU %u (abm): n_%u = %g < 1\n", m->id, p, s->n_snap[p]);
			abort();
		}
	uint64_t shared = 0;
	for (uint16_t i = m->port_lo; s->reserve_units && i < m->port_hi; i++)
		shared += over(port_units(m, i), s->reserve_units);
	if (s->reserve_units && (shared != s->shared_used || shared > s->shared_cap)) {
		fprintf(stderr, "sharebuf: MMU %u (abm): shared pool holds %llu units, counted %llu, size %llu\n",
			m->id, (unsigned long long)shared, (unsigned long long)s->shared_used,
			(unsigned long long)s->shared_cap);
		abort();
	}
}

static void abm_on_timer(struct sb_mmu *m, unsigned timer_id)
{
	struct abm_state *s = sb_mmu_state(m);
	(void)timer_id;
	s->tick_armed = false;
	s->ticks++;
	/* γ first: the same tick's n_p count uses the new γ (our choice, docs/schemes/abm.md §6). */
	for (uint16_t i = m->port_lo; i < m->port_hi; i++) {
		unsigned busy = 0;
		if (s->gamma_mode == ABM_G_RR)
			for (uint8_t p = 0; p < SB_MMU_NPRIO; p++)
				busy += m->q_egr[sb_mmu_qi(i, p)] > 0;
		double full = m->port_rate_bps[i] ? (double)m->port_rate_bps[i] / s->b_bps : 1.0;
		for (uint8_t p = 0; p < SB_MMU_NPRIO; p++) {
			size_t qi = sb_mmu_qi(i, p);
			if (s->gamma_mode == ABM_G_MEASURED)
				s->gamma[qi] = measured_gamma(m, s, i, qi);
			else if (s->gamma_mode == ABM_G_RR)
				/* an empty queue would share the port with the busy ones once it fills */
				s->gamma[qi] = full / (double)(m->q_egr[qi] ? busy : busy + 1);
			s->deq_bytes[qi] = 0;
		}
	}
	if (s->n_mode == ABM_N_THRESH90) {
		unsigned count[SB_MMU_NPRIO] = { 0 };
		for (uint16_t i = m->port_lo; i < m->port_hi; i++)
			for (uint8_t p = 0; p < SB_MMU_NPRIO; p++) {
				size_t qi = sb_mmu_qi(i, p);
				uint64_t q = queue_beyond_reserve(m, s, qi);
				/* the threshold with the priority's own α and the previous n_p snapshot */
				if (q > 0 && (double)q >= s->congested_fraction * (double)threshold(m, s, qi, p, s->alpha[p]))
					count[p]++;
			}
		for (uint8_t p = 0; p < SB_MMU_NPRIO; p++)
			s->n_snap[p] = count[p] > 1 ? (double)count[p] : 1.0;
	} else if (s->n_mode == ABM_N_SATFRAC) {
		for (uint8_t p = 0; p < SB_MMU_NPRIO; p++) {
			double n = (double)s->sat_sum[p] / (double)s->sat_units;
			s->n_snap[p] = n > 1.0 ? n : 1.0;
		}
	}
	if (m->check_invariants)
		abm_check(m, s);
	/* Empty and nothing sent since the last tick: the snapshots are at their idle values and
	 * stay there until an arrival, which re-arms the timer (see the file comment). */
	bool idle = m->used == 0 && !s->dequeued_since_tick;
	s->dequeued_since_tick = false;
	if (!idle)
		arm_next_tick(m, s);
}

const struct sb_bm_ops sb_bm_abm = {
	.name = "abm",
	.summary = "Active Buffer Management: alpha/n_p * (free buffer) * drain rate (Addanki et al.)",
	.params = abm_params,
	.state_size = sizeof(struct abm_state),
	.init = abm_init,
	.admit = abm_admit,
	.on_enqueue = abm_on_enqueue,
	.on_dequeue = abm_on_dequeue,
	.on_timer = abm_on_timer,
	.fini = abm_fini,
};

/* --- read-only views (bm_abm.h) --- */

static const struct abm_state *abm_of(const struct sb_mmu *m)
{
	/* by parameter table, so a wrapped copy of the ops (a test's spy) still counts as ABM */
	return m && m->ops->params == abm_params && ((const struct abm_state *)sb_mmu_state(m))->gamma ? sb_mmu_state(m) : NULL;
}

double sb_abm_gamma(const struct sb_mmu *m, uint16_t port, uint8_t prio)
{
	const struct abm_state *s = abm_of(m);
	return s && port < m->nports ? s->gamma[sb_mmu_qi(port, prio & 7)] : 1.0;
}

double sb_abm_n(const struct sb_mmu *m, uint8_t prio)
{
	const struct abm_state *s = abm_of(m);
	return s ? s->n_snap[prio & 7] : 1.0;
}

uint64_t sb_abm_threshold(const struct sb_mmu *m, uint16_t port, uint8_t prio, bool first_rtt)
{
	const struct abm_state *s = abm_of(m);
	if (!s || port >= m->nports)
		return 0;
	prio &= 7;
	double a = first_rtt && s->first_rtt ? s->alpha_first_rtt : s->alpha[prio];
	return threshold(m, s, sb_mmu_qi(port, prio), prio, a);
}

uint64_t sb_abm_ticks(const struct sb_mmu *m)
{
	const struct abm_state *s = abm_of(m);
	return s ? s->ticks : 0;
}
