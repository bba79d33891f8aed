/*
 * transport.h — the transport contract. Each transport is one file exporting one
 * struct sb_transport_ops, registered by name in src/transport/registry.c.
 *
 * The simulator calls:
 *   start(fl, flow)          at flow->start: send what the window allows;
 *   on_data(fl, flow, pkt)   at the destination host, for each data packet of the flow;
 *                             the transport answers (ACK) and calls sb_flow_received()
 *                             when all bytes arrived. It must not free pkt (the caller does);
 *   on_ack(fl, flow, pkt)    at the source host, for each ACK of the flow;
 *   on_timer(fl, flow)       when the deadline set with sb_flow_arm_timer() is reached.
 * Packets are sent with sb_host_send(); they come from sb_packet_new(). (RDMA transports instead
 * hand their data packets to the NIC when it pulls them, see rdma.h.)
 */
#ifndef SB_TRANSPORT_H
#define SB_TRANSPORT_H

#include <stdbool.h>
#include "core/param.h"
#include "transport/flow.h"

struct sb_flows;
struct sb_packet;

/* How a transport frames its data on the wire. The ideal FCT of its flows (flows.csv) and the
 * path's base RTT it sees are computed from this. */
struct sb_framing {
	uint32_t payload; /* bytes of a full data packet's payload */
	uint32_t header;  /* bytes added to every data packet */
	uint32_t ack;     /* bytes of an ACK on the wire */
};

/* The priority and class a workload's flows get when its `prio` / `class` keys are left at
 * their defaults: lossless on priority 3 for transports with `lossless_by_default` (RDMA NICs
 * run with PFC: Reverie's and DSH's evaluations put RDMA on priority 3), lossy on priority 1
 * for the others (TCP, CBR). */
#define SB_DEFAULT_PRIO_LOSSLESS 3
#define SB_DEFAULT_PRIO_LOSSY 1

struct sb_transport_ops {
	const char *name;
	const char *summary;
	/* Check that flow->tx can hold the state; called once at registration time in tests. */
	size_t state_size;
	void (*start)(struct sb_flows *fl, struct sb_flow *f);
	void (*on_data)(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt);
	void (*on_ack)(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt);
	void (*on_timer)(struct sb_flows *fl, struct sb_flow *f);
	/* NULL = TCP's framing (tcp.mss, tcp.header_bytes, tcp.ack_bytes). */
	struct sb_framing (*framing)(const struct sb_flows *fl);
	/* Time from a flow's start until its first data byte may leave on an idle path (TCP's
	 * handshake), added to the ideal FCT; NULL = none. */
	sb_time (*setup_time)(const struct sb_flows *fl, uint32_t src, uint32_t dst);
	/* True while something outside the flow still refers to it by id after it completed
	 * (the RDMA NIC's scheduler, until it meets the QP): the flow is not released then, and
	 * the transport calls sb_flow_release_if_done() when the reference goes. NULL = never. */
	bool (*held)(const struct sb_flow *f);
	bool lossless_by_default;
};

static inline int sb_transport_default_prio(const struct sb_transport_ops *ops)
{
	return ops->lossless_by_default ? SB_DEFAULT_PRIO_LOSSLESS : SB_DEFAULT_PRIO_LOSSY;
}

const struct sb_transport_ops *sb_transport_find(const char *name);
const struct sb_transport_ops *const *sb_transport_all(void);
/* "dctcp|cubic|...": the registered transports, for messages (truncated to n); here, beside
 * the list, so that every layer that names a transport in a message can say which exist. */
void sb_transport_names(char *buf, size_t n);

#endif
