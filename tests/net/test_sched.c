/*
 * test_sched.c — the port scheduler's decisions (src/net/sched.h) from their definitions, on
 * queues that are plain arrays of packet sizes: the functions the simulator's ports and the
 * software switch's both call.
 *
 *   test_eligible           PFC: a paused priority, or a paused port, is not served
 *   test_sp_order           strict priority serves the highest index first, skips paused
 *                           queues and a queue with nothing after all
 *   test_rr_turns           round robin: one packet per queue per turn, whatever its size; the
 *                           turn passes on and skips queues with nothing
 *   test_drr_weights        DRR (Shreedhar & Varghese): per round a queue sends its quantum
 *                           (drr_weight × drr_quantum_bytes) worth of packets: 3:1 quanta give
 *                           3:1 packets
 *   test_drr_deficit_carried  a head packet larger than the deficit waits for the next round,
 *                           the deficit carried, exactly as the paper's pseudo-code
 *   test_drr_reset_on_empty a queue emptied, or passed over while empty, loses its deficit; a
 *                           paused one keeps it
 *   test_alone_is_next      the idle-port fast path leaves the turn and deficits exactly as the
 *                           scheduler serving the same single packet would
 *   test_ecn_points         step marks strictly above k; RED never at or below kmin, with
 *                           probability pmax (not 1) at kmax, always above it, one draw per
 *                           decision in the band and none outside
 *   test_tables             a queue's quantum is weight × bytes, never 0; thresholds written for
 *                           ecn_ref_gbps scale with the port's rate (400 KB at 100G is 1600 KB at
 *                           400G, the HPCC-lineage KMIN_MAP), saturate, keep kmax ≥ kmin; RED
 *                           with kmax = kmin is a step; pmax is clamped to [0, 1]
 *   test_admit_and_dequeue  the switch's decision on the MMU's verdict: a refusal drops with no
 *                           draw; marking at enqueue counts the arriving packet, at dequeue only
 *                           the bytes behind; not-ECT packets draw nothing
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "core/rng.h"
#include "net/sched.h"

#define MAXQ 64

/* Eight FIFOs of packet sizes, the scheduler's state and what PFC pauses. */
struct bench {
	uint32_t size[SB_NPRIO][MAXQ];
	unsigned head[SB_NPRIO], tail[SB_NPRIO];
	uint8_t kind, paused, dry; /* dry: queues whose head() says "nothing" though held */
	bool port_paused;
	struct sb_sched_turn t;
	int32_t deficit[SB_NPRIO];
	uint32_t quantum[SB_NPRIO];
};

static bool head(void *ctx, unsigned q, uint32_t *size)
{
	struct bench *b = ctx;
	if ((b->dry & (1u << q)) || b->head[q] == b->tail[q])
		return false;
	*size = b->size[q][b->head[q]];
	return true;
}

static uint8_t held(const struct bench *b)
{
	uint8_t m = b->dry;
	for (unsigned q = 0; q < SB_NPRIO; q++)
		if (b->head[q] != b->tail[q])
			m |= (uint8_t)(1u << q);
	return m;
}

static void push(struct bench *b, unsigned q, uint32_t size, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		assert_true(b->tail[q] < MAXQ);
		b->size[q][b->tail[q]++] = size;
	}
}

/* Serve one packet as a port does: choose, remove, tell the scheduler if the queue emptied. */
static int serve(struct bench *b)
{
	int q = sb_sched_next(b->kind, &b->t, b->deficit, b->quantum,
			      sb_sched_eligible(held(b), b->paused, b->port_paused), held(b), head, b);
	if (q >= 0 && ++b->head[q] == b->tail[q])
		sb_sched_emptied(b->kind, &b->t, b->deficit, (unsigned)q);
	return q;
}

static void bench_init(struct bench *b, uint8_t kind, uint32_t quantum)
{
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	for (unsigned q = 0; q < SB_NPRIO; q++)
		b->quantum[q] = quantum;
}

static void test_eligible(void **state)
{
	(void)state;
	assert_int_equal(sb_sched_eligible(0x26, 0, false), 0x26);
	assert_int_equal(sb_sched_eligible(0x26, 0x04, false), 0x22); /* priority 2 paused */
	assert_int_equal(sb_sched_eligible(0x26, 0xff, false), 0);
	assert_int_equal(sb_sched_eligible(0x26, 0, true), 0); /* port-level pause (DSH) */
	assert_int_equal(sb_sched_eligible(0, 0, false), 0);
}

