/*
 * test_dsh.c — DSH and SIH (src/mmu/bm_dsh.c) driven directly: the PFC state machines frame by
 * frame, SIH against a reference written from the paper's four cases, random traffic with the
 * scheme's invariants checked, bad configurations, lossy packets, and the burst-absorption
 * theorems. The simulator scenarios (pools of the paper's switch, Fig. 11, port-level safety,
 * incast) are in tests/sim/test_dsh_scenarios.c.
 *
 * Vectors are worked from the DSH paper (ICDCS'23): the state machines of §III and the choices
 * where it is silent (docs/schemes/dsh.md), the burst-absorption theorems of §IV, and SIH's
 * equivalence with DSH when no port pauses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/bm_dsh.h"
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "testlib.h"

#define GBPS 1000000000ULL
#define MIB16 16777216ULL
#define ETA_100G 56840 /* Eq. (1) at 100 Gb/s, 2 us, 1500 B */

/* ------------------------------ the MMU driven directly ------------------------------ */

struct frame {
	uint16_t port;
	uint8_t mask;
	bool pause, port_level;
};
static struct frame frames[1 << 16];
static size_t nframes;

static void record_pfc(void *ctx, struct sb_mmu *m, uint16_t port, uint8_t mask, bool pause, bool port_level)
{
	(void)ctx;
	(void)m;
	assert_true(nframes < sizeof(frames) / sizeof(frames[0]));
	frames[nframes++] = (struct frame){ port, mask, pause, port_level };
}

/* `nports` ports at 100 Gb/s with 2 us links (η = 56,840 B), 1500-byte frames, priorities
 * 1..7 lossless; `sets` = NULL-terminated name/value pairs. Invariants checked on every packet. */
static struct sb_mmu *direct_cfg(const char *scheme, struct sb_mmu_config cfg, const char *const *sets,
				 struct sb_error *err)
{
	static uint64_t rates[64];
	static sb_time delays[64];
	for (int i = 0; i < 64; i++) {
		rates[i] = 100 * GBPS;
		delays[i] = 2 * SB_US;
	}
	cfg.port_rate_bps = rates;
	cfg.port_delay_ps = delays;
	cfg.max_frame_bytes = 1500;
	struct sb_mmu_env env = { .send_pfc = record_pfc };
	struct sb_mmu *m = sb_mmu_new(sb_bm_find(scheme), &cfg, &env);
	for (; sets && *sets; sets += 2)
		if (sb_mmu_set_param(m, sets[0], sets[1], err))
			fail_msg("%s", err->msg);
	if (sb_mmu_start(m, err)) {
		sb_mmu_free(m);
		return NULL;
	}
	m->check_invariants = true;
	nframes = 0;
	return m;
}

static struct sb_mmu *direct(const char *scheme, uint16_t nports, uint64_t buffer, const char *const *sets)
{
	struct sb_error err = { "" };
	struct sb_mmu_config cfg = { .nports = nports, .buffer_bytes = buffer, .lossless_prio_mask = 0xFE };
	struct sb_mmu *m = direct_cfg(scheme, cfg, sets, &err);
	if (!m)
		fail_msg("start: %s", err.msg);
	return m;
}

static enum sb_drop_cause arrive(struct sb_mmu *m, uint16_t in, uint16_t out, uint8_t prio, uint32_t bytes,
				 bool lossless)
{
	struct sb_mmu_pkt p = { .in_port = in, .out_port = out, .prio = prio, .bytes = bytes,
				.tags = lossless ? SB_MT_LOSSLESS : 0 };
	return sb_mmu_admit(m, &p);
}

static void depart(struct sb_mmu *m, uint16_t in, uint16_t out, uint8_t prio, uint32_t bytes, bool lossless)
{
	struct sb_mmu_pkt p = { .in_port = in, .out_port = out, .prio = prio, .bytes = bytes,
				.tags = lossless ? SB_MT_LOSSLESS : 0 };
	sb_mmu_release(m, &p, SB_RELEASE_TX);
}

static void expect_frame(size_t k, uint16_t port, uint8_t mask, bool pause, bool port_level)
{
	assert_true(k < nframes);
	assert_int_equal(frames[k].port, port);
	assert_int_equal(frames[k].mask, mask);
	assert_int_equal(frames[k].pause, pause);
	assert_int_equal(frames[k].port_level, port_level);
}

