/*
 * registry.c — every buffer-management scheme, by name. Adding a scheme = one new
 * bm_<name>.c file plus one line in each list below.
 */
#include <string.h>
#include "mmu/mmu.h"

extern const struct sb_bm_ops sb_bm_dt, sb_bm_cs, sb_bm_static;
extern const struct sb_bm_ops sb_bm_edt;
extern const struct sb_bm_ops sb_bm_abm;
extern const struct sb_bm_ops sb_bm_occamy;
extern const struct sb_bm_ops sb_bm_pushout;
extern const struct sb_bm_ops sb_bm_fab, sb_bm_ib;
extern const struct sb_bm_ops sb_bm_sonic, sb_bm_reverie;
extern const struct sb_bm_ops sb_bm_dsh, sb_bm_sih;

static const struct sb_bm_ops *const schemes[] = {
	&sb_bm_dt,
	&sb_bm_cs,
	&sb_bm_static,
	&sb_bm_edt,
	&sb_bm_abm,
	&sb_bm_occamy,
	&sb_bm_pushout,
	&sb_bm_fab,
	&sb_bm_ib,
	&sb_bm_sonic,
	&sb_bm_reverie,
	&sb_bm_sih,
	&sb_bm_dsh,
	NULL,
};

const struct sb_bm_ops *const *sb_bm_all(void) { return schemes; }

const struct sb_bm_ops *sb_bm_find(const char *name)
{
	for (const struct sb_bm_ops *const *s = schemes; *s; s++)
		if (strcmp((*s)->name, name) == 0)
			return *s;
	return NULL;
}