static void test_sp_order(void **state)
{
	(void)state;
	struct bench b;
	bench_init(&b, SB_SCHED_SP, 1500);
	push(&b, 2, 100, 2);
	push(&b, 5, 1500, 1);
	push(&b, 7, 64, 2);
	const int want[] = { 7, 7, 5, 2, 2, -1 };
	for (int i = 0; i < 6; i++)
		assert_int_equal(serve(&b), want[i]);

	bench_init(&b, SB_SCHED_SP, 1500);
	push(&b, 2, 100, 1);
	push(&b, 5, 100, 1);
	push(&b, 7, 100, 1);
	b.paused = 0x80;
	assert_int_equal(serve(&b), 5); /* paused 7 is skipped, not served */
	b.dry = 0x08;                   /* a pull source of priority 3 that has nothing after all */
	assert_int_equal(serve(&b), 2);
	b.port_paused = true;
	assert_int_equal(serve(&b), -1);
	b.port_paused = false;
	b.paused = 0;
	assert_int_equal(serve(&b), 7);
}

static void test_rr_turns(void **state)
{
	(void)state;
	struct bench b;
	bench_init(&b, SB_SCHED_RR, 1500);
	push(&b, 1, 1500, 3);
	push(&b, 3, 64, 5);
	push(&b, 6, 9000, 1);
	const int want[] = { 1, 3, 6, 1, 3, 1, 3, 3, 3, -1 };
	for (int i = 0; i < 10; i++) {
		int q = serve(&b);
		assert_int_equal(q, want[i]);
		if (q >= 0)
			assert_int_equal(b.t.next, (q + 1) % SB_NPRIO); /* the turn passes on */
	}
	/* from the turn, not from queue 0: the turn is at 4, so 6 goes before 1 */
	bench_init(&b, SB_SCHED_RR, 1500);
	push(&b, 1, 100, 1);
	push(&b, 6, 100, 1);
	b.t.next = 4;
	assert_int_equal(serve(&b), 6);
	assert_int_equal(serve(&b), 1);
	/* a queue with nothing after all is passed over */
	bench_init(&b, SB_SCHED_RR, 1500);
	push(&b, 5, 100, 1);
	b.dry = 0x04;
	b.t.next = 2;
	assert_int_equal(serve(&b), 5);
}

static void test_drr_weights(void **state)
{
	(void)state;
	struct bench b;
	bench_init(&b, SB_SCHED_DRR, 100);
	b.quantum[0] = 300; /* drr_weight 3 : 1 of 100 bytes */
	push(&b, 0, 100, 30);
	push(&b, 1, 100, 10);
	for (int round = 0; round < 10; round++) {
		for (int k = 0; k < 3; k++)
			assert_int_equal(serve(&b), 0);
		assert_int_equal(serve(&b), 1);
	}
	assert_int_equal(serve(&b), -1);
	assert_memory_equal(b.deficit, (int32_t[SB_NPRIO]){ 0 }, sizeof(b.deficit));
	assert_int_equal(b.t.credited, 0);
}

static void test_drr_deficit_carried(void **state)
{
	(void)state;
	struct bench b;
	bench_init(&b, SB_SCHED_DRR, 500);
	push(&b, 0, 800, 8);
	push(&b, 1, 500, 8);
	/* round 1: queue 0 gets 500 < 800, keeps it; queue 1 sends */
	assert_int_equal(serve(&b), 1);
	assert_int_equal(b.deficit[0], 500);
	assert_int_equal(b.deficit[1], 0);
	/* round 2: 1000 covers 800, 200 left, which the next 800 exceeds */
	assert_int_equal(serve(&b), 0);
	assert_int_equal(b.deficit[0], 200);
	assert_int_equal(serve(&b), 1);
	/* round 3: 700 < 800 again */
	assert_int_equal(serve(&b), 1);
	assert_int_equal(b.deficit[0], 700);
	/* round 4: 1200 */
	assert_int_equal(serve(&b), 0);
	assert_int_equal(b.deficit[0], 400);
	assert_int_equal(b.t.next, 0);
	assert_int_equal(b.t.granted, 1); /* still queue 0's turn, its quantum given */
}

