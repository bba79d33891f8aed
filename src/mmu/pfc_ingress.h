/*
 * pfc_ingress.h — the lossless half of an MMU: PFC headroom, pause and resume per ingress queue.
 *
 * A lossless packet is never dropped by a threshold. When its ingress queue (s, p) — the
 * packets that arrived on port s with priority p — crosses the scheme's threshold, the switch
 * sends PFC PAUSE for p out of port s, and the bytes the upstream could not stop in time are
 * held in that queue's *headroom*. SONiC's buffer model and Reverie (Reverie §2.2.1 and §3.3,
 * in the artifact's order of steps) share this machinery exactly; only the threshold and the length it is
 * compared with differ, so the scheme decides "over the threshold" and this module does the
 * rest:
 *
 *   headroom limit  xoff(s) per lossless queue of port s, from the headroom formula of the
 *                   port's link (mmu/headroom.h) or a fixed size; the headroom pool is
 *                   b_h = Σ_ports xoff × headroom_prios (the artifact reserves it for 2
 *                   lossless priorities per port, 0 and 3, although only 3 carries data);
 *   entry           a lossless arrival that finds its queue over the threshold (and beyond its
 *                   reserve) is charged to headroom; once a queue holds headroom, *every*
 *                   arrival goes there until the headroom drains to 0;
 *   PAUSE           sent once per episode, when the queue first holds headroom (the upstream
 *                   stays paused until RESUME: no quanta, no refresh — the artifact's ON/OFF);
 *   departure       a packet leaves headroom first; what headroom cannot cover leaves the
 *                   pool the scheme charges (the MMU keeps nothing per packet, so this
 *                   drain-order rule is what makes departures deterministic);
 *   RESUME          checked after each departure from a paused queue: headroom empty and
 *                   X < XON or X + XON_OFFSET <= T(unscheduled = 0) (X and T are the scheme's);
 *   reserve         an optional guaranteed minimum per lossless ingress queue: its first
 *                   `reserved_bytes` never pause and are not counted in the scheme's pool
 *                   (the pool shrinks by R = Σ reserves). Evaluations use 0;
 *   drops           only when headroom is exhausted: the queue already holds headroom and
 *                   hdrm + L > xoff, or the headroom pool cannot take L (cause headroom);
 *                   when the buffer as a whole cannot (pool_full against the lossless limit
 *                   the scheme passes, buffer_full against the physical buffer).
 *
 * Class per packet: SB_MT_LOSSLESS. The module counts the lossless units of each ingress
 * queue itself (`held`), so the headroom and reserve accounting stays exact even if a priority
 * carried both classes. Everything is O(1) per packet; sb_pfc_check is the O(ports) audit.
 */
#ifndef SB_PFC_INGRESS_H
#define SB_PFC_INGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mmu/headroom.h"
#include "mmu/mmu.h"

/* Parameters every lossless scheme offers (embed in its state, list with SB_PFC_PARAMS). */
struct sb_pfc_ingress_params {
	int headroom;             /* enum sb_headroom_mode */
	int64_t headroom_bytes;   /* SB_HEADROOM_BYTES: xoff of every lossless queue */
	int64_t headroom_prios;   /* lossless priorities per port the headroom pool is sized for */
	int64_t xon_bytes;
	int64_t xon_offset_bytes;
	int64_t reserved_bytes;   /* guaranteed minimum per lossless ingress queue */
};

