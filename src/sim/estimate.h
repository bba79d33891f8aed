/*
 * estimate.h — the memory a run will take, estimated from the scenario before anything is
 * built, and the refusal of a run that would take more than run.max_memory_mb.
 *
 * Without it a scenario of 10^6 hosts, a 10^7-row flow list or `duration_ms = 1e7` with
 * traffic allocated until the machine killed the process. The estimate adds up what grows with
 * the scenario (docs/scenario.md, "Memory"):
 *   network    hosts, switches, their ports and MMU counters;
 *   forwarding every switch's ECMP table: a row of an entry per rack, shared by switches
 *              whose rows are equal, and the hop distances the build uses (net/routes.h);
 *   flows      the flows in flight at once (a flow's slot, sizeof(struct sb_flow) ≈ 3.2 KB,
 *              and its start event, reused once it finished: transport/flow_table.h) and 9 bytes
 *              per flow of the run (its slowdown, sim/flowlog.h). Flows of the run: the srcs
 *              of longlived, burst and cbr workloads, a flow list's lines, and the expected
 *              arrivals of poisson (hosts × load × rate / 8 / mean size × window) and incast
 *              (receivers × query_rate × window × fanin) workloads. In flight: every srcs
 *              flow; for poisson and incast a processor-sharing queue's load / (1 − load)
 *              flows per host (receiver) plus one, capped at load 0.95, and the excess
 *              arrivals of a load above 1; for a flow list the most flows starting within
 *              1 ms of each other (every line, and the lines themselves, when the list is
 *              not in start order);
 *   samples    per throughput.csv row (run.sample_hosts) 32 bytes, kept until the end
 *              (an occupancy sample costs none: its row is streamed to occupancy.csv, its
 *              bytes go to an order-statistics file, core/spill.h);
 *   packets    the first windows flows hand their NICs (whole flows with full_window) beyond
 *              what the NICs can send on during the run, at least those of one query per
 *              receiver or of a burst; what a cbr source faster than its link leaves in its
 *              NIC; what one full switch buffer holds (congestion fills a hot spot's buffer,
 *              hardly every buffer at once);
 *   scheme     what the scheme allocates per MMU beyond its counters (sb_bm_ops.state_bytes:
 *              the flow tables of fab and ib, table_slots).
 * It is an estimate, close to the measured peak (docs/scenario.md §6 gives figures), not a
 * bound: packets of windows that grow after the first and the PFC log are not counted.
 */
#ifndef SB_ESTIMATE_H
#define SB_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>
#include "core/util.h"
#include "scenario/scenario.h"

enum { SB_MEM_NETWORK, SB_MEM_FORWARDING, SB_MEM_FLOWS, SB_MEM_SAMPLES, SB_MEM_PACKETS, SB_MEM_SCHEME, SB_MEM_NPARTS };

struct sb_mem_part {
	double bytes;
	char key[96];     /* the key to change to make this part smaller */
	char what[200];   /* what it is made of, for the message */
};

struct sb_mem_estimate {
	struct sb_mem_part part[SB_MEM_NPARTS];
	double total;          /* bytes */
	double flows;          /* flows of the run */
	double in_flight;      /* of them at once (their slots) */
	double start_events;   /* events pending once the network is built (flows created up front) */
	double limit;          /* bytes: run.max_memory_mb, or the automatic limit */
	bool limit_auto;
};

/* The automatic limit (run.max_memory_mb = 0): half the physical memory, at most 8 GiB. */
double sb_memory_limit_auto(void);

/* Estimate the memory of a run of `sc` (validated). Reads the CDFs and counts the lines of the
 * flow lists the workloads name; a file it cannot read counts as empty (building the
 * workloads reports it). */
void sb_estimate_memory(const struct sb_scenario *sc, struct sb_mem_estimate *e);

/* Refuse a run whose estimate is above the limit, or that would hold more events at once than
 * the event queue can: -1 with "PLACE: KEY: ..." naming the estimate and the key to change. */
int sb_check_memory(const struct sb_scenario *sc, struct sb_error *err);

#endif
