/*
 * test_workload_registry.c — the workload types behind their ops (src/workload/ops.h): the
 * registry lists every type once, each type's table and hooks are complete, the keys the
 * generic code reads through struct sb_workload_common are where every table says they are,
 * and `sharebuf list workloads` shows the registry.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/cfgfile.h"
#include "core/param.h"
#include "testlib.h"
#include "workload/ops.h"
#include "workload/types.h"

static size_t param_bytes(const struct sb_param *p)
{
	switch (p->type) {
	case SB_P_INT: return sizeof(int64_t);
	case SB_P_DOUBLE: return sizeof(double);
	case SB_P_BOOL: return sizeof(bool);
	case SB_P_STRING: return sizeof(char *);
	case SB_P_ENUM: return sizeof(int);
	case SB_P_PRIO: return 8 * sizeof(double);
	case SB_P_INT_LIST: return sizeof(struct sb_int_list);
	case SB_P_STR_LIST: return sizeof(struct sb_str_list);
	}
	return 0;
}

/* Catches: a type left out of the registry or listed twice, a type without a table, a
 * summary, checks, an estimate or a generator, a find that misses a registered name. */
static void test_registry_complete(void **state)
{
	(void)state;
	static const char *const builtin[] = { "poisson", "incast", "longlived", "burst", "cbr", "file" };
	const struct sb_workload_ops *const *all = sb_workload_all();
	size_t n = 0;
	for (; all[n]; n++) {
		const struct sb_workload_ops *o = all[n];
		assert_non_null(o->name);
		assert_true(o->name[0] != 0);
		assert_non_null(o->summary);
		assert_true(strlen(o->summary) > 10);
		assert_non_null(o->params);
		assert_non_null(o->params[0].name);
		assert_non_null(o->validate);
		assert_non_null(o->estimate);
		assert_non_null(o->start);
		assert_ptr_equal(sb_workload_find(o->name), o);
		for (size_t k = 0; k < n; k++)
			if (strcmp(all[k]->name, o->name) == 0)
				fail_msg("workload type %s is registered twice", o->name);
	}
	assert_int_equal(n, sizeof(builtin) / sizeof(builtin[0]));
	for (size_t i = 0; i < n; i++)
		assert_string_equal(all[i]->name, builtin[i]); /* the order `sharebuf list` shows */
	assert_null(sb_workload_find("poissons"));
	assert_null(sb_workload_find(""));
	char names[128];
	sb_workload_names(sb_workload_all(), names, sizeof(names));
	assert_string_equal(names, "poisson|incast|longlived|burst|cbr|file");
}

/* Catches: a key whose offset points outside its type's struct (a table written for another
 * struct), a common key (transport, prio, class, start_ms, stop_ms) that the generic code,
 * which reads it through struct sb_workload_common, would not find where the table wrote it,
 * and a type that needs a transport but has no key for it. */
static void test_tables_fit_their_structs(void **state)
{
	(void)state;
	static const struct { const char *name; size_t offset; } common[] = {
		{ "transport", offsetof(struct sb_workload_common, transport) },
		{ "prio", offsetof(struct sb_workload_common, prio) },
		{ "class", offsetof(struct sb_workload_common, klass) },
		{ "start_ms", offsetof(struct sb_workload_common, start_ms) },
		{ "stop_ms", offsetof(struct sb_workload_common, stop_ms) },
	};
	for (const struct sb_workload_ops *const *t = sb_workload_all(); *t; t++) {
		const struct sb_workload_ops *o = *t;
		assert_true(o->params_size >= sizeof(struct sb_workload_common));
		for (const struct sb_param *p = o->params; p->name; p++) {
			if (p->offset + param_bytes(p) > o->params_size)
				fail_msg("%s.%s lies outside its struct (%zu + %zu > %zu)", o->name, p->name, p->offset,
					 param_bytes(p), o->params_size);
			for (size_t c = 0; c < sizeof(common) / sizeof(common[0]); c++)
				if (!strcmp(p->name, common[c].name) && p->offset != common[c].offset)
					fail_msg("%s.%s is not struct sb_workload_common's", o->name, p->name);
		}
		assert_non_null(sb_param_find(o->params, "start_ms"));
		if (!o->transport_per_flow) {
			assert_non_null(sb_param_find(o->params, "transport"));
			assert_non_null(sb_param_find(o->params, "stop_ms"));
		} else {
			assert_null(sb_param_find(o->params, "transport"));
		}
	}
}

