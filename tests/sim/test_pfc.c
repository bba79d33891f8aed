/*
 * test_pfc.c — PFC transport, paused-time accounting, 802.1Qbb quanta, and the deadlock
 * detector. Switch schemes decide when to pause (their own tests); here the frames are sent
 * by hand through the MMU's helpers, so the expected times follow from the link alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include "mmu/mmu.h"
#include "net/deadlock.h"
#include "net/pfc.h"
#include "sim/report_pfc.h"
#include "sim/sim.h"
#include "testlib.h"

static void send_step(void *obj, uint64_t pause)
{
	struct sb_sim *sim = obj;
	sb_mmu_send_pfc(sim->net.switches[0]->mmus[0], 1, 1u << 1, pause);
}

/* A 3 ms run of host 1's line-rate CBR into host 0 through one switch, whose MMU sends a
 * PAUSE (1) or RESUME (0) for priority 1 out of port 1 at each of the n times. */
static void run_with_frames(struct sb_sim *sim, struct sb_scenario *sc, const sb_time *at, const int *pause, int n)
{
	tl_single_switch(sc, 2, 10, 1000000);
	sc->run.duration_ms = 3;
	tl_build(sim, sc);
	tl_cbr(sim, 1, 0, 5000000000ULL, 1048, 0);
	for (int i = 0; i < n; i++)
		sb_at(&sim->net.engine, at[i], send_step, sim, (uint64_t)pause[i]);
	tl_run_and_check(sim);
}

/* Pause at 1 ms, resume at 2 ms, pause again at 2.5 ms until the run ends at 3 ms: the summary
 * counts two episodes, and its nearest-rank p99 over both (rank 2 of 2) is the finished 1 ms,
 * not the open one of about 0.5 ms that the finished one alone would not rank. */
