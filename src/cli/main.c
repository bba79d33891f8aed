/*
 * main.c — the `sharebuf` command line: its table of commands (core/cmd.h), each with its
 * options table, so that `sharebuf --help` lists what it runs and `sharebuf CMD --help` what
 * CMD parses.
 *
 *   sharebuf run [SCENARIO] [--set KEY=VALUE]... [--seed N] [--out DIR] [--quiet]
 *   sharebuf compare [SCENARIO] [--schemes A,B,...] [--jobs N] [run's options]   (compare.c)
 *   sharebuf sweep SPEC [--out DIR] [--jobs N] [--set KEY=VALUE]... [mode]     (sweep_run.c)
 *   sharebuf list [GROUP]       schemes, transports, workloads, topologies
 *   sharebuf params [PREFIX]    every scenario key (Markdown; docs/scenario-keys.md)
 *   sharebuf default-scenario   print the embedded default scenario
 *   sharebuf --help | --version, sharebuf COMMAND --help
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <unistd.h>
#include "cli/args.h"
#include "scenario/cfgfile.h"
#include "cli/compare.h"
#include "cli/sweep.h"
#include "core/cmd.h"
#include "core/hugepages.h"
#include "mmu/mmu.h"
#include "core/outdir.h"
#include "sim/provenance.h"
#include "sim/report.h"
#include "scenario/scenario.h"
#include "sim/sim.h"
#include "transport/transport.h"

extern const char sb_default_scenario[];

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail(const char *what)
{
	fprintf(stderr, "sharebuf: %s\n", what);
	return 1;
}

static const char *const list_groups[] = { "schemes", "transports", "workloads", "topologies" };

/* `list [GROUP]`: every group, or the one named (a usage error for anything else). */
static int cmd_list(const struct sb_cmd_call *c, int argc, char **argv)
{
	struct sb_opt_list args = { 0 };
	int rc = sb_cmd_parse(c, argc, argv, NULL, &args);
	if (rc != SB_CMD_GO) {
		sb_opt_list_free(&args);
		return rc;
	}
	int only = -1;
	if (args.n == 1) {
		const char *group = args.v[0];
		for (size_t g = 0; g < SB_ARRAY_LEN(list_groups); g++) {
			size_t n = strlen(group);
			/* "scheme" for "schemes" too */
			if (!strcmp(group, list_groups[g]) ||
			    (n + 1 == strlen(list_groups[g]) && !strncmp(group, list_groups[g], n)))
				only = (int)g;
		}
		if (only < 0) {
			fprintf(stderr, "sharebuf: list: unknown group \"%s\", expected one of "
					"schemes|transports|workloads|topologies\n", group);
			sb_opt_list_free(&args);
			return 2;
		}
	}
	sb_opt_list_free(&args);
	if (only < 0 || only == 0) {
		printf("buffer-management schemes (switch.scheme; [lossless] = PFC with headroom, needed by class = \"lossless\"):\n");
		for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++)
			printf("  %-13s %s%s\n", (*s)->name, (*s)->lossless ? "[lossless] " : "", (*s)->summary);
	}
	if (only < 0 || only == 1) {
		printf("transports (workloads.*.transport):\n");
		for (const struct sb_transport_ops *const *t = sb_transport_all(); *t; t++)
			printf("  %-13s %s\n", (*t)->name, (*t)->summary);
	}
	if (only < 0 || only == 2) {
		printf("workloads (workloads.*.type):\n");
		for (const struct sb_workload_ops *const *t = sb_workload_all(); *t; t++)
			printf("  %s\n", (*t)->name);
	}
	if (only < 0 || only == 3)
		printf("topologies (topology.type):\n  single\n  leafspine\n  fattree\n");
	return 0;
}

/* `params PREFIX`: the reference's sections cut down to the keys that start with PREFIX. The
 * reference is generated once and filtered, so the two cannot disagree. */
