/*
 * scenario.c — the parameter tables of a scenario and its defaults (the cross-field checks are
 * scenario_validate.c).
 *
 * The tables are the single source of truth for every key: the reader (src/cli/cfgfile.c),
 * `--set`, and the generated reference (docs/scenario-keys.md) all use them, so the docs here
 * are written for users of the tool: what the key is, its unit, and what 0 means when 0 is
 * special. Defaults describe a small leaf-spine that runs in seconds.
 */
#include "sim/scenario.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"
#include "transport/transport.h"

#define RUN(f) SB_FIELD(struct sb_run_params, f)
#define WL(f) SB_FIELD(struct sb_workload, f)

/* Largest host index any topology can have (fattree k = 64 has 65536 hosts). */
#define MAX_HOST_INDEX 65535

static const char *const sample_choices[] = { "all", "leaves", "none", NULL };
static const char *const class_choices[] = { "lossy", "lossless", "auto", NULL };
static const char *const load_ref_choices[] = { "host", "uplink", NULL };
const char *const sb_dest_names[] = { "any", "other_rack", "next_rack", NULL };
const char *const sb_responders_names[] = { "next_rack", "random_rack", "any", "mirror_rack", NULL };

const struct sb_param sb_run_param_table[] = {
	{ "seed", SB_P_INT, RUN(seed), "1", 0, 1e15, "", NULL,
	  "random seed; every random choice of the run derives from it, so the same seed and scenario give the same results" },
	{ "duration_ms", SB_P_DOUBLE, RUN(duration_ms), "20", 0, 1e7, "ms", NULL,
	  "simulated time; flows still running at the end get no row in flows.csv and are counted in summary.json flows_unfinished" },
	{ "arrivals_ms", SB_P_DOUBLE, RUN(arrivals_ms), "10", 0, 1e7, "ms", NULL,
	  "workloads start no new flow after this time, leaving the rest of the run for flows to finish; 0 = duration_ms; a value past duration_ms is cut at duration_ms" },
	{ "sample_interval_us", SB_P_DOUBLE, RUN(sample_interval_us), "10", 0, 1e6, "us", NULL,
	  "period of the buffer-occupancy samples (occupancy.csv) and of the host-throughput samples (throughput.csv, run.sample_hosts); 0 = no sampling" },
	{ "sample_switches", SB_P_ENUM, RUN(sample_switches), "leaves", 0, 0, "", sample_choices,
	  "switches whose buffers are sampled: all, leaves (the switches hosts attach to) or none" },
	{ "sample_hosts", SB_P_INT_LIST, RUN(sample_hosts), "", 0, MAX_HOST_INDEX, "host indices", NULL,
	  "hosts whose receive throughput (payload received in order, all their flows together) is written to throughput.csv every sample_interval_us, e.g. [26, 27]; empty = none, no file" },
	{ "check_invariants", SB_P_BOOL, RUN(check_invariants), "false", 0, 0, "", NULL,
	  "debug mode: verify the MMU counters of every switch after every operation (several times slower)" },
	{ "max_memory_mb", SB_P_INT, RUN(max_memory_mb), "0", 0, 1e7, "MB", NULL,
	  "refuse to run, before building anything, a scenario whose memory is estimated above this many MB (2^20 bytes): network, forwarding tables, flows, samples and queued packets, as docs/scenario.md explains; 0 = half the physical memory, at most 8192" },
	SB_PARAM_END
};

/* Keys every workload type has, so a workload can be retargeted by changing only `type`. */
#define WL_TRANSPORT_DOC "transport of the workload's flows (`sharebuf list` shows them: TCPs dctcp, cubic, newreno; RDMA rdma, dcqcn, hpcc, powertcp, thetapowertcp, timely)"
#define WL_COMMON_PARAMS(transport_default, transport_doc)                                         \
	{ "transport", SB_P_STRING, WL(transport), transport_default, 0, 0, "", NULL, transport_doc }, \
	{ "prio", SB_P_INT, WL(prio), "-1", -1, 7, "", NULL,                                        \
	  "priority (switch queue, 0..7) of the workload's packets; -1 = the transport's default: 3 for the RDMA transports, 1 for the others (Reverie's evaluation)" }, \
	{ "class", SB_P_ENUM, WL(klass), "auto", 0, 0, "", class_choices,                           \
	  "lossless = protected by PFC and the scheme's headroom; lossy = may be dropped; auto = the transport's default: lossless for the RDMA transports, lossy for the others" }, \
	{ "start_ms", SB_P_DOUBLE, WL(start_ms), "0", 0, 1e7, "ms", NULL,                                 \
	  "time at which the workload becomes active" },                                            \
	{ "stop_ms", SB_P_DOUBLE, WL(stop_ms), "0", 0, 1e7, "ms", NULL,                                   \
	  "time after which the workload starts nothing new; 0 = run.arrivals_ms" }

