/*
 * host.c — what a host's NIC does with the packets its host sends and receives.
 *
 * A send goes through the test hook and the NIC's limit into the NIC port's queues; an
 * arrival at the end of a link goes to the switch there, or to the host: a PFC frame the NIC
 * obeys itself, everything else goes up to the host's transport through net->deliver.
 */
#include "net/net.h"

#include <stdio.h>
#include "net/pfc.h"
#include "net/switch.h"

/* Once per run (then nic_warn_at is raised out of reach): the first NIC queue, with no
 * host.nic_buffer_bytes, that holds more than SB_NIC_WARN_BYTES. Its flow sees no congestion
 * signal on its path, and the simulation's memory grows with the queue. */
static void nic_warn(struct sb_net *net, uint64_t bytes, uint32_t src, uint32_t dst, uint32_t flow, uint8_t prio)
{
	net->nic_warn_at = UINT64_MAX;
	fprintf(stderr,
		"sharebuf: warning: at %.3f ms host %u's NIC holds %llu B of priority %u (flow %u, host %u -> %u), "
		"more than %llu B: host.nic_buffer_bytes = 0 sets no limit, so a flow that "
		"meets no congested switch port sees neither ECN nor loss; set host.nic_buffer_bytes to bound it "
		"(reported once per run)\n",
		sb_time_to_us(sb_now(&net->engine)) / 1e3, src, (unsigned long long)bytes, prio, flow, src, dst,
		(unsigned long long)SB_NIC_WARN_BYTES);
}

void sb_host_send(struct sb_net *net, struct sb_packet *pkt)
{
	struct sb_port *nic = &net->host_nics[pkt->src];
	net->stats.pkts_sent++;
	if (net->inject && net->inject(net->inject_ctx, pkt)) {
		net->stats.drops_injected++;
		net->stats.pkts_dropped++;
		sb_packet_free(&net->engine, pkt);
		return;
	}
	if (net->nic_limit && pkt->type == SB_PKT_DATA) {
		uint64_t queued = 0;
		for (int q = 0; q < SB_NPRIO; q++)
			queued += nic->q[q].bytes;
		if (queued + pkt->size > net->nic_limit) {
			net->stats.drops_nic++;
			net->hosts[pkt->src]->nic_drops++;
			net->stats.pkts_dropped++;
			if (pkt->flags & SB_PF_LOSSLESS)
				net->stats.pkts_dropped_lossless++;
			sb_packet_free(&net->engine, pkt);
			return;
		}
	}
	uint8_t prio = pkt->prio;
	uint32_t flow = pkt->flow, src = pkt->src, dst = pkt->dst;
	if (net->nic_control_fifo)
		sb_port_enqueue_fifo(net, nic, pkt); /* one FIFO per priority for all the host sends */
	else
		sb_port_enqueue(net, nic, pkt);
	/* one compare, on the counter the enqueue has just written (SB_NIC_WARN_BYTES) */
	if (nic->q[prio].bytes > net->nic_warn_at)
		nic_warn(net, nic->q[prio].bytes, src, dst, flow, prio);
}

static void host_receive(struct sb_net *net, struct sb_node *host, uint16_t in_index, struct sb_packet *pkt)
{
	if (pkt->type == SB_PKT_PFC) {
		sb_pfc_receive(net, &host->ports[in_index], pkt);
		return;
	}
	net->stats.pkts_delivered++;
	net->deliver(net->deliver_ctx, (struct sb_host *)host, pkt);
}

void sb_node_receive(struct sb_net *net, const struct sb_port *from, struct sb_packet *pkt)
{
	if (from->peer_kind == SB_NODE_SWITCH)
		sb_switch_receive(net, (struct sb_switch *)from->peer_node, from->peer_index, pkt);
	else
		host_receive(net, from->peer_node, from->peer_index, pkt);
}