static int params_prefix(const char *p)
{
	/* workloads.3.load is documented as workloads.N.load */
	char prefix[256];
	size_t w = 0;
	if (!strncmp(p, "workloads.", 10) && p[10] >= '0' && p[10] <= '9') {
		const char *q = p + 10;
		while (*q >= '0' && *q <= '9')
			q++;
		w = (size_t)snprintf(prefix, sizeof(prefix), "workloads.N%s", q);
	} else {
		w = (size_t)snprintf(prefix, sizeof(prefix), "%s", p);
	}
	if (w >= sizeof(prefix) || !*prefix) {
		fprintf(stderr, "sharebuf: params: expected a key prefix such as run. or switch.dt., got \"%s\"\n", p);
		return 2;
	}
	char *ref = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&ref, &len);
	if (!m)
		return fail("params: out of memory");
	sb_cfg_write_reference(m);
	fclose(m);
	/* Keep a heading and its table header only when a row under it matches. */
	const char *heading = NULL, *header = NULL;
	size_t heading_len = 0, header_len = 0, rows = 0; /* header: its line and the separator's */
	for (char *line = ref; *line;) {
		size_t n = strcspn(line, "\n");
		bool nl = line[n] == '\n';
		if (line[0] == '#') {
			heading = line;
			heading_len = n;
			header = NULL;
		} else if (!strncmp(line, "| key |", 7)) {
			header = line;
			header_len = n + nl + strcspn(line + n + nl, "\n");
		} else if (!strncmp(line, "| `", 3) && !strncmp(line + 3, prefix, strlen(prefix))) {
			if (heading) {
				printf("%s%.*s\n\n", rows ? "\n" : "", (int)heading_len, heading);
				heading = NULL;
			}
			if (header) {
				printf("%.*s\n", (int)header_len, header);
				header = NULL;
			}
			printf("%.*s\n", (int)n, line);
			rows++;
		}
		line += n + nl;
	}
	free(ref);
	if (!rows) {
		fprintf(stderr, "sharebuf: params: no scenario key starts with \"%s\" (`sharebuf params` lists them all)\n",
			p);
		return 2;
	}
	return 0;
}

/* `params [PREFIX]`: the whole reference, or the rows of PREFIX. */
static int cmd_params(const struct sb_cmd_call *c, int argc, char **argv)
{
	struct sb_opt_list args = { 0 };
	int rc = sb_cmd_parse(c, argc, argv, NULL, &args);
	if (rc != SB_CMD_GO || args.n == 0) {
		if (rc == SB_CMD_GO) {
			sb_cfg_write_reference(stdout);
			rc = 0;
		}
		sb_opt_list_free(&args);
		return rc;
	}
	rc = params_prefix(args.v[0]);
	sb_opt_list_free(&args);
	return rc;
}

struct run_opts {
	struct sb_opt_list sets; /* --set and --seed, in their order */
	const char *out;
	bool quiet;
};

static const struct sb_opt run_opts[] = {
	SB_ARGS_SET(struct run_opts, sets),
	SB_ARGS_SEED(struct run_opts, sets),
	SB_ARGS_OUT(struct run_opts, out, "write the outputs into DIR (default: out)"),
	SB_ARGS_QUIET(struct run_opts, quiet),
	{ 0 },
};

