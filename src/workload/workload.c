/*
 * workload.c — turning the scenario's workloads into flows.
 */
#include "workload/workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "transport/cbr.h"
#include "transport/transport.h"
#include "workload/cdf.h"
#include "workload/filefeed.h"

/* One generator per (workload, host) for the Poisson processes. */
struct host_gen {
	struct sb_sim *sim;
	struct wl_state *wl;
	uint32_t host;
	double mean_gap_ps;  /* mean inter-arrival time */
	struct sb_rng rng;
};

struct wl_state {
	const struct sb_workload *cfg;
	const struct sb_transport_ops *ops;
	struct sb_cdf cdf;
	bool has_cdf;
	int prio, klass;      /* the workload's, or its transport's defaults (prio -1, class auto) */
	struct sb_filefeed *feed; /* a file workload's flow list (filefeed.h) */
	struct host_gen *gens;
	uint32_t ngens;
	sb_time start, stop;
	uint32_t *scratch;   /* responder candidates (incast) */
	uint64_t *sizes;     /* response sizes of one query (incast with `cdf`) */
	uint8_t *receiver;   /* incast with `receivers`: per host, 1 = a receiver (never a responder) */
	struct host_gen sync;/* incast with `sync`: the one process all receivers query on */
};

struct sb_wl_runtime {
	struct wl_state *w;
	size_t n;
};

static struct sb_flow *spawn_as(struct sb_sim *sim, const struct sb_transport_ops *ops, uint32_t src,
				uint32_t dst, uint64_t size, sb_time start, enum sb_flow_kind kind, int prio, int klass)
{
	struct sb_flow *f = sb_flow_create(&sim->flows, src, dst, size, start, ops);
	f->prio = (uint8_t)prio;
	f->lossless = klass == SB_CLASS_LOSSLESS;
	f->kind = (uint8_t)kind;
	return f;
}

static struct sb_flow *spawn(struct sb_sim *sim, struct wl_state *w, const struct sb_transport_ops *ops,
			     uint32_t src, uint32_t dst, uint64_t size, sb_time start, enum sb_flow_kind kind)
{
	return spawn_as(sim, ops, src, dst, size, start, kind, w->prio, w->klass);
}

/* Capacity the "uplink" load is relative to: the rack's uplinks shared by its hosts. */
double sb_workload_offered_bps(const struct sb_sim *sim, const struct sb_workload *wl, uint32_t host)
{
	const struct sb_port *nic = &sim->net.hosts[host]->node.ports[0];
	double ref = (double)nic->rate_bps;
	if (wl->load_ref == SB_LOAD_UPLINK) {
		const struct sb_node *tor = nic->peer->node;
		double up = 0, hosts = 0;
		for (uint16_t p = 0; p < tor->nports; p++) {
			if (tor->ports[p].peer->node->kind == SB_NODE_HOST)
				hosts += 1;
			else
				up += (double)tor->ports[p].rate_bps;
		}
		if (up > 0 && hosts > 0)
			ref = up / hosts;
	}
	return wl->load * ref;
}

static uint32_t pick_other_host(struct sb_sim *sim, struct sb_rng *rng, uint32_t self, int policy)
{
	uint32_t rack = sim->net.hosts[self]->rack;
	switch (policy) {
	case SB_DEST_NEXT_RACK: {
		uint32_t r = (rack + 1) % sim->net.nracks;
		return sim->net.rack_first[r] + (uint32_t)sb_rng_below(rng, sim->net.rack_count[r]);
	}
	case SB_DEST_OTHER_RACK: {
		uint32_t others = sim->net.nhosts - sim->net.rack_count[rack];
		uint32_t k = (uint32_t)sb_rng_below(rng, others);
		/* hosts of a rack are contiguous: skip over our own */
		return k < sim->net.rack_first[rack] ? k : k + sim->net.rack_count[rack];
	}
	default: {
		uint32_t k = (uint32_t)sb_rng_below(rng, sim->net.nhosts - 1);
		return k < self ? k : k + 1;
	}
	}
}

