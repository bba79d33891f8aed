/*
 * cc_powertcp.c — PowerTCP and θ-PowerTCP (Addanki et al., NSDI 2022): control by "power",
 * the product of a bottleneck's arrival rate and its queueing delay plus base RTT, which
 * reacts both to the queue and to how fast it is changing.
 *
 * PowerTCP (INT). Against the previous ACK's INT, each hop i over Δt gives
 *
 *   λ_i = Δqlen_i · 8 / Δt + Δtx_bytes_i · 8 / Δt          arrival rate = q̇ + μ (the paper)
 *   A_i = max(λ_i, B_i / 2)                                  floor of ns3-datacenter
 *   Γ_i = A_i · (qlen_i · 8 + B_i · τ) / (B_i² · τ)           normalised power
 *
 * (τ = the flow's base RTT, B_i the link rate). The largest Γ_i, with its Δt, is smoothed over
 * one base RTT: Γ ← (Γ (τ − Δt) + Γ_i Δt) / τ, Δt ≤ τ. Then, per ACK (FAST_REACT),
 *
 *   R ← γ (R_ref / (Γ / η) + β) + (1 − γ) R,
 *
 * with the reference rate R_ref set to the current rate once per RTT (by the first ACK beyond
 * the snd_nxt of the previous update), γ = rdma.powertcp_gamma, β = rdma.powertcp_beta_mbps,
 * η = rdma.powertcp_eta (U_TARGET). R is clamped to [rdma.min_rate_mbps, line rate] and the
 * window is R × τ, as ns3-datacenter runs PowerTCP (HAS_WIN, VAR_WIN). This is the formula of
 * ns3-datacenter's UpdateRatePower (simulator/ns-3.39/src/point-to-point/model/rdma-hw.cc); the
 * paper writes it for a window, W ← γ (W_old / Γ + β) + (1 − γ) W, which is the same with η = 1
 * and rates in place of windows.
 *
 * θ-PowerTCP needs no switch support: the power comes from RTT samples alone. With θ the RTT
 * of the ACKed packet and Δt the time since the previous ACK,
 *
 *   Γ = max(dθ/dt + 1, 0.5) · θ / (τ / η),        R ← γ (R_ref / Γ + β) + (1 − γ) R,
 *
 * smoothed the same way, with its own γ (rdma.thetapowertcp_gamma; ns3-datacenter's delay
 * variant weighs 0.7 / 0.3). The target η enters differently than with INT, as in
 * ns3-datacenter, which divides by 1.05 τ: an RTT cannot tell an idle link from a full one
 * without a queue, so an empty path must read as Γ = η < 1 for a lone flow to grow to line
 * rate (dividing R_ref by Γ/η instead would hold it at β / (1 − η)). The price is a standing
 * queue: N flows settle where Γ = R / (R − β), a queueing delay of about (1/η − 1) τ plus
 * what the N β of additive increase add.
 *
 * Both start with Γ = 1 (a path exactly full) and R_ref = line rate.
 */
#include "transport/flows.h"
#include "transport/rdma.h"
#include "transport/transport.h"

struct powertcp {
	struct { sb_time ts; uint32_t tx; uint32_t qlen; } hop[SB_INT_MAX_HOPS]; /* previous INT */
	double power;             /* smoothed normalised power Γ */
	double ref_rate;          /* R_ref, bits/s */
	uint64_t last_update_seq; /* R_ref changes when an ACK passes this */
	uint8_t nhops;            /* hops of the previous INT; 0 = none yet */
};
_Static_assert(sizeof(struct powertcp) <= SB_RDMA_CC_STATE, "PowerTCP state must fit");

struct thetapowertcp {
	sb_time prev_rtt, prev_at; /* previous RTT sample and when it came; prev_at 0 = none */
	double power, ref_rate;
	uint64_t last_update_seq;
};
_Static_assert(sizeof(struct thetapowertcp) <= SB_RDMA_CC_STATE, "theta-PowerTCP state must fit");

/* The update both variants share: R ← γ (R_ref / divisor + β) + (1 − γ) R, with R_ref moved to
 * the current rate once per RTT. The divisor is Γ/η for PowerTCP, Γ for θ-PowerTCP. */
static void apply_power(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, double divisor,
			double *ref_rate, uint64_t *last_update_seq, uint64_t ack, double gamma)
{
	const struct sb_rdma_params *r = fl->rdma;
	if (ack > *last_update_seq) {
		*ref_rate = (double)qp->rate_bps;
		*last_update_seq = qp->snd_nxt;
	}
	double d = divisor > 1e-9 ? divisor : 1e-9;
	double rate = gamma * (*ref_rate / d + r->powertcp_beta_mbps * 1e6) + (1.0 - gamma) * (double)qp->rate_bps;
	sb_rdma_set_rate(fl, f, qp, rate);
	double window = (double)qp->rate_bps * sb_time_to_sec(qp->base_rtt) / 8.0;
	sb_rdma_set_window(fl, f, qp, (uint64_t)(window + 0.5));
}

/* Γ ← (Γ (τ − Δt) + sample Δt) / τ with Δt ≤ τ. */
static double smooth(double power, double sample, double dt, double tau)
{
	if (dt > tau)
		dt = tau;
	return (power * (tau - dt) + sample * dt) / tau;
}

/* --- PowerTCP (INT) --- */

static inline struct powertcp *powertcp_of(struct sb_rdma_qp *qp) { return (struct powertcp *)(void *)qp->cc_state; }

