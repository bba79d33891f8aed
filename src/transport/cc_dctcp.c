/*
 * cc_dctcp.c — DCTCP (RFC 8257; Alizadeh et al., SIGCOMM 2010).
 *
 * The sender keeps α, an EWMA of the fraction of its bytes that were ECN-marked, updated once
 * per window of data (when snd_una passes the sequence number that was snd_nxt at the previous
 * update). On an ECN echo it cuts cwnd by α/2, at most once per window, so the cut is
 * proportional to the extent of congestion rather than a halving. Growth is NewReno's; losses
 * are handled as NewReno (half the flight), as RFC 8257 section 3.5 recommends.
 */
#include "transport/flows.h"
#include "transport/tcp.h"
#include "transport/transport.h"

struct dctcp {
	double alpha;
	uint64_t window_end;   /* α is updated when snd_una passes this */
	uint64_t acked, marked;/* bytes acknowledged in the current observation window, and with ECE */
};
_Static_assert(sizeof(struct dctcp) <= SB_TCP_CC_STATE, "DCTCP state must fit");

static inline struct dctcp *dctcp_of(struct sb_tcp *tcp) { return (struct dctcp *)(void *)tcp->cc_state; }

static void dctcp_init(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	struct dctcp *d = dctcp_of(tcp);
	f->ecn = true;
	/* RFC 8257 3.3: start at 1 so that the first congestion signal is a full halving, the
	 * safe choice before anything is known about the path. */
	d->alpha = 1.0;
	d->window_end = tcp->cwnd;
	d->acked = d->marked = 0;
}

static void dctcp_on_ecn(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t acked, bool ece)
{
	struct dctcp *d = dctcp_of(tcp);
	d->acked += acked;
	if (ece)
		d->marked += acked;
	if (tcp->snd_una > d->window_end) {
		if (d->acked) {
			double g = fl->tcp->dctcp_g;
			d->alpha = (1.0 - g) * d->alpha + g * (double)d->marked / (double)d->acked;
		}
		d->acked = d->marked = 0;
		d->window_end = tcp->snd_nxt;
	}
	if (ece && !tcp->in_recovery && tcp->snd_una >= tcp->cwr_end) {
		uint64_t w = (uint64_t)((double)tcp->cwnd * (1.0 - d->alpha / 2.0));
		/* Linux's floor: two segments keep the ACK clock going. */
		if (w < 2u * tcp->mss)
			w = 2u * tcp->mss;
		tcp->cwnd = w;
		tcp->ssthresh = w;
		tcp->ca_bytes = 0;
		tcp->cwr_end = tcp->snd_max;
	}
}

double sb_dctcp_alpha(struct sb_tcp *tcp) { return dctcp_of(tcp)->alpha; }

static void dctcp_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t acked)
{
	acked = sb_tcp_slow_start(tcp, acked);
	if (acked)
		sb_tcp_reno_ca(tcp, acked);
}

static uint64_t dctcp_ssthresh(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, bool timeout)
{
	return sb_tcp_half_flight(tcp);
}

const struct sb_tcp_cc_ops sb_cc_dctcp = {
	.name = "dctcp",
	.init = dctcp_init,
	.on_ack = dctcp_on_ack,
	.ssthresh = dctcp_ssthresh,
	.on_ecn = dctcp_on_ecn,
};

static void dctcp_start(struct sb_flows *fl, struct sb_flow *f) { sb_tcp_start(fl, f, &sb_cc_dctcp); }

const struct sb_transport_ops sb_transport_dctcp = {
	.name = "dctcp",
	.summary = "DCTCP (RFC 8257): ECN-fraction α, cwnd × (1 − α/2) once per window; NewReno otherwise",
	.state_size = sizeof(struct sb_tcp),
	.start = dctcp_start,
	.on_data = sb_tcp_on_data,
	.on_ack = sb_tcp_on_ack,
	.on_timer = sb_tcp_on_timer,
	.setup_time = sb_tcp_setup_time,
};