/* 4 ports reserved as 4: B_p = 4·7·3072 = 86,016, DSH B_i = 4·56,840 = 227,360. */
#define SMALL_BP 86016
#define SMALL_BI 227360

/* DSH Eq. (5): one queue fills 1500 B at a time; the PAUSE goes out with the first packet that
 * takes ω_s above T − η, computed here from Eq. (2) alone. Its in-flight bytes then keep landing
 * in *shared* (the shared headroom), not in insurance; the RESUME comes with the first departure
 * that brings ω_s below T − η again (δ_q = 0). */
static void test_dsh_queue_pause_resume(void **state)
{
	(void)state;
	const uint64_t buffer = 2000000, bs = buffer - SMALL_BP - SMALL_BI;
	struct sb_mmu *m = direct("dsh", 4, buffer, NULL);
	struct sb_dsh_pools pools;
	sb_dsh_get_pools(m, &pools);
	assert_int_equal(pools.shared, bs);
	assert_int_equal(sb_dsh_xqoff(m, 1), (int64_t)(bs / 16) - ETA_100G);

	int k = 0, k_pause = 0;
	for (k = 1; !k_pause; k++) {
		int64_t w = 1500 * k > 3072 ? 1500 * k - 3072 : 0;
		int64_t xq = (int64_t)((bs - (uint64_t)w) / 16) - ETA_100G;
		if (w > xq)
			k_pause = k;
	}
	for (k = 1; k <= k_pause; k++) {
		assert_int_equal(arrive(m, 1, 0, 1, 1500, true), SB_ADMIT);
		assert_int_equal(nframes, k == k_pause ? 1 : 0);
	}
	printf("  PAUSE with packet %d: omega %lld > X_qoff %lld\n", k_pause, (long long)(1500 * k_pause - 3072),
	       (long long)sb_dsh_xqoff(m, 1));
	expect_frame(0, 1, 1u << 1, true, false);
	/* in flight after the PAUSE: η worth of packets, all in shared */
	int inflight = ETA_100G / 1500;
	for (k = 0; k < inflight; k++)
		assert_int_equal(arrive(m, 1, 0, 1, 1500, true), SB_ADMIT);
	struct sb_dsh_queue_view q;
	struct sb_dsh_port_view p;
	sb_dsh_queue(m, 1, 1, &q);
	sb_dsh_port(m, 1, &p);
	assert_int_equal(q.headroom, 0);
	assert_int_equal(p.insurance, 0);
	assert_false(p.paused);
	assert_int_equal(q.shared, (uint64_t)1500 * (uint64_t)(k_pause + inflight) - 3072);
	assert_int_equal(nframes, 1);
	/* drain: RESUME with the first departure leaving ω_s < T − η */
	int held = k_pause + inflight, d_resume = 0;
	for (int d = 1; d <= held && !d_resume; d++) {
		int64_t w = 1500 * (held - d) > 3072 ? 1500 * (held - d) - 3072 : 0;
		if (w == 0 || w < (int64_t)((bs - (uint64_t)w) / 16) - ETA_100G)
			d_resume = d;
	}
	for (int d = 1; d <= d_resume; d++) {
		depart(m, 1, 0, 1, 1500, true);
		assert_int_equal(nframes, d == d_resume ? 2 : 1);
	}
	expect_frame(1, 1, 1u << 1, false, false);
	sb_mmu_free(m);
}

/* DSH Eq. (6) with N_q = 1 (X_poff = T), so the port level acts before the queue's in-flight
 * bytes can land: U9 — the packet that crosses X_poff still goes to shared, the next ones to
 * insurance; U10 — insurance drains first; U6 — the port resumes only with its insurance empty
 * and P_s below X_pon. */
