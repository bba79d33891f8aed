/*
 * endpoints.c — the srcs → dst types' shared checks, estimate and start (endpoints.h).
 */
#include "workload/endpoints.h"

#include <inttypes.h>
#include <stdio.h>

int sb_wl_endpoints_check_dst(const char *name, const struct sb_wl_endpoints *ep, const struct sb_wl_shape *s,
			      const struct sb_wl_env *env, struct sb_error *err)
{
	if (sb_wl_check_host(env, s, "dst", ep->dst, err))
		return -1;
	if (ep->srcs.n == 0)
		return sb_wl_fail(env, "srcs", err, "a %s workload needs at least one source host, e.g. srcs = [1];", name);
	return 0;
}

int sb_wl_endpoints_check_srcs(const struct sb_wl_endpoints *ep, const struct sb_wl_shape *s,
			       const struct sb_wl_env *env, struct sb_error *err)
{
	for (size_t i = 0; i < ep->srcs.n; i++) {
		char elem[48];
		snprintf(elem, sizeof(elem), "srcs[%zu]", i);
		if (sb_wl_check_host(env, s, elem, ep->srcs.v[i], err))
			return -1;
		if (ep->srcs.v[i] == ep->dst)
			return sb_wl_fail(env, elem, err, "host %" PRId64 " is also the destination (dst)", ep->dst);
	}
	return 0;
}

double sb_wl_endpoints_estimate(const struct sb_wl_endpoints *ep, const struct sb_wl_estimate_in *in,
				const struct sb_wl_env *env, struct sb_wl_estimate *out)
{
	double srcs = (double)ep->srcs.n;
	out->flows = srcs;
	out->start_events = srcs;
	out->flows_key = "srcs";
	out->issued_key = "size_bytes";
	snprintf(out->what, sizeof(out->what), "%.0f flows of workload %zu", srcs, env->index);
	out->concurrent = srcs;
	return ep->size_bytes > 0 ? (double)ep->size_bytes : in->init_window;
}

int sb_wl_endpoints_start(struct sb_wl_run *r, const struct sb_wl_endpoints *ep, enum sb_flow_kind kind,
			  void (*each)(const struct sb_wl_run *r, struct sb_flow *f), struct sb_error *err)
{
	if (ep->srcs.n == 0)
		return sb_wl_fail(&r->env, "srcs", err, "a %s workload needs at least one source host", r->cfg->ops->name);
	if (sb_world_check_host(r, "dst", ep->dst, err))
		return -1;
	for (size_t i = 0; i < ep->srcs.n; i++) {
		if (sb_world_check_host(r, "srcs", ep->srcs.v[i], err))
			return -1;
		if (ep->srcs.v[i] == ep->dst)
			return sb_wl_fail(&r->env, "srcs", err, "host %lld sends to itself", (long long)ep->dst);
		struct sb_flow *f = sb_world_spawn(r, (uint32_t)ep->srcs.v[i], (uint32_t)ep->dst, (uint64_t)ep->size_bytes,
						   r->start, kind);
		if (each)
			each(r, f);
	}
	return 0;
}
