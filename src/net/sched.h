/*
 * sched.h — the decisions of an egress port, as pure functions: which data queue sends next
 * (strict priority, packet-by-packet round robin or deficit round robin), which queues PFC lets
 * send, whether a packet is marked CE (RED or a step, at enqueue or at dequeue), and what the
 * switch does with a data packet once its MMU has judged it.
 *
 * The simulator's ports (net/port.c, net/switch.c) and the software switch's (dataplane/swport.c,
 * dataplane/dpswitch.c) call these same functions, so a scheme's scheduling and marking on real
 * packets is the simulator's code, not a copy of it. Nothing here knows an engine, a world or a
 * packet type: the inputs are the queue state a caller passes (bit masks of queues, the size of a
 * queue's head packet, the bytes a queue holds), the outputs the decision and the scheduler's
 * own state (whose turn it is, DRR's deficits).
 *
 * Per packet: every function is static inline and the head accessor a caller passes is a
 * constant, so a call compiles to the code it replaced (no indirect call, no extra load). The
 * three disciplines are three branches, not an ops table, for the same reason: an indirect call
 * per transmitted packet would cost what the rest of the scheduler costs.
 *
 * DRR follows Shreedhar & Varghese (SIGCOMM'95): a queue's turn adds its quantum (the scenario's
 * drr_weight × drr_quantum_bytes) to its deficit; the queue sends while its deficit covers its
 * head packet; a queue that is found empty, or is emptied, loses its deficit. A queue that PFC
 * pauses is skipped and keeps its deficit (it is not empty, only not allowed to send).
 */
#ifndef SB_NET_SCHED_H
#define SB_NET_SCHED_H

#include <stdbool.h>
#include <stdint.h>
#include "core/rng.h"
#include "engine/packet.h"
#include "mmu/mmu.h"
#include "net/params.h" /* SB_SCHED_*, SB_ECN_*: the scheduler's parameters */

/* Marking of one queue. */
struct sb_ecn_cfg {
	uint64_t kmin, kmax; /* bytes of the egress queue */
	uint32_t pmax_q32;   /* marking probability at kmax, as a 32-bit fraction */
	uint8_t mode;        /* SB_ECN_OFF / RED / STEP */
};

/* What a port's scheduler and marking read per packet and that is configuration, not state:
 * one copy shared by every port of equal configuration (sim->port_profiles), so that the lines
 * it takes stay in cache instead of a few lines per port spread over a large network. */
struct sb_port_profile {
	struct sb_ecn_cfg ecn[SB_NPRIO]; /* marking per priority (mode SB_ECN_OFF: never) */
	uint32_t quantum[SB_NPRIO];      /* DRR: bytes a queue may send per turn */
	bool ecn_at_dequeue;             /* mark when a packet leaves, not when it is queued */
};

/* DRR's quantum of a queue: weight × quantum bytes (drr_weight, drr_quantum_bytes), at least
 * one byte so that a turn always makes progress. */
uint32_t sb_sched_quantum(double weight, double quantum_bytes);
/* What marking thresholds written for a port of ref_gbps (switch.ecn_ref_gbps; 0: every port
 * alike) are multiplied by on a port of rate_bps. */
double sb_sched_ecn_scale(uint64_t rate_bps, double ref_gbps);
/* Set the marking of one queue (the caller zeroes the table first: profiles are compared with
 * memcmp, padding included) from mode SB_ECN_*, thresholds in bytes scaled by `scale`
 * (saturated, kmax at least kmin: RED with kmax = kmin is a step) and pmax clamped to [0, 1]. */
void sb_sched_ecn_set(struct sb_ecn_cfg *e, int mode, double kmin_bytes, double kmax_bytes, double pmax, double scale);

/* The round robins' position among the queues of a port (3 bytes, so that it sits in the
 * port's first line beside the masks the scheduler reads with it). */
struct sb_sched_turn {
	uint8_t next;     /* DRR, RR: the queue whose turn it is */
	uint8_t granted;  /* DRR: that queue already got its quantum this turn */
	uint8_t credited; /* DRR: bit q clear = deficit[q] is 0, so that a pass over queues
			   * without credit reads no deficit (a skip zeroes only the others) */
};

/* The head packet of data queue q: true and its size in *size, or false when the queue has
 * nothing to send after all. A caller whose queues are all FIFOs only reads; a host NIC with a
 * pull source materialises the packet here, just in time, as an RDMA NIC fetches the next
 * packet of a queue pair when the link can take it. */
typedef bool (*sb_sched_head_fn)(void *ctx, unsigned q, uint32_t *size);

/* Queues that may be served now: those holding packets (`held`: a FIFO's backlog, or a pull
 * source that is ready), less those PFC pauses, per priority (`paused`) or port-wide. */
static inline uint8_t sb_sched_eligible(uint8_t held, uint8_t paused, bool port_paused)
{
	return port_paused ? 0 : (uint8_t)(held & (uint8_t)~paused);
}

