/*
 * test_cli_pfc.c — the PFC outputs of a lossless `sharebuf run`, read as a user would read
 * them (docs/outputs.md §1, docs/pfc.md §3): pfc.csv, pfc_paused.csv and summary.json's `pfc`
 * block, each checked against its documented meaning and against the others.
 *
 * The run: a leaf-spine of 2 leaves × 4 hosts and one spine, 10 Gb/s everywhere, 2 µs links;
 * six senders (four behind the other leaf) each send 200 KB of lossless CBR to h0 at line
 * rate. Pauses then happen at both leaves and the spine, and spread back to the hosts. A
 * second run uses DSH with N_q = 1 so that port-level frames appear as well.
 *
 * What a sender and a receiver of PFC see differ only by the frame's trip: a PAUSE or RESUME
 * takes effect one link later, after waiting at most for one data frame already being
 * serialised and one PFC frame queued before it. Both ends of an episode are delayed by the
 * same propagation, so an episode measured at the paused side (pfc_paused.csv) differs from
 * the same episode measured from the frames' send times (pfc.csv) by at most
 * (1048 + 64) B at 10 Gb/s = 0.8896 µs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testlib.h"

#define EPISODE_SLACK_US ((1048.0 + 64.0) * 8 / 10e9 * 1e6) /* see above */
#define ROUND_US 0.0005                                      /* paused_us has three decimals */

static const char *const scenario =
	"run: { duration_ms = 5.0; sample_interval_us = 0.0; };\n"
	"topology: { type = \"leafspine\"; leaves = 2; spines = 1; hosts_per_leaf = 4; host_rate_gbps = 10.0;\n"
	"            fabric_rate_gbps = 10.0; };\n"
	"switch: { scheme = \"sonic\"; };\n"
	"workloads = ({ type = \"cbr\"; srcs = [1, 2, 4, 5, 6, 7]; dst = 0; prio = 3; class = \"lossless\";\n"
	"               rate_gbps = 10.0; size_bytes = 200000; });\n";
#define LOSSLESS_MASK (1u << 3)

/* --- summary.json --- */

/* --- pfc.csv, replayed per (switch, port) --- */

/* The frames a switch sent out of one port, and the pause state they imply at the peer: the
 * per-priority mask and the port-level flag, the lossless priorities paused by either (the
 * "effective" state whose episodes pfc_paused.csv counts). */
struct link_log {
	char sw[32], peer[32];
	unsigned port;
	uint8_t prio_paused;
	bool port_paused;
	unsigned pauses[8], resumes[8], port_pauses, port_resumes;
	unsigned episodes;        /* of priority 3, the run's lossless priority */
	double since_ns, paused_ns, longest_ns;
};

struct pfc_log {
	struct link_log *links;
	size_t n;
	unsigned rows[4]; /* pause, resume, port_pause, port_resume */
};

static struct link_log *link_of(struct pfc_log *log, const char *sw, unsigned port, const char *peer)
{
	for (size_t i = 0; i < log->n; i++)
		if (!strcmp(log->links[i].sw, sw) && log->links[i].port == port) {
			assert_string_equal(log->links[i].peer, peer); /* a port has one peer */
			return &log->links[i];
		}
	log->links = realloc(log->links, (log->n + 1) * sizeof(*log->links));
	struct link_log *l = &log->links[log->n++];
	*l = (struct link_log){ .port = port };
	snprintf(l->sw, sizeof(l->sw), "%s", sw);
	snprintf(l->peer, sizeof(l->peer), "%s", peer);
	return l;
}

static bool lossless_paused(const struct link_log *l)
{
	return (l->prio_paused & LOSSLESS_MASK) || l->port_paused; /* a port-level pause stops them all */
}

/* Read pfc.csv: its header, every row's format and order, and per (switch, port, prio) PAUSE
 * and RESUME alternating, starting with PAUSE (the same for port-level frames). */
