/*
 * test_net.c — the network on its own (src/net/net.h): a struct sb_net built by topo/ and run
 * by its engine, with no simulation, no flow and no transport around it. A packet a host sends
 * crosses the switch and reaches the other host through the one delivery hook, at the time
 * the path facts (sb_path_walk) give for a lone packet, counted once in each of the network's
 * counters; a packet nobody receives (a full NIC) leaves through the engine's packet_gone hook
 * instead. This is what makes net/ a layer: everything above it is reached through a hook.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include "net/net.h"
#include "scenario/scenario.h"
#include "scenario/scenario_mmu.h"
#include "testlib.h"
#include "topo/topo.h"

/* What the hooks saw. */
struct seen {
	uint32_t delivered, host, flow;
	sb_time at;
	uint32_t gone, gone_flow;
};

static void deliver(void *ctx, struct sb_host *host, struct sb_packet *pkt)
{
	struct sb_net *net = ctx;
	struct seen *s = net->inject_ctx; /* the test's record rides in an unused context */
	s->delivered++;
	s->host = host->index;
	s->flow = pkt->flow;
	s->at = sb_now(&net->engine);
	sb_packet_recycle(&net->engine, pkt);
}

static void gone(void *ctx, uint32_t flow)
{
	struct seen *s = ctx;
	s->gone++;
	s->gone_flow = flow;
}

/* A single switch with `hosts` hosts at 10 Gb/s, 1 us links, built as the simulation builds
 * its network, but bare. */
static void build(struct sb_net *net, struct sb_scenario *sc, struct seen *s, uint32_t hosts)
{
	struct sb_error err;
	tl_single_switch(sc, hosts, 10, 300000);
	memset(net, 0, sizeof(*net));
	memset(s, 0, sizeof(*s));
	sb_engine_init(&net->engine, gone, s);
	net->seed = 1;
	net->deliver = deliver;
	net->deliver_ctx = net;
	net->inject_ctx = s;
	net->pfc_params = &sc->pfc;
	net->max_frame_bytes = sb_scenario_max_frame_bytes(sc);
	net->stop_at = SB_SEC;
	struct sb_topo_plan plan;
	assert_int_equal(sb_topo_plan_make(&plan, &sc->topo, &err), 0);
	assert_int_equal(sb_topo_build(net, &plan, &err), 0);
	sb_topo_plan_free(&plan);
	sb_net_configure_hosts(net, &sc->host);
	for (uint32_t i = 0; i < net->nswitches; i++) {
		sb_net_configure_switch_ports(net, net->switches[i], &sc->sw);
		assert_int_equal(sb_switch_init_mmus(net, net->switches[i], &sc->sw, sb_scenario_mmu_maker, sc, &err), 0);
	}
}

static struct sb_packet *data_packet(struct sb_net *net, uint32_t src, uint32_t dst, uint32_t flow, uint32_t size)
{
	struct sb_packet *p = sb_packet_new(&net->engine);
	p->type = SB_PKT_DATA;
	p->lane = SB_LANE_DATA;
	p->src = src;
	p->dst = dst;
	p->flow = flow;
	p->size = size;
	p->payload = (uint16_t)(size - 48);
	p->prio = 1;
	return p;
}

static void test_a_packet_crosses_the_network(void **state)
{
	(void)state;
	struct sb_net net;
	struct sb_scenario sc;
	struct seen s;
	build(&net, &sc, &s, 4);
	sb_host_send(&net, data_packet(&net, 2, 3, 7, 1048));
	sb_eventq_run_until(&net.engine.eq, SB_MS);
	assert_int_equal(s.delivered, 1);
	assert_int_equal(s.host, 3);
	assert_int_equal(s.flow, 7);
	/* a lone packet arrives when the path facts say: propagation plus serialisation per hop */
	struct sb_path_sum p = sb_path_walk(&net, 2, 3, 1048, 64);
	assert_int_equal(s.at, p.prop + p.ser_data);
	assert_int_equal(p.bottleneck_bps, 10000000000ull);
	assert_int_equal(net.stats.pkts_sent, 1);
	assert_int_equal(net.stats.pkts_delivered, 1);
	assert_int_equal(net.stats.pkts_dropped, 0);
	assert_int_equal(net.stats.packet_hops, 2);
	assert_int_equal(s.gone, 0); /* a delivered packet never takes the engine's hook */
	assert_int_equal(net.engine.packets.live, 0);
	sb_net_free(&net);
	sb_scenario_free(&sc);
}

static void test_a_packet_nobody_receives_is_gone(void **state)
{
	(void)state;
	struct sb_net net;
	struct sb_scenario sc;
	struct seen s;
	build(&net, &sc, &s, 2);
	net.nic_limit = 1000; /* below one packet: the NIC refuses it */
	sb_host_send(&net, data_packet(&net, 0, 1, 5, 1048));
	sb_eventq_run_until(&net.engine.eq, SB_MS);
	assert_int_equal(s.delivered, 0);
	assert_int_equal(s.gone, 1);
	assert_int_equal(s.gone_flow, 5);
	assert_int_equal(net.stats.drops_nic, 1);
	assert_int_equal(net.stats.pkts_dropped, 1);
	assert_int_equal(net.hosts[0]->nic_drops, 1);
	sb_net_free(&net);
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_packet_crosses_the_network),
		cmocka_unit_test(test_a_packet_nobody_receives_is_gone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
