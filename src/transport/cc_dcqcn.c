/*
 * cc_dcqcn.c — DCQCN (Zhu et al., SIGCOMM 2015), the reaction point; the notification point
 * (a CNP per CE-marked packet, at most one per flow per rdma.dcqcn_cnp_interval_us) is the
 * engine's (rdma.c), switched on by `.ecn`.
 *
 * The sender keeps its current rate R_C, a target rate R_T and α, an estimate of how often it
 * is told about congestion:
 *
 *   on a CNP    α ← (1 − g) α + g, and the α timer restarts; the rate is cut
 *               R_T ← R_C (see clamp below), R_C ← R_C (1 − α/2), at most once per
 *               rate-decrease interval (a CNP inside the interval is applied when it ends);
 *   α timer     every alpha interval without a CNP, α ← (1 − g) α;
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
 * The three timers are evaluated lazily: instead of one event per microsecond per flow, the
 * control works out what they would have done whenever it next looks at the flow (an ACK, a
 * CNP, or the NIC taking a packet). Every event is applied at its own time and in time order,
 * so a rate is the same as with real timers by the next packet; only the pacing of the packet
 * that was already scheduled at the old rate can differ, by one packet gap.
 */
#include <math.h>
#include "sim/sim.h"
#include "transport/rdma.h"
#include "transport/transport.h"

struct dcqcn {
	double alpha;
	double rate;            /* R_C in bits/s (the QP's rate is its rounding) */
	double target;          /* R_T in bits/s */
	sb_time alpha_at;       /* α is current as of this time */
	sb_time cut_at;         /* the last cut */
	sb_time next_increase;  /* next timer increase event, SB_TIME_NEVER = none due */
	uint64_t byte_count;    /* bytes sent since the last byte-counter event */
	uint32_t t_stage, b_stage;
	bool cut_pending;       /* a CNP came within the decrease interval of the last cut */
	bool ever_cut;
};
_Static_assert(sizeof(struct dcqcn) <= SB_RDMA_CC_STATE, "DCQCN state must fit");

static inline struct dcqcn *dcqcn_of(struct sb_rdma_qp *qp) { return (struct dcqcn *)(void *)qp->cc_state; }

static void dcqcn_init(struct sb_sim *sim, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	struct dcqcn *d = dcqcn_of(qp);
	d->alpha = 1.0; /* DCQCN starts with α = 1: the first cut halves the rate */
	d->rate = d->target = (double)qp->line_bps;
	d->alpha_at = d->cut_at = sb_now(sim);
	d->next_increase = SB_TIME_NEVER;
	d->byte_count = 0;
	d->t_stage = d->b_stage = 0;
	d->cut_pending = d->ever_cut = false;
}

/* α decays once per whole alpha interval elapsed since it was last current. */
static void alpha_to(const struct sb_rdma_params *r, struct dcqcn *d, sb_time t)
{
	sb_time period = sb_time_from_us(r->dcqcn_alpha_interval_us);
	uint64_t k = (t - d->alpha_at) / period;
	if (k) {
		d->alpha *= pow(1.0 - r->dcqcn_g, (double)k);
		d->alpha_at += k * period;
	}
}

static void clamp(const struct sb_sim *sim, const struct sb_rdma_qp *qp, struct dcqcn *d)
{
	double lo = sb_rdma_min_bps(sim), hi = (double)qp->line_bps;
	if (d->target > hi)
		d->target = hi;
	if (d->rate > hi)
		d->rate = hi;
	if (d->rate < lo)
		d->rate = lo;
}

static void cut(const struct sb_sim *sim, const struct sb_rdma_qp *qp, struct dcqcn *d, sb_time t)
{
	const struct sb_rdma_params *r = &sim->sc->rdma;
	alpha_to(r, d, t);
	if (r->dcqcn_clamp_target || d->t_stage > 0 || d->b_stage > 0)
		d->target = d->rate;
	d->rate *= 1.0 - d->alpha / 2.0;
	clamp(sim, qp, d);
	d->t_stage = d->b_stage = 0;
	d->byte_count = 0;
	d->cut_at = t;
	d->ever_cut = true;
	d->cut_pending = false;
	d->next_increase = t + sb_time_from_us(r->dcqcn_rp_timer_us);
}

