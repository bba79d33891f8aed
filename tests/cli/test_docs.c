/*
 * test_docs.c — documentation that cannot go stale, and reproductions that leave the checkout
 * as it was.
 *
 * 1. The figures tools/gen-docs.sh writes between marker comments (the demo's table of
 *    README.md and docs/compare.md, from a run of `sharebuf compare` now; every run time of a
 *    reproduction, from the committed REPORT.md headers and the sweep specs) are what the
 *    program and the reports say today: `sh tools/gen-docs.sh --check` passes on the committed
 *    files, and fails, naming it, on a copy with one figure changed.
 * 1b. The benchmarks record only under bench/results/ (bench/results-append.sh): a row is
 *    appended to its file, a row or header that does not match the file's columns is refused
 *    and nothing written, every script's header is its file's, and BENCHMARKS.md, generated
 *    from those files, reads as stale once a row is added and shows it (on a copy of the
 *    directory, with a fake row: no benchmark runs), while nothing in the checkout changes.
 * 2. The experiments' reports (experiments/lib/report.sh): report.sh writes REPORT.md and its
 *    plots under out/ unless given --update-report, and never replaces a committed report by
 *    one without a section the old one had (a --full run's numbers). Driven on the library's
 *    functions with a template of two lines (the experiments' real inputs take minutes to
 *    make), and on every experiment's scripts for what needs no outputs: their options, and
 *    that nothing under experiments/ is written by them other than through REPORT_DIR.
 *
 * Run from the repository root, as every test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "testlib.h"

struct sh_out {
	int status;
	char *text; /* stdout and stderr together */
};

static struct sh_out sh(const char *dir, const char *cmd)
{
	char full[16384];
	snprintf(full, sizeof(full), "(%s) > '%s/sh.txt' 2>&1 </dev/null", cmd, dir);
	int rc = system(full);
	struct sh_out o = { rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, tl_slurp_in(dir, "sh.txt") };
	assert_non_null(o.text);
	return o;
}

/* The committed files are current; a copy of README.md with one digit of the demo's table
 * changed is not, and is the only file named (one run of the generator checks both). */
static void test_generated_docs_are_current(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), cmd[8192];
	char *readme = tl_slurp("README.md");
	assert_non_null(readme);
	char *row = strstr(readme, "\ncs    ");
	assert_non_null(row); /* the demo table's row of cs */
	char *digit = strpbrk(row + 1, "0123456789");
	*digit = *digit == '9' ? '8' : (char)(*digit + 1);
	char *stale = tl_write_file(dir, "stale-README.md", readme);
	snprintf(cmd, sizeof(cmd),
		 "GEN_DOCS_FILES=\"README.md BENCHMARKS.md docs/compare.md $(ls experiments/*/README.md | tr '\\n' ' ') %s\" "
		 "sh tools/gen-docs.sh --check '%s'",
		 stale, tl_sharebuf_path());
	struct sh_out o = sh(dir, cmd);
	print_message("%s", o.text);
	assert_int_equal(o.status, 1);
	char want[4200];
	snprintf(want, sizeof(want), "gen-docs: %s is out of date (run `make docs`)", stale);
	assert_non_null(strstr(o.text, want));
	/* and nothing else is: the committed files say what the program prints now */
	if (strstr(o.text, "gen-docs: README.md") || strstr(o.text, "gen-docs: BENCHMARKS.md") ||
	    strstr(o.text, "gen-docs: docs/") || strstr(o.text, "gen-docs: experiments/"))
		fail_msg("a committed file is out of date: run `make docs`:\n%s", o.text);
	free(o.text);
	free(stale);
	free(readme);
	tl_rmtree(dir);
	free(dir);
}