static void test_drr_reset_on_empty(void **state)
{
	(void)state;
	struct bench b;
	bench_init(&b, SB_SCHED_DRR, 1500);
	push(&b, 0, 100, 1);
	push(&b, 4, 100, 2);
	assert_int_equal(serve(&b), 0); /* emptied with 1400 left: lost, turn passes */
	assert_int_equal(b.deficit[0], 0);
	assert_int_equal(b.t.next, 1);
	assert_int_equal(b.t.granted, 0);
	assert_int_equal(serve(&b), 4);
	assert_int_equal(b.deficit[4], 1400); /* not emptied: the rest carried */

	/* queue 2 holds credit but is empty (a head drop took its packet): the turn passing over
	 * it takes the credit; paused queue 3 keeps its own */
	bench_init(&b, SB_SCHED_DRR, 1500);
	push(&b, 3, 2000, 1);
	push(&b, 5, 1000, 3);
	b.deficit[2] = 700;
	b.deficit[3] = 900;
	b.t.credited = 0x0c;
	b.t.next = 1;
	b.paused = 0x08;
	assert_int_equal(serve(&b), 5);
	assert_int_equal(b.deficit[2], 0);
	assert_int_equal(b.deficit[3], 900);
	assert_int_equal(b.t.credited & 0x0c, 0x08);
	/* resumed: 5's 500 left does not cover its next 1000; queue 3's kept 900 and a new
	 * quantum cover its 2000 (a quantum alone would not), and emptied it loses the rest */
	b.paused = 0;
	assert_int_equal(serve(&b), 3);
	assert_int_equal(b.deficit[3], 0);
	assert_int_equal(b.t.next, 4);
}

/* Random states: one packet of `size` in queue q on an otherwise empty port. */
static void test_alone_is_next(void **state)
{
	(void)state;
	struct sb_rng rng;
	sb_rng_init(&rng, 5, 0);
	for (int i = 0; i < 20000; i++) {
		struct bench b;
		bench_init(&b, (uint8_t)sb_rng_below(&rng, 3), 0);
		for (unsigned q = 0; q < SB_NPRIO; q++) {
			b.quantum[q] = 64 + (uint32_t)sb_rng_below(&rng, 3000);
			if (sb_rng_below(&rng, 2)) {
				b.deficit[q] = (int32_t)sb_rng_below(&rng, 3000);
				b.t.credited |= (uint8_t)(1u << q);
			}
		}
		b.t.next = (uint8_t)sb_rng_below(&rng, SB_NPRIO);
		b.t.granted = (uint8_t)sb_rng_below(&rng, 2);
		unsigned q = (unsigned)sb_rng_below(&rng, SB_NPRIO);
		uint32_t size = 64 + (uint32_t)sb_rng_below(&rng, 9000);
		struct bench fast = b;
		sb_sched_alone(fast.kind, &fast.t, fast.deficit, fast.quantum, q, size);
		push(&b, q, size, 1);
		assert_int_equal(serve(&b), (int)q);
		assert_memory_equal(fast.deficit, b.deficit, sizeof(b.deficit));
		if (b.kind != SB_SCHED_SP) {
			assert_int_equal(fast.t.next, b.t.next);
			assert_int_equal(fast.t.granted, b.t.granted);
		}
		if (b.kind == SB_SCHED_DRR)
			assert_int_equal(fast.t.credited, b.t.credited);
	}
}

/* One decision and whether it drew from the stream. */
static bool decide(const struct sb_ecn_cfg *e, uint64_t q, struct sb_rng *rng, bool *drew)
{
	struct sb_rng before = *rng;
	bool mark = sb_sched_ecn_decide(e, q, rng);
	*drew = memcmp(&before, rng, sizeof(before)) != 0;
	return mark;
}

static void test_ecn_points(void **state)
{
	(void)state;
	struct sb_rng rng;
	sb_rng_init(&rng, 3, 0);
	bool drew;
	struct sb_ecn_cfg step = { .kmin = 30000, .kmax = 30000, .pmax_q32 = UINT32_MAX, .mode = SB_ECN_STEP };
	assert_false(decide(&step, 30000, &rng, &drew));
	assert_false(drew);
	assert_true(decide(&step, 30001, &rng, &drew));
	assert_false(drew);

	struct sb_ecn_cfg red = { .kmin = 10000, .kmax = 20000, .pmax_q32 = (uint32_t)(0.5 * 4294967295.0),
				  .mode = SB_ECN_RED };
	assert_false(decide(&red, 10000, &rng, &drew));
	assert_false(drew);
	assert_true(decide(&red, 20001, &rng, &drew));
	assert_false(drew);
	/* at kmax exactly: probability pmax = 0.5, one draw per decision */
	int marks = 0, n = 20000;
	for (int i = 0; i < n; i++) {
		marks += decide(&red, 20000, &rng, &drew);
		assert_true(drew);
	}
	assert_in_range(marks, n / 2 - 500, n / 2 + 500);
	/* a quarter of the band: pmax / 4 */
	marks = 0;
	for (int i = 0; i < n; i++)
		marks += decide(&red, 12500, &rng, &drew);
	assert_in_range(marks, n / 8 - 300, n / 8 + 300);
}

