/*
 * test_port.c — the port's DRR scheduler against a plain model that visits every queue in
 * turn (what the scheduler did before it learned to skip non-eligible queues): same packets in
 * the same order and the same deficits, with queues emptying, refilling, losing their head to
 * a drop and being paused.
 *
 * The same bench checks packet-by-packet round robin (SB_SCHED_RR: one packet per queue per
 * turn whatever its size) and a NIC's two ways with control packets (host.control_queue).
 *
 * The link's delay is longer than the test, so every transmitted packet stays in the port's
 * pipeline, in transmission order, and nothing reaches the (absent) peer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/rng.h"
#include "net/port.h"
#include "scenario/scenario.h"
#include "sim/sim.h"

#define MAXQ 4096

/* The reference: DRR with one visit per queue per step. */
struct model {
	uint32_t size[SB_NPRIO][MAXQ];
	unsigned head[SB_NPRIO], tail[SB_NPRIO];
	int32_t deficit[SB_NPRIO];
	uint32_t quantum[SB_NPRIO];
	uint8_t paused, next, turn;
};

static uint8_t model_backlog(const struct model *m)
{
	uint8_t b = 0;
	for (unsigned q = 0; q < SB_NPRIO; q++)
		if (m->head[q] != m->tail[q])
			b |= (uint8_t)(1u << q);
	return b;
}

/* The priority of the next packet, or -1 when nothing may be sent. */
static int model_select(struct model *m)
{
	uint8_t backlog = model_backlog(m), eligible = (uint8_t)(backlog & ~m->paused);
	if (!eligible)
		return -1;
	unsigned q;
	for (;;) {
		q = m->next;
		uint8_t bit = (uint8_t)(1u << q);
		if (eligible & bit) {
			if (!m->turn) {
				m->deficit[q] += (int32_t)m->quantum[q];
				m->turn = 1;
			}
			if ((int32_t)m->size[q][m->head[q]] <= m->deficit[q]) {
				m->deficit[q] -= (int32_t)m->size[q][m->head[q]];
				break;
			}
		} else if (!(backlog & bit)) {
			m->deficit[q] = 0;
		}
		m->next = (uint8_t)((q + 1) & (SB_NPRIO - 1));
		m->turn = 0;
	}
	m->head[q]++;
	if (m->head[q] == m->tail[q]) {
		m->deficit[q] = 0;
		m->next = (uint8_t)((q + 1) & (SB_NPRIO - 1));
		m->turn = 0;
	}
	return (int)q;
}

static struct sb_sim sim;
static struct sb_node node;
static struct sb_port port;
static struct model model;

static struct sb_packet *seen; /* last packet of the pipeline already compared */
static uint64_t compared;

/* Every packet the port started since the last call, against the model's choice. Called
 * after each step that may start one, so both decide on the same queues and pauses. */
static void compare_new(void)
{
	for (struct sb_packet *p = seen ? seen->next : port.wire.head; p; p = p->next) {
		int want = model_select(&model);
		assert_int_equal(p->prio, want);
		seen = p;
		compared++;
	}
	assert_memory_equal(port.deficit, model.deficit, sizeof(model.deficit));
	assert_int_equal(port.turn.granted, model.turn);
	assert_int_equal(port.turn.next, model.next);
}

static void enqueue(uint8_t prio, uint32_t size)
{
	struct sb_packet *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	p->type = SB_PKT_DATA;
	p->prio = prio;
	p->size = size;
	assert_true(model.tail[prio] < MAXQ);
	model.size[prio][model.tail[prio]++] = size;
	sb_port_enqueue(&sim.net, &port, p);
	compare_new();
}

