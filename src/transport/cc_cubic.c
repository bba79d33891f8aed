/*
 * cc_cubic.c — CUBIC (RFC 8312).
 *
 * After a congestion event the window follows W(t) = C (t − K)^3 + W_max, with t the time
 * since the congestion-avoidance epoch began and K = cbrt((W_max − cwnd_epoch) / C) the time
 * at which W returns to W_max (with cwnd_epoch = β W_max this is RFC 8312's K). Where standard
 * TCP would do better, the TCP-friendly estimate W_est(t) = cwnd_epoch + 3(1 − β)/(1 + β) t/RTT
 * is used instead (RFC 8312 4.2). Windows are computed in segments as in the RFC and applied
 * to the engine's byte cwnd; the fraction of a byte lost per ACK is carried over.
 *
 * K is computed from the window at the start of the epoch (as Linux does) rather than assumed
 * to be β W_max, so that an epoch that starts after slow start from a smaller window (the
 * engine's RFC 6582 exit can leave cwnd below ssthresh) still reaches W_max at t = K.
 *
 * Two departures of Linux and ns-3 from the RFC are keys: until a flow's first loss (and again
 * after a timeout) they grow at least one segment per tcp.cubic_cnt_clamp segments acknowledged
 * (Linux's and ns-3's "cnt" clamp, 5 % per RTT at 20), because before a W_max is known the cubic
 * curve grows by C·t³ segments in seconds: nothing at datacenter RTTs. And ns-3's TcpCubic has
 * no TCP-friendly region (tcp.cubic_tcp_friendly = false), so after a loss its window stays near
 * β·W_max for the K ≈ cbrt((1 − β)·W_max / C) seconds of the concave part. HyStart is the
 * engine's (tcp_hystart.c).
 */
#include <math.h>
#include "transport/flows.h"
#include "transport/tcp.h"
#include "transport/transport.h"

struct cubic {
	double w_max;       /* segments: window before the last reduction */
	double w_last_max;  /* segments: previous w_max, for fast convergence; 0 = no loss yet, or
			     * none since the last timeout */
	double k;           /* seconds */
	double w_epoch;     /* segments: cwnd when the epoch began (origin of W_est) */
	double frac_bytes;  /* growth below one byte, carried to the next ACK */
	sb_time epoch_start;/* SB_TIME_NEVER = no epoch yet (next CA ACK starts one) */
};
_Static_assert(sizeof(struct cubic) <= SB_TCP_CC_STATE, "CUBIC state must fit");

static inline struct cubic *cubic_of(struct sb_tcp *tcp) { return (struct cubic *)(void *)tcp->cc_state; }

static void cubic_init(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	struct cubic *c = cubic_of(tcp);
	*c = (struct cubic){ .epoch_start = SB_TIME_NEVER };
}

static void cubic_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t acked)
{
	acked = sb_tcp_slow_start(tcp, acked);
	if (!acked)
		return;
	struct cubic *c = cubic_of(tcp);
	const struct sb_tcp_params *p = fl->tcp;
	double mss = (double)tcp->mss;
	double cwnd = (double)tcp->cwnd / mss;
	sb_time now = sb_now(&fl->net->engine);

	if (c->epoch_start == SB_TIME_NEVER) {
		c->epoch_start = now;
		c->w_epoch = cwnd;
		c->frac_bytes = 0;
		if (cwnd < c->w_max) {
			c->k = cbrt((c->w_max - cwnd) / p->cubic_c);
		} else {
			/* No reduction yet (or already beyond it): grow from here, convex. */
			c->k = 0;
			c->w_max = cwnd;
		}
	}
	double rtt = tcp->srtt ? sb_time_to_sec(tcp->srtt) : sb_time_to_sec(tcp->rto);
	double t = sb_time_to_sec(now - c->epoch_start);
	double beta = p->cubic_beta;

	double w_est = c->w_epoch + 3.0 * (1.0 - beta) / (1.0 + beta) * t / rtt;
	double d = t - c->k;
	double w_cubic = p->cubic_c * d * d * d + c->w_max;
	/* Growth in bytes for this ACK, from the cubic curve: per ACK, (W(t + RTT) − cwnd) / cwnd
	 * segments per acknowledged segment (RFC 8312 4.3, 4.4), at most a slow-start step per RTT. */
	double inc = c->frac_bytes;
	double dn = t + rtt - c->k;
	double target = p->cubic_c * dn * dn * dn + c->w_max;
	if (target > 1.5 * cwnd)
		target = 1.5 * cwnd;
	if (target > cwnd)
		inc += (target - cwnd) / cwnd * (double)acked;
	/* Before a loss: at least one segment per cnt_clamp acknowledged (Linux, ns-3). */
	if (c->w_last_max == 0 && p->cubic_cnt_clamp > 0) {
		double floor_inc = c->frac_bytes + (double)acked / (double)p->cubic_cnt_clamp;
		if (inc < floor_inc)
			inc = floor_inc;
	}
	/* TCP-friendly region (RFC 8312 4.2): at least W_est. */
	if (p->cubic_tcp_friendly && w_cubic < w_est) {
		double friendly = w_est * mss - (double)tcp->cwnd;
		if (friendly > inc)
			inc = friendly;
	}
	if (inc <= 0)
		return;
	uint64_t whole = (uint64_t)inc;
	c->frac_bytes = inc - (double)whole;
	tcp->cwnd += whole;
}

static uint64_t cubic_ssthresh(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, bool timeout)
{
	struct cubic *c = cubic_of(tcp);
	double beta = fl->tcp->cubic_beta;
	double cwnd = (double)tcp->cwnd / (double)tcp->mss;
	c->epoch_start = SB_TIME_NEVER;
	/* Fast convergence (RFC 8312 4.6): a flow whose W_max keeps shrinking releases bandwidth
	 * to newcomers by remembering a lower W_max. */
	c->w_max = cwnd;
	if (c->w_max < c->w_last_max) {
		c->w_last_max = c->w_max;
		c->w_max = c->w_max * (1.0 + beta) / 2.0;
	} else {
		c->w_last_max = c->w_max;
	}
	uint64_t ss = (uint64_t)((double)tcp->cwnd * beta);
	/* A timeout forgets the history (Linux and ns-3 reset CUBIC on entering Loss): the next
	 * epoch grows from the new window, with the cnt clamp again. */
	if (timeout)
		c->w_max = c->w_last_max = 0;
	return ss > 2u * tcp->mss ? ss : 2u * tcp->mss;
}

const struct sb_tcp_cc_ops sb_cc_cubic = {
	.name = "cubic",
	.init = cubic_init,
	.on_ack = cubic_on_ack,
	.ssthresh = cubic_ssthresh,
};

static void cubic_start(struct sb_flows *fl, struct sb_flow *f) { sb_tcp_start(fl, f, &sb_cc_cubic); }

const struct sb_transport_ops sb_transport_cubic = {
	.name = "cubic",
	.summary = "CUBIC (RFC 8312): cubic window growth around W_max, TCP-friendly region, fast convergence",
	.state_size = sizeof(struct sb_tcp),
	.start = cubic_start,
	.on_data = sb_tcp_on_data,
	.on_ack = sb_tcp_on_ack,
	.on_timer = sb_tcp_on_timer,
	.setup_time = sb_tcp_setup_time,
};
