/*
 * test_dataplane_sched.c — the software switch's port scheduler (src/dataplane/swport.c, which
 * calls net/sched.h as the simulator's ports do):
 *
 *   test_sp, test_rr, test_drr        against the simulator's port (src/net/port.c): the same
 *                                     random arrivals go into both, and whenever the simulator's
 *                                     port starts a packet, sb_swport_select must return the
 *                                     packet of the same priority and size, with the same DRR
 *                                     deficits and turn
 *   test_{sp,rr,drr}_definition       against the definitions, written out plainly (one visit
 *                                     per queue per step, no masks): since both ports share the
 *                                     scheduler, agreeing with each other proves nothing about
 *                                     the shared code; this does
 *   test_control_first                the control FIFO goes first and is bounded
 *
 * The simulator's port transmits on its own as its events run; to let arrivals pile up between
 * transmissions the test pauses all its priorities (PFC-style, which changes no DRR state while
 * nothing is eligible) and resumes them for a random number of transmissions.
 *
 * Bugs caught: SP serving the lowest index first, a DRR that forgets to add the quantum on a
 * new turn, keeps the deficit of an emptied queue, carries none, or does not move the turn on;
 * RR that serves the same queue twice or starts from queue 0 instead of the turn.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "core/rng.h"
#include "dataplane/swport.h"
#include "net/port.h"
#include "scenario/scenario.h"
#include "sim/sim.h"

static struct sb_sim sim;
static struct sb_node node;
static struct sb_port port;
static struct sb_swport sw;
static struct sb_dp_pool pool;
static struct sb_packet *seen;
static uint64_t compared;

/* Every packet the simulator's port started since the last call, against the software port. */
static void compare_new(void)
{
	for (struct sb_packet *p = seen ? seen->next : port.wire.head; p; p = p->next) {
		struct sb_dp_pkt *d = sb_swport_select(&sw);
		assert_non_null(d);
		assert_int_equal(d->prio, p->prio);
		assert_int_equal(d->len, p->size);
		sb_dp_pool_put(&pool, d);
		seen = p;
		compared++;
	}
	if (port.sched == SB_SCHED_DRR) {
		assert_memory_equal(sw.deficit, port.deficit, sizeof(sw.deficit));
		assert_int_equal(sw.turn.granted, port.turn.granted);
	}
	if (port.sched != SB_SCHED_SP)
		assert_int_equal(sw.turn.next, port.turn.next);
}

static void arrive(uint8_t prio, uint32_t size)
{
	struct sb_packet *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	p->type = SB_PKT_DATA;
	p->prio = prio;
	p->size = size;
	sb_port_enqueue(&sim.net, &port, p);
	struct sb_dp_pkt *d = sb_dp_pool_get(&pool);
	assert_non_null(d);
	d->prio = prio;
	d->len = size;
	d->ctrl = false;
	sb_swport_push(&sw, d);
}

static void run_sched(uint8_t sched)
{
	memset(&sim, 0, sizeof(sim));
	sb_eventq_init(&sim.net.engine.eq);
	node = (struct sb_node){ .net = &sim.net, .kind = SB_NODE_HOST };
	port = (struct sb_port){ .node = &node, .net = &sim.net, .node_kind = SB_NODE_HOST, .peer = &port,
				 .peer_node = &node, .peer_kind = SB_NODE_HOST, .rate_bps = 10000000000,
				 .ps_per_byte = 800, .delay = 1000 * SB_SEC, .sched = sched };
	static const uint32_t quantum[SB_NPRIO] = { 1500, 500, 3000, 1500, 64, 9000, 1500, 700 };
	static struct sb_port_profile profile;
	profile = sb_port_profile_default;
	memcpy(profile.quantum, quantum, sizeof(quantum));
	port.profile = &profile;
	struct sb_ecn_cfg ecn[SB_MMU_NPRIO] = { { 0 } };
	sb_swport_init(&sw, sched, quantum, ecn, false, 10000000000, 0, 16);
	assert_true(sb_dp_pool_init(&pool, 100000));
	struct sb_rng rng;
	sb_rng_init(&rng, 7 + sched, 0);
	seen = NULL;
	compared = 0;
	for (int round = 0; round < 2000; round++) {
		port.paused = 0xff;
		unsigned n = (unsigned)sb_rng_below(&rng, 6);
		for (unsigned i = 0; i < n; i++) {
			uint8_t prio = (uint8_t)(sb_rng_below(&rng, 3) == 0 ? sb_rng_below(&rng, 8) : 1 + 4 * sb_rng_below(&rng, 2));
			arrive(prio, 64 + (uint32_t)sb_rng_below(&rng, 1500));
		}
		port.paused = 0;
		sb_port_kick(&sim.net, &port);
		compare_new();
		unsigned steps = (unsigned)sb_rng_below(&rng, 6);
		for (unsigned s = 0; s < steps && sb_eventq_peek_time(&sim.net.engine.eq) < 500 * SB_SEC; s++) {
			sb_eventq_run_until(&sim.net.engine.eq, sb_eventq_peek_time(&sim.net.engine.eq));
			compare_new();
		}
	}
	/* drain */
	while (sb_eventq_peek_time(&sim.net.engine.eq) < 500 * SB_SEC) {
		sb_eventq_run_until(&sim.net.engine.eq, sb_eventq_peek_time(&sim.net.engine.eq));
		compare_new();
	}
	assert_null(sb_swport_select(&sw));
	print_message("sched %u: %llu packets compared\n", sched, (unsigned long long)compared);
	assert_true(compared > 3000);
	for (struct sb_packet *p = port.wire.head, *next; p; p = next) {
		next = p->next;
		free(p);
	}
	sb_eventq_free(&sim.net.engine.eq);
	sb_dp_pool_fini(&pool);
}

