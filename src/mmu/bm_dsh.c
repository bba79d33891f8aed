/*
 * bm_dsh.c — DSH, Dynamic and Shared Headroom (Shan et al., ICDCS'23), and its baseline SIH,
 * Static and Isolated Headroom: PFC buffer management of the lossless pool of a switch.
 * Pages: docs/schemes/dsh.md, docs/schemes/sih.md. Paper: §II-C (SIH), §IV (DSH); the choices
 * where it is silent: docs/schemes/dsh.md §3.
 *
 * Both account lossless traffic per *ingress* queue (ingress port i, priority j) in three
 * segments, and pause the upstream with PFC:
 *
 *   private   φ per queue, a guaranteed minimum;
 *   shared    B_s, shared by all queues under Dynamic Thresholds: T(t) = α·(B_s − shared_used);
 *   headroom  reserved for the bytes still in flight after a PAUSE.
 *
 *   SIH   headroom η_i per lossless queue: h = N_q·Σ_i η_i (Eq. 3). A queue's shared part ω_s
 *         may grow to T; beyond it packets go to the queue's headroom and the queue is paused.
 *   DSH   insurance η_i per *port*: B_i = Σ_i η_i (Eq. 4), so B_s is 4.25× larger on Tomahawk.
 *         Headroom of a congested queue is carved out of the shared segment: the queue is
 *         paused at X_qoff = T − η_i (Eq. 5) and its in-flight bytes land in shared. The sum
 *         over a port is capped at X_poff = N_q·T (Eq. 6); past it, or when shared is full,
 *         the whole port is paused (a port-level frame) and arrivals go to the insurance,
 *         which by Eq. (1) holds everything one upstream link can still deliver.
 *
 * η_i is Eq. (1) of port i's link (rate, delay, the scenario's largest frame), or a fixed
 * number of bytes. The reserves are sized for `ports` ports (U16: Tomahawk reserves all 32),
 * counted in ports of `port_gbps` when it is set (a 400G port of a 32 × 100G chip takes 4).
 *
 * The MMU keeps nothing per packet, so placement leaves a trace only in counters: q_total and
 * the headroom/insurance part of each queue; ω_s = max(0, q_total − headroom − φ) follows.
 * Departures drain headroom first, then shared, then private (U10), which makes a departure's
 * accounting a pure function of the counters.
 *
 * Choices the paper leaves open (ids and reasons in docs/schemes/dsh.md §3):
 *   U3  N_q in X_poff = 7, the lossless queues (nq_port_multiplier);
 *   U5  a queue (port) also resumes when ω_s (P_s) is 0, and pauses only with ω_s > 0, so
 *       that T < η (X_qoff < 0) cannot flap a queue that sits in its private buffer;
 *   U6  a port resumes only with its insurance empty (needed for the lossless argument, L4 in
 *       docs/schemes/dsh.md §4);
 *   U7  a full insurance falls back to shared if there is room, counted as ins_overflow
 *       (insurance_fallback); only then is the packet dropped (cause `headroom`);
 *   U9  placement uses pre-arrival counters, state changes post-arrival ones;
 *   U11 pause and resume are evaluated on every arrival and departure of the queue.
 *
 * Lossy packets (not tagged lossless) are outside the paper, which runs everything lossless.
 * They are kept simple: they live in the shared segment (so they count in shared_used and
 * lower T for everyone) under a plain DT on their egress queue, α = lossy_alpha; no private
 * buffer, no headroom, no PFC. Every lossless guarantee still holds, because shared_used
 * never exceeds B_s. A run that declares no lossless priority reserves nothing, so B_s = B
 * and, with lossy_alpha = 1, both schemes decide exactly as `dt` (tested).
 *
 * Per packet: O(1). Invariant checks (mmu->check_invariants) scan all queues.
 */
#include "mmu/bm_dsh.h"

#include <stddef.h>
#include <stdlib.h>
#include "core/util.h"
#include "mmu/headroom.h"

/* Where admit() put a lossless packet (on_enqueue does the accounting). */
enum place {
	PLACE_BODY = 0,   /* private or shared: the split follows from φ */
	PLACE_HEADROOM,   /* SIH: the queue's headroom; DSH: the port's insurance */
	PLACE_OVERFLOW,   /* DSH, U7: insurance full, shared instead */
};

struct dsh_queue {
	uint64_t total;    /* lossless units held by ingress queue (i, j) */
	uint64_t headroom; /* of which in headroom (SIH) or insurance (DSH) */
	bool paused;       /* QOFF: queue-level PAUSE asserted */
};

