/*
 * wl_incast.c — query/response incast: each receiver queries `fanin` responders at a Poisson
 * rate; every responder answers size_bytes / fanin (or a size drawn from `cdf`) at once, and
 * the query completes with its slowest response (QCT).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "workload/arrivals.h"
#include "workload/cdf.h"
#include "workload/types.h"
#include "workload/wl_params.h"

#define P(f) offsetof(struct sb_wl_incast, f)

const char *const sb_responders_names[] = { "next_rack", "random_rack", "any", "mirror_rack", NULL };

static const struct sb_param incast_params[] = {
	SB_WORKLOAD_COMMON_PARAMS(struct sb_wl_incast, "dctcp", SB_WORKLOAD_TRANSPORT_DOC),
	{ "query_rate", SB_P_DOUBLE, P(query_rate), "2", 0, 1e7, "queries/s", NULL,
	  "queries issued per second by each receiver (Poisson arrivals)" },
	{ "receivers", SB_P_INT_LIST, P(receivers), "", 0, SB_WORKLOAD_MAX_HOST, "host indices", NULL,
	  "hosts that issue queries, e.g. [0, 16, 32, 48]; they only ask, they are never picked as responders of this workload. Empty = every host (and any host may respond)" },
	{ "sync", SB_P_BOOL, P(sync), "false", 0, 0, "", NULL,
	  "true = one Poisson process of query_rate for the whole workload, and at each of its events every receiver queries at once (DSH Fig. 12 fires its four fan-in groups together); false = each receiver has its own process" },
	{ "fanin", SB_P_INT, P(fanin), "16", 1, 65535, "hosts", NULL,
	  "responders answering each query (with fanin_min: the largest fan-in)" },
	{ "fanin_min", SB_P_INT, P(fanin_min), "0", 0, 65535, "hosts", NULL,
	  "each query draws its fan-in uniformly from fanin_min..fanin; 0 = always fanin" },
	{ "size_bytes", SB_P_INT, P(size_bytes), "2000000", 1, 1e12, "bytes", NULL,
	  "total response size of one query, split evenly among its responders (unused with cdf)" },
	{ "cdf", SB_P_STRING, P(cdf), "", 0, 0, "", NULL,
	  "response sizes: empty = size_bytes split evenly; a flow-size distribution (built-in name such as hadoop_dsh, or a CDF file) = every response draws its own size from it" },
	{ "responders", SB_P_ENUM, P(responders), "next_rack", 0, 0, "", sb_responders_names,
	  "where a query's responders are: next_rack = hosts of the querier's next rack; random_rack = hosts of one random other rack; any = any hosts but the querier; mirror_rack = hosts of rack (racks - 1 - r) for a querier in rack r, pairing racks from the outside in (0 and 3, 1 and 2 of 4; the middle rack of an odd number answers itself)" },
	{ "full_window", SB_P_BOOL, P(full_window), "true", 0, 0, "", NULL,
	  "true = each response is sent at once (its initial window covers the whole response), making the burst synchronous; false = initial window tcp.init_cwnd_pkts" },
	SB_PARAM_END
};

static int validate(const void *params, const struct sb_wl_shape *s, const struct sb_wl_env *env, struct sb_error *err)
{
	const struct sb_wl_incast *p = params;
	int64_t available;
	if (p->responders != SB_RESP_ANY) {
		if (s->racks < 2)
			return sb_wl_fail(env, "responders", err, "%s needs another rack, but %s",
					  sb_responders_names[p->responders], s->one_rack);
		available = s->hosts_per_rack;
	} else {
		available = s->hosts - 1;
	}
	if (p->fanin > available)
		return sb_wl_fail(env, "fanin", err, "%" PRId64 " responders per query, but responders = %s offers only %" PRId64
				  " hosts", p->fanin, sb_responders_names[p->responders], available);
	if (p->fanin_min > p->fanin)
		return sb_wl_fail(env, "fanin_min", err,
				  "%" PRId64 " is above fanin (%" PRId64 "); the fan-in is drawn from fanin_min..fanin",
				  p->fanin_min, p->fanin);
	for (size_t i = 0; i < p->receivers.n; i++) {
		char elem[48];
		snprintf(elem, sizeof(elem), "receivers[%zu]", i);
		if (sb_wl_check_host(env, s, elem, p->receivers.v[i], err))
			return -1;
	}
	return 0;
}

static void estimate(const void *params, const struct sb_wl_estimate_in *in, const struct sb_wl_env *env,
		     struct sb_wl_estimate *out)
{
	const struct sb_wl_incast *p = params;
	double receivers = p->receivers.n ? (double)p->receivers.n : in->hosts;
	double queries = receivers * p->query_rate * in->window_s;
	double n = queries * (double)p->fanin;
	out->extra_bytes = queries * in->query_bytes;
	double response = (double)p->size_bytes / (double)p->fanin;
	if (p->cdf && *p->cdf) {
		struct sb_cdf cdf;
		struct sb_error ignored;
		if (sb_wl_load_cdf(env, p->cdf, &cdf, &ignored) == 0) {
			response = sb_cdf_flow_mean(&cdf);
			sb_cdf_free(&cdf);
		}
	}
	out->first_bytes = p->full_window ? response : SB_MIN(response, in->init_window);
	out->concurrent = receivers * (double)p->fanin;
	/* a receiver's link carries its queries' responses: its utilisation */
	double util = p->query_rate * response * (double)p->fanin * 8 / in->host_bps;
	out->in_flight = sb_wl_in_flight(queries, receivers, util) * (double)p->fanin;
	out->flows_key = "query_rate";
	out->issued_key = p->full_window ? "size_bytes" : "query_rate";
	snprintf(out->what, sizeof(out->what),
		 "%.4g flows of workload %zu (%.0f receivers × %g queries/s × %g ms × fanin %" PRId64
		 "; %.4g at once ≈ %.1f KB each, %.0f B per query)", n, env->index, receivers, p->query_rate,
		 in->window_s * 1e3, p->fanin, out->in_flight, in->flow_bytes / 1e3, in->query_bytes);
	out->flows = n + 3 * sqrt(n); /* Poisson arrivals: the count rarely goes further above its mean */
	out->start_events = p->receivers.n ? (double)p->receivers.n : in->hosts;
}