static void test_dsh_port_pause_insurance(void **state)
{
	(void)state;
	const uint64_t buffer = 2000000, bs = buffer - SMALL_BP - SMALL_BI;
	static const char *const sets[] = { "nq_port_multiplier", "1", NULL };
	struct sb_mmu *m = direct("dsh", 4, buffer, sets);
	/* first packet taking P_s = ω_s above T (Eq. 2, 6) */
	int k_port = 0;
	for (int k = 1; !k_port; k++) {
		uint64_t w = 1500 * k > 3072 ? (uint64_t)(1500 * k - 3072) : 0;
		if (w > (bs - w) / 16)
			k_port = k;
	}
	size_t queue_pauses = 0;
	for (int k = 1; k <= k_port; k++) {
		assert_int_equal(arrive(m, 2, 0, 3, 1500, true), SB_ADMIT);
		if (k < k_port)
			for (size_t f = 0; f < nframes; f++)
				assert_false(frames[f].port_level);
	}
	queue_pauses = nframes - 1;
	assert_int_equal(queue_pauses, 1); /* the queue paused at T − η on the way */
	expect_frame(nframes - 1, 2, 0xFF, true, true);
	struct sb_dsh_port_view p;
	sb_dsh_port(m, 2, &p);
	assert_int_equal(p.insurance, 0); /* U9: the crossing packet went to shared */
	assert_true(p.paused);
	for (int k = 0; k < 4; k++)
		assert_int_equal(arrive(m, 2, 0, 3, 1500, true), SB_ADMIT);
	sb_dsh_port(m, 2, &p);
	assert_int_equal(p.insurance, 6000); /* POFF: everything after it to insurance */
	uint64_t shared_at_pause = p.shared;
	printf("  port PAUSE with packet %d: P_s %llu > X_poff %llu; insurance %llu\n", k_port,
	       (unsigned long long)shared_at_pause, (unsigned long long)sb_dsh_xpoff(m),
	       (unsigned long long)p.insurance);
	/* four departures empty the insurance, P_s unchanged: no port RESUME yet (U6, U10) */
	size_t before = nframes;
	for (int d = 0; d < 4; d++)
		depart(m, 2, 0, 3, 1500, true);
	sb_dsh_port(m, 2, &p);
	assert_int_equal(p.insurance, 0);
	assert_int_equal(p.shared, shared_at_pause);
	assert_int_equal(nframes, before);
	/* the port RESUME comes with the departure that takes P_s below T (δ_p = 0) */
	int held = k_port, d_resume = 0;
	for (int d = 1; d <= held && !d_resume; d++) {
		uint64_t w = 1500 * (held - d) > 3072 ? (uint64_t)(1500 * (held - d) - 3072) : 0;
		if (w == 0 || w < (bs - w) / 16)
			d_resume = d;
	}
	for (int d = 1; d <= d_resume; d++) {
		depart(m, 2, 0, 3, 1500, true);
		if (d < d_resume)
			assert_int_equal(nframes, before);
	}
	expect_frame(nframes - 1, 2, 0xFF, false, true);
	sb_mmu_free(m);
}

/* δ_p, the port-level resume hysteresis X_pon = X_poff − δ_p (docs/schemes/dsh.md §1). As above
 * (N_q = 1, X_poff = T), the port pauses and its insurance drains first; with δ_p = 30,000 B the
 * port RESUME then waits for the departure that takes P_s below T − δ_p, several packets after
 * the one that takes it below T (where δ_p = 0 resumes), and not a packet earlier. */
static void test_dsh_port_resume_hysteresis(void **state)
{
	(void)state;
	const uint64_t buffer = 2000000, bs = buffer - SMALL_BP - SMALL_BI, delta_p = 30000;
	static const char *const sets[] = { "nq_port_multiplier", "1", "delta_p_bytes", "30000", NULL };
	struct sb_mmu *m = direct("dsh", 4, buffer, sets);
	int k_port = 0;
	for (int k = 1; !k_port; k++) {
		uint64_t w = 1500 * k > 3072 ? (uint64_t)(1500 * k - 3072) : 0;
		if (w > (bs - w) / 16)
			k_port = k;
	}
	for (int k = 0; k < k_port + 4; k++) /* the last four land in insurance */
		assert_int_equal(arrive(m, 2, 0, 3, 1500, true), SB_ADMIT);
	struct sb_dsh_port_view p;
	sb_dsh_port(m, 2, &p);
	assert_true(p.paused);
	assert_int_equal(p.insurance, 6000);
	/* first departure after which P_s < X_poff (δ_p = 0), and after which P_s < X_poff − δ_p */
	int d_plain = 0, d_hyst = 0;
	for (int d = 1; d <= k_port && !d_hyst; d++) {
		uint64_t w = 1500 * (k_port - d) > 3072 ? (uint64_t)(1500 * (k_port - d) - 3072) : 0;
		if (!d_plain && (w == 0 || w < (bs - w) / 16))
			d_plain = d;
		if (w == 0 || w + delta_p < (bs - w) / 16)
			d_hyst = d;
	}
	assert_true(d_hyst > d_plain + 10); /* 30,000 B of hysteresis: about 19 packets */
	for (int d = 0; d < 4; d++)
		depart(m, 2, 0, 3, 1500, true); /* insurance first (U10) */
	int resumed_at = 0;
	for (int d = 1; d <= k_port && !resumed_at; d++) {
		size_t before = nframes;
		depart(m, 2, 0, 3, 1500, true);
		for (size_t f = before; f < nframes; f++)
			if (frames[f].port_level && !frames[f].pause)
				resumed_at = d;
	}
	printf("  port RESUME after departure %d: X_poff reached at %d, X_pon = X_poff - %llu at %d\n", resumed_at,
	       d_plain, (unsigned long long)delta_p, d_hyst);
	assert_int_equal(resumed_at, d_hyst);
	sb_mmu_free(m);
}

