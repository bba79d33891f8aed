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

struct sb_wl_world;

/* Start every workload of w->workloads (its transport, priority and class, then its type's
 * start), their generators in w->runtime (workload/world.h says what the owner fills). */
int sb_workloads_start(struct sb_wl_world *w, struct sb_error *err);
/* Free the generators; safe when none were started. */
void sb_workloads_free(struct sb_wl_world *w);

/* Offered bits per second of `host` for a workload that offers a load (poisson: load × the
 * reference capacity); 0 for the others. */
double sb_workload_offered_bps(const struct sb_wl_world *w, const struct sb_workload *wl, uint32_t host);

#endif