/* The next arrival of a per-host Poisson process, if it falls inside the window. */
static void schedule_next(struct sb_sim *sim, struct host_gen *g, sb_event_fn fn)
{
	sb_time now = sb_now(&sim->net.engine);
	double gap = sb_rng_exponential(&g->rng, g->mean_gap_ps);
	if (now < g->wl->stop && gap < (double)(g->wl->stop - now))
		sb_at(&sim->net.engine, now + (sb_time)(gap + 0.5), fn, g, 0);
}

/* --- poisson background --- */

static void poisson_arrival(void *obj, uint64_t arg)
{
	struct host_gen *g = obj;
	struct sb_sim *sim = g->sim;
	struct wl_state *w = g->wl;
	(void)arg;
	sb_time now = sb_now(&sim->net.engine);
	uint32_t dst = pick_other_host(sim, &g->rng, g->host, w->cfg->dest);
	uint64_t size = sb_cdf_sample(&w->cdf, &g->rng);
	spawn(sim, w, w->ops, g->host, dst, size, now, SB_KIND_BACKGROUND);
	schedule_next(sim, g, poisson_arrival);
}

/* --- incast queries --- */

/* The one rack that answers queries from `rack` under next_rack and mirror_rack. */
static inline uint32_t paired_rack(const struct sb_sim *sim, int responders, uint32_t rack)
{
	return responders == SB_RESP_MIRROR_RACK ? sim->net.nracks - 1 - rack : (rack + 1) % sim->net.nracks;
}

/* The hosts a query of host `self` (in rack `rack`) may take its responders from, into
 * w->scratch; returns how many. Receivers of a workload with `receivers` only ask. */
static uint32_t responder_candidates(struct sb_sim *sim, struct wl_state *w, struct host_gen *g, uint32_t rack)
{
	const struct sb_workload *c = w->cfg;
	uint32_t first = 0, count = sim->net.nhosts, n = 0;
	if (c->responders != SB_RESP_ANY) {
		uint32_t r = paired_rack(sim, c->responders, rack);
		if (c->responders == SB_RESP_RANDOM_RACK) {
			r = (uint32_t)sb_rng_below(&g->rng, sim->net.nracks - 1);
			r = r < rack ? r : r + 1;
		}
		first = sim->net.rack_first[r];
		count = sim->net.rack_count[r];
	}
	for (uint32_t h = first; h < first + count; h++)
		if (h != g->host && !(w->receiver && w->receiver[h]))
			w->scratch[n++] = h;
	return n;
}

/* One query of receiver g->host at `now`: fan-in, responders, response sizes. */
static void issue_query(struct sb_sim *sim, struct wl_state *w, struct host_gen *g, sb_time now)
{
	const struct sb_workload *c = w->cfg;
	uint32_t n = responder_candidates(sim, w, g, sim->net.hosts[g->host]->rack);
	uint32_t fanin = (uint32_t)c->fanin;
	if (c->fanin_min > 0 && c->fanin_min < c->fanin)
		fanin = (uint32_t)c->fanin_min + (uint32_t)sb_rng_below(&g->rng, (uint64_t)(c->fanin - c->fanin_min + 1));
	fanin = fanin < n ? fanin : n; /* start_one made sure n >= fanin */
	if (fanin == 0)
		return;
	/* partial Fisher-Yates: the first `fanin` entries become a uniform random subset */
	for (uint32_t i = 0; i < fanin && fanin < n; i++) {
		uint32_t j = i + (uint32_t)sb_rng_below(&g->rng, n - i), t = w->scratch[i];
		w->scratch[i] = w->scratch[j];
		w->scratch[j] = t;
	}
	/* sizes: size_bytes split evenly, or one draw from the CDF per response */
	uint64_t each = (uint64_t)c->size_bytes / fanin, total = 0;
	if (each == 0)
		each = 1;
	uint64_t *size = w->has_cdf ? w->sizes : NULL;
	for (uint32_t i = 0; i < fanin; i++) {
		if (size)
			size[i] = sb_cdf_sample(&w->cdf, &g->rng);
		total += size ? size[i] : each;
	}
	int32_t q = sb_query_new(sim, g->host, now, (uint16_t)fanin, w->scratch[0], total);
	sim->queries[q].ops = w->ops;
	for (uint32_t i = 0; i < fanin; i++) {
		uint64_t bytes = size ? size[i] : each;
		struct sb_flow *f = spawn(sim, w, w->ops, w->scratch[i], g->host, bytes, now, SB_KIND_INCAST);
		f->query_id = q;
		if (c->full_window)
			f->init_window = bytes;
	}
}

