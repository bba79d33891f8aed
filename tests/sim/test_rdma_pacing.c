/*
 * test_rdma_pacing.c — the RDMA NIC's rate-based sending and first-RTT tagging, rule by rule
 * (src/transport/rdma.c, rdma_nic.c; docs/transports.md, rdma.h):
 *
 *   gap        a QP at rate R starts its packets size/R apart: the next start is the last
 *              start + ser(wire bytes, R), ser(n, R) = ceil(n · 8 · 10¹² / R) ps (docs/outputs.md
 *              §2), as a NIC's rate limiter spaces them;
 *   clamp      a control's rate is held within [rdma.min_rate_mbps, line rate] and kept in whole
 *              bits per second, rounded to nearest (a NaN is the floor);
 *   re-timing  a rate change re-times the pending packet from the last start at the new rate
 *              (the limiter re-times its next token), never before the last packet left;
 *   first RTT  the bytes below rdma.first_rtt_bytes (0: one BDP of the path) are tagged
 *              SB_PF_FIRST_RTT: a packet is tagged when its first byte is (seq < budget).
 *
 * The expected values are computed here from these definitions, not read from the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/packet.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/rdma.h"
#include "transport/transport.h"

#define GBPS 1000000000ULL

/* ser(n, R) of docs/outputs.md §2, in ps: rounded up. */
static sb_time ser(uint64_t bytes, uint64_t bps)
{
	unsigned __int128 bits = (unsigned __int128)bytes * 8u * 1000000000000ULL;
	return (sb_time)((bits + bps - 1) / bps);
}

static void single_switch(struct sb_scenario *sc, int hosts, double gbps)
{
	tl_single_switch(sc, hosts, gbps, 64u << 20);
	sc->topo.host_delay_us = 2;
	sc->run.duration_ms = 5;
	sc->run.arrivals_ms = 5;
	free(sc->sw.scheme);
	sc->sw.scheme = strdup("cs");
}

/* --- the rate the engine keeps ----------------------------------------------------------- */

/* A QP never run, its last packet (1048 wire bytes) started at 5 µs: each rate a control asks
 * for becomes the clamped, rounded rate, and the next start last + ser(1048, rate). Before any
 * packet (last_wire = 0) a rate change moves nothing. */
static void test_set_rate_clamps_and_retimes(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	single_switch(&sc, 2, 25);
	sc.rdma.min_rate_mbps = 100;
	tl_build(&sim, &sc);
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 0, SB_SEC, sb_transport_find("rdma"));
	struct sb_rdma_qp *qp = sb_rdma_qp_of(f);
	memset(qp, 0, sizeof(*qp));
	qp->cc = &sb_rdma_cc_none;
	qp->mtu = 1000;
	qp->line_bps = 25 * GBPS;
	qp->rate_bps = 25 * GBPS;
	qp->rto_at = SB_TIME_NEVER;
	qp->next_send = 77;
	sb_rdma_set_rate(&sim.flows, f, qp, 10e9);
	assert_int_equal(qp->rate_bps, 10 * GBPS);
	assert_int_equal(qp->next_send, 77); /* nothing sent yet: nothing to re-time */
	const sb_time last = 5 * SB_US;
	qp->last_send = last;
	qp->last_wire = 1048;
	static const struct { double ask; uint64_t want; const char *why; } v[] = {
		{ 5e9, 5000000000ULL, "within the range: as asked" },
		{ 1e15, 25000000000ULL, "above line rate: line rate" },
		{ 40e9, 25000000000ULL, "1.6 x line rate: line rate" },
		{ 1.0, 100000000ULL, "below the floor: rdma.min_rate_mbps" },
		{ 99999999.0, 100000000ULL, "just below the floor: the floor" },
		{ 1234567890.5, 1234567891ULL, "x.5 b/s: rounded up" },
		{ 1234567890.49, 1234567890ULL, "below x.5: rounded down" },
		{ NAN, 100000000ULL, "NaN: the floor" },
		{ 25e9 - 0.4, 25000000000ULL, "just below line rate: line rate after rounding" },
		{ 7e9, 7000000000ULL, "back within the range" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sb_rdma_set_rate(&sim.flows, f, qp, v[i].ask);
		print_message("  asked %.2f b/s (%s): rate %llu, next start +%.3f ns\n", v[i].ask, v[i].why,
			      (unsigned long long)qp->rate_bps, sb_time_to_ns(qp->next_send - last));
		assert_int_equal(qp->rate_bps, v[i].want);
		assert_int_equal(qp->next_send, last + ser(1048, v[i].want));
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* --- pacing on the wire ------------------------------------------------------------------ */

/* A control that only sets a fixed rate at start (rates[flow id]), and a receiver hook that
 * records when each data packet arrives and whether it carries the first-RTT tag. */
static double fixed_rate[4];
static struct {
	sb_time at[64];
	bool first_rtt[64];
	unsigned n;
} arrivals;

static void fixed_init(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	sb_rdma_set_rate(fl, f, qp, fixed_rate[f->id]);
}

static const struct sb_rdma_cc_ops fixed_cc = { .name = "fixed", .init = fixed_init };

static void fixed_start(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &fixed_cc); }

static void recording_on_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	if (arrivals.n < SB_ARRAY_LEN(arrivals.at)) {
		arrivals.at[arrivals.n] = sb_now(&fl->net->engine);
		arrivals.first_rtt[arrivals.n] = (pkt->flags & SB_PF_FIRST_RTT) != 0;
		arrivals.n++;
	}
	sb_rdma_on_data(fl, f, pkt);
}

