/*
 * cc_newreno.c — NewReno (RFC 5681 growth, RFC 6582 recovery in the engine).
 *
 * Slow start to ssthresh, then one MSS per window of acknowledged bytes; on a loss ssthresh
 * becomes half the flight. Everything else (fast retransmit, partial ACKs, RTO, the RFC 3168
 * halving if a scenario makes it ECN-capable) is the engine's.
 */
#include "transport/tcp.h"
#include "transport/transport.h"

static void newreno_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t acked)
{
	acked = sb_tcp_slow_start(tcp, acked);
	if (acked)
		sb_tcp_reno_ca(tcp, acked);
}

static uint64_t newreno_ssthresh(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, bool timeout)
{
	return sb_tcp_half_flight(tcp);
}

const struct sb_tcp_cc_ops sb_cc_newreno = {
	.name = "newreno",
	.on_ack = newreno_on_ack,
	.ssthresh = newreno_ssthresh,
};

static void newreno_start(struct sb_flows *fl, struct sb_flow *f) { sb_tcp_start(fl, f, &sb_cc_newreno); }

const struct sb_transport_ops sb_transport_newreno = {
	.name = "newreno",
	.summary = "TCP NewReno: slow start, AIMD, fast retransmit/recovery with partial ACKs, RTO",
	.state_size = sizeof(struct sb_tcp),
	.start = newreno_start,
	.on_data = sb_tcp_on_data,
	.on_ack = sb_tcp_on_ack,
	.on_timer = sb_tcp_on_timer,
	.setup_time = sb_tcp_setup_time,
};