static void incast_query(void *obj, uint64_t arg)
{
	struct host_gen *g = obj;
	(void)arg;
	issue_query(g->sim, g->wl, g, sb_now(&g->sim->net.engine));
	schedule_next(g->sim, g, incast_query);
}

/* `sync`: every receiver queries at the same instant, in host order, each drawing its query
 * from its own stream (so a receiver's queries do not depend on how many others there are). */
static void incast_sync_event(void *obj, uint64_t arg)
{
	struct host_gen *s = obj;
	struct wl_state *w = s->wl;
	(void)arg;
	for (uint32_t h = 0; h < w->ngens; h++)
		if (!w->receiver || w->receiver[h])
			issue_query(s->sim, w, &w->gens[h], sb_now(&s->sim->net.engine));
	schedule_next(s->sim, s, incast_sync_event);
}

/* Per-host Poisson processes. `fixed_rate` (events/s per host) for incast queries; poisson
 * background flows derive theirs from the offered load and the CDF mean instead. */
static void start_processes(struct sb_sim *sim, struct wl_state *w, size_t wi, bool fixed, double fixed_rate,
			    sb_event_fn fn)
{
	w->ngens = sim->net.nhosts;
	w->gens = sb_xcalloc(sim->net.nhosts, sizeof(*w->gens));
	for (uint32_t h = 0; h < sim->net.nhosts; h++) {
		struct host_gen *g = &w->gens[h];
		g->sim = sim;
		g->wl = w;
		g->host = h;
		sb_rng_init(&g->rng, sim->seed, SB_STREAM_WORKLOAD + ((uint64_t)wi << 32) + h);
		if (w->receiver && !w->receiver[h])
			continue;
		if (w->cfg->sync) /* the host's stream draws its queries; the times are the sync process's */
			continue;
		/* poisson: flows/s = offered bits/s / (8 × mean size) */
		double rate = fixed ? fixed_rate : sb_workload_offered_bps(sim, w->cfg, h) / (8.0 * sb_cdf_flow_mean(&w->cdf));
		if (!(rate > 0) || !isfinite(rate))
			continue;
		g->mean_gap_ps = 1e12 / rate;
		/* a first arrival beyond the window (or beyond what sb_time holds) never happens */
		double gap = sb_rng_exponential(&g->rng, g->mean_gap_ps);
		if (w->start < w->stop && gap < (double)(w->stop - w->start))
			sb_at(&sim->net.engine, w->start + (sb_time)(gap + 0.5), fn, g, 0);
	}
	if (w->cfg->type == SB_WL_INCAST && w->cfg->sync && fixed_rate > 0 && isfinite(fixed_rate)) {
		/* its own stream, beyond every host's: adding it shifts no other draw */
		struct host_gen *g = &w->sync;
		*g = (struct host_gen){ .sim = sim, .wl = w, .host = UINT32_MAX, .mean_gap_ps = 1e12 / fixed_rate };
		sb_rng_init(&g->rng, sim->seed, SB_STREAM_WORKLOAD + ((uint64_t)wi << 32) + sim->net.nhosts);
		double gap = sb_rng_exponential(&g->rng, g->mean_gap_ps);
		if (w->start < w->stop && gap < (double)(w->stop - w->start))
			sb_at(&sim->net.engine, w->start + (sb_time)(gap + 0.5), incast_sync_event, g, 0);
	}
}

static int check_host(const struct sb_sim *sim, const struct sb_workload *c, size_t wi, const char *key, int64_t h,
		      struct sb_error *err)
{
	char k[80];
	snprintf(k, sizeof(k), "workloads.%zu.%s", wi, key);
	(void)c;
	if (h < 0 || h >= (int64_t)sim->net.nhosts)
		return sb_scenario_fail(sim->sc, k, err, "%lld is not a host (the topology has %u, 0..%u)",
					(long long)h, sim->net.nhosts, sim->net.nhosts - 1);
	return 0;
}

