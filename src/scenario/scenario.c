/*
 * scenario.c — the parameter tables of a scenario and its defaults (the cross-field checks are
 * scenario_validate.c).
 *
 * The tables are the single source of truth for every key: the reader (src/scenario/cfgfile.c),
 * `--set`, and the generated reference (docs/scenario-keys.md) all use them, so the docs here
 * are written for users of the tool: what the key is, its unit, and what 0 means when 0 is
 * special. Defaults describe a small leaf-spine that runs in seconds.
 */
#include "scenario/scenario.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"
#include "transport/transport.h"

#define RUN(f) SB_FIELD(struct sb_run_params, f)

/* Largest host index any topology can have (fattree k = 64 has 65536 hosts). */
#define MAX_HOST_INDEX 65535

static const char *const sample_choices[] = { "all", "leaves", "none", NULL };

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

static size_t scheme_count(void)
{
	size_t n = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++)
		n++;
	return n;
}

const struct sb_workload_ops *sb_scenario_workload_type(const struct sb_scenario *sc, const char *name)
{
	return sb_workload_find_in(sc->workload_types, name);
}

void sb_scenario_defaults_net(struct sb_scenario *sc)
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

static int workload_fail(const void *ctx, const char *key, struct sb_error *err, const char *what)
{
	return sb_scenario_fail(ctx, key, err, "%s", what);
}

static char *workload_path(const void *ctx, const char *key, const char *value)
{
	return sb_scenario_path(ctx, key, value);
}

struct sb_wl_env sb_scenario_workload_env(const struct sb_scenario *sc, size_t wi)
{
	return (struct sb_wl_env){ .ctx = sc, .fail = workload_fail, .path = workload_path, .index = wi };
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
	for (size_t i = 0; i < sc->nworkloads; i++)
		sb_workload_clear(&sc->workloads[i]);
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

uint32_t sb_scenario_max_frame_bytes(const struct sb_scenario *sc)
{
	int64_t tcp = sc->tcp.mss + sc->tcp.header_bytes, rdma = sc->rdma.mtu + sc->rdma.header_bytes;
	return (uint32_t)(tcp > rdma ? tcp : rdma);
}
