/*
 * test_switch.c — the data plane around the MMU: ECN marking rules, egress scheduling (strict
 * priority, weighted DRR), switches split into several MMUs, PFC frames pausing an upstream
 * port, and the optional host NIC buffer limit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "mmu/headroom.h"
#include "mmu/mmu.h"
#include "net/switch.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/transport.h"

static void test_ecn_step_and_red(void **state)
{
	(void)state;
	struct sb_rng rng;
	sb_rng_init(&rng, 1, SB_STREAM_TEST);
	struct sb_ecn_cfg step = { .kmin = 65000, .kmax = 65000, .pmax_q32 = UINT32_MAX, .mode = SB_ECN_STEP };
	assert_false(sb_sched_ecn_decide(&step, 65000, &rng));
	assert_true(sb_sched_ecn_decide(&step, 65001, &rng));
	struct sb_ecn_cfg off = step;
	off.mode = SB_ECN_OFF;
	assert_false(sb_sched_ecn_decide(&off, 10000000, &rng));
	/* RED between 100 KB and 400 KB with pmax 0.2: at 250 KB the probability is 0.1 */
	struct sb_ecn_cfg red = { .kmin = 100000, .kmax = 400000, .pmax_q32 = (uint32_t)(0.2 * 4294967295.0),
				  .mode = SB_ECN_RED };
	assert_false(sb_sched_ecn_decide(&red, 100000, &rng));
	for (int i = 0; i < 100; i++) /* above kmax every packet is marked, not 20 % of them */
		assert_true(sb_sched_ecn_decide(&red, 400001 + 1000 * (uint64_t)i, &rng));
	const double at[] = { 130000, 250000, 370000 };
	for (int k = 0; k < 3; k++) {
		int marks = 0, n = 400000;
		for (int i = 0; i < n; i++)
			marks += sb_sched_ecn_decide(&red, (uint64_t)at[k], &rng);
		double expect = 0.2 * (at[k] - 100000) / 300000;
		assert_true(fabs((double)marks / n - expect) < 0.003);
	}
}

/* switch.ecn_ref_gbps: thresholds written for 100G ports scale with each port's rate. */
static void test_ecn_thresholds_per_rate(void **state)
{
	(void)state;
	const char *text = "topology: { leaves = 2; hosts_per_leaf = 2; spines = 1; host_rate_gbps = 100.0;\n"
			   "  fabric_rate_gbps = 400.0; };\n"
			   "switch: { ecn_mode = \"red\"; ecn_kmin_bytes = 400000; ecn_kmax_bytes = 1600000; %s };\n";
	char buf[512];
	for (int scaled = 0; scaled < 2; scaled++) {
		snprintf(buf, sizeof(buf), text, scaled ? "ecn_ref_gbps = 100.0;" : "");
		struct sb_scenario sc;
		struct sb_sim sim;
		tl_scenario(&sc, buf, NULL, 0);
		tl_build(&sim, &sc);
		const struct sb_node *leaf = &sim.net.switches[0]->node;
		assert_int_equal(leaf->nports, 3);
		assert_int_equal(leaf->ports[0].profile->ecn[1].kmin, 400000);  /* host port, 100G */
		assert_int_equal(leaf->ports[0].profile->ecn[1].kmax, 1600000);
		assert_int_equal(leaf->ports[2].profile->ecn[1].kmin, scaled ? 1600000 : 400000); /* uplink, 400G */
		assert_int_equal(leaf->ports[2].profile->ecn[7].kmax, scaled ? 6400000 : 1600000);
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
	}
}

/* Ports share one marking table per distinct configuration (sim->ecn_tables): a 100G and a
 * 400G port whose priority-0 thresholds both saturate, but whose priority-1 thresholds scale,
 * must not share one (equal first entries are not equal tables). */