/* The benchmarks' data path, on a copy of bench/results with fake rows. */
static void test_bench_rows_go_to_results(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), cmd[32768];
	struct sh_out before = sh(dir, "git status --porcelain --untracked-files=all -- BENCHMARKS.md bench");
	snprintf(cmd, sizeof(cmd), "cp -r bench/results '%s/results'", dir);
	struct sh_out o = sh(dir, cmd);
	assert_int_equal(o.status, 0);
	free(o.text);
	/* a `make bench` row of a binary no one built, and two that do not fit */
	free(tl_write_file(dir, "row.tsv",
			   "2099-01-01\tfake123\treference.cfg\t1.23\t4.5\t1\t2\t3\t4\t5\t6 / 7\t8\t9\t0\t0\tA fake CPU\n"));
	free(tl_write_file(dir, "short.tsv", "2099-01-01\tfake456\treference.cfg\n"));
	const char *append = "BENCH_RESULTS='%s/results' sh bench/results-append.sh";
	char env_append[1200];
	snprintf(env_append, sizeof(env_append), append, dir);
	snprintf(cmd, sizeof(cmd), "%s bench \"$(head -n 1 bench/results/bench.tsv)\" '%s/short.tsv'", env_append, dir);
	o = sh(dir, cmd);
	assert_int_equal(o.status, 2); /* too few fields */
	assert_non_null(strstr(o.text, "nothing written"));
	free(o.text);
	/* three columns for three fields, but not the file's columns */
	snprintf(cmd, sizeof(cmd), "%s bench \"$(printf 'date\\tcommit\\tscenario')\" '%s/short.tsv'", env_append, dir);
	o = sh(dir, cmd);
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.text, "has the columns"));
	free(o.text);
	snprintf(cmd, sizeof(cmd), "cmp bench/results/bench.tsv '%s/results/bench.tsv'", dir);
	o = sh(dir, cmd);
	assert_int_equal(o.status, 0); /* refused: the copy is as it was */
	free(o.text);
	snprintf(cmd, sizeof(cmd), "%s bench \"$(head -n 1 bench/results/bench.tsv)\" '%s/row.tsv' && "
		 "tail -n 1 '%s/results/bench.tsv' | cmp - '%s/row.tsv'", env_append, dir, dir, dir);
	o = sh(dir, cmd);
	if (o.status != 0)
		fail_msg("the row was not appended:\n%s", o.text);
	free(o.text);
	/* a new file starts with its header */
	snprintf(cmd, sizeof(cmd), "%s fresh 'a' '%s/short.tsv' 2>&1; "
		 "%s fresh \"$(printf 'a\\tb\\tc')\" '%s/short.tsv' && cat '%s/results/fresh.tsv'",
		 env_append, dir, env_append, dir, dir);
	o = sh(dir, cmd);
	assert_non_null(strstr(o.text, "a\tb\tc\n2099-01-01\tfake456\treference.cfg\n"));
	free(o.text);
	/* every script's header is the first line of the file it appends to (a script whose
	 * columns drifted would lose its rows at the end of a long benchmark) */
	free(tl_write_file(dir, "headers.sh",
			   "for f in bench/*.sh; do\n"
			   "  awk '/results-append[.]sh [a-z-]+ [\\\\]$/ { n = $3; getline; if (match($0, /printf \\047[^\\047]*\\047/)) print n \"\\t\" substr($0, RSTART + 8, RLENGTH - 9) }' \"$f\"\n"
			   "done | while IFS='\t' read -r name fmt; do\n"
			   "  if [ \"$(printf \"$fmt\")\" = \"$(head -n 1 \"bench/results/$name.tsv\")\" ]; then echo \"ok $name\"; else echo \"MISMATCH $name\"; fi\n"
			   "done\n"));
	snprintf(cmd, sizeof(cmd), "sh '%s/headers.sh'", dir);
	o = sh(dir, cmd);
	print_message("%s", o.text);
	assert_null(strstr(o.text, "MISMATCH"));
	static const char *const names[] = { "bench", "scaling", "mem-latency", "memory", "flowlist",
					     "misses", "hotspots", "pairs", "dataplane" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "ok %s\n", names[i]);
		if (!strstr(o.text, want))
			fail_msg("no script appends to bench/results/%s.tsv with its header:\n%s", names[i], o.text);
	}
	free(o.text);
	/* BENCHMARKS.md follows the data: stale against the copy, naming the new figure */
	snprintf(cmd, sizeof(cmd), "GEN_DOCS_ONLY=bench BENCH_RESULTS='%s/results' GEN_DOCS_FILES=BENCHMARKS.md "
		 "sh tools/gen-docs.sh --check", dir);
	o = sh(dir, cmd);
	print_message("%s", o.text);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.text, "gen-docs: BENCHMARKS.md is out of date"));
	assert_non_null(strstr(o.text, "+| 2099-01-01 | fake123 | reference.cfg | 1.23 | 4.5 |"));
	free(o.text);
	/* and against the committed data it is current */
	o = sh(dir, "GEN_DOCS_ONLY=bench GEN_DOCS_FILES=BENCHMARKS.md sh tools/gen-docs.sh --check");
	if (o.status != 0)
		fail_msg("BENCHMARKS.md is out of date: run `make docs`:\n%s", o.text);
	free(o.text);
	struct sh_out after = sh(dir, "git status --porcelain --untracked-files=all -- BENCHMARKS.md bench");
	assert_string_equal(after.text, before.text);
	free(before.text), free(after.text);
	tl_rmtree(dir);
	free(dir);
}