struct dsh_port {
	uint64_t shared;    /* P_s = Σ_j ω_s */
	uint64_t insurance; /* DSH: Σ_j of the queues' insurance */
	bool paused;        /* DSH: POFF, port-level PAUSE asserted */
};

struct dsh_state {
	/* parameters (each scheme's table lists the ones it reads) */
	double alpha;
	int64_t private_bytes;
	int headroom_mode;
	int64_t headroom_bytes;
	int64_t delta_q_bytes, delta_p_bytes;
	int64_t nq_port;
	int64_t lossless_queues;
	int64_t ports;
	double port_gbps;             /* rate of each of `ports` (0: every port counts as one) */
	bool insurance_fallback;
	double lossy_alpha;

	/* derived in init */
	bool dsh;
	uint64_t phi, delta_q, delta_p;
	uint64_t reserve_ports, reserve_queues; /* what B_p and the headroom are sized for */
	uint64_t private_total, headroom_total, shared_cap;
	uint64_t *eta;                /* [nports] η_i */

	/* runtime */
	uint64_t shared_used;         /* Σ ω_s + lossy_used: must stay <= shared_cap (L2) */
	uint64_t lossy_used;
	struct dsh_queue *q;          /* [nports × 8], by ingress (port, prio) */
	struct dsh_port *port;        /* [nports] */
	uint64_t *lossy_q;            /* [nports × 8] lossy units per egress queue */
	uint8_t pending;              /* enum place chosen by admit for on_enqueue */
	struct sb_dsh_stats stats;
};

#define COMMON_PARAMS_HEAD                                                                          \
	{ "alpha", SB_P_DOUBLE, offsetof(struct dsh_state, alpha), "0.0625", 1e-9, 1e6, "", NULL,     \
	  "DT α of the shared segment, T = α·(B_s − shared_used) (Eq. 2): 1/16, the paper's value "  \
	  "(§V-A, citing RDMA at scale; the ns-3 harness's dt_alpha = 4 is a shift by 4)" },         \
	{ "private_bytes", SB_P_INT, offsetof(struct dsh_state, private_bytes), "3072", 0, 1e12, "bytes", \
	  NULL, "φ, private buffer of every lossless ingress queue: 3 KiB, the paper's Tomahawk "      \
	  "setting (§V-A: 672 KiB for 32 ports × 7 queues)" },                                        \
	{ "headroom", SB_P_ENUM, offsetof(struct dsh_state, headroom_mode), "dsh", 0, 0, "",          \
	  sb_headroom_mode_names,                                                                       \
	  "η of each ingress port: dsh = Eq. (1), 2·(rate·delay/8 + largest frame) + 3840 of the "    \
	  "port's link (56,840 B at 100 Gb/s, 2 µs, 1500 B: the paper's); reverie = the Reverie "     \
	  "artifact's formula; bytes = headroom_bytes for every port" },                               \
	{ "headroom_bytes", SB_P_INT, offsetof(struct dsh_state, headroom_bytes), "56840", 0, 1e12,   \
	  "bytes", NULL, "headroom = bytes: η of every port (default: Eq. (1) at 100 Gb/s, 2 µs, "     \
	  "1500 B, the paper's value)" }

#define COMMON_PARAMS_TAIL                                                                          \
	{ "lossless_queues", SB_P_INT, offsetof(struct dsh_state, lossless_queues), "0", 0, 8, "queues", \
	  NULL, "lossless queues per port the reserves are sized for (private B_p = ports·queues·φ; "  \
	  "SIH headroom h = queues·Σ η): 0 = the run's lossless priorities; 7 is the paper's "        \
	  "Tomahawk, which reserves for every queue but 0 (ACKs and PFC frames) whether used or not; " \
	  "a run with more lossless priorities than this is refused, a run with none reserves "        \
	  "nothing (the whole buffer is shared)" },                                                    \
	{ "ports", SB_P_INT, offsetof(struct dsh_state, ports), "0", 0, 65535, "ports", NULL,         \
	  "ports the reserves are sized for (docs/schemes/dsh.md §3 U16); 0 = the switch's ports. "    \
	  "Tomahawk reserves 32 whatever is cabled (the DSH harness qizhang2612/ns3-datacenter calls " \
	  "SetPortCount(32)); without port_gbps, ports beyond the switch's get the largest η of its "  \
	  "ports" },                                                                                    \
	{ "port_gbps", SB_P_DOUBLE, offsetof(struct dsh_state, port_gbps), "0", 0, 1e6, "Gb/s", NULL, \
	  "rate of each of the `ports`: a port of rate R takes R / port_gbps of them, and each one "   \
	  "left over is reserved (private φ, η) as a port of port_gbps with the switch's longest "     \
	  "link delay. 100 with ports = 32 is a 32 × 100G Tomahawk whose 400G uplinks take 4 ports "   \
	  "each (DSH Fig. 12); 0 = every port counts as one" },                                         \
	{ "lossy_alpha", SB_P_DOUBLE, offsetof(struct dsh_state, lossy_alpha), "1", 0.0, 1e6, "",       \
	  NULL, "lossy packets (outside the paper, which runs all-lossless) share the shared "         \
	  "segment under a DT on their egress queue with this α; 1 = the dt scheme's default, so a "   \
	  "run without lossless traffic decides exactly as dt" }

