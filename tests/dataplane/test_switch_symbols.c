/*
 * test_switch_symbols.c — build/sharebuf-switch links no simulator code (docs/testbed.md,
 * "Set-up from the scenario"): no object of src/sim, src/transport, src/workload, src/cli or
 * src/load is in the program. The switch shares the MMU library, the network's switch set-up
 * and the scenario reader with the simulator, and nothing else; a scenario check or a helper
 * that drags the world, the transports or the workloads in (the whole scenario validation
 * names the transports, the topology builder needs the simulated world) shows up here.
 *
 * The forbidden symbols are computed, not listed: every global symbol defined by the archives
 * of those layers (BUILD/lib/libsb_LAYER.a, the Makefile's) and by the programs' mains that
 * live outside them. The program's symbols are `nm`'s, locals included, with the suffixes the
 * compiler's link-time optimisation adds (foo.lto_priv.0, foo.constprop.0) removed, so that an
 * inlined and privatised copy of a forbidden function is still found.
 *
 * A layer's parameter table (its params.o: TCP's and RDMA's keys, which size the headroom)
 * is data the switch reads, not code, and is not counted.
 *
 * Bugs caught: the switch validating the workloads (sb_scenario_validate instead of
 * sb_scenario_validate_net links the transports' registry, tools/mutations.txt); a switch
 * set-up function moved back beside the simulator's forwarding (net/switch.c, which needs
 * the world); a forbidden set that is empty (the archives not found, nm's output misread),
 * which would let everything pass (test_forbidden_set_is_real).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The layers whose code the switch may not contain. */
static const char *const forbidden_layers[] = { "sim", "transport", "workload", "cli", "load" };
/* Programs' mains: not in any archive, still the simulator's. */
static const char *const forbidden_mains[] = { "src/cli/main.o", "src/load/main.o" };

static char build_dir[4096];

struct names {
	char **v;
	size_t n, cap;
};

static void names_add(struct names *s, const char *name)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		assert_non_null(s->v);
	}
	s->v[s->n] = strdup(name);
	assert_non_null(s->v[s->n]);
	s->n++;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool names_has(const struct names *s, const char *name)
{
	return bsearch(&name, s->v, s->n, sizeof(*s->v), cmp_name) != NULL;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* The name without the link-time optimiser's and the cloner's suffixes (".lto_priv.0",
 * ".constprop.0", ".isra.0", ".part.0", ".cold"). */
static void strip_suffix(char *name)
{
	char *dot = strchr(name, '.');
	if (dot && dot != name)
		*dot = 0;
}

/* The symbols `nm --defined-only` prints for path: globals only (upper-case type) or all. */
static void nm_defined(const char *path, bool globals_only, struct names *out)
{
	assert_int_equal(access(path, R_OK), 0);
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "nm --defined-only '%s' 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[4096];
	bool in_params = false;
	while (fgets(line, sizeof(line), p)) {
		char addr[64], type[8], name[2048];
		/* an archive member's header, "params.o:": a layer's parameter table (each layer
		 * owns its keys, net/params.h, transport/params.h) describes keys the switch reads
		 * (tcp.mss and rdma.mtu set its headroom); it is data, not the layer's code */
		size_t len = strlen(line);
		if (len > 3 && line[len - 2] == ':' && line[len - 1] == '\n') {
			in_params = !strcmp(line, "params.o:\n");
			continue;
		}
		if (in_params)
			continue;
		if (sscanf(line, "%63s %7s %2047s", addr, type, name) != 3 || strlen(type) != 1)
			continue; /* an archive member's header, a blank line */
		if (globals_only && !(type[0] >= 'A' && type[0] <= 'Z'))
			continue;
		strip_suffix(name);
		/* names reserved to the implementation: the sanitizers' __odr_asan.X markers, the
		 * compiler's and libc's own; no layer of ours defines one */
		if (*name && strncmp(name, "__", 2) != 0)
			names_add(out, name);
	}
	assert_int_equal(pclose(p), 0);
	qsort(out->v, out->n, sizeof(*out->v), cmp_name);
}

static void forbidden_symbols(struct names *out)
{
	char path[8192];
	for (size_t i = 0; i < sizeof(forbidden_layers) / sizeof(forbidden_layers[0]); i++) {
		snprintf(path, sizeof(path), "%s/lib/libsb_%s.a", build_dir, forbidden_layers[i]);
		nm_defined(path, true, out);
	}
	for (size_t i = 0; i < sizeof(forbidden_mains) / sizeof(forbidden_mains[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", build_dir, forbidden_mains[i]);
		nm_defined(path, true, out);
	}
	qsort(out->v, out->n, sizeof(*out->v), cmp_name);
}

/* The forbidden set holds the simulator's entry points, and the switch's symbols are read:
 * without this, a misread nm output or a missing archive would pass the check below. */
static void test_forbidden_set_is_real(void **state)
{
	(void)state;
	struct names bad = { 0 }, sw = { 0 };
	forbidden_symbols(&bad);
	assert_true(bad.n > 100);
	assert_true(names_has(&bad, "sb_sim_run"));       /* src/sim/ */
	assert_true(names_has(&bad, "sb_transport_find")); /* src/transport/ */
	assert_true(names_has(&bad, "sb_workloads_start")); /* src/workload/ */
	char path[8192];
	snprintf(path, sizeof(path), "%s/sharebuf-switch", build_dir);
	nm_defined(path, false, &sw);
	assert_true(names_has(&sw, "main"));
	names_free(&bad);
	names_free(&sw);
}

static void test_switch_links_no_simulator_code(void **state)
{
	(void)state;
	struct names bad = { 0 }, sw = { 0 };
	forbidden_symbols(&bad);
	char path[8192];
	snprintf(path, sizeof(path), "%s/sharebuf-switch", build_dir);
	nm_defined(path, false, &sw);
	size_t found = 0;
	for (size_t i = 0; i < sw.n; i++)
		if (strcmp(sw.v[i], "main") != 0 && names_has(&bad, sw.v[i])) {
			if (found < 20)
				print_message("sharebuf-switch defines %s, a symbol of the simulator's layers\n", sw.v[i]);
			found++;
		}
	assert_int_equal(found, 0);
	names_free(&bad);
	names_free(&sw);
}

int main(int argc, char **argv)
{
	(void)argc;
	/* BUILD/tests/dataplane/test_switch_symbols */
	char prog[4096];
	snprintf(prog, sizeof(prog), "%s", argv[0]);
	snprintf(build_dir, sizeof(build_dir), "%s/../..", dirname(prog));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forbidden_set_is_real),
		cmocka_unit_test(test_switch_links_no_simulator_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
