/*
 * test_pushout.c — Pushout / LQD (Occamy §2.2; the details it leaves open in
 * docs/schemes/pushout.md §1).
 *
 * The MMU is embedded directly (as in docs/mmu.md §7) with FIFOs of packet sizes, so every
 * expulsion can be checked at the moment it happens:
 *  - never a drop or an expulsion while the arrival fits (Q + L ≤ B);
 *  - every victim is the longest queue of the MMU at that instant (ties → highest index);
 *  - `fits` stops as soon as the arrival fits, `packet` frees at least its size;
 *  - `own_queue = arrival` drops the arrival when its own queue would be the longest;
 *  - `sp_protect`: a packet never pushes out a higher priority, and the scheme refuses
 *    *before* expelling anything (the MMU contract).
 * A simulation then checks the steady state under overload: the buffer is full and the
 * congested queues are equal to within a packet (the longest-queue property), with no drop of
 * an arrival at all.
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
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "transport/cbr.h"
#include "testlib.h"

#define NPORTS 4
#define CAP 4096

struct fake {
	struct sb_mmu *m;
	uint32_t size[NPORTS * SB_MMU_NPRIO][CAP];
	uint16_t in[NPORTS * SB_MMU_NPRIO][CAP];
	uint32_t head[NPORTS * SB_MMU_NPRIO], count[NPORTS * SB_MMU_NPRIO];
	bool check_longest;       /* assert the victim is the longest */
	uint64_t expels, last_expel_used;
};

static void fifo_push(struct fake *f, size_t qi, uint16_t in_port, uint32_t bytes)
{
	assert_true(f->count[qi] < CAP);
	uint32_t slot = (f->head[qi] + f->count[qi]++) % CAP;
	f->size[qi][slot] = bytes;
	f->in[qi][slot] = in_port;
}

static struct sb_mmu_pkt fifo_pop(struct fake *f, size_t qi)
{
	uint32_t slot = f->head[qi];
	f->head[qi] = (slot + 1) % CAP;
	f->count[qi]--;
	struct sb_mmu_pkt p = { .in_port = f->in[qi][slot], .out_port = (uint16_t)(qi / SB_MMU_NPRIO),
				.prio = (uint8_t)(qi % SB_MMU_NPRIO), .bytes = f->size[qi][slot] };
	return p;
}

static bool fake_expel(void *ctx, struct sb_mmu *m, uint16_t port, uint8_t prio)
{
	struct fake *f = ctx;
	size_t v = sb_mmu_qi(port, prio);
	if (!f->count[v])
		return false;
	if (f->check_longest)
		for (size_t qi = 0; qi < NPORTS * SB_MMU_NPRIO; qi++) {
			/* nothing longer, and nothing as long with a higher index */
			assert_true(m->q_egr[qi] <= m->q_egr[v]);
			if (qi > v)
				assert_true(m->q_egr[qi] < m->q_egr[v]);
		}
	f->last_expel_used = m->used;
	f->expels++;
	struct sb_mmu_pkt p = fifo_pop(f, v);
	sb_mmu_release(m, &p, SB_RELEASE_EXPELLED);
	return true;
}

static struct fake *fake_new(uint64_t buffer, const char *param, const char *value)
{
	struct fake *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	const uint64_t rates[NPORTS] = { 10000000000ULL, 10000000000ULL, 10000000000ULL, 10000000000ULL };
	struct sb_mmu_config cfg = { .nports = NPORTS, .buffer_bytes = buffer, .port_rate_bps = rates };
	struct sb_mmu_env env = { .ctx = f, .expel_head = fake_expel };
	f->m = sb_mmu_new(sb_bm_find("pushout"), &cfg, &env);
	f->m->check_invariants = true;
	struct sb_error err;
	if (param && sb_mmu_set_param(f->m, param, value, &err))
		fail_msg("%s", err.msg);
	if (sb_mmu_start(f->m, &err))
		fail_msg("%s", err.msg);
	return f;
}

static void fake_free(struct fake *f)
{
	struct sb_error err;
	if (sb_mmu_check(f->m, &err))
		fail_msg("%s", err.msg);
	sb_mmu_free(f->m);
	free(f);
}

