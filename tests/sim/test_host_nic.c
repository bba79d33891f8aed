/*
 * test_host_nic.c — a host NIC: where it keeps the control packets its host sends
 * (host.control_queue, docs/scenario-keys.md): ahead of the data queues (priority) or in the
 * FIFO of their priority behind the data queued before them (fifo, ns-3's QbbNetDevice); and
 * the rate it sends at (host.nic_rate_gbps), below; and the warning that a NIC without a limit
 * (host.nic_buffer_bytes = 0) is piling up a flow's packets, at the end.
 *
 * Host 0 sends a long TCP flow to host 1 with a window far beyond the path's BDP, so its NIC
 * always holds a backlog; host 1 sends a short flow back. Host 0's ACKs for the short flow
 * leave at once with `priority` and wait behind host 0's backlog with `fifo`: the short flow's
 * FCT grows by about that backlog's serialisation time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "testlib.h"
#include "transport/cbr.h"
#include "transport/transport.h"

static sb_time short_flow_fct(const char *control_queue)
{
	char set[64];
	snprintf(set, sizeof(set), "host.control_queue=%s", control_queue);
	const char *sets[] = { set };
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "run: { duration_ms = 5.0; sample_interval_us = 0.0; };\n"
		    "topology: { type = \"single\"; hosts = 2; host_rate_gbps = 10.0; host_delay_us = 1.0; };\n"
		    "switch: { scheme = \"cs\"; buffer_bytes = 64000000; ecn_mode = \"off\"; };\n"
		    "tcp: { init_cwnd_pkts = 200; sack = true; };\n"
		    "workloads = ();\n",
		    sets, 1);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	const struct sb_transport_ops *newreno = sb_transport_find("newreno");
	struct sb_flow *bulk = sb_flow_create(&sim.flows, 0, 1, 4000000, 0, newreno);
	struct sb_flow *small = sb_flow_create(&sim.flows, 1, 0, 20000, 50 * SB_US, newreno);
	tl_run_and_check(&sim);
	assert_true(bulk->completed && small->completed);
	sb_time fct = small->finish - small->start;
	print_message("control_queue = %-8s: the short flow's FCT %.2f us (ideal %.2f us)\n", control_queue,
		      sb_time_to_us(fct), sb_time_to_us(sb_transport_ideal_fct(&sim.flows, newreno, 1, 0, 20000)));
	tl_check_and_free(&sim, &sc);
	return fct;
}

static void test_nic_acks_wait_behind_data_with_fifo(void **state)
{
	(void)state;
	sb_time prio = short_flow_fct("priority"), fifo = short_flow_fct("fifo");
	/* the bulk flow keeps well over 100 KB queued at host 0's NIC: 80 us at 10 Gb/s */
	assert_true(fifo > prio + 80 * SB_US);
}

/* host.nic_rate_gbps: a host whose NIC is faster than the switch's port toward the receiver
 * brings its burst into the switch's buffer. 40 frames of 1,500 bytes leave host 0 back to
 * back at the NIC's rate; the port toward host 1 drains at 1 Gb/s. At 10 Gb/s the buffer
 * holds the burst less what the port sent while it arrived: 40 frames less one tenth, 36 of
 * them, within a frame; at the link's own rate it never holds more than the one frame in
 * transit. */
static uint64_t burst_peak(double nic_gbps, uint64_t *nic_bps, uint64_t *egress_bps)
{
	char set[64];
	snprintf(set, sizeof(set), "host.nic_rate_gbps=%g", nic_gbps);
	const char *sets[] = { set };
	struct sb_scenario sc;
	tl_scenario(&sc,
		    "run: { duration_ms = 2.0; sample_interval_us = 0.0; };\n"
		    "topology: { type = \"single\"; hosts = 2; host_rate_gbps = 1.0; host_delay_us = 1.0; };\n"
		    "switch: { scheme = \"cs\"; buffer_bytes = 64000000; ecn_mode = \"off\"; };\n"
		    "workloads = ();\n",
		    sets, 1);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	*nic_bps = sim.net.host_nics[0].rate_bps;
	const struct sb_port *down = sim.net.host_nics[1].peer; /* the switch's port toward host 1 */
	*egress_bps = down->rate_bps;
	uint64_t payload = 1500 - (uint64_t)sc.tcp.header_bytes;
	struct sb_flow *f = sb_flow_create(&sim.flows, 0, 1, 40 * payload, 10 * SB_US, sb_transport_find("cbr"));
	sb_cbr_configure(f, *nic_bps, 1500); /* back to back at the NIC's rate */
	tl_run_and_check(&sim);
	assert_true(f->completed);
	uint64_t peak = sim.net.switches[0]->only_mmu->peak_used;
	print_message("NIC at %g Gb/s (0 = the link's): the switch's buffer peaks at %llu bytes\n", nic_gbps,
		      (unsigned long long)peak);
	tl_check_and_free(&sim, &sc);
	return peak;
}

