/*
 * test_veth.c — build/sharebuf-switch on real packets, in real time (make test-realtime; CI's
 * testbed step, as root). Not part of `make test`: what these tests count depends on how the
 * machine schedules the switch, the hosts' stacks and every veth transmit, and the README's
 * test command must pass on a loaded machine every time.
 *
 *   test_veth        as root with network namespaces (else skipped, with the reason):
 *                    tests/dataplane-veth.sh puts the switch between three namespaces; a UDP
 *                    ping (static ARP, then through flooded ARP) and an iperf3 TCP transfer get
 *                    through, an overload of one port makes the MMU drop (counted as threshold
 *                    drops, DT) and holds the congested queue at DT's steady state αB/(1+α)
 *                    within a frame, SIGTERM ends the switch with status 0, and its outputs
 *                    hold: conservation, the queues' rows, the simulator's occupancy.csv header;
 *   test_veth_occamy the same with Occamy: the overload makes it expel heads (its grants run on
 *                    the switch's real-time timers and token bucket).
 *
 * Bounds on counts (docs/testing.md §1, "Real-time tests"). Each bound separates the model
 * from the defect the test exists for, with the margin a loaded 2-core machine needs. Six runs
 * with six other jobs building on the machine's 2 cores (DT and Occamy, three each) gave:
 * forwarded 22,763-45,352 frames, threshold drops 31,146-101,133, port 0's ring drops
 * 20,307-39,979, Occamy's expelled packets 217-290; the run of issue 24 gave 61-158 expelled.
 *   - forwarded > 10,000 frames: a switch that forwards nothing, or only the pings (70
 *     frames), is the defect; a loaded machine slows the senders, it does not stop them;
 *   - threshold drops and ring drops > 1,000: the overload offers twice the port's rate for a
 *     second, and the stopped switch's ring (512 frames) overflows under 0.2 s of blast; both
 *     counted 20 times the bound in every run;
 *   - Occamy's expelled packets >= 1 (was > 100, which failed 2 runs in 4 on a loaded
 *     machine): the defect this guards against (a clock read before it was started) expelled
 *     exactly 0 in every run. How many grants fire depends on how often the scheduler runs the
 *     switch's timers while the queue sits over its allocation, not on the model; any positive
 *     count shows that they fire.
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
#include "../testlib.h"

static char build_dir[4096];

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
	print_message("%s: %lld received, %lld forwarded, %lld dropped (%lld by threshold)\n", scheme, rx, fwd, drop,
		      tl_json_int(j, "dropped.by_cause.threshold"));
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
	print_message("%s: port 0's receive ring dropped %lld frames\n", scheme,
		      (long long)json_integer_value(json_object_get(json_array_get(ports, 0), "rx_ring_dropped")));
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
	assert_true(expelled >= 1);
	json_decref(j);
	free(occ);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	char prog[4096];
	snprintf(prog, sizeof(prog), "%s", tl_sharebuf_path());
	snprintf(build_dir, sizeof(build_dir), "%s", dirname(prog));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_veth),
		cmocka_unit_test(test_veth_occamy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
