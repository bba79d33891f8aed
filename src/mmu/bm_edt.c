/*
 * bm_edt.c — Enhanced Dynamic Threshold (Shan, Jiang, Ren; IEEE TPDS 2017).
 *
 * DT caps a newly bursting queue at the same α·(B − Q) as queues that are long since full, so a
 * micro-burst is dropped with up to half the buffer free. EDT gives every egress queue a
 * two-state machine (the paper's §3; docs/schemes/edt.md):
 *
 *   CONTROLLED (initial)   threshold T1 = α·(B − Q)                  (plain DT)
 *   UNCONTROLLED           threshold T2 = B / n, n = UNCONTROLLED queues of this MMU
 *
 * CONTROLLED -> UNCONTROLLED when counter C2 (+1 per enqueue, −1 per dequeue, floor 0) climbs
 * from 0 to cn2 within the window TM1: the queue grows faster than cn2/TM1, a burst. TM2 (= d)
 * then starts. Back to CONTROLLED on the first of: C1 (consecutive dequeues, reset by any
 * enqueue) reaching cn1 — the burst is over; a shared-buffer overflow — a global pulse to every
 * queue; TM2 expiring — nobody keeps the buffer for ever. Any drop at a queue resets its C2
 * (the paper's Rule 1: only count growth that is not being clipped).
 *
 * Granularity: one state machine per egress queue (port, prio) and n counted in queues, our
 * choice for multi-queue ports (docs/schemes/edt.md §3); with one data class per port this is the
 * paper's per-port machine. Q in T1 is the whole MMU's occupancy, as in DT.
 *
 * Timers: TM1 only decides whether *this* queue's C2 is reset, and C2 is only read at this
 * queue's own arrivals, departures and drops, so TM1 is checked lazily there — exactly
 * equivalent to a hardware countdown and costs no events. TM2 changes n, which every other
 * UNCONTROLLED queue's threshold reads, so its expiry is a real event through
 * sb_mmu_arm_timer (one event per entry into UNCONTROLLED; stale firings are ignored by
 * comparing with the queue's current deadline). An embedder without arm_timer gets the same
 * behaviour from a lazy sweep of the UNCONTROLLED queues before every decision.
 */
#include "mmu/bm_edt.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "core/util.h"

enum { EDT_CONTROLLED = 0, EDT_UNCONTROLLED = 1 };
enum { EDT_TEST_DT = 0, EDT_TEST_PAPER = 1 };

struct edt_queue {
	uint8_t state;
	bool tm1_on;
	int32_t c1, c2;
	sb_time tm1_exp, tm2_exp;
	uint32_t unc_pos; /* index in unc_list while UNCONTROLLED */
};

struct edt_state {
	/* parameters */
	double alpha[SB_MMU_NPRIO];
	bool enable;
	int64_t cn1;
	int64_t cn2;            /* 0 = derive (eq. 73) */
	double d_us;            /* TM2; 0 = derive */
	double tm1_us;          /* 0 = derive (eq. 78) */
	int64_t ports;          /* P of the derivation; 0 = this MMU's ports */
	int64_t packet_bytes;   /* converts cn2 from bytes to packets */
	int threshold_test;     /* EDT_TEST_* */
	bool c2_floor_zero;
	/* derived in init */
	int64_t cn2_of[SB_MMU_NPRIO];
	sb_time tm1_of[SB_MMU_NPRIO];
	sb_time tm2;
	int64_t p_used;
	struct edt_queue *q;    /* nports × 8, indexed by sb_mmu_qi */
	uint32_t *unc_list;     /* queue indices currently UNCONTROLLED; n = n_unc */
	uint32_t n_unc;
	struct sb_edt_stats stats;
};

static const char *const edt_tests[] = { "dt", "paper", NULL };

