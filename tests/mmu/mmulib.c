/*
 * mmulib.c — the helper of testlib.h that starts an MMU with parameters (mmu/).
 */
#include "testlib.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "mmu/mmu.h"

void tl_mmu_start(struct sb_mmu *m, const char *const *kv)
{
	struct sb_error err;
	for (; kv && *kv; kv += 2)
		if (sb_mmu_set_param(m, kv[0], kv[1], &err))
			fail_msg("%s", err.msg);
	if (sb_mmu_start(m, &err))
		fail_msg("%s", err.msg);
}