static void read_pfc_csv(const char *out, struct pfc_log *log)
{
	static const char *const events[4] = { "pause", "resume", "port_pause", "port_resume" };
	char *text = tl_slurp_in(out, "pfc.csv");
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	assert_non_null(line);
	assert_string_equal(line, "time_ns,switch,port,peer,prio,event");
	double last = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		double t;
		unsigned port;
		char sw[32], peer[32], prio[8], event[16];
		if (sscanf(line, "%lf,%31[^,],%u,%31[^,],%7[^,],%15s", &t, sw, &port, peer, prio, event) != 6)
			fail_msg("pfc.csv: bad row \"%s\"", line);
		const char *dot = strchr(line, '.');
		assert_true(dot && dot[4] == ','); /* nanoseconds with three decimals */
		assert_true(t >= last);            /* in time order */
		last = t;
		int e = 0;
		while (e < 4 && strcmp(event, events[e]))
			e++;
		if (e == 4)
			fail_msg("pfc.csv: unknown event \"%s\"", event);
		log->rows[e]++;
		struct link_log *l = link_of(log, sw, port, peer);
		bool was = lossless_paused(l);
		if (e >= 2) {
			assert_string_equal(prio, "all");
			if (l->port_paused == (e == 2))
				fail_msg("pfc.csv: %s port %u: %s while the port is already %s", sw, port, event,
					 l->port_paused ? "paused" : "running");
			l->port_paused = e == 2;
			e == 2 ? l->port_pauses++ : l->port_resumes++;
		} else {
			unsigned p = (unsigned)atoi(prio);
			assert_true(p < 8 && strspn(prio, "0123456789") == strlen(prio));
			uint8_t bit = (uint8_t)(1u << p);
			if (!!(l->prio_paused & bit) == (e == 0))
				fail_msg("pfc.csv: %s port %u prio %u: %s twice in a row", sw, port, p, event);
			l->prio_paused = (uint8_t)(e == 0 ? l->prio_paused | bit : l->prio_paused & ~bit);
			e == 0 ? l->pauses[p]++ : l->resumes[p]++;
		}
		bool is = lossless_paused(l);
		if (is && !was) {
			l->episodes++;
			l->since_ns = t;
		} else if (was && !is) {
			l->paused_ns += t - l->since_ns;
			l->longest_ns = fmax(l->longest_ns, t - l->since_ns);
		}
	}
	free(text);
}

/* --- pfc_paused.csv --- */

struct paused_row {
	char node[32], peer[32];
	unsigned port, prio, episodes;
	double us;
};

static size_t read_paused_csv(const char *out, struct paused_row *rows, size_t cap)
{
	char *text = tl_slurp_in(out, "pfc_paused.csv");
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	assert_non_null(line);
	assert_string_equal(line, "node,port,peer,prio,episodes,paused_us");
	size_t n = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		assert_true(n < cap);
		struct paused_row *r = &rows[n++];
		if (sscanf(line, "%31[^,],%u,%31[^,],%u,%u,%lf", r->node, &r->port, r->peer, &r->prio, &r->episodes,
			   &r->us) != 6)
			fail_msg("pfc_paused.csv: bad row \"%s\"", line);
		assert_true(r->episodes > 0 && r->us > 0);
	}
	free(text);
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* --- the checks --- */

