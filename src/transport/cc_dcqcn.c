/*
 * cc_dcqcn.c — DCQCN (Zhu et al., SIGCOMM 2015), the reaction point; the notification point
 * (a CNP per CE-marked packet, at most one per flow per rdma.dcqcn_cnp_interval_us) is the
 * engine's (rdma.c), switched on by `.ecn`.
 *
 * The sender keeps its current rate R_C, a target rate R_T and α, an estimate of how often it
 * is told about congestion:
 *
 *   α clock     from the first CNP on, every alpha interval: α ← (1 − g) α + g if a CNP
 *               arrived since the previous tick, else α ← (1 − g) α;
 *   cut         a clock of period rate-decrease interval, started by the first CNP, cuts at
 *               its next tick after any CNP, at most once per tick: R_T ← R_C (see clamp
 *               below), R_C ← R_C (1 − α/2). The first CNP's own cut comes at the first tick
 *               (rdma.dcqcn_first_cut = check, the NICs' and artifacts' way) or at once with
 *               α = 1, a halving (= cnp);
 *   increase    after a cut, one increase event per rate-increase timer period (and per
 *               byte-counter bytes sent, if that is on). With T timer events and B byte events
 *               already counted since the cut (B = T without a byte counter):
 *                 max(T, B) < F        fast recovery   R_C ← (R_T + R_C) / 2
 *                 min(T, B) > F        hyper increase  R_T += R_HAI, then the same average
 *                 otherwise            additive        R_T += R_AI,  then the same average
 *               (F = fast-recovery stages). Without the byte counter this is the artifacts'
 *               sequence: F fast-recovery events, one additive, then hyper increases of R_HAI
 *               each (the paper grows the hyper step i × R_HAI; the artifacts do not).
 *   clamp       with dcqcn_clamp_target = false (the artifacts), a cut sets R_T ← R_C only if
 *               an increase event happened since the previous cut, so back-to-back cuts keep
 *               the target the flow had before congestion.
 *
 * This is the Mellanox model the HPCC-lineage artifacts implement (α and decrease clocks with
 * "CNP arrived in this slot" flags), not the paper's α timer restarted by each CNP.
 *
 * The three clocks are evaluated lazily: instead of one event per microsecond per flow, the
 * control works out what they would have done whenever it next looks at the flow (an ACK, a
 * CNP, or the NIC taking a packet). Every tick is applied at its own time and in time order,
 * so a rate is the same as with real timers by the next packet; only the pacing of the packet
 * that was already scheduled at the old rate can differ, by one packet gap.
 */
#include <math.h>
#include "transport/flows.h"
#include "transport/rdma.h"
#include "transport/transport.h"

struct dcqcn {
	double alpha;
	double rate;            /* R_C in bits/s (the QP's rate is its rounding) */
	double target;          /* R_T in bits/s */
	sb_time alpha_next;     /* next α tick, SB_TIME_NEVER before the first CNP */
	sb_time dec_phase;      /* decrease checks tick at dec_phase + k × interval */
	sb_time dec_due;        /* the check that will cut, SB_TIME_NEVER = none pending */
	sb_time next_increase;  /* next timer increase event, SB_TIME_NEVER = none due */
	uint64_t byte_count;    /* bytes sent since the last byte-counter event */
	uint32_t t_stage, b_stage;
	double applied;         /* the R_C last given to the engine (sb_rdma_set_rate) */
	sb_time alpha_period;   /* rdma.dcqcn_alpha_interval_us and ... */
	sb_time increase_period;/* ... rdma.dcqcn_rp_timer_us, in ps (advance runs per packet) */
	bool alpha_cnp;         /* a CNP arrived since the last α tick */
	bool ever_cnp;
};
_Static_assert(sizeof(struct dcqcn) <= SB_RDMA_CC_STATE, "DCQCN state must fit");

static inline struct dcqcn *dcqcn_of(struct sb_rdma_qp *qp) { return (struct dcqcn *)(void *)qp->cc_state; }

