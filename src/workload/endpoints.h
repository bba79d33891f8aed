/*
 * endpoints.h — what the types that send from `srcs` to `dst` share (longlived, burst, cbr):
 * their checks, their estimate and their start, one flow per source.
 */
#ifndef SB_WORKLOAD_ENDPOINTS_H
#define SB_WORKLOAD_ENDPOINTS_H

#include "workload/types.h"
#include "workload/world.h"

/* dst a host and at least one source; `name` is the type's, for the message. */
int sb_wl_endpoints_check_dst(const char *name, const struct sb_wl_endpoints *ep, const struct sb_wl_shape *s,
			      const struct sb_wl_env *env, struct sb_error *err);
/* Every source a host other than dst. */
int sb_wl_endpoints_check_srcs(const struct sb_wl_endpoints *ep, const struct sb_wl_shape *s,
			       const struct sb_wl_env *env, struct sb_error *err);
/* One flow per source, all at once; returns the bytes each sends (init_window when unlimited). */
double sb_wl_endpoints_estimate(const struct sb_wl_endpoints *ep, const struct sb_wl_estimate_in *in,
				const struct sb_wl_env *env, struct sb_wl_estimate *out);
/* Check the endpoints against the built network, then create one flow of `kind` per source
 * at r->start, each passed to `each` (NULL = none) to be configured. */
int sb_wl_endpoints_start(struct sb_wl_run *r, const struct sb_wl_endpoints *ep, enum sb_flow_kind kind,
			  void (*each)(const struct sb_wl_run *r, struct sb_flow *f), struct sb_error *err);

#endif