/* A stand-in experiment in DIR/exp with a committed REPORT.md, a template and its values; the
 * report step of report.sh: report_dir (where), then fill_report. */
static struct sh_out report_step(const char *dir, const char *env, const char *args)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "%s sh -c '. experiments/lib/report.sh && EXP=%s/exp && report_dir %s/out %s && "
		 "fill_report \"$REPORT_DIR/REPORT.md\" %s/t.in =%s/v.tsv && echo \"into $REPORT_DIR\"'",
		 env, dir, dir, args, dir, dir);
	return sh(dir, cmd);
}

static void test_report_goes_under_out_unless_asked(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *exp = tl_path_in(dir, "exp"), path[4200];
	assert_int_equal(system("true"), 0);
	snprintf(path, sizeof(path), "mkdir -p '%s'", exp);
	assert_int_equal(system(path), 0);
	free(tl_write_file(exp, "REPORT.md", "committed\n"));
	free(tl_write_file(dir, "t.in", "# report\nvalue {{x}}\n"));
	free(tl_write_file(dir, "v.tsv", "x\t42\n"));

	/* by default: under out/, the committed report untouched */
	struct sh_out o = report_step(dir, "", "");
	assert_int_equal(o.status, 0);
	char *out = tl_path_in(dir, "out"), *got = tl_slurp_in(out, "REPORT.md"), *kept = tl_slurp_in(exp, "REPORT.md");
	assert_string_equal(got, "# report\nvalue 42\n");
	assert_string_equal(kept, "committed\n");
	free(got), free(kept), free(o.text);

	/* --update-report (report.sh's option) or UPDATE_REPORT=1 (run.sh hands it on so) */
	o = report_step(dir, "", "--update-report");
	assert_int_equal(o.status, 0);
	kept = tl_slurp_in(exp, "REPORT.md");
	assert_string_equal(kept, "# report\nvalue 42\n");
	free(kept), free(o.text);
	free(tl_write_file(exp, "REPORT.md", "committed\n"));
	o = report_step(dir, "UPDATE_REPORT=1", "");
	assert_int_equal(o.status, 0);
	kept = tl_slurp_in(exp, "REPORT.md");
	assert_string_equal(kept, "# report\nvalue 42\n");
	free(kept), free(o.text);

	/* any other argument is a usage error, before anything is written */
	free(tl_write_file(exp, "REPORT.md", "committed\n"));
	o = report_step(dir, "", "--frobnicate");
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.text, "[--update-report]"));
	kept = tl_slurp_in(exp, "REPORT.md");
	assert_string_equal(kept, "committed\n");
	free(kept), free(o.text);
	free(out), free(exp);
	tl_rmtree(dir);
	free(dir);
}

/* A committed report with a --full section is not replaced by one without it (a reduced run's):
 * the call fails naming the section, and the file is as it was; with the section, it is. */
