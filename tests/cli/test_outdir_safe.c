/*
 * test_outdir_safe.c — every file the programs create in an output directory is created
 * safely (docs/outputs.md §1 "How files are written"; src/core/safefile.h, src/core/outdir.c):
 * we run as root, and a directory someone else can write may hold planted names.
 *
 *   test_lock_link          a symbolic link planted as DIR/.sharebuf.lock: `run`, `compare`,
 *                           `sweep` and `sharebuf-load report` refuse DIR, naming the link, and
 *                           its target keeps its content and mtime (they once truncated it and
 *                           wrote their pid into it);
 *   test_lock_not_a_file    a FIFO as the lock is refused at once (no hang), a hard link to
 *                           another file is refused and that file is untouched;
 *   test_output_links       links planted under every output name and under the temporaries'
 *                           predictable old names: the run writes beside them (the links are
 *                           replaced by its files), their targets are untouched;
 *   test_compare_scheme_link a link planted as compare's DIR/<scheme>: compare refuses before
 *                           running, and the directory it leads to is untouched (its run once
 *                           wrote there, and removed its names' files there);
 *   test_full_disk_lock     a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored: EFBIG, as a full
 *                           disk gives ENOSPC) that stops the lock's pid: the run fails naming
 *                           the lock and leaves no 0-byte lock and no directory behind;
 *   test_full_disk_outputs  a limit that stops an output: the message names the final output,
 *                           not its temporary, with the errno text; a new DIR is removed, an
 *                           existing one keeps the earlier run's files byte for byte;
 *   test_full_disk_compare  `compare` on a 4 KiB tmpfs (root and a mount namespace, else
 *                           skipped with the reason): the compare's lock fills it, every run
 *                           then fails, and nothing is left (its runs once left their scheme
 *                           directories holding a 0-byte lock).
 *
 * A file size limit is deterministic: the same run writes the same bytes, so the same write
 * is the first to cross it.
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
#include "testlib.h"

#define SHORT "--set run.duration_ms=2 --set run.arrivals_ms=1"

static char load_prog[4200];

static void plant_link(const char *target, const char *dir, const char *name)
{
	char *p = tl_path_in(dir, name);
	if (symlink(target, p))
		fail_msg("symlink %s: %s", p, strerror(errno));
	free(p);
}

static bool is_link(const char *dir, const char *name)
{
	char *p = tl_path_in(dir, name);
	struct stat st;
	bool link = lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
	free(p);
	return link;
}

/* Run `sh -c CMD` with the file size limited to `limit` bytes and SIGXFSZ ignored, so that a
 * write past the limit fails with EFBIG as a full disk fails with ENOSPC. Its stderr comes
 * through a pipe, which the limit does not apply to; stdout goes to /dev/null. */
static struct tl_cmd run_limited(rlim_t limit, const char *cmd)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { limit, limit };
		signal(SIGXFSZ, SIG_IGN);
		int null = open("/dev/null", O_RDWR);
		if (setrlimit(RLIMIT_FSIZE, &rl) || null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(p[1], 2) < 0)
			_exit(126);
		close(p[0]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	size_t len = 0, cap = 4096;
	char *err = malloc(cap);
	assert_non_null(err);
	for (ssize_t n; (n = read(p[0], err + len, cap - len - 1)) != 0;) {
		if (n < 0 && errno == EINTR)
			continue;
		assert_true(n > 0);
		len += (size_t)n;
		if (cap - len < 2)
			err = realloc(err, cap *= 2);
		assert_non_null(err);
	}
	err[len] = 0;
	close(p[0]);
	int st = tl_wait_pid(pid, 300);
	struct tl_cmd r = { st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, strdup(""), err };
	print_message("[limit %llu bytes] %s\n  -> %d: %s", (unsigned long long)limit, cmd, r.status, r.err);
	return r;
}

/* --- the lock --- */

static void expect_refused(const char *what, const char *args, int status, const char *lock, const char *target)
{
	struct tl_cmd r = tl_sharebuf(args);
	if (what) { /* another program than sharebuf */
		tl_cmd_free(&r);
		char cmd[16384];
		snprintf(cmd, sizeof(cmd), "'%s' %s", what, args);
		r = run_limited(RLIM_INFINITY, cmd);
	} else {
		print_message("sharebuf %s\n  -> %d: %s", args, r.status, r.err);
	}
	char want[8400];
	snprintf(want, sizeof(want), "%s is a symbolic link, not a sharebuf lock", lock);
	assert_int_equal(r.status, status);
	assert_non_null(strstr(r.err, want));
	tl_expect_untouched(target);
	tl_cmd_free(&r);
}