static void powertcp_init(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	struct powertcp *s = powertcp_of(qp);
	s->power = 1.0;
	s->ref_rate = (double)qp->line_bps;
	s->last_update_seq = 0;
	s->nhops = 0;
	sb_rdma_set_window(fl, f, qp, (uint64_t)((double)qp->line_bps * sb_time_to_sec(qp->base_rtt) / 8.0 + 0.5));
}

static void remember(struct powertcp *s, const struct sb_int_rec *rec)
{
	for (uint8_t i = 0; i < rec->nhops; i++) {
		s->hop[i].ts = rec->hop[i].ts;
		s->hop[i].tx = (uint32_t)rec->hop[i].tx_bytes;
		s->hop[i].qlen = rec->hop[i].qlen;
	}
	s->nhops = rec->nhops;
}

static void powertcp_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp,
			    const struct sb_rdma_feedback *fb)
{
	struct powertcp *s = powertcp_of(qp);
	const struct sb_int_rec *rec = fb->hops;
	if (!rec || !rec->nhops)
		return;
	if (s->nhops != rec->nhops) { /* first ACK: nothing to compare with yet */
		remember(s, rec);
		s->last_update_seq = qp->snd_nxt;
		return;
	}
	double tau = sb_time_to_sec(qp->base_rtt);
	double best = -1, best_dt = 0;
	for (uint8_t i = 0; i < rec->nhops; i++) {
		const struct sb_int_hop *now = &rec->hop[i];
		if (now->ts <= s->hop[i].ts)
			continue;
		double dt = sb_time_to_sec(now->ts - s->hop[i].ts);
		double B = (double)now->rate_bps;
		double mu = (double)(uint32_t)((uint32_t)now->tx_bytes - s->hop[i].tx) * 8.0 / dt;
		double qdot = ((double)now->qlen - (double)s->hop[i].qlen) * 8.0 / dt;
		double a = qdot + mu;
		if (a < 0.5 * B)
			a = 0.5 * B;
		double g = a * ((double)now->qlen * 8.0 + B * tau) / (B * B * tau);
		if (g > best) {
			best = g;
			best_dt = dt;
		}
	}
	remember(s, rec);
	if (best < 0)
		return;
	s->power = smooth(s->power, best, best_dt, tau);
	apply_power(fl, f, qp, s->power / fl->rdma->powertcp_eta, &s->ref_rate, &s->last_update_seq, fb->ack,
		    fl->rdma->powertcp_gamma);
}

const struct sb_rdma_cc_ops sb_rdma_cc_powertcp = {
	.name = "powertcp",
	.telemetry = true,
	.init = powertcp_init,
	.on_ack = powertcp_on_ack,
};

static void powertcp_start(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &sb_rdma_cc_powertcp); }

const struct sb_transport_ops sb_transport_powertcp = {
	.name = "powertcp",
	.summary = "RDMA with PowerTCP (INT): rate from the bottleneck's power, arrival rate × (queue + BDP)",
	SB_RDMA_TRANSPORT(powertcp_start),
};

/* --- θ-PowerTCP (RTT only) --- */

static inline struct thetapowertcp *theta_of(struct sb_rdma_qp *qp)
{
	return (struct thetapowertcp *)(void *)qp->cc_state;
}

static void theta_init(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	struct thetapowertcp *s = theta_of(qp);
	s->prev_rtt = s->prev_at = 0;
	s->power = 1.0;
	s->ref_rate = (double)qp->line_bps;
	s->last_update_seq = 0;
	sb_rdma_set_window(fl, f, qp, (uint64_t)((double)qp->line_bps * sb_time_to_sec(qp->base_rtt) / 8.0 + 0.5));
}

static void theta_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp,
			 const struct sb_rdma_feedback *fb)
{
	struct thetapowertcp *s = theta_of(qp);
	sb_time now = sb_now(&fl->net->engine);
	if (!s->prev_at || now <= s->prev_at) {
		if (!s->prev_at)
			s->last_update_seq = qp->snd_nxt;
		s->prev_rtt = fb->rtt;
		s->prev_at = now;
		return;
	}
	double tau = sb_time_to_sec(qp->base_rtt);
	double dt = sb_time_to_sec(now - s->prev_at);
	double rtt = sb_time_to_sec(fb->rtt);
	double grad = (rtt - sb_time_to_sec(s->prev_rtt)) / dt;
	double a = grad + 1.0 > 0.5 ? grad + 1.0 : 0.5;
	double eta = fl->rdma->powertcp_eta;
	s->power = smooth(s->power, a * rtt * eta / tau, dt, tau);
	s->prev_rtt = fb->rtt;
	s->prev_at = now;
	apply_power(fl, f, qp, s->power, &s->ref_rate, &s->last_update_seq, fb->ack,
		    fl->rdma->thetapowertcp_gamma);
}

const struct sb_rdma_cc_ops sb_rdma_cc_thetapowertcp = {
	.name = "thetapowertcp",
	.init = theta_init,
	.on_ack = theta_on_ack,
};

static void theta_start(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &sb_rdma_cc_thetapowertcp); }

const struct sb_transport_ops sb_transport_thetapowertcp = {
	.name = "thetapowertcp",
	.summary = "RDMA with theta-PowerTCP: PowerTCP's power from RTT and its gradient alone, no switch support",
	SB_RDMA_TRANSPORT(theta_start),
};