/* Offer one packet; returns the MMU's answer and keeps the FIFO in step. */
static enum sb_drop_cause offer(struct fake *f, uint16_t out, uint8_t prio, uint32_t bytes)
{
	struct sb_mmu_pkt p = { .in_port = (uint16_t)((out + 1) % NPORTS), .out_port = out, .prio = prio, .bytes = bytes };
	enum sb_drop_cause why = sb_mmu_admit(f->m, &p);
	if (why == SB_ADMIT)
		fifo_push(f, sb_mmu_qi(out, prio), p.in_port, bytes);
	return why;
}

static void transmit(struct fake *f, size_t qi)
{
	struct sb_mmu_pkt p = fifo_pop(f, qi);
	sb_mmu_release(f->m, &p, SB_RELEASE_TX);
}

static void random_run(const char *until)
{
	struct fake *f = fake_new(20000, "expel_until", until);
	f->check_longest = true;
	struct sb_rng rng;
	sb_rng_init(&rng, 42, 0);
	uint64_t admitted_by_pushing = 0, drops = 0;
	for (int step = 0; step < 200000; step++) {
		if (sb_rng_u64(&rng) % 4 == 0) { /* a departure from a random non-empty queue */
			size_t qi = sb_rng_u64(&rng) % (NPORTS * SB_MMU_NPRIO);
			if (f->count[qi])
				transmit(f, qi);
			continue;
		}
		uint16_t out = (uint16_t)(sb_rng_u64(&rng) % NPORTS);
		uint8_t prio = (uint8_t)(1 + 2 * (sb_rng_u64(&rng) % 2));
		uint32_t bytes = (uint32_t)(64 + sb_rng_u64(&rng) % 1437);
		uint64_t used = f->m->used, expels = f->expels;
		enum sb_drop_cause why = offer(f, out, prio, bytes);
		if (used + bytes <= f->m->buffer) {
			/* room: admitted, nothing pushed out */
			assert_int_equal(why, SB_ADMIT);
			assert_int_equal(f->expels, expels);
			continue;
		}
		if (why != SB_ADMIT) {
			drops++;
			continue;
		}
		assert_true(f->expels > expels);
		admitted_by_pushing++;
		if (strcmp(until, "fits") == 0) /* the last victim was needed */
			assert_true(f->last_expel_used + bytes > f->m->buffer);
		else /* at least the packet's size was freed, or the buffer emptied */
			assert_true(used + bytes - f->m->used >= bytes || f->m->used == bytes);
	}
	printf("pushout %s: %llu arrivals pushed %llu packets out, %llu drops\n", until,
	       (unsigned long long)admitted_by_pushing, (unsigned long long)f->expels, (unsigned long long)drops);
	assert_true(admitted_by_pushing > 10000);
	assert_int_equal(drops, 0); /* nothing is protected: every arrival gets in */
	fake_free(f);
}

static void test_random_fits(void **state)
{
	(void)state;
	random_run("fits");
}

static void test_random_packet(void **state)
{
	(void)state;
	random_run("packet");
}

/* Fill queue (port, prio) with n packets of `bytes`. */
static void fill(struct fake *f, uint16_t port, uint8_t prio, int n, uint32_t bytes)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(offer(f, port, prio, bytes), SB_ADMIT);
}

static void test_expel_until(void **state)
{
	(void)state;
	/* 9,800 of 10,000 used in 400-byte packets; a 1000-byte arrival needs 800 to fit */
	const char *modes[] = { "fits", "packet" };
	const uint64_t want[] = { 2, 3 };
	for (int i = 0; i < 2; i++) {
		struct fake *f = fake_new(10000, "expel_until", modes[i]);
		fill(f, 0, 1, 12, 400);
		fill(f, 1, 1, 12, 400);
		fill(f, 2, 1, 1, 200);
		assert_int_equal(f->m->used, 9800);
		assert_int_equal(offer(f, 3, 1, 1000), SB_ADMIT);
		assert_int_equal(f->expels, want[i]);
		/* victims alternate between the two longest queues, highest index first on ties */
		assert_int_equal(f->m->q_egr[sb_mmu_qi(1, 1)], 4800 - 400 * ((want[i] + 1) / 2));
		fake_free(f);
	}
}

