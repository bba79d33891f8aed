/*
 * tier_name.c — the names of the switch tiers (topo/topo.h). An object of its own: the
 * software switch names itself "leaf0" as the simulator names its single switch, and links
 * this table without the topology builder, which needs the simulated world.
 */
#include "topo/topo.h"

const char *const sb_topo_tier_name[4] = { "host", "leaf", "spine", "core" };
