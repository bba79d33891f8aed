/*
 * wl_common.c — what the types' files share (ops.h, "for the types' files"): placed messages,
 * the host check, CDFs and the in-flight estimate of a Poisson workload.
 */
#include "workload/ops.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "workload/cdf.h"
#include "workload/wl_params.h"

const char *const sb_wl_class_choices[] = { "lossy", "lossless", "auto", NULL };

int sb_wl_fail(const struct sb_wl_env *env, const char *key, struct sb_error *err, const char *fmt, ...)
{
	char full[128], what[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "workloads.%zu.%s", env->index, key);
	return env->fail(env->ctx, full, err, what);
}

int sb_wl_check_host(const struct sb_wl_env *env, const struct sb_wl_shape *shape, const char *key, int64_t h,
		     struct sb_error *err)
{
	if (h >= shape->hosts)
		return sb_wl_fail(env, key, err, "host %" PRId64 " does not exist, the topology has %" PRId64
				  " hosts (0..%" PRId64 ")", h, shape->hosts, shape->hosts - 1);
	return 0;
}

int sb_wl_load_cdf(const struct sb_wl_env *env, const char *name, struct sb_cdf *c, struct sb_error *err)
{
	char key[48], why[sizeof(err->msg)];
	snprintf(key, sizeof(key), "workloads.%zu.cdf", env->index);
	if (!name)
		name = "";
	char *path = sb_cdf_builtin_find(name) ? sb_xstrdup(name) : env->path(env->ctx, key, name);
	int rc = sb_cdf_load(c, path, err);
	free(path);
	if (rc) {
		snprintf(why, sizeof(why), "%s", err->msg);
		return env->fail(env->ctx, key, err, why);
	}
	return 0;
}

/*
 * A processor-sharing queue holds load / (1 - load) jobs on average, capped at a load of 0.95
 * (19 per server: a hot spot, a burst); a load above 1 leaves the excess of the arrivals
 * unserved, in flight until the end.
 */
double sb_wl_in_flight(double n, double hosts, double load)
{
	double rho = load < 0.95 ? load : 0.95, f = hosts * rho / (1 - rho) + hosts;
	if (load > 1)
		f += n * (1 - 1 / load);
	return f < n ? f : n;
}