/* U5: with T < η, X_qoff is negative. A queue inside its private buffer stays ON; its first
 * byte in shared pauses it; back to ω_s = 0 resumes it (X_qon < 0 could never be undershot). */
static void test_dsh_negative_xqoff(void **state)
{
	(void)state;
	const uint64_t bs = 480000; /* T_empty = 30,000 < η */
	struct sb_mmu *m = direct("dsh", 4, SMALL_BP + SMALL_BI + bs, NULL);
	assert_int_equal(sb_dsh_xqoff(m, 0), 30000 - ETA_100G);
	arrive(m, 0, 1, 5, 1500, true);
	arrive(m, 0, 1, 5, 1500, true);
	assert_int_equal(nframes, 0); /* 3000 B: still private */
	arrive(m, 0, 1, 5, 1500, true);
	assert_int_equal(nframes, 1);
	expect_frame(0, 0, 1u << 5, true, false);
	depart(m, 0, 1, 5, 1500, true); /* back to 3000 B, ω_s = 0 */
	assert_int_equal(nframes, 2);
	expect_frame(1, 0, 1u << 5, false, false);
	sb_mmu_free(m);
}

/* --- SIH against a reference written from the paper's four cases (§II-C; docs/schemes/sih.md §1) --- */

struct ref_queue {
	uint64_t priv, shared, hdrm;
	bool off;
};
struct ref_sih {
	struct ref_queue q[4][8];
	uint64_t shared_used, bs, phi, eta, delta;
	struct frame out[4];
	int nout;
};

static uint64_t ref_t(const struct ref_sih *r) { return (r->bs - r->shared_used) / 16; }

static void ref_control(struct ref_sih *r, int i, int j)
{
	struct ref_queue *x = &r->q[i][j];
	uint64_t t = ref_t(r);
	if (!x->off) {
		if (x->hdrm > 0 || (x->shared > 0 && x->shared >= t)) { /* X_off = T */
			x->off = true;
			r->out[r->nout++] = (struct frame){ (uint16_t)i, (uint8_t)(1u << j), true, false };
		}
	} else if (x->hdrm == 0 && (x->shared == 0 || x->shared + r->delta < t)) { /* X_on = T − δ */
		x->off = false;
		r->out[r->nout++] = (struct frame){ (uint16_t)i, (uint8_t)(1u << j), false, false };
	}
}

static bool ref_arrive(struct ref_sih *r, int i, int j, uint64_t s)
{
	struct ref_queue *x = &r->q[i][j];
	if (x->priv + s <= r->phi) {                                    /* case 1: private */
		x->priv += s;
	} else if (x->shared < ref_t(r) && r->shared_used + s <= r->bs) { /* case 2: shared */
		uint64_t to_shared = s - (r->phi - x->priv);
		x->priv = r->phi;
		x->shared += to_shared;
		r->shared_used += to_shared;
	} else if (x->hdrm + s <= r->eta) {                             /* case 3: headroom */
		x->hdrm += s;
	} else {                                                        /* case 4: drop */
		return false;
	}
	ref_control(r, i, j);
	return true;
}

static void ref_depart(struct ref_sih *r, int i, int j, uint64_t s)
{
	struct ref_queue *x = &r->q[i][j];
	uint64_t h = s < x->hdrm ? s : x->hdrm, rest = s - h; /* headroom, then shared, then private */
	uint64_t sh = rest < x->shared ? rest : x->shared;
	x->hdrm -= h;
	x->shared -= sh;
	r->shared_used -= sh;
	x->priv -= rest - sh;
	ref_control(r, i, j);
}

struct held_pkt {
	uint16_t in, out;
	uint8_t prio;
	uint32_t bytes;
	bool lossless;
};

