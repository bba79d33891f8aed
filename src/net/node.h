/*
 * node.h — a node of the network: a host or a switch, with its ports.
 *
 * Nodes are numbered hosts first (node id = host index), then switches (topo/topo.h). A node
 * is the first member of struct sb_host (net/host.h) and struct sb_switch (net/switch.h), so a
 * port's `node` is converted to either by its `kind`.
 */
#ifndef SB_NET_NODE_H
#define SB_NET_NODE_H

#include <stdint.h>

struct sb_net;
struct sb_port;

enum sb_node_kind { SB_NODE_HOST = 0, SB_NODE_SWITCH };

struct sb_node {
	struct sb_net *net;
	uint32_t id;           /* index in net->nodes */
	uint8_t kind;          /* enum sb_node_kind */
	uint8_t tier;          /* 0 host, 1 leaf/ToR, 2 spine/agg, 3 core */
	uint16_t nports;
	struct sb_port *ports;
	char name[16];         /* "h12", "leaf3", "spine0": at most a tier name and 5 digits */
};

#endif
