/*
 * test_dataplane_veth.c — build/sharebuf-switch as a program.
 *
 *   test_bad_input   without root: every kind of bad input ends with status 2, a message
 *                    naming what is wrong, and no output directory (the contract of
 *                    docs/testbed.md §"switch command line").
 *
 * The switch on real packets, in network namespaces and real time, is tested by
 * tests/realtime/test_veth.c (make test-realtime): its counts depend on how the machine
 * schedules the switch and the hosts, which `make test` must never depend on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "testlib.h"

static char switch_path[4200];

static struct tl_cmd run_switch(const char *args)
{
	char cmd[8192];
	char *dir = tl_tmpdir();
	snprintf(cmd, sizeof(cmd), "timeout -k 5 60 '%s' %s >'%s/out' 2>'%s/err' </dev/null", switch_path, args, dir,
		 dir);
	int rc = system(cmd);
	char p[4300];
	snprintf(p, sizeof(p), "%s/out", dir);
	struct tl_cmd r = { -1, tl_slurp(p), NULL };
	snprintf(p, sizeof(p), "%s/err", dir);
	r.err = tl_slurp(p);
	if (rc != -1 && WIFEXITED(rc))
		r.status = WEXITSTATUS(rc);
	tl_rmtree(dir);
	free(dir);
	return r;
}

static void expect_bad(const char *args, const char *message, const char *outdir)
{
	struct tl_cmd r = run_switch(args);
	print_message("sharebuf-switch %s\n  -> %d: %s", args, r.status, r.err);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, message));
	assert_false(tl_exists(outdir));
	tl_cmd_free(&r);
}

static void test_bad_input(void **state)
{
	(void)state;
	char *tmp = tl_tmpdir();
	char out[4200], args[8192];
	snprintf(out, sizeof(out), "%s/out", tmp);
	char *single = tl_write_file(tmp, "single.cfg", "topology: { type = \"single\"; hosts = 2; };\n");
	char *fabric = tl_write_file(tmp, "fabric.cfg", "topology: { type = \"leafspine\"; };\n");
	snprintf(args, sizeof(args), "--port lo=02:00:00:00:00:01 --out %s", out);
	expect_bad(args, "expected a SCENARIO file", out);
	snprintf(args, sizeof(args), "%s/missing.cfg --port a=02:00:00:00:00:01 --port b=02:00:00:00:00:02 --out %s", tmp, out);
	expect_bad(args, "missing.cfg", out);
	snprintf(args, sizeof(args), "%s --port a=02:00:00:00:00:01 --port b=02:00:00:00:00:02 --out %s", fabric, out);
	expect_bad(args, "topology.type", out);
	snprintf(args, sizeof(args), "%s --port a=02:00:00:00:00:01 --out %s", single, out);
	expect_bad(args, "topology.hosts", out);
	snprintf(args, sizeof(args), "%s --port a=02:00:00:00:00:01 --port b=02:00:00:00:00 --out %s", single, out);
	expect_bad(args, "expected IFNAME=MAC", out);
	snprintf(args, sizeof(args), "%s --port a=02:00:00:00:00:01 --port a=02:00:00:00:00:02 --out %s", single, out);
	expect_bad(args, "interface given twice", out);
	snprintf(args, sizeof(args), "%s --port sbnosuch0=02:00:00:00:00:01 --port sbnosuch1=02:00:00:00:00:02 --out %s",
		 single, out);
	expect_bad(args, "sbnosuch0: no such network interface", out);
	snprintf(args, sizeof(args), "%s --port a=02:00:00:00:00:01 --port b=02:00:00:00:00:02 --out %s --set switch.dt.alpha=-1",
		 single, out);
	expect_bad(args, "switch.dt.alpha", out);
	snprintf(args, sizeof(args), "%s --port a=02:00:00:00:00:01 --port b=02:00:00:00:00:02 --out %s --duration-s x",
		 single, out);
	expect_bad(args, "--duration-s", out);
	free(single);
	free(fabric);
	tl_rmtree(tmp);
	free(tmp);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	char prog[4096];
	snprintf(prog, sizeof(prog), "%s", tl_sharebuf_path());
	snprintf(switch_path, sizeof(switch_path), "%s/sharebuf-switch", dirname(prog));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