/* 40,000 random arrivals and departures on 4 ports × priorities 1..3, packets of 64..1500 B,
 * a shared segment of 100,000 B and 6,000 B of headroom per queue (so headroom fills and
 * drops happen): SIH decides, frames and counts exactly as the reference, step by step. */
static void test_sih_matches_reference(void **state)
{
	(void)state;
	static const char *const sets[] = { "headroom", "bytes", "headroom_bytes", "6000", "delta_bytes", "1000",
					    NULL };
	const uint64_t h = 4 * 7 * 6000, bs = 100000;
	struct sb_mmu *m = direct("sih", 4, SMALL_BP + h + bs, sets);
	struct sb_dsh_pools pools;
	sb_dsh_get_pools(m, &pools);
	assert_int_equal(pools.headroom_total, h);
	assert_int_equal(pools.shared, bs);
	static struct ref_sih ref;
	memset(&ref, 0, sizeof ref);
	ref.bs = bs;
	ref.phi = 3072;
	ref.eta = 6000;
	ref.delta = 1000;
	static struct held_pkt held[4096];
	size_t nheld = 0, drops = 0, headroom_uses = 0;
	struct sb_rng rng;
	sb_rng_init(&rng, 7, SB_STREAM_TEST);
	for (int step = 0; step < 40000; step++) {
		size_t before = nframes;
		ref.nout = 0;
		int i, j;
		if (nheld && (nheld >= 4096 || sb_rng_below(&rng, 100) < 45)) {
			size_t k = sb_rng_below(&rng, nheld);
			struct held_pkt p = held[k];
			held[k] = held[--nheld];
			i = p.in;
			j = p.prio;
			depart(m, p.in, p.out, p.prio, p.bytes, true);
			ref_depart(&ref, i, j, p.bytes);
		} else {
			struct held_pkt p = { (uint16_t)sb_rng_below(&rng, 4), (uint16_t)sb_rng_below(&rng, 4),
					      (uint8_t)(1 + sb_rng_below(&rng, 3)), (uint32_t)(64 + sb_rng_below(&rng, 1437)),
					      true };
			i = p.in;
			j = p.prio;
			bool ok = arrive(m, p.in, p.out, p.prio, p.bytes, true) == SB_ADMIT;
			if (ok != ref_arrive(&ref, i, j, p.bytes))
				fail_msg("step %d: sih %s a packet the reference %s", step, ok ? "admitted" : "dropped",
					 ok ? "drops" : "admits");
			if (ok)
				held[nheld++] = p;
			else
				drops++;
		}
		assert_int_equal(nframes - before, (size_t)ref.nout);
		for (int f = 0; f < ref.nout; f++)
			expect_frame(before + (size_t)f, ref.out[f].port, ref.out[f].mask, ref.out[f].pause, false);
		assert_int_equal(sb_dsh_shared_used(m), ref.shared_used);
		struct sb_dsh_queue_view v;
		sb_dsh_queue(m, (uint16_t)i, (uint8_t)j, &v);
		assert_int_equal(v.headroom, ref.q[i][j].hdrm);
		assert_int_equal(v.shared, ref.q[i][j].shared);
		assert_int_equal(v.paused, ref.q[i][j].off);
		headroom_uses += v.headroom > 0;
	}
	printf("  40000 steps: %zu drops, %zu frames, %llu packets into headroom, identical to the reference\n",
	       drops, nframes, (unsigned long long)sb_dsh_stats(m)->headroom_packets);
	assert_true(drops > 0 && headroom_uses > 0 && nframes > 100);
	assert_int_equal(m->drops[SB_DROP_HEADROOM], drops);
	sb_mmu_free(m);
}

/* DSH under random lossless and lossy traffic with tight pools: the scheme's invariants hold
 * after every packet (check_invariants aborts otherwise), lossless packets are refused only
 * with cause `headroom`, and once everything has left every PAUSE has had its RESUME. */
