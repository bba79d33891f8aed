/*
 * test_provenance.c — what a run records about how it was made (docs/outputs.md §3.1): the
 * SHA-256 against the standard's vectors, the resolved scenario (every key, values that read
 * back to the same bits, file names that work from anywhere), and DIR/scenario.cfg repeating
 * the run byte for byte when run by itself from another directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scenario/cfgfile.h"
#include "mmu/mmu.h"
#include "sim/provenance.h"
#include "testlib.h"
#include "workload/types.h"

/* FIPS 180-2 appendix B's examples, and the empty message. */
static void test_sha256_vectors(void **state)
{
	(void)state;
	static const struct {
		const char *msg, *hex;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		char hex[SB_SHA256_HEX];
		sb_sha256_hex(v[i].msg, strlen(v[i].msg), hex);
		assert_string_equal(hex, v[i].hex);
	}
}

/* Lines "NAME = " of the text: one per key written. */
static size_t count_assignments(const char *text)
{
	size_t n = 0;
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		const char *c = l + strspn(l, " ");
		size_t w = strcspn(c, " =\n");
		if (w && !strncmp(c + w, " = ", 3) && c[w + 3] != '{' && c[w + 3] != '(')
			n++;
		else if (w && !strncmp(c + w, " = (", 4) && strncmp(c, "workloads", 9)) /* a list value */
			n++;
	}
	return n;
}

static size_t table_len(const struct sb_param *t)
{
	size_t n = 0;
	while (t && t[n].name)
		n++;
	return n;
}

/* Every key of every table is written, and the text reads back into a scenario whose text is
 * the same (so each value survived: a real written with too few digits, an int64 without its
 * L, a list as a mixed array would each change or fail). */
static void test_resolved_round_trip(void **state)
{
	(void)state;
	static const char *const sets[] = {
		"workloads.0.load=0.30000000000000004", /* 0.1 + 0.2: needs 17 digits */
		"switch.buffer_bytes=5000000000",       /* beyond 32 bits */
		"switch.dt.alpha=[0.5, 1, 2, 4, 8, 16, 32, 0.125]",
		"topology.remove_links=[\"leaf0-spine0\"]",
		"run.sample_hosts=[1, 2]",
		"workloads.1.receivers=[3]",
		"switch.scheme=abm",
	};
	struct sb_scenario sc, back;
	extern const char sb_default_scenario[];
	tl_scenario(&sc, sb_default_scenario, sets, sizeof(sets) / sizeof(*sets));
	char *text = sb_cfg_resolved_text(&sc);

	size_t keys = table_len(sb_run_param_table) + table_len(sb_topo_param_table) +
		      table_len(sb_switch_param_table) + table_len(sb_host_param_table) + table_len(sb_tcp_param_table) +
		      table_len(sb_pfc_param_table) + table_len(sb_rdma_param_table);
	for (const struct sb_bm_ops *const *o = sb_bm_all(); *o; o++)
		keys += table_len((*o)->params);
	for (size_t w = 0; w < sc.nworkloads; w++)
		keys += 1 + table_len(sc.workloads[w].ops->params); /* type + its keys */
	assert_int_equal(count_assignments(text), keys);
	assert_non_null(strstr(text, "buffer_bytes = 5000000000L;"));
	assert_non_null(strstr(text, "load = 0.30000000000000004;"));
	assert_non_null(strstr(text, "alpha = ( 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 0.125 );"));

	tl_scenario(&back, text, NULL, 0);
	char *again = sb_cfg_resolved_text(&back);
	assert_string_equal(again, text);
	assert_true(((const struct sb_wl_poisson *)back.workloads[0].params)->load == 0.1 + 0.2);
	assert_int_equal(back.sw.buffer_bytes, 5000000000LL);
	free(again);
	free(text);
	sb_scenario_free(&back);
	sb_scenario_free(&sc);
}

static void run_ok(const char *args)
{
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("sharebuf %s: exit %d: %s", args, r.status, r.err);
	tl_cmd_free(&r);
}

/* A scenario with a relative CDF file and flow list, run with overrides; then DIR/scenario.cfg
 * alone, from another directory: the same flows, occupancy, drops and resolved scenario, and
 * summary.json's provenance names the hash of scenario.cfg in both. */
