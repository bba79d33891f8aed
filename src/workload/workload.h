/*
 * workload.h — traffic generators. Each workload of the scenario becomes flows:
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

#include "sim/sim.h"
#include "workload/cdf.h"

int sb_workloads_start(struct sb_sim *sim, struct sb_error *err);
void sb_workloads_free(struct sb_sim *sim);

/* The CDF of workload `wi` (poisson, or incast with `cdf`): a built-in by name, else the file
 * as sb_scenario_path finds it; errors are placed at workloads.N.cdf. */
int sb_workload_load_cdf(const struct sb_scenario *sc, size_t wi, struct sb_cdf *c, struct sb_error *err);
/* The flow list of file workload `wi`, as sb_scenario_path finds it (malloc'd). */
char *sb_workload_flow_path(const struct sb_scenario *sc, size_t wi);

/* Offered bits per second per host for a poisson workload (load × reference capacity). */
double sb_workload_offered_bps(const struct sb_sim *sim, const struct sb_workload *wl, uint32_t host);

#endif