static void test_tables(void **state)
{
	(void)state;
	assert_int_equal(sb_sched_quantum(2.5, 1000), 2500);
	assert_int_equal(sb_sched_quantum(1e-6, 1500), 1); /* a turn always makes progress */
	assert_true(sb_sched_ecn_scale(400000000000, 100) == 4.0);
	assert_true(sb_sched_ecn_scale(25000000000, 0) == 1.0);
	struct sb_ecn_cfg e;
	memset(&e, 0, sizeof(e));
	sb_sched_ecn_set(&e, SB_ECN_RED, 400000, 1600000, 0.2, sb_sched_ecn_scale(400000000000, 100));
	assert_int_equal(e.mode, SB_ECN_RED);
	assert_int_equal(e.kmin, 1600000);
	assert_int_equal(e.kmax, 6400000);
	assert_int_equal(e.pmax_q32, (uint32_t)(0.2 * 4294967295.0));
	sb_sched_ecn_set(&e, SB_ECN_RED, 5000, 3000, 7, 1); /* kmax below kmin: a step at kmin */
	assert_int_equal(e.kmin, 5000);
	assert_int_equal(e.kmax, 5000);
	assert_int_equal(e.mode, SB_ECN_STEP);
	assert_int_equal(e.pmax_q32, UINT32_MAX);
	sb_sched_ecn_set(&e, SB_ECN_STEP, 1e12, 1e12, -1, 1e8); /* beyond 2^64: never reached */
	assert_true(e.kmin == UINT64_MAX && e.kmax == UINT64_MAX);
	assert_int_equal(e.pmax_q32, 0);
}

static void test_admit_and_dequeue(void **state)
{
	(void)state;
	struct sb_rng rng, was;
	sb_rng_init(&rng, 4, 0);
	struct sb_port_profile pf = { .quantum = { 1500 } };
	for (unsigned q = 0; q < SB_NPRIO; q++)
		pf.ecn[q] = (struct sb_ecn_cfg){ .kmin = 1000, .kmax = 1000, .mode = SB_ECN_STEP };
	pf.ecn[6] = (struct sb_ecn_cfg){ .kmin = 0, .kmax = 1u << 30, .pmax_q32 = UINT32_MAX, .mode = SB_ECN_RED };

	/* at enqueue: the queue it joins, the packet included */
	assert_int_equal(sb_sched_on_admit(SB_ADMIT, &pf, 1, true, 900, 100, &rng), SB_ARRIVAL_QUEUE);
	assert_int_equal(sb_sched_on_admit(SB_ADMIT, &pf, 1, true, 900, 101, &rng), SB_ARRIVAL_MARK);
	assert_int_equal(sb_sched_on_admit(SB_ADMIT, &pf, 1, false, 900, 101, &rng), SB_ARRIVAL_QUEUE);
	assert_false(sb_sched_on_dequeue(&pf, 1, true, 5000, &rng)); /* marking is at enqueue */
	/* a refusal is a drop, whatever the queue, and draws nothing; nor does a not-ECT packet */
	was = rng;
	for (int why = 1; why < SB_DROP_NCAUSES; why++)
		assert_int_equal(sb_sched_on_admit((enum sb_drop_cause)why, &pf, 6, true, 5000, 100, &rng), SB_ARRIVAL_DROP);
	assert_int_equal(sb_sched_on_admit(SB_ADMIT, &pf, 6, false, 5000, 100, &rng), SB_ARRIVAL_QUEUE);
	assert_memory_equal(&was, &rng, sizeof(rng));
	sb_sched_on_admit(SB_ADMIT, &pf, 6, true, 5000, 100, &rng);
	assert_memory_not_equal(&was, &rng, sizeof(rng)); /* RED's band: one draw */

	/* at dequeue: the bytes left behind, the departing packet not counted */
	pf.ecn_at_dequeue = true;
	assert_int_equal(sb_sched_on_admit(SB_ADMIT, &pf, 1, true, 5000, 100, &rng), SB_ARRIVAL_QUEUE);
	assert_false(sb_sched_on_dequeue(&pf, 1, true, 1000, &rng));
	assert_true(sb_sched_on_dequeue(&pf, 1, true, 1001, &rng));
	assert_false(sb_sched_on_dequeue(&pf, 1, false, 1001, &rng));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eligible),
		cmocka_unit_test(test_sp_order),
		cmocka_unit_test(test_rr_turns),
		cmocka_unit_test(test_drr_weights),
		cmocka_unit_test(test_drr_deficit_carried),
		cmocka_unit_test(test_drr_reset_on_empty),
		cmocka_unit_test(test_alone_is_next),
		cmocka_unit_test(test_ecn_points),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_admit_and_dequeue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