static void dcqcn_init(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	struct dcqcn *d = dcqcn_of(qp);
	d->alpha = 1.0; /* DCQCN starts with α = 1: the first cut halves the rate */
	d->rate = d->target = d->applied = (double)qp->line_bps;
	d->alpha_period = sb_time_from_us(fl->rdma->dcqcn_alpha_interval_us);
	d->increase_period = sb_time_from_us(fl->rdma->dcqcn_rp_timer_us);
	d->alpha_next = d->dec_due = d->next_increase = SB_TIME_NEVER;
	d->dec_phase = 0;
	d->byte_count = 0;
	d->t_stage = d->b_stage = 0;
	d->alpha_cnp = d->ever_cnp = false;
}

static void clamp(const struct sb_flows *fl, const struct sb_rdma_qp *qp, struct dcqcn *d)
{
	double lo = sb_rdma_min_bps(fl), hi = (double)qp->line_bps;
	if (d->target > hi)
		d->target = hi;
	if (d->rate > hi)
		d->rate = hi;
	if (d->rate < lo)
		d->rate = lo;
}

static void cut(const struct sb_flows *fl, const struct sb_rdma_qp *qp, struct dcqcn *d, sb_time t)
{
	const struct sb_rdma_params *r = fl->rdma;
	if (r->dcqcn_clamp_target || d->t_stage > 0 || d->b_stage > 0)
		d->target = d->rate;
	d->rate *= 1.0 - d->alpha / 2.0;
	clamp(fl, qp, d);
	d->t_stage = d->b_stage = 0;
	d->byte_count = 0;
	d->next_increase = t + d->increase_period;
}

static void increase(const struct sb_flows *fl, const struct sb_rdma_qp *qp, struct dcqcn *d, bool by_timer)
{
	const struct sb_rdma_params *r = fl->rdma;
	uint32_t b = r->dcqcn_byte_counter_bytes > 0 ? d->b_stage : d->t_stage;
	uint32_t hi = d->t_stage > b ? d->t_stage : b, lo = d->t_stage < b ? d->t_stage : b;
	uint64_t F = (uint64_t)r->dcqcn_fast_recovery;
	if (hi >= F) /* not fast recovery: the target moves */
		d->target += (lo > F ? r->dcqcn_hai_mbps : r->dcqcn_ai_mbps) * 1e6;
	if (d->target > (double)qp->line_bps)
		d->target = (double)qp->line_bps;
	d->rate = (d->target + d->rate) / 2.0;
	clamp(fl, qp, d);
	if (by_timer)
		d->t_stage++;
	else
		d->b_stage++;
}

/* Play the timer events due by `now` in time order (ties: α tick, then cut, then increase):
 * α ticks, the decrease check that follows a CNP, and rate increases every RP timer period
 * after a cut. Runs of α ticks without a CNP collapse into one power of (1 − g). Once both
 * rates are back at line rate nothing is left to increase and the increase timer stops (a
 * cut restarts it). */
static void advance(const struct sb_flows *fl, const struct sb_rdma_qp *qp, struct dcqcn *d, sb_time now)
{
	/* Most calls (one per packet sent and per ACK) find no clock due. */
	if (now < d->alpha_next && now < d->dec_due && now < d->next_increase)
		return;
	const struct sb_rdma_params *r = fl->rdma;
	sb_time a_period = d->alpha_period, i_period = d->increase_period;
	for (;;) {
		sb_time other = d->dec_due < d->next_increase ? d->dec_due : d->next_increase;
		if (d->alpha_next <= now && d->alpha_next <= other) {
			if (d->alpha_cnp) {
				d->alpha = (1.0 - r->dcqcn_g) * d->alpha + r->dcqcn_g;
				d->alpha_cnp = false;
				d->alpha_next += a_period;
			} else {
				sb_time limit = other < now ? other : now;
				uint64_t k = (limit - d->alpha_next) / a_period + 1;
				/* one tick is the common case: pow(x, 1) is x exactly, and cheaper */
				d->alpha *= k == 1 ? 1.0 - r->dcqcn_g : pow(1.0 - r->dcqcn_g, (double)k);
				d->alpha_next += k * a_period;
			}
		} else if (d->dec_due <= now && d->dec_due <= d->next_increase) {
			cut(fl, qp, d, d->dec_due);
			d->dec_due = SB_TIME_NEVER;
		} else if (d->next_increase <= now) {
			sb_time t = d->next_increase;
			increase(fl, qp, d, true);
			d->next_increase = t + i_period;
			if (d->rate >= (double)qp->line_bps && d->target >= (double)qp->line_bps)
				d->next_increase = SB_TIME_NEVER;
		} else {
			break;
		}
	}
}