static const struct sb_param dsh_params[] = {
	COMMON_PARAMS_HEAD,
	{ "delta_q_bytes", SB_P_INT, offsetof(struct dsh_state, delta_q_bytes), "0", 0, 1e12, "bytes", NULL,
	  "δ_q, queue-level resume hysteresis: X_qon = X_qoff − δ_q; 0 as in the paper's runs (§V-A)" },
	{ "delta_p_bytes", SB_P_INT, offsetof(struct dsh_state, delta_p_bytes), "0", 0, 1e12, "bytes", NULL,
	  "δ_p, port-level resume hysteresis: X_pon = X_poff − δ_p; 0 as in the paper's runs (§V-A)" },
	{ "nq_port_multiplier", SB_P_INT, offsetof(struct dsh_state, nq_port), "7", 1, 64, "", NULL,
	  "N_q in the port-level threshold X_poff = N_q·T (Eq. 6): 7, the lossless queues that each get "
	  "a T-sized allocation (our choice, docs/schemes/dsh.md §3 U3; 8 = every physical queue)" },
	{ "insurance_fallback", SB_P_BOOL, offsetof(struct dsh_state, insurance_fallback), "true", 0, 0, "",
	  NULL, "a packet that finds its port's insurance full goes to shared if there is room (counted "
	  "as ins_overflow) instead of being dropped (our choice, docs/schemes/dsh.md §3 U7); cannot "
	  "happen with Eq. (1) headroom" },
	COMMON_PARAMS_TAIL,
	SB_PARAM_END
};

static const struct sb_param sih_params[] = {
	COMMON_PARAMS_HEAD,
	{ "delta_bytes", SB_P_INT, offsetof(struct dsh_state, delta_q_bytes), "0", 0, 1e12, "bytes", NULL,
	  "δ, resume hysteresis: X_on = T − δ; 0 as in the paper's runs (§V-A)" },
	COMMON_PARAMS_TAIL,
	SB_PARAM_END
};

/* --------------------------------------------------------------------------------------- */

static inline struct dsh_state *state_of(const struct sb_mmu *m)
{
	return (m->ops == &sb_bm_dsh || m->ops == &sb_bm_sih) ? sb_mmu_state(m) : NULL;
}

static inline uint64_t units_up(const struct sb_mmu *m, uint64_t bytes)
{
	return m->cell_bytes ? (bytes + m->cell_bytes - 1) / m->cell_bytes : bytes;
}

/* ω_s of a queue: what it holds beyond its headroom and its private φ. */
static inline uint64_t omega(const struct dsh_state *s, const struct dsh_queue *x)
{
	uint64_t body = x->total - x->headroom;
	return body > s->phi ? body - s->phi : 0;
}

/* T(t) = α·(B_s − shared_used), Eq. (2). */
static inline uint64_t threshold(const struct dsh_state *s)
{
	return s->shared_used < s->shared_cap ? sb_mmu_scale(s->alpha, s->shared_cap - s->shared_used) : 0;
}

/* X_qoff of port i: DSH T − η_i (Eq. 5), SIH T. Signed: it is negative when T < η_i. */
static inline int64_t xqoff(const struct dsh_state *s, uint16_t i)
{
	return (int64_t)threshold(s) - (s->dsh ? (int64_t)s->eta[i] : 0);
}

static inline uint64_t xpoff(const struct dsh_state *s)
{
	return (uint64_t)s->nq_port * threshold(s);
}

/* --------------------------------------------------------------------------------------- */

