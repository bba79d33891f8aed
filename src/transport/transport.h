/*
 * transport.h — the transport contract. Each transport is one file exporting one
 * struct sb_transport_ops, registered by name in src/transport/registry.c.
 *
 * The simulator calls:
 *   start(sim, flow)          at flow->start: send what the window allows;
 *   on_data(sim, flow, pkt)   at the destination host, for each data packet of the flow;
 *                             the transport answers (ACK) and calls sb_flow_received()
 *                             when all bytes arrived. It must not free pkt (the caller does);
 *   on_ack(sim, flow, pkt)    at the source host, for each ACK of the flow;
 *   on_timer(sim, flow)       when the deadline set with sb_flow_arm_timer() is reached.
 * Packets are sent with sb_host_send(); they come from sb_packet_new().
 */
#ifndef SB_TRANSPORT_H
#define SB_TRANSPORT_H

#include "core/param.h"
#include "transport/flow.h"

struct sb_sim;
struct sb_packet;

struct sb_transport_ops {
	const char *name;
	const char *summary;
	/* Check that flow->tx can hold the state; called once at registration time in tests. */
	size_t state_size;
	void (*start)(struct sb_sim *sim, struct sb_flow *f);
	void (*on_data)(struct sb_sim *sim, struct sb_flow *f, struct sb_packet *pkt);
	void (*on_ack)(struct sb_sim *sim, struct sb_flow *f, struct sb_packet *pkt);
	void (*on_timer)(struct sb_sim *sim, struct sb_flow *f);
};

const struct sb_transport_ops *sb_transport_find(const char *name);
const struct sb_transport_ops *const *sb_transport_all(void);

#endif