/* The first queue of `mask` (non-zero) at or after `from`, in round-robin order. */
static inline unsigned sb_sched_first_from(uint8_t mask, unsigned from)
{
	/* rotate so that bit 0 is `from`: the first queue is then the lowest bit */
	unsigned rot = ((unsigned)mask >> from | (unsigned)mask << (SB_NPRIO - from)) & 0xffu;
	return (from + (unsigned)__builtin_ctz(rot)) & (SB_NPRIO - 1);
}

/* Queues in round-robin order from `from` up to, not including, `to`. */
static inline unsigned sb_sched_between(unsigned from, unsigned to)
{
	unsigned dist = (to - from) & (SB_NPRIO - 1);
	unsigned passed = ((1u << dist) - 1) << from;
	return (passed | passed >> SB_NPRIO) & 0xffu;
}

/* Give up the credit of every queue in `lose`. */
static inline void sb_sched_uncredit(struct sb_sched_turn *t, int32_t deficit[SB_NPRIO], unsigned lose)
{
	lose &= t->credited;
	t->credited &= (uint8_t)~lose;
	for (; lose; lose &= lose - 1)
		deficit[__builtin_ctz(lose)] = 0;
}

/* DRR passes over queues that are not eligible: each one the turn leaves loses its credit if
 * it is empty (a paused queue keeps it), exactly as a visit per queue would do, but one scan
 * instead of a lap of eight visits (most ports carry one or two priorities). */
static inline void sb_sched_drr_skip(struct sb_sched_turn *t, int32_t deficit[SB_NPRIO], uint8_t eligible,
				     uint8_t held)
{
	unsigned to = sb_sched_first_from(eligible, t->next);
	sb_sched_uncredit(t, deficit, sb_sched_between(t->next, to) & ~(unsigned)held);
	t->next = (uint8_t)to;
	t->granted = 0;
}

/* The data queue to serve next among `eligible` (see sb_sched_eligible; `held` ⊇ eligible are
 * the queues holding packets, paused or not), by discipline `kind` (SB_SCHED_*), updating the
 * turn and DRR's deficits (`quantum`: the port profile's); -1 when no eligible queue has a head
 * packet after all. DRR charges the chosen head packet to its queue's deficit here. After the
 * caller removes the packet, sb_sched_emptied() if the queue is left empty. */
static inline __attribute__((always_inline)) int
sb_sched_next(uint8_t kind, struct sb_sched_turn *t, int32_t deficit[SB_NPRIO], const uint32_t quantum[SB_NPRIO],
	      uint8_t eligible, uint8_t held, sb_sched_head_fn head, void *ctx)
{
	uint32_t size = 0; /* read only after head() gave it */
	unsigned q;
	if (!eligible)
		return -1;
	if (kind == SB_SCHED_SP) {
		for (;;) {
			q = 31u - (unsigned)__builtin_clz(eligible); /* highest priority index first */
			if (head(ctx, q, &size))
				return (int)q;
			eligible &= (uint8_t)~(1u << q);
			if (!eligible)
				return -1;
		}
	}
	if (kind == SB_SCHED_RR) {
		/* Packet-by-packet round robin: the first eligible queue from the turn sends one
		 * packet, whatever its size, and passes the turn on. */
		for (;;) {
			q = sb_sched_first_from(eligible, t->next);
			if (head(ctx, q, &size))
				break;
			eligible &= (uint8_t)~(1u << q);
			if (!eligible)
				return -1;
		}
		t->next = (uint8_t)((q + 1) & (SB_NPRIO - 1)); /* RR: the turn passes on */
		return (int)q;
	}
	/* Deficit round robin, one packet per call. A queue's turn adds one quantum; it keeps the
	 * turn while its deficit covers the head packet. Empty queues lose their credit, paused
	 * ones keep it. Terminates because some eligible queue gains a quantum per lap (a queue
	 * with no head after all is dropped from `eligible`, and from `held`: it is empty). */
	for (;;) {
		q = t->next;
		uint8_t bit = (uint8_t)(1u << q);
		if (!(eligible & bit)) {
			sb_sched_drr_skip(t, deficit, eligible, held);
			continue;
		}
		if (!head(ctx, q, &size)) {
			eligible &= (uint8_t)~bit;
			held &= (uint8_t)~bit;
			if (!eligible)
				return -1;
		}
		if (eligible & bit) {
			if (!t->granted) {
				deficit[q] += (int32_t)quantum[q];
				t->credited |= bit;
				t->granted = 1;
			}
			if ((int32_t)size <= deficit[q]) {
				deficit[q] -= (int32_t)size;
				return (int)q;
			}
		} else if (!(held & bit)) {
			deficit[q] = 0;
			t->credited &= (uint8_t)~bit;
		}
		t->next = (uint8_t)((q + 1) & (SB_NPRIO - 1));
		t->granted = 0;
	}
}

/* Queue q, just served, is left empty and nothing refills it now (no ready pull source): under
 * DRR it loses its deficit and passes the turn on. A queue fed by a ready source is not empty
 * in DRR's sense: it keeps its turn and its credit, as a FIFO holding the same packets would. */