/*
 * The ports the reserves are sized for (U16): η_i of each of the switch's ports, and as many
 * more as `ports` says. A chip reserves for its ports whether or not they are cabled. With
 * port_gbps, `ports` counts ports of that rate, so a 400G port of a 32 × 100G chip takes 4 of
 * them (the 4 lanes it bonds) and the rest are 100G ports with their own η; without, every
 * port counts as one and a missing one gets the largest η of the switch.
 */
static int size_ports(struct sb_mmu *m, struct dsh_state *s, uint64_t *eta_sum, struct sb_error *err)
{
	const char *name = m->ops->name;
	s->eta = sb_xcalloc(m->nports, sizeof(*s->eta));
	uint64_t sum = 0, eta_max = 0;
	double used = 0;
	sb_time delay_max = 0;
	for (uint16_t i = 0; i < m->nports; i++) {
		s->eta[i] = sb_headroom_units(m, i, s->headroom_mode, (uint64_t)s->headroom_bytes);
		sum += s->eta[i];
		eta_max = SB_MAX(eta_max, s->eta[i]);
		delay_max = SB_MAX(delay_max, m->port_delay_ps[i]);
		used += s->port_gbps > 0 ? (double)m->port_rate_bps[i] / (s->port_gbps * 1e9) : 1;
	}
	/* a port count is whole: 1e-9 absorbs the rounding of rates that divide exactly */
	uint64_t have = (uint64_t)(used + 1 - 1e-9);
	uint64_t want = s->ports ? (uint64_t)s->ports : have;
	if (want < have)
		return sb_fail(err, "%s: ports = %lld reserves for fewer ports than the switch's %llu%s",
			       name, (long long)s->ports, (unsigned long long)have,
			       s->port_gbps > 0 ? " (counted in ports of port_gbps)" : "");
	uint64_t extra = want - have, extra_eta = eta_max;
	if (s->port_gbps > 0 && extra) {
		uint64_t rate = (uint64_t)(s->port_gbps * 1e9 + 0.5);
		extra_eta = sb_headroom_units_of_link(m, s->headroom_mode, (uint64_t)s->headroom_bytes, rate, delay_max);
	}
	s->reserve_ports = m->nports + extra;
	*eta_sum = sum + extra * extra_eta;
	return 0;
}

static int init_common(struct sb_mmu *m, struct sb_error *err, bool dsh)
{
	struct dsh_state *s = sb_mmu_state(m);
	const char *name = m->ops->name;
	s->dsh = dsh;
	/* An ingress queue's packets leave through every egress port: its accounting, and the
	 * PAUSE/RESUME decided from it, need the whole switch in one MMU. */
	if (m->port_lo != 0 || m->port_hi != m->nports)
		return sb_fail(err, "%s: accounts every ingress port across all egress ports, so it needs "
				    "one MMU per switch (switch.mmu_ports = 0); this MMU serves ports %u..%u of %u",
			       name, m->port_lo, m->port_hi - 1, m->nports);
	/* Sized, by default, for the lossless priorities the run has: a switch reserving for 7
	 * queues when one carries lossless traffic leaves a small buffer no shared segment (SIH's
	 * 7·Σ η exceeds the default scenario's switches), so an ordinary lossless scenario would
	 * be refused. The paper's 7 (every queue but 0, used or not) is lossless_queues = 7. */
	unsigned lossless_prios = (unsigned)__builtin_popcount(m->lossless_prio_mask);
	if (!s->lossless_queues)
		s->lossless_queues = lossless_prios ? lossless_prios : 1;
	if (lossless_prios > (unsigned)s->lossless_queues)
		return sb_fail(err, "%s: the run has %u lossless priorities but the reserves are sized for "
				    "lossless_queues = %lld per port",
			       name, lossless_prios, (long long)s->lossless_queues);
	s->phi = units_up(m, (uint64_t)s->private_bytes);
	s->delta_q = units_up(m, (uint64_t)s->delta_q_bytes);
	s->delta_p = units_up(m, (uint64_t)s->delta_p_bytes);

	uint64_t eta_sum = 0;
	if (size_ports(m, s, &eta_sum, err))
		return -1;
	/* A run that declares no lossless priority has no lossless queue to protect: nothing is
	 * reserved and the whole buffer is the shared segment (lossy DT). This keeps the scheme
	 * usable on lossy scenarios (`sharebuf compare` runs every scheme) instead of refusing a
	 * shallow switch whose 7 × η per port would not fit. */
	uint64_t queues = m->lossless_prio_mask ? (uint64_t)s->lossless_queues : 0;
	if (!queues)
		eta_sum = 0;
	s->reserve_queues = queues;
	s->headroom_total = dsh ? eta_sum : queues * eta_sum;
	s->private_total = s->reserve_ports * queues * s->phi;
	if (s->private_total + s->headroom_total >= m->buffer)
		return sb_fail(err, "%s: private %llu + %s %llu %s leave no shared segment in a buffer of %llu "
				    "(reserved for %llu ports × %llu lossless queues)",
			       name, (unsigned long long)s->private_total, dsh ? "insurance" : "headroom",
			       (unsigned long long)s->headroom_total, m->cell_bytes ? "cells" : "bytes",
			       (unsigned long long)m->buffer, (unsigned long long)s->reserve_ports,
			       (unsigned long long)queues);
	s->shared_cap = m->buffer - s->private_total - s->headroom_total;

	size_t nq = (size_t)m->nports * SB_MMU_NPRIO;
	s->q = sb_xcalloc(nq, sizeof(*s->q));
	s->port = sb_xcalloc(m->nports, sizeof(*s->port));
	s->lossy_q = sb_xcalloc(nq, sizeof(*s->lossy_q));
	return 0;
}

