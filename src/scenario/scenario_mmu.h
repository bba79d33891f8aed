/*
 * scenario_mmu.h — a switch's MMU as the scenario configures it: the scheme switch.scheme with
 * the parameters of its group switch.SCHEME, checked and started.
 *
 * The network (net/switch.h) only asks for "an MMU of this configuration" through a maker
 * hook; this is the maker, because only the scenario knows which scheme and which of its
 * parameters a run uses, and where they were set (for messages).
 */
#ifndef SB_SCENARIO_MMU_H
#define SB_SCENARIO_MMU_H

#include "core/util.h"
#include "mmu/mmu.h"
#include "scenario/scenario.h"

/* One MMU of a switch named `who` from the scenario: the scheme switch.scheme with its
 * parameters, invariant checks as configured, started. NULL + err (placed at the scheme's key)
 * on an unknown scheme or bad parameters. The simulator's switches and the software switch
 * create their MMUs with it, so a scenario sets both up identically. */
struct sb_mmu *sb_switch_mmu_create(const struct sb_scenario *sc, const struct sb_mmu_config *cfg,
				    const struct sb_mmu_env *env, const char *who, struct sb_error *err);
/* sb_switch_mmu_create as the network's maker hook (net/switch.h, sb_mmu_maker_fn): ctx is the
 * const struct sb_scenario. */
struct sb_mmu *sb_scenario_mmu_maker(void *ctx, const struct sb_mmu_config *cfg, const struct sb_mmu_env *env,
				     const char *who, struct sb_error *err);

#endif