static void test_own_queue(void **state)
{
	(void)state;
	/* port 0 holds 6,000, port 1 holds 4,000: full */
	struct fake *f = fake_new(10000, "own_queue", "arrival");
	fill(f, 0, 1, 6, 1000);
	fill(f, 1, 1, 4, 1000);
	assert_int_equal(offer(f, 0, 1, 1000), SB_DROP_BUFFER_FULL); /* own queue would be longest */
	assert_int_equal(f->expels, 0);
	assert_int_equal(offer(f, 1, 1, 1000), SB_ADMIT); /* pushes out port 0's head */
	assert_int_equal(f->expels, 1);
	assert_int_equal(f->m->q_egr[sb_mmu_qi(0, 1)], 5000);
	fake_free(f);

	f = fake_new(10000, "own_queue", "head"); /* the artifact: its own head goes */
	fill(f, 0, 1, 6, 1000);
	fill(f, 1, 1, 4, 1000);
	assert_int_equal(offer(f, 0, 1, 1000), SB_ADMIT);
	assert_int_equal(f->expels, 1);
	assert_int_equal(f->m->q_egr[sb_mmu_qi(0, 1)], 6000);
	fake_free(f);
}

static void test_sp_protect(void **state)
{
	(void)state;
	struct fake *f = fake_new(10000, "sp_protect", "true");
	fill(f, 0, 3, 6, 1000); /* high priority, longest */
	fill(f, 1, 1, 4, 1000);
	/* low priority: the longest is higher priority, and the low queue alone cannot free
	 * enough before that happens → refused with nothing pushed out */
	assert_int_equal(offer(f, 2, 1, 1000), SB_DROP_BUFFER_FULL);
	assert_int_equal(f->expels, 0);
	/* high priority pushes out the longest (its own class) */
	assert_int_equal(offer(f, 2, 3, 1000), SB_ADMIT);
	assert_int_equal(f->expels, 1);
	assert_int_equal(f->m->q_egr[sb_mmu_qi(0, 3)], 5000);
	fake_free(f);

	/* a low queue much longer than the high one can be pushed down to it */
	f = fake_new(10000, "sp_protect", "true");
	fill(f, 0, 3, 2, 1000);
	fill(f, 1, 1, 8, 1000);
	assert_int_equal(offer(f, 2, 1, 1000), SB_ADMIT);
	assert_int_equal(f->expels, 1);
	assert_int_equal(f->m->q_egr[sb_mmu_qi(1, 1)], 7000);
	fake_free(f);
}

/* Overload in the simulator: three ports fed 2:1, 3:1 and 4:1 by 10 G CBR sources. */
static void test_overload_longest_queue(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_sim sim;
	const uint64_t B = 600000;
	tl_single_switch(&sc, 12, 10, B);
	sc.run.duration_ms = 5;
	tl_set_scheme(&sc, "pushout", NULL, NULL);
	tl_build(&sim, &sc);
	uint32_t src = 3;
	for (uint32_t d = 0; d < 3; d++)
		for (uint32_t k = 0; k < d + 2; k++, src++)
			tl_cbr(&sim, src, d, 10000000000ULL, 1000, (sb_time)k * 37 * SB_NS);
	tl_run_and_check(&sim);
	struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	uint64_t q[3], lo = UINT64_MAX, hi = 0;
	for (uint16_t d = 0; d < 3; d++) {
		q[d] = m->q_egr[sb_mmu_qi(d, 1)];
		lo = q[d] < lo ? q[d] : lo;
		hi = q[d] > hi ? q[d] : hi;
	}
	printf("pushout overload: queues %llu %llu %llu of %llu, %llu expelled, %llu refused\n",
	       (unsigned long long)q[0], (unsigned long long)q[1], (unsigned long long)q[2], (unsigned long long)B,
	       (unsigned long long)m->expelled, (unsigned long long)(m->drops[SB_DROP_BUFFER_FULL] + m->drops[SB_DROP_THRESHOLD]));
	assert_true(m->buffer - m->used < 1000);      /* full */
	assert_true(hi - lo <= 1000);                 /* equal to within a packet */
	assert_true(m->expelled > 1000);
	assert_int_equal(m->drops[SB_DROP_BUFFER_FULL], 0); /* arrivals are never refused */
	assert_int_equal(m->drops[SB_DROP_THRESHOLD], 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_fits),
		cmocka_unit_test(test_random_packet),
		cmocka_unit_test(test_expel_until),
		cmocka_unit_test(test_own_queue),
		cmocka_unit_test(test_sp_protect),
		cmocka_unit_test(test_overload_longest_queue),
	};
	return cmocka_run_group_tests_name("pushout", tests, NULL, NULL);
}
