/*
 * mmu.h — the shared-buffer memory management unit (MMU): the library's contract.
 *
 * One sb_mmu models one on-chip shared buffer serving a set of switch ports. It keeps the
 * accounting every scheme needs and delegates every decision to a buffer-management (BM)
 * scheme: one file src/mmu/bm_<name>.c exporting one `struct sb_bm_ops`, registered by name
 * in src/mmu/registry.c. The core never names a scheme.
 *
 * Units. The MMU counts in *units*: bytes by default, or cells when cell_bytes > 0 (a packet
 * of L bytes then occupies ceil(L / cell_bytes) cells, as buffer memory is allocated in cells
 * on real chips). Every threshold a scheme computes is in the same units.
 *
 * What the core keeps for every scheme (all in units, never negative, checked):
 *   used                    every unit held in this buffer (whatever pool a scheme charges)
 *   q_egr[port][prio]       units queued for egress queue (port, prio)
 *   q_ing[port][prio]       units that arrived on ingress port `port` with priority `prio`
 *   peak_used               high-water mark of `used`
 *   drops[cause]            packets refused, per cause (enum sb_drop_cause)
 * Schemes keep anything else (pools, headroom, filters, port states) in their private state.
 *
 * Life of a packet (the embedder — our simulator, or a software data plane — calls these):
 *   1. sb_mmu_admit(mmu, &pkt)    → ops->admit(): decide on *pre-arrival* counters. On admit the
 *      core adds the packet to used/q_ing/q_egr, then calls ops->on_enqueue() (post-arrival work:
 *      headroom entry, PFC pause, state machines). On a drop the core counts drops[cause] and calls
 *      ops->on_drop(); no counter of the buffer changes.
 *   2. sb_mmu_release(mmu, &pkt, why) when the packet leaves the buffer: at the start of its
 *      transmission (SB_RELEASE_TX), or expelled from the head of its queue by the scheme
 *      (SB_RELEASE_EXPELLED). The core subtracts, then calls ops->on_dequeue() (drain-rate
 *      counters, low-pass filters, PFC resume, EDT counters).
 * The packet descriptor (struct sb_mmu_pkt) is built by the embedder from its own packet; the
 * MMU keeps no pointer to packets.
 *
 * What a scheme can ask of the embedder (struct sb_mmu_env, all optional):
 *   now()              current time (ps), for timers and rates;
 *   arm_timer(at, id)  call ops->on_timer(mmu, id) at time `at` (periodic ABM/IB updates,
 *                      EDT's TM1/TM2, Occamy's expulsion grants);
 *   send_pfc(port, prio_mask, pause, port_level)
 *                      emit a PFC PAUSE (pause=true) or RESUME frame out of ingress port
 *                      `port` for the priorities in the mask. port_level = a port-level frame
 *                      (DSH): the upstream keeps it apart from its per-priority pauses, so a
 *                      port-level RESUME never lifts a queue-level PAUSE. Schemes call
 *                      sb_mmu_send_pfc / sb_mmu_send_port_pfc, which count the frames;
 *   expel_head(port, prio)
 *                      drop the packet at the head of egress queue (port, prio) — never one
 *                      already on the wire — and report it via sb_mmu_release(EXPELLED).
 *                      Returns false if the queue is empty. (Occamy, Pushout.)
 * docs/mmu.md maps every scheme of the papers onto these hooks.
 */
#ifndef SB_MMU_H
#define SB_MMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/param.h"
#include "core/rng.h"
#include "core/time.h"

#define SB_MMU_NPRIO 8

