/*
 * testlib.h — helpers shared by the test programs: scenarios from text, running a simulation
 * with every invariant checked, temporary directories, running the `sharebuf` program.
 *
 * One header, defined by the layer each helper needs (all in build/tests/libtl.a, so a test
 * links only the files it calls): files, programs and JSON in tests/testlib.c (core);
 * tl_mmu_start in tests/mmu/mmulib.c; tl_scenario_net, tl_set_scheme and tl_single_switch in
 * tests/scenario/scenariolib.c, tl_scenario in tests/scenario/scenariolib_workloads.c; running
 * and building a network in tests/sim/simlib.c.
 */
#ifndef SB_TESTLIB_H
#define SB_TESTLIB_H

#include <stdbool.h>
#include <sys/types.h>
#include <jansson.h>
#include "scenario/scenario.h"
#include "sim/sim.h"

/* Load a scenario from libconfig text plus overrides; aborts the test on error. */
void tl_scenario(struct sb_scenario *sc, const char *text, const char *const *sets, size_t nsets);
/* The same with the network's checks only (sb_scenario_validate_net), as the software switch
 * validates a scenario: for the data plane's tests, which link no transport code. */
void tl_scenario_net(struct sb_scenario *sc, const char *text, const char *const *sets, size_t nsets);
/* Build and run, then assert conservation and MMU invariants (sb_sim_check). Finished flows
 * are released as in a program run: neither sb_flow_get() nor sim->records has them after. */
void tl_run_checked(struct sb_sim *sim, const struct sb_scenario *sc);
/* The same, keeping finished flows and their records (sim->flows.keep_finished) to inspect them. */
void tl_run_kept(struct sb_sim *sim, const struct sb_scenario *sc);
/* The same as tl_run_checked, streaming flows.csv and occupancy.csv into a new temporary
 * directory (sb_report_stream) as `sharebuf run` does; returns it for sb_report_write. */
char *tl_run_streamed(struct sb_sim *sim, const struct sb_scenario *sc);
/* Select a BM scheme and optionally set one of its parameters (text value). */
void tl_set_scheme(struct sb_scenario *sc, const char *name, const char *param, const char *value);
/* Start an unbounded CBR flow (rate in bits/s, wire-size packets) at `start`. */
struct sb_flow *tl_cbr(struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t rate_bps, uint32_t packet_bytes,
		       sb_time start);
/* Create a flow of RDMA `transport` (dcqcn, hpcc, ...) on the default lossless priority,
 * starting at `start`. */
struct sb_flow *tl_rdma_flow(struct sb_sim *sim, const char *transport, uint32_t src, uint32_t dst, uint64_t size,
			     sb_time start);
/* Scenario defaults for a single switch with `hosts` hosts at `gbps`, no workloads, invariants on. */
void tl_single_switch(struct sb_scenario *sc, int hosts, double gbps, uint64_t buffer_bytes);
/* Build (asserting success) without running. It sets sim->flows.keep_finished: the tests that build
 * this way create flows by hand and read them (their pointers, sim->records) after the run. */
void tl_build(struct sb_sim *sim, const struct sb_scenario *sc);
/* Run and assert sb_sim_check. */
void tl_run_and_check(struct sb_sim *sim);

/* A callback every `step` of simulated time in [from, to], for time averages of occupancies.
 * The struct is the caller's and must outlive the run; fn reads it (and `ctx`). */
struct tl_every {
	struct sb_sim *sim;
	sb_time next, to, step;
	void (*fn)(struct tl_every *e);
	void *ctx;
	uint64_t calls;
};
void tl_every_start(struct tl_every *e, struct sb_sim *sim, sb_time from, sb_time to, sb_time step,
		    void (*fn)(struct tl_every *e), void *ctx);

/* Assert sb_sim_check (conservation, MMU invariants), then free the simulation and scenario. */
void tl_check_and_free(struct sb_sim *sim, struct sb_scenario *sc);
/* The port of switch 0 that leads to host `h` (fails the test if there is none). */
struct sb_port *tl_port_to_host(struct sb_sim *sim, uint32_t h);

/* |got − want| / want. */
double tl_rel(double got, double want);
/* Relative check of a measurement against theory: prints both (and the error) with the
 * printf-style label, and fails when they differ by more than `tol` (a fraction). */
