/*
 * bm_occamy.c — Occamy (Shan et al., EuroSys'25): Dynamic Thresholds with a large α plus
 * preemptive head drop from over-allocated queues, paid for with spare memory bandwidth.
 *
 * Occamy (EuroSys'25) §3–4; docs/schemes/occamy.md.
 *
 * Admission (ingress): DT, T_p = α_p·(B − Q). Drop if Q + L > B or q + L > T_p (pre-arrival
 * counters), exactly as bm_dt.c. Option `empty_admit` (the ns-3 artifact): an empty queue is
 * admitted whenever the buffer has room.
 *
 * Expulsion (egress): queue i is over-allocated iff q_i > α_i·(B − Q) on the current counters.
 * A round-robin selector (port-major over this MMU's (port, prio) pairs, starting after the
 * last victim) picks the next over-allocated queue; each grant drops one head packet through
 * sb_mmu_expel_head(). Grants are paid from a token bucket that models spare read bandwidth:
 *   - tokens are cells of `token_cell_bytes` (200 B); a packet of L bytes costs ceil(L/cell);
 *   - refill at the switching capacity of the MMU's ports (Σ port rates × speedup, or
 *     token_rate_gbps), capped at `bucket_cells`;
 *   - every normal dequeue (SB_RELEASE_TX) subtracts its cells, even below zero: the output
 *     scheduler always wins the memory;
 *   - a grant needs tokens > 0 and subtracts the victim's cells (the artifacts' rule: the last
 *     grant may overdraw by less than one packet).
 * Grants are events (sb_mmu_arm_timer). One timer is outstanding at most, and only while some
 * queue is over-allocated: a dequeue can never create over-allocation (q falls, B − Q grows),
 * so only enqueues and grants need to look, and an idle MMU schedules nothing.
 *
 * Tokens are kept exactly as integers in units of 10^-12 bit ("bit·ps": rate in b/s × time in
 * ps), in 128 bits because dequeue debt is unbounded when the token rate is below the ports'.
 */
#include <stddef.h>
#include <stdlib.h>
#include "core/util.h"
#include "mmu/mmu.h"

enum { OCC_VICTIM_RR = 0, OCC_VICTIM_LONGEST };
static const char *const occ_victim_choices[] = { "rr", "longest", NULL };

struct occamy_state {
	/* parameters */
	double alpha[SB_MMU_NPRIO];
	bool expel;
	bool empty_admit;
	int victim;
	int64_t token_cell_bytes;
	double bucket_cells;
	double speedup;
	double token_rate_gbps;
	double min_gap_ns;
	/* derived */
	uint64_t rate_bps;     /* token refill rate */
	__int128 cell_cost;    /* one token cell in bit·ps */
	__int128 depth;        /* bucket depth in bit·ps */
	sb_time min_gap;
	uint32_t nq;           /* queues of this MMU: (port_hi − port_lo) × 8 */
	/* token bucket */
	__int128 credit;       /* bit·ps; may be negative */
	sb_time credit_t;      /* time of the last refill */
	/* selector */
	bool pending;          /* a grant timer is outstanding */
	uint32_t rr_last;      /* local index of the last victim */
	sb_time last_grant;
	uint64_t *active;      /* bitmap of non-empty queues (local index) */
	/* statistics, for a debugger or a future report (not written to outputs) */
	uint64_t grants, grant_timers, expelled_cells, dequeued_cells;
};

static const struct sb_param occamy_params[] = {
	{ "alpha", SB_P_PRIO, offsetof(struct occamy_state, alpha), "8", 0.0, 1e6, "", NULL,
	  "α per priority, for admission (DT) and for the over-allocation test q > α·(buffer − occupancy)" },
	{ "expel", SB_P_BOOL, offsetof(struct occamy_state, expel), "true", 0, 0, "", NULL,
	  "head-drop over-allocated queues; false = plain DT with this α (bit-identical to switch.scheme = dt)" },
	{ "empty_admit", SB_P_BOOL, offsetof(struct occamy_state, empty_admit), "false", 0, 0, "", NULL,
	  "admit into an empty queue whenever the buffer has room (ns-3 artifact); false = the paper's plain DT" },
	{ "victim", SB_P_ENUM, offsetof(struct occamy_state, victim), "rr", 0, 0, "", occ_victim_choices,
	  "rr = round robin over over-allocated queues (paper); longest = the longest queue if over-allocated (artifact's LONGTOKEN)" },
	{ "token_cell_bytes", SB_P_INT, offsetof(struct occamy_state, token_cell_bytes), "200", 1, 1e6, "bytes", NULL,
	  "bytes per token: a packet of L bytes costs ceil(L / token_cell_bytes) tokens (independent of switch.cell_bytes)" },
	{ "bucket_cells", SB_P_DOUBLE, offsetof(struct occamy_state, bucket_cells), "8", 1, 1e9, "tokens", NULL,
	  "token bucket depth (ns-3 artifact 8, DPDK prototype 200); the bucket starts full" },
	{ "speedup", SB_P_DOUBLE, offsetof(struct occamy_state, speedup), "1", 0, 1e3, "", NULL,
	  "refill rate = speedup × Σ rates of this MMU's ports (ns-3 artifact ≈ 1.067)" },
	{ "token_rate_gbps", SB_P_DOUBLE, offsetof(struct occamy_state, token_rate_gbps), "0", 0, 1e6, "Gb/s", NULL,
	  "refill rate if > 0 (overrides speedup); 0 = derive from the ports" },
	{ "min_gap_ns", SB_P_DOUBLE, offsetof(struct occamy_state, min_gap_ns), "0", 0, 1e9, "ns", NULL,
	  "minimum time between two grants (hardware: 2 ns at 1 GHz); 0 = limited by tokens only" },
	SB_PARAM_END
};