static void test_scenario_cfg_repeats_the_run(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), args[8192];
	char *sub = tl_path_in(dir, "sub");
	assert_int_equal(mkdir(sub, 0777), 0);
	char *cdf = tl_slurp("data/cdf/websearch.cdf");
	assert_non_null(cdf);
	free(tl_write_file(sub, "my.cdf", cdf));
	free(cdf);
	free(tl_write_file(sub, "flows.csv", "start_us,src,dst,size_bytes,priority,transport\n"
					     "10,0,9,20000,1,dctcp\n20,3,12,50000,1,cubic\n"));
	char *cfg = tl_write_file(sub, "s.cfg",
				  "run = { duration_ms = 3.0; };\n"
				  "workloads = ( { type = \"poisson\"; cdf = \"my.cdf\"; load = 0.5; },\n"
				  "              { type = \"file\"; path = \"flows.csv\"; } );\n");
	char *a = tl_path_in(dir, "a"), *b = tl_path_in(dir, "b");
	snprintf(args, sizeof(args), "run '%s' --quiet --seed 9 --set switch.scheme=abm --set 'switch.abm.alpha=0.25' "
		 "--out '%s'", cfg, a);
	run_ok(args);
	char *resolved = tl_path_in(a, "scenario.cfg");
	/* from another working directory, with no override */
	snprintf(args, sizeof(args), "run '%s' --quiet --out '%s'", resolved, b);
	const char *sb = tl_sharebuf_path();
	char cmd[8192 + 4096 + 4096 + 64], cwd[4096] = "";
	if (sb[0] != '/') /* the program's path is relative to the repository root */
		assert_non_null(getcwd(cwd, sizeof(cwd) - 1));
	snprintf(cmd, sizeof(cmd), "cd / && '%s%s%s' %s > /dev/null", cwd, *cwd ? "/" : "", sb, args);
	assert_int_equal(system(cmd), 0);
	static const char *const same[] = { "flows.csv", "occupancy.csv", "drops.csv", "scenario.cfg" };
	for (size_t i = 0; i < 4; i++) {
		char *x = tl_slurp_in(a, same[i]), *y = tl_slurp_in(b, same[i]);
		if (strcmp(x, y))
			fail_msg("%s differs between the run and the run of its scenario.cfg", same[i]);
		free(x);
		free(y);
	}
	char *flows = tl_slurp_in(a, "flows.csv");
	assert_non_null(strstr(flows, ",file,")); /* the flow list was found */
	free(flows);
	char *text = tl_slurp_in(a, "scenario.cfg"), hex[SB_SHA256_HEX];
	assert_non_null(strstr(text, "seed = 9;"));
	assert_non_null(strstr(text, "alpha = ( 0.25, 0.25,"));
	assert_null(strstr(text, "\"my.cdf\"")); /* absolute: it works from DIR */
	sb_sha256_hex(text, strlen(text), hex);
	for (int k = 0; k < 2; k++) {
		json_t *sum = tl_json_load(k ? b : a, "summary.json");
		assert_string_equal(json_string_value(tl_json_get(sum, "provenance.scenario_sha256")), hex);
		assert_string_equal(json_string_value(tl_json_get(sum, "provenance.version")), sb_version);
		const char *commit = json_string_value(tl_json_get(sum, "provenance.commit"));
		size_t hexlen = strspn(commit, "0123456789abcdef");
		/* a dirty tree's: "-dirty-" and 12 hex digits of what differs (tools/git-commit.sh) */
		assert_true(!strcmp(commit, "unknown") ||
			    (hexlen == 40 && (!commit[40] || (!strncmp(commit + 40, "-dirty-", 7) &&
							      strspn(commit + 47, "0123456789abcdef") == 12 && !commit[59]))));
		/* In a git checkout it is the HEAD the program was built from: make must re-embed it
		 * after every commit (a stale commit here once survived a whole session). */
		FILE *git = popen("git rev-parse HEAD 2>/dev/null", "r");
		char head[64] = "";
		if (git) {
			if (!fgets(head, sizeof head, git))
				head[0] = 0;
			pclose(git);
		}
		if (strspn(head, "0123456789abcdef") == 40)
			assert_memory_equal(commit, head, 40);
		json_t *ov = tl_json_get(sum, "provenance.overrides");
		if (k == 0) {
			assert_int_equal(json_array_size(ov), 3);
			assert_string_equal(json_string_value(json_array_get(ov, 0)), "run.seed=9");
			assert_string_equal(json_string_value(json_array_get(ov, 2)), "switch.abm.alpha=0.25");
			const char *cl = json_string_value(tl_json_get(sum, "provenance.command_line"));
			assert_true(!strncmp(cl, "sharebuf run ", 13));
			assert_non_null(strstr(cl, " --seed 9 --set switch.scheme=abm --set switch.abm.alpha=0.25 --out "));
		} else {
			assert_int_equal(json_array_size(ov), 0);
		}
		json_decref(sum);
	}
	free(text);
	free(resolved);
	free(cfg);
	free(a);
	free(b);
	free(sub);
	tl_rmtree(dir);
	free(dir);
}

/* An argument with a blank or a quote is quoted so that a shell gives it back unchanged. */
static void test_shell_quote(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	sb_shell_quote_append(&buf, &len, "--set=run.seed=3");
	sb_shell_quote_append(&buf, &len, " ");
	sb_shell_quote_append(&buf, &len, "it's a b");
	sb_shell_quote_append(&buf, &len, " ");
	sb_shell_quote_append(&buf, &len, "");
	assert_string_equal(buf, "--set=run.seed=3' ''it'\\''s a b'' '''");
	free(buf);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_resolved_round_trip),
		cmocka_unit_test(test_scenario_cfg_repeats_the_run),
		cmocka_unit_test(test_shell_quote),
	};
	return cmocka_run_group_tests_name("provenance", tests, NULL, NULL);
}
