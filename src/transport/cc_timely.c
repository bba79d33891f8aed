/*
 * cc_timely.c — TIMELY (Mittal et al., SIGCOMM 2015, Algorithm 1): rate control from RTT
 * samples and their gradient, no switch support.
 *
 * The RTT of an ACK is now − the send time of the packet it acknowledges (the NIC stamps a
 * packet when it pulls it, as TIMELY's NIC timestamps completions). Once per RTT — on the
 * first ACK beyond the snd_nxt of the previous update, one "completion event" of a window's
 * worth of data — with new_rtt that ACK's sample:
 *
 *   rtt_diff ← (1 − α) rtt_diff + α (new_rtt − prev_rtt)
 *   gradient = rtt_diff / minRTT
 *   new_rtt < T_low:    R ← R + δ
 *   new_rtt > T_high:   R ← R (1 − β (1 − T_high / new_rtt))
 *   gradient ≤ 0:       R ← R + δ, or R + N δ after `timely_hai_after` such updates in a row
 *   otherwise:          R ← R (1 − β · gradient)
 *
 * δ = rdma.timely_ai_mbps, N δ = rdma.timely_hai_mbps (defaults scale with the NIC rate as
 * HPCC's run.py: 10 and 50 Mb/s per 10 Gb/s), minRTT = rdma.timely_min_rtt_us. R stays in
 * [rdma.min_rate_mbps, line rate]. There is no window. The paper's completion events are
 * 16–64 KB segments; one RTT of data is of that size at datacenter BDPs.
 */
#include "transport/flows.h"
#include "transport/rdma.h"
#include "transport/transport.h"

struct timely {
	double rtt_diff;          /* smoothed RTT difference, seconds */
	double prev_rtt;          /* seconds; 0 = no sample yet */
	uint64_t last_update_seq;
	uint32_t negatives;       /* consecutive updates with gradient ≤ 0 */
};
_Static_assert(sizeof(struct timely) <= SB_RDMA_CC_STATE, "TIMELY state must fit");

static inline struct timely *timely_of(struct sb_rdma_qp *qp) { return (struct timely *)(void *)qp->cc_state; }

static void timely_init(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	struct timely *t = timely_of(qp);
	*t = (struct timely){ 0 };
}

static void timely_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp,
			  const struct sb_rdma_feedback *fb)
{
	const struct sb_rdma_params *r = fl->rdma;
	struct timely *t = timely_of(qp);
	if (fb->ack <= t->last_update_seq)
		return;
	t->last_update_seq = qp->snd_nxt;
	double new_rtt = sb_time_to_sec(fb->rtt);
	if (t->prev_rtt <= 0) {
		t->prev_rtt = new_rtt;
		return;
	}
	double scale = (double)qp->line_bps / 10e9;
	double delta = r->timely_ai_mbps > 0 ? r->timely_ai_mbps * 1e6 : 10e6 * scale;
	double hai = r->timely_hai_mbps > 0 ? r->timely_hai_mbps * 1e6 : 50e6 * scale;
	t->rtt_diff = (1.0 - r->timely_alpha) * t->rtt_diff + r->timely_alpha * (new_rtt - t->prev_rtt);
	t->prev_rtt = new_rtt;
	double gradient = t->rtt_diff / (r->timely_min_rtt_us * 1e-6);
	double rate = (double)qp->rate_bps;
	if (new_rtt < r->timely_tlow_us * 1e-6) {
		rate += delta;
		t->negatives = 0;
	} else if (new_rtt > r->timely_thigh_us * 1e-6) {
		rate *= 1.0 - r->timely_beta * (1.0 - r->timely_thigh_us * 1e-6 / new_rtt);
		t->negatives = 0;
	} else if (gradient <= 0) {
		t->negatives++;
		rate += t->negatives >= (uint64_t)r->timely_hai_after ? hai : delta;
	} else {
		rate *= 1.0 - r->timely_beta * gradient;
		t->negatives = 0;
	}
	sb_rdma_set_rate(fl, f, qp, rate);
}

const struct sb_rdma_cc_ops sb_rdma_cc_timely = {
	.name = "timely",
	.init = timely_init,
	.on_ack = timely_on_ack,
};

static void timely_start(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &sb_rdma_cc_timely); }

const struct sb_transport_ops sb_transport_timely = {
	.name = "timely",
	.summary = "RDMA with TIMELY: rate from RTT samples and their gradient between T_low and T_high",
	SB_RDMA_TRANSPORT(timely_start),
};
