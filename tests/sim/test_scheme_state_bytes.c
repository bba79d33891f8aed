/*
 * test_scheme_state_bytes.c — what a scheme allocates per MMU beyond its counters reaches the
 * memory estimate through its own hook (sb_bm_ops.state_bytes, src/mmu/mmu.h), not through a
 * parameter the estimate knows by name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"
#include "sim/estimate.h"
#include "testlib.h"

static double state_bytes_with(const struct sb_bm_ops *o, const char *param, const char *value,
			       const char **key, char *what, size_t n)
{
	void *st = calloc(1, o->state_size ? o->state_size : 1);
	sb_params_defaults(o->params, st);
	if (param) {
		struct sb_error err;
		assert_int_equal(sb_param_set_text(sb_param_find(o->params, param), st, value, &err), 0);
	}
	double b = o->state_bytes(st, key, what, n);
	sb_params_free(o->params, st);
	free(st);
	return b;
}

/* Catches: a hook that ignores its parameters (a constant), names a key the scheme does not
 * have, or a flow-table scheme (fab, ib) left without the hook. */
static void test_hook_grows_with_its_parameter(void **state)
{
	(void)state;
	size_t hooked = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++) {
		const struct sb_bm_ops *o = *s;
		if (!o->state_bytes) {
			assert_null(sb_param_find(o->params, "table_slots")); /* a table no estimate would see */
			continue;
		}
		hooked++;
		const char *key = NULL;
		char what[96];
		double base = state_bytes_with(o, NULL, NULL, &key, what, sizeof(what));
		assert_true(base > 0);
		assert_non_null(key);
		const struct sb_param *p = sb_param_find(o->params, key);
		if (!p || p->type != SB_P_INT)
			fail_msg("%s: state_bytes names \"%s\", not an integer parameter of the scheme", o->name, key);
		char def[64], twice[64];
		snprintf(def, sizeof(def), "%s", p->def);
		snprintf(twice, sizeof(twice), "%lld", 2 * atoll(def));
		double more = state_bytes_with(o, key, twice, &key, what, sizeof(what));
		if (!(more > base))
			fail_msg("%s: %s = %s gives %g bytes, %s gave %g", o->name, key, twice, more, def, base);
		assert_non_null(strstr(what, twice)); /* the message says the size it counts */
	}
	assert_true(hooked >= 2);
	assert_non_null(sb_bm_find("fab")->state_bytes);
	assert_non_null(sb_bm_find("ib")->state_bytes);
}

static struct sb_mem_estimate estimate_of(const char *scheme, const char *slots)
{
	struct sb_scenario sc;
	char set[80];
	const char *sets[2] = { NULL, set };
	char scheme_set[64];
	snprintf(scheme_set, sizeof(scheme_set), "switch.scheme=%s", scheme);
	sets[0] = scheme_set;
	snprintf(set, sizeof(set), "switch.%s.table_slots=%s", scheme, slots);
	tl_scenario(&sc, "", sets, slots ? 2 : 1);
	struct sb_mem_estimate e;
	sb_estimate_memory(&sc, &e);
	sb_scenario_free(&sc);
	return e;
}

/* Catches: the estimate of a run leaving out the scheme's state, counting it for a scheme
 * that was not selected, or not per MMU; and the key the message names. */
static void test_estimate_counts_the_selected_scheme(void **state)
{
	(void)state;
	struct sb_mem_estimate dt = estimate_of("dt", NULL);
	assert_true(dt.part[SB_MEM_SCHEME].bytes == 0);
	struct sb_mem_estimate small = estimate_of("fab", "1024"), big = estimate_of("fab", "65536");
	const struct sb_mem_part *s = &small.part[SB_MEM_SCHEME], *b = &big.part[SB_MEM_SCHEME];
	/* the default leaf-spine: 4 leaves and 2 spines, one MMU each, 32 bytes a slot */
	assert_true(s->bytes == 6 * 1024 * 32.0);
	assert_true(b->bytes == 64 * s->bytes);
	assert_string_equal(b->key, "switch.fab.table_slots");
	assert_non_null(strstr(b->what, "flow tables of 65536 slots"));
	assert_true(big.total - small.total == b->bytes - s->bytes); /* it is in the total */
	struct sb_mem_estimate ib = estimate_of("ib", "65536");
	assert_true(ib.part[SB_MEM_SCHEME].bytes == b->bytes);
	assert_string_equal(ib.part[SB_MEM_SCHEME].key, "switch.ib.table_slots");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_grows_with_its_parameter),
		cmocka_unit_test(test_estimate_counts_the_selected_scheme),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
