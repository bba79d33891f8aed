/*
 * switch.h — an output-queued shared-buffer switch: forwarding (shortest paths, per-flow ECMP),
 * MMU admission, ECN marking and PFC frame generation. The MMU decides; the switch moves
 * packets.
 */
#ifndef SB_SWITCH_H
#define SB_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/rng.h"
#include "engine/packet.h"
#include "mmu/mmu.h"
#include "net/node.h"
#include "net/port.h"
#include "net/routes.h"

struct sb_error;
struct sb_net;
struct sb_switch_params;

/* 64-byte aligned: the first line holds what every packet reads (the ports, the route), the
 * second what a data packet adds (its MMU); a control packet touches one line. */
struct sb_switch {
	_Alignas(64) struct sb_node node;
	struct sb_route_view route; /* forwarding: its row of net->routes (net/routes.h) */
	/* Its MMU when it has one (switch.mmu_ports = 0, the usual case), else NULL: admission
	 * and release then read this line only, not mmus[] and mmu_of_port[] (sb_switch_mmu) */
	struct sb_mmu *only_mmu;
	struct sb_mmu **mmus;      /* one per group of ports */
	uint16_t *mmu_of_port;     /* egress port -> MMU holding its packets */
	uint16_t nmmus;
	uint32_t index;            /* index in net->switches */
	struct sb_rng rng;         /* ECN marking draws */
	uint64_t drops[SB_DROP_NCAUSES];
};

_Static_assert(offsetof(struct sb_switch, only_mmu) + sizeof(struct sb_mmu *) <= 64,
	       "a switch's ports, route and MMU share its first line");

/* The MMU that holds the packets of egress port `port`. */
static inline struct sb_mmu *sb_switch_mmu(const struct sb_switch *sw, uint16_t port)
{
	return sw->only_mmu ? sw->only_mmu : sw->mmus[sw->mmu_of_port[port]];
}

/* One MMU of the switch named `who` with configuration cfg and environment env, started;
 * NULL + err on bad parameters. The layer that knows the scheme's parameters (the scenario:
 * scenario/scenario_mmu.h) provides it, so the network names no scheme parameter. */
typedef struct sb_mmu *(*sb_mmu_maker_fn)(void *ctx, const struct sb_mmu_config *cfg, const struct sb_mmu_env *env,
					  const char *who, struct sb_error *err);
/* Create the switch's MMUs (after its ports are wired) with make(make_ctx, ...), one per
 * group of switch.mmu_ports ports; -1 + err on a bad configuration. */
int sb_switch_init_mmus(struct sb_net *net, struct sb_switch *sw, const struct sb_switch_params *p,
			sb_mmu_maker_fn make, void *make_ctx, struct sb_error *err);
void sb_switch_free(struct sb_switch *sw);

void sb_switch_receive(struct sb_net *net, struct sb_switch *sw, uint16_t in_index, struct sb_packet *pkt);
/* A data packet starts transmission on `port`: release its buffer, mark ECN at dequeue, append
 * an INT hop if it carries a record (engine/telemetry.h). */
void sb_switch_on_dequeue(struct sb_net *net, struct sb_switch *sw, struct sb_port *port, struct sb_packet *pkt);

/* Buffer of a whole switch in bytes whose ports run at rate_bps[0..nports-1]: as configured
 * (switch.buffer_bytes) or derived from its ports (switch.buffer_per_port_per_gbps). */
uint64_t sb_switch_buffer_for_rates(const struct sb_switch_params *p, const uint64_t *rate_bps, uint16_t nports);

/* A switch port's marking table and DRR quanta (one per priority) from the scenario's switch
 * group, for a port of rate rate_bps (thresholds scaled by switch.ecn_ref_gbps). The simulator
 * and the software switch (src/dataplane/) build their ports with it. */
void sb_switch_port_tables(const struct sb_switch_params *p, uint64_t rate_bps, struct sb_ecn_cfg ecn[SB_NPRIO],
			   uint32_t quantum[SB_NPRIO]);

#endif