/* Why a packet was not admitted (or left without being sent). */
enum sb_drop_cause {
	SB_ADMIT = 0,          /* not a drop: admitted */
	SB_DROP_BUFFER_FULL,   /* no free space in the physical buffer */
	SB_DROP_THRESHOLD,     /* the scheme's per-queue threshold (DT-like schemes) */
	SB_DROP_POOL_FULL,     /* a pool of the scheme (ingress/egress/shared) is full */
	SB_DROP_HEADROOM,      /* lossless packet found its headroom exhausted */
	SB_DROP_AQM,           /* an AQM stage of the scheme (e.g. AFD) chose to drop */
	SB_DROP_EXPELLED,      /* pushed out of the head of its queue after admission */
	SB_DROP_NCAUSES
};

extern const char *const sb_drop_cause_name[SB_DROP_NCAUSES];

/* Per-packet tags the embedder may set (schemes that prioritise bursts read them). */
enum sb_mmu_pkt_tags {
	SB_MT_FIRST_RTT = 1u << 0, /* packet belongs to its flow's first window ("unscheduled") */
	SB_MT_LOSSLESS = 1u << 1,  /* lossless class (PFC); otherwise lossy */
};

/* What the MMU sees of a packet. */
struct sb_mmu_pkt {
	uint16_t in_port;   /* ingress port index (0..nports-1) */
	uint16_t out_port;  /* egress port index */
	uint8_t prio;       /* 0..7 */
	uint8_t tags;       /* enum sb_mmu_pkt_tags */
	uint32_t bytes;     /* bytes on the wire */
	uint32_t units;     /* filled by the core: bytes or cells */
	uint32_t flow_hash; /* for per-flow state (FAB, AFD) */
};

enum sb_release_reason { SB_RELEASE_TX = 0, SB_RELEASE_EXPELLED = 1 };

struct sb_mmu;

struct sb_mmu_env {
	void *ctx;
	sb_time (*now)(void *ctx);
	void (*arm_timer)(void *ctx, struct sb_mmu *mmu, sb_time at, unsigned timer_id);
	void (*send_pfc)(void *ctx, struct sb_mmu *mmu, uint16_t port, uint8_t prio_mask, bool pause,
			 bool port_level);
	bool (*expel_head)(void *ctx, struct sb_mmu *mmu, uint16_t port, uint8_t prio);
};

/* One buffer-management scheme. Only `name`, `summary` and `admit` are mandatory. */
struct sb_bm_ops {
	const char *name;
	const char *summary;           /* one line for `sharebuf list` */
	/* The scheme protects lossless classes (PFC with headroom). Embedders refuse lossless
	 * traffic on a scheme without it: a lossy scheme would drop it silently. */
	bool lossless;
	const struct sb_param *params; /* scheme parameters, stored in the private state */
	size_t state_size;             /* private state, zeroed, then parameter defaults applied */

	/* Derive internal values from parameters and mmu geometry; -1 + err on bad parameters. */
	int (*init)(struct sb_mmu *mmu, struct sb_error *err);
	/* Decide on pre-arrival counters. Return SB_ADMIT or a drop cause. It may update the
	 * scheme's own state (filters, n_p refreshes, per-flow counters) whatever it decides, and
	 * may expel queued packets through sb_mmu_expel_head (Pushout) before admitting; it never
	 * touches the core counters itself. */
	enum sb_drop_cause (*admit)(struct sb_mmu *mmu, const struct sb_mmu_pkt *pkt);
	/* Every refused packet, whoever refused it (the scheme, or the core's final physical
	 * check after the scheme admitted): EDT's drop and overflow pulses live here. */
	void (*on_drop)(struct sb_mmu *mmu, const struct sb_mmu_pkt *pkt, enum sb_drop_cause why);
	/* After the core counted an admitted packet. */
	void (*on_enqueue)(struct sb_mmu *mmu, const struct sb_mmu_pkt *pkt);
	/* After the core uncounted a departing packet. */
	void (*on_dequeue)(struct sb_mmu *mmu, const struct sb_mmu_pkt *pkt, enum sb_release_reason why);
	/* A timer armed through env->arm_timer fired. */
	void (*on_timer)(struct sb_mmu *mmu, unsigned timer_id);
	/* Free anything init allocated. */
	void (*fini)(struct sb_mmu *mmu);
	/* Bytes one MMU's scheme state will take beyond state_size and the core's per-queue
	 * counters (a flow table init allocates), from the parameters alone: `state` is a private
	 * state with only the parameters set, as before init. An embedder estimating its memory
	 * before building anything (the simulator's run.max_memory_mb) calls it; *key gets the
	 * parameter that sizes it and `what` a plural phrase for messages ("flow tables of 16384
	 * slots"). NULL = nothing beyond state_size. */
	double (*state_bytes)(const void *state, const char **key, char *what, size_t n);
};

