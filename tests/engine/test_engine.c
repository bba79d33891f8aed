/*
 * test_engine.c — the engine on its own (src/engine/engine.h), with no simulation around it:
 * its clock follows the events it runs, its packets come zeroed from its pool and go back, a
 * packet's INT record goes with the packet, and the packet_gone hook hears of exactly the
 * packets that leave undelivered and are not PFC frames. Which bug each test catches is said
 * above it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine/engine.h"

struct gone_log {
	uint32_t flows[8];
	unsigned n;
};

static void log_gone(void *world, uint32_t flow)
{
	struct gone_log *g = world;
	assert_true(g->n < 8);
	g->flows[g->n++] = flow;
}

struct tick_log {
	struct sb_engine *e;
	sb_time seen[4];
	uint64_t args[4];
	unsigned n;
};

static void tick(void *obj, uint64_t arg)
{
	struct tick_log *t = obj;
	assert_true(t->n < 4);
	t->seen[t->n] = sb_now(t->e);
	t->args[t->n++] = arg;
	if (arg == 1) /* an event may schedule another, later one */
		sb_at(t->e, sb_now(t->e) + 5000, tick, t, 3);
}

/* Catches: sb_now() reading anything but the queue's clock, sb_at() dropping or mis-timing an
 * event, or its argument not reaching the callback. */
static void test_clock_follows_events(void **state)
{
	(void)state;
	struct sb_engine e;
	sb_engine_init(&e, NULL, NULL);
	assert_int_equal(sb_now(&e), 0);
	struct tick_log t = { .e = &e };
	sb_at(&e, 7000, tick, &t, 2);
	sb_at(&e, 1000, tick, &t, 1);
	sb_eventq_run_until(&e.eq, 100000);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.seen[0], 1000);
	assert_int_equal(t.args[0], 1);
	assert_int_equal(t.seen[1], 6000);
	assert_int_equal(t.args[1], 3);
	assert_int_equal(t.seen[2], 7000);
	assert_int_equal(t.args[2], 2);
	sb_engine_free(&e);
}

/* Catches: a packet handed out with a former life's fields (sb_packet_new not zeroing), a pool
 * that does not count packets out and back (the leak check of sb_sim_check reads `live`), an
 * INT record that outlives its packet. */
static void test_packets_and_records(void **state)
{
	(void)state;
	struct sb_engine e;
	sb_engine_init(&e, NULL, NULL);
	struct sb_packet *p = sb_packet_new(&e);
	p->flow = 42;
	p->size = 1500;
	p->int_id = sb_int_alloc(&e.telemetry);
	assert_int_equal(e.packets.live, 1);
	assert_int_equal(e.telemetry.live, 1);
	sb_packet_recycle(&e, p);
	assert_int_equal(e.packets.live, 0);
	assert_int_equal(e.telemetry.live, 0);
	struct sb_packet *q = sb_packet_new(&e);
	assert_ptr_equal(q, p); /* LIFO: the warm slot comes back */
	assert_int_equal(q->flow, 0);
	assert_int_equal(q->size, 0);
	assert_int_equal(q->int_id, 0);
	sb_packet_free(&e, q); /* no hook set: nothing to tell */
	assert_int_equal(e.packets.live, 0);
	sb_engine_free(&e);
}

/* Catches: the hook called for a PFC frame (whose `flow` is a priority mask, which would count
 * a packet gone for an unrelated flow), or by sb_packet_recycle (a delivered packet counted
 * twice, the host having accounted it), or not called for a dropped packet (its flow never
 * released). */
static void test_packet_gone_hook(void **state)
{
	(void)state;
	struct gone_log g = { 0 };
	struct sb_engine e;
	sb_engine_init(&e, log_gone, &g);
	struct sb_packet *data = sb_packet_new(&e), *ack = sb_packet_new(&e), *pfc = sb_packet_new(&e),
			 *delivered = sb_packet_new(&e);
	data->flow = 7;
	ack->type = SB_PKT_ACK;
	ack->flow = 9;
	pfc->type = SB_PKT_PFC;
	pfc->flow = 0x08; /* priority 3's bit */
	delivered->flow = 11;
	sb_packet_free(&e, data);
	sb_packet_free(&e, pfc);
	sb_packet_free(&e, ack);
	sb_packet_recycle(&e, delivered);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.flows[0], 7);
	assert_int_equal(g.flows[1], 9);
	assert_int_equal(e.packets.live, 0);
	sb_engine_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_follows_events),
		cmocka_unit_test(test_packets_and_records),
		cmocka_unit_test(test_packet_gone_hook),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
