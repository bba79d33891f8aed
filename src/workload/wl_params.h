/*
 * wl_params.h — the keys every workload type's table shares, written once for the types'
 * files (wl_*.c) so that a workload can be retargeted by changing only `type` and the same key
 * reads the same in every type of docs/scenario-keys.md.
 */
#ifndef SB_WORKLOAD_WL_PARAMS_H
#define SB_WORKLOAD_WL_PARAMS_H

#include <stddef.h>
#include "core/param.h"

/* Largest host index any topology can have (fattree k = 64 has 65536 hosts). */
#define SB_WORKLOAD_MAX_HOST 65535

/* class: by SB_CLASS_* (workload/class.h) */
extern const char *const sb_wl_class_choices[];

#define SB_WORKLOAD_TRANSPORT_DOC "transport of the workload's flows (`sharebuf list` shows them: TCPs dctcp, cubic, newreno; RDMA rdma, dcqcn, hpcc, powertcp, thetapowertcp, timely)"

/* transport, prio, class, start_ms, stop_ms of TYPE's `c` (struct sb_workload_common). */
#define SB_WORKLOAD_COMMON_PARAMS(TYPE, transport_default, transport_doc)                               \
	{ "transport", SB_P_STRING, offsetof(TYPE, c.transport), transport_default, 0, 0, "", NULL, transport_doc }, \
	{ "prio", SB_P_INT, offsetof(TYPE, c.prio), "-1", -1, 7, "", NULL,                            \
	  "priority (switch queue, 0..7) of the workload's packets; -1 = the transport's default: 3 for the RDMA transports, 1 for the others (Reverie's evaluation)" }, \
	{ "class", SB_P_ENUM, offsetof(TYPE, c.klass), "auto", 0, 0, "", sb_wl_class_choices,         \
	  "lossless = protected by PFC and the scheme's headroom; lossy = may be dropped; auto = the transport's default: lossless for the RDMA transports, lossy for the others" }, \
	{ "start_ms", SB_P_DOUBLE, offsetof(TYPE, c.start_ms), "0", 0, 1e7, "ms", NULL,               \
	  "time at which the workload becomes active" },                                            \
	{ "stop_ms", SB_P_DOUBLE, offsetof(TYPE, c.stop_ms), "0", 0, 1e7, "ms", NULL,                 \
	  "time after which the workload starts nothing new; 0 = run.arrivals_ms" }

/* srcs and dst of TYPE's `ep` (struct sb_wl_endpoints). */
#define SB_WORKLOAD_ENDPOINT_PARAMS(TYPE)                                                                \
	{ "srcs", SB_P_INT_LIST, offsetof(TYPE, ep.srcs), "", 0, SB_WORKLOAD_MAX_HOST, "host indices", NULL, \
	  "sending hosts, e.g. [1, 2, 3]; at least one, dst excluded" },                          \
	{ "dst", SB_P_INT, offsetof(TYPE, ep.dst), "0", 0, SB_WORKLOAD_MAX_HOST, "host index", NULL,        \
	  "receiving host (hosts are numbered from 0, rack by rack)" }

#endif
