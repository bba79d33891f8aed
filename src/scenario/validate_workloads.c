/*
 * validate_workloads.c — the workloads' cross-field checks and the whole scenario's
 * (sb_scenario_validate): the network's checks (scenario_validate.c) first, then each
 * workload's: a transport that exists, times inside the run, hosts inside the topology, a
 * destination or responders that need another rack. Apart from the network's because these
 * name the transports: a program that validates only the network (the software switch, which
 * leaves the workloads to the load generator) links no transport code.
 */
#include "scenario/scenario.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "scenario/validate_internal.h"
#include "transport/transport.h"

/* The keys every type shares, then the type's own checks (its ops->validate). */
static int validate_workload(const struct sb_scenario *sc, size_t index, const struct sb_topo_shape *s,
			     struct sb_error *err)
{
	const struct sb_workload *wl = &sc->workloads[index];
	const struct sb_workload_common *c = sb_workload_common(wl);
	char key[64];
#define KEY(name) (snprintf(key, sizeof(key), "workloads.%zu.%s", index, name), key)

	if (!wl->ops->transport_per_flow && (!c->transport || !sb_transport_find(c->transport))) {
		char known[256];
		sb_transport_names(known, sizeof(known));
		return sb_scenario_fail(sc, KEY("transport"), err, "unknown transport \"%s\", expected one of %s",
					c->transport ? c->transport : "", known);
	}
	char na[SB_NUM_TEXT], nb[SB_NUM_TEXT];
	if (c->stop_ms != 0 && c->stop_ms <= c->start_ms)
		return sb_scenario_fail(sc, KEY("stop_ms"), err, "%s is not after start_ms (%s); use 0 for run.arrivals_ms",
					sb_param_num_text(c->stop_ms, na), sb_param_num_text(c->start_ms, nb));
	if (c->start_ms >= sc->run.duration_ms)
		return sb_scenario_fail(sc, KEY("start_ms"), err,
					"%s is not before run.duration_ms (%s), the workload would never run",
					sb_param_num_text(c->start_ms, na), sb_param_num_text(sc->run.duration_ms, nb));
#undef KEY
	if (!wl->ops->validate)
		return 0;
	/* "leafspine has 1 leaf" reads better than "1 rack" for the topology the user wrote */
	char one_rack[128];
	if (sc->topo.type == SB_TOPO_SINGLE)
		snprintf(one_rack, sizeof(one_rack), "topology single has one rack");
	else
		snprintf(one_rack, sizeof(one_rack), "topology %s has 1 leaf (topology.leaves = 1)", sb_topo_names[sc->topo.type]);
	struct sb_wl_shape shape = { s->hosts, s->racks, s->hosts_per_rack, s->has_uplinks, one_rack };
	struct sb_wl_env env = sb_scenario_workload_env(sc, index);
	return wl->ops->validate(wl->params, &shape, &env, err);
}


int sb_scenario_validate(const struct sb_scenario *sc, struct sb_error *err)
{
	if (sb_scenario_validate_net(sc, err))
		return -1;
	struct sb_topo_shape shape = sb_topo_shape(&sc->topo);
	for (size_t i = 0; i < sc->nworkloads; i++)
		if (validate_workload(sc, i, &shape, err))
			return -1;
	return 0;
}
