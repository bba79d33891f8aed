/*
 * test_host_nic.c — where a host NIC keeps the control packets its host sends
 * (host.control_queue, docs/scenario-keys.md): ahead of the data queues (priority) or in the
 * FIFO of their priority behind the data queued before them (fifo, ns-3's QbbNetDevice).
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
#include "sim/sim.h"
#include "testlib.h"
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
	struct sb_flow *bulk = sb_flow_create(&sim, 0, 1, 4000000, 0, newreno);
	struct sb_flow *small = sb_flow_create(&sim, 1, 0, 20000, 50 * SB_US, newreno);
	tl_run_and_check(&sim);
	assert_true(bulk->completed && small->completed);
	sb_time fct = small->finish - small->start;
	print_message("control_queue = %-8s: the short flow's FCT %.2f us (ideal %.2f us)\n", control_queue,
		      sb_time_to_us(fct), sb_time_to_us(sb_transport_ideal_fct(&sim, newreno, 1, 0, 20000)));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nic_acks_wait_behind_data_with_fifo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