static void test_report_keeps_full_section(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *exp = tl_path_in(dir, "exp"), path[4200];
	snprintf(path, sizeof(path), "mkdir -p '%s'", exp);
	assert_int_equal(system(path), 0);
	const char *committed = "<!-- section: full -->\n# report\nvalue 1, full 7\n";
	free(tl_write_file(exp, "REPORT.md", committed));
	free(tl_write_file(dir, "t.in", "{{if full}}\n<!-- section: full -->\n{{end}}\n# report\nvalue {{x}}\n"));
	free(tl_write_file(dir, "v.tsv", "x\t42\nfull\t\n"));
	struct sh_out o = report_step(dir, "", "--update-report");
	print_message("%s", o.text);
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.text, "holds the section(s) full,"));
	char *kept = tl_slurp_in(exp, "REPORT.md");
	assert_string_equal(kept, committed);
	free(kept), free(o.text);
	assert_int_equal(tl_count_entries(exp), 1); /* no temporary left behind */

	free(tl_write_file(dir, "v.tsv", "x\t42\nfull\t1\n"));
	o = report_step(dir, "", "--update-report");
	assert_int_equal(o.status, 0);
	kept = tl_slurp_in(exp, "REPORT.md");
	assert_string_equal(kept, "<!-- section: full -->\n# report\nvalue 42\n");
	free(kept), free(o.text), free(exp);
	tl_rmtree(dir);
	free(dir);
}

/* Every experiment's scripts: the options (usage errors exit 2), a report step with no outputs
 * leaves experiments/ as it was, and nothing in them writes into the experiment's folder but
 * through REPORT_DIR (the one place report_dir points at it) or with --update-report. */
static void test_experiment_scripts_leave_checkout(void **state)
{
	(void)state;
	static const char *const exps[] = { "abm", "dsh", "edt", "occamy", "reverie" };
	char *dir = tl_tmpdir(), cmd[8192];
	struct sh_out before = sh(dir, "git status --porcelain --untracked-files=all -- experiments");
	for (size_t i = 0; i < sizeof(exps) / sizeof(exps[0]); i++) {
		snprintf(cmd, sizeof(cmd), "DRY_RUN=1 sh experiments/%s/run.sh --frobnicate", exps[i]);
		struct sh_out o = sh(dir, cmd);
		assert_int_equal(o.status, 2);
		assert_non_null(strstr(o.text, "[--full] [--update-report]"));
		free(o.text);
		snprintf(cmd, sizeof(cmd), "sh experiments/%s/report.sh --frobnicate", exps[i]);
		o = sh(dir, cmd);
		assert_int_equal(o.status, 2);
		free(o.text);
		/* writes into $EXP/ or experiments/NAME/ by a redirection, cp, mv or fill_report */
		snprintf(cmd, sizeof(cmd),
			 "{ grep -n -E '(>|cp |mv ).*(\\$EXP|experiments/%s)/' experiments/%s/*.sh | "
			 "grep -v -E '\\$(EXP|ROOT)/[A-Za-z0-9_.-]+(\\.(awk|sh|cfg|in|tsv)|/)[^>]*(>|$)|REPORT_DIR|UPDATE_REPORT|^[^:]*:[0-9]+:\\s*#'; "
			 "grep -n -E 'fill_report +\"?(\\$EXP|experiments)/' experiments/%s/*.sh; } || true",
			 exps[i], exps[i], exps[i]);
		o = sh(dir, cmd);
		if (o.text[0])
			fail_msg("experiments/%s writes into its folder other than through REPORT_DIR:\n%s", exps[i], o.text);
		free(o.text);
	}
	struct sh_out after = sh(dir, "git status --porcelain --untracked-files=all -- experiments");
	assert_string_equal(after.text, before.text);
	free(before.text), free(after.text);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_docs_are_current),
		cmocka_unit_test(test_bench_rows_go_to_results),
		cmocka_unit_test(test_report_goes_under_out_unless_asked),
		cmocka_unit_test(test_report_keeps_full_section),
		cmocka_unit_test(test_experiment_scripts_leave_checkout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
