/*
 * test_send_jitter.c — host.send_jitter_us: every packet a host sends reaches the other end of
 * its link up to J later than the link's delay, uniformly, never ahead of the packet before it,
 * from a random stream of its own per host.
 *
 * A CBR flow sends 1500-byte packets from host 0 to host 1 through one switch, every link at
 * 1 Gb/s; the receiver logs when each arrives. The same run without jitter is the reference:
 * a packet's "extra" is its arrival minus the reference's. At half the link rate a packet
 * leaves 12 us after the one before ends, so with J below that no packet catches up with
 * another, here or at the switch, and the extras are independent draws of U[0, J] (mean J/2,
 * spread J/sqrt(12)). Back to back with J above a packet's time, the order must still hold.
 * Why it exists: hosts that start together otherwise send to the picosecond in step, and tail
 * drop at a full queue picks the same losers every round (phase effects); the last test shows
 * two hosts' packets no longer tie.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim/sim.h"
#include "testlib.h"
#include "transport/cbr.h"
#include "transport/transport.h"

#define NPKT 2000u
#define PKT_BYTES 1500u
#define LINE 1000000000ull /* bits/s */
#define HALF (LINE / 2)

/* arrivals at the receivers, per flow (0 and 1), by packet index */
static sb_time arrived[2][NPKT];
static uint32_t narrived[2];
static bool in_order[2];
static struct sb_transport_ops logged_cbr;

static void log_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	uint32_t k = f->id < 2 ? f->id : 1;
	uint32_t i = (uint32_t)(pkt->seq / (PKT_BYTES - (uint32_t)fl->tcp->header_bytes));
	if (i != narrived[k])
		in_order[k] = false;
	if (i < NPKT)
		arrived[k][i] = sb_now(&fl->net->engine);
	narrived[k]++;
	sb_transport_find("cbr")->on_data(fl, f, pkt);
}

/* Flow 0: host 0 -> host 1; with `two`, flow 1: host 2 -> host 3, started at the same instant. */
static void run(double jitter_us, uint64_t seed, bool two, uint64_t rate_bps)
{
	char set_jitter[64], set_seed[64];
	snprintf(set_jitter, sizeof set_jitter, "host.send_jitter_us=%.6f", jitter_us);
	snprintf(set_seed, sizeof set_seed, "run.seed=%llu", (unsigned long long)seed);
	const char *sets[] = { set_jitter, set_seed };
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "run: { duration_ms = 60.0; sample_interval_us = 0.0; };\n"
		    "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; host_delay_us = 10.0; };\n"
		    "switch: { scheme = \"cs\"; buffer_bytes = 64000000; ecn_mode = \"off\"; };\n"
		    "workloads = ();\n",
		    sets, 2);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	logged_cbr = *sb_transport_find("cbr");
	logged_cbr.on_data = log_data;
	memset(arrived, 0, sizeof arrived);
	memset(narrived, 0, sizeof narrived);
	in_order[0] = in_order[1] = true;
	uint64_t payload = PKT_BYTES - (uint64_t)sc.tcp.header_bytes;
	for (uint32_t k = 0; k < (two ? 2u : 1u); k++) {
		struct sb_flow *f = sb_flow_create(&sim.flows, 2 * k, 2 * k + 1, NPKT * payload, 100 * SB_US, &logged_cbr);
		assert_int_equal(f->id, k);
		sb_cbr_configure(f, rate_bps, PKT_BYTES);
	}
	tl_run_and_check(&sim);
	for (uint32_t k = 0; k < (two ? 2u : 1u); k++)
		assert_int_equal(narrived[k], NPKT);
	tl_check_and_free(&sim, &sc);
}

struct extras {
	double mean_us, min_us, max_us;
	bool in_order;
};

static struct extras extras_of(const sb_time *ref, const sb_time *got)
{
	struct extras e = { 0, INFINITY, 0, true };
	for (uint32_t i = 0; i < NPKT; i++) {
		assert_true(got[i] >= ref[i]); /* never earlier than without jitter */
		double x = sb_time_to_us(got[i] - ref[i]);
		e.mean_us += x / NPKT;
		e.min_us = x < e.min_us ? x : e.min_us;
		e.max_us = x > e.max_us ? x : e.max_us;
	}
	return e;
}

static void test_extra_delay_is_uniform_up_to_the_jitter(void **state)
{
	(void)state;
	static sb_time ref[NPKT], first[NPKT];
	run(0, 1, false, HALF);
	memcpy(ref, arrived[0], sizeof ref);
	assert_int_equal(ref[1] - ref[0], 24 * SB_US);

	const double jitter = 2.0; /* below the 12 us gaps: every draw shows unclamped */
	run(jitter, 1, false, HALF);
	assert_true(in_order[0]);
	memcpy(first, arrived[0], sizeof first);
	struct extras e = extras_of(ref, arrived[0]);
	print_message("jitter %.1f us: extra delay mean %.4f us, min %.4f, max %.4f (uniform: %.1f, 0, %.1f)\n",
		      jitter, e.mean_us, e.min_us, e.max_us, jitter / 2, jitter);
	assert_true(e.max_us <= jitter + 1e-6);
	/* the mean of 2000 uniform draws is within 0.02 J of J/2 (7 standard errors) */
	assert_true(fabs(e.mean_us - jitter / 2) < 0.02 * jitter);
	assert_true(e.max_us > 0.99 * jitter && e.min_us < 0.01 * jitter);

	/* deterministic per seed; another seed, other draws */
	run(jitter, 1, false, HALF);
	assert_memory_equal(first, arrived[0], sizeof first);
	run(jitter, 2, false, HALF);
	assert_memory_not_equal(first, arrived[0], sizeof first);
}

static void test_packets_keep_their_order(void **state)
{
	(void)state;
	static sb_time ref[NPKT];
	run(0, 1, false, LINE);
	memcpy(ref, arrived[0], sizeof ref);
	assert_int_equal(ref[1] - ref[0], 12 * SB_US); /* back to back */
	/* 50 us of jitter on packets 12 us apart: drawn alone, one would often overtake another */
	const double jitter = 50.0;
	run(jitter, 1, false, LINE);
	assert_true(in_order[0]);
	struct extras e = extras_of(ref, arrived[0]);
	print_message("jitter %.1f us: extra delay mean %.2f us, max %.2f, in order\n", jitter, e.mean_us, e.max_us);
	assert_true(e.max_us <= jitter + 1e-6);
	/* held behind the packet before, a packet waits more than J/2 on average */
	assert_true(e.mean_us > jitter / 2);
	for (uint32_t i = 1; i < NPKT; i++)
		assert_true(arrived[0][i] > arrived[0][i - 1]);
}

static void test_each_host_draws_its_own_jitter(void **state)
{
	(void)state;
	/* without jitter two hosts that start together deliver in step, to the picosecond */
	run(0, 1, true, HALF);
	sb_time offset = arrived[1][0] - arrived[0][0];
	for (uint32_t i = 0; i < NPKT; i++)
		assert_int_equal(arrived[1][i] - arrived[0][i], offset);
	/* with it, they do not: each host has a stream of its own */
	run(2.0, 1, true, HALF);
	uint32_t tied = 0;
	for (uint32_t i = 0; i < NPKT; i++)
		tied += arrived[1][i] - arrived[0][i] == offset;
	print_message("two hosts in step: %u of %u packets still tie with 2 us of jitter\n", tied, NPKT);
	assert_true(tied < NPKT / 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extra_delay_is_uniform_up_to_the_jitter),
		cmocka_unit_test(test_packets_keep_their_order),
		cmocka_unit_test(test_each_host_draws_its_own_jitter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
