/*
 * swport.c — FIFOs and the scheduler of a software switch port.
 */
#include "dataplane/swport.h"

#include <string.h>
#include "scenario/scenario.h"

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
	memcpy(p->quantum, quantum, sizeof(p->quantum));
	memcpy(p->ecn, ecn, sizeof(p->ecn));
	p->ecn_at_dequeue = ecn_at_dequeue;
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

/* The next queue by strict priority (highest index first), round robin or DRR; the port has a
 * backlog. Mirrors select_packet() of src/net/port.c with nothing paused and no pull source. */
static unsigned pick_queue(struct sb_swport *p)
{
	uint8_t backlog = p->backlog;
	if (p->sched == SB_SCHED_SP)
		return 31u - (unsigned)__builtin_clz(backlog);
	if (p->sched == SB_SCHED_RR) {
		unsigned from = p->drr_next;
		unsigned rot = ((unsigned)backlog >> from | (unsigned)backlog << (SB_MMU_NPRIO - from)) & 0xffu;
		unsigned q = (from + (unsigned)__builtin_ctz(rot)) & (SB_MMU_NPRIO - 1);
		p->drr_next = (uint8_t)((q + 1) & (SB_MMU_NPRIO - 1));
		return q;
	}
	for (;;) {
		unsigned q = p->drr_next;
		if (backlog & (1u << q)) {
			if (!p->drr_turn) {
				p->deficit[q] += (int32_t)p->quantum[q];
				p->drr_turn = 1;
			}
			if ((int32_t)p->q[q].head->len <= p->deficit[q]) {
				p->deficit[q] -= (int32_t)p->q[q].head->len;
				return q;
			}
		} else {
			p->deficit[q] = 0; /* an empty queue the turn passes loses its credit */
		}
		p->drr_next = (uint8_t)((q + 1) & (SB_MMU_NPRIO - 1));
		p->drr_turn = 0;
	}
}

struct sb_dp_pkt *sb_swport_select(struct sb_swport *p)
{
	if (p->ctrl.head)
		return fifo_pop(&p->ctrl);
	if (!p->backlog)
		return NULL;
	unsigned q = pick_queue(p);
	struct sb_dp_pkt *pkt = fifo_pop(&p->q[q]);
	if (!p->q[q].head) {
		p->backlog &= (uint8_t)~(1u << q);
		if (p->sched == SB_SCHED_DRR) {
			p->deficit[q] = 0;
			p->drr_next = (uint8_t)((q + 1) & (SB_MMU_NPRIO - 1));
			p->drr_turn = 0;
		}
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