/* The commands that claim a directory all refuse one whose lock is a planted link, and leave
 * the link's target as it was. */
static void test_lock_link(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), *lock = tl_path_in(out, ".sharebuf.lock");
	char *target = tl_precious_file(dir, "target"), args[8192];
	assert_int_equal(mkdir(out, 0777), 0);
	plant_link(target, out, ".sharebuf.lock");

	snprintf(args, sizeof(args), "run --quiet " SHORT " --out '%s'", out);
	expect_refused(NULL, args, 1, lock, target);
	snprintf(args, sizeof(args), "compare --quiet --schemes dt " SHORT " --out '%s'", out);
	expect_refused(NULL, args, 1, lock, target);
	char *spec = tl_write_file(dir, "one.cfg", "set = ( \"run.duration_ms=2\", \"run.arrivals_ms=1\" );\n");
	snprintf(args, sizeof(args), "sweep '%s' --quiet --out '%s'", spec, out);
	expect_refused(NULL, args, 1, lock, target);
	char *sc = tl_write_file(dir, "s.cfg", "topology: { type = \"single\"; hosts = 2; };\n"
					       "run: { duration_ms = 2.0; arrivals_ms = 1.0; };\n");
	char *measured = tl_write_file(dir, "m.csv", "flow_id,src,dst,size_bytes,fct_ps\n");
	snprintf(args, sizeof(args), "report '%s' --out '%s' '%s'", sc, out, measured);
	expect_refused(load_prog, args, 2, lock, target);
	/* nothing was written beside the link either */
	assert_int_equal(tl_count_entries(out), 1);
	free(measured);
	free(sc);
	free(spec);
	free(target);
	free(lock);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* A FIFO under the lock's name would block open() for ever; a hard link to another file would
 * have that file truncated. Both are refused, and the other file is untouched. */
static void test_lock_not_a_file(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), *lock = tl_path_in(out, ".sharebuf.lock");
	char *target = tl_precious_file(dir, "target"), args[8192];
	assert_int_equal(mkdir(out, 0777), 0);
	assert_int_equal(mkfifo(lock, 0666), 0);
	snprintf(args, sizeof(args), "run --quiet " SHORT " --out '%s'", out);
	struct tl_cmd r = tl_sharebuf(args);
	print_message("FIFO as the lock -> %d: %s", r.status, r.err);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "is not a regular file, not a sharebuf lock"));
	tl_cmd_free(&r);

	assert_int_equal(unlink(lock), 0);
	assert_int_equal(link(target, lock), 0);
	r = tl_sharebuf(args);
	print_message("hard link as the lock -> %d: %s", r.status, r.err);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "has another hard link, not a sharebuf lock"));
	tl_cmd_free(&r);
	tl_expect_untouched(target);
	free(target);
	free(lock);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* --- the outputs --- */

/* A link under an output's name is replaced by the output (rename(2) replaces the name, it does
 * not write through it), and one under a temporary's old fixed name is removed as a dead
 * temporary: neither target changes. The run's own temporaries are new names (O_EXCL). */
static void test_output_links(void **state)
{
	(void)state;
	static const char *const outputs[] = { "flows.csv", "summary.json", "occupancy.csv", "drops.csv", "scenario.cfg",
					       "pfc.csv", "pfc_paused.csv", "deadlocks.csv", "throughput.csv" };
	static const char *const old_tmp[] = { ".flows.csv.tmp", ".summary.json.tmp" };
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), args[8192];
	assert_int_equal(mkdir(out, 0777), 0);
	char *target[9 + 2];
	for (size_t i = 0; i < 9 + 2; i++) {
		char name[32];
		snprintf(name, sizeof(name), "target%zu", i);
		target[i] = tl_precious_file(dir, name);
		plant_link(target[i], out, i < 9 ? outputs[i] : old_tmp[i - 9]);
	}
	snprintf(args, sizeof(args), "run --quiet " SHORT " --out '%s'", out);
	struct tl_cmd r = tl_sharebuf(args);
	print_message("links as the outputs -> %d: %s", r.status, r.err);
	assert_int_equal(r.status, 0);
	tl_cmd_free(&r);
	for (size_t i = 0; i < 9 + 2; i++) {
		tl_expect_untouched(target[i]);
		free(target[i]);
	}
	/* the lossy run's five files are its own now; the other four names and the old
	 * temporaries are gone (links removed, not followed) */
	for (size_t i = 0; i < 9; i++)
		assert_false(is_link(out, outputs[i]));
	assert_int_equal(tl_count_entries(out), 5);
	char *summary = tl_slurp_in(out, "summary.json");
	assert_non_null(strstr(summary, "\"flows_completed\""));
	free(summary);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* compare names DIR/<scheme> itself: a link planted there is refused before anything runs,
 * and the directory it leads to keeps its files (a run there would replace its flows.csv and
 * remove its pfc.csv as a stale output). */