static void increase(const struct sb_sim *sim, const struct sb_rdma_qp *qp, struct dcqcn *d, bool by_timer)
{
	const struct sb_rdma_params *r = &sim->sc->rdma;
	uint32_t b = r->dcqcn_byte_counter_bytes > 0 ? d->b_stage : d->t_stage;
	uint32_t hi = d->t_stage > b ? d->t_stage : b, lo = d->t_stage < b ? d->t_stage : b;
	uint64_t F = (uint64_t)r->dcqcn_fast_recovery;
	if (hi >= F) /* not fast recovery: the target moves */
		d->target += (lo > F ? r->dcqcn_hai_mbps : r->dcqcn_ai_mbps) * 1e6;
	if (d->target > (double)qp->line_bps)
		d->target = (double)qp->line_bps;
	d->rate = (d->target + d->rate) / 2.0;
	clamp(sim, qp, d);
	if (by_timer)
		d->t_stage++;
	else
		d->b_stage++;
}

/* Play the timer events due by `now` in time order: a pending cut when its interval ends,
 * increases every rate-increase period. Once both rates are back at line rate nothing is left
 * to increase and the timer stops (a cut restarts it). */
static void advance(const struct sb_sim *sim, const struct sb_rdma_qp *qp, struct dcqcn *d, sb_time now)
{
	const struct sb_rdma_params *r = &sim->sc->rdma;
	sb_time period = sb_time_from_us(r->dcqcn_rp_timer_us);
	sb_time cut_wait = sb_time_from_us(r->dcqcn_rate_decrease_interval_us);
	for (;;) {
		sb_time t_cut = d->cut_pending ? d->cut_at + cut_wait : SB_TIME_NEVER;
		sb_time t_inc = d->next_increase;
		if (t_cut <= t_inc && t_cut <= now) {
			cut(sim, qp, d, t_cut);
		} else if (t_inc <= now) {
			increase(sim, qp, d, true);
			d->next_increase = t_inc + period;
			if (d->rate >= (double)qp->line_bps && d->target >= (double)qp->line_bps)
				d->next_increase = SB_TIME_NEVER;
		} else {
			break;
		}
	}
}

static void dcqcn_on_cnp(struct sb_sim *sim, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	const struct sb_rdma_params *r = &sim->sc->rdma;
	struct dcqcn *d = dcqcn_of(qp);
	sb_time now = sb_now(sim);
	advance(sim, qp, d, now);
	alpha_to(r, d, now);
	d->alpha = (1.0 - r->dcqcn_g) * d->alpha + r->dcqcn_g;
	d->alpha_at = now; /* the α timer restarts at every CNP */
	if (!d->ever_cut || now >= d->cut_at + sb_time_from_us(r->dcqcn_rate_decrease_interval_us))
		cut(sim, qp, d, now);
	else
		d->cut_pending = true;
	sb_rdma_set_rate(sim, f, qp, d->rate);
}

static void dcqcn_on_ack(struct sb_sim *sim, struct sb_flow *f, struct sb_rdma_qp *qp,
			 const struct sb_rdma_feedback *fb)
{
	struct dcqcn *d = dcqcn_of(qp);
	advance(sim, qp, d, sb_now(sim));
	sb_rdma_set_rate(sim, f, qp, d->rate);
}

static void dcqcn_on_send(struct sb_sim *sim, struct sb_flow *f, struct sb_rdma_qp *qp, uint32_t wire_bytes)
{
	const struct sb_rdma_params *r = &sim->sc->rdma;
	struct dcqcn *d = dcqcn_of(qp);
	advance(sim, qp, d, sb_now(sim));
	if (r->dcqcn_byte_counter_bytes > 0 && d->ever_cut) {
		d->byte_count += wire_bytes;
		while (d->byte_count >= (uint64_t)r->dcqcn_byte_counter_bytes) {
			d->byte_count -= (uint64_t)r->dcqcn_byte_counter_bytes;
			increase(sim, qp, d, false);
		}
	}
	sb_rdma_set_rate(sim, f, qp, d->rate);
}

const struct sb_rdma_cc_ops sb_rdma_cc_dcqcn = {
	.name = "dcqcn",
	.ecn = true,
	.init = dcqcn_init,
	.on_ack = dcqcn_on_ack,
	.on_cnp = dcqcn_on_cnp,
	.on_send = dcqcn_on_send,
};

static void dcqcn_start(struct sb_sim *sim, struct sb_flow *f) { sb_rdma_start(sim, f, &sb_rdma_cc_dcqcn); }

const struct sb_transport_ops sb_transport_dcqcn = {
	.name = "dcqcn",
	.summary = "RDMA with DCQCN: ECN marks become CNPs; rate cut by α/2, fast recovery, additive and hyper increase",
	SB_RDMA_TRANSPORT(dcqcn_start),
};
