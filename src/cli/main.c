/*
 * main.c — the `sharebuf` command line.
 *
 *   sharebuf run [SCENARIO] [--set KEY=VALUE]... [--seed N] [--out DIR] [--quiet]
 *   sharebuf compare [SCENARIO] [--schemes A,B,...] [--jobs N] [run's options]   (compare.c)
 *   sharebuf list               schemes, transports, workloads, topologies
 *   sharebuf params             every scenario key (Markdown; docs/scenario-keys.md)
 *   sharebuf default-scenario   print the embedded default scenario
 *   sharebuf --help | --version
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <unistd.h>
#include "cli/cfgfile.h"
#include "cli/compare.h"
#include "mmu/mmu.h"
#include "sim/outdir.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/sim.h"
#include "transport/transport.h"

#ifndef SB_VERSION
#define SB_VERSION "0.1.0"
#endif

extern const char sb_default_scenario[];

static void usage(FILE *f)
{
	fprintf(f,
		"usage: sharebuf COMMAND [ARGS]\n"
		"\n"
		"commands:\n"
		"  run [SCENARIO] [--set KEY=VALUE]... [--seed N] [--out DIR] [--quiet]\n"
		"                      simulate SCENARIO (a libconfig file; without one, the embedded\n"
		"                      default scenario) and write flows.csv, summary.json,\n"
		"                      occupancy.csv and drops.csv into DIR (default: out)\n"
		"  compare [SCENARIO] [--schemes A,B,...] [--jobs N] [--set KEY=VALUE]... [--seed N]\n"
		"          [--out DIR] [--quiet]\n"
		"                      run SCENARIO once per scheme (default: every scheme of `list`),\n"
		"                      N runs in parallel (default: one per CPU), each into DIR/SCHEME/;\n"
		"                      print the headline metrics side by side and write them to\n"
		"                      DIR/compare.csv and DIR/compare.json\n"
		"  list                list buffer-management schemes, transports, workloads, topologies\n"
		"  params              print the reference of every scenario key (Markdown)\n"
		"  default-scenario    print the embedded default scenario\n"
		"  --help, --version\n"
		"\n"
		"docs: docs/scenario.md (file format), docs/outputs.md (output columns),\n"
		"      docs/compare.md (compare)\n");
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmd_list(void)
{
	printf("buffer-management schemes (switch.scheme; [lossless] = PFC with headroom, needed by class = \"lossless\"):\n");
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++)
		printf("  %-13s %s%s\n", (*s)->name, (*s)->lossless ? "[lossless] " : "", (*s)->summary);
	printf("transports (workloads.*.transport):\n");
	for (const struct sb_transport_ops *const *t = sb_transport_all(); *t; t++)
		printf("  %-13s %s\n", (*t)->name, (*t)->summary);
	printf("workloads (workloads.*.type):\n");
	for (int i = 0; i < SB_WL_N; i++)
		printf("  %s\n", sb_workload_type_name[i]);
	printf("topologies (topology.type):\n  single\n  leafspine\n  fattree\n");
	return 0;
}

static int fail(const char *what)
{
	fprintf(stderr, "sharebuf: %s\n", what);
	return 1;
}

static int cmd_run(int argc, char **argv)
{
	const char *path = NULL, *out = "out";
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	size_t nsets = 0;
	char seed_set[64];
	bool quiet = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--set") || !strcmp(a, "--seed") || !strcmp(a, "--out")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "sharebuf: %s needs a value\n", a);
				free(sets);
				return 2;
			}
			const char *v = argv[++i];
			if (!strcmp(a, "--set")) {
				sets[nsets++] = v;
			} else if (!strcmp(a, "--seed")) {
				char *end;
				errno = 0;
				long long seed = strtoll(v, &end, 10);
				if (!*v || *end || errno || seed < 0) {
					fprintf(stderr, "sharebuf: --seed: expected a non-negative integer, got \"%s\"\n", v);
					free(sets);
					return 2;
				}
				snprintf(seed_set, sizeof(seed_set), "run.seed=%lld", seed);
				sets[nsets++] = seed_set;
			} else {
				out = v;
			}
		} else if (!strncmp(a, "--set=", 6)) {
			sets[nsets++] = a + 6;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = true;
		} else if (a[0] == '-') {
			fprintf(stderr, "sharebuf: run: unknown option %s (see sharebuf --help)\n", a);
			free(sets);
			return 2;
		} else if (!path) {
			path = a;
		} else {
			fprintf(stderr, "sharebuf: run: more than one scenario file (%s, %s)\n", path, a);
			free(sets);
			return 2;
		}
	}
	struct sb_scenario sc;
	struct sb_error err = { "" };
	sb_scenario_defaults(&sc);
	int rc = sb_cfg_load(&sc, path, sb_default_scenario, sets, nsets, &err);
	free(sets);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &err);
	if (rc) {
		sb_scenario_free(&sc);
		return fail(err.msg);
	}
	if (quiet)
		sb_report_progress_enabled = false;
	struct sb_sim sim;
	double t0 = wall_now();
	/* the directory is claimed (created, locked) only once the scenario builds, so that bad
	 * input leaves nothing behind, and before simulating, so that a bad or busy --out fails
	 * at once rather than after the run */
	if (sb_sim_build(&sim, &sc, &err) || sb_outdir_claim(out, sb_report_file_names, &err)) {
		sb_outdir_release(true);
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
		return fail(err.msg);
	}
	sb_sim_run(&sim);
	double wall = wall_now() - t0;
	if (sb_sim_check(&sim, &err)) {
		fprintf(stderr, "sharebuf: internal consistency check failed: %s\n", err.msg);
		rc = 3;
	}
	struct sb_summary s;
	sb_report_summarize(&sim, &s);
	if (rc == 0 && sb_report_write(&sim, out, wall, &err))
		rc = fail(err.msg);
	/* a failed run removes the directories it created, if empty: never a user's files */
	sb_outdir_release(rc != 0);
	if (rc == 0 && !quiet) {
		sb_report_print(stdout, &sim, &s, wall);
		char names[256];
		sb_report_output_list(&sim, names, sizeof(names));
		printf("outputs: %s/{%s}\n", out, names);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("sharebuf %s\n", SB_VERSION);
		return 0;
	}
	/* the commands that write into --out clean up after themselves when a signal stops them */
	if (!strcmp(cmd, "run") || !strcmp(cmd, "compare"))
		sb_outdir_signals();
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(cmd, "compare"))
		return sb_cmd_compare(argc - 2, argv + 2, cmd_run);
	if (!strcmp(cmd, "list"))
		return cmd_list();
	if (!strcmp(cmd, "params")) {
		sb_cfg_write_reference(stdout);
		return 0;
	}
	if (!strcmp(cmd, "default-scenario")) {
		fputs(sb_default_scenario, stdout);
		return 0;
	}
	fprintf(stderr, "sharebuf: unknown command '%s' (see sharebuf --help)\n", cmd);
	return 2;
}
