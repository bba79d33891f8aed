/*
 * test_dataplane_veth.c — build/sharebuf-switch as a program.
 *
 *   test_bad_input   without root: every kind of bad input ends with status 2, a message
 *                    naming what is wrong, and no output directory (the contract of
 *                    docs/testbed.md §"switch command line");
 *   test_planted_links as root with a network namespace (else skipped): a symbolic link planted
 *                    as DIR/.sharebuf.lock makes the switch refuse DIR (status 2, the link
 *                    named), links planted as its three outputs are replaced by its files; the
 *                    links' targets keep their content and mtime (docs/testbed.md; the switch
 *                    once took no lock and wrote through the links).
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
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
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
	expect_bad(args, "sharebuf-switch: expected SCENARIO (see 'sharebuf-switch --help')\n", out);
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
	expect_bad(args, "sharebuf-switch: --duration-s expects a number of seconds in (0, 1e6], got 'x'\n", out);
	free(single);
	free(fabric);
	tl_rmtree(tmp);
	free(tmp);
}


/* The switch for 50 ms between the two ends of a veth pair in a new network namespace, its
 * stderr in *err; 77 when there is no namespace to be had (not root, no veth). */
static int switch_in_netns(const char *tmp, const char *cfg, const char *out, char **err)
{
	char cmd[16384], errp[4200];
	snprintf(errp, sizeof(errp), "%s/switch.err", tmp);
	snprintf(cmd, sizeof(cmd),
		 "timeout -k 5 60 unshare -n sh -c 'ip link add sbv0 type veth peer name sbv1 2>/dev/null && "
		 "ip link set sbv0 up && ip link set sbv1 up || exit 77; exec \"$0\" \"$1\" --port sbv0=02:00:00:00:00:01 "
		 "--port sbv1=02:00:00:00:00:02 --out \"$2\" --duration-s 0.05' '%s' '%s' '%s' >/dev/null 2>'%s' </dev/null",
		 switch_path, cfg, out, errp);
	int rc = system(cmd);
	*err = tl_slurp(errp);
	int st = rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
	print_message("sharebuf-switch --out %s -> %d: %s", out, st, *err ? *err : "");
	return st;
}

static void test_planted_links(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: the switch's AF_PACKET sockets and a network namespace need root\n");
		skip();
	}
	char *tmp = tl_tmpdir(), *out = tl_path_in(tmp, "out"), *err = NULL;
	char *cfg = tl_write_file(tmp, "single.cfg", "topology: { type = \"single\"; hosts = 2; };\n");
	char *target = tl_precious_file(tmp, "target");
	assert_int_equal(mkdir(out, 0777), 0);
	char *lock = tl_path_in(out, ".sharebuf.lock");
	assert_int_equal(symlink(target, lock), 0);
	int st = switch_in_netns(tmp, cfg, out, &err);
	if (st == 77) {
		print_message("skipped: no network namespace with a veth pair here\n");
		free(err);
		free(lock);
		free(target);
		free(cfg);
		free(out);
		tl_rmtree(tmp);
		free(tmp);
		skip();
	}
	char want[8400];
	snprintf(want, sizeof(want), "sharebuf-switch: --out: %s is a symbolic link, not a sharebuf lock", lock);
	assert_int_equal(st, 2);
	assert_non_null(err);
	assert_non_null(strstr(err, want));
	assert_int_equal(tl_count_entries(out), 1); /* nothing written beside the link */
	tl_expect_untouched(target);
	free(err);

	/* links as the outputs: replaced by the switch's files, never written through */
	assert_int_equal(unlink(lock), 0);
	static const char *const names[] = { "summary.json", "queues.csv", "occupancy.csv" };
	for (int i = 0; i < 3; i++) {
		char *p = tl_path_in(out, names[i]);
		assert_int_equal(symlink(target, p), 0);
		free(p);
	}
	assert_int_equal(switch_in_netns(tmp, cfg, out, &err), 0);
	tl_expect_untouched(target);
	for (int i = 0; i < 3; i++) {
		char *p = tl_path_in(out, names[i]);
		struct stat ls;
		assert_int_equal(lstat(p, &ls), 0);
		assert_true(S_ISREG(ls.st_mode));
		free(p);
	}
	assert_int_equal(tl_count_entries(out), 3); /* the three outputs; the lock is given up */
	free(err);
	free(lock);
	free(target);
	free(cfg);
	free(out);
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
		cmocka_unit_test(test_planted_links),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
