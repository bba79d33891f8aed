/*
 * test_flow_release.c — finished flows are released and their slots reused (transport/flow_table.h,
 * transport/flows.c): the table holds the flows in flight, not every flow of the run; a flow is not
 * released while a packet of it exists; a stale timer of a released flow does not reach the
 * flow that took its slot; the flow table's id map in isolation.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/scenario.h"
#include "transport/flow_table.h"
#include "sim/sim.h"
#include "testlib.h"
#include "transport/transport.h"

extern const char sb_default_scenario[];

/* The default scenario runs 1300 flows; the table never holds more than those in flight,
 * and a finished flow's id looks up to nothing. */
static void test_slots_follow_flows_in_flight(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc, sb_default_scenario, NULL, 0);
	tl_run_checked(&sim, &sc);
	print_message("%llu flows completed, %u slots, at most %u live, %u live at the end\n",
		      (unsigned long long)sim.flows.stats.flows_completed, sim.flows.table.nslots, sim.flows.table.peak_live, sim.flows.table.live);
	assert_true(sim.flows.stats.flows_completed > 1000);
	assert_true(sim.flows.table.peak_live * 4 < sim.flows.stats.flows_completed);
	assert_true(sim.flows.table.nslots <= sim.flows.table.peak_live); /* slots are reused, never more than needed */
	assert_int_equal(sim.flows.table.live, sim.flows.stats.flows_started - sim.flows.stats.flows_completed +
						 (sim.flows.table.next_id - sim.flows.stats.flows_started));
	uint32_t released = 0;
	for (uint32_t id = 0; id < sim.flows.table.next_id; id++)
		released += sb_flow_get(&sim.flows, id) == NULL;
	assert_int_equal(released, sim.flows.stats.flows_completed);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* --- a transport made for the test: it completes at the receiver (no on_ack), sends its
 * single segment twice, and arms a timer far ahead that completion leaves stale --- */

static int data_seen, timers_fired;

static void probe_start(struct sb_flows *fl, struct sb_flow *f)
{
	for (int copy = 0; copy < 2; copy++) {
		struct sb_packet *p = sb_flow_data_packet(fl, f, 0, (uint32_t)f->size, 40, 0);
		sb_host_send(fl->net, p);
	}
	sb_flow_arm_timer(fl, f, sb_now(&fl->net->engine) + 100 * SB_US);
}

static void probe_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	(void)pkt;
	data_seen++;
	f->bytes_received = f->size;
	sb_flow_received(fl, f); /* the first copy completes the flow; the second is late */
}

static void probe_timer(struct sb_flows *fl, struct sb_flow *f)
{
	(void)fl;
	(void)f;
	timers_fired++;
}

static const struct sb_transport_ops probe = {
	.name = "probe", .summary = "test", .start = probe_start, .on_data = probe_data, .on_timer = probe_timer,
};

static void stop_here(void *obj, uint64_t arg)
{
	(void)arg;
	*(bool *)obj = true;
}

/* Flow A completes with its first copy while the second is still on the wire: it stays until
 * that copy arrived (and reached on_data), then goes. Flow B, created after, takes A's slot;
 * A's timer event, stale, fires at 100 us and must not run B's timer (B's is at 130 us). */
static void test_late_packet_and_timer(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_single_switch(&sc, 4, 10, 1 << 20);
	struct sb_sim sim;
	struct sb_error err = { "" };
	if (sb_sim_build(&sim, &sc, &err)) /* not tl_build: it keeps finished flows */
		fail_msg("%s", err.msg);
	data_seen = timers_fired = 0;
	struct sb_flow *a = sb_flow_create(&sim.flows, 0, 1, 1000, 0, &probe);
	uint32_t a_id = a->id;
	bool stopped = false;
	sb_at(&sim.net.engine, 20 * SB_US, stop_here, &stopped, 0);
	sb_eventq_run_until(&sim.net.engine.eq, 20 * SB_US);
	assert_true(stopped);
	assert_int_equal(data_seen, 2);          /* the late copy reached the live flow */
	assert_null(sb_flow_get(&sim.flows, a_id));    /* and then A was released */
	assert_int_equal(sim.flows.table.live, 0);
	struct sb_flow *b = sb_flow_create(&sim.flows, 2, 3, 1000, 30 * SB_US, &probe);
	assert_ptr_equal(b, a);                  /* B took A's slot */
	sb_eventq_run_until(&sim.net.engine.eq, 120 * SB_US);
	assert_int_equal(timers_fired, 0);       /* A's stale event (100 us) did nothing */
	assert_null(sb_flow_get(&sim.flows, a_id));
	assert_int_equal(sim.flows.stats.flows_completed, 2);
	assert_int_equal(sb_sim_check(&sim, &err), 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* The id map alone: reserved ids keep their numbers, released ids look up to NULL, a chunk
 * of ids is freed once all of it was issued and released, slots come back LIFO. */
static void test_table_ids(void **state)
{
	(void)state;
	struct sb_flow_table t = { 0 };
	struct sb_flow *f0 = sb_flow_table_add(&t);
	uint32_t first = sb_flow_table_reserve(&t, SB_FLOW_IDS + 10);
	struct sb_flow *after = sb_flow_table_add(&t);
	assert_int_equal(f0->id, 0);
	assert_int_equal(first, 1);
	assert_int_equal(after->id, SB_FLOW_IDS + 11);
	assert_null(sb_flow_table_get(&t, 5));   /* reserved, not created */
	struct sb_flow *r = sb_flow_table_add_reserved(&t, 5);
	assert_int_equal(r->id, 5);
	assert_ptr_equal(sb_flow_table_get(&t, 5), r);
	sb_flow_table_release(&t, r);
	assert_null(sb_flow_table_get(&t, 5));
	struct sb_flow *again = sb_flow_table_add_reserved(&t, 7);
	assert_ptr_equal(again, r);              /* the slot released last is reused first */
	assert_int_equal(t.peak_live, 3);
	/* chunk 0 holds ids 0..4095: it stays while any of them is reserved or live */
	sb_flow_table_release(&t, f0);
	sb_flow_table_release(&t, again);
	assert_non_null(t.slot_of[0]);
	for (uint32_t id = first; id < SB_FLOW_IDS; id++)
		if (id != 5 && id != 7)
			sb_flow_table_release(&t, sb_flow_table_add_reserved(&t, id));
	assert_null(t.slot_of[0]);
	assert_int_equal(t.live, 1);
	assert_null(sb_flow_table_get(&t, 3));
	sb_flow_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slots_follow_flows_in_flight),
		cmocka_unit_test(test_late_packet_and_timer),
		cmocka_unit_test(test_table_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
