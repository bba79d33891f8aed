/*
 * scenario.h — everything a run is made of, as plain parameter structs.
 *
 * Each struct has a parameter table that gives every key its type, default, unit, range and
 * documentation; each layer owns its own (net/params.h: switches, host NICs, PFC; topo/params.h:
 * the topology; transport/params.h: TCP and RDMA; workload/ops.h and wl_*.c: each workload
 * type's), the run's is here (scenario.c); the scenario file reader (src/scenario/cfgfile.c)
 * fills them, and
 * docs/scenario.md is generated from the same tables. Units are in the key names
 * (_ms, _us, _gbps, _bytes) so a scenario file reads unambiguously.
 */
#ifndef SB_SCENARIO_H
#define SB_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include "core/param.h"
#include "net/params.h"
#include "topo/params.h"
#include "transport/params.h"
#include "workload/ops.h"

struct sb_run_params {
	int64_t seed;
	double duration_ms;        /* simulated time; flows still running then are unfinished */
	double arrivals_ms;        /* generators stop creating flows after this (0 = duration) */
	double sample_interval_us; /* buffer occupancy sampling period (0 = off) */
	int sample_switches;       /* SB_SAMPLE_* */
	struct sb_int_list sample_hosts; /* hosts whose receive throughput is sampled (throughput.csv) */
	bool check_invariants;     /* debug mode: verify MMU counters after every operation */
	int64_t max_memory_mb;     /* refuse a run estimated above this (sim/estimate.h); 0 = automatic */
};
enum { SB_SAMPLE_ALL = 0, SB_SAMPLE_LEAVES, SB_SAMPLE_NONE };

/*
 * Where a key got its value, so that checks made long after reading (sb_scenario_validate,
 * building the network, opening a workload's files) can still say "FILE:LINE: KEY". The
 * reader (src/scenario/cfgfile.c) notes every key it sets, and the groups switch.SCHEME and
 * workloads.N; an override notes its key with file NULL. The latest note of a key wins.
 */
struct sb_key_origin {
	char *key;   /* full dotted key, as --set writes it: "switch.scheme", "workloads.0.path" */
	char *file;  /* the file as messages name it; NULL = a --set override */
	int line;    /* 0 = unknown */
};

struct sb_scenario {
	struct sb_run_params run;
	struct sb_topo_params topo;
	struct sb_switch_params sw;
	struct sb_host_params host;
	struct sb_tcp_params tcp;
	struct sb_pfc_params pfc;
	struct sb_rdma_params rdma;
	struct sb_workload *workloads; /* a list; each one's type is its ops (workload/ops.h) */
	size_t nworkloads;
	/* The workload types the reader knows (sb_workload_all(), set by sb_scenario_defaults), or
	 * NULL (sb_scenario_defaults_net): a program that runs no workload (the software switch)
	 * reads and checks the network's sections and leaves `workloads` and `--set workloads.*`
	 * unread, so that it links no workload type; the load generator checks them. */
	const struct sb_workload_ops *const *workload_types;
	void **scheme_params;     /* per registered scheme (sb_bm_all order): its parameter struct */
	char *source;             /* scenario file name, or "(default)" */
	struct sb_key_origin *origins; /* sb_scenario_note_origin, in the order the keys were set */
	size_t norigins, origins_cap;
};

extern const struct sb_param sb_run_param_table[];

/* Every key at its default, no workload, every workload type known (scenario_defaults.c). */
void sb_scenario_defaults(struct sb_scenario *sc);
/* The same, knowing no workload type: the reader then skips the workloads (workload_types). */
void sb_scenario_defaults_net(struct sb_scenario *sc);
/* The known workload type called `name`, or NULL. */
const struct sb_workload_ops *sb_scenario_workload_type(const struct sb_scenario *sc, const char *name);
void sb_scenario_free(struct sb_scenario *sc);
/* Record that `key` was set at file:line (file NULL: by --set). */
void sb_scenario_note_origin(struct sb_scenario *sc, const char *key, const char *file, int line);
/* Forget every origin whose key starts with `prefix` (a replaced workloads list). */
void sb_scenario_forget_origins(struct sb_scenario *sc, const char *prefix);
/* The latest origin of `key`, or NULL when the key kept its default. */
const struct sb_key_origin *sb_scenario_origin(const struct sb_scenario *sc, const char *key);
/* The key of the latest origin whose key starts with `prefix`, or NULL. */
const char *sb_scenario_latest_key(const struct sb_scenario *sc, const char *prefix);
/*
 * The place of `key` for a message: "FILE:LINE: KEY", "--set KEY", and for a key that kept its
 * default, the place of its group (workloads.N, switch.SCHEME) or, lacking one, "KEY" alone.
 */
void sb_scenario_place(const struct sb_scenario *sc, const char *key, char *buf, size_t n);
/* sb_fail() with the place of `key` in front: "PLACE: what". */
int sb_scenario_fail(const struct sb_scenario *sc, const char *key, struct sb_error *err, const char *fmt, ...)
	SB_PRINTF(4, 5);
/*
 * A file named by the value of `key` (a workload's flow list or CDF), as the program opens
 * it: a relative path written in a scenario file is relative to that file's directory, as
 * @include is; one given with --set (or in the built-in scenario) is relative to the working
 * directory, as any path on a command line. malloc'd.
 */
char *sb_scenario_path(const struct sb_scenario *sc, const char *key, const char *path);
/* How workload `wi`'s hooks place their messages and open their files: sb_scenario_fail and
 * sb_scenario_path of sc (workload/ops.h). */
struct sb_wl_env sb_scenario_workload_env(const struct sb_scenario *sc, size_t wi);

/* Cross-field checks the tables cannot express (e.g. a host index beyond the topology):
 * sb_scenario_validate_net's, then each workload's (validate_workloads.c). */
int sb_scenario_validate(const struct sb_scenario *sc, struct sb_error *err);
/* The same without the workloads' checks (scenario_validate.c): what a program that runs no
 * workload needs (the software switch); it links no transport or workload code. */
int sb_scenario_validate_net(const struct sb_scenario *sc, struct sb_error *err);

/* The largest data frame any transport of the scenario puts on the wire (headroom formulas):
 * the larger of TCP's (tcp.mss + tcp.header_bytes) and RDMA's (rdma.mtu + rdma.header_bytes).
 * Here, not in sim/, because the software switch needs it and has no simulated world. */
uint32_t sb_scenario_max_frame_bytes(const struct sb_scenario *sc);

#endif
