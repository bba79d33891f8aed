/*
 * test_rdma_paths.c — where an RDMA receiver's feedback travels and when DCQCN first reacts
 * (docs/transports.md, "RDMA feedback path"):
 *
 *   rdma.ack_path = data     ACKs and NACKs in the data queue of the flow's priority: charged to
 *                            the switch's buffer, stopped by PFC at switches and NICs alike
 *                            (RoCE NICs, and the Reverie artifact's ACK_HIGH_PRIO 0);
 *                 = control  the control queue: never charged, never paused;
 *   rdma.cnp = packet | ack  a CNP of its own, or a flag in the marked packet's ACK;
 *   rdma.dcqcn_first_cut     the first CNP cuts at once (cnp) or at the first rate-decrease
 *                            check after it (check), with α as the α clock left it.
 *
 * Each test runs both settings of one key and asserts what only the right lane or timing gives.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/rdma.h"
#include "transport/transport.h"

#define LINE_BPS 25000000000ull

/* One switch, `hosts` hosts at 25 Gb/s, 2 µs links, complete sharing with room for everything,
 * no ECN unless `ecn`; `sets` adds --set overrides. Flows are made by the tests. */
static void scenario(struct sb_scenario *sc, int hosts, bool ecn, const char *const *sets, size_t nsets)
{
	char text[512];
	snprintf(text, sizeof(text),
		 "run: { duration_ms = 5.0; sample_interval_us = 0.0; };\n"
		 "topology: { type = \"single\"; hosts = %d; host_rate_gbps = 25.0; host_delay_us = 2.0; };\n"
		 "switch: { scheme = \"cs\"; buffer_bytes = 64000000; ecn_mode = \"%s\"; ecn_kmin_bytes = 20000.0;\n"
		 "          ecn_kmax_bytes = 80000.0; ecn_pmax = 1.0; };\n"
		 "workloads = ();\n",
		 hosts, ecn ? "red" : "off");
	tl_scenario(sc, text, sets, nsets);
}


/* ACKs in the data lane are admitted by the switch's MMU like data: one admission per data
 * packet and one per ACK. In the control lane only the data is. */
static void test_ack_path_charges_the_buffer(void **state)
{
	(void)state;
	static const char *const paths[] = { "data", "control" };
	for (int i = 0; i < 2; i++) {
		char set[64];
		snprintf(set, sizeof(set), "rdma.ack_path=%s", paths[i]);
		const char *sets[] = { set };
		struct sb_scenario sc;
		struct sb_sim sim;
		scenario(&sc, 2, false, sets, 1);
		tl_build(&sim, &sc);
		struct sb_flow *f = tl_rdma_flow(&sim, "dcqcn", 0, 1, 100000, 10 * SB_US);
		tl_run_and_check(&sim);
		assert_true(f->completed);
		uint64_t admitted = sim.net.switches[0]->mmus[0]->admitted;
		print_message("ack_path = %-7s: %llu data packets, %llu admitted by the MMU\n", paths[i],
			      (unsigned long long)f->pkts_sent, (unsigned long long)admitted);
		assert_int_equal(f->pkts_sent, 100);
		assert_int_equal(admitted, i == 0 ? 200 : 100);
		tl_check_and_free(&sim, &sc);
	}
}

/* PFC stops ACKs in the data lane at the NIC too: with the receiver's priority 3 paused for
 * 200 µs, its data arrives at once but the sender hears nothing until the RESUME. In the control
 * lane the ACKs pass the pause and the flow ends at its ideal FCT. */
static void resume_nic(void *obj, uint64_t arg)
{
	struct sb_sim *sim = obj;
	sb_port_pfc(&sim->net, &sim->net.hosts[arg]->node.ports[0], 1u << SB_DEFAULT_PRIO_LOSSLESS, false, false);
}

