/*
 * wl_longlived.c — one flow from every host of `srcs` to `dst` at start_ms, unbounded or of
 * size_bytes.
 */
#include "workload/endpoints.h"
#include "workload/wl_params.h"

#define P(f) offsetof(struct sb_wl_longlived, f)

static const struct sb_param longlived_params[] = {
	SB_WORKLOAD_COMMON_PARAMS(struct sb_wl_longlived, "dctcp", SB_WORKLOAD_TRANSPORT_DOC),
	SB_WORKLOAD_ENDPOINT_PARAMS(struct sb_wl_longlived),
	{ "size_bytes", SB_P_INT, P(ep.size_bytes), "0", 0, 1e15, "bytes", NULL,
	  "bytes each source sends, starting at start_ms; 0 = unlimited, the flow runs until the end of the run" },
	SB_PARAM_END
};

static int validate(const void *params, const struct sb_wl_shape *s, const struct sb_wl_env *env, struct sb_error *err)
{
	const struct sb_wl_longlived *p = params;
	if (sb_wl_endpoints_check_dst("longlived", &p->ep, s, env, err))
		return -1;
	return sb_wl_endpoints_check_srcs(&p->ep, s, env, err);
}

static void estimate(const void *params, const struct sb_wl_estimate_in *in, const struct sb_wl_env *env,
		     struct sb_wl_estimate *out)
{
	const struct sb_wl_longlived *p = params;
	double size = sb_wl_endpoints_estimate(&p->ep, in, env, out);
	out->first_bytes = SB_MIN(size, in->init_window);
}

static int start(struct sb_wl_run *r, struct sb_error *err)
{
	const struct sb_wl_longlived *p = r->cfg->params;
	return sb_wl_endpoints_start(r, &p->ep, SB_KIND_LONGLIVED, NULL, err);
}

const struct sb_workload_ops sb_workload_longlived = {
	.name = "longlived",
	.summary = "Long-lived flows from each host of `srcs` to `dst`, started at `start_ms`.",
	.params = longlived_params,
	.params_size = sizeof(struct sb_wl_longlived),
	.validate = validate,
	.estimate = estimate,
	.start = start,
};