static void test_sp(void **state) { (void)state; run_sched(SB_SCHED_SP); }
static void test_rr(void **state) { (void)state; run_sched(SB_SCHED_RR); }
static void test_drr(void **state) { (void)state; run_sched(SB_SCHED_DRR); }

#define MAXQ 4096

/* The definitions: strict priority (highest index), round robin (one packet per queue per
 * turn) and DRR after Shreedhar & Varghese (a turn adds the quantum, the queue sends while its
 * deficit covers its head, an empty queue has no deficit), each queue visited in turn. */
struct ref {
	uint32_t size[SB_NPRIO][MAXQ];
	unsigned head[SB_NPRIO], tail[SB_NPRIO];
	int32_t deficit[SB_NPRIO];
	uint32_t quantum[SB_NPRIO];
	unsigned next;
	bool granted;
	uint8_t kind;
};

static bool ref_has(const struct ref *m, unsigned q)
{
	return m->head[q] != m->tail[q];
}

/* The priority of the next packet, removed, or -1 when every queue is empty. */
static int ref_select(struct ref *m)
{
	unsigned q, held = 0;
	for (q = 0; q < SB_NPRIO; q++)
		held += ref_has(m, q);
	if (!held)
		return -1;
	if (m->kind == SB_SCHED_SP) {
		for (q = SB_NPRIO; !ref_has(m, q - 1); q--)
			;
		m->head[q - 1]++;
		return (int)q - 1;
	}
	if (m->kind == SB_SCHED_RR) {
		for (q = m->next; !ref_has(m, q); q = (q + 1) % SB_NPRIO)
			;
		m->next = (q + 1) % SB_NPRIO;
		m->head[q]++;
		return (int)q;
	}
	for (;;) {
		q = m->next;
		if (ref_has(m, q)) {
			if (!m->granted) {
				m->deficit[q] += (int32_t)m->quantum[q];
				m->granted = true;
			}
			uint32_t size = m->size[q][m->head[q]];
			if ((int32_t)size <= m->deficit[q]) {
				m->deficit[q] -= (int32_t)size;
				if (++m->head[q] == m->tail[q]) {
					m->deficit[q] = 0;
					m->next = (q + 1) % SB_NPRIO;
					m->granted = false;
				}
				return (int)q;
			}
		} else {
			m->deficit[q] = 0;
		}
		m->next = (q + 1) % SB_NPRIO;
		m->granted = false;
	}
}

static struct ref ref;