static const struct sb_transport_ops fixed_transport = {
	.name = "fixed", .state_size = sizeof(struct sb_rdma_qp), .start = fixed_start,
	.on_data = recording_on_data, .on_ack = sb_rdma_on_ack, .on_timer = sb_rdma_on_timer,
	.framing = sb_rdma_framing, .lossless_by_default = true,
};

/* One flow of `packets` × 1000 B at `rate` alone on a 25 Gb/s single switch; returns its FCT and
 * fills `arrivals`. */
static sb_time paced_run(double rate, unsigned packets, int64_t first_rtt_bytes, struct sb_sim *sim,
			 struct sb_scenario *sc)
{
	single_switch(sc, 2, 25);
	sc->rdma.first_rtt_bytes = first_rtt_bytes;
	tl_build(sim, sc);
	memset(&arrivals, 0, sizeof arrivals);
	struct sb_flow *f = sb_flow_create(&sim->flows, 0, 1, 1000ULL * packets, 0, &fixed_transport);
	assert_true(f->id < SB_ARRAY_LEN(fixed_rate));
	fixed_rate[f->id] = rate;
	f->prio = SB_DEFAULT_PRIO_LOSSLESS;
	f->lossless = 1;
	tl_run_and_check(sim);
	assert_true(f->completed);
	assert_int_equal(arrivals.n, packets);
	return f->finish - f->start;
}

/* At R = C/3 (8,333,333,333 b/s after rounding) on an idle path every packet meets the same
 * delay, so the arrivals are exactly ser(1048, R) apart, and the flow ends (n − 1) gaps after a
 * one-packet flow would: FCT = (n − 1)·ser(1048, R) + ideal FCT of 1000 B. A rate above line rate
 * is line rate: back to back, the ideal FCT of the whole flow. */
static void test_gap_is_size_over_rate(void **state)
{
	(void)state;
	const unsigned n = 20;
	struct sb_scenario sc;
	struct sb_sim sim;
	uint64_t r = (uint64_t)(25e9 / 3 + 0.5);
	sb_time gap = ser(1048, r);
	sb_time fct = paced_run(25e9 / 3, n, 0, &sim, &sc);
	for (unsigned k = 1; k < n; k++)
		if (arrivals.at[k] - arrivals.at[k - 1] != gap)
			fail_msg("packet %u arrived %.3f ns after the one before, the gap at %llu b/s is %.3f ns", k,
				 sb_time_to_ns(arrivals.at[k] - arrivals.at[k - 1]), (unsigned long long)r,
				 sb_time_to_ns(gap));
	sb_time one = sb_transport_ideal_fct(&sim.flows, &fixed_transport, 0, 1, 1000);
	print_message("  C/3: gap %.3f ns, FCT %.3f ns, (n-1) gaps + one packet's %.3f ns\n", sb_time_to_ns(gap),
		      sb_time_to_ns(fct), sb_time_to_ns((n - 1) * gap + one));
	assert_int_equal(fct, (n - 1) * gap + one);
	tl_check_and_free(&sim, &sc);

	fct = paced_run(100e9, n, 0, &sim, &sc);
	for (unsigned k = 1; k < n; k++)
		assert_int_equal(arrivals.at[k] - arrivals.at[k - 1], ser(1048, 25 * GBPS));
	assert_int_equal(fct, sb_transport_ideal_fct(&sim.flows, &fixed_transport, 0, 1, 1000ULL * n));
	tl_check_and_free(&sim, &sc);
}

/* rdma.first_rtt_bytes = 3000: packets at 0, 1000, 2000 are tagged, the one at 3000 is not;
 * 2500: still three (the packet at 2000 begins inside the budget). */
static void test_first_rtt_budget(void **state)
{
	(void)state;
	static const struct { int64_t budget; unsigned tagged; } v[] = { { 3000, 3 }, { 2500, 3 }, { 1, 1 }, { 9000, 9 } };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct sb_scenario sc;
		struct sb_sim sim;
		paced_run(25e9, 12, v[i].budget, &sim, &sc);
		unsigned tagged = 0, first_untagged = arrivals.n;
		for (unsigned k = 0; k < arrivals.n; k++) {
			tagged += arrivals.first_rtt[k];
			if (!arrivals.first_rtt[k] && first_untagged == arrivals.n)
				first_untagged = k;
		}
		print_message("  rdma.first_rtt_bytes = %lld: %u of 12 packets tagged\n", (long long)v[i].budget, tagged);
		assert_int_equal(tagged, v[i].tagged);
		assert_int_equal(first_untagged, v[i].tagged); /* the first ones, in order */
		tl_check_and_free(&sim, &sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_rate_clamps_and_retimes),
		cmocka_unit_test(test_gap_is_size_over_rate),
		cmocka_unit_test(test_first_rtt_budget),
	};
	return cmocka_run_group_tests_name("rdma_pacing", tests, NULL, NULL);
}