static int dsh_init(struct sb_mmu *m, struct sb_error *err) { return init_common(m, err, true); }
static int sih_init(struct sb_mmu *m, struct sb_error *err) { return init_common(m, err, false); }

static void dsh_fini(struct sb_mmu *m)
{
	struct dsh_state *s = sb_mmu_state(m);
	free(s->eta);
	free(s->q);
	free(s->port);
	free(s->lossy_q);
}

/* --------------------------------------------------------------------------------------- */

static enum sb_drop_cause lossy_admit(struct dsh_state *s, const struct sb_mmu_pkt *pkt)
{
	uint64_t len = pkt->units;
	if (s->shared_used + len > s->shared_cap) {
		s->stats.lossy_refused++;
		return SB_DROP_POOL_FULL;
	}
	uint64_t limit = sb_mmu_scale(s->lossy_alpha, s->shared_cap - s->shared_used);
	if (s->lossy_q[sb_mmu_qi(pkt->out_port, pkt->prio)] + len > limit) {
		s->stats.lossy_refused++;
		return SB_DROP_THRESHOLD;
	}
	return SB_ADMIT;
}

/* Placement on pre-arrival counters (DSH §IV-B; docs/schemes/dsh.md §3 U9). */
static enum sb_drop_cause dsh_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct dsh_state *s = sb_mmu_state(m);
	if (!sb_mmu_pkt_lossless(pkt))
		return lossy_admit(s, pkt);
	uint16_t i = pkt->in_port;
	const struct dsh_queue *x = &s->q[sb_mmu_qi(i, pkt->prio)];
	const struct dsh_port *p = &s->port[i];
	uint64_t len = pkt->units;
	uint64_t body = x->total - x->headroom;
	uint64_t private_used = body < s->phi ? body : s->phi;
	bool shared_room = s->shared_used + len <= s->shared_cap; /* L2 */
	/* May the queue grow in shared? SIH: while ω_s < T (case 2). DSH: while its port is
	 * neither paused nor past N_q·T; a paused queue's in-flight bytes land here too — that is
	 * its share of the shared headroom. */
	bool shared_allowed = s->dsh ? !p->paused && p->shared < xpoff(s) : omega(s, x) < threshold(s);
	bool headroom_fits = (s->dsh ? p->insurance : x->headroom) + len <= s->eta[i];

	if (private_used + len <= s->phi || (shared_allowed && shared_room))
		s->pending = PLACE_BODY;
	else if (headroom_fits)
		s->pending = PLACE_HEADROOM;
	else if (s->dsh && s->insurance_fallback && shared_room)
		s->pending = PLACE_OVERFLOW;
	else
		return SB_DROP_HEADROOM;
	return SB_ADMIT;
}

static void track_peaks(struct dsh_state *s, uint16_t i, uint64_t headroom)
{
	if (s->shared_used > s->stats.peak_shared)
		s->stats.peak_shared = s->shared_used;
	if (headroom > s->stats.peak_headroom) {
		s->stats.peak_headroom = headroom;
		s->stats.peak_headroom_port = i;
	}
}

/* PAUSE and RESUME of queue (i, j) and, for DSH, of port i, from post-event counters
 * (DSH §IV-B, Fig. 8; docs/schemes/dsh.md §3 U5, U6, U11). `into_headroom`: the packet just
 * placed went to DSH's insurance (or found it full), which pauses the port at once (L3). */
