/*
 * cfgfile.h — reading a scenario file (libconfig syntax) and `--set` overrides into a
 * struct sb_scenario, and printing the reference of every key.
 *
 * The file layout (docs/scenario.md): groups run, topology, switch, host and tcp whose keys are those
 * of the parameter tables in src/scenario/scenario.c; inside switch, a group named after a scheme
 * (switch.dt, ...) holds that scheme's parameters; `workloads` is a list of groups, each with
 * a `type`. Every error names its place as "FILE:LINE: KEY: what was expected" (or
 * "--set KEY: ..." for an override), so a user can fix it without reading code.
 */
#ifndef SB_CFGFILE_H
#define SB_CFGFILE_H

#include <stddef.h>
#include <stdio.h>
#include "core/util.h"
#include "scenario/scenario.h"

/*
 * Read the scenario at `path` (or, when path is NULL, the libconfig text `text`, named
 * "(default)" in messages; both NULL = no file) into `sc`, which must already hold values
 * (sb_scenario_defaults, or an earlier load): keys the file sets replace them, a `workloads`
 * list replaces the previous workloads. Then apply each of the `nsets` overrides "KEY=VALUE"
 * (dotted key, e.g. switch.dt.alpha=0.5 or workloads.0.load=0.3; the VALUE is parsed as by
 * sb_param_set_text, so bare strings are fine; workloads.N.type=T with N = the number of
 * workloads appends one). sc->source becomes the file name.
 * Returns 0, or -1 with a message in err; on failure sc is still safe to sb_scenario_free().
 * Cross-field checks are sb_scenario_validate()'s job, not this function's.
 */
int sb_cfg_load(struct sb_scenario *sc, const char *path, const char *text, const char *const *sets,
		size_t nsets, struct sb_error *err);

/* A scenario file, and each file it @includes, must be a regular file of at most this size
 * (scenarios are a few KB; a larger file is almost certainly not one). */
#define SB_CFG_MAX_BYTES (16 << 20)

/*
 * The whole of the file at `path` (`shown` names it in messages), which must be a regular file
 * of at most `max` bytes: a FIFO would block for ever and /dev/zero never end. `what` says what
 * it should be ("a scenario", "a sweep spec") in the message of a file too large. *out is
 * malloc'd and NUL-terminated, *len its length. Returns 0, or -1 with err set. The scenario
 * reader checks its files with it; so do the other readers of whole input files (sweep).
 */
int sb_cfg_read_whole(const char *path, const char *shown, const char *what, size_t max, size_t *len, char **out,
		      struct sb_error *err);

/*
 * Parse a libconfig file at `path` (or, when path is NULL, the text `text`), named `name` in
 * messages, into `cfg` (config_init'ed by the caller) with every check the scenario reader
 * makes before libconfig sees the text: a regular file of at most SB_CFG_MAX_BYTES, each of
 * its @include files the same (to libconfig's depth), no NUL byte, no integer literal that
 * libconfig would silently wrap. @include is relative to the including file. Returns 0, or -1
 * with "FILE:LINE: what" in err. Shared by the scenario and sweep-spec readers.
 */
struct config_t;
int sb_cfg_parse(struct config_t *cfg, const char *path, const char *text, const char *name, struct sb_error *err);

/* Markdown reference of every key, scheme parameter and workload type (`sharebuf params`,
 * docs/scenario-keys.md). */
void sb_cfg_write_reference(FILE *f);

/*
 * The resolved scenario (cfg_write.c): every key of `sc`, defaults included, each scheme's and
 * each workload's, as a scenario file that sb_cfg_load reads back into the same values, so
 * that `sharebuf run FILE` alone repeats the run. File names are written absolute. The text
 * depends only on the values (no date, version or source name), so equal scenarios give
 * equal text.
 */
void sb_cfg_write_resolved(FILE *f, const struct sb_scenario *sc);
/* The same as a malloc'd string. */
char *sb_cfg_resolved_text(const struct sb_scenario *sc);

#endif
