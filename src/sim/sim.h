/*
 * sim.h — the simulation: a network, its flows, its workloads and its reports, composed.
 *
 * One struct sb_sim holds the network (net/net.h: the engine, the nodes, the network's
 * counters) first, the flows (transport/flows.h: the flow table and the transports'
 * counters), the workload generators, and what the run reports: the finished flows' records
 * and flow log, the queries, the report streams and the occupancy sink, which it keeps
 * through the flows' observer. There is no global state: tests can run several simulations
 * side by side.
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
#include "scenario/scenario.h"
#include "transport/flow.h"
#include "transport/flows.h"
#include "transport/transport.h"
#include "workload/world.h"

struct sb_query {
	sb_time start;
	uint32_t host;           /* who asked */
	uint32_t responder;      /* one of the responders (for the ideal QCT's path) */
	uint64_t bytes;          /* total response bytes */
	uint16_t responses, done;
	const struct sb_transport_ops *ops; /* of the responses: their framing and completion point set the ideal QCT */
	sb_time last_finish;
};

struct sb_occupancy_sink;
struct sb_report_streams;

struct sb_sim {
	/* the network: engine, nodes, routes, counters (net/net.h); first, so that the engine
	 * (the network's first member) is reached from the simulation at no offset */
	struct sb_net net;
	const struct sb_scenario *sc;
	uint64_t seed;

	/* the flows: their table, lifecycle and counters (transport/flows.h) */
	struct sb_flows flows;
	/* Keep finished flows' records in `records` when flows.keep_finished is set (tests that
	 * inspect them after the run set it between sb_sim_build and sb_sim_run). A program run
	 * leaves it false: a finished flow's row goes to flows.csv as it completes (report.h,
	 * sb_report_stream) and its slot is reused, so memory follows the flows in flight. */
	struct sb_flow_result *records;
	size_t nrecords, records_cap;
	struct sb_flowlog *flowlog; /* finished flows: compact statistics, streamed rows (flowlog.h) */

	struct sb_query *queries;
	size_t nqueries, queries_cap;

	sb_time stop_at;           /* duration */
	sb_time arrivals_end;
	struct sb_occupancy_sink *occ;
	struct sb_report_streams *streams; /* outputs written as the run goes (report.h), or NULL */
	/* what the workloads see of the run, their generators included (workload/world.h):
	 * sb_sim_build fills it, its query hook is sb_query_new's */
	struct sb_wl_world wl;
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

int32_t sb_query_new(struct sb_sim *sim, uint32_t host, sb_time start, uint16_t responses,
		     uint32_t responder, uint64_t bytes);

/* The largest data frame any transport of the scenario puts on the wire (headroom formulas):
 * the larger of TCP's (tcp.mss + tcp.header_bytes) and RDMA's (rdma.mtu + rdma.header_bytes). */
uint32_t sb_sim_max_frame_bytes(const struct sb_sim *sim);
/* The same from the scenario alone: sb_scenario_max_frame_bytes (scenario/scenario.h). */

#endif