static void flow_control(struct sb_mmu *m, struct dsh_state *s, uint16_t i, uint8_t j, bool into_headroom)
{
	struct dsh_queue *x = &s->q[sb_mmu_qi(i, j)];
	int64_t w = (int64_t)omega(s, x), xq = xqoff(s, i);
	/* DSH pauses when ω_s "becomes higher than" X_qoff; SIH when the queue "reaches" T (the
	 * paper's case 3) or holds headroom. A queue with nothing in shared (ω_s = 0) does not
	 * pause on the threshold, even when X_qoff < 0 (U5): it would resume at once. */
	bool over = s->dsh ? w > 0 && w > xq : x->headroom > 0 || (w > 0 && w >= xq);
	if (!x->paused) {
		if (over) {
			x->paused = true;
			sb_mmu_send_pfc(m, i, (uint8_t)(1u << j), true);
		}
	} else if ((s->dsh || x->headroom == 0) && (w == 0 || w < xq - (int64_t)s->delta_q)) {
		x->paused = false;
		sb_mmu_send_pfc(m, i, (uint8_t)(1u << j), false);
	}
	if (!s->dsh)
		return;
	struct dsh_port *p = &s->port[i];
	uint64_t xp = xpoff(s);
	if (!p->paused) {
		if (p->shared > xp || into_headroom) {
			p->paused = true;
			sb_mmu_send_port_pfc(m, i, true);
		}
	} else if (p->insurance == 0 && (p->shared == 0 || p->shared + s->delta_p < xp)) {
		p->paused = false;
		sb_mmu_send_port_pfc(m, i, false);
	}
}

static void invariant_abort(const struct sb_mmu *m)
{
	struct sb_error err;
	if (sb_dsh_check(m, &err)) {
		fprintf(stderr, "sharebuf: MMU %u (%s) invariant violated: %s\n", m->id, m->ops->name, err.msg);
		abort();
	}
}

static void dsh_on_enqueue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct dsh_state *s = sb_mmu_state(m);
	uint64_t len = pkt->units;
	if (!sb_mmu_pkt_lossless(pkt)) {
		s->lossy_q[sb_mmu_qi(pkt->out_port, pkt->prio)] += len;
		s->lossy_used += len;
		s->shared_used += len;
		track_peaks(s, 0, 0);
	} else {
		uint16_t i = pkt->in_port;
		struct dsh_queue *x = &s->q[sb_mmu_qi(i, pkt->prio)];
		struct dsh_port *p = &s->port[i];
		uint64_t w_old = omega(s, x);
		x->total += len;
		bool into_headroom = s->pending == PLACE_HEADROOM;
		if (into_headroom) {
			x->headroom += len;
			p->insurance += s->dsh ? len : 0;
			s->stats.headroom_packets++;
		} else if (s->pending == PLACE_OVERFLOW) {
			s->stats.ins_overflow++;
		}
		/* private and shared split by φ: only the growth of ω_s is shared */
		uint64_t grown = omega(s, x) - w_old;
		s->shared_used += grown;
		p->shared += grown;
		track_peaks(s, i, s->dsh ? p->insurance : x->headroom);
		/* a packet refused by a full insurance (U7) also means the port must stop */
		flow_control(m, s, i, pkt->prio, s->pending != PLACE_BODY);
	}
	if (m->check_invariants)
		invariant_abort(m);
}

static void dsh_on_dequeue(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_release_reason why)
{
	struct dsh_state *s = sb_mmu_state(m);
	uint64_t len = pkt->units;
	(void)why;
	if (!sb_mmu_pkt_lossless(pkt)) {
		uint64_t *lq = &s->lossy_q[sb_mmu_qi(pkt->out_port, pkt->prio)];
		if (*lq < len) {
			fprintf(stderr, "sharebuf: MMU %u (%s): release of a lossy packet of %llu units that was "
					"never admitted as lossy to egress (%u,%u)\n",
				m->id, m->ops->name, (unsigned long long)len, pkt->out_port, pkt->prio);
			abort();
		}
		*lq -= len;
		s->lossy_used -= len;
		s->shared_used -= len;
	} else {
		uint16_t i = pkt->in_port;
		struct dsh_queue *x = &s->q[sb_mmu_qi(i, pkt->prio)];
		struct dsh_port *p = &s->port[i];
		if (x->total < len) {
			fprintf(stderr, "sharebuf: MMU %u (%s): release of a lossless packet of %llu units that was "
					"never admitted as lossless to ingress (%u,%u)\n",
				m->id, m->ops->name, (unsigned long long)len, i, pkt->prio);
			abort();
		}
		uint64_t w_old = omega(s, x);
		/* U10: headroom (insurance) drains first, then shared, then private */
		uint64_t from_headroom = SB_MIN(x->headroom, len);
		x->headroom -= from_headroom;
		p->insurance -= s->dsh ? from_headroom : 0;
		x->total -= len;
		uint64_t shrunk = w_old - omega(s, x);
		s->shared_used -= shrunk;
		p->shared -= shrunk;
		flow_control(m, s, i, pkt->prio, false);
	}
	if (m->check_invariants)
		invariant_abort(m);
}