static const struct sb_param edt_params[] = {
	{ "alpha", SB_P_PRIO, offsetof(struct edt_state, alpha), "1", 0.0, 1e6, "", NULL,
	  "α per priority: CONTROLLED threshold T1 = α · (buffer − occupancy), as dt" },
	{ "enable", SB_P_BOOL, offsetof(struct edt_state, enable), "true", 0, 1, "", NULL,
	  "run the state machine; false = every queue stays CONTROLLED, i.e. exactly dt" },
	{ "cn1", SB_P_INT, offsetof(struct edt_state, cn1), "3", 1, 1e9, "packets", NULL,
	  "consecutive dequeues (no enqueue between) that end UNCONTROLLED (paper: 3 in ns-2, 10 on DPDK)" },
	{ "cn2", SB_P_INT, offsetof(struct edt_state, cn2), "0", 0, 1e9, "packets", NULL,
	  "net enqueues within TM1 that start UNCONTROLLED; 0 = floor(4αB/((2+αP)^2·packet_bytes)), at least 1" },
	{ "d_us", SB_P_DOUBLE, offsetof(struct edt_state, d_us), "0", 0, 1e9, "us", NULL,
	  "EDT's d = TM2, the longest UNCONTROLLED spell; 0 = 1.25·B/C "
	  "(C = slowest port of this MMU; 10 ms for the paper's 1 MB at 1 Gb/s)" },
	{ "tm1_us", SB_P_DOUBLE, offsetof(struct edt_state, tm1_us), "0", 0, 1e9, "us", NULL,
	  "window within which C2 must reach cn2; 0 = 4(1+αP)/(2+αP)^2 · d" },
	{ "ports", SB_P_INT, offsetof(struct edt_state, ports), "0", 0, 65535, "", NULL,
	  "P in the cn2/TM1 derivation (queues that may congest at once); 0 = the ports of this MMU" },
	{ "packet_bytes", SB_P_INT, offsetof(struct edt_state, packet_bytes), "1500", 1, 65535, "bytes", NULL,
	  "packet size that converts the derived cn2 from bytes to packets" },
	{ "threshold_test", SB_P_ENUM, offsetof(struct edt_state, threshold_test), "dt", 0, 0, "", edt_tests,
	  "dt: admit iff q + L <= T (as the dt scheme); paper: admit iff q < T (the paper's §2.3 wording)" },
	{ "c2_floor_zero", SB_P_BOOL, offsetof(struct edt_state, c2_floor_zero), "true", 0, 1, "", NULL,
	  "C2 saturates at 0 on dequeues (hardware counter); false = signed" },
	SB_PARAM_END
};

static size_t nqueues(const struct sb_mmu *m) { return (size_t)m->nports * SB_MMU_NPRIO; }

static uint64_t slowest_port_bps(const struct sb_mmu *m)
{
	uint64_t r = 0;
	for (uint16_t p = m->port_lo; p < m->port_hi; p++)
		if (m->port_rate_bps[p] && (r == 0 || m->port_rate_bps[p] < r))
			r = m->port_rate_bps[p];
	return r;
}

static int edt_init(struct sb_mmu *m, struct sb_error *err)
{
	struct edt_state *s = sb_mmu_state(m);
	s->p_used = s->ports ? s->ports : (int64_t)(m->port_hi - m->port_lo);
	if (s->d_us > 0) {
		s->tm2 = sb_time_from_us(s->d_us);
	} else {
		/* §3.3: d ≥ B/(R_min − C); with the smallest burst worth absorbing R_min = 2C that is
		 * B/C. The paper then uses 10 ms for B/C = 8 ms, so the default keeps its 1.25 margin. */
		uint64_t c = slowest_port_bps(m);
		if (c == 0)
			return sb_fail(err, "edt: d_us = 0 derives d from the port rate, but this MMU's ports "
					    "have none; set switch.edt.d_us");
		s->tm2 = sb_time_span_ps(1.25 * (double)m->buffer_bytes * 8.0 / (double)c * 1e12);
	}
	double p = (double)s->p_used, b = (double)m->buffer_bytes;
	for (int k = 0; k < SB_MMU_NPRIO; k++) {
		double a = s->alpha[k], den = (2 + a * p) * (2 + a * p);
		/* eq. 72-73: the smallest growth DT allows before its first drop, over all M+N ≤ P */
		int64_t cn2 = (int64_t)floor(4 * a * b / den / (double)s->packet_bytes);
		s->cn2_of[k] = s->cn2 ? s->cn2 : (cn2 < 1 ? 1 : cn2);
		/* eq. 74-78: growth slower than cn2/TM1 cannot make DT drop within d */
		s->tm1_of[k] = s->tm1_us > 0 ? sb_time_from_us(s->tm1_us)
					     : sb_time_span_ps(4 * (1 + a * p) / den * (double)s->tm2);
	}
	s->q = sb_xcalloc(nqueues(m), sizeof(*s->q));
	s->unc_list = sb_xcalloc(nqueues(m), sizeof(*s->unc_list));
	return 0;
}

