/*
 * test_incast_groups.c — the incast options that express DSH's Fig. 12 fan-in groups
 * (DSH §V-A; the set-up in experiments/dsh/README.md, "Fig. 12"): chosen `receivers` that never
 * respond, `responders = "mirror_rack"`, a fan-in drawn from fanin_min..fanin, response sizes
 * from a CDF, and `sync` (one Poisson process, every receiver querying at each event). Plus the messages for bad combinations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/cfgfile.h"
#include "scenario/scenario.h"
#include "sim/sim.h"
#include "testlib.h"
#include "workload/cdf.h"

/* 4 leaves × 8 hosts; host 0 of every leaf queries 1..7 hosts of the mirrored leaf. */
#define GROUPS(extra)                                                                               \
	"run: { duration_ms = 40.0; arrivals_ms = 40.0; sample_interval_us = 0.0; };\n"             \
	"topology: { leaves = 4; hosts_per_leaf = 8; spines = 2; };\n"                            \
	"tcp: { mss = 60000; };\n"                                                                  \
	"workloads = ({ type = \"incast\"; receivers = [0, 8, 16, 24]; responders = \"mirror_rack\";\n" \
	"  fanin_min = 1; fanin = 7; cdf = \"hadoop_dsh\"; query_rate = 2000.0; " extra " });\n"

struct tally {
	size_t queries, flows, fanin_seen[8];
	double size_sum;
	bool uneven; /* some query's responses differ in size */
};

/* Every flow belongs to a query of a receiver, comes from the mirrored rack, never from a
 * receiver, and the query's bytes are the sum of its responses. */
static void check_groups(struct sb_sim *sim, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	size_t nq = sim->nqueries;
	uint64_t *bytes = calloc(nq, sizeof(*bytes)), *first = calloc(nq, sizeof(*first));
	uint32_t *count = calloc(nq, sizeof(*count));
	for (uint32_t i = 0; i < sim->flows.table.next_id; i++) {
		const struct sb_flow *f = sb_flow_get(&sim->flows, i);
		assert_true(f->query_id >= 0 && (size_t)f->query_id < nq);
		const struct sb_query *q = &sim->queries[f->query_id];
		assert_int_equal(f->dst, q->host);
		assert_int_equal(q->host % 8, 0);                                   /* a receiver */
		assert_int_equal(sim->net.hosts[f->src]->rack, 3 - sim->net.hosts[q->host]->rack); /* mirrored */
		assert_int_not_equal(f->src % 8, 0);                                /* never a receiver */
		if (count[f->query_id] == 0)
			first[f->query_id] = f->size;
		else if (f->size != first[f->query_id])
			t->uneven = true;
		bytes[f->query_id] += f->size;
		count[f->query_id]++;
		t->size_sum += (double)f->size;
		t->flows++;
	}
	for (size_t q = 0; q < nq; q++) {
		assert_int_equal(count[q], sim->queries[q].responses);
		assert_true(count[q] >= 1 && count[q] <= 7);
		assert_int_equal(bytes[q], sim->queries[q].bytes);
		t->fanin_seen[count[q]]++;
	}
	t->queries = nq;
	free(bytes);
	free(first);
	free(count);
}

static void test_fanin_groups_sync(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc, GROUPS("sync = true;"), NULL, 0);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	sb_sim_run(&sim);
	struct tally t;
	check_groups(&sim, &t);
	/* sync: queries come four at a time, at one instant, receivers in host order */
	assert_int_equal(t.queries % 4, 0);
	for (size_t q = 0; q < t.queries; q += 4)
		for (size_t k = 0; k < 4; k++) {
			assert_int_equal(sim.queries[q + k].start, sim.queries[q].start);
			assert_int_equal(sim.queries[q + k].host, 8 * k);
		}
	size_t events = t.queries / 4;
	/* 2000 events/s for 40 ms: 80 expected, Poisson sd 9 */
	print_message("sync: %zu events, %zu flows, mean fan-in %.2f, mean size %.0f B\n", events, t.flows,
		      (double)t.flows / (double)t.queries, t.size_sum / (double)t.flows);
	assert_true(events >= 50 && events <= 110);
	for (int k = 1; k <= 7; k++) /* every fan-in 1..7 occurs (each has p = 1/7 over ~320 queries) */
		assert_true(t.fanin_seen[k] > 0);
	assert_true(fabs((double)t.flows / (double)t.queries - 4.0) < 0.5);
	assert_true(t.uneven); /* sizes drawn per response, not size_bytes / fanin */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* Without sync each receiver has its own process: the queries of different receivers are at
 * different instants, and the count per receiver is about query_rate × duration. */
