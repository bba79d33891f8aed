/*
 * scenariolib.c — the helpers of testlib.h that make a scenario (scenario/): from text with its
 * network validated (the software switch's view), with a scheme's parameter set, a single
 * switch. The whole scenario, workloads validated, is scenariolib_workloads.c's: its checks
 * name the transports, which a test of the data plane does not link.
 */
#include "testlib.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"
#include "scenario/cfgfile.h"

void tl_scenario_net(struct sb_scenario *sc, const char *text, const char *const *sets, size_t nsets)
{
	struct sb_error err = { "" };
	sb_scenario_defaults(sc);
	if (sb_cfg_load(sc, NULL, text, sets, nsets, &err) || sb_scenario_validate_net(sc, &err))
		fail_msg("scenario: %s", err.msg);
	sc->run.check_invariants = true;
}

void tl_set_scheme(struct sb_scenario *sc, const char *name, const char *param, const char *value)
{
	free(sc->sw.scheme);
	sc->sw.scheme = strdup(name);
	if (!param)
		return;
	size_t i = 0;
	const struct sb_bm_ops *const *s = sb_bm_all();
	for (; *s && strcmp((*s)->name, name); s++)
		i++;
	if (!*s)
		fail_msg("no scheme %s", name);
	struct sb_error err;
	const struct sb_param *p = sb_param_find((*s)->params, param);
	if (!p || sb_param_set_text(p, sc->scheme_params[i], value, &err))
		fail_msg("scheme %s: cannot set %s = %s", name, param, value);
}

void tl_single_switch(struct sb_scenario *sc, int hosts, double gbps, uint64_t buffer_bytes)
{
	sb_scenario_defaults(sc);
	sc->topo.type = SB_TOPO_SINGLE;
	sc->topo.hosts = hosts;
	sc->topo.host_rate_gbps = gbps;
	sc->topo.host_delay_us = 1;
	sc->sw.buffer_bytes = (int64_t)buffer_bytes;
	sc->sw.ecn_mode = SB_ECN_OFF;
	sc->run.duration_ms = 10;
	sc->run.sample_interval_us = 0;
	sc->run.check_invariants = true;
}
