/*
 * cfg_internal.h — what the three halves of the scenario reader share; not part of the API
 * (that is cfgfile.h).
 *
 * The reader is split by concept:
 *   cfgfile.c       reads the libconfig file (the only file that includes libconfig.h) and
 *                   implements sb_cfg_load;
 *   cfg_override.c  applies the `--set KEY=VALUE` overrides;
 *   cfg_reference.c writes the Markdown reference of every key (sb_cfg_write_reference);
 *   cfg_messages.c  holds what the first two both need: the table of scenario groups, the
 *                   lookups of a group, scheme or workload type by name, and the error messages
 *                   with their "did you mean" suggestions.
 * A file and an override must report the same mistake in the same words (only the place
 * differs: "FILE:LINE: KEY" or "--set KEY"), which is why the messages live in one file that
 * both call rather than in each reader.
 *
 * These names have external linkage inside libsharebuf.a, hence the cfg_ prefix.
 */
#ifndef SB_CFG_INTERNAL_H
#define SB_CFG_INTERNAL_H

#include <stddef.h>
#include "core/param.h"
#include "core/util.h"
#include "scenario/scenario.h"

/*
 * Room for a message's place: a file name, a line and a dotted key (the readers cut keys at
 * 200 characters and --set keys at 256), so snprintf truncates rather than overflows.
 */
#define CFG_PLACE_LEN 320

/* ---------- the scenario's groups ---------- */

/* A group that maps one-to-one onto a parameter table and a struct of the scenario. */
struct cfg_section {
	const char *name;
	const struct sb_param *table;
	size_t offset; /* of its struct in struct sb_scenario */
};

/* run, topology, switch, host, tcp, rdma, in the order the reference lists them. `workloads` is not
 * among them: it is a list of groups of several types, read separately. */
extern const struct cfg_section cfg_sections[];
extern const size_t cfg_nsections;

/* The section called `name`, or NULL. */
const struct cfg_section *cfg_find_section(const char *name);

/* The index of the scheme called `name` in sb_bm_all() (and in sc->scheme_params), or -1. */
int cfg_scheme_index(const char *name);

/* "poisson|incast|...": the accepted workload types, for messages. */

/* ---------- messages ----------
 * Each writes "PLACE: what" into err and returns -1 (cfg_int_range_fail: 0 when all is well),
 * so a reader can `return cfg_...(err, place, ...)`. */

int cfg_fail_place(struct sb_error *err, const char *place, const char *fmt, ...) SB_PRINTF(3, 4);

/*
 * Pass on a parameter setter's error. The setters write "<param name>: what", knowing only the
 * short name; the user needs the full key and the location, so the name becomes `place`.
 * `inner` may be `err` itself.
 */
int cfg_relay(struct sb_error *err, const char *place, const struct sb_param *p,
	      const struct sb_error *inner);

/* cfg_relay() for a string `value`: an unknown choice of an enum also gets a "did you mean". */
int cfg_relay_string(struct sb_error *err, const char *place, const struct sb_param *p,
		     const struct sb_error *inner, const char *value);

/*
 * Range-check `v` for an integer key before a setter converts it to int64_t: converting a
 * double beyond 2^63 is undefined behaviour, not an error. Returns 0 when `p` is not an
 * integer key or `v` is in range.
 */
int cfg_int_range_fail(struct sb_error *err, const char *place, const struct sb_param *p, double v);

/* A `type` that names no workload type. `got` describes the value as the user wrote it;
 * `name` is the bare string, if it was one (NULL otherwise), to suggest a close type. */
int cfg_workload_type_fail(const struct sb_workload_ops *const *types, struct sb_error *err, const char *place, const char *got, const char *name);

/* ---------- unknown keys, with "did you mean" ---------- */

/*
 * The closest known name to a mistyped one. Start with { name, NULL, 0 }, offer candidates
 * with the cfg_consider_* functions, then report with cfg_unknown_key(). A candidate counts
 * only within two edits (one for names of three letters or fewer), so a wild guess yields
 * no suggestion rather than a misleading one.
 */
struct cfg_suggestion {
	const char *name; /* as the user wrote it */
	const char *best; /* the closest candidate so far, or NULL */
	int dist;         /* its distance from name */
};

void cfg_consider_table(struct cfg_suggestion *s, const struct sb_param *table);
/* The scheme names: the subgroups of `switch`. */
void cfg_consider_schemes(struct cfg_suggestion *s);

/* "unknown key (did you mean PREFIXBEST?)", or, with no suggestion, a pointer to `sharebuf
 * params` for `group`. `prefix` is the group path with its dot ("switch."), so the suggestion
 * is a full key. */
int cfg_unknown_key(struct sb_error *err, const char *place, const char *prefix,
		    const struct cfg_suggestion *s, const char *group);

/* Key `name` of workload number `index` of `type`: when it is a key of another type, say so
 * instead of a bare "unknown" (the likely mistake is the type, not the key). */
int cfg_unknown_workload_key(const struct sb_workload_ops *const *types, struct sb_error *err, const char *place, size_t index,
			     const struct sb_workload_ops *type, const char *name);

/* A top-level group the scenario does not have. */
int cfg_unknown_group(struct sb_error *err, const char *place, const char *name);

/* ---------- --set (cfg_override.c) ---------- */

/* Apply one override "KEY=VALUE" to sc (see sb_cfg_load). Returns 0, or -1 with err set. */
int cfg_apply_override(struct sb_scenario *sc, const char *set, struct sb_error *err);

#endif
