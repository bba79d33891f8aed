/*
 * main.c — the `sharebuf` command line.
 *
 *   sharebuf run [SCENARIO] [--set KEY=VALUE]... [--seed N] [--out DIR] [--quiet]
 *   sharebuf compare [SCENARIO] [--schemes A,B,...] [--jobs N] [run's options]   (compare.c)
 *   sharebuf list [GROUP]       schemes, transports, workloads, topologies
 *   sharebuf params [PREFIX]    every scenario key (Markdown; docs/scenario-keys.md)
 *   sharebuf default-scenario   print the embedded default scenario
 *   sharebuf --help | --version, sharebuf COMMAND --help
 */
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
#include "core/hugepages.h"
#include "mmu/mmu.h"
#include "core/outdir.h"
#include "sim/provenance.h"
#include "sim/report.h"
#include "scenario/scenario.h"
#include "sim/sim.h"
#include "transport/transport.h"

extern const char sb_default_scenario[];

/* Each command's synopsis and description: the global --help lists them all, `sharebuf CMD
 * --help` prints its own. */
static const struct command_help {
	const char *name, *synopsis, *text;
} commands[] = {
	{ "run", "run [SCENARIO] [--set KEY=VALUE]... [--seed N] [--out DIR] [--quiet]",
	  "simulate SCENARIO (a libconfig file; without one, the embedded\n"
	  "default scenario) and write flows.csv, summary.json,\n"
	  "occupancy.csv and drops.csv into DIR (default: out)" },
	{ "compare",
	  "compare [SCENARIO] [--schemes A,B,...] [--jobs N] [--set KEY=VALUE]... [--seed N]\n"
	  "          [--out DIR] [--quiet] [--collect]",
	  "run SCENARIO once per scheme (default: every scheme of `list`\n"
	  "that can carry its traffic), N runs in parallel (default: one\n"
	  "per CPU), each into DIR/SCHEME/;\n"
	  "print the headline metrics side by side and write them to\n"
	  "DIR/compare.csv and DIR/compare.json; --collect runs nothing and\n"
	  "tabulates the DIR/SCHEME/summary.json already there (the testbed's)" },
	{ "sweep",
	  "sweep SPEC [--out DIR] [--jobs N] [--set KEY=VALUE]...\n"
	  "          [--dry-run | --collect | --emit-slurm | --point I | --mpi] [--quiet]",
	  "run the grid of SPEC (axes, schemes, seeds over a base\n"
	  "scenario), N runs at a time, each into DIR/runs/POINT/seed-S/;\n"
	  "runs already complete are skipped; then write DIR/sweep.csv and\n"
	  "DIR/sweep-summary.csv (mean, sd, 95% CI over seeds).\n"
	  "--dry-run lists the points; --emit-slurm writes DIR/sweep.slurm,\n"
	  "whose task I runs --point I; --collect writes the CSVs;\n"
	  "--mpi under mpirun: rank 0 hands out the runs (default DIR:\n"
	  "out/SPEC's name); --set overrides a key in every run (after\n"
	  "the spec's set, before its axes)" },
	{ "list", "list [schemes|transports|workloads|topologies]",
	  "list buffer-management schemes, transports, workloads,\n"
	  "topologies (or only the one group named)" },
	{ "params", "params [PREFIX]",
	  "print the reference of every scenario key (Markdown), or only\n"
	  "of the keys starting with PREFIX (run., switch.dt., workloads.0.)" },
	{ "default-scenario", "default-scenario", "print the embedded default scenario" },
};

static const char options_help[] =
	"options: --opt VALUE and --opt=VALUE are the same; --seed N is --set run.seed=N;\n"
	"         --quiet (-q) prints nothing on stdout and no progress line\n";

/* The synopsis, then the text indented to column 22 (on the synopsis's last line when it
 * leaves room, as for `list`). */
static void print_command(FILE *f, const struct command_help *c, const char *indent)
{
	enum { COL = 22 };
	int col = 0;
	for (const char *t = c->synopsis; *t;) {
		size_t n = strcspn(t, "\n");
		col = fprintf(f, "%s%.*s", t == c->synopsis ? indent : "", (int)n, t);
		t += n;
		if (*t) {
			fputc('\n', f);
			t++;
		}
	}
	bool same_line = *indent && col < COL - 1;
	if (!same_line)
		fputc('\n', f);
	for (const char *t = c->text; *t;) {
		size_t n = strcspn(t, "\n");
		fprintf(f, "%*s%.*s\n", same_line ? COL - col : COL, "", (int)n, t);
		same_line = false;
		t += n + (t[n] == '\n');
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: sharebuf COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < SB_ARRAY_LEN(commands); i++)
		print_command(f, &commands[i], "  ");
	fprintf(f, "  --help, --version   (and `sharebuf COMMAND --help`)\n\n%s\n"
		   "docs: docs/scenario.md (file format), docs/outputs.md (output columns),\n"
		   "      docs/compare.md (compare), docs/sweep.md (sweep)\n",
		options_help);
}

