/*
 * net.h — the network: its engine, nodes, links, forwarding tables and counters.
 *
 * One struct sb_net is everything a packet meets between the host that sends it and the host
 * that receives it: the engine (clock, event queue, packet pool), the nodes with their ports,
 * the hosts and their NICs, the switches and their MMUs, the routes, PFC and the deadlock
 * detector, and the network's own counters. A switch hop never leaves net/: a packet crossing
 * a link reaches the next node through sb_node_receive (net/host.c), and only the delivery to a
 * host's transport goes up, through the one hook `deliver`, which the layer above installs
 * (the pattern of the engine's packet_gone). topo/ builds the nodes and links (topo/topo.h);
 * the simulation (sim/sim.h) composes a network with its flows and reports.
 */
#ifndef SB_NET_NET_H
#define SB_NET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/rng.h"
#include "core/time.h"
#include "engine/engine.h"
#include "net/host.h"
#include "net/node.h"
#include "net/params.h"
#include "net/pfc.h"
#include "net/port.h"
#include "net/routes.h"
#include "net/switch.h"

/* With host.nic_buffer_bytes = 0 (the default, kept so that no existing scenario's outputs
 * move; the fidelity scenarios, fidelity/ns3-reverie/, leave it there too), a flow whose path has no congested switch port
 * never sees ECN or a drop, so its window, and the backlog in its own NIC, grows without end.
 * A NIC priority queue past this many bytes is reported once per run on stderr. 4 MiB is far
 * beyond any window the papers' scenarios need (a bandwidth-delay product: 400 Gb/s x 20 us is
 * 1 MB) and above the whole shared buffer of their switches (Reverie's leaf: 2.56 MB), so a
 * queue that deep means feedback is missing, not a burst; it is small enough to be reported
 * within a few milliseconds of simulated time, before the memory it takes matters. */
#define SB_NIC_WARN_BYTES (4ull << 20)

/* What the network counts of the packets it carries (summary.json "packets", "drops", "pfc"). */
struct sb_net_stats {
	uint64_t pkts_sent;         /* by hosts (data + ACK) */
	uint64_t pkts_delivered;    /* to hosts */
	uint64_t pkts_dropped;      /* by switches, all causes */
	uint64_t pkts_dropped_lossless;
	uint64_t drops_nic;         /* data packets dropped at a full host NIC (host.nic_buffer_bytes) */
	uint64_t drops_injected;    /* packets claimed lost by net->inject (tests) */
	uint64_t packet_hops;       /* packets × links traversed (data + ACK + control) */
	uint64_t drops[SB_DROP_NCAUSES];
	uint64_t pfc_pause_frames, pfc_resume_frames;           /* queue-level, sent by switches */
	uint64_t pfc_port_pause_frames, pfc_port_resume_frames; /* port-level (DSH) */
};

struct sb_deadlock_detector;

struct sb_net {
	/* the clock, the event queue, the packets and their INT records (engine/engine.h); first,
	 * so that reaching it from the network (and from the simulation that holds the network
	 * first) costs no offset */
	struct sb_engine engine;
	uint64_t seed;             /* the run's seed: every random stream of the network derives from it */

	struct sb_node **nodes;
	uint32_t nnodes;
	struct sb_host **hosts;
	struct sb_port *host_nics;   /* [nhosts]: host h's NIC (its node's one port) is host_nics[h],
				      * one array, so that a send finds it without reading the host */
	uint32_t nhosts;
	struct sb_switch **switches;
	uint32_t nswitches;
	uint32_t nracks;
	uint32_t *rack_first, *rack_count; /* hosts of rack r: rack_first[r] .. + rack_count[r] */
	struct sb_routes routes;   /* forwarding tables by destination rack (net/routes.h) */
	struct sb_port_profile **port_profiles; /* the distinct profiles of configured ports */
	size_t nport_profiles;

	struct sb_net_stats stats;
	struct sb_pfc_record pfc;  /* frames sent and pause episodes (net/pfc.c) */
	struct sb_deadlock_detector *deadlock; /* PFC deadlock detector (net/deadlock.c), or NULL */
	const struct sb_pfc_params *pfc_params; /* the scenario's pfc group */
	sb_time stop_at;           /* end of the run: the deadlock detector looks no later */
	uint8_t lossless_prio_mask;/* priorities used by lossless workloads */
	uint32_t max_frame_bytes;  /* the largest data frame any transport sends (MMU headroom) */

	uint64_t nic_limit;        /* host.nic_buffer_bytes (0 = unlimited) */
	uint64_t nic_warn_at;      /* a NIC priority queue beyond this many bytes is reported once
				    * on stderr (SB_NIC_WARN_BYTES; UINT64_MAX with a limit, or once
				    * reported): net/host.c, sb_host_send */
	bool nic_control_fifo;     /* host.control_queue = fifo */
	sb_time send_jitter;       /* host.send_jitter_us (0 = none; applied in net/port.c) */
	struct sb_rng *send_jitter_rng; /* [nhosts] when send_jitter: a stream per host */

	/* A packet reached its destination host (not a PFC frame, which the NIC takes itself):
	 * the layer above takes it over (its transport's receive) and recycles it. Set before
	 * the first packet is sent. */
	void (*deliver)(void *ctx, struct sb_host *host, struct sb_packet *pkt);
	void *deliver_ctx;
	/* Fault injection for tests: when set, every packet a host sends is first offered to it.
	 * It may change the packet (e.g. set CE) and returns true to have it lost there (freed,
	 * counted as dropped and in stats.drops_injected). NULL in every run of the program. */
	bool (*inject)(void *ctx, struct sb_packet *pkt);
	void *inject_ctx;
};

/* Configure every host NIC from the scenario's host group (scheduler, quanta, rate, NIC
 * limit, send jitter), after the topology is built. */
void sb_net_configure_hosts(struct sb_net *net, const struct sb_host_params *p);
/* Configure every port of switch sw from the switch group (scheduler, marking, quanta). */
void sb_net_configure_switch_ports(struct sb_net *net, struct sb_switch *sw, const struct sb_switch_params *p);
/* Free what the network owns (its nodes, tables and the engine); the layer above frees what
 * it hung on the hosts (host->rdma) first. */
void sb_net_free(struct sb_net *net);

/* --- hosts (net/host.c) --- */
/* Host pkt->src sends pkt: the test hook, the NIC's limit, then the NIC's queues. */
void sb_host_send(struct sb_net *net, struct sb_packet *pkt);

/* --- path facts (net/path.c): from the topology, independent of load --- */
/* Round trip of one `data_bytes` packet and its `ack_bytes` ACK on an idle path. */
sb_time sb_path_rtt(const struct sb_net *net, uint32_t src, uint32_t dst, uint32_t data_bytes, uint32_t ack_bytes);
/* The slowest link rate on the path from src to dst. */
uint64_t sb_bottleneck_bps(const struct sb_net *net, uint32_t src, uint32_t dst);
/* One idle path's sums: propagation, serialisation of a `data_bytes` packet on the way there
 * and of an `ack_bytes` one on the way back, and the bottleneck rate. Every ECMP path of the
 * supported topologies has the same length and rates, so the first choice at every hop
 * stands for all. */
struct sb_path_sum {
	sb_time prop;
	sb_time ser_data, ser_ack;
	uint64_t bottleneck_bps;
};
struct sb_path_sum sb_path_walk(const struct sb_net *net, uint32_t src, uint32_t dst, uint32_t data_bytes,
				uint32_t ack_bytes);

#endif