/* Geometry and options of one MMU, given by the embedder. */
struct sb_mmu_config {
	uint16_t nports;             /* port indices of the switch, 0..nports-1 */
	uint16_t port_lo, port_hi;   /* the egress ports whose packets this MMU holds: [lo, hi);
				      * 0,0 = all (a switch split into several MMUs gives each a range) */
	uint64_t seed;               /* for schemes that draw random numbers (AFD) */
	uint64_t buffer_bytes;       /* physical buffer of this MMU */
	uint32_t cell_bytes;         /* 0: account bytes; >0: account whole cells */
	const uint64_t *port_rate_bps; /* nports entries (drain-rate normalisation) */
	uint8_t lossless_prio_mask;  /* priorities carrying lossless (PFC) traffic */
	const sb_time *port_delay_ps;/* nports entries: one-way propagation delay of each port's
				      * link (headroom formulas); NULL = 0 */
	uint32_t max_frame_bytes;    /* largest data frame on the wire (headroom formulas); 0 = 1500 */
};

/* Laid out by use, 64-byte aligned (sb_mmu_new): the first line is what every admission and
 * release reads (the scheme, the occupancy, the queue counters), the second what each of
 * them adds up; the rest is configuration and rarer statistics. Each line touched is a likely
 * cache miss once thousands of switches share the cache. */
struct sb_mmu {
	/* line 0 */
	_Alignas(64) const struct sb_bm_ops *ops;
	uint64_t *q_egr;             /* [nports * 8] units per egress queue; q_ing and n_egr follow it
				      * in the same block (sb_mmu_q_ing(), sb_mmu_n_egr()) */
	uint64_t buffer;             /* capacity in units */
	uint64_t used;               /* units held */
	uint64_t peak_used;          /* high-water mark of used */
	uint64_t admitted, released; /* packets */
	uint32_t cell_bytes;
	bool check_invariants;       /* verify counters on every operation, and keep n_egr (debug
				      * mode; set it before the first packet) */
	uint8_t lossless_prio_mask;
	uint16_t nports;

	/* line 1 */
	uint64_t *q_ing;             /* [nports * 8] units per ingress queue: = sb_mmu_q_ing(m), for
				      * schemes and tests (the data path derives it: no line 1 read) */
	uint32_t *n_egr;             /* [nports * 8] packets per egress queue: = sb_mmu_n_egr(m); kept
				      * only with check_invariants, for the packet count the check
				      * verifies (a queue is empty when its q_egr is 0: every packet
				      * holds at least one unit) */
	uint64_t expelled;           /* packets */
	uint16_t port_lo, port_hi;   /* egress ports served by this MMU: [port_lo, port_hi) */
	uint32_t max_frame_bytes;    /* largest data frame on the wire */
	uint64_t buffer_bytes;
	uint64_t *port_rate_bps;
	sb_time *port_delay_ps;      /* link propagation delay per port */

	struct sb_mmu_env env;
	struct sb_rng rng;           /* scheme randomness, seeded by the embedder */
	uint64_t drops[SB_DROP_NCAUSES];            /* packets, per cause */
	uint64_t drops_lossless;                    /* packets of lossless classes dropped */
	uint64_t pfc_pauses_sent, pfc_resumes_sent; /* queue-level frames asked for (env.send_pfc) */
	uint64_t pfc_port_pauses_sent, pfc_port_resumes_sent; /* port-level frames (DSH) */
	uint32_t id;                 /* for messages: index among the embedder's MMUs */
};
_Static_assert(offsetof(struct sb_mmu, q_ing) == 64, "mmu: line 0 is what every packet reads");

