/*
 * test_outdir.c — what `run` and `compare` leave in their output directory when two of them
 * share it, when an earlier run left other files there, and when a signal stops them
 * (docs/outputs.md §1, docs/compare.md §7; src/core/outdir.c), driven as a user would.
 *
 * A run that must still be going when something happens to it is given a simulated time it
 * would take hours to reach (LONG: 100 s, traffic arriving in the first 50 ms only, so that the
 * memory estimate accepts it) and is stopped by the test; the test waits for the run's
 * lock file, which it creates once the scenario is built and just before simulating.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "testlib.h"

#define LONG_SETS "--set", "run.duration_ms=100000", "--set", "run.arrivals_ms=50"
#define SHORT "--set run.duration_ms=2 --set run.arrivals_ms=1"
#define WAIT_S 30.0 /* for a run to start: generous, the sanitized build starts slowly */
#define STOP_S 10.0 /* for a signalled command to end (it takes milliseconds) */

static void write_file(const char *dir, const char *name, const char *text)
{
	free(tl_write_file(dir, name, text));
}

static struct tl_cmd sharebuf_ok(const char *args)
{
	struct tl_cmd r = tl_sharebuf(args);
	if (r.status != 0)
		fail_msg("sharebuf %s: exit %d: %s", args, r.status, r.err);
	return r;
}

/* Process ids whose parent is this test (the orphans of a compare reparented to it: main
 * makes the test a child subreaper). */
static size_t own_children(pid_t *v, size_t cap)
{
	DIR *d = opendir("/proc");
	size_t n = 0;
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[300], buf[1024];
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = 0;
		char *p = strrchr(buf, ')'); /* the command name may hold anything */
		int ppid;
		char state;
		if (p && sscanf(p + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid() && state != 'Z' && n < cap)
			v[n++] = (pid_t)atoi(e->d_name);
	}
	closedir(d);
	return n;
}

/* Kill and reap whatever children are left, and return how many were running. */
static size_t reap_leftovers(void)
{
	pid_t v[64];
	size_t n = own_children(v, 64);
	for (size_t i = 0; i < n; i++)
		kill(v[i], SIGKILL);
	while (waitpid(-1, NULL, WNOHANG) > 0 || (n && waitpid(-1, NULL, 0) > 0))
		;
	return n;
}

/* Wait until a run is simulating into `dir`: the directory exists, then its lock (taken right
 * after creating it). False if the directory never appears. */
static bool wait_running(const char *dir)
{
	char *lock = tl_path_in(dir, ".sharebuf.lock");
	bool ok = tl_wait_for(dir, WAIT_S);
	if (ok)
		tl_wait_for(lock, 2);
	free(lock);
	return ok;
}

/* --- two commands on one directory --- */

/* Entries of DIR other than the temporaries a running `run` streams its flows.csv and
 * occupancy.csv into (DIR/.flows.csv.XXXXXX, DIR/.occupancy.csv.XXXXXX). */
static size_t entries_but_streams(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		fail_msg("cannot open directory %s", dir);
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strncmp(e->d_name, ".flows.csv.", 11) &&
		     strncmp(e->d_name, ".occupancy.csv.", 15);
	closedir(d);
	return n;
}

/* The second run on a directory in use fails at once, names the first one's pid and writes
 * nothing; the first one, stopped by SIGTERM, removes the directory it created. */