static const char *input_file(const void *params, const char **key, bool *builtin_ok)
{
	const struct sb_wl_incast *p = params;
	*key = "cdf";
	*builtin_ok = true;
	return p->cdf && *p->cdf ? p->cdf : NULL;
}

/* --- the generator --- */

struct state {
	struct sb_cdf cdf;
	bool has_cdf;
	struct sb_wl_gen *gens;  /* per host: its stream (and, without sync, its process) */
	uint32_t *scratch;       /* responder candidates */
	uint64_t *sizes;         /* response sizes of one query (with `cdf`) */
	uint8_t *receiver;       /* with `receivers`: per host, 1 = a receiver (never a responder) */
	struct sb_wl_gen sync;   /* with `sync`: the one process all receivers query on */
};

/* The one rack that answers queries from `rack` under next_rack and mirror_rack. */
static inline uint32_t paired_rack(const struct sb_wl_world *w, int responders, uint32_t rack)
{
	uint32_t racks = sb_world_racks(w);
	return responders == SB_RESP_MIRROR_RACK ? racks - 1 - rack : (rack + 1) % racks;
}

/* The hosts a query of host g->host (in rack `rack`) may take its responders from, into
 * st->scratch; returns how many. Receivers of a workload with `receivers` only ask. */
static uint32_t responder_candidates(const struct sb_wl_incast *p, struct state *st, struct sb_wl_gen *g,
				     uint32_t rack)
{
	const struct sb_wl_world *w = g->run->world;
	uint32_t first = 0, count = sb_world_hosts(w), n = 0;
	if (p->responders != SB_RESP_ANY) {
		uint32_t r = paired_rack(w, p->responders, rack);
		if (p->responders == SB_RESP_RANDOM_RACK) {
			r = (uint32_t)sb_rng_below(&g->rng, sb_world_racks(w) - 1);
			r = r < rack ? r : r + 1;
		}
		first = sb_world_rack_first(w, r);
		count = sb_world_rack_count(w, r);
	}
	for (uint32_t h = first; h < first + count; h++)
		if (h != g->host && !(st->receiver && st->receiver[h]))
			st->scratch[n++] = h;
	return n;
}

