/*
 * test_dataplane_outputs.c — the software switch's output files (src/dataplane/dpreport.c,
 * docs/testbed.md §"The switch's outputs"), written into a claimed directory as the
 * simulator's run directory is (docs/outputs.md §1): no sockets, no root.
 *
 *   test_links_not_followed  links planted under summary.json, queues.csv and occupancy.csv:
 *                            the three files replace the links and the targets keep their
 *                            content and mtime (the switch once wrote through them);
 *   test_full_disk           a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored: EFBIG, as a full
 *                            disk gives ENOSPC) that summary.json does not fit under: the
 *                            message names DIR/summary.json with the errno text, and DIR keeps
 *                            the previous three files byte for byte, with no temporary beside
 *                            them (the switch once left a 0-byte or partial file).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dataplane/dpreport.h"
#include "dataplane/dpswitch.h"
#include "core/outdir.h"
#include "scenario/scenario.h"
#include "testlib.h"

#define ROW "1000.000,leaf0,0,0,0.000000,0\n"

static const char *const names[] = { "summary.json", "queues.csv", "occupancy.csv", NULL };

static sb_time zero_clock(void *ctx)
{
	(void)ctx;
	return 0;
}

/* A two-port switch that forwarded nothing, and the report's inputs. */
struct fixture {
	struct sb_dp_switch sw;
	struct sb_scenario sc;
	uint64_t ring_drops[2];
	const char *ifnames[2];
	struct sb_dp_report_info info;
};

static void fixture_init(struct fixture *x)
{
	static const uint8_t macs[2][6] = { { 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 } };
	tl_scenario_net(&x->sc, "topology: { type = \"single\"; hosts = 2; };\n", NULL, 0);
	struct sb_error err = { "" };
	if (sb_dp_switch_init(&x->sw, &x->sc, 2, macs, zero_clock, NULL, &err))
		fail_msg("init: %s", err.msg);
	x->ifnames[0] = "sbt0";
	x->ifnames[1] = "sbt1";
	x->ring_drops[0] = x->ring_drops[1] = 0;
	FILE *rows = tmpfile();
	assert_non_null(rows);
	fputs(ROW, rows);
	x->info = (struct sb_dp_report_info){ .scenario = "test.cfg", .ifnames = x->ifnames, .run_length = SB_MS,
					      .rx_ring_drops = x->ring_drops, .occupancy_rows = rows };
}

static void fixture_free(struct fixture *x)
{
	fclose(x->info.occupancy_rows);
	sb_dp_switch_fini(&x->sw);
	sb_scenario_free(&x->sc);
}

static void claim(const char *out)
{
	struct sb_error err = { "" };
	if (sb_outdir_claim(out, names, &err))
		fail_msg("claim: %s", err.msg);
}

static void test_links_not_followed(void **state)
{
	(void)state;
	struct fixture x;
	fixture_init(&x);
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), *target[3];
	assert_int_equal(mkdir(out, 0777), 0);
	for (int i = 0; i < 3; i++) {
		char name[32], *link = tl_path_in(out, names[i]);
		snprintf(name, sizeof(name), "target%d", i);
		target[i] = tl_precious_file(dir, name);
		assert_int_equal(symlink(target[i], link), 0);
		free(link);
	}
	claim(out);
	struct sb_error err = { "" };
	assert_int_equal(sb_dp_report_write(&x.sw, &x.info, out, &err), 0);
	sb_outdir_release(false);
	for (int i = 0; i < 3; i++) {
		char *p = tl_path_in(out, names[i]);
		struct stat st;
		tl_expect_untouched(target[i]);
		assert_int_equal(lstat(p, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		free(p);
		free(target[i]);
	}
	/* occupancy.csv: the simulator's header (docs/outputs.md §4), then the streamed rows */
	char *occ = tl_slurp_in(out, "occupancy.csv");
	assert_string_equal(occ, "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n" ROW);
	free(occ);
	assert_int_equal(tl_count_entries(out), 3); /* the three, no lock, no temporary */
	free(out);
	tl_rmtree(dir);
	free(dir);
	fixture_free(&x);
}

/* In a child, with the file size limited to `limit`: sb_dp_report_write's status, its message
 * through a pipe. */
static int write_limited(struct fixture *x, const char *out, rlim_t limit, char *msg, size_t n)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { limit, limit };
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(126);
		struct sb_error err = { "" };
		int rc = sb_dp_report_write(&x->sw, &x->info, out, &err);
		ssize_t w = write(p[1], err.msg, strlen(err.msg));
		(void)w;
		_exit(rc ? 1 : 0);
	}
	close(p[1]);
	size_t len = 0;
	for (ssize_t r; len + 1 < n && (r = read(p[0], msg + len, n - len - 1)) > 0;)
		len += (size_t)r;
	msg[len] = 0;
	close(p[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void test_full_disk(void **state)
{
	(void)state;
	struct fixture x;
	fixture_init(&x);
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out");
	claim(out);
	struct sb_error err = { "" };
	assert_int_equal(sb_dp_report_write(&x.sw, &x.info, out, &err), 0);
	char *before[3];
	for (int i = 0; i < 3; i++)
		before[i] = tl_slurp_in(out, names[i]);
	/* summary.json is about 1.5 kB, queues.csv and occupancy.csv under 1 kB each */
	assert_true(strlen(before[0]) > 1024 && strlen(before[1]) < 1024 && strlen(before[2]) < 1024);
	char msg[1024], want[8400];
	assert_int_equal(write_limited(&x, out, 1024, msg, sizeof(msg)), 1);
	print_message("limited to 1024 bytes: %s\n", msg);
	snprintf(want, sizeof(want), "cannot write %s/summary.json: %s", out, strerror(EFBIG));
	assert_string_equal(msg, want);
	sb_outdir_release(false);
	assert_int_equal(tl_count_entries(out), 3); /* no temporary beside the earlier files */
	for (int i = 0; i < 3; i++) {
		char *now = tl_slurp_in(out, names[i]);
		assert_string_equal(now, before[i]);
		free(now);
		free(before[i]);
	}
	free(out);
	tl_rmtree(dir);
	free(dir);
	fixture_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links_not_followed),
		cmocka_unit_test(test_full_disk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