/* Hand R_C to the engine when it changed: the engine's clamp and rounding are a function of R_C
 * alone, so an unchanged R_C would leave the QP's rate as it is. */
static inline void apply(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, struct dcqcn *d)
{
	if (d->rate == d->applied)
		return;
	d->applied = d->rate;
	sb_rdma_set_rate(fl, f, qp, d->rate);
}

static void dcqcn_on_cnp(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	const struct sb_rdma_params *r = fl->rdma;
	struct dcqcn *d = dcqcn_of(qp);
	sb_time now = sb_now(&fl->net->engine);
	advance(fl, qp, d, now);
	sb_time period = sb_time_from_us(r->dcqcn_rate_decrease_interval_us);
	if (!d->ever_cnp) {
		/* The first CNP starts the α and decrease clocks, with α = 1. It cuts at once
		 * (dcqcn_first_cut = cnp: a halving), or only arms the decrease check, which cuts one
		 * interval later with α as its ticks left it (= check: Mellanox's NICs and the
		 * artifacts, whose first CNP merely sets the rate to RateOnFirstCnp = 1 × itself). */
		d->ever_cnp = true;
		d->alpha = 1.0;
		d->alpha_next = now + d->alpha_period;
		d->dec_phase = now;
		if (r->dcqcn_first_cut == SB_DCQCN_FIRST_CUT_CNP) {
			cut(fl, qp, d, now);
		} else {
			d->dec_due = now + period;
			advance(fl, qp, d, now); /* an interval of 0 cuts now */
		}
	} else {
		d->alpha_cnp = true;
		if (d->dec_due == SB_TIME_NEVER) {
			/* the first decrease check at or after now (an interval of 0: now) */
			d->dec_due = period ? d->dec_phase + (now - d->dec_phase + period - 1) / period * period : now;
			advance(fl, qp, d, now); /* a check due right now cuts now */
		}
	}
	apply(fl, f, qp, d);
}

static void dcqcn_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp,
			 const struct sb_rdma_feedback *fb)
{
	struct dcqcn *d = dcqcn_of(qp);
	advance(fl, qp, d, sb_now(&fl->net->engine));
	apply(fl, f, qp, d);
}

static void dcqcn_on_send(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, uint32_t wire_bytes)
{
	const struct sb_rdma_params *r = fl->rdma;
	struct dcqcn *d = dcqcn_of(qp);
	advance(fl, qp, d, sb_now(&fl->net->engine));
	if (r->dcqcn_byte_counter_bytes > 0 && d->ever_cnp) {
		d->byte_count += wire_bytes;
		while (d->byte_count >= (uint64_t)r->dcqcn_byte_counter_bytes) {
			d->byte_count -= (uint64_t)r->dcqcn_byte_counter_bytes;
			increase(fl, qp, d, false);
		}
	}
	apply(fl, f, qp, d);
}

const struct sb_rdma_cc_ops sb_rdma_cc_dcqcn = {
	.name = "dcqcn",
	.ecn = true,
	.init = dcqcn_init,
	.on_ack = dcqcn_on_ack,
	.on_cnp = dcqcn_on_cnp,
	.on_send = dcqcn_on_send,
};

static void dcqcn_start(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &sb_rdma_cc_dcqcn); }

const struct sb_transport_ops sb_transport_dcqcn = {
	.name = "dcqcn",
	.summary = "RDMA with DCQCN: ECN marks become CNPs; rate cut by α/2, fast recovery, additive and hyper increase",
	SB_RDMA_TRANSPORT(dcqcn_start),
};