#define WL_ENDPOINT_PARAMS                                                                         \
	{ "srcs", SB_P_INT_LIST, WL(srcs), "", 0, MAX_HOST_INDEX, "host indices", NULL,             \
	  "sending hosts, e.g. [1, 2, 3]; at least one, dst excluded" },                          \
	{ "dst", SB_P_INT, WL(dst), "0", 0, MAX_HOST_INDEX, "host index", NULL,                     \
	  "receiving host (hosts are numbered from 0, rack by rack)" }

static const struct sb_param poisson_params[] = {
	WL_COMMON_PARAMS("dctcp", WL_TRANSPORT_DOC),
	{ "cdf", SB_P_STRING, WL(cdf), "websearch", 0, 0, "", NULL,
	  "flow-size distribution: a built-in name (websearch, datamining, hadoop, cache, ...) or the path of a CDF file (relative to the scenario file's directory, or with --set to the working directory); write ./NAME for a file named like a built-in" },
	{ "load", SB_P_DOUBLE, WL(load), "0.5", 0, 2, "", NULL,
	  "offered load as a fraction of the reference capacity chosen by load_ref; above 1 overloads it" },
	{ "load_ref", SB_P_ENUM, WL(load_ref), "host", 0, 0, "", load_ref_choices,
	  "what load is relative to: host = each host offers load × host_rate_gbps; uplink = each rack offers load × its leaf's uplink capacity, split among its hosts" },
	{ "dest", SB_P_ENUM, WL(dest), "other_rack", 0, 0, "", sb_dest_names,
	  "destination of each flow: any = a uniformly random other host; other_rack = a random host of another rack; next_rack = a random host of the next rack (rack r sends to rack r+1 mod racks)" },
	SB_PARAM_END
};

static const struct sb_param incast_params[] = {
	WL_COMMON_PARAMS("dctcp", WL_TRANSPORT_DOC),
	{ "query_rate", SB_P_DOUBLE, WL(query_rate), "2", 0, 1e7, "queries/s", NULL,
	  "queries issued per second by each receiver (Poisson arrivals)" },
	{ "receivers", SB_P_INT_LIST, WL(receivers), "", 0, MAX_HOST_INDEX, "host indices", NULL,
	  "hosts that issue queries, e.g. [0, 16, 32, 48]; they only ask, they are never picked as responders of this workload. Empty = every host (and any host may respond)" },
	{ "sync", SB_P_BOOL, WL(sync), "false", 0, 0, "", NULL,
	  "true = one Poisson process of query_rate for the whole workload, and at each of its events every receiver queries at once (DSH Fig. 12 fires its four fan-in groups together); false = each receiver has its own process" },
	{ "fanin", SB_P_INT, WL(fanin), "16", 1, 65535, "hosts", NULL,
	  "responders answering each query (with fanin_min: the largest fan-in)" },
	{ "fanin_min", SB_P_INT, WL(fanin_min), "0", 0, 65535, "hosts", NULL,
	  "each query draws its fan-in uniformly from fanin_min..fanin; 0 = always fanin" },
	{ "size_bytes", SB_P_INT, WL(size_bytes), "2000000", 1, 1e12, "bytes", NULL,
	  "total response size of one query, split evenly among its responders (unused with cdf)" },
	{ "cdf", SB_P_STRING, WL(cdf), "", 0, 0, "", NULL,
	  "response sizes: empty = size_bytes split evenly; a flow-size distribution (built-in name such as hadoop_dsh, or a CDF file) = every response draws its own size from it" },
	{ "responders", SB_P_ENUM, WL(responders), "next_rack", 0, 0, "", sb_responders_names,
	  "where a query's responders are: next_rack = hosts of the querier's next rack; random_rack = hosts of one random other rack; any = any hosts but the querier; mirror_rack = hosts of rack (racks - 1 - r) for a querier in rack r, pairing racks from the outside in (0 and 3, 1 and 2 of 4; the middle rack of an odd number answers itself)" },
	{ "full_window", SB_P_BOOL, WL(full_window), "true", 0, 0, "", NULL,
	  "true = each response is sent at once (its initial window covers the whole response), making the burst synchronous; false = initial window tcp.init_cwnd_pkts" },
	SB_PARAM_END
};