static void test_drr_matches_model(void **state)
{
	(void)state;
	memset(&sim, 0, sizeof(sim));
	memset(&model, 0, sizeof(model));
	sb_eventq_init(&sim.net.engine.eq);
	node = (struct sb_node){ .net = &sim.net, .kind = SB_NODE_HOST };
	port = (struct sb_port){ .node = &node, .net = &sim.net, .node_kind = SB_NODE_HOST, .peer = &port,
				 .rate_bps = 10000000000, .ps_per_byte = 800, .delay = 1000 * SB_SEC,
				 .sched = SB_SCHED_DRR };
	static const uint32_t quantum[SB_NPRIO] = { 1500, 500, 3000, 1500, 64, 9000, 1500, 700 };
	struct sb_port_profile profile = sb_port_profile_default;
	memcpy(profile.quantum, quantum, sizeof(quantum));
	port.profile = &profile;
	memcpy(model.quantum, quantum, sizeof(quantum));

	struct sb_rng rng;
	sb_rng_init(&rng, 11, 0);
	seen = NULL;
	compared = 0;
	for (int round = 0; round < 3000; round++) {
		/* a few arrivals on a few priorities, sometimes a burst on one */
		unsigned n = (unsigned)sb_rng_below(&rng, 4);
		for (unsigned i = 0; i < n; i++) {
			uint8_t prio = (uint8_t)(sb_rng_below(&rng, 3) == 0 ? sb_rng_below(&rng, 8) : 1 + 4 * sb_rng_below(&rng, 2));
			enqueue(prio, 64 + (uint32_t)sb_rng_below(&rng, 1500));
		}
		/* a head drop (Occamy, Pushout) can leave an empty queue that still has credit */
		uint8_t victim = (uint8_t)sb_rng_below(&rng, 8);
		if (sb_rng_below(&rng, 4) == 0 && port.q[victim].head) {
			free(sb_port_pop_head(&port, victim));
			model.head[victim]++;
		}
		/* PFC-like pauses come and go; a resume kicks the port as pfc.c does */
		if (sb_rng_below(&rng, 10) == 0) {
			uint8_t paused = (uint8_t)(sb_rng_below(&rng, 2) ? 1u << sb_rng_below(&rng, 8) : 0);
			port.paused = model.paused = paused;
			sb_port_kick(&sim.net, &port);
			compare_new();
		}
		sb_eventq_run_until(&sim.net.engine.eq, sim.net.engine.eq.now + sb_rng_below(&rng, 3000) * SB_NS);
		compare_new();
	}
	print_message("%llu packets compared\n", (unsigned long long)compared);
	assert_true(compared > 3000);
	for (struct sb_packet *p = port.wire.head, *next; p; p = next) {
		next = p->next;
		free(p);
	}
	for (unsigned q = 0; q < SB_NPRIO; q++)
		for (struct sb_packet *p = port.q[q].head, *next; p; p = next) {
			next = p->next;
			free(p);
		}
	sb_eventq_free(&sim.net.engine.eq);
}

/* A bare port of `sched` with an empty pipeline; the caller frees with bench_free(). */
static void bench_port(uint8_t sched)
{
	memset(&sim, 0, sizeof(sim));
	sb_eventq_init(&sim.net.engine.eq);
	node = (struct sb_node){ .net = &sim.net, .kind = SB_NODE_HOST };
	port = (struct sb_port){ .node = &node, .net = &sim.net, .node_kind = SB_NODE_HOST, .peer = &port,
				 .peer_node = &node, .peer_kind = SB_NODE_HOST, .rate_bps = 10000000000,
				 .ps_per_byte = 800, .delay = 1000 * SB_SEC, .sched = sched,
				 .profile = &sb_port_profile_default };
}

static struct sb_packet *packet(uint8_t prio, uint32_t size, uint8_t type, uint8_t lane)
{
	struct sb_packet *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	p->type = type;
	p->lane = lane;
	p->prio = prio;
	p->size = size;
	return p;
}

static void bench_free(void)
{
	for (struct sb_packet *p = port.wire.head, *next; p; p = next) {
		next = p->next;
		free(p);
	}
	sb_eventq_free(&sim.net.engine.eq);
}

/* The order the pipeline holds, as "prio:size" words. */
static void wire_order(char *out, size_t len)
{
	size_t n = 0;
	out[0] = 0;
	for (struct sb_packet *p = port.wire.head; p && n < len; p = p->next)
		n += (size_t)snprintf(out + n, len - n, "%s%u:%u", n ? " " : "", p->prio, p->size);
}

/* Packet-by-packet round robin: queue 1 holds full frames, queue 3 ACK-sized packets. RR
 * alternates one packet each, so queue 3's small packets cost queue 1 half its turns — the
 * ns-3 artifacts' DequeueRR. DRR with 1500 B quanta shares bytes instead: queue 3 sends all
 * six of its 64 B packets in one turn. */