static void test_ack_path_paused_at_the_nic(void **state)
{
	(void)state;
	static const char *const paths[] = { "data", "control" };
	const sb_time resume_at = 200 * SB_US;
	for (int i = 0; i < 2; i++) {
		char set[64];
		snprintf(set, sizeof(set), "rdma.ack_path=%s", paths[i]);
		const char *sets[] = { set };
		struct sb_scenario sc;
		struct sb_sim sim;
		scenario(&sc, 2, false, sets, 1);
		tl_build(&sim, &sc);
		sb_port_pfc(&sim.net, &sim.net.hosts[1]->node.ports[0], 1u << SB_DEFAULT_PRIO_LOSSLESS, true, false);
		sb_at(&sim.net.engine, resume_at, resume_nic, &sim, 1);
		struct sb_flow *f = tl_rdma_flow(&sim, "dcqcn", 0, 1, 20000, 10 * SB_US);
		tl_run_and_check(&sim);
		sb_time ideal = sb_transport_ideal_fct(&sim.flows, f->ops, 0, 1, 20000);
		print_message("ack_path = %-7s: received after %.3f us, FCT %.3f us (ideal %.3f us)\n", paths[i],
			      sb_time_to_us(f->received - f->start), sb_time_to_us(f->finish - f->start),
			      sb_time_to_us(ideal));
		assert_true(f->completed);
		assert_true(f->received - f->start < ideal); /* the data never waited */
		if (i == 0)
			assert_true(f->finish > resume_at); /* every ACK waited for the RESUME */
		else
			assert_int_equal(f->finish - f->start, ideal);
		tl_check_and_free(&sim, &sc);
	}
}

/* With rdma.cnp = ack a CE mark reaches the sender as a flag of the ACK: hosts send exactly one
 * ACK per data packet and nothing else, yet DCQCN cuts. With separate CNPs every CNP counted by
 * the receivers is one more packet. */
static void test_cnp_in_ack_or_packet(void **state)
{
	(void)state;
	static const char *const modes[] = { "ack", "packet" };
	for (int i = 0; i < 2; i++) {
		char set[64];
		snprintf(set, sizeof(set), "rdma.cnp=%s", modes[i]);
		const char *sets[] = { set };
		struct sb_scenario sc;
		struct sb_sim sim;
		scenario(&sc, 3, true, sets, 1);
		tl_build(&sim, &sc);
		struct sb_flow *f[2] = { tl_rdma_flow(&sim, "dcqcn", 0, 2, 2000000, 10 * SB_US),
					 tl_rdma_flow(&sim, "dcqcn", 1, 2, 2000000, 10 * SB_US) };
		tl_run_and_check(&sim);
		uint64_t data = f[0]->pkts_sent + f[1]->pkts_sent, cnps = sim.flows.stats.rdma_cnps;
		print_message("cnp = %-6s: %llu data packets, %llu CNPs, %llu packets sent by hosts, rates %.2f / %.2f Gb/s\n",
			      modes[i], (unsigned long long)data, (unsigned long long)cnps,
			      (unsigned long long)sim.net.stats.pkts_sent, sb_rdma_qp_of(f[0])->rate_bps / 1e9,
			      sb_rdma_qp_of(f[1])->rate_bps / 1e9);
		assert_true(f[0]->completed && f[1]->completed);
		assert_int_equal(sim.net.stats.pkts_dropped, 0);
		assert_true(cnps > 0);
		/* the controls heard them: two flows into one port are cut below line rate */
		assert_true(sb_rdma_qp_of(f[0])->rate_bps < LINE_BPS && sb_rdma_qp_of(f[1])->rate_bps < LINE_BPS);
		assert_int_equal(sim.net.stats.pkts_sent, 2 * data + (i == 0 ? 0 : cnps));
		tl_check_and_free(&sim, &sc);
	}
}

/* The notification point's interval holds for CNPs carried by ACKs too: with
 * rdma.dcqcn_cnp_interval_us = 20 the sender sees exactly as many flagged ACKs as the receivers
 * counted CNPs, far fewer than CE-marked packets arrived. The flow's ops are wrapped to count. */
static struct sb_transport_ops counting_ops;
static const struct sb_transport_ops *inner_ops;
static uint64_t flagged_acks;

static void counting_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	if (pkt->type == SB_PKT_ACK && (pkt->flags & SB_PF_ECE))
		flagged_acks++;
	inner_ops->on_ack(fl, f, pkt);
}