static void test_directory_in_use(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), *lock = tl_path_in(out, ".sharebuf.lock");
	char *aerr = tl_path_in(dir, "a.err"), args[8192];
	const char *const argv[] = { "run", "--quiet", "--out", out, LONG_SETS, NULL };
	pid_t a = tl_sharebuf_start(argv, NULL, aerr);
	bool locked = tl_wait_for(lock, WAIT_S);
	snprintf(args, sizeof(args), "run --quiet " SHORT " --out '%s'", out);
	struct tl_cmd r = tl_sharebuf(args);
	/* the first run's own temporaries aside: it streams two files while it runs */
	size_t entries = tl_exists(out) ? entries_but_streams(out) : 0;
	kill(a, SIGTERM);
	int st = tl_wait_pid(a, STOP_S);

	print_message("second run: exit %d: %s", r.status, r.err);
	char want[8400];
	snprintf(want, sizeof(want), "sharebuf: --out: %s is in use by another sharebuf run (pid %d)\n", out, (int)a);
	assert_int_equal(r.status, 1);
	assert_true(locked);
	assert_string_equal(r.err, want);
	assert_string_equal(r.out, "");
	assert_int_equal(entries, 1); /* the first run's lock: the second wrote nothing */
	tl_cmd_free(&r);
	/* the first run ends by the signal, and takes away the directory it had created */
	assert_true(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	assert_false(tl_exists(out));
	char *e = tl_slurp(aerr);
	assert_non_null(e);
	assert_string_equal(e, "sharebuf: stopped by SIGTERM\n");
	free(e);
	free(aerr);
	free(lock);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* --- what an earlier run left --- */

/* A run owns its output names in DIR: the PFC and throughput files of an earlier lossless run
 * are removed by a lossy run that does not write them; other files stay. */
static void test_stale_outputs_removed(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), args[8192];
	assert_int_equal(mkdir(out, 0777), 0);
	write_file(out, "notes.txt", "keep me\n");
	write_file(out, "pfc.csv.bak", "a user's copy\n");
	snprintf(args, sizeof(args),
		 "run --quiet " SHORT " --set workloads.1.transport=dcqcn --set switch.scheme=sonic "
		 "--set 'run.sample_hosts=[1]' --out '%s'", out);
	struct tl_cmd r = sharebuf_ok(args);
	tl_cmd_free(&r);
	static const char *const all[] = { "flows.csv", "summary.json", "occupancy.csv", "drops.csv",
					   "pfc.csv", "pfc_paused.csv", "deadlocks.csv", "throughput.csv", "scenario.cfg" };
	for (size_t i = 0; i < 9; i++) {
		char *p = tl_path_in(out, all[i]);
		if (!tl_exists(p))
			fail_msg("the lossless run wrote no %s", all[i]);
		free(p);
	}
	assert_int_equal(tl_count_entries(out), 9 + 2);

	snprintf(args, sizeof(args), "run --quiet " SHORT " --out '%s'", out);
	r = sharebuf_ok(args);
	tl_cmd_free(&r);
	for (size_t i = 0; i < 9; i++) {
		char *p = tl_path_in(out, all[i]);
		bool lossy_output = i < 4 || i == 8;
		if (tl_exists(p) != lossy_output)
			fail_msg("%s %s after a lossy run", all[i], lossy_output ? "is missing" : "is left over");
		free(p);
	}
	assert_int_equal(tl_count_entries(out), 5 + 2);
	char *notes = tl_slurp_in(out, "notes.txt");
	assert_string_equal(notes, "keep me\n");
	free(notes);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* Temporaries are unique (a fixed name that is in the way does not matter), and those of a run
 * killed outright (SIGKILL leaves them) are removed by the next run on the directory, which
 * holds the lock, so they cannot be anyone's work in progress. Files that only look similar
 * stay. */
static void test_temporaries(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), args[8192];
	assert_int_equal(mkdir(out, 0777), 0);
	write_file(out, ".flows.csv.Ab12Cd", "a dead run's temporary\n");
	write_file(out, ".summary.json.tmp", "an older version's temporary\n");
	write_file(out, ".notes.txt.Ab12Cd", "not ours\n");
	write_file(out, ".flows.csv.Ab12Cd.keep", "not ours either\n");
	char *blocker = tl_path_in(out, ".occupancy.csv.tmp"); /* the old fixed temporary name */
	assert_int_equal(mkdir(blocker, 0777), 0);
	snprintf(args, sizeof(args), "run --quiet " SHORT " --out '%s'", out);
	struct tl_cmd r = sharebuf_ok(args);
	tl_cmd_free(&r);
	static const char *const gone[] = { ".flows.csv.Ab12Cd", ".summary.json.tmp" };
	static const char *const kept[] = { ".notes.txt.Ab12Cd", ".flows.csv.Ab12Cd.keep", ".occupancy.csv.tmp",
					    "flows.csv", "summary.json", "occupancy.csv", "drops.csv" };
	for (size_t i = 0; i < 2; i++) {
		char *p = tl_path_in(out, gone[i]);
		if (tl_exists(p))
			fail_msg("%s is still there", gone[i]);
		free(p);
	}
	for (size_t i = 0; i < 7; i++) {
		char *p = tl_path_in(out, kept[i]);
		if (!tl_exists(p))
			fail_msg("%s is missing", kept[i]);
		free(p);
	}
	assert_int_equal(tl_count_entries(out), 8); /* the kept ones and scenario.cfg */
	free(blocker);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* --- signals --- */

/* Stopped while simulating, a run leaves an existing directory exactly as it was (the earlier
 * run's files, no temporary, no lock) and removes every level of a new one it created. */
static void test_killed_run(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), args[8192];
	char *top = tl_path_in(dir, "new"), *deep = tl_path_in(dir, "new/deeper/out");
	const char *const argv[] = { "run", "--quiet", "--out", deep, LONG_SETS, NULL };
	pid_t a = tl_sharebuf_start(argv, NULL, NULL);
	bool running = wait_running(deep);
	kill(a, SIGTERM);
	int st = tl_wait_pid(a, STOP_S);
	assert_true(running);
	assert_true(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	if (tl_exists(top))
		fail_msg("%s, created by the stopped run, is still there", top);
	free(deep);
	free(top);

	assert_int_equal(mkdir(out, 0777), 0);
	write_file(out, "notes.txt", "keep me\n");
	snprintf(args, sizeof(args), "run --quiet " SHORT " --out '%s'", out);
	struct tl_cmd r = sharebuf_ok(args);
	tl_cmd_free(&r);
	char *before = tl_slurp_in(out, "flows.csv");

	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t k = 0; k < 3; k++) {
		/* A signal this test runs with ignored (SIGHUP under nohup) is ignored by the run it
		 * starts too, as it should be (outdir.c keeps ignored signals ignored): nothing to see */
		struct sigaction inherited;
		if (sigaction(sigs[k], NULL, &inherited) == 0 && inherited.sa_handler == SIG_IGN) {
			print_message("signal %d is ignored here, and so by the run: not sent\n", sigs[k]);
			continue;
		}
		char *lock = tl_path_in(out, ".sharebuf.lock");
		const char *const again[] = { "run", "--quiet", "--seed", "5", "--out", out, LONG_SETS, NULL };
		pid_t b = tl_sharebuf_start(again, NULL, NULL);
		bool locked = tl_wait_for(lock, WAIT_S);
		kill(b, sigs[k]);
		int bst = tl_wait_pid(b, STOP_S);
		assert_true(locked);
		if (bst == -1 || !WIFSIGNALED(bst) || WTERMSIG(bst) != sigs[k])
			fail_msg("signal %d: the run did not end by it (wait status %d)", sigs[k], bst);
		assert_int_equal(tl_count_entries(out), 6);
		char *after = tl_slurp_in(out, "flows.csv");
		assert_string_equal(after, before);
		free(after);
		free(lock);
	}
	free(before);

	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* Stopped, compare stops its runs and waits for them: none is left running (they would be
 * reparented to this test), each cleaned up after itself, and no compare.csv/json is left.
 * On a new directory nothing remains; on an earlier comparison's, its runs' directories are
 * as they were and its tables are gone (the comparison they summarised was being redone). */
static void test_killed_compare(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *cmp = tl_path_in(dir, "cmp"), *cerr = tl_path_in(dir, "c.err");
	char *dt = tl_path_in(cmp, "dt"), *cs = tl_path_in(cmp, "cs");
	const char *const argv[] = { "compare", "--quiet", "--jobs", "2", "--schemes", "dt,cs,static", "--out", cmp,
				     LONG_SETS, NULL };
	for (int pass = 0; pass < 2; pass++) {
		char *earlier = NULL;
		if (pass == 1) {
			char args[8192];
			snprintf(args, sizeof(args), "compare --quiet " SHORT " --schemes dt,cs --out '%s'", cmp);
			struct tl_cmd r = sharebuf_ok(args);
			tl_cmd_free(&r);
			earlier = tl_slurp_in(cmp, "dt/flows.csv");
		}
		pid_t c = tl_sharebuf_start(argv, NULL, cerr);
		if (pass == 1) { /* their lock files tell when the new runs have started */
			char *l = tl_path_in(dt, ".sharebuf.lock");
			tl_wait_for(l, WAIT_S);
			free(l);
			l = tl_path_in(cs, ".sharebuf.lock");
			tl_wait_for(l, WAIT_S);
			free(l);
		}
		bool running = wait_running(dt) && wait_running(cs);
		kill(c, SIGTERM);
		int st = tl_wait_pid(c, STOP_S);
		/* whatever compare left running is now this test's child */
		struct timespec ts = { 0, 100000000 };
		nanosleep(&ts, NULL);
		size_t orphans = reap_leftovers();

		assert_true(running);
		if (orphans)
			fail_msg("%zu runs of the stopped compare were still running", orphans);
		char *e = tl_slurp(cerr);
		assert_non_null(e);
		print_message("pass %d: compare: %s", pass, e);
		assert_non_null(strstr(e, "sharebuf: compare: stopped by signal 15"));
		free(e);
		if (st == -1 || !WIFSIGNALED(st) || WTERMSIG(st) != SIGTERM)
			fail_msg("compare did not end by SIGTERM (wait status %d)", st);
		if (pass == 0) {
			if (tl_exists(cmp))
				fail_msg("%s, created by the stopped compare, is still there", cmp);
			continue;
		}
		assert_int_equal(tl_count_entries(cmp), 2); /* dt/ and cs/ of the earlier comparison */
		char *now = tl_slurp_in(cmp, "dt/flows.csv");
		assert_string_equal(now, earlier);
		free(now);
		free(earlier);
		assert_int_equal(tl_count_entries(dt), 5);
	}
	free(dt);
	free(cs);
	free(cerr);
	free(cmp);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	/* the runs of a compare that dies without stopping them are reparented here, where
	 * test_killed_compare finds them */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directory_in_use),
		cmocka_unit_test(test_stale_outputs_removed),
		cmocka_unit_test(test_temporaries),
		cmocka_unit_test(test_killed_run),
		cmocka_unit_test(test_killed_compare),
	};
	int rc = cmocka_run_group_tests_name("outdir", tests, NULL, NULL);
	reap_leftovers();
	return rc;
}