static void run_definition(uint8_t kind)
{
	static const uint32_t quantum[SB_NPRIO] = { 1500, 500, 3000, 1500, 64, 9000, 1500, 700 };
	struct sb_ecn_cfg ecn[SB_MMU_NPRIO] = { { 0 } };
	sb_swport_init(&sw, kind, quantum, ecn, false, 10000000000, 0, 16);
	memset(&ref, 0, sizeof(ref));
	ref.kind = kind;
	memcpy(ref.quantum, quantum, sizeof(quantum));
	assert_true(sb_dp_pool_init(&pool, MAXQ * SB_NPRIO));
	struct sb_rng rng;
	sb_rng_init(&rng, 17 + kind, 0);
	uint64_t n = 0;
	for (int round = 0; round < 4000; round++) {
		unsigned arrivals = (unsigned)sb_rng_below(&rng, 6);
		for (unsigned i = 0; i < arrivals; i++) {
			uint8_t prio = (uint8_t)(sb_rng_below(&rng, 3) == 0 ? sb_rng_below(&rng, 8) : 1 + 4 * sb_rng_below(&rng, 2));
			uint32_t size = 64 + (uint32_t)sb_rng_below(&rng, 1500);
			if (ref.tail[prio] == MAXQ)
				continue;
			ref.size[prio][ref.tail[prio]++] = size;
			struct sb_dp_pkt *d = sb_dp_pool_get(&pool);
			assert_non_null(d);
			d->prio = prio;
			d->len = size;
			d->ctrl = false;
			sb_swport_push(&sw, d);
		}
		unsigned sends = (unsigned)sb_rng_below(&rng, round < 3800 ? 6 : 64);
		for (unsigned s = 0; s < sends; s++) {
			int want = ref_select(&ref);
			struct sb_dp_pkt *d = sb_swport_select(&sw);
			if (want < 0) {
				assert_null(d);
				break;
			}
			assert_non_null(d);
			assert_int_equal(d->prio, want);
			assert_int_equal(d->len, ref.size[want][ref.head[want] - 1]);
			sb_dp_pool_put(&pool, d);
			n++;
			if (kind == SB_SCHED_DRR) {
				assert_memory_equal(sw.deficit, ref.deficit, sizeof(ref.deficit));
				assert_int_equal(sw.turn.granted, ref.granted);
			}
			if (kind != SB_SCHED_SP)
				assert_int_equal(sw.turn.next, ref.next);
		}
	}
	print_message("sched %u: %llu packets against the definition\n", kind, (unsigned long long)n);
	assert_true(n > 8000);
	while (sb_swport_select(&sw))
		;
	sb_dp_pool_fini(&pool);
}

static void test_sp_definition(void **state) { (void)state; run_definition(SB_SCHED_SP); }
static void test_rr_definition(void **state) { (void)state; run_definition(SB_SCHED_RR); }
static void test_drr_definition(void **state) { (void)state; run_definition(SB_SCHED_DRR); }

/* The control FIFO goes first whatever the data queues hold, and is bounded. */
static void test_control_first(void **state)
{
	(void)state;
	static const uint32_t quantum[SB_MMU_NPRIO] = { 1500, 1500, 1500, 1500, 1500, 1500, 1500, 1500 };
	struct sb_ecn_cfg ecn[SB_MMU_NPRIO] = { { 0 } };
	sb_swport_init(&sw, SB_SCHED_SP, quantum, ecn, false, 1000000000, 0, 2);
	assert_true(sb_dp_pool_init(&pool, 8));
	struct sb_dp_pkt *d = sb_dp_pool_get(&pool), *c1 = sb_dp_pool_get(&pool), *c2 = sb_dp_pool_get(&pool),
			 *c3 = sb_dp_pool_get(&pool);
	d->prio = 7;
	d->len = 100;
	sb_swport_push(&sw, d);
	c1->ctrl = c2->ctrl = c3->ctrl = true;
	c1->len = c2->len = c3->len = 60;
	assert_true(sb_swport_push_ctrl(&sw, c1));
	assert_true(sb_swport_push_ctrl(&sw, c2));
	assert_false(sb_swport_push_ctrl(&sw, c3));
	assert_int_equal(sw.ctrl_drops, 1);
	assert_ptr_equal(sb_swport_select(&sw), c1);
	assert_ptr_equal(sb_swport_select(&sw), c2);
	assert_ptr_equal(sb_swport_select(&sw), d);
	assert_null(sb_swport_select(&sw));
	sb_dp_pool_fini(&pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sp),
		cmocka_unit_test(test_rr),
		cmocka_unit_test(test_drr),
		cmocka_unit_test(test_sp_definition),
		cmocka_unit_test(test_rr_definition),
		cmocka_unit_test(test_drr_definition),
		cmocka_unit_test(test_control_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