static void test_rr_one_packet_per_turn(void **state)
{
	(void)state;
	const uint8_t scheds[] = { SB_SCHED_RR, SB_SCHED_DRR };
	const char *want[] = { "1:1048 3:64 1:1048 3:64 1:1048 3:64 1:1048 3:64 3:64 3:64",
			       "1:1048 3:64 3:64 3:64 3:64 3:64 3:64 1:1048 1:1048 1:1048" };
	for (int i = 0; i < 2; i++) {
		bench_port(scheds[i]);
		port.busy_until = 1 * SB_US; /* everything queues behind a packet being sent */
		for (int k = 0; k < 4; k++)
			sb_port_enqueue(&sim.net, &port, packet(1, 1048, SB_PKT_DATA, SB_LANE_DATA));
		for (int k = 0; k < 6; k++)
			sb_port_enqueue(&sim.net, &port, packet(3, 64, SB_PKT_DATA, SB_LANE_DATA));
		sb_eventq_run_until(&sim.net.engine.eq, 1 * SB_MS);
		char got[256];
		wire_order(got, sizeof(got));
		print_message("%s: %s\n", i == 0 ? "rr " : "drr", got);
		assert_string_equal(got, want[i]);
		bench_free();
	}
}

/* host.control_queue: with `priority` (sb_port_enqueue) an ACK sent while data waits goes
 * first; with `fifo` (sb_port_enqueue_fifo, ns-3's NIC) it waits behind that data. */
static void test_nic_control_priority_or_fifo(void **state)
{
	(void)state;
	const char *want[] = { "1:1048 1:64 1:1048 1:1048", "1:1048 1:1048 1:1048 1:64" };
	for (int fifo = 0; fifo < 2; fifo++) {
		bench_port(SB_SCHED_DRR);
		for (int k = 0; k < 3; k++)
			sb_port_enqueue(&sim.net, &port, packet(1, 1048, SB_PKT_DATA, SB_LANE_DATA));
		struct sb_packet *ack = packet(1, 64, SB_PKT_ACK, SB_LANE_CONTROL);
		if (fifo)
			sb_port_enqueue_fifo(&sim.net, &port, ack);
		else
			sb_port_enqueue(&sim.net, &port, ack);
		sb_eventq_run_until(&sim.net.engine.eq, 1 * SB_MS);
		char got[256];
		wire_order(got, sizeof(got));
		print_message("control_queue = %s: %s\n", fifo ? "fifo    " : "priority", got);
		assert_string_equal(got, want[fifo]);
		bench_free();
	}
}

/* The link's busy time is the serialisation of every packet sent, control frames included:
 * derived from the bytes at a whole number of ps per byte, added up otherwise (a 3 Gb/s link
 * takes 2666.67 ps per byte, rounded up per packet). */
static void test_busy_time(void **state)
{
	(void)state;
	const uint64_t rates[] = { 10000000000, 3000000000 };
	const uint64_t ps_per_byte[] = { 800, 0 };
	const uint32_t sizes[] = { 1048, 64, 1000, 7 };
	for (int r = 0; r < 2; r++) {
		bench_port(SB_SCHED_DRR);
		port.rate_bps = rates[r];
		port.ps_per_byte = ps_per_byte[r];
		sb_time want = 0;
		for (int k = 0; k < 4; k++) {
			want += sb_tx_time(sizes[k], rates[r]);
			sb_port_enqueue(&sim.net, &port, packet((uint8_t)k, sizes[k], k == 1 ? SB_PKT_ACK : SB_PKT_DATA,
							    k == 1 ? SB_LANE_CONTROL : SB_LANE_DATA));
		}
		sb_eventq_run_until(&sim.net.engine.eq, 1 * SB_MS);
		assert_int_equal(port.tx_bytes, 1048 + 64 + 1000 + 7); /* all four sent */
		assert_int_equal(sb_port_busy_time(&port), want);
		bench_free();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drr_matches_model),
		cmocka_unit_test(test_rr_one_packet_per_turn),
		cmocka_unit_test(test_nic_control_priority_or_fifo),
		cmocka_unit_test(test_busy_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
