/*
 * test_lossless_rdma.c — the whole lossless stack at once, for every lossless-capable scheme:
 * RDMA senders (DCQCN, or congestion control off) on the lossless priority 3, TCP on the lossy
 * priority 1, a two-tier leaf-spine so PAUSE propagates hop by hop (host NIC <- leaf <- spine
 * <- leaf), headroom sized by each scheme's formula. Every run must lose no lossless packet,
 * complete every RDMA flow, pause somewhere (the incast is far beyond any buffer), and leave no
 * port paused once the traffic is over.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include "sim/sim.h"
#include "testlib.h"
#include "transport/flow.h"

/* SIH reserves headroom for every lossless queue of every port: with the default 7 queues it
 * would not fit this 25 Gb/s Tomahawk-like buffer at all (the waste DSH is about), so it
 * reserves for the 2 lossless priorities of a port, as the Reverie artifact does. */
static const struct {
	const char *scheme, *keys;
} schemes[] = {
	{ "sonic", "" },
	{ "sonic", "sonic: { policy = \"abm\"; };" },
	{ "reverie", "" },
	{ "sih", "sih: { lossless_queues = 2; };" },
	{ "dsh", "" },
};

/* 2 leaves × 16 hosts, 2 spines: hosts 16..31 (the other rack) each send 500 KB to host 0,
 * a 16:1 incast that crosses both spines and the leaf; DCTCP background between the racks. */
static void run(const char *scheme, const char *keys, const char *transport, bool cc)
{
	char text[2048];
	snprintf(text, sizeof(text),
		 "run: { duration_ms = 30; arrivals_ms = 30; sample_interval_us = 0; check_invariants = true; };\n"
		 "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 16; spines = 2; };\n"
		 "switch: { scheme = \"%s\"; ecn_mode = \"red\"; ecn_kmin_bytes = 100000; ecn_kmax_bytes = 400000;\n"
		 "          ecn_pmax = 0.2; %s };\n"
		 "rdma: { cc = %s; };\n"
		 "workloads = (\n"
		 "  { type = \"burst\"; transport = \"%s\"; srcs = [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,\n"
		 "    28, 29, 30, 31]; dst = 0; size_bytes = 500000; start_ms = 1.0; },\n"
		 "  { type = \"longlived\"; transport = \"dctcp\"; srcs = [17, 18]; dst = 1; size_bytes = 3000000; },\n"
		 "  { type = \"poisson\"; transport = \"dctcp\"; load = 0.3; stop_ms = 5.0; }\n"
		 ");\n",
		 scheme, keys, cc ? "true" : "false", transport);
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc, text, NULL, 0);
	tl_run_kept(&sim, &sc);
	uint64_t rdma_flows = 0, rdma_done = 0;
	for (uint32_t i = 0; i < sim.flows.table.next_id; i++) {
		const struct sb_flow *f = sb_flow_get(&sim.flows, i);
		if (f->lossless) {
			rdma_flows++;
			rdma_done += f->completed;
		}
	}
	printf("  %-8s %-28s %-6s cc %-5s: lossless drops %llu, lossy drops %llu, PAUSE %llu / RESUME %llu, RDMA flows %llu/%llu done, "
	       "ended %.2f ms\n",
	       scheme, keys, transport, cc ? "on" : "off", (unsigned long long)sim.net.stats.pkts_dropped_lossless,
	       (unsigned long long)(sim.net.stats.pkts_dropped - sim.net.stats.pkts_dropped_lossless),
	       (unsigned long long)(sim.net.stats.pfc_pause_frames + sim.net.stats.pfc_port_pause_frames),
	       (unsigned long long)(sim.net.stats.pfc_resume_frames + sim.net.stats.pfc_port_resume_frames),
	       (unsigned long long)rdma_done, (unsigned long long)rdma_flows, sb_time_to_us(sb_now(&sim.net.engine)) / 1e3);
	assert_int_equal(sim.net.stats.pkts_dropped_lossless, 0);
	assert_int_equal(rdma_flows, 16);
	assert_int_equal(rdma_done, rdma_flows);
	assert_true(sim.net.stats.pfc_pause_frames + sim.net.stats.pfc_port_pause_frames > 0);
	for (uint32_t i = 0; i < sim.net.nnodes; i++)
		for (uint16_t p = 0; p < sim.net.nodes[i]->nports; p++)
			if (sim.net.nodes[i]->ports[p].paused || sim.net.nodes[i]->ports[p].port_paused)
				fail_msg("%s port %u still paused after the traffic ended", sim.net.nodes[i]->name, p);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Line-rate senders (congestion control off): only PFC holds the incast back. */
static void test_cc_off(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		run(schemes[i].scheme, schemes[i].keys, "dcqcn", false);
}

/* DCQCN on top: fewer pauses, still no loss. */
static void test_dcqcn(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		run(schemes[i].scheme, schemes[i].keys, "dcqcn", true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cc_off),
		cmocka_unit_test(test_dcqcn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
