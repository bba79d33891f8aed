/*
 * workload.c — turning the scenario's workloads into running generators: what every type
 * shares (the window, the transport and its defaults) and then the type's own start.
 */
#include "workload/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "transport/transport.h"
#include "workload/world.h"

struct sb_wl_runtime {
	struct sb_wl_run *w;
	size_t n;
};

double sb_workload_offered_bps(const struct sb_wl_world *w, const struct sb_workload *wl, uint32_t host)
{
	if (!wl->ops->offered_bps)
		return 0;
	return wl->ops->offered_bps(wl->params, sb_world_host_bps(w, host), sb_world_uplink_share_bps(w, host));
}

static int start_one(struct sb_wl_world *w, struct sb_wl_run *r, struct sb_error *err)
{
	const struct sb_workload_common *c = sb_workload_common(r->cfg);
	r->start = sb_time_from_ms(c->start_ms);
	r->stop = c->stop_ms > 0 ? sb_time_from_ms(c->stop_ms) : sb_world_arrivals_end(w);
	if (!r->cfg->ops->transport_per_flow) {
		r->transport = sb_transport_find(c->transport);
		if (!r->transport)
			return sb_wl_fail(&r->env, "transport", err, "unknown transport \"%s\" (see `sharebuf list`)",
					  c->transport);
		r->prio = c->prio >= 0 ? (int)c->prio : sb_transport_default_prio(r->transport);
		r->klass = c->klass != SB_CLASS_AUTO ? c->klass
			   : r->transport->lossless_by_default ? SB_CLASS_LOSSLESS : SB_CLASS_LOSSY;
		if (r->klass == SB_CLASS_LOSSLESS)
			sb_world_note_lossless(w, r->prio);
	}
	return r->cfg->ops->start(r, err);
}

int sb_workloads_start(struct sb_wl_world *w, struct sb_error *err)
{
	size_t n = w->nworkloads;
	struct sb_wl_runtime *rt = w->runtime = sb_xcalloc(1, sizeof(*rt));
	rt->n = n;
	rt->w = sb_xcalloc(n + 1, sizeof(*rt->w));
	for (size_t i = 0; i < n; i++) {
		struct sb_wl_run *r = &rt->w[i];
		r->world = w;
		r->cfg = &w->workloads[i];
		r->index = i;
		r->env = w->env(w->env_ctx, i);
		if (start_one(w, r, err))
			return -1;
	}
	return 0;
}

void sb_workloads_free(struct sb_wl_world *w)
{
	struct sb_wl_runtime *rt = w->runtime;
	if (!rt)
		return;
	for (size_t i = 0; i < rt->n; i++) {
		struct sb_wl_run *r = &rt->w[i];
		if (r->state && r->cfg->ops->free)
			r->cfg->ops->free(r);
	}
	free(rt->w);
	free(rt);
	w->runtime = NULL;
}
