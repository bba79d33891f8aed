/*
 * types.h — the built-in workload types: their parameter structs and their ops.
 *
 * The scenario reader and the generic code see a workload only as struct sb_workload and its
 * ops (workload/ops.h). This header is for the few that read one type's keys by name: each
 * type's own file, the load generator (cbr sources become iperf3 streams) and tests. A struct
 * field is a key of its type's table (the table, in the type's file, gives its default, range
 * and documentation).
 */
#ifndef SB_WORKLOAD_TYPES_H
#define SB_WORKLOAD_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include "core/param.h"
#include "workload/ops.h"

enum { SB_LOAD_HOST = 0, SB_LOAD_UPLINK };
enum { SB_DEST_ANY = 0, SB_DEST_OTHER_RACK, SB_DEST_NEXT_RACK };
extern const char *const sb_dest_names[]; /* by SB_DEST_*, as scenarios spell them */
enum { SB_RESP_NEXT_RACK = 0, SB_RESP_RANDOM_RACK, SB_RESP_ANY, SB_RESP_MIRROR_RACK };
extern const char *const sb_responders_names[]; /* by SB_RESP_*, as scenarios spell them */

/* poisson: background flows, sizes from a CDF, Poisson arrivals per host at a load. */
struct sb_wl_poisson {
	struct sb_workload_common c;
	char *cdf;                /* built-in name or path */
	double load;
	int load_ref;             /* SB_LOAD_* */
	int dest;                 /* SB_DEST_* */
};

/* incast: each receiver queries `fanin` responders at a Poisson rate; QCT = slowest response. */
struct sb_wl_incast {
	struct sb_workload_common c;
	double query_rate;        /* queries per second per host */
	int64_t fanin;
	int64_t fanin_min;        /* fan-in uniform in fanin_min..fanin (0 = always fanin) */
	struct sb_int_list receivers; /* hosts that query (empty = every host) */
	bool sync;                /* one process: every receiver queries at each event */
	int64_t size_bytes;       /* total response */
	char *cdf;                /* response sizes ("" = size_bytes split) */
	int responders;           /* SB_RESP_* */
	bool full_window;         /* responses sent in one window (initial cwnd = response size) */
};

/* The sources and destination of longlived, burst and cbr. */
struct sb_wl_endpoints {
	struct sb_int_list srcs;
	int64_t dst;
	int64_t size_bytes;       /* per source; longlived and cbr: 0 = unlimited */
};

/* longlived: one unbounded (or size_bytes) flow from every host of `srcs` to `dst`. */
struct sb_wl_longlived {
	struct sb_workload_common c;
	struct sb_wl_endpoints ep;
};

/* burst: one flow of size_bytes from every host of `srcs` to `dst` at start_ms. */
struct sb_wl_burst {
	struct sb_workload_common c;
	struct sb_wl_endpoints ep;
	bool full_window;
};

/* cbr: constant-bit-rate unresponsive flows from `srcs` to `dst`. */
struct sb_wl_cbr {
	struct sb_workload_common c;
	struct sb_wl_endpoints ep;
	double rate_gbps;
	int64_t packet_bytes;
};

/* file: the flows listed in a CSV file (docs/workloads.md). */
struct sb_wl_file {
	struct sb_workload_common c; /* start_ms only: the offset of every start of the file */
	char *path;
};

extern const struct sb_workload_ops sb_workload_poisson, sb_workload_incast, sb_workload_longlived,
	sb_workload_burst, sb_workload_cbr, sb_workload_file;

#endif