/* --------------------------------------------------------------------------------------- */

const struct sb_bm_ops sb_bm_dsh = {
	.name = "dsh",
	.summary = "DSH (lossless): queue PAUSE at T - eta with headroom shared in the DT segment, "
		   "port PAUSE at Nq*T into per-port insurance",
	.lossless = true,
	.params = dsh_params,
	.state_size = sizeof(struct dsh_state),
	.init = dsh_init,
	.admit = dsh_admit,
	.on_enqueue = dsh_on_enqueue,
	.on_dequeue = dsh_on_dequeue,
	.fini = dsh_fini,
};

const struct sb_bm_ops sb_bm_sih = {
	.name = "sih",
	.summary = "SIH (lossless): PFC PAUSE at the DT threshold T, static headroom eta per lossless "
		   "ingress queue",
	.lossless = true,
	.params = sih_params,
	.state_size = sizeof(struct dsh_state),
	.init = sih_init,
	.admit = dsh_admit,
	.on_enqueue = dsh_on_enqueue,
	.on_dequeue = dsh_on_dequeue,
	.fini = dsh_fini,
};

/* --------------------------------------------------------------------------------------- */
/* read-only views (bm_dsh.h) */

void sb_dsh_get_pools(const struct sb_mmu *m, struct sb_dsh_pools *out)
{
	const struct dsh_state *s = state_of(m);
	*out = (struct sb_dsh_pools){ 0 };
	if (!s || !s->q)
		return;
	*out = (struct sb_dsh_pools){
		.dsh = s->dsh,
		.buffer = m->buffer,
		.ports = s->reserve_ports,
		.queues = s->reserve_queues,
		.private_per_queue = s->phi,
		.private_total = s->private_total,
		.headroom_total = s->headroom_total,
		.shared = s->shared_cap,
		.nq_port = s->dsh ? (uint64_t)s->nq_port : 0,
	};
}

const struct sb_dsh_stats *sb_dsh_stats(const struct sb_mmu *m)
{
	static const struct sb_dsh_stats none;
	const struct dsh_state *s = state_of(m);
	return s ? &s->stats : &none;
}

uint64_t sb_dsh_eta(const struct sb_mmu *m, uint16_t port)
{
	const struct dsh_state *s = state_of(m);
	return s && s->eta && port < m->nports ? s->eta[port] : 0;
}

uint64_t sb_dsh_shared_used(const struct sb_mmu *m)
{
	const struct dsh_state *s = state_of(m);
	return s ? s->shared_used : 0;
}

uint64_t sb_dsh_threshold(const struct sb_mmu *m)
{
	const struct dsh_state *s = state_of(m);
	return s && s->q ? threshold(s) : 0;
}

int64_t sb_dsh_xqoff(const struct sb_mmu *m, uint16_t port)
{
	const struct dsh_state *s = state_of(m);
	return s && s->q && port < m->nports ? xqoff(s, port) : 0;
}

uint64_t sb_dsh_xpoff(const struct sb_mmu *m)
{
	const struct dsh_state *s = state_of(m);
	return s && s->q && s->dsh ? xpoff(s) : 0;
}

void sb_dsh_queue(const struct sb_mmu *m, uint16_t port, uint8_t prio, struct sb_dsh_queue_view *out)
{
	const struct dsh_state *s = state_of(m);
	*out = (struct sb_dsh_queue_view){ 0 };
	if (!s || !s->q || port >= m->nports || prio >= SB_MMU_NPRIO)
		return;
	const struct dsh_queue *x = &s->q[sb_mmu_qi(port, prio)];
	*out = (struct sb_dsh_queue_view){ x->total, x->headroom, omega(s, x), x->paused };
}

void sb_dsh_port(const struct sb_mmu *m, uint16_t port, struct sb_dsh_port_view *out)
{
	const struct dsh_state *s = state_of(m);
	*out = (struct sb_dsh_port_view){ 0 };
	if (!s || !s->port || port >= m->nports)
		return;
	const struct dsh_port *p = &s->port[port];
	*out = (struct sb_dsh_port_view){ p->shared, p->insurance, p->paused };
}