static void test_nic_faster_than_the_port_fills_the_buffer(void **state)
{
	(void)state;
	uint64_t nic, egress;
	uint64_t same = burst_peak(0, &nic, &egress);
	assert_int_equal(nic, 1000000000ull);
	assert_int_equal(egress, 1000000000ull);
	assert_true(same <= 1500);
	uint64_t fast = burst_peak(10, &nic, &egress);
	assert_int_equal(nic, 10000000000ull);
	assert_int_equal(egress, 1000000000ull); /* only the host's direction changes */
	assert_true(fast >= 35 * 1500 && fast <= 37 * 1500);
}

/* host.nic_buffer_bytes = 0 (no limit, the default): a NIC queue past SB_NIC_WARN_BYTES is
 * reported once per run on stderr, naming the host, the flow and the key (sim/sim.h).
 *
 * A lone DCTCP flow between two hosts of one switch: the switch's port toward the receiver runs
 * at the sender's own rate, so it never queues more than the packet in transit and never marks
 * (RFC 8257 §3.1: a mark only above K), and nothing is lost; DCTCP cuts its window only on
 * marks or loss (§3.3), so slow start doubles it every RTT (RFC 5681 §3.1) and everything
 * beyond the path's BDP (25 Gb/s x ~4 us, about 12 KB) waits in the sender's NIC: well past 4 MiB
 * within 5 ms. Two such senders to one receiver share the switch's port: it queues, marks, and
 * their windows, hence their NICs, stay near BDP + K. */
static const char nic_lone_flow[] =
	"run: { duration_ms = 5.0; sample_interval_us = 0.0; };\n"
	"topology: { type = \"single\"; hosts = 3; host_rate_gbps = 25.0; host_delay_us = 1.0; };\n"
	"switch: { scheme = \"dt\"; buffer_bytes = 1000000; };\n"
	"workloads = ( { type = \"longlived\"; transport = \"dctcp\"; srcs = [0]; dst = 1; } );\n";

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

/* Runs the scenario with the --set options and returns the program's stderr. */
static char *nic_run_err(const char *dir, const char *cfg, const char *sets)
{
	char *path = tl_write_file(dir, "nic.cfg", cfg), args[4096];
	snprintf(args, sizeof(args), "run '%s' %s --out '%s/out' --quiet", path, sets, dir);
	struct tl_cmd r = tl_sharebuf(args);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	char *err = r.err;
	r.err = NULL;
	tl_cmd_free(&r);
	free(path);
	return err;
}

static void test_nic_unbounded_queue_warns_once(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *err = nic_run_err(dir, nic_lone_flow, "");
	print_message("%s", err);
	assert_int_equal(count_of(err, "sharebuf: warning:"), 1);
	assert_int_equal(count_of(err, "host.nic_buffer_bytes"), 2); /* the cause and the cure */
	assert_non_null(strstr(err, "host 0's NIC"));
	assert_non_null(strstr(err, "(flow 0, host 0 -> 1)"));
	free(err);

	/* A limit the user chose, even above the threshold: the NIC drops beyond it, no warning. */
	err = nic_run_err(dir, nic_lone_flow, "--set host.nic_buffer_bytes=8000000");
	assert_string_equal(err, "");
	free(err);
	tl_rmtree(dir);
	free(dir);
}

static void test_nic_congested_switch_port_no_warning(void **state)
{
	(void)state;
	char *dir = tl_tmpdir();
	char *err = nic_run_err(dir, nic_lone_flow, "--set 'workloads.0.srcs=[0, 2]'");
	assert_string_equal(err, "");
	free(err);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nic_acks_wait_behind_data_with_fifo),
		cmocka_unit_test(test_nic_faster_than_the_port_fills_the_buffer),
		cmocka_unit_test(test_nic_unbounded_queue_warns_once),
		cmocka_unit_test(test_nic_congested_switch_port_no_warning),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
