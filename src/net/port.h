/*
 * port.h — an egress port and the link it drives.
 *
 * A port owns 8 data queues (one per priority) plus a control queue that is always served
 * first and is never charged to a shared buffer (pure ACKs and PFC frames). Data queues are
 * served by strict priority (higher index first), round robin or DRR with per-priority quanta,
 * skipping priorities paused by PFC: the decisions of net/sched.h, which the software switch's
 * ports take too; this file keeps the queues, the link and the events. The link is full duplex: each direction is one port, and `peer`
 * is the port at the other end.
 *
 * Event economy: a port has at most two pending events — "transmission done" (start the next
 * packet) and "head of the link pipeline arrives at the peer". Packets on the wire wait in the
 * `wire` pipeline in arrival order (constant propagation delay keeps them ordered), so the event
 * queue never holds one event per packet in flight. The pipeline is a list through the
 * packets themselves (no ring to size or to sweep through the cache); the arrival event
 * carries its packet.
 *
 * Pull sources (host NICs running RDMA): a priority may have a source instead of, or besides,
 * its FIFO. Bit p of `pull_ready` says the source of priority p has a packet to give now; the
 * scheduler treats such a priority as backlogged and, when it selects it with an empty FIFO,
 * calls `pull` for exactly one packet, just in time for transmission. A real RDMA NIC works
 * this way: it fetches the next packet of an eligible queue pair when the link can take it,
 * so a paused priority (PFC) is simply not pulled and nothing piles up in the NIC. The source
 * sets and clears its bits itself (sb_port_pull_ready); a pull that returns NULL clears the
 * bit. Switch ports have no sources.
 */
#ifndef SB_PORT_H
#define SB_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/time.h"
#include "engine/packet.h"
#include "net/sched.h"

struct sb_node;
struct sb_net;
struct sb_port;

/* Hand over the next packet of priority `prio` for transmission now, or NULL. */
typedef struct sb_packet *(*sb_pull_fn)(struct sb_net *net, struct sb_port *port, uint8_t prio);

struct sb_fifo {
	struct sb_packet *head, *tail;
	uint64_t bytes;
	uint32_t pkts;
};

static inline void sb_fifo_push(struct sb_fifo *f, struct sb_packet *p)
{
	p->next = NULL;
	if (f->tail)
		f->tail->next = p;
	else
		f->head = p;
	f->tail = p;
	f->bytes += p->size;
	f->pkts++;
}

static inline struct sb_packet *sb_fifo_pop(struct sb_fifo *f)
{
	struct sb_packet *p = f->head;
	if (p) {
		f->head = p->next;
		if (!f->head)
			f->tail = NULL;
		f->bytes -= p->size;
		f->pkts--;
	}
	return p;
}

/* Packets in flight on a link, in arrival order, linked through p->next (a packet on the wire
 * is in no queue). Each packet holds the arrival time of the one behind it, written when that
 * one starts: scheduling the next arrival reads only the packet that just arrived. */
struct sb_wire {
	struct sb_packet *head, *tail; /* NULL, NULL when the link is empty */
};

/* Quanta of 1500 bytes, no marking: a port's profile until its node configures it. */
extern const struct sb_port_profile sb_port_profile_default;

/* Laid out by use, ports 64-byte aligned: the first line is what every transmission and
 * every arrival reads, the second what every transmission updates, the third DRR's counters;
 * the rest is read per packet only for its own priority, or rarely. */
struct sb_port {
	/* line 0: scheduling state and the link pipeline, the two facts of the node every
	 * packet needs (copies of node->net and node->kind: no line of the node per packet), and
	 * the three of the receiving end an arrival needs (copies of peer->node, ->kind, ->index:
	 * no line of the receiving port per packet; in a large network it is a cache miss) */
	_Alignas(64) struct sb_node *node;
	struct sb_node *peer_node; /* peer->node */
	sb_time busy_until;       /* end of the current transmission */
	struct sb_wire wire;      /* packets on the link, ordered by arrival time */
	struct sb_net *net;
	uint8_t node_kind;        /* enum sb_node_kind of `node` */
	bool kick_pending;        /* a "transmission done" event is scheduled */
	uint8_t backlog;          /* bit p set = q[p] non-empty (fast scheduler scan) */
	uint8_t pull_ready;       /* bit p set = the pull source of priority p has a packet now */
	uint8_t paused;           /* PFC: bit p set = priority p may not be served */
	bool port_paused;         /* port-level PFC (DSH): no data queue may be served */
	uint8_t sched;            /* SB_SCHED_SP / SB_SCHED_DRR / SB_SCHED_RR */
	struct sb_sched_turn turn;/* DRR, RR: whose turn it is (net/sched.h) */
	uint16_t index;           /* port index within its node */
	uint16_t peer_index;      /* peer->index */
	uint8_t peer_kind;        /* peer->node_kind */

