/*
 * test_scenario_net.c — a scenario read knowing no workload type (sb_scenario_defaults_net,
 * the software switch's way, docs/testbed.md): the network's sections are read and checked as
 * `sharebuf run` reads them, and the workloads, in the file and in `--set workloads.*`, are
 * left unread, without error, for the load generator to check.
 *
 * Bugs caught: an override of a workload key in such a scenario taken as resolved with no
 * parameter to set (the switch crashed on testbed/ci-check.sh's `--set workloads.1.type=cbr`);
 * the network's own keys skipped along with the workloads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scenario/cfgfile.h"
#include "scenario/scenario.h"
#include <string.h>
#include "testlib.h"

static const char scenario[] =
	"topology: { type = \"single\"; hosts = 4; };\n"
	"switch: { scheme = \"dt\"; buffer_bytes = 300000; };\n"
	"workloads = ( { type = \"longlived\"; srcs = [1]; dst = 0; transport = \"no-such-transport\"; } );\n";

static void test_network_read_workloads_left(void **state)
{
	(void)state;
	const char *sets[] = {
		"workloads.1.type=cbr", "workloads.1.srcs=[2,3]", "workloads.0.dst=9", "switch.buffer_bytes=200000",
	};
	struct sb_scenario sc;
	struct sb_error err = { "" };
	sb_scenario_defaults_net(&sc);
	int rc = sb_cfg_load(&sc, NULL, scenario, sets, 4, &err);
	if (rc)
		fail_msg("%s", err.msg);
	assert_int_equal(sb_scenario_validate_net(&sc, &err), 0);
	assert_int_equal(sc.nworkloads, 0);           /* unread, not half read */
	assert_int_equal(sc.topo.hosts, 4);            /* the network's keys are read */
	assert_int_equal(sc.sw.buffer_bytes, 200000);  /* and overridden */
	sb_scenario_free(&sc);
}

/* The same scenario read knowing every type refuses what the switch leaves to sharebuf-load. */
static void test_full_read_checks_them(void **state)
{
	(void)state;
	struct sb_scenario sc;
	struct sb_error err = { "" };
	sb_scenario_defaults(&sc);
	int rc = sb_cfg_load(&sc, NULL, scenario, NULL, 0, &err);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &err);
	assert_int_not_equal(rc, 0);
	assert_non_null(strstr(err.msg, "no-such-transport"));
	sb_scenario_free(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_network_read_workloads_left),
		cmocka_unit_test(test_full_read_checks_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
