/*
 * bm_dsh.h — read-only views of the DSH and SIH schemes (src/mmu/bm_dsh.c), for tests,
 * reports and embedders that want to see how the lossless pool was carved and what the
 * flow control decided. Both schemes are used like any other, through sb_bm_find("dsh") or
 * sb_bm_find("sih"). Every function takes an MMU that runs dsh or sih and has been started
 * (sb_mmu_start); on any other MMU it returns zeros.
 *
 * All sizes are in the MMU's units (bytes unless switch.cell_bytes is set).
 */
#ifndef SB_BM_DSH_H
#define SB_BM_DSH_H

#include <stdbool.h>
#include <stdint.h>
#include "mmu/mmu.h"

extern const struct sb_bm_ops sb_bm_dsh, sb_bm_sih;

/* How the buffer B was split at start (SIH: DSH §II-C, Eq. 3; DSH: §IV-B, Eq. 4). */
struct sb_dsh_pools {
	bool dsh;                /* true: DSH (insurance per port); false: SIH (headroom per queue) */
	uint64_t buffer;         /* B */
	uint64_t ports;          /* N_p the reserves were sized for (switch.<scheme>.ports) */
	uint64_t queues;         /* lossless queues per port reserved for (private, SIH headroom);
				  * 0 when the run declares no lossless priority: no reserve at all */
	uint64_t private_per_queue;  /* φ */
	uint64_t private_total;  /* B_p = N_p · N_q · φ */
	uint64_t headroom_total; /* DSH: B_i = Σ_i η_i (Eq. 4); SIH: h = N_q · Σ_i η_i (Eq. 3) */
	uint64_t shared;         /* B_s = B − B_p − headroom_total */
	uint64_t nq_port;        /* DSH: N_q in X_poff = N_q · T (Eq. 6) */
};

/* What the scheme counted since start. */
struct sb_dsh_stats {
	uint64_t headroom_packets;   /* lossless packets placed in headroom (SIH) or insurance (DSH) */
	uint64_t ins_overflow;       /* DSH, U7: insurance full, packet taken into shared instead */
	uint64_t lossy_refused;      /* lossy packets refused by the DT of the shared segment */
	uint64_t peak_shared;        /* highest shared_used */
	uint64_t peak_headroom;      /* highest headroom of one queue (SIH) or insurance of one port (DSH) */
	uint16_t peak_headroom_port; /* the ingress port where that peak happened */
};

/* One lossless ingress queue (ingress port, priority). */
struct sb_dsh_queue_view {
	uint64_t total;          /* q^{i,j}: every lossless unit of the queue */
	uint64_t headroom;       /* SIH: its headroom; DSH: its share of the port's insurance */
	uint64_t shared;         /* ω_s^{i,j} = max(0, total − headroom − φ) */
	bool paused;             /* queue-level PAUSE asserted (QOFF) */
};

/* One ingress port (DSH; under SIH only `shared` is meaningful). */
struct sb_dsh_port_view {
	uint64_t shared;         /* P_s = Σ_j ω_s^{i,j} */
	uint64_t insurance;      /* ins_port = Σ_j ins_q */
	bool paused;             /* port-level PAUSE asserted (POFF) */
};

void sb_dsh_get_pools(const struct sb_mmu *m, struct sb_dsh_pools *out);
const struct sb_dsh_stats *sb_dsh_stats(const struct sb_mmu *m);
/* η_i of ingress port `port` (Eq. 1 of its link, or the fixed headroom_bytes). */
uint64_t sb_dsh_eta(const struct sb_mmu *m, uint16_t port);
/* shared_used: Σ ω_s plus the lossy packets held in the shared segment. */
uint64_t sb_dsh_shared_used(const struct sb_mmu *m);
/* T(t) = α · (B_s − shared_used), Eq. 2, as of now. */
uint64_t sb_dsh_threshold(const struct sb_mmu *m);
/* Queue-level pause threshold of port `port` now: DSH T − η_i (Eq. 5); SIH T. May be < 0. */
int64_t sb_dsh_xqoff(const struct sb_mmu *m, uint16_t port);
/* DSH port-level pause threshold now: N_q · T (Eq. 6); SIH: 0 (no port-level control). */
uint64_t sb_dsh_xpoff(const struct sb_mmu *m);
void sb_dsh_queue(const struct sb_mmu *m, uint16_t port, uint8_t prio, struct sb_dsh_queue_view *out);
void sb_dsh_port(const struct sb_mmu *m, uint16_t port, struct sb_dsh_port_view *out);
/* The burst-absorption theorems of the paper (§IV-C, Theorem 1 for DSH, Theorem 2 for SIH, after
 * Choudhury and Hahne): N queues congested since long ago sit at their pause threshold when M
 * empty queues start a burst at R > 1 times their drain rate μ (bits/s), i.e. each grows at
 * (R − 1)·μ. Every queue then pauses its upstream once its shared part reaches X_qoff = T − η
 * (DSH; SIH: T) with T = α·(B_s − shared), so a burst shorter than t_max pauses no one:
 *
 *   R ≤ R*:  t_max = (α·B_s − η) / (μ·(1 + α(N + M))·(R − 1))
 *   R > R*:  t_max = (α·B_s − η) / (μ·(1 + αN)·((1 + αM)(R − 1) − αN))
 *
 * with R* = 1 + (1 + αN)/(αM) (the paper prints (1 − αN)/(αM) + 1; only R* makes the two
 * branches meet, docs/schemes/dsh.md §6), η = 0 for SIH, and the largest burst absorbed
 * S_max = M·R·μ·t_max. α, B_s and η (of ingress port `port`) are this MMU's. The model has no
 * private buffer (φ = 0, switch.<scheme>.private_bytes = 0) and no hysteresis. */
struct sb_dsh_burst {
	double r_star;           /* case boundary R* */
	int regime;              /* 1: R ≤ R* (the N queues follow the threshold down); 2: R > R* */
	double t_max;            /* seconds; 0 when α·B_s ≤ η (DSH pauses a burst at once) */
	double s_max;            /* bytes */
};
/* 0, or -1 if `m` is not a started dsh/sih MMU or the inputs are outside the model (M > 0, N ≥ 0,
 * R > 1, μ > 0). */
int sb_dsh_burst_absorption(const struct sb_mmu *m, uint16_t port, double n_congested, double m_bursty, double r,
			    double mu_bps, struct sb_dsh_burst *out);

/* Check the scheme's own invariants (shared_used ≤ B_s, headroom ≤ η, the sums agree with
 * the per-queue counters and with the core's occupancy): 0, or -1 with a description. The
 * scheme runs it itself after every packet when mmu->check_invariants is set. */
int sb_dsh_check(const struct sb_mmu *m, struct sb_error *err);

#endif