static void test_fanin_groups_independent(void **state)
{
	(void)state;
	struct sb_scenario sc;
	tl_scenario(&sc, GROUPS("sync = false;"), NULL, 0);
	struct sb_sim sim;
	tl_build(&sim, &sc);
	sb_sim_run(&sim);
	struct tally t;
	check_groups(&sim, &t);
	size_t per[4] = { 0 }, same = 0;
	for (size_t q = 0; q < t.queries; q++) {
		per[sim.queries[q].host / 8]++;
		same += q > 0 && sim.queries[q].start == sim.queries[q - 1].start;
	}
	print_message("independent: %zu %zu %zu %zu queries per receiver\n", per[0], per[1], per[2], per[3]);
	for (int r = 0; r < 4; r++)
		assert_true(per[r] >= 50 && per[r] <= 110);
	assert_int_equal(same, 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* A receiver's queries are drawn from its own stream: with sync, receiver 0's fan-ins and
 * sizes do not change when another receiver is added. */
static void test_sync_streams_are_per_receiver(void **state)
{
	(void)state;
	uint64_t sig[2] = { 0, 0 };
	const char *const recv[2] = { "[0, 24]", "[0, 8, 24]" };
	for (int v = 0; v < 2; v++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "run: { duration_ms = 5.0; sample_interval_us = 0.0; };\n"
			 "topology: { leaves = 4; hosts_per_leaf = 8; spines = 2; };\n"
			 "workloads = ({ type = \"incast\"; receivers = %s; responders = \"mirror_rack\"; sync = true;\n"
			 "  fanin_min = 1; fanin = 7; cdf = \"hadoop_dsh\"; query_rate = 2000.0; });\n",
			 recv[v]);
		struct sb_scenario sc;
		tl_scenario(&sc, text, NULL, 0);
		struct sb_sim sim;
		tl_build(&sim, &sc);
		sb_sim_run(&sim);
		for (uint32_t i = 0; i < sim.flows.table.next_id; i++) {
			const struct sb_flow *f = sb_flow_get(&sim.flows, i);
			if (f->dst == 0)
				sig[v] = sig[v] * 1000003 + f->size * 31 + f->src + (uint64_t)f->start;
		}
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
	}
	assert_true(sig[0] != 0);
	assert_int_equal(sig[0], sig[1]);
}

static void expect_build_error(const char *text, const char *want)
{
	struct sb_scenario sc;
	struct sb_error err = { "" };
	sb_scenario_defaults(&sc);
	int rc = sb_cfg_load(&sc, NULL, text, NULL, 0, &err);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &err);
	if (rc == 0) {
		struct sb_sim sim;
		rc = sb_sim_build(&sim, &sc, &err);
		sb_sim_free(&sim);
	}
	if (rc == 0 || strcmp(err.msg, want) != 0)
		fail_msg("input:\n%s\nwant: %s\ngot (rc %d): %s", text, want, rc, err.msg);
	sb_scenario_free(&sc);
}

static void test_bad_groups(void **state)
{
	(void)state;
	const char *topo = "topology: { leaves = 4; hosts_per_leaf = 8; spines = 2; };\n";
	char text[1024];
	/* the mirrored rack has 8 hosts, one of them a receiver: 7 responders at most */
	snprintf(text, sizeof(text), "%sworkloads = ({ type = \"incast\"; receivers = [0, 8, 16, 24];\n"
		 "  responders = \"mirror_rack\"; fanin = 8; });\n", topo);
	expect_build_error(text, "(default):3: workloads.0.fanin: 8 responders per query, but host 0's queries can draw on only 7 (responders = mirror_rack, receivers excluded)");
	snprintf(text, sizeof(text), "%sworkloads = ({ type = \"incast\"; fanin_min = 5; fanin = 4; });\n", topo);
	expect_build_error(text, "(default):2: workloads.0.fanin_min: 5 is above fanin (4); the fan-in is drawn from fanin_min..fanin");
	snprintf(text, sizeof(text), "%sworkloads = ({ type = \"incast\"; fanin = 4; receivers = [0, 32]; });\n", topo);
	expect_build_error(text, "(default):2: workloads.0.receivers[1]: host 32 does not exist, the topology has 32 hosts (0..31)");
	snprintf(text, sizeof(text), "%sworkloads = ({ type = \"incast\"; fanin = 4; cdf = \"hadoopx\"; });\n", topo);
	struct sb_scenario sc;
	struct sb_error err = { "" };
	tl_scenario(&sc, text, NULL, 0);
	struct sb_sim sim;
	assert_int_equal(sb_sim_build(&sim, &sc, &err), -1);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	assert_non_null(strstr(err.msg, "(default):2: workloads.0.cdf: "));
	/* one rack: mirror_rack needs another, like every rack policy */
	expect_build_error("topology: { leaves = 1; };\nworkloads = ({ type = \"incast\"; fanin = 4; responders = \"mirror_rack\"; });\n",
			   "(default):2: workloads.0.responders: mirror_rack needs another rack, but topology leafspine has 1 leaf (topology.leaves = 1)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fanin_groups_sync),
		cmocka_unit_test(test_fanin_groups_independent),
		cmocka_unit_test(test_sync_streams_are_per_receiver),
		cmocka_unit_test(test_bad_groups),
	};
	return cmocka_run_group_tests_name("incast_groups", tests, NULL, NULL);
}