static const struct sb_param longlived_params[] = {
	WL_COMMON_PARAMS("dctcp", WL_TRANSPORT_DOC),
	WL_ENDPOINT_PARAMS,
	{ "size_bytes", SB_P_INT, WL(size_bytes), "0", 0, 1e15, "bytes", NULL,
	  "bytes each source sends, starting at start_ms; 0 = unlimited, the flow runs until the end of the run" },
	SB_PARAM_END
};

static const struct sb_param burst_params[] = {
	WL_COMMON_PARAMS("dctcp", WL_TRANSPORT_DOC),
	WL_ENDPOINT_PARAMS,
	{ "size_bytes", SB_P_INT, WL(size_bytes), "100000", 1, 1e12, "bytes", NULL,
	  "bytes each source sends to dst, all sources starting together at start_ms" },
	{ "full_window", SB_P_BOOL, WL(full_window), "true", 0, 0, "", NULL,
	  "true = each source sends its size_bytes at once (its initial window covers it); false = initial window tcp.init_cwnd_pkts" },
	SB_PARAM_END
};

/* A CBR source is a transport of its own (no congestion control), hence the default. */
static const struct sb_param cbr_params[] = {
	WL_COMMON_PARAMS("cbr", "must be cbr: the constant-rate transport (no congestion control, no ACKs, no retransmissions)"),
	WL_ENDPOINT_PARAMS,
	{ "size_bytes", SB_P_INT, WL(size_bytes), "0", 0, 1e15, "bytes", NULL,
	  "bytes each source sends; 0 = unlimited, the source sends until the end of the run" },
	{ "rate_gbps", SB_P_DOUBLE, WL(rate_gbps), "10", 0.001, 10000, "Gb/s", NULL,
	  "constant sending rate of each source, on the wire, without congestion control" },
	{ "packet_bytes", SB_P_INT, WL(packet_bytes), "1048", 64, 65535, "bytes", NULL, "size on the wire of every packet" },
	SB_PARAM_END
};

/* The flow list gives each flow its own transport, priority, class and start, so a file
 * workload has only its path and an optional time offset. */
static const struct sb_param file_params[] = {
	{ "path", SB_P_STRING, WL(path), "", 0, 0, "", NULL,
	  "file listing the flows to replay, one per line (see docs/workloads.md). A relative path is relative to the directory of the scenario file that names it; one given with --set, to the working directory" },
	{ "start_ms", SB_P_DOUBLE, WL(start_ms), "0", 0, 1e7, "ms", NULL,
	  "offset added to every start time of the file" },
	SB_PARAM_END
};

const char *const sb_workload_type_name[SB_WL_N] = {
	[SB_WL_POISSON] = "poisson", [SB_WL_INCAST] = "incast", [SB_WL_LONGLIVED] = "longlived",
	[SB_WL_BURST] = "burst",     [SB_WL_CBR] = "cbr",       [SB_WL_FILE] = "file",
};

const struct sb_param *const sb_workload_param_table[SB_WL_N] = {
	[SB_WL_POISSON] = poisson_params, [SB_WL_INCAST] = incast_params,
	[SB_WL_LONGLIVED] = longlived_params, [SB_WL_BURST] = burst_params,
	[SB_WL_CBR] = cbr_params, [SB_WL_FILE] = file_params,
};

static size_t scheme_count(void)
{
	size_t n = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++)
		n++;
	return n;
}

void sb_scenario_defaults(struct sb_scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	sb_params_defaults(sb_run_param_table, &sc->run);
	sb_params_defaults(sb_topo_param_table, &sc->topo);
	sb_params_defaults(sb_switch_param_table, &sc->sw);
	sb_params_defaults(sb_host_param_table, &sc->host);
	sb_params_defaults(sb_tcp_param_table, &sc->tcp);
	sb_params_defaults(sb_pfc_param_table, &sc->pfc);
	sb_params_defaults(sb_rdma_param_table, &sc->rdma);

	const struct sb_bm_ops *const *all = sb_bm_all();
	size_t n = scheme_count();
	/* One extra NULL slot so the array is safe to walk without knowing the count. */
	sc->scheme_params = sb_xcalloc(n + 1, sizeof(*sc->scheme_params));
	for (size_t i = 0; i < n; i++) {
		sc->scheme_params[i] = sb_xcalloc(1, all[i]->state_size ? all[i]->state_size : 1);
		sb_params_defaults(all[i]->params, sc->scheme_params[i]);
	}
	sc->source = sb_xstrdup("(default)");
}

/* --- where keys came from --- */