int sb_dsh_burst_absorption(const struct sb_mmu *m, uint16_t port, double n_congested, double m_bursty, double r,
			    double mu_bps, struct sb_dsh_burst *out)
{
	const struct dsh_state *s = state_of(m);
	*out = (struct sb_dsh_burst){ 0 };
	if (!s || !s->q || port >= m->nports || !(m_bursty > 0) || !(n_congested >= 0) || !(r > 1) || !(mu_bps > 0))
		return -1;
	double unit = m->cell_bytes ? (double)m->cell_bytes : 1.0;
	double a = s->alpha, n = n_congested, mb = m_bursty, mu = mu_bps / 8.0; /* bytes/s */
	double num = a * (double)s->shared_cap * unit - (s->dsh ? (double)s->eta[port] * unit : 0.0);
	double t;
	out->r_star = 1 + (1 + a * n) / (a * mb);
	if (r <= out->r_star) {
		out->regime = 1;
		t = num / (mu * (1 + a * (n + mb)) * (r - 1));
	} else {
		out->regime = 2; /* the denominator exceeds μ·R > 0 here */
		t = num / (mu * (1 + a * n) * ((1 + a * mb) * (r - 1) - a * n));
	}
	out->t_max = t > 0 ? t : 0;
	out->s_max = mb * r * mu * out->t_max;
	return 0;
}

int sb_dsh_check(const struct sb_mmu *m, struct sb_error *err)
{
	const struct dsh_state *s = state_of(m);
	if (!s || !s->q)
		return sb_fail(err, "not a started dsh/sih MMU");
	if (s->shared_used > s->shared_cap)
		return sb_fail(err, "shared_used %llu exceeds B_s %llu", (unsigned long long)s->shared_used,
			       (unsigned long long)s->shared_cap);
	uint64_t sum_omega = 0, sum_total = 0, sum_lossy = 0;
	for (uint16_t i = 0; i < m->nports; i++) {
		uint64_t port_omega = 0, port_headroom = 0;
		for (uint8_t j = 0; j < SB_MMU_NPRIO; j++) {
			const struct dsh_queue *x = &s->q[sb_mmu_qi(i, j)];
			if (x->headroom > x->total)
				return sb_fail(err, "queue (%u,%u) holds %llu units of headroom but %llu in all", i, j,
					       (unsigned long long)x->headroom, (unsigned long long)x->total);
			if (!s->dsh && x->headroom > s->eta[i])
				return sb_fail(err, "queue (%u,%u) headroom %llu exceeds eta %llu", i, j,
					       (unsigned long long)x->headroom, (unsigned long long)s->eta[i]);
			port_omega += omega(s, x);
			port_headroom += x->headroom;
			sum_total += x->total;
			sum_lossy += s->lossy_q[sb_mmu_qi(i, j)];
		}
		const struct dsh_port *p = &s->port[i];
		if (p->shared != port_omega)
			return sb_fail(err, "port %u: P_s %llu but its queues hold %llu in shared", i,
				       (unsigned long long)p->shared, (unsigned long long)port_omega);
		if (s->dsh && p->insurance != port_headroom)
			return sb_fail(err, "port %u: insurance %llu but its queues hold %llu", i,
				       (unsigned long long)p->insurance, (unsigned long long)port_headroom);
		if (s->dsh && p->insurance > s->eta[i])
			return sb_fail(err, "port %u: insurance %llu exceeds eta %llu", i,
				       (unsigned long long)p->insurance, (unsigned long long)s->eta[i]);
		sum_omega += port_omega;
	}
	if (sum_lossy != s->lossy_used)
		return sb_fail(err, "lossy queues sum to %llu but lossy_used is %llu", (unsigned long long)sum_lossy,
			       (unsigned long long)s->lossy_used);
	if (sum_omega + s->lossy_used != s->shared_used)
		return sb_fail(err, "shared_used %llu != Σ ω_s %llu + lossy %llu", (unsigned long long)s->shared_used,
			       (unsigned long long)sum_omega, (unsigned long long)s->lossy_used);
	if (sum_total + s->lossy_used != m->used)
		return sb_fail(err, "lossless %llu + lossy %llu units != occupancy %llu", (unsigned long long)sum_total,
			       (unsigned long long)s->lossy_used, (unsigned long long)m->used);
	return 0;
}