static void test_compare_scheme_link(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), *elsewhere = tl_path_in(dir, "elsewhere"), args[8192];
	assert_int_equal(mkdir(out, 0777), 0);
	assert_int_equal(mkdir(elsewhere, 0777), 0);
	char *flows = tl_precious_file(elsewhere, "flows.csv"), *pfc = tl_precious_file(elsewhere, "pfc.csv");
	plant_link(elsewhere, out, "dt");
	snprintf(args, sizeof(args), "compare --quiet --schemes dt " SHORT " --out '%s'", out);
	struct tl_cmd r = tl_sharebuf(args);
	print_message("DIR/dt a link -> %d: %s", r.status, r.err);
	char want[8400];
	snprintf(want, sizeof(want), "sharebuf: --out: %s/dt is a symbolic link: compare writes each scheme's run into "
				     "a directory of its own (remove the link)\n", out);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want);
	tl_cmd_free(&r);
	tl_expect_untouched(flows);
	tl_expect_untouched(pfc);
	assert_int_equal(tl_count_entries(elsewhere), 2);
	assert_int_equal(tl_count_entries(out), 1); /* the link: no lock, no compare.csv */
	free(pfc);
	free(flows);
	free(elsewhere);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* The same for a sweep's own names: a link planted as DIR/runs or as a point's directory
 * DIR/runs/POINT is refused before any run starts, and what it points to is untouched (the
 * runs once wrote through it). */
static void test_sweep_runs_link(void **state)
{
	(void)state;
	static const char *const planted[] = { "runs", "runs/0000-load=0.3-scheme=dt" };
	for (size_t k = 0; k < 2; k++) {
		char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), *elsewhere = tl_path_in(dir, "elsewhere");
		char args[8192], *runs = tl_path_in(out, "runs"), *link = tl_path_in(out, planted[k]);
		char *spec = tl_write_file(dir, "spec.cfg",
					   "set = ( \"run.duration_ms=2\", \"run.arrivals_ms=1\" );\n"
					   "axes = ( { key = \"workloads.0.load\"; values = [0.3]; } );\n"
					   "schemes = [ \"dt\" ];\nseeds = [ 1 ];\n");
		assert_int_equal(mkdir(out, 0777), 0);
		if (k == 1)
			assert_int_equal(mkdir(runs, 0777), 0);
		assert_int_equal(mkdir(elsewhere, 0777), 0);
		char *flows = tl_precious_file(elsewhere, "flows.csv");
		if (symlink(elsewhere, link))
			fail_msg("symlink %s: %s", link, strerror(errno));
		snprintf(args, sizeof(args), "sweep '%s' --quiet --jobs 1 --out '%s'", spec, out);
		struct tl_cmd r = tl_sharebuf(args);
		print_message("DIR/%s a link -> %d: %s", planted[k], r.status, r.err);
		char want[8400];
		snprintf(want, sizeof(want), "sharebuf: sweep: %s is a symbolic link: a sweep writes its runs into "
					     "directories of its own (remove the link)\n", link);
		assert_int_equal(r.status, 1);
		assert_string_equal(r.err, want);
		tl_cmd_free(&r);
		tl_expect_untouched(flows);
		assert_int_equal(tl_count_entries(elsewhere), 1);
		free(flows);
		free(spec);
		free(link);
		free(runs);
		free(elsewhere);
		free(out);
		tl_rmtree(dir);
		free(dir);
	}
}

/* --- a full disk --- */

/* The lock's pid is the first thing written: with room for less than a pid the run fails
 * naming the lock, and removes it and the directory it created (a 0-byte lock once stayed,
 * and with it the directory). */
static void test_full_disk_lock(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "new/out"), cmd[8192];
	snprintf(cmd, sizeof(cmd), "exec '%s' run --quiet " SHORT " --out '%s'", tl_sharebuf_path(), out);
	struct tl_cmd r = run_limited(1, cmd);
	char want[8400];
	snprintf(want, sizeof(want), "sharebuf: --out: cannot write %s/.sharebuf.lock: %s\n", out, strerror(EFBIG));
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want);
	assert_int_equal(tl_count_entries(dir), 0); /* new/out and new removed */
	tl_cmd_free(&r);
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* Room for the lock but not for the outputs: the message names the output that did not fit
 * (DIR/NAME, not DIR/.NAME.XXXXXX) with the errno text, a new DIR is removed, and an existing
 * one keeps the earlier run's files byte for byte, with no temporary left beside them. */
