/*
 * port.c — egress scheduling, serialisation and the link pipeline.
 */
#include "net/port.h"

#include "core/rng.h"
#include "net/net.h"
#include "net/switch.h"

/* Pull one packet from the source of priority q into its FIFO. NULL when there is nothing
 * after all: the source's bit is then cleared, so the scheduler cannot spin on it. */
static struct sb_packet *pull_one(struct sb_net *net, struct sb_port *port, unsigned q)
{
	uint8_t bit = (uint8_t)(1u << q);
	struct sb_packet *h = port->pull(net, port, (uint8_t)q);
	if (!h) {
		port->pull_ready &= (uint8_t)~bit;
		return NULL;
	}
	sb_fifo_push(&port->q[q], h);
	port->backlog |= bit;
	return h;
}

/* The head of data queue q, pulling from the priority's source when the FIFO is empty and the
 * source is ready. Inline: a switch port never pulls, so this is one load and a test there. */
static inline struct sb_packet *queue_head(struct sb_net *net, struct sb_port *port, unsigned q)
{
	struct sb_packet *h = port->q[q].head;
	if (h || !(port->pull_ready & (1u << q)))
		return h;
	return pull_one(net, port, q);
}

/* The scheduler's view of data queue q's head (sb_sched_head_fn), pulling from the priority's
 * source when the FIFO is empty and the source is ready. */
struct head_ctx {
	struct sb_net *net;
	struct sb_port *port;
};

static inline bool head_size(void *ctx, unsigned q, uint32_t *size)
{
	struct head_ctx *c = ctx;
	struct sb_packet *h = queue_head(c->net, c->port, q);
	if (!h)
		return false;
	*size = h->size;
	return true;
}

/* Pick the next packet: control queue first, then the scheduler (net/sched.h) over the data
 * queues that are backlogged (or have a ready pull source) and not paused. */
static struct sb_packet *select_packet(struct sb_net *net, struct sb_port *port)
{
	if (port->ctrl.head)
		return sb_fifo_pop(&port->ctrl);
	struct head_ctx ctx = { net, port };
	int sel = sb_sched_next(port->sched, &port->turn, port->deficit, port->profile->quantum, sb_port_eligible(port),
				(uint8_t)(port->backlog | port->pull_ready), head_size, &ctx);
	if (sel < 0)
		return NULL;
	unsigned q = (unsigned)sel;
	struct sb_packet *p = sb_fifo_pop(&port->q[q]);
	/* The new head is read at the next transmission, one serialisation from now: start
	 * fetching it (a queued packet has usually left the cache). */
	__builtin_prefetch(port->q[q].head);
	if (!port->q[q].head) {
		port->backlog &= (uint8_t)~(1u << q);
		if (!(port->pull_ready & (1u << q)))
			sb_sched_emptied(port->sched, &port->turn, port->deficit, q);
	}
	return p;
}

const struct sb_port_profile sb_port_profile_default = {
	.quantum = { 1500, 1500, 1500, 1500, 1500, 1500, 1500, 1500 },
};

static void link_arrive(void *obj, uint64_t arg);

static void tx_done(void *obj, uint64_t arg)
{
	struct sb_port *port = obj;
	(void)arg;
	port->kick_pending = false;
	sb_port_kick(port->net, port);
}

/* A host's packet arrives up to host.send_jitter_us late (net.h), behind the one before it. */
static sb_time jittered_arrival(struct sb_net *net, struct sb_port *port, sb_time arrive)
{
	uint32_t host = (uint32_t)(port - net->host_nics);
	arrive += (sb_time)sb_rng_below(&net->send_jitter_rng[host], (uint64_t)net->send_jitter + 1);
	if (port->wire.tail && arrive < port->last_arrive)
		arrive = port->last_arrive;
	port->last_arrive = arrive;
	return arrive;
}

/* Put p on the wire now; the port is idle. */
static inline void transmit(struct sb_net *net, struct sb_port *port, struct sb_packet *p, sb_time now)
{
	sb_time ser;
	if (port->ps_per_byte) {
		ser = (sb_time)p->size * port->ps_per_byte;
	} else {
		ser = sb_tx_time(p->size, port->rate_bps);
		port->busy_time += ser; /* see sb_port_busy_time() */
	}
	sb_time end = now + ser;
	/* The port is busy from here on: anything the dequeue hook sends out of this port (a PFC
	 * frame, say) waits for the end of this packet instead of starting in parallel. */
	port->busy_until = end;
	if (p->lane == SB_LANE_DATA && port->node_kind == SB_NODE_SWITCH)
		sb_switch_on_dequeue(net, (struct sb_switch *)port->node, port, p);

	port->tx_bytes += p->size;
	if (p->type != SB_PKT_PFC)
		net->stats.packet_hops++;
	struct sb_wire *w = &port->wire;
	sb_time arrive = end + port->delay;
	if (port->node_kind == SB_NODE_HOST && net->send_jitter)
		arrive = jittered_arrival(net, port, arrive);
	p->next = NULL;
	if (w->tail) {
		w->tail->next = p;
		w->tail->t_next_arrive = arrive;
	} else {
		w->head = p;
		sb_at(&net->engine, arrive, link_arrive, port, (uint64_t)(uintptr_t)p);
	}
	w->tail = p;
	/* Only schedule the next start if something is waiting; an idle port needs no event. */
	if (!port->kick_pending && (port->ctrl.head || sb_port_eligible(port))) {
		port->kick_pending = true;
		sb_at(&net->engine, end, tx_done, port, 0);
	}
}

