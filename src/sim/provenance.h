/*
 * provenance.h — what a run's outputs say about how they were made (docs/outputs.md §3.1):
 * the program's version and the git commit it was built from, the command line, the --set
 * overrides, and the SHA-256 of the resolved scenario (DIR/scenario.cfg, cli/cfgfile.h).
 *
 * The hash is what `sharebuf sweep` compares to decide that a finished run is the run it
 * would make (docs/sweep.md): it covers the resolved scenario's text, which holds every value
 * the simulation reads, and nothing about where or when the run was made.
 */
#ifndef SB_PROVENANCE_H
#define SB_PROVENANCE_H

#include <jansson.h>
#include <stddef.h>
#include "core/util.h"

struct sb_scenario;

/* The program's version, and the commit it was built from: `git rev-parse` of the checkout at
 * build time with "-dirty" when tracked files differed from it, or "unknown" outside a git
 * checkout (tools/git-commit.sh writes it into BUILD/gen/commit.c). */
extern const char sb_version[];
extern const char sb_git_commit[];

#define SB_SHA256_HEX 65 /* 64 hex digits and the NUL */

/* SHA-256 of `len` bytes as lower-case hex (nettle's implementation). */
void sb_sha256_hex(const void *data, size_t len, char out[SB_SHA256_HEX]);

/* A file a run read, and the SHA-256 of its contents when the run was set up. */
struct sb_provenance_input {
	char *path;                       /* absolute */
	char sha256[SB_SHA256_HEX];
};

struct sb_provenance {
	const char *scenario_text;        /* the resolved scenario, written as DIR/scenario.cfg */
	char scenario_sha256[SB_SHA256_HEX]; /* of scenario_text */
	char *command_line;               /* "sharebuf run ARGS", each argument shell-quoted */
	const char *const *overrides;     /* the --set values in order (--seed N as run.seed=N) */
	size_t noverrides;
	struct sb_provenance_input *inputs; /* sb_provenance_add_inputs; NULL: none */
	size_t ninputs;
};

/* Fill p for a run of `command` ("run") with `argc` arguments `argv` (after the command), its
 * overrides and its resolved scenario text (borrowed, not copied). Free with
 * sb_provenance_free. */
void sb_provenance_init(struct sb_provenance *p, const char *command, int argc, char **argv,
			const char *const *overrides, size_t noverrides, const char *scenario_text);
void sb_provenance_free(struct sb_provenance *p);

/* SHA-256 of the regular file at `path` (read in pieces: a flow list may be large). Returns 0,
 * or -1 with "cannot read PATH: why" in err. */
int sb_sha256_file(const char *path, char out[SB_SHA256_HEX], struct sb_error *err);

/*
 * The files the scenario `sc` reads, as absolute paths (a malloc'd array of *n malloc'd
 * strings), each once, in a fixed order: the scenario file and every file it @included (the
 * files its keys came from), then each workload's CDF file (not a built-in CDF) and flow list,
 * in workload order. The resolved scenario names a CDF or flow list by its path only: its
 * contents are what these files' hashes add (docs/outputs.md §3).
 */
char **sb_provenance_input_files(const struct sb_scenario *sc, size_t *n);
void sb_provenance_input_files_free(char **files, size_t n);

/* Hash every file of sb_provenance_input_files(sc) into p->inputs. Returns 0, or -1 with err
 * set (a file that cannot be read). */
int sb_provenance_add_inputs(struct sb_provenance *p, const struct sb_scenario *sc, struct sb_error *err);

/* summary.json's "provenance" object: version, commit, command_line, overrides,
 * scenario_sha256, inputs ([ { path, sha256 }, ... ]). */
json_t *sb_provenance_json(const struct sb_provenance *p);

/* `arg` quoted for a POSIX shell when it needs to be (appended to the malloc'd *buf). */
void sb_shell_quote_append(char **buf, size_t *len, const char *arg);

#endif