static void test_ecn_tables_shared_only_when_equal(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc, "topology: { leaves = 2; hosts_per_leaf = 2; spines = 1; host_rate_gbps = 100.0;\n"
			 "  fabric_rate_gbps = 400.0; };\n"
			 "switch: { ecn_mode = \"step\"; ecn_kmin_bytes = [1e12, 4e4, 4e4, 4e4, 4e4, 4e4, 4e4, 4e4];\n"
			 "  ecn_kmax_bytes = [1e12, 4e4, 4e4, 4e4, 4e4, 4e4, 4e4, 4e4]; ecn_ref_gbps = 1e-6; };\n",
		    NULL, 0);
	tl_build(&sim, &sc);
	const struct sb_node *leaf = &sim.net.switches[0]->node;
	assert_true(leaf->ports[0].profile->ecn[0].kmin == UINT64_MAX && leaf->ports[2].profile->ecn[0].kmin == UINT64_MAX);
	assert_true(leaf->ports[0].profile->ecn[1].kmin == 4000000000000ull);  /* 40 KB at 1 kb/s is 4 TB on 100G */
	assert_true(leaf->ports[2].profile->ecn[1].kmin == 16000000000000ull); /* and 16 TB on 400G */
	assert_ptr_equal(leaf->ports[0].profile, leaf->ports[1].profile); /* the two host ports: one profile */
	assert_int_equal(sim.net.nport_profiles, 3); /* switch ports at 100G and at 400G, and the hosts' NICs */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Thresholds scaled beyond 64 bits (1e12 bytes written for 1 kb/s, on 100G and 400G ports:
 * 1e20 and more) are "never mark", saturated; converting them was undefined behaviour. */