static void test_dsh_random_drains_clean(void **state)
{
	(void)state;
	static const char *const sets[] = { "headroom", "bytes", "headroom_bytes", "4000", "insurance_fallback",
					    "false", "nq_port_multiplier", "2", "lossy_alpha", "0.0625", NULL };
	struct sb_mmu *m = direct("dsh", 4, SMALL_BP + 4 * 4000 + 60000, sets);
	static struct held_pkt held[4096];
	size_t nheld = 0;
	struct sb_rng rng;
	sb_rng_init(&rng, 11, SB_STREAM_TEST);
	for (int step = 0; step < 60000; step++) {
		if (nheld && (nheld >= 4096 || sb_rng_below(&rng, 100) < 45)) {
			size_t k = sb_rng_below(&rng, nheld);
			struct held_pkt p = held[k];
			held[k] = held[--nheld];
			depart(m, p.in, p.out, p.prio, p.bytes, p.lossless);
		} else {
			struct held_pkt p = { (uint16_t)sb_rng_below(&rng, 4), (uint16_t)sb_rng_below(&rng, 4),
					      (uint8_t)(1 + sb_rng_below(&rng, 7)), (uint32_t)(64 + sb_rng_below(&rng, 1437)),
					      sb_rng_below(&rng, 10) != 0 };
			if (arrive(m, p.in, p.out, p.prio, p.bytes, p.lossless) == SB_ADMIT)
				held[nheld++] = p;
		}
	}
	while (nheld) {
		struct held_pkt p = held[--nheld];
		depart(m, p.in, p.out, p.prio, p.bytes, p.lossless);
	}
	const struct sb_dsh_stats *st = sb_dsh_stats(m);
	printf("  lossless drops %llu (headroom %llu), lossy refused %llu, queue frames %llu/%llu, port frames "
	       "%llu/%llu, peak insurance %llu\n",
	       (unsigned long long)m->drops_lossless, (unsigned long long)m->drops[SB_DROP_HEADROOM],
	       (unsigned long long)st->lossy_refused, (unsigned long long)m->pfc_pauses_sent,
	       (unsigned long long)m->pfc_resumes_sent, (unsigned long long)m->pfc_port_pauses_sent,
	       (unsigned long long)m->pfc_port_resumes_sent, (unsigned long long)st->peak_headroom);
	assert_true(m->drops_lossless > 0 && m->pfc_port_pauses_sent > 0 && st->lossy_refused > 0);
	assert_int_equal(m->drops_lossless, m->drops[SB_DROP_HEADROOM]);
	assert_true(st->peak_headroom <= 4000);
	assert_int_equal(sb_dsh_shared_used(m), 0);
	assert_int_equal(m->pfc_pauses_sent, m->pfc_resumes_sent);
	assert_int_equal(m->pfc_port_pauses_sent, m->pfc_port_resumes_sent);
	for (uint16_t i = 0; i < 4; i++) {
		struct sb_dsh_port_view p;
		sb_dsh_port(m, i, &p);
		assert_false(p.paused);
	}
	sb_mmu_free(m);
}

/* Impossible configurations are refused at start with a message naming the problem. */
static void expect_start_error(const char *scheme, struct sb_mmu_config cfg, const char *const *sets,
			       const char *want)
{
	struct sb_error err = { "" };
	struct sb_mmu *m = direct_cfg(scheme, cfg, sets, &err);
	if (m) {
		sb_mmu_free(m);
		fail_msg("%s started, expected: %s", scheme, want);
	}
	if (!strstr(err.msg, want))
		fail_msg("got \"%s\", expected it to contain \"%s\"", err.msg, want);
}

