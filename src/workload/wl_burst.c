/*
 * wl_burst.c — one synchronised burst: at start_ms every host of `srcs` sends size_bytes to
 * `dst`, by default all of it in its first window.
 */
#include "workload/endpoints.h"
#include "workload/wl_params.h"

#define P(f) offsetof(struct sb_wl_burst, f)

static const struct sb_param burst_params[] = {
	SB_WORKLOAD_COMMON_PARAMS(struct sb_wl_burst, "dctcp", SB_WORKLOAD_TRANSPORT_DOC),
	SB_WORKLOAD_ENDPOINT_PARAMS(struct sb_wl_burst),
	{ "size_bytes", SB_P_INT, P(ep.size_bytes), "100000", 1, 1e12, "bytes", NULL,
	  "bytes each source sends to dst, all sources starting together at start_ms" },
	{ "full_window", SB_P_BOOL, P(full_window), "true", 0, 0, "", NULL,
	  "true = each source sends its size_bytes at once (its initial window covers it); false = initial window tcp.init_cwnd_pkts" },
	SB_PARAM_END
};

static int validate(const void *params, const struct sb_wl_shape *s, const struct sb_wl_env *env, struct sb_error *err)
{
	const struct sb_wl_burst *p = params;
	if (sb_wl_endpoints_check_dst("burst", &p->ep, s, env, err))
		return -1;
	return sb_wl_endpoints_check_srcs(&p->ep, s, env, err);
}

static void estimate(const void *params, const struct sb_wl_estimate_in *in, const struct sb_wl_env *env,
		     struct sb_wl_estimate *out)
{
	const struct sb_wl_burst *p = params;
	double size = sb_wl_endpoints_estimate(&p->ep, in, env, out);
	out->first_bytes = p->full_window ? size : SB_MIN(size, in->init_window);
}

static void full_window(const struct sb_wl_run *r, struct sb_flow *f)
{
	const struct sb_wl_burst *p = r->cfg->params;
	if (p->full_window)
		f->init_window = (uint64_t)p->ep.size_bytes;
}

static int start(struct sb_wl_run *r, struct sb_error *err)
{
	const struct sb_wl_burst *p = r->cfg->params;
	return sb_wl_endpoints_start(r, &p->ep, SB_KIND_BURST, full_window, err);
}

const struct sb_workload_ops sb_workload_burst = {
	.name = "burst",
	.summary = "One synchronised burst: at `start_ms` every host of `srcs` sends `size_bytes` to `dst`.",
	.params = burst_params,
	.params_size = sizeof(struct sb_wl_burst),
	.validate = validate,
	.estimate = estimate,
	.start = start,
};
