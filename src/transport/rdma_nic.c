/*
 * rdma_nic.c — the RDMA NIC's queue-pair scheduler (see rdma_nic.h).
 *
 * Invariants, per (host, priority) scheduler:
 *   - a QP is in at most one of the ring and the heap, and `where` says which (BUSY while a
 *     pull is building its packet, IDLE when in neither);
 *   - a QP in the ring can start a packet whenever the port next selects the priority: its
 *     next_send was at most the port's busy_until when it entered, and the port selects no
 *     earlier than that;
 *   - pull_ready of the priority is set only while the ring may be non-empty; when the ring
 *     is empty and the heap is not, the timer is armed for the heap's minimum.
 */
#include "transport/rdma_nic.h"

#include <stdlib.h>
#include "core/util.h"
#include "transport/flows.h"
#include "transport/rdma.h"

#define NO_QP UINT32_MAX

struct paced {
	sb_time at;    /* next_send of the QP */
	uint32_t flow;
};

struct qp_sched {
	struct sb_flows *fl;
	struct sb_port *port;
	uint8_t prio;
	uint32_t ring_head, ring_tail;   /* flow ids, NO_QP = empty */
	struct paced *heap;
	uint32_t heap_len, heap_cap;
	sb_time timer_at;                /* when the scheduler wants to wake, SB_TIME_NEVER = never */
	sb_time timer_scheduled;         /* the earliest pending wake-up event */
};

struct sb_rdma_nic {
	struct qp_sched sched[SB_NPRIO];
};

static inline struct sb_rdma_qp *qp_at(struct sb_flows *fl, uint32_t id) { return sb_rdma_qp_of(sb_flow_get(fl, id)); }

/* --- the ready ring: a FIFO threaded through qp->link --- */

static void ring_push(struct qp_sched *s, uint32_t id, struct sb_rdma_qp *qp)
{
	qp->where = SB_QP_READY;
	qp->link = NO_QP;
	if (s->ring_tail == NO_QP)
		s->ring_head = id;
	else
		qp_at(s->fl, s->ring_tail)->link = id;
	s->ring_tail = id;
}

static uint32_t ring_pop(struct qp_sched *s)
{
	uint32_t id = s->ring_head;
	if (id == NO_QP)
		return NO_QP;
	struct sb_rdma_qp *qp = qp_at(s->fl, id);
	s->ring_head = qp->link;
	if (s->ring_head == NO_QP)
		s->ring_tail = NO_QP;
	qp->where = SB_QP_BUSY;
	return id;
}

/* --- the paced heap: a binary min-heap on (at, flow); qp->link is the QP's index --- */

static inline bool before(const struct paced *a, const struct paced *b)
{
	return a->at < b->at || (a->at == b->at && a->flow < b->flow);
}

static inline void heap_place(struct qp_sched *s, uint32_t i, struct paced e)
{
	s->heap[i] = e;
	qp_at(s->fl, e.flow)->link = i;
}

static void heap_sift_up(struct qp_sched *s, uint32_t i)
{
	struct paced e = s->heap[i];
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!before(&e, &s->heap[parent]))
			break;
		heap_place(s, i, s->heap[parent]);
		i = parent;
	}
	heap_place(s, i, e);
}

static void heap_sift_down(struct qp_sched *s, uint32_t i)
{
	struct paced e = s->heap[i];
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= s->heap_len)
			break;
		if (c + 1 < s->heap_len && before(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!before(&s->heap[c], &e))
			break;
		heap_place(s, i, s->heap[c]);
		i = c;
	}
	heap_place(s, i, e);
}

static void heap_push(struct qp_sched *s, uint32_t id, struct sb_rdma_qp *qp)
{
	if (s->heap_len == s->heap_cap) {
		s->heap_cap = s->heap_cap ? s->heap_cap * 2 : 64;
		s->heap = sb_xrealloc(s->heap, s->heap_cap * sizeof(*s->heap));
	}
	qp->where = SB_QP_PACED;
	s->heap[s->heap_len] = (struct paced){ qp->next_send, id };
	heap_sift_up(s, s->heap_len++);
}

static uint32_t heap_pop(struct qp_sched *s)
{
	uint32_t id = s->heap[0].flow;
	if (--s->heap_len) {
		heap_place(s, 0, s->heap[s->heap_len]);
		heap_sift_down(s, 0);
	}
	qp_at(s->fl, id)->where = SB_QP_BUSY;
	return id;
}

/* --- scheduling --- */

static void sched_timer(void *obj, uint64_t arg);

/* Wake at the earliest paced QP (nothing if the heap is empty). Like flow timers: no cancel,
 * a later deadline is re-armed lazily when the earlier event fires. */
static void arm(struct qp_sched *s)
{
	s->timer_at = s->heap_len ? s->heap[0].at : SB_TIME_NEVER;
	/* A QP can be overdue: its deadline passed while the priority was paused and nothing
	 * pulled. Wake now then, never in the past (the clock must not run backwards). */
	sb_time now = sb_now(&s->fl->net->engine);
	sb_time wake = s->timer_at > now ? s->timer_at : now;
	if (wake < s->timer_scheduled) {
		s->timer_scheduled = wake;
		sb_at(&s->fl->net->engine, wake, sched_timer, s, 0);
	}
}

/* Put a QP that just sent, or that was met in the heap, where it belongs from time `free_at`
 * (when the link can next take a packet). */
