/*
 * swport.c — FIFOs and the scheduler of a software switch port.
 */
#include "dataplane/swport.h"

#include <string.h>

static inline void fifo_push(struct sb_dp_fifo *f, struct sb_dp_pkt *p)
{
	p->next = NULL;
	if (f->tail)
		f->tail->next = p;
	else
		f->head = p;
	f->tail = p;
	f->bytes += p->len;
	f->pkts++;
}

static inline struct sb_dp_pkt *fifo_pop(struct sb_dp_fifo *f)
{
	struct sb_dp_pkt *p = f->head;
	if (p) {
		f->head = p->next;
		if (!f->head)
			f->tail = NULL;
		f->bytes -= p->len;
		f->pkts--;
		p->next = NULL;
	}
	return p;
}

void sb_swport_init(struct sb_swport *p, uint8_t sched, const uint32_t quantum[SB_MMU_NPRIO],
		    const struct sb_ecn_cfg ecn[SB_MMU_NPRIO], bool ecn_at_dequeue, uint64_t rate_bps, sb_time slack,
		    uint32_t ctrl_limit)
{
	memset(p, 0, sizeof(*p));
	p->sched = sched;
	memcpy(p->profile.quantum, quantum, sizeof(p->profile.quantum));
	memcpy(p->profile.ecn, ecn, sizeof(p->profile.ecn));
	p->profile.ecn_at_dequeue = ecn_at_dequeue;
	p->ctrl_limit = ctrl_limit;
	sb_dp_shaper_init(&p->shaper, rate_bps, slack);
}

void sb_swport_push(struct sb_swport *p, struct sb_dp_pkt *pkt)
{
	fifo_push(&p->q[pkt->prio], pkt);
	p->backlog |= (uint8_t)(1u << pkt->prio);
}

bool sb_swport_push_ctrl(struct sb_swport *p, struct sb_dp_pkt *pkt)
{
	if (p->ctrl.pkts >= p->ctrl_limit) {
		p->ctrl_drops++;
		return false;
	}
	fifo_push(&p->ctrl, pkt);
	p->ctrl_enq++;
	return true;
}

/* The scheduler's view of data queue q's head (sb_sched_head_fn): a FIFO's, nothing pulled. */
static inline bool head_size(void *ctx, unsigned q, uint32_t *size)
{
	const struct sb_dp_pkt *h = ((const struct sb_swport *)ctx)->q[q].head;
	if (!h)
		return false;
	*size = h->len;
	return true;
}

struct sb_dp_pkt *sb_swport_select(struct sb_swport *p)
{
	if (p->ctrl.head)
		return fifo_pop(&p->ctrl);
	/* nothing is paused (the software switch honours no PFC) and every queue is a FIFO */
	int sel = sb_sched_next(p->sched, &p->turn, p->deficit, p->profile.quantum, sb_sched_eligible(p->backlog, 0, false),
				p->backlog, head_size, p);
	if (sel < 0)
		return NULL;
	unsigned q = (unsigned)sel;
	struct sb_dp_pkt *pkt = fifo_pop(&p->q[q]);
	if (!p->q[q].head) {
		p->backlog &= (uint8_t)~(1u << q);
		sb_sched_emptied(p->sched, &p->turn, p->deficit, q);
	}
	return pkt;
}

struct sb_dp_pkt *sb_swport_pop_head(struct sb_swport *p, uint8_t prio)
{
	struct sb_dp_pkt *pkt = fifo_pop(&p->q[prio]);
	if (pkt && !p->q[prio].head)
		p->backlog &= (uint8_t)~(1u << prio);
	return pkt;
}

uint64_t sb_swport_data_bytes(const struct sb_swport *p)
{
	uint64_t b = 0;
	for (unsigned q = 0; q < SB_MMU_NPRIO; q++)
		b += p->q[q].bytes;
	return b;
}
