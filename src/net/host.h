/*
 * host.h — a host: a node with one port, its NIC, towards its rack's switch.
 *
 * Hosts have no MMU. What they send goes through sb_host_send() (net/net.h), which applies
 * the NIC's buffer limit and enqueues on the NIC; what reaches them is handed to the flow's
 * transport (sb_node_receive(), net/port.h). An RDMA host also has a queue-pair scheduler
 * (transport/rdma_nic.h), the pull source of its NIC.
 */
#ifndef SB_NET_HOST_H
#define SB_NET_HOST_H

#include <stdint.h>
#include "core/rng.h"
#include "net/node.h"

struct sb_rdma_nic;

struct sb_host {
	struct sb_node node;
	uint32_t index;            /* host index (flows use it) */
	uint32_t rack;             /* leaf/ToR index (single switch: 0) */
	uint64_t nic_drops;        /* data packets its NIC dropped (host.nic_buffer_bytes) */
	struct sb_rng rng;
	struct sb_rdma_nic *rdma;  /* RDMA queue-pair scheduler, made by the host's first RDMA flow */
};

#endif