static void test_ecn_thresholds_saturate(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc, "topology: { leaves = 2; hosts_per_leaf = 2; spines = 1; host_rate_gbps = 100.0;\n"
			 "  fabric_rate_gbps = 400.0; };\n"
			 "switch: { ecn_mode = \"red\"; ecn_kmin_bytes = 1e12; ecn_kmax_bytes = 1e12; ecn_ref_gbps = 1e-6; };\n",
		    NULL, 0);
	tl_build(&sim, &sc);
	const struct sb_node *leaf = &sim.net.switches[0]->node;
	for (uint16_t p = 0; p < leaf->nports; p++) {
		assert_true(leaf->ports[p].profile->ecn[1].kmin == UINT64_MAX);
		assert_true(leaf->ports[p].profile->ecn[1].kmax == UINT64_MAX);
		assert_false(sb_sched_ecn_decide(&leaf->ports[p].profile->ecn[1], UINT64_MAX - 1, &sim.net.switches[0]->rng));
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Two line-rate CBR sources to one host, priorities 1 and 6. */
static void two_class_run(struct sb_sim *sim, struct sb_scenario *sc, uint64_t *bytes1, uint64_t *bytes6)
{
	tl_build(sim, sc);
	struct sb_flow *a = tl_cbr(sim, 1, 0, 10000000000ULL, 1048, 0);
	struct sb_flow *b = tl_cbr(sim, 2, 0, 10000000000ULL, 1048, 0);
	a->prio = 1;
	b->prio = 6;
	tl_run_and_check(sim);
	*bytes1 = a->bytes_received;
	*bytes6 = b->bytes_received;
}

static void test_strict_priority(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	uint64_t lo, hi;
	tl_single_switch(&sc, 3, 10, 1000000);
	sc.sw.sched = SB_SCHED_SP;
	two_class_run(&sim, &sc, &lo, &hi);
	/* priority 6 takes the whole link; priority 1 only gets what was sent before its queue filled */
	double link = 10e9 / 8 * sc.run.duration_ms / 1e3 * 1000.0 / 1048.0;
	assert_true(hi > 0.97 * link);
	assert_true(lo < 0.02 * link);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_drr_weights(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	uint64_t lo, hi;
	tl_single_switch(&sc, 3, 10, 1000000);
	sc.sw.sched = SB_SCHED_DRR;
	sc.sw.drr_weight[1] = 1;
	sc.sw.drr_weight[6] = 3;
	two_class_run(&sim, &sc, &lo, &hi);
	double ratio = (double)hi / (double)lo;
	assert_true(ratio > 2.9 && ratio < 3.1);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Ports 0-1 in MMU 0, ports 2-3 in MMU 1 (mmu_ports = 2): an overloaded queue in each MMU sees
 * only its own half of the buffer, so DT gives it α(B/2)/(1+α), not αB/(1+2α). */
static void test_multi_mmu_split(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	const uint64_t B = 1000000;
	tl_single_switch(&sc, 4, 10, B);
	sc.sw.mmu_ports = 2;
	tl_set_scheme(&sc, "dt", "alpha", "1");
	tl_build(&sim, &sc);
	struct sb_switch *sw = sim.net.switches[0];
	assert_int_equal(sw->nmmus, 2);
	assert_int_equal(sw->mmus[0]->buffer, B / 2);
	assert_int_equal(sw->mmus[1]->buffer, B / 2);
	/* host 1 -> host 0 (egress port 0, MMU 0) and host 3 -> host 2 (egress port 2, MMU 1), at 2x rate */
	tl_cbr(&sim, 1, 0, 10000000000ULL, 1048, 0);
	tl_cbr(&sim, 3, 0, 10000000000ULL, 1048, 0);
	tl_cbr(&sim, 0, 2, 10000000000ULL, 1048, 0);
	tl_cbr(&sim, 1, 2, 10000000000ULL, 1048, 0);
	tl_run_and_check(&sim);
	double expect = 1.0 * (double)(B / 2) / 2.0;
	for (int g = 0; g < 2; g++) {
		uint64_t q = sw->mmus[g]->q_egr[sb_mmu_qi((uint16_t)(2 * g), 1)];
		assert_true(fabs((double)q - expect) < 0.03 * expect);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Static partitioning divides an MMU's buffer among that MMU's own ports only. */
static void test_static_share_per_mmu(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 4, 10, 1000000);
	sc.sw.mmu_ports = 2;
	tl_set_scheme(&sc, "static", NULL, NULL);
	tl_build(&sim, &sc);
	tl_cbr(&sim, 1, 0, 10000000000ULL, 1048, 0);
	tl_cbr(&sim, 3, 0, 10000000000ULL, 1048, 0);
	tl_run_and_check(&sim);
	/* 500 KB per MMU, 2 ports each: 250 KB per queue */
	uint64_t q = sim.net.switches[0]->mmus[0]->q_egr[sb_mmu_qi(0, 1)];
	assert_true(q <= 250000 && q > 250000 - 2 * 1048); /* full, give or take the packet leaving */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* A PFC PAUSE sent by the switch out of port 1 stops host 1's NIC for priority 1 until the
 * RESUME arrives: the receiver sees nothing new in between except what was already in flight. */
struct pfc_ctx {
	struct sb_sim *sim;
	struct sb_flow *f;
	uint64_t at_pause, at_resume;
};

static void send_pause(void *obj, uint64_t pause)
{
	struct pfc_ctx *c = obj;
	struct sb_mmu *m = c->sim->net.switches[0]->mmus[0];
	if (pause)
		c->at_pause = c->f->bytes_received;
	else
		c->at_resume = c->f->bytes_received;
	sb_mmu_send_pfc(m, 1, 1u << 1, pause);
}

static void test_pfc_pause_resume(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 2, 10, 1000000);
	sc.run.duration_ms = 3;
	tl_build(&sim, &sc);
	struct pfc_ctx c = { &sim, tl_cbr(&sim, 1, 0, 5000000000ULL, 1048, 0), 0, 0 };
	sb_at(&sim.net.engine, 1 * SB_MS, send_pause, &c, 1);
	sb_at(&sim.net.engine, 2 * SB_MS, send_pause, &c, 0);
	tl_run_and_check(&sim);
	/* in flight when the pause took effect: at most a few packets (2 x 1 us links at 10G) */
	assert_true(c.at_resume - c.at_pause < 6 * 1000);
	/* before and after: the flow runs at its 5 Gb/s */
	double per_ms = 5e9 / 8 / 1e3 * 1000.0 / 1048.0;
	assert_true(c.at_pause > 0.97 * per_ms);
	assert_true(c.f->bytes_received - c.at_resume > 0.97 * per_ms);
	assert_int_equal(sim.net.stats.pfc_pause_frames, 1);
	assert_int_equal(sim.net.stats.pfc_resume_frames, 1);
	assert_int_equal(sim.net.hosts[1]->node.ports[0].pause_rx, 1);
	assert_int_equal(sim.net.hosts[1]->node.ports[0].resume_rx, 1);
	assert_int_equal(sim.net.stats.pkts_dropped, 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Port-level PFC (DSH) is a state of its own: a queue-level RESUME does not lift it, and a
 * port-level RESUME does not lift a queue-level PAUSE. */
enum { QPAUSE, QRESUME, PPAUSE, PRESUME };
struct port_pfc_ctx {
	struct sb_sim *sim;
	struct sb_flow *f;
	uint64_t at[5];
};

static void port_pfc_step(void *obj, uint64_t step)
{
	struct port_pfc_ctx *c = obj;
	struct sb_mmu *m = c->sim->net.switches[0]->mmus[0];
	static const int action[5] = { PPAUSE, QRESUME, QPAUSE, PRESUME, QRESUME };
	c->at[step] = c->f->bytes_received;
	switch (action[step]) {
	case QPAUSE: sb_mmu_send_pfc(m, 1, 1u << 1, true); break;
	case QRESUME: sb_mmu_send_pfc(m, 1, 1u << 1, false); break;
	case PPAUSE: sb_mmu_send_port_pfc(m, 1, true); break;
	default: sb_mmu_send_port_pfc(m, 1, false); break;
	}
}

static void test_pfc_port_level(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 2, 10, 1000000);
	sc.run.duration_ms = 6;
	tl_build(&sim, &sc);
	struct port_pfc_ctx c = { &sim, tl_cbr(&sim, 1, 0, 5000000000ULL, 1048, 0), { 0 } };
	for (uint64_t k = 0; k < 5; k++)
		sb_at(&sim.net.engine, (k + 1) * SB_MS, port_pfc_step, &c, k);
	tl_run_and_check(&sim);
	uint64_t ms_bytes = 5000000000ULL / 8 / 1000 * 1000 / 1048; /* payload bytes per ms */
	assert_true(c.at[0] > ms_bytes * 97 / 100);          /* running before the port pause */
	assert_true(c.at[1] - c.at[0] < 6000);               /* port paused */
	assert_true(c.at[2] - c.at[1] < 6000);               /* queue resume did not lift it */
	assert_true(c.at[3] - c.at[2] < 6000);               /* now queue- and port-paused */
	assert_true(c.at[4] - c.at[3] < 6000);               /* port resume: queue pause remains */
	assert_true(c.f->bytes_received - c.at[4] > ms_bytes * 97 / 100); /* both lifted: runs */
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	assert_int_equal(m->pfc_port_pauses_sent, 1);
	assert_int_equal(m->pfc_port_resumes_sent, 1);
	assert_int_equal(m->pfc_pauses_sent, 1);
	assert_int_equal(m->pfc_resumes_sent, 2);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Headroom formulas against the specs' worked numbers. */
static void test_headroom_formulas(void **state)
{
	(void)state;
	/* Reverie artifact: 25 Gb/s, 2 us, 1000 B payload + 48 B headers */
	assert_int_equal(sb_headroom_reverie(1048, 25000000000ULL, 2 * SB_US), 18456);
	/* DSH Eq. (1) and its worked examples */
	assert_int_equal(sb_headroom_dsh(1500, 100000000000ULL, 2 * SB_US), 56840);
	assert_int_equal(sb_headroom_dsh(1500, 40000000000ULL, 1500 * SB_NS), 21840);
	assert_int_equal(sb_headroom_dsh(1500, 400000000000ULL, 2 * SB_US), 206840);
	assert_int_equal(sb_headroom_dsh(1500, 25000000000ULL, 2 * SB_US), 19340);
	/* the bytes a link holds are rounded up, so that the guarantee holds: 25 Gb/s × 1.5 µs is
	 * 4687.5 B, counted as 4688 */
	assert_int_equal(sb_headroom_dsh(1500, 25000000000ULL, 1500 * SB_NS), 2 * (4688 + 1500) + 3840);
	assert_int_equal(sb_headroom_reverie(1048, 25000000000ULL, 1500 * SB_NS), 2 * 1048 + 3860 + 2 * 4688);
}

/* A host NIC with a buffer limit drops what does not fit (the simulator's NIC does not push
 * back on the transport); TCP recovers and completes once its window outgrows the NIC. */
static void test_nic_limit(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 3, 10, 2000000);
	sc.host.nic_buffer_bytes = 32 * 1048;
	sc.run.duration_ms = 100;
	tl_build(&sim, &sc);
	struct sb_flow *f = sb_flow_create(&sim.flows, 1, 0, 2000000, 0, sb_transport_find("newreno"));
	tl_run_and_check(&sim);
	assert_true(sim.net.stats.drops_nic > 0);
	assert_true(f->completed);
	assert_int_equal(sim.net.stats.drops[SB_DROP_THRESHOLD] + sim.net.stats.drops[SB_DROP_BUFFER_FULL], 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* A scheme may send PFC from on_dequeue out of the very port that starts transmitting: the
 * frame must queue behind the packet, never serialise in parallel with it. */
static void pfc_on_every_dequeue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_release_reason why)
{
	(void)why;
	sb_mmu_send_pfc(m, pkt->out_port, 1u << 5, false); /* resume an idle priority: harmless */
}

static void test_dequeue_hook_cannot_double_book_a_link(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 3, 10, 1000000);
	sc.run.duration_ms = 2;
	tl_build(&sim, &sc);
	static struct sb_bm_ops probe;
	probe = *sim.net.switches[0]->mmus[0]->ops;
	probe.on_dequeue = pfc_on_every_dequeue;
	sim.net.switches[0]->mmus[0]->ops = &probe;
	tl_cbr(&sim, 1, 0, 10000000000ULL, 1048, 0);
	tl_cbr(&sim, 2, 0, 10000000000ULL, 1048, 0);
	tl_run_and_check(&sim);
	struct sb_port *egress = &sim.net.switches[0]->node.ports[0];
	assert_true(sim.net.stats.pfc_resume_frames > 1000);
	/* the link was never busier than the time that passed */
	assert_true(sb_port_busy_time(egress) <= 2 * SB_MS);
	assert_true(sb_port_busy_time(egress) > 2 * SB_MS * 99 / 100);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ecn_step_and_red),
		cmocka_unit_test(test_ecn_thresholds_per_rate),
		cmocka_unit_test(test_ecn_thresholds_saturate),
		cmocka_unit_test(test_ecn_tables_shared_only_when_equal),
		cmocka_unit_test(test_strict_priority),
		cmocka_unit_test(test_drr_weights),
		cmocka_unit_test(test_multi_mmu_split),
		cmocka_unit_test(test_static_share_per_mmu),
		cmocka_unit_test(test_pfc_pause_resume),
		cmocka_unit_test(test_pfc_port_level),
		cmocka_unit_test(test_headroom_formulas),
		cmocka_unit_test(test_nic_limit),
		cmocka_unit_test(test_dequeue_hook_cannot_double_book_a_link),
	};
	return cmocka_run_group_tests_name("switch", tests, NULL, NULL);
}