/* One query of receiver g->host at `now`: fan-in, responders, response sizes. */
static void issue_query(struct sb_wl_gen *g, sb_time now)
{
	const struct sb_wl_run *r = g->run;
	const struct sb_wl_incast *p = r->cfg->params;
	struct state *st = r->state;
	uint32_t n = responder_candidates(p, st, g, sb_world_rack_of(r->world, g->host));
	uint32_t fanin = (uint32_t)p->fanin;
	if (p->fanin_min > 0 && p->fanin_min < p->fanin)
		fanin = (uint32_t)p->fanin_min + (uint32_t)sb_rng_below(&g->rng, (uint64_t)(p->fanin - p->fanin_min + 1));
	fanin = fanin < n ? fanin : n; /* start made sure n >= fanin */
	if (fanin == 0)
		return;
	/* partial Fisher-Yates: the first `fanin` entries become a uniform random subset */
	for (uint32_t i = 0; i < fanin && fanin < n; i++) {
		uint32_t j = i + (uint32_t)sb_rng_below(&g->rng, n - i), t = st->scratch[i];
		st->scratch[i] = st->scratch[j];
		st->scratch[j] = t;
	}
	/* sizes: size_bytes split evenly, or one draw from the CDF per response */
	uint64_t each = (uint64_t)p->size_bytes / fanin, total = 0;
	if (each == 0)
		each = 1;
	uint64_t *size = st->has_cdf ? st->sizes : NULL;
	for (uint32_t i = 0; i < fanin; i++) {
		if (size)
			size[i] = sb_cdf_sample(&st->cdf, &g->rng);
		total += size ? size[i] : each;
	}
	int32_t q = sb_world_query(r, g->host, now, (uint16_t)fanin, st->scratch[0], total);
	for (uint32_t i = 0; i < fanin; i++) {
		uint64_t bytes = size ? size[i] : each;
		struct sb_flow *f = sb_world_spawn(r, st->scratch[i], g->host, bytes, now, SB_KIND_INCAST);
		f->query_id = q;
		if (p->full_window)
			f->init_window = bytes;
	}
}

static void query_event(void *obj, uint64_t arg)
{
	struct sb_wl_gen *g = obj;
	(void)arg;
	issue_query(g, sb_world_now(g->run->world));
	sb_wl_arrivals_next(g, query_event);
}

/* `sync`: every receiver queries at the same instant, in host order, each drawing its query
 * from its own stream (so a receiver's queries do not depend on how many others there are). */
static void sync_event(void *obj, uint64_t arg)
{
	struct sb_wl_gen *s = obj;
	struct state *st = s->run->state;
	uint32_t hosts = sb_world_hosts(s->run->world);
	(void)arg;
	for (uint32_t h = 0; h < hosts; h++)
		if (!st->receiver || st->receiver[h])
			issue_query(&st->gens[h], sb_world_now(s->run->world));
	sb_wl_arrivals_next(s, sync_event);
}

/* Responders a query of `host` can choose from at worst (random_rack: the smallest other rack). */
static uint32_t fewest_candidates(const struct sb_wl_world *w, const struct sb_wl_incast *p, const struct state *st,
				  uint32_t host)
{
	uint32_t rack = sb_world_rack_of(w, host), fewest = UINT32_MAX;
	for (uint32_t r = 0; r < sb_world_racks(w); r++) {
		bool used = p->responders == SB_RESP_ANY ||
			    (p->responders == SB_RESP_RANDOM_RACK ? r != rack : r == paired_rack(w, p->responders, rack));
		if (!used)
			continue;
		uint32_t n = 0, first = sb_world_rack_first(w, r);
		for (uint32_t h = first; h < first + sb_world_rack_count(w, r); h++)
			n += h != host && !(st->receiver && st->receiver[h]);
		if (p->responders == SB_RESP_ANY)
			fewest = fewest == UINT32_MAX ? n : fewest + n; /* every rack together */
		else if (n < fewest)
			fewest = n;
	}
	return fewest == UINT32_MAX ? 0 : fewest;
}

