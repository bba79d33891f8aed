/*
 * path.c — path facts: what the topology alone says of the path between two hosts.
 */
#include "net/net.h"

struct sb_path_sum sb_path_walk(const struct sb_net *net, uint32_t src, uint32_t dst, uint32_t data_bytes,
				uint32_t ack_bytes)
{
	struct sb_path_sum s = { 0, 0, 0, UINT64_MAX };
	const struct sb_port *p = &net->hosts[src]->node.ports[0];
	for (int hop = 0; hop < 64; hop++) {
		s.prop += p->delay;
		s.ser_data += sb_tx_time(data_bytes, p->rate_bps);
		s.ser_ack += sb_tx_time(ack_bytes, p->peer->rate_bps);
		if (p->rate_bps < s.bottleneck_bps)
			s.bottleneck_bps = p->rate_bps;
		const struct sb_node *n = p->peer->node;
		if (n->kind == SB_NODE_HOST)
			break;
		const struct sb_switch *sw = (const struct sb_switch *)n;
		uint16_t first = 0;
		sb_route_group(&net->routes, &sw->route, dst, &first, 1);
		p = &sw->node.ports[first];
	}
	return s;
}

sb_time sb_path_rtt(const struct sb_net *net, uint32_t src, uint32_t dst, uint32_t data_bytes, uint32_t ack_bytes)
{
	struct sb_path_sum s = sb_path_walk(net, src, dst, data_bytes, ack_bytes);
	return 2 * s.prop + s.ser_data + s.ser_ack;
}

uint64_t sb_bottleneck_bps(const struct sb_net *net, uint32_t src, uint32_t dst)
{
	return sb_path_walk(net, src, dst, 0, 0).bottleneck_bps;
}
