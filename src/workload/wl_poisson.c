/*
 * wl_poisson.c — background traffic: flows arrive as a Poisson process at every host, sizes
 * drawn from a CDF, the rate set by the offered load.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "workload/arrivals.h"
#include "workload/cdf.h"
#include "workload/types.h"
#include "workload/wl_params.h"
#include "workload/workload.h"

#define P(f) offsetof(struct sb_wl_poisson, f)

static const char *const load_ref_choices[] = { "host", "uplink", NULL };
const char *const sb_dest_names[] = { "any", "other_rack", "next_rack", NULL };

static const struct sb_param poisson_params[] = {
	SB_WORKLOAD_COMMON_PARAMS(struct sb_wl_poisson, "dctcp", SB_WORKLOAD_TRANSPORT_DOC),
	{ "cdf", SB_P_STRING, P(cdf), "websearch", 0, 0, "", NULL,
	  "flow-size distribution: a built-in name (websearch, datamining, hadoop, cache, ...) or the path of a CDF file (relative to the scenario file's directory, or with --set to the working directory); write ./NAME for a file named like a built-in" },
	{ "load", SB_P_DOUBLE, P(load), "0.5", 0, 2, "", NULL,
	  "offered load as a fraction of the reference capacity chosen by load_ref; above 1 overloads it" },
	{ "load_ref", SB_P_ENUM, P(load_ref), "host", 0, 0, "", load_ref_choices,
	  "what load is relative to: host = each host offers load × host_rate_gbps; uplink = each rack offers load × its leaf's uplink capacity, split among its hosts" },
	{ "dest", SB_P_ENUM, P(dest), "other_rack", 0, 0, "", sb_dest_names,
	  "destination of each flow: any = a uniformly random other host; other_rack = a random host of another rack; next_rack = a random host of the next rack (rack r sends to rack r+1 mod racks)" },
	SB_PARAM_END
};

static int validate(const void *params, const struct sb_wl_shape *s, const struct sb_wl_env *env, struct sb_error *err)
{
	const struct sb_wl_poisson *p = params;
	if (s->hosts < 2)
		return sb_wl_fail(env, "type", err, "a poisson workload needs at least 2 hosts, the topology has %" PRId64,
				  s->hosts);
	if (p->dest != SB_DEST_ANY && s->racks < 2)
		return sb_wl_fail(env, "dest", err, "%s needs another rack, but %s", sb_dest_names[p->dest], s->one_rack);
	if (p->load_ref == SB_LOAD_UPLINK && !s->has_uplinks)
		return sb_wl_fail(env, "load_ref", err,
				  "uplink needs a topology with uplinks (leafspine or fattree), topology single has none");
	return 0;
}

static double offered_bps(const void *params, double host_bps, double uplink_bps)
{
	const struct sb_wl_poisson *p = params;
	return p->load * (p->load_ref == SB_LOAD_UPLINK ? uplink_bps : host_bps);
}

static void estimate(const void *params, const struct sb_wl_estimate_in *in, const struct sb_wl_env *env,
		     struct sb_wl_estimate *out)
{
	const struct sb_wl_poisson *p = params;
	struct sb_cdf cdf;
	struct sb_error ignored;
	double n = 0;
	if (sb_wl_load_cdf(env, p->cdf, &cdf, &ignored) == 0) {
		double ref = p->load_ref == SB_LOAD_UPLINK ? in->uplink_bps : in->host_bps;
		n = in->hosts * p->load * ref / (8 * sb_cdf_flow_mean(&cdf)) * in->window_s;
		out->first_bytes = SB_MIN(sb_cdf_flow_mean(&cdf), in->init_window);
		sb_cdf_free(&cdf);
	}
	out->in_flight = sb_wl_in_flight(n, in->hosts, p->load);
	out->flows_key = out->issued_key = "load";
	snprintf(out->what, sizeof(out->what),
		 "%.4g flows of workload %zu (%.0f hosts × load %g over %g ms; %.4g at once ≈ %.1f KB each)", n,
		 env->index, in->hosts, p->load, in->window_s * 1e3, sb_wl_in_flight(n, in->hosts, p->load),
		 in->flow_bytes / 1e3);
	out->flows = n + 3 * sqrt(n); /* Poisson arrivals: the count rarely goes further above its mean */
	out->start_events = in->hosts;
}