static void test_open_episode_in_summary(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	const sb_time at[] = { 1 * SB_MS, 2 * SB_MS, 2500 * SB_US };
	const int pause[] = { 1, 0, 1 };
	run_with_frames(&sim, &sc, at, pause, 3);
	struct sb_pfc_summary s;
	sb_pfc_summarize(&sim, &s);
	printf("  %llu episodes, p99 %.3f us, max %.3f us\n", (unsigned long long)s.episodes, s.episode_p99_us,
	       s.episode_max_us);
	assert_int_equal(s.episodes, 2);
	assert_int_equal(sim.net.pfc.episodes->n, 1);
	assert_true(s.episode_p99_us == 1000.0);
	assert_true(s.episode_max_us == 1000.0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Pause at 1 ms, resume at 2 ms: host 1's NIC is paused for exactly 1 ms (both frames take the
 * same path), the log has both frames, and the episode statistics agree. */
static void test_paused_time_and_log(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	const sb_time at[] = { 1 * SB_MS, 2 * SB_MS };
	const int pause[] = { 1, 0 };
	run_with_frames(&sim, &sc, at, pause, 2);
	struct sb_port *nic = &sim.net.hosts[1]->node.ports[0];
	sb_time paused = sb_pfc_paused_time(&sim.net, nic, 1);
	printf("  paused %.3f us in %u episode(s)\n", sb_time_to_us(paused), nic->pause_episodes[1]);
	assert_int_equal(paused, 1 * SB_MS);
	assert_int_equal(nic->pause_episodes[1], 1);
	assert_int_equal(sb_pfc_paused_time(&sim.net, nic, 0), 0);
	assert_int_equal(sim.net.pfc.events->n, 2);
	struct sb_pfc_event e0, e1;
	sb_reclog_get(sim.net.pfc.events, 0, &e0);
	sb_reclog_get(sim.net.pfc.events, 1, &e1);
	assert_int_equal(e0.t, 1 * SB_MS);
	assert_int_equal(e0.prio, 1);
	assert_int_equal(e0.pause, 1);
	assert_int_equal(e1.pause, 0);
	assert_int_equal(e0.node, sim.net.switches[0]->node.id);
	assert_int_equal(sim.net.pfc.episodes->n, 1);
	assert_true(sb_spill_select(sim.net.pfc.episodes, 1) == (double)(1 * SB_MS));
	assert_int_equal(sim.net.pfc.episode_max, 1 * SB_MS);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* A processing delay postpones the pause and the resume alike. */
static void test_processing_delay(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 2, 10, 1000000);
	sc.run.duration_ms = 3;
	sc.pfc.processing_delay_ns = 307.2; /* 3840 B at 100 Gb/s, DSH Eq. 1's budget */
	tl_build(&sim, &sc);
	tl_cbr(&sim, 1, 0, 5000000000ULL, 1048, 0);
	sb_at(&sim.net.engine, 1 * SB_MS, send_step, &sim, 1);
	tl_run_and_check(&sim);
	struct sb_port *nic = &sim.net.hosts[1]->node.ports[0];
	/* PAUSE sent at 1 ms behind at most one 1048 B frame, 64 B at 10 Gb/s, 1 us of cable */
	sb_time earliest = 1 * SB_MS + sb_tx_time(64, 10000000000ULL) + 1 * SB_US + 307200;
	printf("  pause took effect at %.3f us (no earlier than %.3f us)\n", sb_time_to_us(nic->pause_since[1]),
	       sb_time_to_us(earliest));
	assert_true(nic->pause_since[1] >= earliest);
	assert_true(nic->pause_since[1] <= earliest + sb_tx_time(1048, 10000000000ULL));
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* 802.1Qbb quanta: while the switch asserts the pause it refreshes it, so the upstream stays
 * paused for the whole 1 ms although each frame only holds for 51.2 us. */
static void test_quanta_refresh(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 2, 10, 1000000);
	sc.run.duration_ms = 3;
	sc.pfc.mode = SB_PFC_QUANTA;
	sc.pfc.quanta = 1000; /* 1000 × 512 bit = 51.2 us at 10 Gb/s */
	tl_build(&sim, &sc);
	struct sb_flow *f = tl_cbr(&sim, 1, 0, 5000000000ULL, 1048, 0);
	sb_at(&sim.net.engine, 1 * SB_MS, send_step, &sim, 1);
	sb_at(&sim.net.engine, 2 * SB_MS, send_step, &sim, 0);
	tl_run_and_check(&sim);
	struct sb_port *nic = &sim.net.hosts[1]->node.ports[0];
	printf("  paused %.3f us, %llu refresh frames, %u episode(s)\n", sb_time_to_us(sb_pfc_paused_time(&sim.net, nic, 1)),
	       (unsigned long long)sim.net.pfc.refresh_frames, nic->pause_episodes[1]);
	assert_int_equal(nic->pause_episodes[1], 1);
	assert_int_equal(sb_pfc_paused_time(&sim.net, nic, 1), 1 * SB_MS);
	/* one refresh per half pause time: 1 ms / 25.6 us = 39 */
	assert_in_range(sim.net.pfc.refresh_frames, 38, 40);
	assert_true(f->bytes_received > 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Without refreshes a quanta PAUSE expires on its own after quanta × 512 bit times. */
static void inject_pause(void *obj, uint64_t arg)
{
	struct sb_sim *sim = obj;
	(void)arg;
	struct sb_packet *f = sb_packet_new(&sim->net.engine);
	f->type = SB_PKT_PFC;
	f->lane = SB_LANE_CONTROL;
	f->size = 64;
	f->flow = 1u << 1;
	f->flags = SB_PF_PAUSE;
	f->seq = 1000;
	sb_pfc_receive(&sim->net, &sim->net.hosts[1]->node.ports[0], f);
}

static void test_quanta_expiry(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 2, 10, 1000000);
	sc.run.duration_ms = 2;
	sc.pfc.mode = SB_PFC_QUANTA;
	tl_build(&sim, &sc);
	tl_cbr(&sim, 1, 0, 5000000000ULL, 1048, 0);
	sb_at(&sim.net.engine, 1 * SB_MS, inject_pause, &sim, 0);
	tl_run_and_check(&sim);
	struct sb_port *nic = &sim.net.hosts[1]->node.ports[0];
	assert_int_equal(nic->pause_episodes[1], 1);
	assert_int_equal(sb_pfc_paused_time(&sim.net, nic, 1), 51200 * SB_NS); /* 1000 × 512 bit at 10 Gb/s */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* A PFC frame overtakes ACKs waiting in the control queue, but not earlier PFC frames. */
static void test_pfc_frame_overtakes_acks(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 2, 10, 1000000);
	tl_build(&sim, &sc);
	struct sb_port *port = &sim.net.switches[0]->node.ports[0];
	port->busy_until = 1 * SB_MS; /* keep everything queued */
	struct sb_packet *sent[5];
	const uint8_t type[5] = { SB_PKT_ACK, SB_PKT_ACK, SB_PKT_PFC, SB_PKT_ACK, SB_PKT_PFC };
	for (int i = 0; i < 5; i++) {
		sent[i] = sb_packet_new(&sim.net.engine);
		sent[i]->type = type[i];
		sent[i]->lane = SB_LANE_CONTROL;
		sent[i]->size = 64;
		sb_port_enqueue(&sim.net, port, sent[i]);
	}
	const int order[5] = { 2, 4, 0, 1, 3 };
	struct sb_packet *p = port->ctrl.head;
	for (int i = 0; i < 5; i++, p = p->next)
		assert_ptr_equal(p, sent[order[i]]);
	assert_null(p);
	assert_ptr_equal(port->ctrl.tail, sent[3]);
	assert_int_equal(port->ctrl.pkts, 5);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* --- deadlock detector --- */

static struct sb_port *port_towards(struct sb_node *from, const struct sb_node *to)
{
	for (uint16_t i = 0; i < from->nports; i++)
		if (from->ports[i].peer->node == to)
			return &from->ports[i];
	fail_msg("%s has no port towards %s", from->name, to->name);
	return NULL;
}

static void park(struct sb_sim *sim, struct sb_port *q, uint16_t in_port)
{
	struct sb_packet *p = sb_packet_new(&sim->net.engine);
	p->type = SB_PKT_DATA;
	p->size = 1048;
	p->prio = 3;
	p->in_port = in_port;
	sb_fifo_push(&q->q[3], p);
	q->backlog |= 1u << 3;
	sb_port_pfc(&sim->net, q, 1u << 3, true, false);
}

/* Hand-made cyclic buffer dependency over leaf0 -> spine -> leaf1 -> spine -> leaf0 (four
 * paused, backlogged priority-3 queues each holding packets from the port the previous one
 * feeds). With `close_cycle` false the last queue holds packets from elsewhere: no cycle. */
static size_t run_cycle(bool close_cycle, struct sb_deadlock *out, struct sb_deadlock_member *members)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc,
		    "run: { duration_ms = 3.0; sample_interval_us = 0.0; };\n"
		    "topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 2; spines = 1; };\n"
		    "pfc: { deadlock_check_us = 50.0; deadlock_persist_us = 1000.0; };",
		    NULL, 0);
	tl_build(&sim, &sc);
	sim.net.lossless_prio_mask = 1u << 3;
	sim.net.deadlock = sb_deadlock_new(&sim.net);
	struct sb_node *leaf0 = &sim.net.switches[0]->node, *leaf1 = &sim.net.switches[1]->node,
		       *spine = &sim.net.switches[2]->node;
	struct sb_port *a = port_towards(leaf0, spine), *b = port_towards(spine, leaf1),
		       *c = port_towards(leaf1, spine), *d = port_towards(spine, leaf0);
	park(&sim, b, a->peer->index);                       /* A waits on B */
	park(&sim, c, b->peer->index);                       /* B waits on C */
	park(&sim, d, c->peer->index);                       /* C waits on D */
	park(&sim, a, close_cycle ? d->peer->index : 0);     /* D waits on A (or not) */
	sb_eventq_run_until(&sim.net.engine.eq, sim.stop_at);
	size_t n = sim.net.deadlock->nfound;
	if (n) {
		*out = sim.net.deadlock->found[0];
		for (size_t i = 0; i < out->count && i < 4; i++)
			members[i] = sim.net.deadlock->members[out->first + i];
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return n;
}

static void test_deadlock_cycle(void **state)
{
	(void)state;
	struct sb_deadlock dl;
	struct sb_deadlock_member m[4];
	assert_int_equal(run_cycle(true, &dl, m), 1);
	printf("  deadlock of %zu queues, onset %.1f us, detected %.1f us\n", dl.count, sb_time_to_us(dl.onset),
	       sb_time_to_us(dl.detected));
	assert_int_equal(dl.count, 4);
	assert_int_equal(dl.onset, 0);
	/* found at the first check after the cycle persisted 1 ms: 1000 us on the 50 us grid */
	assert_int_equal(dl.detected, 1000 * SB_US);
	for (int i = 0; i < 4; i++)
		assert_int_equal(m[i].prio, 3);
	assert_int_equal(run_cycle(false, &dl, m), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paused_time_and_log),
		cmocka_unit_test(test_open_episode_in_summary),
		cmocka_unit_test(test_processing_delay),
		cmocka_unit_test(test_quanta_refresh),
		cmocka_unit_test(test_quanta_expiry),
		cmocka_unit_test(test_pfc_frame_overtakes_acks),
		cmocka_unit_test(test_deadlock_cycle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