/* Responders a query of `host` can choose from at worst (random_rack: the smallest other rack). */
static uint32_t fewest_candidates(const struct sb_sim *sim, const struct wl_state *w, uint32_t host)
{
	const struct sb_workload *c = w->cfg;
	uint32_t rack = sim->net.hosts[host]->rack, fewest = UINT32_MAX;
	for (uint32_t r = 0; r < sim->net.nracks; r++) {
		bool used = c->responders == SB_RESP_ANY ||
			    (c->responders == SB_RESP_RANDOM_RACK ? r != rack : r == paired_rack(sim, c->responders, rack));
		if (!used)
			continue;
		uint32_t n = 0;
		for (uint32_t h = sim->net.rack_first[r]; h < sim->net.rack_first[r] + sim->net.rack_count[r]; h++)
			n += h != host && !(w->receiver && w->receiver[h]);
		if (c->responders == SB_RESP_ANY)
			fewest = fewest == UINT32_MAX ? n : fewest + n; /* every rack together */
		else if (n < fewest)
			fewest = n;
	}
	return fewest == UINT32_MAX ? 0 : fewest;
}

/* Every receiver must find `fanin` responders: a smaller query would be a different workload. */
static int check_fanin(const struct sb_sim *sim, const struct wl_state *w, size_t wi, struct sb_error *err)
{
	const struct sb_workload *c = w->cfg;
	for (uint32_t h = 0; h < sim->net.nhosts; h++) {
		if (w->receiver && !w->receiver[h])
			continue;
		uint32_t n = fewest_candidates(sim, w, h);
		char key[48];
		snprintf(key, sizeof(key), "workloads.%zu.fanin", wi);
		if ((int64_t)n < c->fanin)
			return sb_scenario_fail(sim->sc, key, err, "%lld responders per query, but host %u's queries can draw on only %u (responders = %s%s)",
						(long long)c->fanin, h, n,
						sb_responders_names[c->responders], w->receiver ? ", receivers excluded" : "");
	}
	return 0;
}

int sb_workload_load_cdf(const struct sb_scenario *sc, size_t wi, struct sb_cdf *c, struct sb_error *err)
{
	const char *name = sc->workloads[wi].cdf ? sc->workloads[wi].cdf : "";
	char key[48], why[sizeof(err->msg)];
	snprintf(key, sizeof(key), "workloads.%zu.cdf", wi);
	char *path = sb_cdf_builtin_find(name) ? sb_xstrdup(name) : sb_scenario_path(sc, key, name);
	int rc = sb_cdf_load(c, path, err);
	free(path);
	if (rc) {
		snprintf(why, sizeof(why), "%s", err->msg);
		return sb_scenario_fail(sc, key, err, "%s", why);
	}
	return 0;
}

char *sb_workload_flow_path(const struct sb_scenario *sc, size_t wi)
{
	char key[48];
	snprintf(key, sizeof(key), "workloads.%zu.path", wi);
	return sb_scenario_path(sc, key, sc->workloads[wi].path ? sc->workloads[wi].path : "");
}

static int load_cdf(struct sb_sim *sim, struct wl_state *w, size_t wi, struct sb_error *err)
{
	if (sb_workload_load_cdf(sim->sc, wi, &w->cdf, err))
		return -1;
	w->has_cdf = true;
	return 0;
}

