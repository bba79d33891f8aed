/*
 * bufprobe.h — measuring a buffer-management scheme in the simulator against fluid theory
 * (tests/sim/test_edt.c, tests/sim/test_dt_theory.c). Include after cmocka.h and testlib.h.
 *
 * The paper's switch (EDT §5.1): one switch, 16 hosts at 1 Gb/s, B = 1 MB (10^6 B), 1500-byte
 * packets (the size cn2 = 8 implies). An output port is overloaded at R Gb/s by ceil(R) CBR
 * senders of at most 1 Gb/s each, each on its own host (the paper does not say how; our choice,
 * docs/schemes/edt.md §5). A probe wrapped
 * around the scheme's hooks records each output port's first arrival and first drop.
 */
#ifndef SB_TEST_BUFPROBE_H
#define SB_TEST_BUFPROBE_H

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "transport/cbr.h"
#include "transport/transport.h"

#define B_BYTES 1000000
#define PKT 1500
#define PKT_TIME_MS 0.012 /* 1500 B at 1 Gb/s */
#define MAXP 64 /* ports a probed switch may have */

/* ---------------------------------------------------------------------------------------
 * A probe around the scheme under test: the simulator looks the scheme up by name, so the
 * test swaps the MMU's ops for a copy whose hooks record what happens, then call through.
 * --------------------------------------------------------------------------------------- */
struct probe {
	const struct sb_bm_ops *inner;
	struct sb_bm_ops ops;
	sb_time first_arrival[MAXP], first_drop[MAXP];
	uint64_t used_at_first_drop[MAXP], peak_q[MAXP];
	uint64_t drops[MAXP], arrivals[MAXP];
	uint64_t trace;  /* rolling hash of every decision: compares two schemes exactly */
};
static struct probe P;

static inline enum sb_drop_cause probe_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	enum sb_drop_cause why = P.inner->admit(m, pkt);
	uint16_t d = pkt->out_port;
	if (P.arrivals[d]++ == 0)
		P.first_arrival[d] = sb_mmu_now(m);
	P.trace = (P.trace ^ (sb_mmu_now(m) * 31 + d * 7 + (uint64_t)why)) * 0x100000001b3ULL;
	return why;
}

static inline void probe_on_drop(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_drop_cause why)
{
	uint16_t d = pkt->out_port;
	if (P.drops[d]++ == 0) {
		P.first_drop[d] = sb_mmu_now(m);
		P.used_at_first_drop[d] = m->used;
	}
	if (P.inner->on_drop)
		P.inner->on_drop(m, pkt, why);
}

static inline void probe_on_enqueue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	uint64_t q = m->q_egr[sb_mmu_qi(pkt->out_port, pkt->prio)];
	if (q > P.peak_q[pkt->out_port])
		P.peak_q[pkt->out_port] = q;
	if (P.inner->on_enqueue)
		P.inner->on_enqueue(m, pkt);
}

static inline void probe_install(struct sb_mmu *m)
{
	if (m->nports > MAXP)
		fail_msg("bufprobe: %u ports, at most %d", m->nports, MAXP);
	memset(&P, 0, sizeof(P));
	P.inner = m->ops;
	P.ops = *m->ops;
	P.ops.admit = probe_admit;
	P.ops.on_drop = probe_on_drop;
	P.ops.on_enqueue = probe_on_enqueue;
	m->ops = &P.ops;
}

/* Time from a port's first arrival to its first drop, in ms (infinite if none). */
static inline double onset_ms(uint16_t port)
{
	if (!P.drops[port])
		return INFINITY;
	return (double)(P.first_drop[port] - P.first_arrival[port]) * 1e-9;
}

static inline double util_at_drop(uint16_t port) { return (double)P.used_at_first_drop[port] / B_BYTES; }

/* ---------------------------------------------------------------------------------------
 * Scenarios: one switch, `hosts` hosts at 1 Gb/s; output ports are hosts 0..; every stream
 * has its own sender host (after the output hosts), so each sender is at most 1 Gb/s.
 * --------------------------------------------------------------------------------------- */