/* The scheme's state starts this many bytes after the MMU, on a line of its own: its address
 * is a sum, not a pointer kept in (and read from) the MMU's first line. */
#define SB_MMU_STATE_OFFSET ((sizeof(struct sb_mmu) + 63) & ~(size_t)63)
/* The scheme's private state, ops->state_size bytes. */
static inline void *sb_mmu_state(const struct sb_mmu *m)
{
	return (char *)(uintptr_t)m + SB_MMU_STATE_OFFSET;
}
/* The ingress and packet counters, after q_egr in its block (see struct sb_mmu). */
static inline uint64_t *sb_mmu_q_ing(const struct sb_mmu *m)
{
	return m->q_egr + (size_t)m->nports * SB_MMU_NPRIO;
}
static inline uint32_t *sb_mmu_n_egr(const struct sb_mmu *m)
{
	return (uint32_t *)(m->q_egr + 2 * (size_t)m->nports * SB_MMU_NPRIO);
}

/* Start fetching what every admission and release reads first: the MMU's first line and the
 * first line of its scheme's state. An embedder that knows a packet's MMU early (a switch, as
 * soon as the packet arrives) calls it then, so that these misses overlap with its own work. */
static inline void sb_mmu_prefetch(const struct sb_mmu *m)
{
	__builtin_prefetch(m);
	__builtin_prefetch((const char *)m + SB_MMU_STATE_OFFSET);
}

/* --- scheme registry (src/mmu/registry.c) --- */
const struct sb_bm_ops *sb_bm_find(const char *name);
const struct sb_bm_ops *const *sb_bm_all(void); /* NULL-terminated */

/* --- lifecycle --- */
/* Allocate an MMU running `ops`, with parameter defaults applied. Parameters may then be
 * changed with sb_mmu_set_param() (or directly in sb_mmu_state(mmu)) before sb_mmu_start(). */
struct sb_mmu *sb_mmu_new(const struct sb_bm_ops *ops, const struct sb_mmu_config *cfg,
			  const struct sb_mmu_env *env);
int sb_mmu_set_param(struct sb_mmu *mmu, const char *name, const char *value, struct sb_error *err);
int sb_mmu_start(struct sb_mmu *mmu, struct sb_error *err);
void sb_mmu_free(struct sb_mmu *mmu);

/* --- data path (inline, defined at the end of this header) --- */
static inline enum sb_drop_cause sb_mmu_admit(struct sb_mmu *mmu, struct sb_mmu_pkt *pkt);
static inline void sb_mmu_release(struct sb_mmu *mmu, struct sb_mmu_pkt *pkt, enum sb_release_reason why);
void sb_mmu_timer(struct sb_mmu *mmu, unsigned timer_id);

/* --- helpers for schemes --- */
static inline size_t sb_mmu_qi(uint16_t port, uint8_t prio) { return (size_t)port * SB_MMU_NPRIO + prio; }
static inline uint64_t sb_mmu_free_units(const struct sb_mmu *m) { return m->buffer - m->used; }
static inline bool sb_mmu_pkt_lossless(const struct sb_mmu_pkt *p) { return p->tags & SB_MT_LOSSLESS; }
static inline uint32_t sb_mmu_units(const struct sb_mmu *m, uint32_t bytes)
{
	return m->cell_bytes ? (bytes + m->cell_bytes - 1) / m->cell_bytes : bytes;
}
/* α·x in units, saturated (α may be "infinite", e.g. 10000, as the artifacts use). */
static inline uint64_t sb_mmu_scale(double alpha, uint64_t x)
{
	double v = alpha * (double)x;
	return v >= 9.0e18 ? (uint64_t)9.0e18 : (uint64_t)v;
}
static inline sb_time sb_mmu_now(const struct sb_mmu *m) { return m->env.now ? m->env.now(m->env.ctx) : 0; }
void sb_mmu_arm_timer(struct sb_mmu *m, sb_time at, unsigned timer_id);
void sb_mmu_send_pfc(struct sb_mmu *m, uint16_t port, uint8_t prio_mask, bool pause);
void sb_mmu_send_port_pfc(struct sb_mmu *m, uint16_t port, bool pause);
bool sb_mmu_expel_head(struct sb_mmu *m, uint16_t port, uint8_t prio);