#define TL_EXPECT_NEAR(got, want, tol, ...)                                                          \
	do {                                                                                         \
		double g_ = (double)(got), w_ = (double)(want);                                      \
		print_message(__VA_ARGS__);                                                          \
		print_message(": measured %.6g, theory %.6g (%+.2f%%)\n", g_, w_, 100 * (g_ - w_) / w_); \
		if (tl_rel(g_, w_) > (tol))                                                          \
			fail_msg("outside the tolerance of %.2f%%", 100 * (tol));                    \
	} while (0)

/* Write text to DIR/NAME (failing the test if it cannot) and return the path (malloc'd). */
char *tl_write_file(const char *dir, const char *name, const char *text);

/* A file no program may touch (the target of a planted link): DIR/NAME holding
 * TL_PRECIOUS, dated TL_OLD_MTIME (2001-09-09: any write would move it to now); its path.
 * tl_expect_untouched fails the test unless PATH still has both. */
#define TL_PRECIOUS "precious: a file the programs must never touch\n"
#define TL_OLD_MTIME 1000000000
char *tl_precious_file(const char *dir, const char *name);
void tl_expect_untouched(const char *path);
/* cmocka group setup/teardown giving the group a temporary directory, tl_group_dir (the
 * tests remove what they create in it; teardown removes the directory itself). */
extern char tl_group_dir[64];
int tl_group_tmpdir(void **state);
int tl_group_rmdir(void **state);

/* Read DIR/NAME (failing the test if it is missing); malloc'd. */
char *tl_slurp_in(const char *dir, const char *name);
/* Remove the line holding `key` (e.g. "wall_time_s") from a text, in place. */
void tl_drop_line(char *s, const char *key);

/* A fresh temporary directory (removed by tl_rmtree). */
char *tl_tmpdir(void);
void tl_rmtree(const char *dir);
/* Read a whole file into a malloc'd string (NULL if missing). */
char *tl_slurp(const char *path);
/* DIR/NAME as a new string. */
char *tl_path_in(const char *dir, const char *name);
bool tl_exists(const char *path);
/* Entries of a directory other than . and .. */
size_t tl_count_entries(const char *dir);

/* Running the `sharebuf` program as a user would (tests run from the repository root). The
 * program is the one built next to the test (BUILD/tests/LAYER/test_x -> BUILD/sharebuf), so `make
 * sanitize` tests the sanitized program; $SHAREBUF overrides it. */
struct tl_cmd {
	int status;   /* exit status, or -1 if the program did not exit normally */
	char *out, *err;
};
/* Find the program from the test's argv[0] (call once from main). */
void tl_sharebuf_init(const char *argv0);
/* Run `sharebuf ARGS` (ARGS is shell text), capturing stdout and stderr. */
struct tl_cmd tl_sharebuf(const char *args);
void tl_cmd_free(struct tl_cmd *r);
/* The program tl_sharebuf runs. */
const char *tl_sharebuf_path(void);
/* Run `NAME ARGS`, NAME a program built beside sharebuf ("sharebuf-load", "sharebuf-switch"). */
struct tl_cmd tl_sibling(const char *name, const char *args);
/* Start `sharebuf ARGV...` (NULL-terminated, no shell) in the background, stdin from /dev/null,
 * stdout and stderr into the files `out` and `err` (NULL: /dev/null). Returns its pid. */
pid_t tl_sharebuf_start(const char *const *argv, const char *out, const char *err);
/* Wait until `path` exists; false after `seconds`. */
bool tl_wait_for(const char *path, double seconds);
/* Wait for child `pid` at most `seconds`; its wait status, or -1 (the child is then killed
 * with SIGKILL and reaped, so a test never leaves it running). */
int tl_wait_pid(pid_t pid, double seconds);

/* Set the scheme parameters of a NULL-terminated key, value, ... list (NULL: none) and start
 * the MMU; any error fails the test with the library's message. */
void tl_mmu_start(struct sb_mmu *m, const char *const *kv);

/* JSON outputs (summary.json, compare.json): load DIR/NAME, and read a value by dotted path
 * ("pfc.paused_time_us.total"). Each fails the test with the path when the key is missing or
 * of another type. */
json_t *tl_json_load(const char *dir, const char *name);
json_t *tl_json_get(json_t *obj, const char *dotted);
double tl_json_num(json_t *obj, const char *dotted);
long long tl_json_int(json_t *obj, const char *dotted);

#endif