/* Every receiver must find `fanin` responders: a smaller query would be a different workload. */
static int check_fanin(const struct sb_wl_run *r, const struct sb_wl_incast *p, const struct state *st,
		       struct sb_error *err)
{
	for (uint32_t h = 0; h < sb_world_hosts(r->world); h++) {
		if (st->receiver && !st->receiver[h])
			continue;
		uint32_t n = fewest_candidates(r->world, p, st, h);
		if ((int64_t)n < p->fanin)
			return sb_wl_fail(&r->env, "fanin", err, "%lld responders per query, but host %u's queries can draw on only %u (responders = %s%s)",
					  (long long)p->fanin, h, n, sb_responders_names[p->responders],
					  st->receiver ? ", receivers excluded" : "");
	}
	return 0;
}

static double query_rate(const struct sb_wl_run *r, uint32_t host)
{
	(void)host;
	return ((const struct sb_wl_incast *)r->cfg->params)->query_rate;
}

static int start(struct sb_wl_run *r, struct sb_error *err)
{
	const struct sb_wl_incast *p = r->cfg->params;
	struct state *st = r->state = sb_xcalloc(1, sizeof(*st));
	uint32_t hosts = sb_world_hosts(r->world);
	if (sb_world_racks(r->world) < 2 && p->responders != SB_RESP_ANY)
		return sb_wl_fail(&r->env, "responders", err, "the topology has one rack; use responders = \"any\"");
	if (p->cdf && *p->cdf) {
		if (sb_wl_load_cdf(&r->env, p->cdf, &st->cdf, err))
			return -1;
		st->has_cdf = true;
	}
	if (p->receivers.n) {
		st->receiver = sb_xcalloc(hosts, 1);
		for (size_t i = 0; i < p->receivers.n; i++) {
			if (sb_world_check_host(r, "receivers", p->receivers.v[i], err))
				return -1;
			st->receiver[p->receivers.v[i]] = 1;
		}
	}
	st->scratch = sb_xcalloc(hosts, sizeof(*st->scratch));
	st->sizes = sb_xcalloc(hosts, sizeof(*st->sizes));
	if (check_fanin(r, p, st, err))
		return -1;
	st->gens = sb_wl_arrivals_start(r, st->receiver, p->sync, query_rate, query_event);
	if (p->sync && p->query_rate > 0 && isfinite(p->query_rate)) {
		/* its own stream, beyond every host's: adding it shifts no other draw */
		struct sb_wl_gen *g = &st->sync;
		*g = (struct sb_wl_gen){ .run = r, .host = UINT32_MAX, .mean_gap_ps = 1e12 / p->query_rate };
		sb_rng_init(&g->rng, sb_world_seed(r->world), SB_STREAM_WORKLOAD + ((uint64_t)r->index << 32) + hosts);
		sb_wl_arrivals_first(g, sync_event);
	}
	return 0;
}

static void release(struct sb_wl_run *r)
{
	struct state *st = r->state;
	if (st->has_cdf)
		sb_cdf_free(&st->cdf);
	free(st->gens);
	free(st->scratch);
	free(st->sizes);
	free(st->receiver);
	free(st);
}

const struct sb_workload_ops sb_workload_incast = {
	.name = "incast",
	.summary = "Query/response incast: every host (or every host of `receivers`) issues queries at "
		   "`query_rate`, each on its own Poisson process or, with `sync`, all at each event of "
		   "one; each query asks `fanin` responders (or a number drawn from `fanin_min`..`fanin`) "
		   "for `size_bytes / fanin` bytes each (or a size drawn from `cdf` each), all answering "
		   "at once.",
	.params = incast_params,
	.params_size = sizeof(struct sb_wl_incast),
	.validate = validate,
	.estimate = estimate,
	.input_file = input_file,
	.start = start,
	.free = release,
};
