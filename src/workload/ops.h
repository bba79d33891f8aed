/*
 * ops.h — the contract of a workload type, the way src/mmu/mmu.h's sb_bm_ops is a scheme's.
 *
 * A workload type is one file (wl_poisson.c, wl_incast.c, wl_longlived.c, wl_burst.c,
 * wl_cbr.c, wl_file.c) that fills a struct sb_workload_ops: its name and summary, its
 * parameter table and the size of the parameter struct the table describes, its checks, its
 * memory estimate and its generator. The registry (registry.c) lists them in the order
 * `sharebuf list workloads`, `sharebuf params` and messages show them. Everything outside a
 * type's file reaches its parameters through these hooks, so adding a type is one file and one
 * line of the registry, and no code outside asks "which type is this?".
 *
 * The hooks see the scenario only through what this layer defines: the numbers they check
 * against (struct sb_wl_shape), what an estimate needs (struct sb_wl_estimate_in) and one
 * struct sb_wl_env that places a message and opens a file the way the scenario that set the key
 * says (its owner fills it: the scenario's sb_scenario_workload_env, through sim/). The running
 * generator reaches the run only through workload/world.h (struct sb_wl_world).
 */
#ifndef SB_WORKLOAD_OPS_H
#define SB_WORKLOAD_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/param.h"
#include "core/time.h"
#include "core/util.h"
#include "workload/class.h"

/* Keys every workload type except file has, so a workload can be retargeted by changing only
 * `type`. Every type's parameter struct begins with it (file's uses start_ms alone). */
struct sb_workload_common {
	char *transport;          /* "dctcp", "cubic", "newreno", ... */
	int64_t prio;             /* -1 = the transport's default (sb_transport_default_class) */
	int klass;                /* SB_CLASS_*; AUTO = the transport's default */
	double start_ms, stop_ms; /* active window (stop 0 = sim.arrivals_ms) */
};

struct sb_workload_ops;

/* One workload of the scenario: its type and its parameters (ops->params describes them). */
struct sb_workload {
	const struct sb_workload_ops *ops; /* NULL only in a zeroed entry not yet read */
	int line;                 /* scenario line, for messages */
	void *params;             /* ops->params_size bytes, beginning with struct sb_workload_common */
};

/*
 * How a workload's hooks reach the owner of the keys: a message placed at a key ("FILE:LINE:
 * KEY: what", sb_scenario_fail) and a file named by a key, opened relative to the scenario file
 * that set it (sb_scenario_path). Keys are full: "workloads.3.cdf".
 */
struct sb_wl_env {
	const void *ctx;
	int (*fail)(const void *ctx, const char *key, struct sb_error *err, const char *what);
	char *(*path)(const void *ctx, const char *key, const char *value); /* malloc'd */
	size_t index;             /* N of workloads.N */
};

/* What the checks of a workload know of the topology, from its keys alone. */
struct sb_wl_shape {
	int64_t hosts, racks, hosts_per_rack;
	bool has_uplinks;
	const char *one_rack;     /* why there is no other rack: "topology single has one rack" */
};

/* What a memory estimate needs of the rest of the run (sim/estimate.c fills it). */
struct sb_wl_estimate_in {
	double hosts;
	double host_bps;          /* a host link's rate */
	double uplink_bps;        /* per host: its leaf's uplinks shared by its hosts */
	double init_window;       /* bytes of a TCP flow's first window */
	double window_s;          /* seconds during which the workload creates flows */
	double duration_ms;
	int64_t nic_buffer_bytes; /* host.nic_buffer_bytes */
	double flow_bytes;        /* one flow in flight: its slot and start event */
	double query_bytes;       /* one incast query's record */
	double packet_bytes;      /* one packet in memory (struct sb_packet) */
};

/* A workload's share of the estimate (sim/estimate.h says what each part counts). */
struct sb_wl_estimate {
	double flows;             /* flows of the run */
	double in_flight;         /* of them at once; -1 = all */
	double extra_bytes;       /* beyond the flows' slots (queries, a flow list held whole) */
	double first_bytes;       /* bytes a flow hands its NIC at once */
	double concurrent;        /* flows that hand their first window at the same instant */
	double nic_bytes;         /* packets left in NICs by a source faster than its link */
	double start_events;      /* events pending once the network is built */
	const char *flows_key;    /* key (of this workload) to change for fewer flows */
	const char *issued_key;   /* key to change for fewer first windows */
	const char *nic_key;      /* key to change for fewer packets left in NICs */
	char what[200];           /* what the flows are, for the message */
};

struct sb_wl_run; /* a running workload: workload/world.h */