static void place(struct qp_sched *s, uint32_t id, struct sb_rdma_qp *qp, sb_time free_at)
{
	struct sb_flow *f = sb_flow_get(s->fl, id);
	if (!sb_rdma_sendable(f, qp)) {
		qp->where = SB_QP_IDLE;
		sb_flow_release_if_done(s->fl, f); /* the scheduler held the last reference */
	} else if (qp->next_send <= free_at)
		ring_push(s, id, qp);
	else
		heap_push(s, id, qp);
}

/* Move the QPs whose rate lets them send by `t` from the heap to the ring. */
static void release_due(struct qp_sched *s, sb_time t)
{
	while (s->heap_len && s->heap[0].at <= t) {
		uint32_t id = heap_pop(s);
		place(s, id, qp_at(s->fl, id), t);
	}
}

static inline sb_time link_free_at(const struct sb_port *port, sb_time now)
{
	return port->busy_until > now ? port->busy_until : now;
}

/* After the heap changed outside a pull: release what is due and tell the port, or sleep
 * until the next QP is due. */
static void reschedule(struct qp_sched *s)
{
	release_due(s, link_free_at(s->port, sb_now(&s->fl->net->engine)));
	if (s->ring_head != NO_QP)
		sb_port_pull_ready(s->fl->net, s->port, s->prio, true);
	arm(s);
}

static void sched_timer(void *obj, uint64_t arg)
{
	struct qp_sched *s = obj;
	(void)arg;
	sb_time now = sb_now(&s->fl->net->engine);
	if (s->timer_scheduled != now)
		return; /* stale: an earlier wake-up replaced this one */
	s->timer_scheduled = SB_TIME_NEVER;
	if (s->timer_at == SB_TIME_NEVER)
		return;
	if (s->timer_at > now) {
		s->timer_scheduled = s->timer_at;
		sb_at(&s->fl->net->engine, s->timer_at, sched_timer, s, 0);
		return;
	}
	reschedule(s);
}

/* The port's pull source (net/port.h): the next packet of priority `prio`, just in time. */
static struct sb_packet *nic_pull(struct sb_net *net, struct sb_port *port, uint8_t prio)
{
	struct qp_sched *s = &((struct sb_host *)port->node)->rdma->sched[prio];
	struct sb_flows *fl = s->fl; /* the flows' owner; net is its network */
	sb_time now = sb_now(&fl->net->engine);
	release_due(s, now);
	uint32_t id;
	while ((id = ring_pop(s)) != NO_QP) {
		struct sb_flow *f = sb_flow_get(fl, id);
		struct sb_rdma_qp *qp = sb_rdma_qp_of(f);
		if (!sb_rdma_sendable(f, qp)) {
			qp->where = SB_QP_IDLE; /* lazy removal: completed, or out of window */
			sb_flow_release_if_done(fl, f);
			continue;
		}
		if (qp->next_send > now) {
			heap_push(s, id, qp); /* its rate was lowered while it waited in the ring */
			continue;
		}
		struct sb_packet *p = sb_rdma_next_packet(fl, f, qp);
		sb_time free_at = now + (port->ps_per_byte ? (sb_time)p->size * port->ps_per_byte
							    : sb_tx_time(p->size, port->rate_bps));
		place(s, id, qp, free_at);
		release_due(s, free_at);
		if (s->ring_head == NO_QP) {
			sb_port_pull_ready(fl->net, port, prio, false);
			arm(s);
		}
		return p;
	}
	arm(s);
	return NULL; /* the port clears the priority's bit */
}

static struct qp_sched *sched_of(struct sb_flows *fl, struct sb_flow *f)
{
	struct sb_host *h = fl->net->hosts[f->src];
	if (!h->rdma) {
		h->rdma = sb_xcalloc(1, sizeof(*h->rdma));
		struct sb_port *nic = &h->node.ports[0];
		for (uint8_t p = 0; p < SB_NPRIO; p++) {
			struct qp_sched *s = &h->rdma->sched[p];
			s->fl = fl;
			s->port = nic;
			s->prio = p;
			s->ring_head = s->ring_tail = NO_QP;
			s->timer_at = s->timer_scheduled = SB_TIME_NEVER;
		}
		nic->pull = nic_pull;
	}
	return &h->rdma->sched[f->prio];
}

void sb_rdma_nic_activate(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	if (qp->where != SB_QP_IDLE || !sb_rdma_sendable(f, qp))
		return;
	struct qp_sched *s = sched_of(fl, f);
	if (qp->next_send <= link_free_at(s->port, sb_now(&fl->net->engine))) {
		ring_push(s, f->id, qp);
		sb_port_pull_ready(fl->net, s->port, s->prio, true);
	} else {
		heap_push(s, f->id, qp);
		arm(s);
	}
}

void sb_rdma_nic_repace(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	if (qp->where != SB_QP_PACED)
		return; /* the ring and a pull re-check next_send when they serve the QP */
	struct qp_sched *s = sched_of(fl, f);
	uint32_t i = qp->link;
	s->heap[i].at = qp->next_send;
	heap_sift_up(s, i);
	heap_sift_down(s, qp->link);
	reschedule(s);
}

void sb_rdma_nic_free(struct sb_rdma_nic *nic)
{
	if (!nic)
		return;
	for (int p = 0; p < SB_NPRIO; p++)
		free(nic->sched[p].heap);
	free(nic);
}