/* Catches: an init that leaves a key at zero instead of its table's default, a clear that
 * keeps the type or the parameters. */
static void test_init_and_clear(void **state)
{
	(void)state;
	for (const struct sb_workload_ops *const *t = sb_workload_all(); *t; t++) {
		struct sb_workload wl;
		memset(&wl, 0, sizeof(wl));
		sb_workload_clear(&wl); /* a zeroed entry is safe to clear */
		sb_workload_init(&wl, *t);
		assert_ptr_equal(wl.ops, *t);
		const struct sb_param *start = sb_param_find((*t)->params, "start_ms");
		assert_true(sb_workload_common(&wl)->start_ms == strtod(start->def, NULL));
		const struct sb_param *tr = sb_param_find((*t)->params, "transport");
		if (tr)
			assert_string_equal(sb_workload_common(&wl)->transport, tr->def);
		sb_workload_clear(&wl);
		assert_null(wl.ops);
		assert_null(wl.params);
	}
	struct sb_workload p;
	memset(&p, 0, sizeof(p));
	sb_workload_init(&p, &sb_workload_poisson);
	assert_true(((const struct sb_wl_poisson *)p.params)->load == 0.5);
	assert_string_equal(((const struct sb_wl_poisson *)p.params)->cdf, "websearch");
	sb_workload_clear(&p);
}

/* Catches: `sharebuf list workloads` drifting from the registry (a type listed that the
 * reader refuses, or one it accepts left out). */
static void test_list_matches_registry(void **state)
{
	(void)state;
	struct tl_cmd r = tl_sharebuf("list workloads");
	assert_int_equal(r.status, 0);
	char want[512];
	size_t used = (size_t)snprintf(want, sizeof(want), "workloads (workloads.*.type):\n");
	for (const struct sb_workload_ops *const *t = sb_workload_all(); *t; t++)
		used += (size_t)snprintf(want + used, sizeof(want) - used, "  %s\n", (*t)->name);
	assert_string_equal(r.out, want);
	tl_cmd_free(&r);
}

/* Catches: validate hooks not reached through the scenario's checks (each type's own check
 * fails at its own key), or one type's check run for another. */
static void test_validate_reaches_each_type(void **state)
{
	(void)state;
	static const struct { const char *text, *want; } cases[] = {
		{ "workloads = ({ type = \"file\"; });", "workloads.0.path" },
		{ "workloads = ({ type = \"longlived\"; srcs = [1]; dst = 9999; });", "workloads.0.dst" },
		{ "workloads = ({ type = \"burst\"; dst = 0; });", "workloads.0.srcs" },
		{ "workloads = ({ type = \"cbr\"; srcs = [1]; transport = \"dctcp\"; });", "workloads.0.transport" },
		{ "workloads = ({ type = \"incast\"; fanin = 4; fanin_min = 5; });", "workloads.0.fanin_min" },
		{ "topology: { type = \"single\"; };\nworkloads = ({ type = \"poisson\"; });", "workloads.0.dest" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sb_scenario sc;
		struct sb_error err;
		sb_scenario_defaults(&sc);
		if (sb_cfg_load(&sc, NULL, cases[i].text, NULL, 0, &err))
			fail_msg("%s: %s", cases[i].text, err.msg);
		assert_int_equal(sb_scenario_validate(&sc, &err), -1);
		if (!strstr(err.msg, cases[i].want))
			fail_msg("%s: expected a message at %s, got: %s", cases[i].text, cases[i].want, err.msg);
		sb_scenario_free(&sc);
	}
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_complete),
		cmocka_unit_test(test_tables_fit_their_structs),
		cmocka_unit_test(test_init_and_clear),
		cmocka_unit_test(test_list_matches_registry),
		cmocka_unit_test(test_validate_reaches_each_type),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
