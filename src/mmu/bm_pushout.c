/*
 * bm_pushout.c — Pushout / Longest Queue Drop (LQD): the idealised preemptive scheme.
 *
 * The reference scheme of Occamy (EuroSys'25) §2.3; docs/schemes/pushout.md.
 *
 * Admit whenever the buffer has room (Q + L ≤ B). When it is full, push packets out of the
 * head of the longest queue of this MMU (units; ties → the highest (port, prio) index, the
 * artifact's "last scanned"), re-choosing the longest after every packet, until the arrival
 * fits (`expel_until = fits`) or until at least L units were freed (`expel_until = packet`,
 * the ns-3 artifact). The longest queue may be the arrival's own queue: its head goes
 * (`own_queue = head`, the artifact). With `own_queue = arrival` (textbook LQD) the
 * arrival is dropped instead when its own queue, counting the arrival, would be the longest.
 * With `sp_protect` (strict-priority ports) a packet never pushes out a higher priority.
 * No threshold and no bandwidth limit: expulsion is free and instantaneous.
 *
 * The MMU contract forbids expelling and then refusing, and expelled packets cannot come back.
 * So before the first expulsion the scheme proves that the greedy loop will free enough
 * before a protected queue (own queue in `arrival` mode, higher priorities with sp_protect)
 * becomes the longest: each eligible queue i yields at least max(0, q_i − h) units before it
 * falls to the longest protected length h. If that sum is short, the arrival is dropped at
 * once. Without protection the sum is Q, always enough, so the default rule is exact.
 */
#include <stddef.h>
#include "mmu/mmu.h"

enum { PO_UNTIL_FITS = 0, PO_UNTIL_PACKET };
enum { PO_OWN_HEAD = 0, PO_OWN_ARRIVAL };
static const char *const po_until_choices[] = { "fits", "packet", NULL };
static const char *const po_own_choices[] = { "head", "arrival", NULL };

struct pushout_state {
	int expel_until;
	int own_queue;
	bool sp_protect;
	uint64_t pushouts;     /* packets pushed out */
	uint64_t arrivals_pushing; /* arrivals admitted by pushing out */
};

static const struct sb_param pushout_params[] = {
	{ "expel_until", SB_P_ENUM, offsetof(struct pushout_state, expel_until), "fits", 0, 0, "", po_until_choices,
	  "fits = push out until the arrival fits (paper); packet = until at least its size was freed (ns-3 artifact)" },
	{ "own_queue", SB_P_ENUM, offsetof(struct pushout_state, own_queue), "head", 0, 0, "", po_own_choices,
	  "when the arrival's own queue is the longest: head = drop its head (the artifact); arrival = drop the arrival (textbook LQD)" },
	{ "sp_protect", SB_P_BOOL, offsetof(struct pushout_state, sp_protect), "false", 0, 0, "", NULL,
	  "a packet may not push out a higher priority (set with switch.sched = sp, as the artifact's PQ mode)" },
	SB_PARAM_END
};

static int pushout_init(struct sb_mmu *m, struct sb_error *err)
{
	if (!m->env.expel_head)
		return sb_fail(err, "pushout: needs the embedder's expel_head callback");
	return 0;
}

/* Is queue qi protected from this arrival? */
static inline bool is_protected(const struct pushout_state *s, const struct sb_mmu_pkt *pkt, size_t own, size_t qi)
{
	if (s->own_queue == PO_OWN_ARRIVAL && qi == own)
		return true;
	return s->sp_protect && qi % SB_MMU_NPRIO > pkt->prio;
}

/* Length the selector sees: the own queue counts the arrival in `arrival` mode. */
static inline uint64_t seen_len(const struct sb_mmu *m, const struct pushout_state *s, const struct sb_mmu_pkt *pkt,
				size_t own, size_t qi)
{
	return m->q_egr[qi] + (s->own_queue == PO_OWN_ARRIVAL && qi == own ? pkt->units : 0);
}

/* The longest queue of this MMU, ties to the highest index; SIZE_MAX if all are empty. */
static size_t longest(const struct sb_mmu *m, const struct pushout_state *s, const struct sb_mmu_pkt *pkt, size_t own)
{
	size_t best = SIZE_MAX;
	uint64_t best_len = 0;
	for (size_t qi = sb_mmu_qi(m->port_lo, 0); qi < sb_mmu_qi(m->port_hi, 0); qi++) {
		uint64_t len = seen_len(m, s, pkt, own, qi);
		if (len > 0 && len >= best_len) {
			best_len = len;
			best = qi;
		}
	}
	return best;
}

/* Lower bound of what the greedy loop frees before a protected queue becomes the longest. */
static uint64_t guaranteed_units(const struct sb_mmu *m, const struct pushout_state *s, const struct sb_mmu_pkt *pkt,
				 size_t own)
{
	uint64_t h = 0, sum = 0;
	for (size_t qi = sb_mmu_qi(m->port_lo, 0); qi < sb_mmu_qi(m->port_hi, 0); qi++)
		if (is_protected(s, pkt, own, qi) && seen_len(m, s, pkt, own, qi) > h)
			h = seen_len(m, s, pkt, own, qi);
	for (size_t qi = sb_mmu_qi(m->port_lo, 0); qi < sb_mmu_qi(m->port_hi, 0); qi++)
		if (!is_protected(s, pkt, own, qi) && m->q_egr[qi] > h)
			sum += m->q_egr[qi] - h;
	return sum;
}

static enum sb_drop_cause pushout_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	struct pushout_state *s = sb_mmu_state(m);
	if (pkt->units > m->buffer)
		return SB_DROP_BUFFER_FULL;
	if (m->used + pkt->units <= m->buffer)
		return SB_ADMIT;
	size_t own = sb_mmu_qi(pkt->out_port, pkt->prio);
	uint64_t fit = m->used + pkt->units - m->buffer; /* ≤ used, as units ≤ buffer */
	uint64_t need = fit;
	if (s->expel_until == PO_UNTIL_PACKET)
		need = pkt->units < m->used ? pkt->units : m->used;
	if (guaranteed_units(m, s, pkt, own) < need)
		return SB_DROP_BUFFER_FULL; /* would hit a protected queue first: refuse before expelling */
	uint64_t before = m->used;
	while (before - m->used < need) {
		size_t v = longest(m, s, pkt, own);
		/* v is never protected here (guaranteed_units), and never SIZE_MAX (used > 0). */
		if (v == SIZE_MAX || is_protected(s, pkt, own, v) ||
		    !sb_mmu_expel_head(m, (uint16_t)(v / SB_MMU_NPRIO), (uint8_t)(v % SB_MMU_NPRIO)))
			break; /* only an embedder whose FIFOs disagree with the counters gets here */
		s->pushouts++;
	}
	if (m->used + pkt->units > m->buffer)
		return SB_DROP_BUFFER_FULL;
	s->arrivals_pushing++;
	return SB_ADMIT;
}

const struct sb_bm_ops sb_bm_pushout = {
	.name = "pushout",
	.summary = "Pushout (LQD): admit while there is room, else push out the head of the longest queue",
	.params = pushout_params,
	.state_size = sizeof(struct pushout_state),
	.init = pushout_init,
	.admit = pushout_admit,
};