static inline struct occamy_state *st(struct sb_mmu *m) { return sb_mmu_state(m); }

static inline size_t global_qi(const struct sb_mmu *m, uint32_t local)
{
	return (size_t)m->port_lo * SB_MMU_NPRIO + local;
}

static int occamy_init(struct sb_mmu *m, struct sb_error *err)
{
	struct occamy_state *s = st(m);
	s->nq = (uint32_t)(m->port_hi - m->port_lo) * SB_MMU_NPRIO;
	double rate = 0;
	for (uint16_t p = m->port_lo; p < m->port_hi; p++)
		rate += (double)m->port_rate_bps[p];
	rate = s->token_rate_gbps > 0 ? s->token_rate_gbps * 1e9 : rate * s->speedup;
	s->rate_bps = (uint64_t)(rate + 0.5);
	s->cell_cost = (__int128)s->token_cell_bytes * 8 * 1000000000000LL;
	s->depth = (__int128)(s->bucket_cells * (double)s->token_cell_bytes * 8.0) * 1000000000000LL;
	s->credit = s->depth;
	s->credit_t = sb_mmu_now(m);
	s->min_gap = (sb_time)(s->min_gap_ns * 1000.0 + 0.5);
	s->rr_last = s->nq ? s->nq - 1 : 0;
	free(s->active);
	s->active = sb_xcalloc((s->nq + 63) / 64 + 1, sizeof(uint64_t));
	if (!s->expel)
		return 0;
	if (!m->env.arm_timer || !m->env.expel_head)
		return sb_fail(err, "occamy: expulsion needs the embedder's arm_timer and expel_head (or set expel = false)");
	if (s->rate_bps == 0)
		return sb_fail(err, "occamy: the token rate is 0 (ports without rate, speedup 0?); set token_rate_gbps or expel = false");
	return 0;
}

static void occamy_fini(struct sb_mmu *m)
{
	free(st(m)->active);
	st(m)->active = NULL;
}

static enum sb_drop_cause occamy_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	const struct occamy_state *s = sb_mmu_state(m);
	if (m->used + pkt->units > m->buffer)
		return SB_DROP_BUFFER_FULL;
	uint64_t q = m->q_egr[sb_mmu_qi(pkt->out_port, pkt->prio)];
	if (s->empty_admit && q == 0)
		return SB_ADMIT;
	if (q + pkt->units > sb_mmu_scale(s->alpha[pkt->prio], m->buffer - m->used))
		return SB_DROP_THRESHOLD;
	return SB_ADMIT;
}

/* --- over-allocation --- */

static inline bool over_allocated(const struct sb_mmu *m, const struct occamy_state *s, uint32_t local)
{
	size_t qi = global_qi(m, local);
	return m->q_egr[qi] > sb_mmu_scale(s->alpha[local % SB_MMU_NPRIO], m->buffer - m->used);
}

static bool any_over_allocated(const struct sb_mmu *m, const struct occamy_state *s)
{
	for (uint32_t w = 0; w * 64 < s->nq; w++)
		for (uint64_t bits = s->active[w]; bits; bits &= bits - 1) {
			uint32_t local = w * 64 + (uint32_t)__builtin_ctzll(bits);
			if (over_allocated(m, s, local))
				return true;
		}
	return false;
}

/* The next over-allocated queue after the last victim, wrapping; UINT32_MAX if none. */
static uint32_t rr_victim(const struct sb_mmu *m, const struct occamy_state *s)
{
	for (uint32_t k = 1; k <= s->nq; k++) {
		uint32_t local = (s->rr_last + k) % s->nq;
		if ((s->active[local / 64] >> (local % 64)) & 1 && over_allocated(m, s, local))
			return local;
	}
	return UINT32_MAX;
}

