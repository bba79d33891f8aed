/*
 * scenariolib_workloads.c — tl_scenario (testlib.h): a scenario from text, validated whole,
 * workloads included, as `sharebuf run` validates it. Apart from scenariolib.c because the
 * workloads' checks name the transports (src/scenario/validate_workloads.c).
 */
#include "testlib.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "scenario/cfgfile.h"

void tl_scenario(struct sb_scenario *sc, const char *text, const char *const *sets, size_t nsets)
{
	struct sb_error err = { "" };
	sb_scenario_defaults(sc);
	if (sb_cfg_load(sc, NULL, text, sets, nsets, &err) || sb_scenario_validate(sc, &err))
		fail_msg("scenario: %s", err.msg);
	sc->run.check_invariants = true;
}
