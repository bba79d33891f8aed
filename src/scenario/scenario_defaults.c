/*
 * scenario_defaults.c — a scenario that knows every workload type. Apart from scenario.c
 * because it names the workload registry: the software switch, which reads the network's
 * sections only (sb_scenario_defaults_net), then links no workload type.
 */
#include "scenario/scenario.h"

#include "workload/ops.h"

void sb_scenario_defaults(struct sb_scenario *sc)
{
	sb_scenario_defaults_net(sc);
	sc->workload_types = sb_workload_all();
}
