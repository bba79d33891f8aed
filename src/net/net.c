/*
 * net.c — configuring the network's ports from the scenario, and freeing the network.
 */
#include "net/net.h"

#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "net/deadlock.h"
#include "net/sched.h"

/* The shared copy of a port profile: ports of equal configuration get the same one. */
static const struct sb_port_profile *intern_profile(struct sb_net *net, const struct sb_port_profile *profile)
{
	for (size_t i = 0; i < net->nport_profiles; i++)
		if (!memcmp(net->port_profiles[i], profile, sizeof(*profile)))
			return net->port_profiles[i];
	net->port_profiles = sb_xrealloc(net->port_profiles, (net->nport_profiles + 1) * sizeof(*net->port_profiles));
	struct sb_port_profile *copy = sb_xmalloc(sizeof(*copy));
	memcpy(copy, profile, sizeof(*copy));
	return net->port_profiles[net->nport_profiles++] = copy;
}

static void set_quanta(struct sb_port_profile *profile, const double weight[SB_NPRIO], double quantum_bytes)
{
	for (int q = 0; q < SB_NPRIO; q++)
		profile->quantum[q] = sb_sched_quantum(weight[q], quantum_bytes);
}

static void configure_nic(struct sb_net *net, struct sb_host *h, const struct sb_host_params *p)
{
	struct sb_port *nic = &h->node.ports[0];
	nic->sched = (uint8_t)p->sched;
	struct sb_port_profile profile;
	memset(&profile, 0, sizeof(profile)); /* padding too: profiles are compared with memcmp */
	set_quanta(&profile, p->drr_weight, (double)p->drr_quantum_bytes);
	nic->profile = intern_profile(net, &profile);
	if (p->nic_rate_gbps > 0)
		sb_port_set_rate(nic, (uint64_t)(p->nic_rate_gbps * 1e9 + 0.5));
}

void sb_net_configure_switch_ports(struct sb_net *net, struct sb_switch *sw, const struct sb_switch_params *p)
{
	for (uint16_t i = 0; i < sw->node.nports; i++) {
		struct sb_port *port = &sw->node.ports[i];
		port->sched = (uint8_t)p->sched;
		struct sb_port_profile profile;
		memset(&profile, 0, sizeof(profile)); /* padding too: profiles are compared with memcmp */
		profile.ecn_at_dequeue = p->ecn_at == SB_ECN_AT_DEQUEUE;
		sb_switch_port_tables(p, port->rate_bps, profile.ecn, profile.quantum);
		port->profile = intern_profile(net, &profile);
	}
}

void sb_net_configure_hosts(struct sb_net *net, const struct sb_host_params *p)
{
	net->nic_limit = (uint64_t)p->nic_buffer_bytes;
	net->nic_warn_at = net->nic_limit ? UINT64_MAX : SB_NIC_WARN_BYTES;
	net->nic_control_fifo = p->control_queue == SB_NIC_CONTROL_FIFO;
	net->send_jitter = sb_time_from_us(p->send_jitter_us);
	if (net->send_jitter) {
		net->send_jitter_rng = sb_xcalloc(net->nhosts, sizeof *net->send_jitter_rng);
		for (uint32_t h = 0; h < net->nhosts; h++)
			sb_rng_init(&net->send_jitter_rng[h], net->seed, SB_STREAM_NIC + h);
	}
	for (uint32_t h = 0; h < net->nhosts; h++)
		configure_nic(net, net->hosts[h], p);
}

void sb_net_free(struct sb_net *net)
{
	sb_deadlock_free(net->deadlock);
	sb_pfc_record_free(&net->pfc);
	for (uint32_t i = 0; i < net->nnodes; i++) {
		struct sb_node *n = net->nodes[i];
		if (n->kind == SB_NODE_SWITCH) {
			sb_switch_free((struct sb_switch *)n);
			free(n->ports); /* a host's port is in host_nics */
		}
		free(n);
	}
	free(net->nodes);
	free(net->host_nics);
	free(net->send_jitter_rng);
	sb_routes_free(&net->routes);
	for (size_t i = 0; i < net->nport_profiles; i++)
		free(net->port_profiles[i]);
	free(net->port_profiles);
	free(net->rack_first);
	free(net->rack_count);
	free(net->hosts);
	free(net->switches);
	sb_engine_free(&net->engine);
}