/* Check every core invariant; returns 0 or -1 with a description in err. */
int sb_mmu_check(const struct sb_mmu *m, struct sb_error *err);

/* --- the data path, inline: it runs twice per packet and switch hop, and the embedder's
 * packet fields stay in registers across it. The rare parts are out of line (mmu.c). --- */
void sb_mmu_count_drop(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_drop_cause why);
void sb_mmu_count_expelled(struct sb_mmu *m, const struct sb_mmu_pkt *pkt);
void sb_mmu_invariant_abort(const struct sb_mmu *m);
_Noreturn void sb_mmu_underflow(const struct sb_mmu *m, const struct sb_mmu_pkt *pkt);

static inline enum sb_drop_cause sb_mmu_admit(struct sb_mmu *m, struct sb_mmu_pkt *pkt)
{
	pkt->units = sb_mmu_units(m, pkt->bytes);
	enum sb_drop_cause why = m->ops->admit(m, pkt);
	/* The physical limit is the last line of defence whatever the scheme says. */
	if (why == SB_ADMIT && m->used + pkt->units > m->buffer)
		why = SB_DROP_BUFFER_FULL;
	if (why != SB_ADMIT) {
		sb_mmu_count_drop(m, pkt, why);
		return why;
	}
	size_t qi = sb_mmu_qi(pkt->out_port, pkt->prio);
	m->used += pkt->units;
	if (m->used > m->peak_used)
		m->peak_used = m->used;
	m->q_egr[qi] += pkt->units;
	sb_mmu_q_ing(m)[sb_mmu_qi(pkt->in_port, pkt->prio)] += pkt->units;
	m->admitted++;
	if (m->check_invariants)
		sb_mmu_n_egr(m)[qi]++;
	if (m->ops->on_enqueue)
		m->ops->on_enqueue(m, pkt);
	if (m->check_invariants)
		sb_mmu_invariant_abort(m);
	return SB_ADMIT;
}

static inline void sb_mmu_release(struct sb_mmu *m, struct sb_mmu_pkt *pkt, enum sb_release_reason why)
{
	pkt->units = sb_mmu_units(m, pkt->bytes);
	size_t qe = sb_mmu_qi(pkt->out_port, pkt->prio), qi = sb_mmu_qi(pkt->in_port, pkt->prio);
	uint64_t *q_ing = sb_mmu_q_ing(m);
	if (m->used < pkt->units || m->q_egr[qe] < pkt->units || q_ing[qi] < pkt->units)
		sb_mmu_underflow(m, pkt);
	if (m->check_invariants) {
		uint32_t *n_egr = sb_mmu_n_egr(m);
		if (n_egr[qe] == 0)
			sb_mmu_underflow(m, pkt);
		n_egr[qe]--;
	}
	m->used -= pkt->units;
	m->q_egr[qe] -= pkt->units;
	q_ing[qi] -= pkt->units;
	if (why == SB_RELEASE_EXPELLED)
		sb_mmu_count_expelled(m, pkt);
	else
		m->released++;
	if (m->ops->on_dequeue)
		m->ops->on_dequeue(m, pkt, why);
	if (m->check_invariants)
		sb_mmu_invariant_abort(m);
}

#endif