static void check_outputs(const char *out, const char *what)
{
	struct pfc_log log = { 0 };
	read_pfc_csv(out, &log);
	struct paused_row rows[64];
	size_t n = read_paused_csv(out, rows, 64);
	char *js = tl_slurp_in(out, "summary.json");
	json_error_t jerr;
	json_t *root = json_loads(js, 0, &jerr);
	if (!root)
		fail_msg("summary.json: %s", jerr.text);
	free(js);

	/* pfc.csv rows = the frame counts (one priority per frame in these schemes) */
	print_message("%s: pfc.csv %u pause, %u resume, %u port_pause, %u port_resume rows; summary.json %lld, %lld, "
		      "%lld, %lld frames\n",
		      what, log.rows[0], log.rows[1], log.rows[2], log.rows[3], tl_json_int(root, "pfc.pause_frames"),
		      tl_json_int(root, "pfc.resume_frames"), tl_json_int(root, "pfc.port_pause_frames"),
		      tl_json_int(root, "pfc.port_resume_frames"));
	assert_true(log.rows[0] > 0);
	assert_int_equal(log.rows[0], tl_json_int(root, "pfc.pause_frames"));
	assert_int_equal(log.rows[1], tl_json_int(root, "pfc.resume_frames"));
	assert_int_equal(log.rows[2], tl_json_int(root, "pfc.port_pause_frames"));
	assert_int_equal(log.rows[3], tl_json_int(root, "pfc.port_resume_frames"));
	/* the traffic is finite: every pause ended with a resume */
	for (size_t i = 0; i < log.n; i++) {
		const struct link_log *l = &log.links[i];
		assert_false(l->prio_paused || l->port_paused);
		assert_int_equal(l->port_pauses, l->port_resumes);
		for (int p = 0; p < 8; p++)
			assert_int_equal(l->pauses[p], l->resumes[p]);
	}

	/* pfc_paused.csv against summary.json */
	double sum = 0, longest_queue = 0, totals[64];
	long long episodes = 0;
	for (size_t i = 0; i < n; i++) {
		sum += rows[i].us;
		episodes += rows[i].episodes;
		totals[i] = rows[i].us;
	}
	qsort(totals, n, sizeof(double), cmp_double);
	longest_queue = totals[n - 1];
	double p99 = totals[(size_t)ceil(0.99 * (double)n) - 1]; /* nearest rank */
	double total = tl_json_num(root, "pfc.paused_time_us.total"), q99 = tl_json_num(root, "pfc.paused_time_us.per_queue_p99"),
	       qmax = tl_json_num(root, "pfc.paused_time_us.per_queue_max"), e99 = tl_json_num(root, "pfc.paused_time_us.episode_p99"),
	       emax = tl_json_num(root, "pfc.paused_time_us.episode_max");
	print_message("%s: %zu paused queues (summary %lld), %lld episodes (summary %lld); paused time: rows sum "
		      "%.3f us, total %.4f; per queue p99 %.3f / max %.3f (rows: %.3f / %.3f); episode p99 %.3f, "
		      "max %.3f\n",
		      what, n, tl_json_int(root, "pfc.paused_queues"), episodes, tl_json_int(root, "pfc.pause_episodes"), sum,
		      total, q99, qmax, p99, longest_queue, e99, emax);
	assert_int_equal(n, tl_json_int(root, "pfc.paused_queues"));
	assert_int_equal(episodes, tl_json_int(root, "pfc.pause_episodes"));
	assert_true(fabs(sum - total) <= (double)n * ROUND_US + 1e-6);
	assert_true(fabs(longest_queue - qmax) <= ROUND_US);
	assert_true(fabs(p99 - q99) <= ROUND_US);
	/* the statistics' own order: an episode is part of its queue's total, a queue's part of
	 * the run's, and a queue's longest episode is at least its mean episode */
	assert_true(e99 <= emax && emax <= qmax && q99 <= qmax && qmax <= total);
	for (size_t i = 0; i < n; i++)
		assert_true(emax >= rows[i].us / rows[i].episodes - ROUND_US);

	/* each paused queue against the frames its peer sent: same episodes, same paused time
	 * within the trip's slack per episode */
	double longest_sent = 0;
	for (size_t i = 0; i < n; i++) {
		const struct paused_row *r = &rows[i];
		const struct link_log *l = NULL;
		for (size_t k = 0; k < log.n && !l; k++)
			if (!strcmp(log.links[k].sw, r->peer) && !strcmp(log.links[k].peer, r->node))
				l = &log.links[k];
		assert_non_null(l);
		assert_int_equal(r->prio, 3);
		double sent_us = l->paused_ns / 1000;
		longest_sent = fmax(longest_sent, l->longest_ns / 1000);
		if (r->episodes != l->episodes || fabs(r->us - sent_us) > r->episodes * EPISODE_SLACK_US + ROUND_US)
			fail_msg("%s port %u: %u episodes, %.3f us paused; %s's frames say %u episodes, %.3f us "
				 "(slack %.3f us)",
				 r->node, r->port, r->episodes, r->us, r->peer, l->episodes, sent_us,
				 r->episodes * EPISODE_SLACK_US);
	}
	print_message("%s: longest episode from the frames %.3f us, at the paused side %.3f us (slack %.4f)\n", what,
		      longest_sent, emax, EPISODE_SLACK_US);
	assert_true(fabs(longest_sent - emax) <= EPISODE_SLACK_US + ROUND_US);
	json_decref(root);
	free(log.links);
}

static void run_and_check(const char *sets, bool port_level, const char *what)
{
	char *dir = tl_tmpdir(), args[4096];
	char *cfg = tl_write_file(dir, "incast.cfg", scenario), *out = tl_path_in(dir, "out");
	snprintf(args, sizeof(args), "run '%s' --quiet --out '%s' %s", cfg, out, sets);
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("sharebuf %s: exit %d: %s", args, r.status, r.err);
	tl_cmd_free(&r);
	/* a lossless run writes the PFC files (pfc.log and the deadlock detector are on by default) */
	char *p = tl_path_in(out, "deadlocks.csv");
	assert_true(tl_exists(p));
	free(p);
	check_outputs(out, what);
	char *js = tl_slurp_in(out, "summary.json");
	assert_true((strstr(js, "\"port_pause_frames\": 0,") == NULL) == port_level);
	free(js);
	free(cfg);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

static void test_pfc_outputs_sonic(void **state)
{
	(void)state;
	run_and_check("", false, "sonic");
}

/* N_q = 1: X_poff = T, so ports are paused as a whole too ("all" rows) */
static void test_pfc_outputs_dsh_port_level(void **state)
{
	(void)state;
	run_and_check("--set switch.scheme=dsh --set switch.dsh.nq_port_multiplier=1", true, "dsh, N_q = 1");
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pfc_outputs_sonic),
		cmocka_unit_test(test_pfc_outputs_dsh_port_level),
	};
	return cmocka_run_group_tests_name("cli pfc outputs", tests, NULL, NULL);
}