/* `sharebuf CMD --help`. */
static int command_usage(const char *name)
{
	for (size_t i = 0; i < SB_ARRAY_LEN(commands); i++)
		if (!strcmp(commands[i].name, name)) {
			printf("usage: sharebuf ");
			print_command(stdout, &commands[i], "");
			if (!strcmp(name, "run") || !strcmp(name, "compare"))
				printf("\n%s", options_help);
			printf("\ndocs: %s\n", !strcmp(name, "compare") ? "docs/compare.md"
						 : !strcmp(name, "sweep")   ? "docs/sweep.md"
						 : !strcmp(name, "run")   ? "docs/outputs.md, docs/scenario.md"
						 : !strcmp(name, "params") ? "docs/scenario-keys.md, docs/scenario.md"
									  : "README.md");
			return 0;
		}
	return 2;
}

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
static int cmd_list(int argc, char **argv)
{
	int only = -1;
	if (argc > 0 && sb_args_is_help(argv[0]))
		return command_usage("list");
	if (argc > 1) {
		fprintf(stderr, "sharebuf: list: one group at most, got %s and %s\n", argv[0], argv[1]);
		return 2;
	}
	if (argc == 1) {
		for (size_t g = 0; g < SB_ARRAY_LEN(list_groups); g++) {
			size_t n = strlen(argv[0]);
			/* "scheme" for "schemes" too */
			if (!strcmp(argv[0], list_groups[g]) ||
			    (n + 1 == strlen(list_groups[g]) && !strncmp(argv[0], list_groups[g], n)))
				only = (int)g;
		}
		if (only < 0) {
			fprintf(stderr, "sharebuf: list: unknown group \"%s\", expected one of "
					"schemes|transports|workloads|topologies\n", argv[0]);
			return 2;
		}
	}
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
		for (int i = 0; i < SB_WL_N; i++)
			printf("  %s\n", sb_workload_type_name[i]);
	}
	if (only < 0 || only == 3)
		printf("topologies (topology.type):\n  single\n  leafspine\n  fattree\n");
	return 0;
}

/* `params [PREFIX]`: the whole reference, or its sections cut down to the keys that start with
 * PREFIX. The reference is generated once and filtered, so the two cannot disagree. */
static int cmd_params(int argc, char **argv)
{
	if (argc > 0 && sb_args_is_help(argv[0]))
		return command_usage("params");
	if (argc > 1) {
		fprintf(stderr, "sharebuf: params: one key prefix at most, got %s and %s\n", argv[0], argv[1]);
		return 2;
	}
	if (argc == 0) {
		sb_cfg_write_reference(stdout);
		return 0;
	}
	/* workloads.3.load is documented as workloads.N.load */
	char prefix[256];
	const char *p = argv[0];
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

static int cmd_run(int argc, char **argv)
{
	static const char *const valued[] = { "--set", "--seed", "--out" };
	const char *path = NULL, *out = "out";
	const char **sets = calloc((size_t)argc + 1, sizeof(*sets));
	size_t nsets = 0;
	char seed_set[64];
	bool quiet = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *opt = NULL, *v = NULL;
		int st = sb_args_valued(argc, argv, &i, valued, SB_ARRAY_LEN(valued), &opt, &v);
		if (st == 1 && !strcmp(opt, "--set") && sb_args_set(v, i + 1 < argc ? argv[i + 1] : NULL))
			st = 2;
		if (st == 1 && !strcmp(opt, "--seed") && sb_args_seed(v, seed_set, sizeof(seed_set)))
			st = 2;
		if (st == 2) {
			free(sets);
			return 2;
		}
		if (opt && !strcmp(opt, "--out")) {
			out = v;
		} else if (opt && !strcmp(opt, "--seed")) {
			sets[nsets++] = seed_set;
		} else if (opt) {
			sets[nsets++] = v;
		} else if (sb_args_is_help(a)) {
			free(sets);
			return command_usage("run");
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = true;
		} else if (a[0] == '-') {
			fprintf(stderr, "sharebuf: run: unknown option %s (see sharebuf run --help)\n", a);
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
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &err);
	if (rc) {
		free(sets);
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
		free(sets);
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
	free(sets);
	return rc;
}

int main(int argc, char **argv)
{
	sb_heap_use_huge_pages(); /* large networks: fewer TLB misses (hugepages.h) */
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
		printf("sharebuf %s (commit %s)\n", sb_version, sb_git_commit);
		return 0;
	}
	/* the commands that write into --out clean up after themselves when a signal stops them */
	if (!strcmp(cmd, "run") || !strcmp(cmd, "compare") || !strcmp(cmd, "sweep"))
		sb_outdir_signals();
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(cmd, "compare")) {
		for (int i = 2; i < argc; i++)
			if (sb_args_is_help(argv[i]))
				return command_usage("compare");
		return sb_cmd_compare(argc - 2, argv + 2, cmd_run);
	}
	if (!strcmp(cmd, "sweep")) {
		for (int i = 2; i < argc; i++)
			if (sb_args_is_help(argv[i]))
				return command_usage("sweep");
		return sb_cmd_sweep(argc - 2, argv + 2, cmd_run);
	}
	if (!strcmp(cmd, "list"))
		return cmd_list(argc - 2, argv + 2);
	if (!strcmp(cmd, "params"))
		return cmd_params(argc - 2, argv + 2);
	if (!strcmp(cmd, "default-scenario")) {
		if (argc > 2 && sb_args_is_help(argv[2]))
			return command_usage("default-scenario");
		if (argc > 2) {
			fprintf(stderr, "sharebuf: default-scenario: takes no argument, got %s\n", argv[2]);
			return 2;
		}
		fputs(sb_default_scenario, stdout);
		return 0;
	}
	fprintf(stderr, "sharebuf: unknown command '%s' (see sharebuf --help)\n", cmd);
	return 2;
}
