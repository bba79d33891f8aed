/*
 * test_quickstart.c — the README's commands print their result, not their machinery: `make
 * test` ends with the summary line and shows a test program's output only when it fails
 * (tests/run-tests.sh), and `make demo` / `make test` build quietly, showing the compiler's
 * output only when the build fails (tools/quietly.sh). Both scripts are driven here on
 * stand-in programs (in two layers' directories of BUILD/tests/, beside a real-time one that
 * `make test` must not run), from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "testlib.h"

struct out {
	int status;
	char *text; /* stdout and stderr together, in order */
};

static struct out shell(const char *cmd, const char *dir)
{
	char full[8192];
	snprintf(full, sizeof(full), "(%s) > '%s/out.txt' 2>&1 </dev/null", cmd, dir);
	int rc = system(full);
	struct out o = { rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, tl_slurp_in(dir, "out.txt") };
	return o;
}

/* A stand-in test program: prints `text` and exits with `status`; beside it the source it is
 * built from (run-tests.sh runs the programs of the sources, SOURCES=dir). */
static void program(const char *dir, const char *name, const char *text, int status)
{
	char script[2048], source[256];
	snprintf(script, sizeof(script), "#!/bin/sh\nprintf '%%s' '%s'\nexit %d\n", text, status);
	char *p = tl_write_file(dir, name, script);
	assert_int_equal(chmod(p, 0755), 0);
	free(p);
	snprintf(source, sizeof(source), "%s.c", name);
	free(tl_write_file(dir, source, "/* the stand-in's source */\n"));
}

static const char *last_line(const char *s)
{
	size_t n = strlen(s);
	if (n && s[n - 1] == '\n')
		n--;
	while (n && s[n - 1] != '\n')
		n--;
	return s + n;
}

static void test_run_tests_summary(void **state)
{
	(void)state;
	/* BUILD/tests/LAYER/test_x: two layers' directories, and the real-time tests' apart */
	char *dir = tl_tmpdir(), *top = tl_path_in(dir, "tests"), *tests = tl_path_in(top, "core"), cmd[4096];
	char *other = tl_path_in(top, "mmu"), *realtime = tl_path_in(top, "realtime");
	assert_int_equal(mkdir(top, 0777), 0);
	assert_int_equal(mkdir(tests, 0777), 0);
	assert_int_equal(mkdir(other, 0777), 0);
	assert_int_equal(mkdir(realtime, 0777), 0);
	program(realtime, "test_rt", "[  FAILED  ] 5 test(s), listed below:\n", 1); /* never run by make test */
	program(tests, "test_good", "[ RUN      ] test_one\nnoise of a passing test\n[  PASSED  ] 3 test(s).\n", 0);
	program(tests, "test_bad",
		"[ RUN      ] test_two\nwhy it failed\n[  PASSED  ] 1 test(s).\n[  FAILED  ] 1 test(s), listed below:\n", 1);
	program(other, "test_quiet", "[  PASSED  ] 2 test(s).\n", 0);
	/* a program whose source is gone (a test moved to another layer's directory leaves its
	 * old binary in BUILD): never run, its failure must not count */
	char *stale = tl_write_file(other, "test_moved", "#!/bin/sh\nprintf '[  FAILED  ] 9 test(s), listed below:\\n'\nexit 1\n");
	assert_int_equal(chmod(stale, 0755), 0);
	free(stale);
	snprintf(cmd, sizeof(cmd), "SOURCES='%s' sh tests/run-tests.sh '%s'", dir, dir);
	struct out o = shell(cmd, dir);
	assert_int_equal(o.status, 1);
	assert_string_equal(last_line(o.text), "tests: 6 passed, 1 failed\n");
	/* the failure in full, the passing programs' noise not at all, but kept in their logs */
	assert_non_null(strstr(o.text, "why it failed"));
	assert_null(strstr(o.text, "noise of a passing test"));
	char *logs = tl_path_in(dir, "test-logs"), *core_logs = tl_path_in(logs, "core");
	char *good = tl_slurp_in(core_logs, "test_good.log");
	assert_non_null(strstr(good, "noise of a passing test"));
	free(good);
	assert_int_equal(tl_count_entries(logs), 2); /* core/, mmu/ */
	assert_int_equal(tl_count_entries(core_logs), 2);
	free(core_logs);
	free(o.text);

	/* all passing: a few lines at most, the summary last, status 0 */
	program(tests, "test_bad", "[  PASSED  ] 1 test(s).\n", 0);
	o = shell(cmd, dir);
	assert_int_equal(o.status, 0);
	assert_string_equal(last_line(o.text), "tests: 6 passed, 0 failed\n");
	size_t lines = 0;
	for (const char *c = o.text; *c; c++)
		lines += *c == '\n';
	assert_true(lines <= 2);
	free(o.text);
	free(logs);
	free(tests);
	free(other);
	free(realtime);
	free(top);
	tl_rmtree(dir);
	free(dir);
}

static void test_quiet_build(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), cmd[4096];
	snprintf(cmd, sizeof(cmd), "sh tools/quietly.sh '%s/b/build.log' sh -c 'echo cc one.c; echo cc two.c'", dir);
	struct out o = shell(cmd, dir);
	assert_int_equal(o.status, 0);
	assert_null(strstr(o.text, "cc one.c")); /* one line saying where the output went */
	assert_ptr_equal(strchr(o.text, '\n'), o.text + strlen(o.text) - 1);
	char *b = tl_path_in(dir, "b");
	char *log = tl_slurp_in(b, "build.log");
	assert_string_equal(log, "cc one.c\ncc two.c\n");
	free(log);
	free(o.text);

	snprintf(cmd, sizeof(cmd), "sh tools/quietly.sh '%s/b/build.log' sh -c 'echo cc one.c; echo one.c:1: error: oops; exit 2'",
		 dir);
	o = shell(cmd, dir);
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.text, "one.c:1: error: oops"));
	free(o.text);

	/* the README's commands build that way */
	char *mk = tl_slurp("Makefile");
	assert_non_null(mk);
	assert_non_null(strstr(mk, "@$(QUIETLY) $(BUILD)/build.log $(MAKE) --no-print-directory all\n"));
	assert_non_null(strstr(mk, "@$(QUIETLY) $(BUILD)/build.log $(MAKE) --no-print-directory build-tests\n"));
	free(mk);
	free(b);
	tl_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_tests_summary),
		cmocka_unit_test(test_quiet_build),
	};
	return cmocka_run_group_tests_name("quickstart", tests, NULL, NULL);
}
