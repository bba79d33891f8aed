/*
 * flows.h — the flows of a run: their table, their lifecycle, and what the transports count.
 *
 * One struct sb_flows is the transport layer's context: the flow table (flow_table.h), the
 * network the flows' packets travel (net/net.h), the TCP and RDMA parameters, the transport
 * counters, and the hooks of the layer above. Every transport op (transport.h) receives it.
 * A flow is created (sb_flow_create), started at its start time (its transport's start()),
 * fed the packets the network delivers to its hosts (sb_flows_deliver, the network's
 * `deliver` hook), timed (sb_flow_arm_timer), completed when its sender knows the last byte
 * arrived, and released once nothing can reach it (sb_flow_release_if_done).
 *
 * Completion is reported up through an observer (struct sb_flow_observer) that the layer
 * above installs (the simulation's flow records, flow log, queries and report, sim/sim.c):
 * the transport layer names no report and no query.
 */
#ifndef SB_TRANSPORT_FLOWS_H
#define SB_TRANSPORT_FLOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/time.h"
#include "net/net.h"
#include "transport/flow.h"
#include "transport/flow_table.h"
#include "transport/params.h"
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

/* What the transports count (the network's counters are net->stats, net/net.h). */
struct sb_flow_stats {
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

/* The layer above's view of the flows' lives; any hook may be NULL. */
struct sb_flow_observer {
	void (*created)(void *ctx, struct sb_flow *f);
	/* f completed; r is its flows.csv record (the flow is released after, if it can be) */
	void (*completed)(void *ctx, struct sb_flow *f, const struct sb_flow_result *r);
	void (*released)(void *ctx, struct sb_flow *f); /* f's slot is about to be reused */
	void *ctx;
};

struct sb_flows {
	struct sb_net *net;                /* where the flows' packets go */
	const struct sb_tcp_params *tcp;   /* the scenario's tcp group */
	const struct sb_rdma_params *rdma; /* the scenario's rdma group */
	uint64_t seed;                     /* the run's seed (the flows' ECMP hashes) */
	/* a slot each while in flight, released once finished (flow_table.h) */
	struct sb_flow_table table;
	/* Keep finished flows in the table (tests that inspect them after the run set it between
	 * sb_sim_build and sb_sim_run). A program run leaves it false: a finished flow's slot
	 * is reused, so memory follows the flows in flight. */
	bool keep_finished;
	struct sb_flow_stats stats;
	struct sb_flow_observer obs;
	/* Planning only (src/load, the testbed's load generator): when set, a flow that starts is
	 * handed to it instead of to its transport, so running the engine yields the workloads'
	 * flows (times, sizes, hosts, queries) exactly as a run would start them, and no packet.
	 * NULL in every run of the simulator. */
	void (*plan)(void *ctx, struct sb_flows *fl, struct sb_flow *f);
	void *plan_ctx;
};

/* The network's delivery hook (net->deliver, ctx = the struct sb_flows): a packet reached a
 * host; its flow's transport takes it, then it is recycled. */
void sb_flows_deliver(void *ctx, struct sb_host *host, struct sb_packet *pkt);
/* The engine's packet_gone hook (ctx = the struct sb_flows): a freed packet of flow `id` is
 * one less in the network. */
void sb_flows_packet_gone(void *ctx, uint32_t id);
void sb_flows_free(struct sb_flows *fl);

/* --- packets: their lifecycle is the engine's (engine/engine.h); their flows' accounting --- */
/* One packet of flow `id` less in the network (the engine's packet_gone hook, and the hosts). */
void sb_flow_packet_gone(struct sb_flows *fl, uint32_t id);
void sb_flow_packet_gone_of(struct sb_flows *fl, struct sb_flow *f);

/* --- flows --- */
/* The flow of `id`, or NULL once it was released (finished and unreachable; flow_table.h). */
static inline struct sb_flow *sb_flow_get(struct sb_flows *fl, uint32_t id)
{
	return sb_flow_table_get(&fl->table, id);
}
/* Release f if it has completed and nothing can reach it any more: no packet of it exists,
 * it wants no timer, and its transport holds no reference (ops->held). Called where one of
 * these may have just become true; does nothing when fl->keep_finished is set. */
void sb_flow_release_if_done(struct sb_flows *fl, struct sb_flow *f);
/* Create a flow starting at `start`; its transport's start() runs then. */
struct sb_flow *sb_flow_create(struct sb_flows *fl, uint32_t src, uint32_t dst, uint64_t size,
			       sb_time start, const struct sb_transport_ops *ops);
/* The same for an id reserved with sb_flow_table_reserve(&fl->table, n), without scheduling
 * its start: the caller starts it at `start` with sb_flow_start() (the file workload). */
struct sb_flow *sb_flow_create_reserved(struct sb_flows *fl, uint32_t id, uint32_t src, uint32_t dst, uint64_t size,
					sb_time start, const struct sb_transport_ops *ops);
/* Start flow f now: its transport's start(). */
void sb_flow_start(struct sb_flows *fl, struct sb_flow *f);
void sb_flow_arm_timer(struct sb_flows *fl, struct sb_flow *f, sb_time at);
/* A data packet of flow f carrying payload bytes [seq, seq + payload) with `header` bytes of
 * overhead, stamped now, with the flow's addressing, priority and class flags (ECT, lossless,
 * first RTT when seq < first_rtt_end). The transport adds its own flags and sends it. Counts
 * the packet in f->in_network (so does sb_flow_control_packet). */
struct sb_packet *sb_flow_data_packet(struct sb_flows *fl, struct sb_flow *f, uint64_t seq,
				      uint32_t payload, uint32_t header, uint64_t first_rtt_end);
/* A control packet of flow f (an ACK, NACK, CNP or SYN; no payload) of `size` bytes in `lane`,
 * from the receiver to the sender (`to_sender`) or the other way, with the flow's hash,
 * priority and lossless flag; its time stamp and other flags are the transport's. */
struct sb_packet *sb_flow_control_packet(struct sb_flows *fl, struct sb_flow *f, uint8_t type, uint64_t seq,
					 uint32_t size, uint8_t lane, bool to_sender);
/* Called by the transport at the receiver when every byte has arrived. A transport without
 * ACKs (on_ack == NULL) completes here; otherwise the flow completes when its sender receives
 * an ACK covering the last byte (checked after on_ack), so FCT includes the return path, like
 * the papers' "base RTT + size / rate" ideal. */
void sb_flow_received(struct sb_flows *fl, struct sb_flow *f);
/* Flow f completed at `when` (not the engine's clock): its record goes to the observer, as a
 * simulated completion has it. For flows timed outside the engine (the testbed's load
 * generator measures real sockets); `rx_when` is when every byte arrived. */
void sb_flow_complete_at(struct sb_flows *fl, struct sb_flow *f, sb_time when, sb_time rx_when);

/* --- ideal FCT and framing (transport/ideal.c) --- */
/* sb_path_rtt with TCP's ACK size (tcp.ack_bytes). */
sb_time sb_base_rtt(const struct sb_flows *fl, uint32_t src, uint32_t dst, uint32_t pkt_bytes);
sb_time sb_ideal_fct(const struct sb_flows *fl, uint32_t src, uint32_t dst, uint64_t size);
/* The same without the ACK's way back: the ideal of transports that complete at the receiver
 * (no ACKs, e.g. cbr). It still counts one header per tcp.mss of payload, so a CBR flow of
 * packets larger than mss + header_bytes can come in slightly below it. */
sb_time sb_ideal_fct_oneway(const struct sb_flows *fl, uint32_t src, uint32_t dst, uint64_t size);
/* The framing of a transport (its own, or TCP's when it has no framing hook). */
struct sb_framing sb_transport_framing(const struct sb_flows *fl, const struct sb_transport_ops *ops);
/* The ideal FCT of a flow of `ops`: sb_ideal_fct (or _oneway for a transport without ACKs)
 * computed with the transport's framing (ops NULL: TCP's). flows.csv and the ideal QCT use it. */
sb_time sb_transport_ideal_fct(const struct sb_flows *fl, const struct sb_transport_ops *ops, uint32_t src,
			       uint32_t dst, uint64_t size);

#endif
