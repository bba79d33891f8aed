/*
 * scenario_mmu.c — a switch's MMU from the scenario (scenario_mmu.h).
 */
#include "scenario/scenario_mmu.h"

#include <stdio.h>

struct sb_mmu *sb_switch_mmu_create(const struct sb_scenario *sc, const struct sb_mmu_config *cfg,
				    const struct sb_mmu_env *env, const char *who, struct sb_error *err)
{
	const struct sb_switch_params *p = &sc->sw;
	const struct sb_bm_ops *ops = sb_bm_find(p->scheme);
	if (!ops) {
		sb_fail(err, "switch.scheme: unknown scheme \"%s\" (see `sharebuf list`)", p->scheme);
		return NULL;
	}
	size_t scheme_index = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s != ops; s++)
		scheme_index++;
	struct sb_mmu *m = sb_mmu_new(ops, cfg, env);
	m->check_invariants = p->check_invariants || sc->run.check_invariants;
	sb_params_copy(ops->params, sb_mmu_state(m), sc->scheme_params[scheme_index]);
	if (sb_mmu_start(m, err)) {
		/* placed at the scheme's key set last (the parameter a user just changed, most
		 * likely the one at fault), else at switch.scheme */
		char why[sizeof(err->msg)], prefix[80];
		snprintf(why, sizeof(why), "%s", err->msg);
		snprintf(prefix, sizeof(prefix), "switch.%s.", ops->name);
		const char *key = sb_scenario_latest_key(sc, prefix);
		sb_scenario_fail(sc, key ? key : "switch.scheme", err, "switch %s: %s", who, why);
		sb_mmu_free(m);
		return NULL;
	}
	return m;
}

struct sb_mmu *sb_scenario_mmu_maker(void *ctx, const struct sb_mmu_config *cfg, const struct sb_mmu_env *env,
				     const char *who, struct sb_error *err)
{
	return sb_switch_mmu_create(ctx, cfg, env, who, err);
}