static void test_full_disk_outputs(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *out = tl_path_in(dir, "out"), cmd[8192];
	snprintf(cmd, sizeof(cmd), "exec '%s' run --quiet " SHORT " --out '%s'", tl_sharebuf_path(), out);
	struct tl_cmd r = run_limited(8192, cmd);
	/* of the run's files only occupancy.csv (27 kB) passes 8192 bytes: the message names it */
	char want[8400];
	snprintf(want, sizeof(want), "sharebuf: cannot write %s/occupancy.csv: %s\n", out, strerror(EFBIG));
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want);
	assert_false(tl_exists(out));
	tl_cmd_free(&r);

	/* an earlier run's files stay as they were */
	char args[8192];
	snprintf(args, sizeof(args), "run --quiet " SHORT " --set run.seed=7 --out '%s'", out);
	r = tl_sharebuf(args);
	assert_int_equal(r.status, 0);
	tl_cmd_free(&r);
	static const char *const names[] = { "flows.csv", "summary.json", "occupancy.csv", "drops.csv", "scenario.cfg" };
	char *before[5];
	for (size_t i = 0; i < 5; i++)
		before[i] = tl_slurp_in(out, names[i]);
	r = run_limited(8192, cmd);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, want);
	tl_cmd_free(&r);
	assert_int_equal(tl_count_entries(out), 5); /* no temporary, no lock */
	for (size_t i = 0; i < 5; i++) {
		char *now = tl_slurp_in(out, names[i]);
		assert_string_equal(now, before[i]);
		free(now);
		free(before[i]);
	}
	free(out);
	tl_rmtree(dir);
	free(dir);
}

/* A real full disk: a 4 KiB tmpfs in a private mount namespace holds one page, which the
 * compare's lock takes. Every run's lock then cannot get its pid written (ENOSPC); each run
 * removes its lock and the scheme directory it created, and the compare its own directory:
 * the tmpfs is left empty. */
static void test_full_disk_compare(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: a tmpfs needs root (the file size limit cannot stop one run's lock and "
			      "not the compare's)\n");
		skip();
	}
	char *dir = tl_tmpdir(), *mnt = tl_path_in(dir, "mnt"), *left = tl_path_in(dir, "left"), cmd[16384];
	assert_int_equal(mkdir(mnt, 0777), 0);
	snprintf(cmd, sizeof(cmd),
		 "unshare -m sh -c 'mount -t tmpfs -o size=4k sbtest \"$0\" || exit 77; "
		 "\"$1\" compare --quiet --jobs 1 --schemes dt,abm " SHORT " --out \"$0/c\" 2>\"$2.err\"; echo $? >\"$2\"; "
		 "ls -A \"$0\" >>\"$2\"' '%s' '%s' '%s' >/dev/null 2>&1",
		 mnt, tl_sharebuf_path(), left);
	int rc = system(cmd);
	if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
		print_message("skipped: no private mount namespace with a tmpfs here (status %d)\n", rc);
		free(left);
		free(mnt);
		tl_rmtree(dir);
		free(dir);
		skip();
	}
	char *what = tl_slurp(left), *err = tl_slurp_in(dir, "left.err");
	print_message("compare on a full tmpfs: exit status and what is left:\n%s%s", what, err);
	assert_string_equal(what, "1\n"); /* status 1, and the tmpfs empty */
	assert_non_null(strstr(err, "/c/dt/.sharebuf.lock: No space left on device"));
	free(err);
	free(what);
	free(left);
	free(mnt);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	const char *slash = strrchr(tl_sharebuf_path(), '/');
	snprintf(load_prog, sizeof(load_prog), "%.*s/sharebuf-load", slash ? (int)(slash - tl_sharebuf_path()) : 1,
		 slash ? tl_sharebuf_path() : ".");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_link),
		cmocka_unit_test(test_lock_not_a_file),
		cmocka_unit_test(test_output_links),
		cmocka_unit_test(test_compare_scheme_link),
		cmocka_unit_test(test_sweep_runs_link),
		cmocka_unit_test(test_full_disk_lock),
		cmocka_unit_test(test_full_disk_outputs),
		cmocka_unit_test(test_full_disk_compare),
	};
	return cmocka_run_group_tests_name("outdir_safe", tests, NULL, NULL);
}