	/* line 1: the control queue and what each transmission reads and adds up */
	struct sb_fifo ctrl;
	uint64_t ps_per_byte;     /* serialisation per byte when exact in ps (0: use rate_bps) */
	sb_time delay;            /* propagation delay of the link */
	const struct sb_port_profile *profile; /* quanta and marking, shared (never NULL) */
	uint64_t tx_bytes;

	/* line 2: DRR's counters (read only while a queue holds credit: turn.credited), then what
	 * is read rarely */
	int32_t deficit[SB_NPRIO];
	sb_time busy_time;        /* serialisation time so far, only when ps_per_byte is 0: see
				   * sb_port_busy_time() */
	uint64_t rate_bps;
	sb_pull_fn pull;          /* the pull source (host NICs with RDMA flows), else NULL */
	struct sb_port *peer;     /* the other end of the link (its facts an arrival needs are
				   * in line 0: peer_node, peer_kind, peer_index) */

	struct sb_fifo q[SB_NPRIO]; /* two per line */

	/* PFC, as the upstream (net/pfc.c): pause timers in quanta mode, paused time per priority */
	uint8_t pfc_effective;    /* priorities currently paused (per priority or port-wide) */
	sb_time pause_expiry[SB_NPRIO + 1]; /* quanta mode: per priority, then port-level */
	sb_time pause_since[SB_NPRIO];
	sb_time paused_total[SB_NPRIO];     /* closed episodes only; see sb_pfc_paused_time() */
	uint32_t pause_episodes[SB_NPRIO];
	uint8_t deadlock_reported;/* priorities already reported on a deadlocked cycle */
	/* PFC, as the sender of frames out of this port (its node's ingress for the peer) */
	uint8_t pfc_asserted;     /* priorities this side has paused and not resumed */
	bool pfc_port_asserted;
	bool pfc_refresh_pending; /* quanta mode: a refresh is scheduled */

	/* statistics */
	uint64_t pause_rx, resume_rx;
	sb_time last_arrive;      /* host NICs with send jitter: when the newest packet on the
				   * wire arrives (the next may not overtake it) */
};
_Static_assert(offsetof(struct sb_port, ctrl) == 64, "port: line 0 is the scheduling state");
_Static_assert(offsetof(struct sb_port, deficit) == 128, "port: line 1 is the transmission state");
_Static_assert(offsetof(struct sb_port, q) == 192, "port: queues start on a line");

/* Data queues that may be served now: backlogged (or with a ready pull source), and paused
 * neither per priority nor port-wide. */
static inline uint8_t sb_port_eligible(const struct sb_port *port)
{
	return sb_sched_eligible((uint8_t)(port->backlog | port->pull_ready), port->paused, port->port_paused);
}

/* Time the link has spent serialising so far. With a whole number of picoseconds per byte
 * (the usual rates) it follows from the bytes sent, so transmissions do not add it up in a
 * line of their own. */
static inline sb_time sb_port_busy_time(const struct sb_port *port)
{
	return port->ps_per_byte ? port->tx_bytes * port->ps_per_byte : port->busy_time;
}

/* Set the link rate this port sends at (bits/s, > 0), with its exact picoseconds per byte
 * when the rate divides 8e12 (all the usual rates). */
static inline void sb_port_set_rate(struct sb_port *port, uint64_t rate_bps)
{
	port->rate_bps = rate_bps;
	port->ps_per_byte = (8 * SB_SEC) % rate_bps == 0 ? 8 * SB_SEC / rate_bps : 0;
}

/* Queue a packet for transmission: the data queue `pkt->prio` or the control queue, as its
 * lane says. */
void sb_port_enqueue(struct sb_net *net, struct sb_port *port, struct sb_packet *pkt);
/* Queue a packet in the data queue `pkt->prio` whatever its lane: a host NIC with one FIFO per
 * priority for everything its stack sends (host.control_queue = fifo). Never on a switch port,
 * whose data FIFOs hold only what its MMU admitted. */
void sb_port_enqueue_fifo(struct sb_net *net, struct sb_port *port, struct sb_packet *pkt);
/* Start the next transmission if the port is idle and something is eligible. */
void sb_port_kick(struct sb_net *net, struct sb_port *port);
/* Deliver a packet that crossed the link of `from` (the sending port) to the node at its other
 * end, which `from` names in its first line (peer_node, peer_kind, peer_index). */
void sb_node_receive(struct sb_net *net, const struct sb_port *from, struct sb_packet *pkt);
/* The pull source of priority `prio` has a packet (ready = true) or has none left: set or
 * clear its bit, and start a transmission if the port is idle. */
void sb_port_pull_ready(struct sb_net *net, struct sb_port *port, uint8_t prio, bool ready);
/* Remove the head packet of data queue prio (for head drop); NULL if empty. */
struct sb_packet *sb_port_pop_head(struct sb_port *port, uint8_t prio);

#endif