struct stream {
	uint16_t dst;
	double gbps;      /* ≤ 1 */
	double start_ms;
	double dur_ms;    /* 0 = until the end */
};

struct run {
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_mmu *m;
};

/* Set up (not run) a switch with the given streams; `extra` are scheme overrides "k=v". */
static inline void run_setup(struct run *r, const char *scheme, int ndst, const struct stream *st, int nst,
		      double end_ms, const char *const *extra)
{
	tl_single_switch(&r->sc, 16, 1, B_BYTES);
	if (ndst + nst > 16)
		r->sc.topo.hosts = ndst + nst;
	r->sc.run.duration_ms = end_ms;
	tl_set_scheme(&r->sc, scheme, NULL, NULL);
	for (; extra && *extra; extra++) {
		char k[64];
		const char *eq = strchr(*extra, '=');
		snprintf(k, sizeof(k), "%.*s", (int)(eq - *extra), *extra);
		tl_set_scheme(&r->sc, scheme, k, eq + 1);
	}
	tl_build(&r->sim, &r->sc);
	r->m = r->sim.net.switches[0]->mmus[0];
	probe_install(r->m);
	uint32_t payload = PKT - (uint32_t)r->sc.tcp.header_bytes;
	for (int i = 0; i < nst; i++) {
		uint64_t bps = (uint64_t)(st[i].gbps * 1e9 + 0.5);
		uint64_t size = 0;
		if (st[i].dur_ms > 0) /* whole packets, sent every PKT·8/rate from the start */
			size = (uint64_t)ceil(st[i].dur_ms * 1e-3 * (double)bps / (PKT * 8.0) - 1e-9) * payload;
		struct sb_flow *f = sb_flow_create(&r->sim.flows, (uint32_t)(ndst + i), st[i].dst, size,
						   sb_time_from_ms(st[i].start_ms), sb_transport_find("cbr"));
		sb_cbr_configure(f, bps, PKT);
	}
}

static inline void run_free(struct run *r)
{
	sb_sim_free(&r->sim);
	sb_scenario_free(&r->sc);
}

/* Add `n_full` 1 Gb/s streams plus one of `rest` Gb/s to port `dst` (R = n_full + rest Gb/s). */
static inline int add_rate(struct stream *st, int k, uint16_t dst, double gbps, double start, double dur)
{
	for (; gbps > 1e-9; gbps -= 1)
		st[k++] = (struct stream){ dst, gbps > 1 ? 1 : gbps, start, dur };
	return k;
}

/* The theory's set-up (EDT §3): ports M..M+N−1 overloaded at 2 Gb/s from t = 0 (steady
 * state long before `t0`), ports 0..M−1 burst at `rate[i]` from t0. Returns stream count. */
static inline int theory_streams(struct stream *st, int N, int M, const double *rate, double t0, double dur)
{
	int k = 0;
	for (int j = 0; j < N; j++)
		k = add_rate(st, k, (uint16_t)(M + j), 2, 0, 0);
	for (int i = 0; i < M; i++)
		k = add_rate(st, k, (uint16_t)i, rate[i], t0, dur);
	return k;
}

static inline void expect_dt_drop(const char *what, uint16_t port, double t_ms, double free_bytes)
{
	double t = onset_ms(port), tol = 0.03 * t_ms + PKT_TIME_MS;
	double f = (double)(B_BYTES - P.used_at_first_drop[port]);
	printf("  %-28s port %u: first drop %.4f ms (theory %.4f), free %.0f B (theory %.0f)\n", what, port, t,
	       t_ms, f, free_bytes);
	if (fabs(t - t_ms) > tol)
		fail_msg("%s port %u: first drop at %.4f ms, theory %.4f ms", what, port, t, t_ms);
	if (fabs(f - free_bytes) > 0.01 * B_BYTES)
		fail_msg("%s port %u: %.0f B free at the first drop, theory %.0f B", what, port, f, free_bytes);
}

#endif