#define SB_PFC_PARAMS(owner, member)                                                                   \
	{ "headroom", SB_P_ENUM, offsetof(owner, member.headroom), "reverie", 0, 0, "", sb_headroom_mode_names, \
	  "headroom (xoff) of each lossless ingress queue: reverie = 2·(frame) + 3860 + 2·rate·delay/8 of " \
	  "the port's link (artifact, Cisco PFC white paper; 18,456 B at 25 Gb/s, 2 µs); dsh = DSH Eq. 1; " \
	  "bytes = headroom_bytes" },                                                                  \
	{ "headroom_bytes", SB_P_INT, offsetof(owner, member.headroom_bytes), "0", 0, 1e12, "bytes", NULL, \
	  "headroom = bytes: the headroom of every lossless ingress queue" },                          \
	{ "headroom_prios", SB_P_INT, offsetof(owner, member.headroom_prios), "2", 0, 8, "priorities", NULL, \
	  "lossless priorities per port the headroom pool is reserved for: b_h = Σ_ports xoff × this "  \
	  "(artifact: 2, queues 0 and 3, although queue 0 never holds data; must be >= the number of "  \
	  "lossless priorities)" },                                                                     \
	{ "xon_bytes", SB_P_INT, offsetof(owner, member.xon_bytes), "1248", 0, 1e12, "bytes", NULL,   \
	  "RESUME when the queue length (SONiC) or its filter (Reverie) falls below this (artifact 1248)" }, \
	{ "xon_offset_bytes", SB_P_INT, offsetof(owner, member.xon_offset_bytes), "2496", 0, 1e12, "bytes", NULL, \
	  "or when it is at least this far below the threshold (artifact 2496): the PFC hysteresis" }, \
	{ "reserved_bytes", SB_P_INT, offsetof(owner, member.reserved_bytes), "0", 0, 1e12, "bytes", NULL, \
	  "guaranteed minimum buffer per lossless ingress queue, outside the shared/ingress pool; a "   \
	  "queue within it never pauses (artifact reserveIngress; the evaluations use 0)" }

struct sb_pfc_ingress {
	/* configuration, in units */
	uint64_t xon, xon_offset, reserve;
	uint64_t *xoff;          /* [nports] headroom limit of each lossless queue of a port */
	uint64_t pool;           /* b_h */
	uint64_t reserve_total;  /* R = nports × headroom_prios × reserve */

	/* state */
	uint64_t used;           /* q_h: units in headroom */
	uint64_t held_total;     /* Σ held: every lossless unit in the buffer */
	uint64_t reserved_used;  /* Σ min(held − hdrm, reserve) */
	/* [nports × 8] per ingress queue, side by side because every lossless arrival and
	 * departure reads both (one cache line, not two) */
	struct sb_pfc_queue {
		uint64_t hdrm;   /* units in headroom */
		uint64_t held;   /* lossless units */
	} *q;
	uint8_t *paused;         /* [nports] bit p: queue (port, p) has paused its upstream */
	uint32_t npaused;        /* queues paused now */
	uint64_t peak_used;      /* high-water mark of q_h */
	uint16_t nports;
};

/* Allocate and size (xoff per port, b_h, units). `scheme` names the caller in messages. Fails
 * on a lossless traffic mix the headroom cannot protect: more lossless priorities than
 * headroom_prios, or several MMUs per switch (their PFC decisions would contradict each other,
 * docs/mmu.md §4). */
int sb_pfc_init(struct sb_pfc_ingress *pi, const struct sb_pfc_ingress_params *p, const struct sb_mmu *m,
		const char *scheme, struct sb_error *err);
void sb_pfc_fini(struct sb_pfc_ingress *pi);

/* The per-packet functions below are inline: they run on every lossless arrival and departure
 * of the schemes that embed this module. */

/* Pre-arrival checks of a lossless packet: headroom exhausted (headroom), more than
 * `lossless_limit` units in the buffer (pool_full: b_ing + b_h for SONiC, b* + b_h for Reverie),
 * physical buffer (buffer_full). */
static inline enum sb_drop_cause sb_pfc_admit(const struct sb_pfc_ingress *pi, const struct sb_mmu *m,
					       const struct sb_mmu_pkt *pkt, uint64_t lossless_limit)
{
	size_t qi = sb_mmu_qi(pkt->in_port, pkt->prio);
	uint64_t hdrm = pi->q[qi].hdrm, z = pkt->units;
	/* Only a queue already in headroom is held to its headroom (the packet that opens an
	 * episode always fits: it is what the headroom is for). Every arrival of such a queue is
	 * charged to headroom, so the reserve does not matter here. */
	if (hdrm > 0 && (hdrm + z > pi->xoff[pkt->in_port] || pi->used + z > pi->pool))
		return SB_DROP_HEADROOM;
	if (m->used + z > lossless_limit)
		return SB_DROP_POOL_FULL;
	if (m->used + z > m->buffer)
		return SB_DROP_BUFFER_FULL;
	return SB_ADMIT;
}