static inline void sb_sched_emptied(uint8_t kind, struct sb_sched_turn *t, int32_t deficit[SB_NPRIO], unsigned q)
{
	if (kind != SB_SCHED_DRR)
		return;
	deficit[q] = 0; /* an empty queue has no deficit */
	t->credited &= (uint8_t)~(1u << q);
	t->next = (uint8_t)((q + 1) & (SB_NPRIO - 1));
	t->granted = 0;
}

/* A packet of `size` bytes in data queue q goes out at once on an idle port where no other
 * queue holds anything (the fast path of an idle port: no FIFO, no scan): the turn and the
 * deficits become exactly what sb_sched_next and sb_sched_emptied would leave. Under DRR the
 * turn moves to q, skipping queues whose credit an empty queue loses; q gains quanta until they
 * cover the packet, each lap past the others (all empty) dropping their credit too; then q is
 * empty, loses its own credit and passes the turn on. */
static inline void sb_sched_alone(uint8_t kind, struct sb_sched_turn *t, int32_t deficit[SB_NPRIO],
				  const uint32_t quantum[SB_NPRIO], unsigned q, uint32_t size)
{
	if (kind == SB_SCHED_RR) {
		t->next = (uint8_t)((q + 1) & (SB_NPRIO - 1));
		return;
	}
	if (kind != SB_SCHED_DRR)
		return;
	uint8_t bit = (uint8_t)(1u << q), others = (uint8_t)(t->credited & ~bit);
	/* a queue without credit has a deficit of 0: DRR's line is not read (nor written) then */
	bool had_credit = t->credited & bit;
	int32_t credit = had_credit ? deficit[q] : 0;
	bool granted = t->granted;
	if (t->next != q) {
		uint8_t lose = (uint8_t)(sb_sched_between(t->next, q) & others);
		for (uint8_t m = lose; m; m &= (uint8_t)(m - 1))
			deficit[__builtin_ctz(m)] = 0;
		others &= (uint8_t)~lose;
		granted = false;
	}
	if (!granted)
		credit += (int32_t)quantum[q];
	if ((int32_t)size > credit) {
		/* laps around the other queues until the quanta cover the packet */
		for (uint8_t m = others; m; m &= (uint8_t)(m - 1))
			deficit[__builtin_ctz(m)] = 0;
		others = 0;
	}
	if (had_credit)
		deficit[q] = 0;
	t->credited = others;
	t->next = (uint8_t)((q + 1) & (SB_NPRIO - 1));
	t->granted = 0;
}

/* ECN decision for an ECN-capable packet meeting `qbytes` in its egress queue: step marks
 * above kmin; RED marks with probability pmax·(q − kmin)/(kmax − kmin) between kmin and kmax
 * (Floyd & Jacobson, the instantaneous queue as DCTCP uses it) and always above kmax. One draw
 * of `rng` in RED's band, none otherwise. */
static inline bool sb_sched_ecn_decide(const struct sb_ecn_cfg *e, uint64_t qbytes, struct sb_rng *rng)
{
	if (e->mode == SB_ECN_OFF || qbytes <= e->kmin)
		return false;
	if (e->mode == SB_ECN_STEP || qbytes > e->kmax)
		return true;
	/* RED: probability rises linearly from 0 at kmin to pmax at kmax */
	uint64_t span = e->kmax - e->kmin;
	uint64_t threshold = (uint64_t)(((unsigned __int128)e->pmax_q32 * (qbytes - e->kmin)) / span);
	return (sb_rng_u64(rng) >> 32) < threshold;
}

/* What a switch does with a data packet its MMU has judged. */
enum sb_sched_arrival {
	SB_ARRIVAL_DROP = 0, /* refused: the MMU's verdict is the drop cause */
	SB_ARRIVAL_QUEUE,    /* queued as it is */
	SB_ARRIVAL_MARK,     /* marked CE, then queued */
};

/* The MMU's verdict `why` on a data packet of `size` bytes and priority prio, ECN-capable or
 * not (`ect`), for an egress queue holding `queued` bytes: drop it, or queue it, marked when
 * marking is at enqueue and the queue it joins (its bytes and the packet's) calls for it. No
 * draw of `rng` for a refused or not ECN-capable packet, so both switches draw in one order. */
static inline enum sb_sched_arrival sb_sched_on_admit(enum sb_drop_cause why, const struct sb_port_profile *pf,
						      uint8_t prio, bool ect, uint64_t queued, uint32_t size,
						      struct sb_rng *rng)
{
	if (why != SB_ADMIT)
		return SB_ARRIVAL_DROP;
	if (!pf->ecn_at_dequeue && ect && sb_sched_ecn_decide(&pf->ecn[prio], queued + size, rng))
		return SB_ARRIVAL_MARK;
	return SB_ARRIVAL_QUEUE;
}

/* A data packet of priority prio starts transmission, its queue holding `queued` bytes behind
 * it (the MMU has released it first: the switch's dequeue is release, then this): true when it
 * is to be marked CE now, marking being at dequeue. */
static inline bool sb_sched_on_dequeue(const struct sb_port_profile *pf, uint8_t prio, bool ect, uint64_t queued,
				       struct sb_rng *rng)
{
	return pf->ecn_at_dequeue && ect && sb_sched_ecn_decide(&pf->ecn[prio], queued, rng);
}

#endif