struct sb_workload_ops {
	const char *name;          /* the `type` value */
	const char *summary;       /* a paragraph of docs/scenario-keys.md */
	const struct sb_param *params; /* its keys; their offsets are into the struct below */
	size_t params_size;        /* sizeof its parameter struct */
	bool transport_per_flow;   /* no `transport` key: each flow names its own (file) */
	/* Cross-field checks of one workload beyond its common keys (which the scenario checks
	 * first); fails through env->fail. NULL = none. */
	int (*validate)(const void *params, const struct sb_wl_shape *shape, const struct sb_wl_env *env,
			struct sb_error *err);
	/* Its flows, NIC bytes and start events, from the scenario alone; never fails (a file it
	 * cannot read counts as nothing: the run's own checks will say why). */
	void (*estimate)(const void *params, const struct sb_wl_estimate_in *in, const struct sb_wl_env *env,
			 struct sb_wl_estimate *out);
	/* Offered bits per second of one host (poisson): `host_bps` its link, `uplink_bps` its
	 * share of its leaf's uplinks. NULL = the type offers no load of its own. */
	double (*offered_bps)(const void *params, double host_bps, double uplink_bps);
	/* The value of the key that names an input file of the run (provenance), or NULL; *key is
	 * that key's name ("cdf", "path"), and `builtin_ok` says a built-in name is no file. */
	const char *(*input_file)(const void *params, const char **key, bool *builtin_ok);
	/* The generator: check what needs the built network, then create the first flows or
	 * schedule the first arrivals (workload/world.h). Its state goes in r->state. */
	int (*start)(struct sb_wl_run *r, struct sb_error *err);
	/* Free r->state. NULL = nothing to free. */
	void (*free)(struct sb_wl_run *r);
};

/* Every workload type, NULL-terminated, in registry order. */
const struct sb_workload_ops *const *sb_workload_all(void);
/* The type called `name`, or NULL. */
const struct sb_workload_ops *sb_workload_find(const char *name);
/* The type called `name` among `types` (NULL-terminated; NULL = none), or NULL. Inline for the
 * reason sb_workload_names is. */
static inline const struct sb_workload_ops *sb_workload_find_in(const struct sb_workload_ops *const *types,
								 const char *name)
{
	for (const struct sb_workload_ops *const *t = types; t && *t; t++)
		if (strcmp((*t)->name, name) == 0)
			return *t;
	return NULL;
}
/* "poisson|incast|...": the names of `types` (NULL-terminated; NULL = none), for messages.
 * Inline, so that the scenario's reader words its messages with the types it knows without
 * linking the registry (the software switch knows none). */
static inline void sb_workload_names(const struct sb_workload_ops *const *types, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t t = 0; types && types[t] && used < n; t++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", t ? "|" : "", types[t]->name);
}

/* Make `wl` a workload of type `ops` with every key at its default (wl was zeroed or freed).
 * Inline, as sb_workload_clear: they touch only the parameter table (core/param.h), and a
 * program that reads a scenario but runs no workload (the software switch) needs them without
 * linking any workload type. */
static inline void sb_workload_init(struct sb_workload *wl, const struct sb_workload_ops *ops)
{
	wl->ops = ops;
	wl->params = sb_xcalloc(1, ops->params_size);
	sb_params_defaults(ops->params, wl->params);
}
/* Free wl's parameters and zero it; safe on a zeroed entry. */
static inline void sb_workload_clear(struct sb_workload *wl)
{
	if (wl->ops && wl->params)
		sb_params_free(wl->ops->params, wl->params);
	free(wl->params);
	memset(wl, 0, sizeof(*wl));
}
/* The keys every type shares (file: start_ms only). */
static inline const struct sb_workload_common *sb_workload_common(const struct sb_workload *wl)
{
	return (const struct sb_workload_common *)wl->params;
}

/* --- for the types' files --- */

/* env->fail at the key "workloads.N.KEY" with the message formatted. */
int sb_wl_fail(const struct sb_wl_env *env, const char *key, struct sb_error *err, const char *fmt, ...)
	SB_PRINTF(4, 5);
/* "host H does not exist" unless h < shape->hosts (the table's range refused h < 0); `key` as
 * sb_wl_fail's ("srcs[1]"). */
int sb_wl_check_host(const struct sb_wl_env *env, const struct sb_wl_shape *shape, const char *key, int64_t h,
		     struct sb_error *err);
/* The CDF called `name` (workloads.N.cdf): a built-in by name, else the file env->path opens;
 * a failure is placed at workloads.N.cdf. */
struct sb_cdf;
int sb_wl_load_cdf(const struct sb_wl_env *env, const char *name, struct sb_cdf *c, struct sb_error *err);
/* Flows in flight at once of `n` arriving at `hosts` servers each loaded at `load` (estimate). */
double sb_wl_in_flight(double n, double hosts, double load);

#endif
