/*
 * workload.h — the scenario's workloads becoming flows. Each workload type is one file behind
 * struct sb_workload_ops (workload/ops.h, the registry in registry.c):
 *   poisson    background flows, sizes from a CDF, Poisson arrivals per host at a given load
 *   incast     query/response: each host queries `fanin` responders at a Poisson rate; every
 *              responder answers size_bytes/fanin at once; QCT = slowest response
 *   longlived  one unbounded (or size_bytes) flow from every host of `srcs` to `dst`
 *   burst      one flow of size_bytes from every host of `srcs` to `dst` at start_ms
 *   cbr        constant-bit-rate unresponsive flows from `srcs` to `dst`
 *   file       flows listed in a CSV file (docs/workloads.md)
 * Generators create flows lazily (one pending arrival event per host and workload), so a long
 * run does not hold every future flow in memory.
 */
#ifndef SB_WORKLOAD_H
#define SB_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "core/util.h"
#include "workload/ops.h"

struct sb_sim;
struct sb_scenario;

/* Start every workload of sim->sc (its transport, priority and class, then its type's start). */
int sb_workloads_start(struct sb_sim *sim, struct sb_error *err);
void sb_workloads_free(struct sb_sim *sim);

/* The flow list of file workload `wi`, as sb_scenario_path finds it (malloc'd). */
char *sb_workload_flow_path(const struct sb_scenario *sc, size_t wi);

/* Offered bits per second of `host` for a workload that offers a load (poisson: load × the
 * reference capacity); 0 for the others. */
double sb_workload_offered_bps(const struct sb_sim *sim, const struct sb_workload *wl, uint32_t host);

#endif