static void test_bad_configurations(void **state)
{
	(void)state;
	struct sb_mmu_config cfg = { .nports = 4, .buffer_bytes = 2000000, .lossless_prio_mask = 0xFE };
	struct sb_mmu_config split = cfg;
	split.port_hi = 2;
	expect_start_error("dsh", split, NULL, "needs one MMU per switch (switch.mmu_ports = 0)");
	struct sb_mmu_config small = cfg;
	small.buffer_bytes = SMALL_BP + SMALL_BI;
	expect_start_error("dsh", small, NULL, "private 86016 + insurance 227360 bytes leave no shared segment in a buffer of 313376 (reserved for 4 ports × 7 lossless queues)");
	small.buffer_bytes = 1000000; /* SIH: 4·7·56,840 = 1,591,520 of headroom alone */
	expect_start_error("sih", small, NULL, "private 86016 + headroom 1591520 bytes leave no shared segment");
	static const char *const two[] = { "ports", "2", NULL };
	expect_start_error("sih", cfg, two, "ports = 2 reserves for fewer ports than the switch's 4");
	struct sb_mmu_config eight = cfg;
	eight.lossless_prio_mask = 0xFF;
	static const char *const seven[] = { "lossless_queues", "7", NULL };
	expect_start_error("dsh", eight, seven, "8 lossless priorities but the reserves are sized for lossless_queues = 7");
	/* through the simulator: a switch split into MMUs is refused at build */
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_single_switch(&sc, 4, 100, MIB16);
	sc.sw.mmu_ports = 2;
	tl_set_scheme(&sc, "dsh", NULL, NULL);
	struct sb_error err = { "" };
	assert_int_equal(sb_sim_build(&sim, &sc, &err), -1);
	printf("  %s\n", err.msg);
	assert_non_null(strstr(err.msg, "dsh: accounts every ingress port"));
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* By default the reserves are sized for the lossless priorities the run has (lossless_queues
 * = 0): one lossless priority reserves φ and, for SIH, η once per port (Eq. 3 with N_q = 1),
 * so an ordinary one-class lossless scenario fits a buffer that SIH's 7 queues per port would
 * exhaust (the default scenario's leaves: `sharebuf compare` with a dcqcn workload refused
 * sih). lossless_queues = 7 is the paper's Tomahawk, reserving for every queue but 0. */
static void test_reserves_follow_the_run(void **state)
{
	(void)state;
	struct sb_error err = { "" };
	/* 4 ports, η = 56,840: SIH with 7 queues needs 4·7·3072 + 4·7·56,840 = 1,677,536 B */
	struct sb_mmu_config cfg = { .nports = 4, .buffer_bytes = 1000000, .lossless_prio_mask = 0x08 };
	struct sb_dsh_pools pools;
	for (int dsh = 0; dsh < 2; dsh++) {
		struct sb_mmu *m = direct_cfg(dsh ? "dsh" : "sih", cfg, NULL, &err);
		if (!m)
			fail_msg("%s with one lossless priority: %s", dsh ? "dsh" : "sih", err.msg);
		sb_dsh_get_pools(m, &pools);
		assert_int_equal(pools.queues, 1);
		assert_int_equal(pools.private_total, 4 * 3072);
		assert_int_equal(pools.headroom_total, 4 * ETA_100G); /* SIH: 1·Σ η; DSH: Σ η */
		assert_int_equal(pools.shared, 1000000 - 4 * 3072 - 4 * ETA_100G);
		sb_mmu_free(m);
	}
	/* three lossless priorities: three queues */
	struct sb_mmu_config three = cfg;
	three.lossless_prio_mask = 0x0E;
	struct sb_mmu *m = direct_cfg("sih", three, NULL, &err);
	assert_non_null(m);
	sb_dsh_get_pools(m, &pools);
	assert_int_equal(pools.queues, 3);
	assert_int_equal(pools.headroom_total, 3 * 4 * ETA_100G);
	sb_mmu_free(m);
	/* the paper's 7, set explicitly, does not fit this buffer */
	static const char *const seven[] = { "lossless_queues", "7", NULL };
	expect_start_error("sih", cfg, seven, "(reserved for 4 ports × 7 lossless queues)");
}

/* Lossy packets (outside the paper) live in the shared segment under a plain DT on their
 * egress queue: with lossy_alpha = 1/16 one overloaded queue is refused from the first packet
 * with q + L > α·(B_s − q). A run that declares no lossless priority reserves nothing, so
 * here B_s = B. */
static void test_lossy_dt(void **state)
{
	(void)state;
	struct sb_error err = { "" };
	static const char *const sets[] = { "lossy_alpha", "0.0625", NULL };
	struct sb_mmu_config cfg = { .nports = 4, .buffer_bytes = 1000000, .lossless_prio_mask = 0 };
	struct sb_mmu *m = direct_cfg("sih", cfg, sets, &err);
	assert_non_null(m);
	struct sb_dsh_pools pools;
	sb_dsh_get_pools(m, &pools);
	assert_int_equal(pools.queues, 0);
	assert_int_equal(pools.private_total + pools.headroom_total, 0);
	assert_int_equal(pools.shared, 1000000);
	uint64_t q = 0;
	while (q + 1500 <= (1000000 - q) / 16)
		q += 1500;
	for (uint64_t k = 0; k < q / 1500; k++)
		assert_int_equal(arrive(m, 1, 0, 0, 1500, false), SB_ADMIT);
	assert_int_equal(arrive(m, 1, 0, 0, 1500, false), SB_DROP_THRESHOLD);
	printf("  lossy queue refused at %llu B (alpha/(1+alpha) B = %.0f B)\n", (unsigned long long)q,
	       1000000.0 / 17);
	assert_int_equal(sb_dsh_shared_used(m), q);
	assert_int_equal(nframes, 0);
	for (uint64_t k = 0; k < q / 1500; k++)
		depart(m, 1, 0, 0, 1500, false);
	assert_int_equal(sb_dsh_shared_used(m), 0);
	sb_mmu_free(m);
}

/* ... and with the default lossy_alpha = 1, a lossy-only run is `dt`'s run, packet for packet:
 * an 8:1 DCTCP incast plus background on a shallow 10 Gb/s switch. */
/* ------------------------------ the theorems (§IV-C) ------------------------------ */

/* Theorems 1 (DSH) and 2 (SIH), as sb_dsh_burst_absorption() computes them from a started MMU:
 * four vectors worked from Eqs. (7) and (22) on the paper's switch — 32 ports at 100 Gb/s, 2 µs,
 * 1500-byte frames (η = 56,840 B), 16 MiB, α = 1/16, no private buffer (the theorems' B_p = 0),
 * so B_s = B − 32η (DSH) and B − 7·32η (SIH) — with the corrected case boundary
 * R* = 1 + (1 + αN)/(αM) (U23; the paper's printed (1 − αN)/(αM) + 1 picks the wrong branch for
 * the second vector). The simulated switch is held to the same formula in
 * tests/sim/test_dsh_scenarios.c (test_burst_absorption_measured). */
static void test_theorem_vectors(void **state)
{
	(void)state;
	static const char *const no_private[] = { "private_bytes", "0", NULL };
	struct sb_mmu *dsh = direct("dsh", 32, MIB16, no_private), *sih = direct("sih", 32, MIB16, no_private);
	static const struct {
		double n, m, r, r_star, dsh_us, dsh_bytes, sih_us, sih_bytes;
		int regime;
	} v[] = {
		{ 0, 1, 2, 17, 66.112, 1652811, 19.036, 475889, 1 },
		{ 2, 16, 16, 2.125, 2.090, 6688084, 0.602, 1925680, 2 },
		{ 10, 1, 2, 27, 41.626, 1040659, 11.985, 299634, 1 },
		{ 4, 4, 4, 6, 15.610, 3121977, 4.495, 898901, 1 },
	};
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		struct sb_dsh_burst d, s;
		assert_int_equal(sb_dsh_burst_absorption(dsh, 3, v[k].n, v[k].m, v[k].r, 100e9, &d), 0);
		assert_int_equal(sb_dsh_burst_absorption(sih, 3, v[k].n, v[k].m, v[k].r, 100e9, &s), 0);
		printf("  N=%g M=%g R=%g: R* %.3f, DSH %.3f us %.0f B, SIH %.3f us %.0f B (x%.2f)\n", v[k].n, v[k].m,
		       v[k].r, d.r_star, d.t_max * 1e6, d.s_max, s.t_max * 1e6, s.s_max, d.s_max / s.s_max);
		assert_float_equal(d.r_star, v[k].r_star, 1e-9);
		assert_int_equal(d.regime, v[k].regime);
		assert_int_equal(s.regime, v[k].regime);
		assert_float_equal(d.t_max * 1e6, v[k].dsh_us, 0.0005);
		assert_float_equal(s.t_max * 1e6, v[k].sih_us, 0.0005);
		assert_float_equal(d.s_max, v[k].dsh_bytes, 0.5);
		assert_float_equal(s.s_max, v[k].sih_bytes, 0.5);
	}
	/* outside the model: no burst, or arrivals no faster than departures */
	struct sb_dsh_burst x;
	assert_int_equal(sb_dsh_burst_absorption(dsh, 3, 0, 0, 2, 100e9, &x), -1);
	assert_int_equal(sb_dsh_burst_absorption(dsh, 3, 0, 1, 1, 100e9, &x), -1);
	sb_mmu_free(dsh);
	sb_mmu_free(sih);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dsh_queue_pause_resume),
		cmocka_unit_test(test_dsh_port_pause_insurance),
		cmocka_unit_test(test_dsh_port_resume_hysteresis),
		cmocka_unit_test(test_dsh_negative_xqoff),
		cmocka_unit_test(test_sih_matches_reference),
		cmocka_unit_test(test_dsh_random_drains_clean),
		cmocka_unit_test(test_bad_configurations),
		cmocka_unit_test(test_reserves_follow_the_run),
		cmocka_unit_test(test_lossy_dt),
		cmocka_unit_test(test_theorem_vectors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
