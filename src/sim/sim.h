/*
 * sim.h — the simulation context and the services the network, transports and workloads use.
 *
 * One struct sb_sim owns an engine (engine/engine.h: the clock, the event queue, the packet
 * pool), every node and flow, and the result counters. There is no global state: tests can
 * run several simulations side by side.
 */
#ifndef SB_SIM_H
#define SB_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/rng.h"
#include "engine/engine.h"
#include "mmu/mmu.h"
#include "net/net.h"
#include "sim/flow_table.h"
#include "sim/scenario.h"
#include "transport/flow.h"
#include "transport/transport.h"

/* A finished flow, as reported in flows.csv. */
struct sb_flow_result {
	uint32_t id, src, dst;
	uint64_t size;
	uint8_t prio, lossless, kind;
	int32_t query_id;
	sb_time start, fct, ideal;
	sb_time rx_fct;          /* start until the receiver had every byte (≤ fct) */
};

struct sb_query {
	sb_time start;
	uint32_t host;           /* who asked */
	uint32_t responder;      /* one of the responders (for the ideal QCT's path) */
	uint64_t bytes;          /* total response bytes */
	uint16_t responses, done;
	const struct sb_transport_ops *ops; /* of the responses: their framing and completion point set the ideal QCT */
	sb_time last_finish;
};

/* What the transports count (the network's counters are net->stats, net/net.h). */
struct sb_stats {
	uint64_t rdma_nacks, rdma_cnps; /* sent by RDMA receivers */
	uint64_t flows_started, flows_completed;
	/* TCP senders' loss events, summed over flows; each beside the Linux counter (nstat)
	 * it matches, so that a run compares with real hosts (summary.json "tcp") */
	struct sb_tcp_counters {
		uint64_t timeouts;            /* TcpExtTCPTimeouts: every RTO, SYN ones included */
		uint64_t timeouts_in_recovery;/* TcpExtTCPSackRecoveryFail: RTO in fast recovery */
		uint64_t timeouts_sacked;     /* TcpExtTCPSackFailures: RTO outside recovery, data SACKed */
		uint64_t timeouts_repeated;   /* TcpExtTCPLossFailures: RTO after an RTO, no progress */
		uint64_t syn_retransmits;     /* TcpExtTCPSynRetrans */
		uint64_t recoveries;          /* TcpExtTCPSackRecovery (+ TCPRenoRecovery): fast recoveries */
		uint64_t loss_probes;         /* TcpExtTCPLossProbes */
		uint64_t loss_probe_repairs;  /* TcpExtTCPLossProbeRecovery: a probe repaired a loss */
		uint64_t retransmitted_segments; /* TcpRetransSegs */
		uint64_t lost_retransmits;    /* TcpExtTCPLostRetransmit: retransmissions RACK found lost */
		uint64_t pure_acks;           /* TcpExtTCPPureAcks + TCPHPAcks: ACKs without data the senders took in */
		uint64_t delivered;           /* TcpExtTCPDelivered: data segments delivered, each once */
		uint64_t ofo_segments;        /* TcpExtTCPOFOQueue: segments a receiver held out of order */
		uint64_t acks_compressed;     /* TcpExtTCPAckCompressed: ACKs SACK compression withheld */
	} tcp;
};

struct sb_occupancy_sink;
struct sb_report_streams;
struct sb_wl_runtime;

struct sb_sim {
	/* the network: engine, nodes, routes, counters (net/net.h); first, so that the engine
	 * (the network's first member) is reached from the simulation at no offset */
	struct sb_net net;
	const struct sb_scenario *sc;
	uint64_t seed;

	/* flows: a slot each while in flight, released once finished (flow_table.h, flows.c) */
	struct sb_flow_table flows;
	/* Keep finished flows in the table and their records in `records` (tests that inspect
	 * them after the run set it between sb_sim_build and sb_sim_run). A program run leaves it
	 * false: a finished flow's row goes to flows.csv as it completes (report.h,
	 * sb_report_stream) and its slot is reused, so memory follows the flows in flight. */
	bool keep_finished;
	struct sb_flow_result *records;
	size_t nrecords, records_cap;
	struct sb_flowlog *flowlog; /* finished flows: compact statistics, streamed rows (flowlog.h) */

	struct sb_query *queries;
	size_t nqueries, queries_cap;

	struct sb_stats stats;
	sb_time stop_at;           /* duration */
	sb_time arrivals_end;
	struct sb_occupancy_sink *occ;
	struct sb_report_streams *streams; /* outputs written as the run goes (report.h), or NULL */
	struct sb_wl_runtime *wl;  /* workload generators (workload.c) */
	/* Planning only (src/load, the testbed's load generator): when set, a flow that starts is
	 * handed to it instead of to its transport, so running the engine yields the workloads'
	 * flows (times, sizes, hosts, queries) exactly as a run would start them, and no packet.
	 * NULL in every run of the simulator. */
	void (*plan)(void *ctx, struct sb_sim *sim, struct sb_flow *f);
	void *plan_ctx;
};

/* --- lifecycle --- */
/* Build topology, switches (MMUs), hosts and workload generators from a validated scenario.
 * The scenario must outlive the simulation. -1 + err on impossible combinations. */
int sb_sim_build(struct sb_sim *sim, const struct sb_scenario *sc, struct sb_error *err);
/* Run until the event queue drains or sc->run.duration_ms is reached. */
void sb_sim_run(struct sb_sim *sim);
void sb_sim_free(struct sb_sim *sim);
/* Check conservation: every packet sent by a host was delivered, dropped, or is still in a
 * queue / on a link; all MMU invariants hold. 0 or -1 + err. */