static void test_cnp_in_ack_respects_interval(void **state)
{
	(void)state;
	const char *sets[] = { "rdma.cnp=ack", "rdma.dcqcn_cnp_interval_us=20" };
	struct sb_scenario sc;
	struct sb_sim sim;
	scenario(&sc, 3, true, sets, 2);
	tl_build(&sim, &sc);
	inner_ops = sb_transport_find("dcqcn");
	counting_ops = *inner_ops;
	counting_ops.on_ack = counting_on_ack;
	flagged_acks = 0;
	struct sb_flow *f[2] = { tl_rdma_flow(&sim, "dcqcn", 0, 2, 2000000, 10 * SB_US),
				 tl_rdma_flow(&sim, "dcqcn", 1, 2, 2000000, 10 * SB_US) };
	f[0]->ops = f[1]->ops = &counting_ops;
	tl_run_and_check(&sim);
	assert_true(f[0]->completed && f[1]->completed);
	/* every flow lasts well over 20 µs, so at most one CNP per 20 µs per flow */
	sb_time span = (f[0]->finish > f[1]->finish ? f[0]->finish : f[1]->finish) - 10 * SB_US;
	uint64_t cap = 2 * (span / (20 * SB_US) + 1);
	print_message("interval 20 us: %llu CNPs counted, %llu flagged ACKs at the senders (at most %llu)\n",
		      (unsigned long long)sim.flows.stats.rdma_cnps, (unsigned long long)flagged_acks,
		      (unsigned long long)cap);
	assert_true(sim.flows.stats.rdma_cnps > 0);
	assert_int_equal(flagged_acks, sim.flows.stats.rdma_cnps);
	assert_true(flagged_acks <= cap);
	tl_check_and_free(&sim, &sc);
}

/* One CNP, crafted, at t0 = 50 µs to a flow alone at line rate (no ECN, so no other CNP). With
 * dcqcn_first_cut = cnp the rate halves at once (α = 1). With = check it holds until the first
 * decrease check, 4 µs later, which cuts with the α that four ticks of the 1 µs α clock without
 * a CNP left: R (1 − (1 − g)^4 / 2). */
struct probe_rates {
	struct sb_flow *f;
	uint64_t before_check, after_check;
};

static void inject_cnp(void *obj, uint64_t arg)
{
	struct sb_sim *sim = obj;
	struct sb_flow *f = sb_flow_get(&sim->flows, (uint32_t)arg);
	struct sb_packet *cnp = sb_packet_new(&sim->net.engine);
	cnp->type = SB_PKT_CNP;
	cnp->lane = SB_LANE_CONTROL;
	cnp->flow = f->id;
	cnp->src = f->dst;
	cnp->dst = f->src;
	cnp->size = 64;
	sim->net.stats.pkts_sent++; /* as if a receiver had sent it: conservation */
	sim->net.stats.pkts_delivered++;
	f->ops->on_ack(&sim->flows, f, cnp);
	sb_packet_free(&sim->net.engine, cnp);
}

static void read_rate(void *obj, uint64_t arg)
{
	struct probe_rates *p = obj;
	uint64_t r = sb_rdma_qp_of(p->f)->rate_bps;
	if (arg == 0)
		p->before_check = r;
	else
		p->after_check = r;
}

static void test_dcqcn_first_cut_timing(void **state)
{
	(void)state;
	static const char *const modes[] = { "check", "cnp" };
	const sb_time t0 = 50 * SB_US;
	for (int i = 0; i < 2; i++) {
		char set[64];
		snprintf(set, sizeof(set), "rdma.dcqcn_first_cut=%s", modes[i]);
		const char *sets[] = { set };
		struct sb_scenario sc;
		struct sb_sim sim;
		scenario(&sc, 2, false, sets, 1);
		tl_build(&sim, &sc);
		struct probe_rates p = { .f = tl_rdma_flow(&sim, "dcqcn", 0, 1, 1000000, 10 * SB_US) };
		sb_at(&sim.net.engine, t0, inject_cnp, &sim, p.f->id);
		sb_at(&sim.net.engine, t0 + 3 * SB_US, read_rate, &p, 0);
		sb_at(&sim.net.engine, t0 + 6 * SB_US, read_rate, &p, 1);
		tl_run_and_check(&sim);
		double g = sc.rdma.dcqcn_g;
		double want_check = (double)LINE_BPS * (1.0 - pow(1.0 - g, 4) / 2.0);
		print_message("first_cut = %-5s: rate %.4f Gb/s 3 us after the CNP, %.4f Gb/s after 6 us\n", modes[i],
			      p.before_check / 1e9, p.after_check / 1e9);
		if (i == 0) {
			assert_int_equal(p.before_check, LINE_BPS);
			assert_true(fabs((double)p.after_check - want_check) <= 1.0);
		} else {
			assert_int_equal(p.before_check, LINE_BPS / 2);
			assert_int_equal(p.after_check, LINE_BPS / 2);
		}
		tl_check_and_free(&sim, &sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ack_path_charges_the_buffer),
		cmocka_unit_test(test_ack_path_paused_at_the_nic),
		cmocka_unit_test(test_cnp_in_ack_or_packet),
		cmocka_unit_test(test_cnp_in_ack_respects_interval),
		cmocka_unit_test(test_dcqcn_first_cut_timing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