static int start_one(struct sb_sim *sim, struct wl_state *w, size_t wi, struct sb_error *err)
{
	const struct sb_workload *c = w->cfg;
	char key[48];
#define KEY(name) (snprintf(key, sizeof(key), "workloads.%zu.%s", wi, name), key)
	w->start = sb_time_from_ms(c->start_ms);
	w->stop = c->stop_ms > 0 ? sb_time_from_ms(c->stop_ms) : sim->arrivals_end;
	if (c->type != SB_WL_FILE) {
		w->ops = sb_transport_find(c->transport);
		if (!w->ops)
			return sb_scenario_fail(sim->sc, KEY("transport"), err, "unknown transport \"%s\" (see `sharebuf list`)",
						c->transport);
		w->prio = c->prio >= 0 ? (int)c->prio : sb_transport_default_prio(w->ops);
		w->klass = c->klass != SB_CLASS_AUTO ? c->klass
			   : w->ops->lossless_by_default ? SB_CLASS_LOSSLESS : SB_CLASS_LOSSY;
		if (w->klass == SB_CLASS_LOSSLESS)
			sim->net.lossless_prio_mask |= (uint8_t)(1u << w->prio);
	}
	switch (c->type) {
	case SB_WL_POISSON:
		if (load_cdf(sim, w, wi, err))
			return -1;
		if (sim->net.nracks < 2 && c->dest != SB_DEST_ANY)
			return sb_scenario_fail(sim->sc, KEY("dest"), err, "the topology has one rack; use dest = \"any\"");
		start_processes(sim, w, wi, false, 0, poisson_arrival);
		return 0;
	case SB_WL_INCAST:
		if (sim->net.nracks < 2 && c->responders != SB_RESP_ANY)
			return sb_scenario_fail(sim->sc, KEY("responders"), err,
						"the topology has one rack; use responders = \"any\"");
		if (c->cdf && *c->cdf && load_cdf(sim, w, wi, err))
			return -1;
		if (c->receivers.n) {
			w->receiver = sb_xcalloc(sim->net.nhosts, 1);
			for (size_t i = 0; i < c->receivers.n; i++) {
				if (check_host(sim, c, wi, "receivers", c->receivers.v[i], err))
					return -1;
				w->receiver[c->receivers.v[i]] = 1;
			}
		}
		w->scratch = sb_xcalloc(sim->net.nhosts, sizeof(*w->scratch));
		w->sizes = sb_xcalloc(sim->net.nhosts, sizeof(*w->sizes));
		if (check_fanin(sim, w, wi, err))
			return -1;
		start_processes(sim, w, wi, true, c->query_rate, incast_query);
		return 0;
	case SB_WL_LONGLIVED:
	case SB_WL_BURST:
	case SB_WL_CBR:
		if (c->srcs.n == 0)
			return sb_scenario_fail(sim->sc, KEY("srcs"), err, "a %s workload needs at least one source host",
						sb_workload_type_name[c->type]);
		if (check_host(sim, c, wi, "dst", c->dst, err))
			return -1;
		for (size_t i = 0; i < c->srcs.n; i++) {
			if (check_host(sim, c, wi, "srcs", c->srcs.v[i], err))
				return -1;
			if (c->srcs.v[i] == c->dst)
				return sb_scenario_fail(sim->sc, KEY("srcs"), err, "host %lld sends to itself", (long long)c->dst);
			enum sb_flow_kind kind = c->type == SB_WL_BURST ? SB_KIND_BURST
						 : c->type == SB_WL_CBR ? SB_KIND_CBR : SB_KIND_LONGLIVED;
			struct sb_flow *f = spawn(sim, w, w->ops, (uint32_t)c->srcs.v[i], (uint32_t)c->dst,
						  (uint64_t)c->size_bytes, w->start, kind);
			if (c->type == SB_WL_CBR)
				sb_cbr_configure(f, (uint64_t)(c->rate_gbps * 1e9), (uint32_t)c->packet_bytes);
			if (c->type == SB_WL_BURST && c->full_window)
				f->init_window = (uint64_t)c->size_bytes;
		}
		return 0;
	case SB_WL_FILE:
		return sb_filefeed_start(sim, wi, w->start, &w->feed, err);
	}
	return sb_scenario_fail(sim->sc, KEY("type"), err, "unknown type");
#undef KEY
}

int sb_workloads_start(struct sb_sim *sim, struct sb_error *err)
{
	const struct sb_scenario *sc = sim->sc;
	sim->wl = sb_xcalloc(1, sizeof(*sim->wl));
	sim->wl->n = sc->nworkloads;
	sim->wl->w = sb_xcalloc(sc->nworkloads + 1, sizeof(*sim->wl->w));
	for (size_t i = 0; i < sc->nworkloads; i++) {
		sim->wl->w[i].cfg = &sc->workloads[i];
		if (start_one(sim, &sim->wl->w[i], i, err))
			return -1;
	}
	return 0;
}

void sb_workloads_free(struct sb_sim *sim)
{
	if (!sim->wl)
		return;
	for (size_t i = 0; i < sim->wl->n; i++) {
		struct wl_state *w = &sim->wl->w[i];
		if (w->has_cdf)
			sb_cdf_free(&w->cdf);
		sb_filefeed_free(w->feed);
		free(w->gens);
		free(w->scratch);
		free(w->sizes);
		free(w->receiver);
	}
	free(sim->wl->w);
	free(sim->wl);
	sim->wl = NULL;
}