static void edt_fini(struct sb_mmu *m)
{
	struct edt_state *s = sb_mmu_state(m);
	free(s->q);
	free(s->unc_list);
	s->q = NULL;
	s->unc_list = NULL;
}

/* A C2 reset also ends its TM1 window: the next increment opens a new one. */
static inline void reset_c2(struct edt_queue *q)
{
	q->c2 = 0;
	q->tm1_on = false;
}

static void leave_unc(struct edt_state *s, uint32_t qi, uint64_t *cause_counter)
{
	struct edt_queue *q = &s->q[qi];
	if (q->state != EDT_UNCONTROLLED)
		return;
	q->state = EDT_CONTROLLED;
	uint32_t last = s->unc_list[--s->n_unc];
	s->unc_list[q->unc_pos] = last;
	s->q[last].unc_pos = q->unc_pos;
	reset_c2(q);
	(*cause_counter)++;
}

static void enter_unc(struct sb_mmu *m, struct edt_state *s, uint32_t qi, sb_time now)
{
	struct edt_queue *q = &s->q[qi];
	q->state = EDT_UNCONTROLLED;
	q->tm2_exp = now + s->tm2;
	q->unc_pos = s->n_unc;
	s->unc_list[s->n_unc++] = qi;
	reset_c2(q);
	s->stats.entered++;
	if (s->n_unc > s->stats.max_uncontrolled)
		s->stats.max_uncontrolled = s->n_unc;
	sb_mmu_arm_timer(m, q->tm2_exp, qi);
}

static inline void check_tm2(struct edt_state *s, uint32_t qi, sb_time now)
{
	if (s->q[qi].state == EDT_UNCONTROLLED && now >= s->q[qi].tm2_exp)
		leave_unc(s, qi, &s->stats.exit_tm2);
}

/* Without timer events, expire every UNCONTROLLED queue before a decision (n must be right). */
static void sweep_tm2(const struct sb_mmu *m, struct edt_state *s, sb_time now)
{
	if (m->env.arm_timer)
		return;
	for (uint32_t i = 0; i < s->n_unc;) {
		uint32_t qi = s->unc_list[i];
		if (now >= s->q[qi].tm2_exp)
			leave_unc(s, qi, &s->stats.exit_tm2); /* moves the last entry to i */
		else
			i++;
	}
}

/* TM1 ran out: growth too slow to be a burst, forget it. */
static inline void check_tm1(struct edt_state *s, struct edt_queue *q, uint8_t prio, sb_time now)
{
	if (q->state == EDT_CONTROLLED && q->tm1_on && now >= q->tm1_exp && q->c2 < s->cn2_of[prio])
		reset_c2(q);
}

static inline bool passes(const struct edt_state *s, uint64_t qlen, uint32_t units, uint64_t threshold)
{
	return s->threshold_test == EDT_TEST_PAPER ? qlen < threshold : qlen + units <= threshold;
}

static enum sb_drop_cause edt_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct edt_state *s = sb_mmu_state(m);
	uint32_t qi = (uint32_t)sb_mmu_qi(pkt->out_port, pkt->prio);
	bool unc = false;
	if (s->enable) {
		sb_time now = sb_mmu_now(m);
		sweep_tm2(m, s, now);
		check_tm2(s, qi, now);
		unc = s->q[qi].state == EDT_UNCONTROLLED;
	}
	/* checked first: an arrival that does not fit is the paper's overflow signal (on_drop) */
	if (m->used + pkt->units > m->buffer)
		return SB_DROP_BUFFER_FULL;
	uint64_t threshold = unc ? m->buffer / s->n_unc : sb_mmu_scale(s->alpha[pkt->prio], m->buffer - m->used);
	return passes(s, m->q_egr[qi], pkt->units, threshold) ? SB_ADMIT : SB_DROP_THRESHOLD;
}