void sb_scenario_note_origin(struct sb_scenario *sc, const char *key, const char *file, int line)
{
	/* appended, never searched here: a scenario of many workloads notes many keys, and only
	 * a failing check looks one up */
	if (sc->norigins == sc->origins_cap) {
		sc->origins_cap = sc->origins_cap ? 2 * sc->origins_cap : 64;
		sc->origins = sb_xrealloc(sc->origins, sc->origins_cap * sizeof(*sc->origins));
	}
	sc->origins[sc->norigins++] = (struct sb_key_origin){ sb_xstrdup(key), file ? sb_xstrdup(file) : NULL, line };
}

void sb_scenario_forget_origins(struct sb_scenario *sc, const char *prefix)
{
	size_t keep = 0, len = strlen(prefix);
	for (size_t i = 0; i < sc->norigins; i++) {
		struct sb_key_origin *o = &sc->origins[i];
		if (strncmp(o->key, prefix, len) == 0) {
			free(o->key);
			free(o->file);
		} else {
			sc->origins[keep++] = *o;
		}
	}
	sc->norigins = keep;
}

/* The latest origin of the first `len` characters of a key. */
static const struct sb_key_origin *origin_n(const struct sb_scenario *sc, const char *key, size_t len)
{
	for (size_t i = sc->norigins; i-- > 0;)
		if (strncmp(sc->origins[i].key, key, len) == 0 && sc->origins[i].key[len] == 0)
			return &sc->origins[i];
	return NULL;
}

const struct sb_key_origin *sb_scenario_origin(const struct sb_scenario *sc, const char *key)
{
	return origin_n(sc, key, strlen(key));
}

const char *sb_scenario_latest_key(const struct sb_scenario *sc, const char *prefix)
{
	size_t len = strlen(prefix);
	for (size_t i = sc->norigins; i-- > 0;)
		if (strncmp(sc->origins[i].key, prefix, len) == 0)
			return sc->origins[i].key;
	return NULL;
}

void sb_scenario_place(const struct sb_scenario *sc, const char *key, char *buf, size_t n)
{
	/* the key itself ("srcs[1]" is written where "srcs" is), else its innermost noted group */
	size_t len = strcspn(key, "[");
	const struct sb_key_origin *o = NULL;
	while (len > 0 && !(o = origin_n(sc, key, len))) {
		while (len > 0 && key[len - 1] != '.')
			len--;
		if (len > 0)
			len--; /* drop the dot */
	}
	if (!o)
		snprintf(buf, n, "%s", key);
	else if (!o->file)
		snprintf(buf, n, "--set %s", key);
	else if (o->line > 0)
		snprintf(buf, n, "%s:%d: %s", o->file, o->line, key);
	else
		snprintf(buf, n, "%s: %s", o->file, key);
}

int sb_scenario_fail(const struct sb_scenario *sc, const char *key, struct sb_error *err, const char *fmt, ...)
{
	char place[400], what[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	sb_scenario_place(sc, key, place, sizeof(place));
	return sb_fail(err, "%s: %s", place, what);
}

char *sb_scenario_path(const struct sb_scenario *sc, const char *key, const char *path)
{
	const struct sb_key_origin *o = sb_scenario_origin(sc, key);
	const char *slash = o && o->file ? strrchr(o->file, '/') : NULL;
	if (path[0] == '/' || !slash)
		return sb_xstrdup(path);
	size_t dir = (size_t)(slash - o->file) + 1, len = strlen(path);
	char *full = sb_xmalloc(dir + len + 1);
	memcpy(full, o->file, dir);
	memcpy(full + dir, path, len + 1);
	return full;
}

void sb_scenario_free(struct sb_scenario *sc)
{
	sb_scenario_forget_origins(sc, "");
	free(sc->origins);
	sb_params_free(sb_run_param_table, &sc->run);
	sb_params_free(sb_topo_param_table, &sc->topo);
	sb_params_free(sb_switch_param_table, &sc->sw);
	sb_params_free(sb_host_param_table, &sc->host);
	sb_params_free(sb_tcp_param_table, &sc->tcp);
	sb_params_free(sb_pfc_param_table, &sc->pfc);
	sb_params_free(sb_rdma_param_table, &sc->rdma);
	for (size_t i = 0; i < sc->nworkloads; i++) {
		struct sb_workload *wl = &sc->workloads[i];
		if (wl->type >= 0 && wl->type < SB_WL_N)
			sb_params_free(sb_workload_param_table[wl->type], wl);
	}
	free(sc->workloads);
	if (sc->scheme_params) {
		const struct sb_bm_ops *const *all = sb_bm_all();
		for (size_t i = 0; all[i]; i++) {
			sb_params_free(all[i]->params, sc->scheme_params[i]);
			free(sc->scheme_params[i]);
		}
		free(sc->scheme_params);
	}
	free(sc->source);
	memset(sc, 0, sizeof(*sc));
}