/* The reserve holds the queue's lossless units that are not in headroom, up to `reserve`. */
static inline uint64_t sb_pfc_reserved_of(const struct sb_pfc_ingress *pi, size_t qi)
{
	uint64_t own = pi->q[qi].held - pi->q[qi].hdrm;
	return own < pi->reserve ? own : pi->reserve;
}

/* After the core counted an admitted lossless packet. `over` = the scheme found the queue over
 * its threshold (computed after the increment). Charges the packet to headroom if the queue
 * already holds headroom, or if `over` and the queue is beyond its reserve; then sends PAUSE
 * if the queue holds headroom and has not paused yet. Returns true if charged to headroom. */
static inline bool sb_pfc_enqueue(struct sb_pfc_ingress *pi, struct sb_mmu *m, const struct sb_mmu_pkt *pkt,
				  bool over)
{
	uint16_t port = pkt->in_port;
	uint8_t prio = pkt->prio;
	size_t qi = sb_mmu_qi(port, prio);
	uint64_t z = pkt->units, before = pi->reserve ? sb_pfc_reserved_of(pi, qi) : 0;
	pi->q[qi].held += z;
	pi->held_total += z;
	bool to_headroom = pi->q[qi].hdrm > 0 || (over && pi->q[qi].held > pi->reserve);
	if (to_headroom) {
		pi->q[qi].hdrm += z;
		pi->used += z;
		if (pi->used > pi->peak_used)
			pi->peak_used = pi->used;
	}
	if (pi->reserve)
		pi->reserved_used += sb_pfc_reserved_of(pi, qi) - before;
	if (to_headroom && !(pi->paused[port] >> prio & 1)) {
		pi->paused[port] |= (uint8_t)(1u << prio);
		pi->npaused++;
		sb_mmu_send_pfc(m, port, (uint8_t)(1u << prio), true);
	}
	return to_headroom;
}

/* After the core released a lossless packet: headroom drains first. Returns the units that
 * left headroom (the rest left the scheme's pool or the reserve). */
static inline uint64_t sb_pfc_dequeue(struct sb_pfc_ingress *pi, const struct sb_mmu_pkt *pkt)
{
	size_t qi = sb_mmu_qi(pkt->in_port, pkt->prio);
	uint64_t z = pkt->units, before = pi->reserve ? sb_pfc_reserved_of(pi, qi) : 0;
	uint64_t from_headroom = z < pi->q[qi].hdrm ? z : pi->q[qi].hdrm;
	pi->q[qi].held -= z;
	pi->held_total -= z;
	pi->q[qi].hdrm -= from_headroom;
	pi->used -= from_headroom;
	if (pi->reserve)
		pi->reserved_used -= before - sb_pfc_reserved_of(pi, qi);
	return from_headroom;
}

/* The queue has paused its upstream and its headroom is empty: the scheme's resume test runs. */
static inline bool sb_pfc_resume_due(const struct sb_pfc_ingress *pi, uint16_t port, uint8_t prio)
{
	return (pi->paused[port] >> prio & 1) && pi->q[sb_mmu_qi(port, prio)].hdrm == 0;
}

/* Send RESUME for (port, prio) and mark it resumed. */
void sb_pfc_resume(struct sb_pfc_ingress *pi, struct sb_mmu *m, uint16_t port, uint8_t prio);

static inline uint64_t sb_pfc_hdrm(const struct sb_pfc_ingress *pi, uint16_t port, uint8_t prio)
{
	return pi->q[sb_mmu_qi(port, prio)].hdrm;
}
static inline bool sb_pfc_paused(const struct sb_pfc_ingress *pi, uint16_t port, uint8_t prio)
{
	return pi->paused[port] >> prio & 1;
}

/* Audit every counter (Σ hdrm = q_h, hdrm <= held <= q_ing, the reserve sum, the paused count);
 * 0, or -1 with a description. */
int sb_pfc_check(const struct sb_pfc_ingress *pi, const struct sb_mmu *m, struct sb_error *err);

#endif