int sb_sim_check(struct sb_sim *sim, struct sb_error *err);

/* --- packets: their lifecycle is the engine's (engine/engine.h); their flows' accounting --- */
/* One packet of flow `id` less in the network (the engine's packet_gone hook, and the hosts). */
void sb_flow_packet_gone(struct sb_sim *sim, uint32_t id);
void sb_flow_packet_gone_of(struct sb_sim *sim, struct sb_flow *f);

/* --- hosts and flows --- */
/* The flow of `id`, or NULL once it was released (finished and unreachable; flow_table.h). */
static inline struct sb_flow *sb_flow_get(struct sb_sim *sim, uint32_t id)
{
	return sb_flow_table_get(&sim->flows, id);
}
/* Release f if it has completed and nothing can reach it any more: no packet of it exists,
 * it wants no timer, and its transport holds no reference (ops->held). Called where one of
 * these may have just become true; does nothing when sim->keep_finished is set. */
void sb_flow_release_if_done(struct sb_sim *sim, struct sb_flow *f);
/* Create a flow starting at `start`; its transport's start() runs then. */
struct sb_flow *sb_flow_create(struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t size,
			       sb_time start, const struct sb_transport_ops *ops);
/* The same for an id reserved with sb_flow_table_reserve(&sim->flows, n), without scheduling
 * its start: the caller starts it at `start` with sb_flow_start() (the file workload). */
struct sb_flow *sb_flow_create_reserved(struct sb_sim *sim, uint32_t id, uint32_t src, uint32_t dst, uint64_t size,
					sb_time start, const struct sb_transport_ops *ops);
/* Start flow f now: its transport's start(). */
void sb_flow_start(struct sb_sim *sim, struct sb_flow *f);
void sb_flow_arm_timer(struct sb_sim *sim, struct sb_flow *f, sb_time at);
/* A data packet of flow f carrying payload bytes [seq, seq + payload) with `header` bytes of
 * overhead, stamped now, with the flow's addressing, priority and class flags (ECT, lossless,
 * first RTT when seq < first_rtt_end). The transport adds its own flags and sends it. Counts
 * the packet in f->in_network (so does sb_flow_control_packet). */
struct sb_packet *sb_flow_data_packet(struct sb_sim *sim, struct sb_flow *f, uint64_t seq,
				      uint32_t payload, uint32_t header, uint64_t first_rtt_end);
/* A control packet of flow f (an ACK, NACK, CNP or SYN; no payload) of `size` bytes in `lane`,
 * from the receiver to the sender (`to_sender`) or the other way, with the flow's hash,
 * priority and lossless flag; its time stamp and other flags are the transport's. */
struct sb_packet *sb_flow_control_packet(struct sb_sim *sim, struct sb_flow *f, uint8_t type, uint64_t seq,
					 uint32_t size, uint8_t lane, bool to_sender);
/* Called by the transport at the receiver when every byte has arrived. A transport without
 * ACKs (on_ack == NULL) completes here; otherwise the flow completes when its sender receives
 * an ACK covering the last byte (the simulator checks after on_ack), so FCT includes the
 * return path, like the papers' "base RTT + size / rate" ideal. */
void sb_flow_received(struct sb_sim *sim, struct sb_flow *f);
/* Flow f completed at `when` (not the engine's clock): its flows.csv record, FCT statistics
 * and query, as a simulated completion has them. For flows timed outside the engine (the
 * testbed's load generator measures real sockets); `rx_when` is when every byte arrived. */
void sb_flow_complete_at(struct sb_sim *sim, struct sb_flow *f, sb_time when, sb_time rx_when);
int32_t sb_query_new(struct sb_sim *sim, uint32_t host, sb_time start, uint16_t responses,
		     uint32_t responder, uint64_t bytes);

/* The largest data frame any transport of the scenario puts on the wire (headroom formulas):
 * the larger of TCP's (tcp.mss + tcp.header_bytes) and RDMA's (rdma.mtu + rdma.header_bytes). */
uint32_t sb_sim_max_frame_bytes(const struct sb_sim *sim);
/* The same from the scenario alone (the software switch has no world). */
uint32_t sb_scenario_max_frame_bytes(const struct sb_scenario *sc);

/* Path facts (net/net.h: sb_path_rtt, sb_bottleneck_bps, on sim->net). */
/* sb_path_rtt with TCP's ACK size (tcp.ack_bytes). */
sb_time sb_base_rtt(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint32_t pkt_bytes);
sb_time sb_ideal_fct(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t size);
/* The same without the ACK's way back: the ideal of transports that complete at the receiver
 * (no ACKs, e.g. cbr). It still counts one header per tcp.mss of payload, so a CBR flow of
 * packets larger than mss + header_bytes can come in slightly below it. */
sb_time sb_ideal_fct_oneway(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t size);
/* The framing of a transport (its own, or TCP's when it has no framing hook). */
struct sb_framing sb_transport_framing(const struct sb_sim *sim, const struct sb_transport_ops *ops);
/* The ideal FCT of a flow of `ops`: sb_ideal_fct (or _oneway for a transport without ACKs)
 * computed with the transport's framing (ops NULL: TCP's). flows.csv and the ideal QCT use it. */
sb_time sb_transport_ideal_fct(const struct sb_sim *sim, const struct sb_transport_ops *ops, uint32_t src,
			       uint32_t dst, uint64_t size);

#endif
