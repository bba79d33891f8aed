/*
 * test_dataplane_veth.c — build/sharebuf-switch as a program.
 *
 *   test_bad_input   without root: every kind of bad input ends with status 2, a message
 *                    naming what is wrong, and no output directory (the contract of
 *                    docs/testbed.md §"switch command line");
 *   test_veth        as root with network namespaces (else skipped, with the reason):
 *                    tests/dataplane-veth.sh puts the switch between three namespaces; a UDP
 *                    ping (static ARP, then through flooded ARP) and an iperf3 TCP transfer get
 *                    through, an overload of one port makes the MMU drop (counted as threshold
 *                    drops, DT) and holds the congested queue at DT's steady state αB/(1+α)
 *                    within a frame, SIGTERM ends the switch with status 0, and its outputs
 *                    hold: conservation, the queues' rows, the simulator's occupancy.csv header;
 *   test_veth_occamy the same with Occamy: the overload makes it expel heads (its grants run on
 *                    the switch's real-time timers and token bucket);
 *   test_planted_links as root with a network namespace (else skipped): a symbolic link planted
 *                    as DIR/.sharebuf.lock makes the switch refuse DIR (status 2, the link
 *                    named), links planted as its three outputs are replaced by its files; the
 *                    links' targets keep their content and mtime (docs/testbed.md; the switch
 *                    once took no lock and wrote through the links).
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

static char build_dir[4096];
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

/* Runs tests/dataplane-veth.sh with `scheme` and checks what every scheme's run must hold; NULL
 * when skipped (not root, no namespaces), else the switch's summary.json, with its
 * occupancy.csv in *occ. The run's directory is gone on return. */
static json_t *veth_run(const char *scheme, char **occ)
{
	char *tmp = tl_tmpdir();
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "timeout -k 5 120 sh tests/dataplane-veth.sh '%s' '%s/run' %s >'%s/log' 2>&1",
		 build_dir, tmp, scheme, tmp);
	int rc = system(cmd);
	char *log = tl_slurp_in(tmp, "log");
	print_message("%s", log);
	free(log);
	if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) {
		tl_rmtree(tmp);
		free(tmp);
		return NULL;
	}
	assert_true(WIFEXITED(rc));
	assert_int_equal(WEXITSTATUS(rc), 0);
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/run/switch", tmp);
	json_t *j = tl_json_load(dir, "summary.json");
	assert_true(json_is_true(tl_json_get(j, "conservation.ok")));
	long long rx = tl_json_int(j, "received.pkts"), fwd = tl_json_int(j, "forwarded.pkts");
	long long drop = tl_json_int(j, "dropped.pkts"), ctrl = tl_json_int(j, "control.frames");
	long long queued = tl_json_int(j, "queued_at_exit.pkts");
	assert_int_equal(rx, fwd + drop + ctrl + queued);
	assert_true(fwd > 10000);
	assert_true(tl_json_int(j, "control.flooded") >= 1); /* host 2's ARP request */
	assert_int_equal(tl_json_int(j, "rx_checksum_partial"), 0);
	/* the blast into the stopped switch overflowed port 0's ring (so may the overload before
	 * it, whose two senders outrun the switch's loop); the total is the ports' sum */
	json_t *ports = json_object_get(j, "ports");
	long long ring = 0;
	for (size_t i = 0; i < json_array_size(ports); i++)
		ring += json_integer_value(json_object_get(json_array_get(ports, i), "rx_ring_dropped"));
	assert_int_equal(tl_json_int(j, "rx_ring_dropped"), ring);
	assert_true(json_integer_value(json_object_get(json_array_get(ports, 0), "rx_ring_dropped")) > 1000);
	assert_string_equal(json_string_value(tl_json_get(j, "scheme")), scheme);
	char *queues = tl_slurp_in(dir, "queues.csv");
	size_t lines = 0;
	for (const char *c = queues; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 1 + 3 * 8);
	free(queues);
	*occ = tl_slurp_in(dir, "occupancy.csv");
	static const char header[] = "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n"; /* docs/outputs.md §4 */
	assert_true(!strncmp(*occ, header, strlen(header)));
	assert_non_null(strstr(*occ, ",leaf0,")); /* 10 ms samples over a few seconds */
	tl_rmtree(tmp);
	free(tmp);
	return j;
}

static void test_veth(void **state)
{
	(void)state;
	char *occ;
	json_t *j = veth_run("dt", &occ);
	if (!j)
		skip();
	assert_true(tl_json_int(j, "dropped.by_cause.threshold") > 1000); /* the overload, refused by DT */
	json_decref(j);
	/* DT on real packets: during the overload one queue holds αB/(1+α) = 75,000 bytes of the
	 * 150,000-byte buffer (α = 1, Choudhury & Hahne's steady state), within one frame; the
	 * sample is of the whole buffer, where a frame of another port (the end of the TCP test)
	 * may be passing: one frame more above */
	unsigned long long most = 0;
	for (const char *line = strchr(occ, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		unsigned long long lossy = 0;
		if (sscanf(line + 1, "%*[^,],%*[^,],%llu", &lossy) == 1 && lossy > most)
			most = lossy;
	}
	print_message("largest sampled occupancy: %llu bytes (DT steady state 75000)\n", most);
	assert_true(most + 1514 >= 75000 && most <= 75000 + 2 * 1514);
	free(occ);
}

/* Occamy on real packets: the overloaded queue sits at DT's threshold (α = 8), every admission
 * there leaves it over-allocated, and the grants fired by the switch's real-time timers drop
 * heads. Its token bucket refills from the switch's clock, which the MMU reads when it is
 * built: a clock started only after that (as it once was) left the bucket empty for the
 * whole run, and the testbed's Occamy never expelled a packet. */
static void test_veth_occamy(void **state)
{
	(void)state;
	char *occ;
	json_t *j = veth_run("occamy", &occ);
	if (!j)
		skip();
	long long expelled = tl_json_int(j, "dropped.by_cause.expelled");
	print_message("occamy: %lld packets expelled\n", expelled);
	assert_true(expelled > 100);
	json_decref(j);
	free(occ);
}

#define PRECIOUS "precious: a file the switch must never touch\n"
#define OLD_MTIME 1000000000

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

static void expect_untouched(const char *path)
{
	char *text = tl_slurp(path);
	struct stat st;
	assert_non_null(text);
	assert_string_equal(text, PRECIOUS);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mtim.tv_sec, OLD_MTIME);
	free(text);
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
	char *target = tl_write_file(tmp, "target", PRECIOUS);
	struct timespec t[2] = { { OLD_MTIME, 0 }, { OLD_MTIME, 0 } };
	assert_int_equal(utimensat(AT_FDCWD, target, t, 0), 0);
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
	expect_untouched(target);
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
	expect_untouched(target);
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
	snprintf(build_dir, sizeof(build_dir), "%s", dirname(prog));
	snprintf(switch_path, sizeof(switch_path), "%s/sharebuf-switch", build_dir);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_veth),
		cmocka_unit_test(test_veth_occamy),
		cmocka_unit_test(test_planted_links),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
