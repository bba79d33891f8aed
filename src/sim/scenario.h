/*
 * scenario.h — everything a run is made of, as plain parameter structs.
 *
 * Each struct has a parameter table that gives every key its type, default, unit, range and
 * documentation; each layer owns its own (net/params.h: switches, host NICs, PFC; topo/params.h:
 * the topology; transport/params.h: TCP and RDMA), the run's and the workloads' are here
 * (scenario.c); the scenario file reader (src/cli/cfgfile.c) fills them, and
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
#include "workload/class.h"

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

/* Workloads: a list in the scenario; `type` selects the parameter table. */
enum sb_workload_type { SB_WL_POISSON = 0, SB_WL_INCAST, SB_WL_LONGLIVED, SB_WL_BURST, SB_WL_CBR, SB_WL_FILE, SB_WL_N };
enum { SB_LOAD_HOST = 0, SB_LOAD_UPLINK };
enum { SB_DEST_ANY = 0, SB_DEST_OTHER_RACK, SB_DEST_NEXT_RACK };
extern const char *const sb_dest_names[]; /* by SB_DEST_*, as scenarios spell them */
enum { SB_RESP_NEXT_RACK = 0, SB_RESP_RANDOM_RACK, SB_RESP_ANY, SB_RESP_MIRROR_RACK };
extern const char *const sb_responders_names[]; /* by SB_RESP_*, as scenarios spell them */

struct sb_workload {
	int type;                 /* enum sb_workload_type; not a key of the table (it is `type`) */
	int line;                 /* scenario line, for messages */
	/* common */
	char *transport;          /* "dctcp", "cubic", "newreno", ... */
	int64_t prio;             /* -1 = the transport's default (sb_transport_default_class) */
	int klass;                /* SB_CLASS_*; AUTO = the transport's default */
	double start_ms, stop_ms; /* active window (stop 0 = sim.arrivals_ms) */
	/* poisson */
	char *cdf;                /* built-in name or path (incast: response sizes, "" = size_bytes split) */
	double load;
	int load_ref;             /* SB_LOAD_* */
	int dest;                 /* SB_DEST_* */
	/* incast */
	double query_rate;        /* queries per second per host */
	int64_t fanin;
	int64_t fanin_min;        /* fan-in uniform in fanin_min..fanin (0 = always fanin) */
	struct sb_int_list receivers; /* hosts that query (empty = every host) */
	bool sync;                /* one process: every receiver queries at each event */
	int64_t size_bytes;       /* incast: total response; burst: per sender; longlived: 0 */
	int responders;           /* SB_RESP_* */
	bool full_window;         /* responses sent in one window (initial cwnd = response size) */
	/* longlived, burst, cbr */
	struct sb_int_list srcs;
	int64_t dst;
	double rate_gbps;         /* cbr */
	int64_t packet_bytes;     /* cbr */
	/* file */
	char *path;
};

/*
 * Where a key got its value, so that checks made long after reading (sb_scenario_validate,
 * building the network, opening a workload's files) can still say "FILE:LINE: KEY". The
 * reader (src/cli/cfgfile.c) notes every key it sets, and the groups switch.SCHEME and
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
	struct sb_workload *workloads;
	size_t nworkloads;
	void **scheme_params;     /* per registered scheme (sb_bm_all order): its parameter struct */
	char *source;             /* scenario file name, or "(default)" */
	struct sb_key_origin *origins; /* sb_scenario_note_origin, in the order the keys were set */
	size_t norigins, origins_cap;
};

extern const struct sb_param sb_run_param_table[];
extern const char *const sb_workload_type_name[SB_WL_N];
extern const struct sb_param *const sb_workload_param_table[SB_WL_N];

void sb_scenario_defaults(struct sb_scenario *sc);
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

/* "dctcp|cubic|...": the registered transports, for messages. */
void sb_transport_names(char *buf, size_t n);

/* Cross-field checks the tables cannot express (e.g. a host index beyond the topology). */
int sb_scenario_validate(const struct sb_scenario *sc, struct sb_error *err);

#endif