static int cmd_run(const struct sb_cmd_call *c, int argc, char **argv)
{
	struct run_opts o = { .out = "out" };
	struct sb_opt_list args = { 0 };
	int rc = sb_cmd_parse(c, argc, argv, &o, &args);
	if (rc != SB_CMD_GO) {
		sb_opt_list_free(&o.sets);
		sb_opt_list_free(&args);
		return rc;
	}
	const char *path = args.n ? args.v[0] : NULL, *out = o.out;
	const char **sets = o.sets.v;
	size_t nsets = o.sets.n;
	bool quiet = o.quiet;
	struct sb_scenario sc;
	struct sb_error err = { "" };
	sb_scenario_defaults(&sc);
	rc = sb_cfg_load(&sc, path, sb_default_scenario, sets, nsets, &err);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &err);
	if (rc) {
		sb_opt_list_free(&o.sets);
		sb_opt_list_free(&args);
		sb_scenario_free(&sc);
		return fail(err.msg);
	}
	/* DIR/scenario.cfg and summary.json's provenance: what repeats this run */
	char *resolved = sb_cfg_resolved_text(&sc);
	struct sb_provenance prov;
	sb_provenance_init(&prov, "run", argc, argv, sets, nsets, resolved);
	if (quiet)
		sb_report_progress_enabled = false;
	struct sb_sim sim;
	double t0 = wall_now();
	/* the directory is claimed (created, locked) only once the scenario builds, so that bad
	 * input leaves nothing behind, and before simulating, so that a bad or busy --out fails
	 * at once rather than after the run; flows.csv and occupancy.csv are then written as the
	 * run goes (into temporaries renamed at the end), so their rows take no memory */
	/* the inputs' hashes (the contents of the CDFs and flow lists scenario.cfg names by path
	 * only) once the build has read them, which names a file that is missing at its key */
	if (sb_sim_build(&sim, &sc, &err) || sb_provenance_add_inputs(&prov, &sc, &err) ||
	    sb_outdir_claim(out, sb_report_file_names, &err) ||
	    sb_report_stream(&sim, out, &err)) {
		sb_outdir_release(true);
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
		sb_provenance_free(&prov);
		free(resolved);
		sb_opt_list_free(&o.sets);
		sb_opt_list_free(&args);
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
	if (rc == 0 && sb_report_write_provenance(&sim, out, wall, &prov, &err))
		rc = fail(err.msg);
	/* a failed run removes the directories it created, if empty: never a user's files */
	sb_outdir_release(rc != 0);
	if (rc == 0 && !quiet) {
		sb_report_print(stdout, &sim, &s, wall);
		char names[256];
		sb_report_output_list(&sim, names, sizeof(names));
		printf("outputs: %s/{%s,scenario.cfg}\n", out, names);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	sb_provenance_free(&prov);
	free(resolved);
	sb_opt_list_free(&o.sets);
	sb_opt_list_free(&args);
	return rc;
}

static int cmd_default_scenario(const struct sb_cmd_call *c, int argc, char **argv)
{
	struct sb_opt_list args = { 0 };
	int rc = sb_cmd_parse(c, argc, argv, NULL, &args);
	sb_opt_list_free(&args);
	if (rc != SB_CMD_GO)
		return rc;
	fputs(sb_default_scenario, stdout);
	return 0;
}

static const struct sb_cmd commands[] = {
	{ "run", "[SCENARIO]", 0, 1, run_opts,
	  "simulate SCENARIO (a libconfig file; without one, the embedded\n"
	  "default scenario) and write flows.csv, summary.json,\n"
	  "occupancy.csv and drops.csv into DIR (default: out)",
	  "docs/outputs.md, docs/scenario.md", cmd_run, sb_outdir_signals },
	{ "compare", "[SCENARIO]", 0, 1, sb_compare_opts,
	  "run SCENARIO once per scheme (default: every scheme of `list`\n"
	  "that can carry its traffic), N runs in parallel (default: one\n"
	  "per CPU), each into DIR/SCHEME/;\n"
	  "print the headline metrics side by side and write them to\n"
	  "DIR/compare.csv and DIR/compare.json; --collect runs nothing and\n"
	  "tabulates the DIR/SCHEME/summary.json already there (the testbed's)",
	  "docs/compare.md", sb_cmd_compare, sb_outdir_signals },
	{ "sweep", "SPEC", 1, 1, sb_sweep_opts,
	  "run the grid of SPEC (axes, schemes, seeds over a base\n"
	  "scenario), N runs at a time, each into DIR/runs/POINT/seed-S/;\n"
	  "runs already complete are skipped; then write DIR/sweep.csv and\n"
	  "DIR/sweep-summary.csv (mean, sd, 95% CI over seeds).\n"
	  "--dry-run lists the points; --emit-slurm writes DIR/sweep.slurm,\n"
	  "whose task I runs --point I; --collect writes the CSVs;\n"
	  "--mpi under mpirun: rank 0 hands out the runs (default DIR:\n"
	  "out/SPEC's name); --set overrides a key in every run (after\n"
	  "the spec's set, before its axes)",
	  "docs/sweep.md", sb_cmd_sweep, sb_outdir_signals },
	{ "list", "[schemes|transports|workloads|topologies]", 0, 1, NULL,
	  "list buffer-management schemes, transports, workloads,\n"
	  "topologies (or only the one group named)",
	  "README.md", cmd_list, NULL },
	{ "params", "[PREFIX]", 0, 1, NULL,
	  "print the reference of every scenario key (Markdown), or only\n"
	  "of the keys starting with PREFIX (run., switch.dt., workloads.0.)",
	  "docs/scenario-keys.md, docs/scenario.md", cmd_params, NULL },
	{ "default-scenario", NULL, 0, 0, NULL, "print the embedded default scenario", "README.md",
	  cmd_default_scenario, NULL },
	{ 0 },
};

int main(int argc, char **argv)
{
	sb_heap_use_huge_pages(); /* large networks: fewer TLB misses (hugepages.h) */
	char version[160];
	snprintf(version, sizeof(version), "sharebuf %s (commit %s)", sb_version, sb_git_commit);
	const struct sb_prog prog = {
		"sharebuf", commands,
		"options: --opt VALUE and --opt=VALUE are the same; --seed N is --set run.seed=N;\n"
		"         --quiet (-q) prints nothing on stdout and no progress line; -- ends the options\n\n"
		"docs: docs/scenario.md (file format), docs/outputs.md (output columns),\n"
		"      docs/compare.md (compare), docs/sweep.md (sweep)\n",
		version,
	};
	return sb_cmd_main(&prog, argc, argv);
}