static const char *input_file(const void *params, const char **key, bool *builtin_ok)
{
	const struct sb_wl_poisson *p = params;
	*key = "cdf";
	*builtin_ok = true;
	return p->cdf && *p->cdf ? p->cdf : NULL;
}

/* --- the generator --- */

struct state {
	struct sb_cdf cdf;
	bool has_cdf;
	struct sb_wl_gen *gens;
};

static uint32_t pick_other_host(const struct sb_wl_world *w, struct sb_rng *rng, uint32_t self, int policy)
{
	uint32_t rack = sb_world_rack_of(w, self), hosts = sb_world_hosts(w);
	if (policy == SB_DEST_NEXT_RACK) {
		uint32_t r = (rack + 1) % sb_world_racks(w);
		return sb_world_rack_first(w, r) + (uint32_t)sb_rng_below(rng, sb_world_rack_count(w, r));
	}
	if (policy == SB_DEST_OTHER_RACK) {
		uint32_t first = sb_world_rack_first(w, rack), count = sb_world_rack_count(w, rack);
		uint32_t k = (uint32_t)sb_rng_below(rng, hosts - count);
		/* hosts of a rack are contiguous: skip over our own */
		return k < first ? k : k + count;
	}
	uint32_t k = (uint32_t)sb_rng_below(rng, hosts - 1);
	return k < self ? k : k + 1;
}

static void arrival(void *obj, uint64_t arg)
{
	struct sb_wl_gen *g = obj;
	const struct sb_wl_run *r = g->run;
	const struct sb_wl_poisson *p = r->cfg->params;
	struct state *st = r->state;
	(void)arg;
	sb_time now = sb_world_now(r->world);
	uint32_t dst = pick_other_host(r->world, &g->rng, g->host, p->dest);
	uint64_t size = sb_cdf_sample(&st->cdf, &g->rng);
	sb_world_spawn(r, g->host, dst, size, now, SB_KIND_BACKGROUND);
	sb_wl_arrivals_next(g, arrival);
}

/* flows/s = offered bits/s / (8 × mean size) */
static double flow_rate(const struct sb_wl_run *r, uint32_t host)
{
	const struct state *st = r->state;
	return sb_workload_offered_bps(r->world, r->cfg, host) / (8.0 * sb_cdf_flow_mean(&st->cdf));
}

static int start(struct sb_wl_run *r, struct sb_error *err)
{
	const struct sb_wl_poisson *p = r->cfg->params;
	struct state *st = r->state = sb_xcalloc(1, sizeof(*st));
	if (sb_wl_load_cdf(&r->env, p->cdf, &st->cdf, err))
		return -1;
	st->has_cdf = true;
	if (sb_world_racks(r->world) < 2 && p->dest != SB_DEST_ANY)
		return sb_wl_fail(&r->env, "dest", err, "the topology has one rack; use dest = \"any\"");
	st->gens = sb_wl_arrivals_start(r, NULL, false, flow_rate, arrival);
	return 0;
}

static void release(struct sb_wl_run *r)
{
	struct state *st = r->state;
	if (st->has_cdf)
		sb_cdf_free(&st->cdf);
	free(st->gens);
	free(st);
}

const struct sb_workload_ops sb_workload_poisson = {
	.name = "poisson",
	.summary = "Background traffic: flows arrive as a Poisson process at every host, sizes drawn "
		   "from `cdf`, rate set by `load` (docs/scenario.md). Flow arrival rate per host = "
		   "offered bits per second / (8 × mean flow size).",
	.params = poisson_params,
	.params_size = sizeof(struct sb_wl_poisson),
	.validate = validate,
	.estimate = estimate,
	.offered_bps = offered_bps,
	.input_file = input_file,
	.start = start,
	.free = release,
};
