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

/* "leafspine has 1 leaf" reads better than "1 rack" for the topology the user wrote. */
static int one_rack_fail(const struct sb_scenario *sc, struct sb_error *err, const char *key, const char *choice)
{
	const struct sb_topo_params *t = &sc->topo;
	if (t->type == SB_TOPO_SINGLE)
		return sb_scenario_fail(sc, key, err, "%s needs another rack, but topology single has one rack", choice);
	return sb_scenario_fail(sc, key, err, "%s needs another rack, but topology %s has 1 leaf (topology.leaves = 1)",
				choice, sb_topo_names[t->type]);
}

void sb_transport_names(char *buf, size_t n)
{
	const char *names[32];
	size_t count = 0;
	for (const struct sb_transport_ops *const *t = sb_transport_all(); t && *t && count < 32; t++)
		names[count++] = (*t)->name;
	sb_list_names(buf, n, names, count);
}

static int validate_workload(const struct sb_scenario *sc, size_t index, const struct sb_topo_shape *s,
			     struct sb_error *err)
{
	const struct sb_workload *wl = &sc->workloads[index];
	char key[64];
#define KEY(name) (snprintf(key, sizeof(key), "workloads.%zu.%s", index, name), key)

	if (wl->type != SB_WL_FILE && (!wl->transport || !sb_transport_find(wl->transport))) {
		char known[256];
		sb_transport_names(known, sizeof(known));
		return sb_scenario_fail(sc, KEY("transport"), err, "unknown transport \"%s\", expected one of %s",
					wl->transport ? wl->transport : "", known);
	}
	char na[SB_NUM_TEXT], nb[SB_NUM_TEXT];
	if (wl->stop_ms != 0 && wl->stop_ms <= wl->start_ms)
		return sb_scenario_fail(sc, KEY("stop_ms"), err, "%s is not after start_ms (%s); use 0 for run.arrivals_ms",
					sb_param_num_text(wl->stop_ms, na), sb_param_num_text(wl->start_ms, nb));
	if (wl->start_ms >= sc->run.duration_ms)
		return sb_scenario_fail(sc, KEY("start_ms"), err,
					"%s is not before run.duration_ms (%s), the workload would never run",
					sb_param_num_text(wl->start_ms, na), sb_param_num_text(sc->run.duration_ms, nb));

	switch (wl->type) {
	case SB_WL_POISSON:
		if (s->hosts < 2)
			return sb_scenario_fail(sc, KEY("type"), err,
						"a poisson workload needs at least 2 hosts, the topology has %" PRId64, s->hosts);
		if (wl->dest != SB_DEST_ANY && s->racks < 2)
			return one_rack_fail(sc, err, KEY("dest"), sb_dest_names[wl->dest]);
		if (wl->load_ref == SB_LOAD_UPLINK && !s->has_uplinks)
			return sb_scenario_fail(sc, KEY("load_ref"), err,
						"uplink needs a topology with uplinks (leafspine or fattree), topology single has none");
		break;
	case SB_WL_INCAST: {
		int64_t available;
		if (wl->responders != SB_RESP_ANY) {
			if (s->racks < 2)
				return one_rack_fail(sc, err, KEY("responders"), sb_responders_names[wl->responders]);
			available = s->hosts_per_rack;
		} else {
			available = s->hosts - 1;
		}
		if (wl->fanin > available)
			return sb_scenario_fail(sc, KEY("fanin"), err, "%" PRId64 " responders per query, but responders = %s offers only %" PRId64
						" hosts", wl->fanin, sb_responders_names[wl->responders], available);
		if (wl->fanin_min > wl->fanin)
			return sb_scenario_fail(sc, KEY("fanin_min"), err,
						"%" PRId64 " is above fanin (%" PRId64 "); the fan-in is drawn from fanin_min..fanin",
						wl->fanin_min, wl->fanin);
		for (size_t i = 0; i < wl->receivers.n; i++) {
			char elem[80];
			snprintf(elem, sizeof(elem), "workloads.%zu.receivers[%zu]", index, i);
			if (sb_scenario_check_host(sc, err, elem, wl->receivers.v[i], s))
				return -1;
		}
		break;
	}
	case SB_WL_LONGLIVED:
	case SB_WL_BURST:
	case SB_WL_CBR:
		if (sb_scenario_check_host(sc, err, KEY("dst"), wl->dst, s))
			return -1;
		if (wl->srcs.n == 0)
			return sb_scenario_fail(sc, KEY("srcs"), err, "a %s workload needs at least one source host, e.g. srcs = [1];",
						sb_workload_type_name[wl->type]);
		if (wl->type == SB_WL_CBR && strcmp(wl->transport, "cbr") != 0)
			return sb_scenario_fail(sc, KEY("transport"), err, "a cbr workload sends with transport \"cbr\", got \"%s\"",
						wl->transport);
		for (size_t i = 0; i < wl->srcs.n; i++) {
			char elem[80];
			snprintf(elem, sizeof(elem), "workloads.%zu.srcs[%zu]", index, i);
			if (sb_scenario_check_host(sc, err, elem, wl->srcs.v[i], s))
				return -1;
			if (wl->srcs.v[i] == wl->dst)
				return sb_scenario_fail(sc, elem, err, "host %" PRId64 " is also the destination (dst)", wl->dst);
		}
		break;
	case SB_WL_FILE:
		if (!wl->path || !*wl->path)
			return sb_scenario_fail(sc, KEY("path"), err, "required for a workload of type file (the flow list to replay)");
		break;
	default:
		return sb_scenario_fail(sc, KEY("type"), err, "invalid workload type %d", wl->type);
	}
#undef KEY
	return 0;
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