/* The longest queue (ties: highest index), if it is over-allocated. */
static uint32_t longest_victim(const struct sb_mmu *m, const struct occamy_state *s)
{
	uint32_t best = UINT32_MAX;
	uint64_t best_len = 0;
	for (uint32_t w = 0; w * 64 < s->nq; w++)
		for (uint64_t bits = s->active[w]; bits; bits &= bits - 1) {
			uint32_t local = w * 64 + (uint32_t)__builtin_ctzll(bits);
			uint64_t len = m->q_egr[global_qi(m, local)];
			if (len >= best_len) {
				best_len = len;
				best = local;
			}
		}
	return best != UINT32_MAX && over_allocated(m, s, best) ? best : UINT32_MAX;
}

/* --- token bucket --- */

static void refill(struct sb_mmu *m, struct occamy_state *s)
{
	sb_time now = sb_mmu_now(m);
	if (now <= s->credit_t)
		return;
	if (s->credit < s->depth) {
		__int128 add = (__int128)s->rate_bps * (__int128)(now - s->credit_t);
		s->credit = s->depth - s->credit <= add ? s->depth : s->credit + add;
	}
	s->credit_t = now;
}

static inline uint64_t token_cells(const struct occamy_state *s, uint32_t bytes)
{
	return (bytes + (uint64_t)s->token_cell_bytes - 1) / (uint64_t)s->token_cell_bytes;
}

/* Arm the grant timer if none is outstanding and some queue is over-allocated: at once if
 * tokens are available, else when the refill makes the credit positive. */
static void maybe_schedule(struct sb_mmu *m, struct occamy_state *s)
{
	if (s->pending || !any_over_allocated(m, s))
		return;
	refill(m, s);
	sb_time now = sb_mmu_now(m), at = now;
	if (s->credit <= 0)
		at = now + (sb_time)((-s->credit) / s->rate_bps + 1);
	if (s->grants && at < s->last_grant + s->min_gap)
		at = s->last_grant + s->min_gap;
	s->pending = true;
	s->grant_timers++;
	sb_mmu_arm_timer(m, at, 0);
}

static void occamy_on_enqueue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct occamy_state *s = st(m);
	uint32_t local = (uint32_t)(sb_mmu_qi(pkt->out_port, pkt->prio) - (size_t)m->port_lo * SB_MMU_NPRIO);
	s->active[local / 64] |= 1ull << (local % 64);
	if (s->expel)
		maybe_schedule(m, s); /* T fell: any queue may now be over-allocated */
}

static void occamy_on_dequeue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_release_reason why)
{
	struct occamy_state *s = st(m);
	size_t qi = sb_mmu_qi(pkt->out_port, pkt->prio);
	if (m->q_egr[qi] == 0) { /* the queue is empty: every packet holds at least one unit */
		uint32_t local = (uint32_t)(qi - (size_t)m->port_lo * SB_MMU_NPRIO);
		s->active[local / 64] &= ~(1ull << (local % 64));
	}
	if (!s->expel)
		return;
	/* Normal dequeues and head drops both read PD and cell-pointer memory. */
	refill(m, s);
	uint64_t cells = token_cells(s, pkt->bytes);
	s->credit -= (__int128)cells * s->cell_cost;
	if (why == SB_RELEASE_TX)
		s->dequeued_cells += cells;
	else
		s->expelled_cells += cells;
	/* No scheduling here: a departure never makes a queue over-allocated. */
}

static void occamy_on_timer(struct sb_mmu *m, unsigned timer_id)
{
	struct occamy_state *s = st(m);
	(void)timer_id;
	s->pending = false;
	refill(m, s);
	if (s->credit > 0) {
		uint32_t v = s->victim == OCC_VICTIM_LONGEST ? longest_victim(m, s) : rr_victim(m, s);
		if (v == UINT32_MAX)
			return; /* nothing over-allocated any more: stay idle until an enqueue */
		size_t qi = global_qi(m, v);
		s->rr_last = v;
		s->last_grant = sb_mmu_now(m);
		s->grants++;
		/* The nested on_dequeue(EXPELLED) charges the tokens. */
		if (!sb_mmu_expel_head(m, (uint16_t)(qi / SB_MMU_NPRIO), (uint8_t)(qi % SB_MMU_NPRIO)))
			return; /* the embedder had no packet to drop: wait for the next enqueue */
	}
	maybe_schedule(m, s);
}

const struct sb_bm_ops sb_bm_occamy = {
	.name = "occamy",
	.summary = "Occamy: DT (alpha 8) + round-robin head drop of over-allocated queues using spare memory bandwidth",
	.params = occamy_params,
	.state_size = sizeof(struct occamy_state),
	.init = occamy_init,
	.admit = occamy_admit,
	.on_enqueue = occamy_on_enqueue,
	.on_dequeue = occamy_on_dequeue,
	.on_timer = occamy_on_timer,
	.fini = occamy_fini,
};