static void edt_on_enqueue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct edt_state *s = sb_mmu_state(m);
	if (!s->enable)
		return;
	uint32_t qi = (uint32_t)sb_mmu_qi(pkt->out_port, pkt->prio);
	struct edt_queue *q = &s->q[qi];
	sb_time now = sb_mmu_now(m);
	check_tm1(s, q, pkt->prio, now);
	q->c1 = 0;
	if (q->state != EDT_CONTROLLED)
		return; /* C2 is stopped while UNCONTROLLED */
	if (q->c2 <= 0 && !q->tm1_on) { /* "TM1 starts when C2 begins to increase" */
		q->tm1_on = true;
		q->tm1_exp = now + s->tm1_of[pkt->prio];
	}
	if (++q->c2 >= s->cn2_of[pkt->prio])
		enter_unc(m, s, qi, now);
}

static void edt_on_dequeue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_release_reason why)
{
	struct edt_state *s = sb_mmu_state(m);
	if (!s->enable)
		return;
	uint32_t qi = (uint32_t)sb_mmu_qi(pkt->out_port, pkt->prio);
	struct edt_queue *q = &s->q[qi];
	sb_time now = sb_mmu_now(m);
	sweep_tm2(m, s, now);
	check_tm2(s, qi, now);
	check_tm1(s, q, pkt->prio, now);
	if (q->state == EDT_CONTROLLED && (q->c2 > 0 || !s->c2_floor_zero))
		q->c2--;
	if (++q->c1 >= s->cn1) { /* underloaded: the burst is over */
		leave_unc(s, qi, &s->stats.exit_c1);
		reset_c2(q);
		q->c1 = 0;
	}
}

static void edt_on_drop(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_drop_cause why)
{
	struct edt_state *s = sb_mmu_state(m);
	if (!s->enable)
		return;
	reset_c2(&s->q[sb_mmu_qi(pkt->out_port, pkt->prio)]); /* Rule 1 */
	if (why == SB_DROP_BUFFER_FULL) /* global overflow pulse: C2 of CONTROLLED queues untouched */
		while (s->n_unc)
			leave_unc(s, s->unc_list[s->n_unc - 1], &s->stats.exit_overflow);
}

static void edt_on_timer(struct sb_mmu *m, unsigned timer_id)
{
	struct edt_state *s = sb_mmu_state(m);
	if (s->enable && timer_id < nqueues(m))
		check_tm2(s, timer_id, sb_mmu_now(m)); /* a stale firing finds a later deadline */
}

bool sb_edt_uncontrolled(const struct sb_mmu *m, uint16_t port, uint8_t prio)
{
	const struct edt_state *s = sb_mmu_state(m);
	return s->q && s->q[sb_mmu_qi(port, prio)].state == EDT_UNCONTROLLED;
}

uint32_t sb_edt_n_uncontrolled(const struct sb_mmu *m) { return ((const struct edt_state *)sb_mmu_state(m))->n_unc; }

const struct sb_edt_stats *sb_edt_stats(const struct sb_mmu *m) { return &((const struct edt_state *)sb_mmu_state(m))->stats; }

void sb_edt_queue(const struct sb_mmu *m, uint16_t port, uint8_t prio, struct sb_edt_queue_view *out)
{
	const struct edt_state *s = sb_mmu_state(m);
	const struct edt_queue *q = &s->q[sb_mmu_qi(port, prio)];
	*out = (struct sb_edt_queue_view){ q->state == EDT_UNCONTROLLED, q->tm1_on, q->c1, q->c2, q->tm1_exp,
					   q->tm2_exp };
}

void sb_edt_get_derived(const struct sb_mmu *m, uint8_t prio, struct sb_edt_derived *out)
{
	const struct edt_state *s = sb_mmu_state(m);
	out->cn1 = s->cn1;
	out->cn2 = s->cn2_of[prio];
	out->tm1 = s->tm1_of[prio];
	out->tm2 = s->tm2;
	out->ports = s->p_used;
}

const struct sb_bm_ops sb_bm_edt = {
	.name = "edt",
	.summary = "Enhanced Dynamic Threshold: DT plus a per-queue burst state with threshold B/n (Shan et al.)",
	.params = edt_params,
	.state_size = sizeof(struct edt_state),
	.init = edt_init,
	.admit = edt_admit,
	.on_drop = edt_on_drop,
	.on_enqueue = edt_on_enqueue,
	.on_dequeue = edt_on_dequeue,
	.on_timer = edt_on_timer,
	.fini = edt_fini,
};