void sb_port_kick(struct sb_net *net, struct sb_port *port)
{
	sb_time now = sb_now(&net->engine);
	if (now < port->busy_until) {
		/* Still serialising: come back when the wire is free. */
		if (!port->kick_pending) {
			port->kick_pending = true;
			sb_at(&net->engine, port->busy_until, tx_done, port, 0);
		}
		return;
	}
	struct sb_packet *p = select_packet(net, port);
	if (p)
		transmit(net, port, p, now);
}

/* The head of the link pipeline arrives. The event carries the packet, and the packet the
 * time of the next arrival, so only lines needed anyway are touched. */
static void link_arrive(void *obj, uint64_t arg)
{
	struct sb_packet *p = (struct sb_packet *)(uintptr_t)arg;
	struct sb_port *port = obj;
	struct sb_net *net = port->net;
	struct sb_wire *w = &port->wire;
	w->head = p->next;
	if (w->head) {
		/* it arrives one serialisation from now, after two microseconds on the wire */
		__builtin_prefetch(w->head);
		sb_at(&net->engine, p->t_next_arrive, link_arrive, port, (uint64_t)(uintptr_t)w->head);
	} else
		w->tail = NULL;
	sb_node_receive(net, port, p);
}

/* A PFC frame overtakes the ACKs waiting in the control queue (MAC control frames go first on
 * real ports): otherwise a burst of ACKs would delay the PAUSE beyond what headroom formulas
 * budget for. Frames keep their order among themselves. */
static void ctrl_push_pfc(struct sb_fifo *ctrl, struct sb_packet *pkt)
{
	struct sb_packet **at = &ctrl->head;
	while (*at && (*at)->type == SB_PKT_PFC)
		at = &(*at)->next;
	pkt->next = *at;
	*at = pkt;
	if (!pkt->next)
		ctrl->tail = pkt;
	ctrl->bytes += pkt->size;
	ctrl->pkts++;
}

/* Queue pkt in a data FIFO (`data`) or the control queue. */
static inline void enqueue(struct sb_net *net, struct sb_port *port, struct sb_packet *pkt, bool data)
{
	sb_time now = sb_now(&net->engine);
	if (!port->kick_pending && now >= port->busy_until && !port->ctrl.head) {
		/* The port is idle and nothing is ahead of this packet: send it at once, without the
		 * queue and the scheduler (most packets of a lightly loaded fabric go this way). A
		 * control packet goes first anyway; a data packet only if no other queue holds or
		 * may pull anything and its priority is not paused. */
		if (!data) {
			transmit(net, port, pkt, now);
			return;
		}
		if (!(port->backlog | port->pull_ready) &&
		    sb_sched_eligible((uint8_t)(1u << pkt->prio), port->paused, port->port_paused)) {
			sb_sched_alone(port->sched, &port->turn, port->deficit, port->profile->quantum, pkt->prio,
				       pkt->size);
			transmit(net, port, pkt, now);
			return;
		}
	}
	if (data) {
		sb_fifo_push(&port->q[pkt->prio], pkt);
		port->backlog |= (uint8_t)(1u << pkt->prio);
		if ((port->paused & (1u << pkt->prio)) || port->port_paused)
			return;
	} else if (pkt->type == SB_PKT_PFC) {
		ctrl_push_pfc(&port->ctrl, pkt);
	} else {
		sb_fifo_push(&port->ctrl, pkt);
	}
	if (!port->kick_pending)
		sb_port_kick(net, port);
}

void sb_port_enqueue(struct sb_net *net, struct sb_port *port, struct sb_packet *pkt)
{
	enqueue(net, port, pkt, pkt->lane == SB_LANE_DATA);
}

void sb_port_enqueue_fifo(struct sb_net *net, struct sb_port *port, struct sb_packet *pkt)
{
	enqueue(net, port, pkt, true);
}

void sb_port_pull_ready(struct sb_net *net, struct sb_port *port, uint8_t prio, bool ready)
{
	uint8_t bit = (uint8_t)(1u << prio);
	if (!ready) {
		port->pull_ready &= (uint8_t)~bit;
		return;
	}
	port->pull_ready |= bit;
	if (!port->kick_pending && !((port->paused & bit) || port->port_paused))
		sb_port_kick(net, port);
}

struct sb_packet *sb_port_pop_head(struct sb_port *port, uint8_t prio)
{
	struct sb_packet *p = sb_fifo_pop(&port->q[prio]);
	if (!port->q[prio].head)
		port->backlog &= (uint8_t)~(1u << prio);
	return p;
}
