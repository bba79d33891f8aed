/*
 * world.h — what a running workload may do in the run, and nothing else.
 *
 * A generator asks how many hosts and racks there are and where a host sits, reads the clock,
 * schedules its next arrival, creates flows and incast queries, and reports a failure at one of
 * its keys. It does all of that through struct sb_wl_world, the layer's own context: the flows
 * (and through them the network) of the layers below, and what only the layers above know
 * (the scenario's messages and files, the queries the report keeps) as hooks their owner
 * fills. So nothing of the workload layer names the scenario or the simulation, and world.c is
 * the only file of the types that looks inside the network and the flows (filefeed.c, the file
 * type's feed, also reserves flow ids and event sequence numbers there: filefeed.h says why).
 */
#ifndef SB_WORKLOAD_WORLD_H
#define SB_WORKLOAD_WORLD_H

#include <stddef.h>
#include <stdint.h>
#include "core/event.h"
#include "core/time.h"
#include "core/util.h"
#include "transport/flow.h"
#include "workload/ops.h"

struct sb_flows;
struct sb_transport_ops;
struct sb_wl_runtime;

/* What the workloads of a run see of it. Its owner (sim/: sb_sim_build) fills every member
 * but `runtime` before sb_workloads_start. */
struct sb_wl_world {
	struct sb_flows *flows;               /* the flows, and through flows->net the network */
	const struct sb_workload *workloads;  /* the scenario's */
	size_t nworkloads;
	/* How workload `wi` places its messages and opens its files (at the scenario that set
	 * its keys): the scenario is a higher layer, so its owner says how. */
	struct sb_wl_env (*env)(const void *ctx, size_t wi);
	const void *env_ctx;
	uint64_t seed;
	sb_time arrivals_end;                 /* when every workload stops creating flows */
	/* A new incast query of `responses` responses of transport `ops`; returns its id
	 * (flow.query_id). Queries are the report's (their QCTs), which the owner keeps. */
	int32_t (*query_new)(void *ctx, uint32_t host, sb_time start, uint16_t responses, uint32_t responder,
			     uint64_t bytes, const struct sb_transport_ops *ops);
	void *query_ctx;
	struct sb_wl_runtime *runtime;        /* the generators (workload.c), NULL until started */
};

/* One workload of the run, while it runs. */
struct sb_wl_run {
	struct sb_wl_world *world;
	const struct sb_workload *cfg;
	size_t index;                         /* N of workloads.N */
	const struct sb_transport_ops *transport; /* NULL for a type whose flows name their own */
	int prio, klass;                      /* the workload's, or its transport's defaults */
	sb_time start, stop;                  /* the window in which it creates flows */
	struct sb_wl_env env;                 /* places messages at the run's scenario */
	void *state;                          /* the type's (ops->start allocates, ops->free frees) */
};

uint32_t sb_world_hosts(const struct sb_wl_world *w);
uint32_t sb_world_racks(const struct sb_wl_world *w);
uint32_t sb_world_rack_of(const struct sb_wl_world *w, uint32_t host);
/* Hosts of a rack are contiguous: rack r is hosts first .. first + count - 1. */
uint32_t sb_world_rack_first(const struct sb_wl_world *w, uint32_t rack);
uint32_t sb_world_rack_count(const struct sb_wl_world *w, uint32_t rack);
uint64_t sb_world_seed(const struct sb_wl_world *w);
/* When every workload stops creating flows (run.arrivals_ms). */
sb_time sb_world_arrivals_end(const struct sb_wl_world *w);
sb_time sb_world_now(const struct sb_wl_world *w);
void sb_world_at(struct sb_wl_world *w, sb_time when, sb_event_fn fn, void *obj);
/* A host's NIC rate, and its share of its leaf's uplinks (the NIC rate when it has none). */
double sb_world_host_bps(const struct sb_wl_world *w, uint32_t host);
double sb_world_uplink_share_bps(const struct sb_wl_world *w, uint32_t host);
/* Priorities that carry lossless traffic, which the MMUs need before the run. */
void sb_world_note_lossless(struct sb_wl_world *w, int prio);

/* A flow of r's transport, priority and class from src to dst, starting at `start`. */
struct sb_flow *sb_world_spawn(const struct sb_wl_run *r, uint32_t src, uint32_t dst, uint64_t size,
			       sb_time start, enum sb_flow_kind kind);
/* An incast query of `responses` responses of r's transport; returns its id (flow.query_id). */
int32_t sb_world_query(const struct sb_wl_run *r, uint32_t host, sb_time start, uint16_t responses,
		       uint32_t responder, uint64_t bytes);
/* "workloads.N.KEY: H is not a host (the topology has ...)" unless 0 <= h < hosts. */
int sb_world_check_host(const struct sb_wl_run *r, const char *key, int64_t h, struct sb_error *err);

#endif
