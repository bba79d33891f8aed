/*
 * param.h — self-describing parameters.
 *
 * Every tunable of sharebuf (scenario keys, scheme parameters, transport and workload knobs)
 * is declared once in a table of sb_param: name, type, where it lives in its struct, default,
 * unit, range and a one-line doc. The same table drives defaults, parsing and range checks of
 * the scenario file and of `--set`, the embedding API (sb_param_set_text), and the generated
 * reference in docs/scenario.md (`sharebuf params`). A key can therefore never be accepted but
 * undocumented, or documented but ignored.
 */
#ifndef SB_PARAM_H
#define SB_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/util.h"

enum sb_param_type {
	SB_P_INT,       /* int64_t */
	SB_P_DOUBLE,    /* double */
	SB_P_BOOL,      /* bool */
	SB_P_STRING,    /* char * (owned, freed by sb_params_free) */
	SB_P_ENUM,      /* int: index into `choices` */
	SB_P_PRIO,      /* double[8]: one number for all priorities, or a list of 8 */
	SB_P_INT_LIST,  /* struct sb_int_list */
	SB_P_STR_LIST,  /* struct sb_str_list */
};

struct sb_int_list {
	int64_t *v;
	size_t n;
};

/*
 * A list of strings. Each element keeps the scenario line that wrote it (0 for a default or a
 * --set value), because what the strings name (nodes, links) can only be checked once the
 * network is built, long after the reader, and the message must still point at the line.
 */
struct sb_str_list {
	char **v;
	int *line;
	size_t n;
};

struct sb_param {
	const char *name;
	enum sb_param_type type;
	size_t offset;               /* offsetof(struct owner, field) */
	const char *def;             /* default, as text in scenario syntax ("" for an empty list) */
	double min, max;             /* inclusive range for numbers (and list elements) */
	const char *unit;            /* "bytes", "us", "Gb/s", ... or "" */
	const char *const *choices;  /* SB_P_ENUM: NULL-terminated */
	const char *doc;
};

#define SB_PARAM_END { NULL, 0, 0, NULL, 0, 0, NULL, NULL, NULL }

const struct sb_param *sb_param_find(const struct sb_param *table, const char *name);

/* v as a message prints it, so that a value and a bound never look equal when they differ: a
 * whole number with all its digits (1000000000000001, not %g's 1e+15), any other number in
 * the fewest digits that read back as exactly v (0.1, 1e+30, 1000000000000000.5). Returns buf. */
#define SB_NUM_TEXT 40
const char *sb_param_num_text(double v, char buf[SB_NUM_TEXT]);

/* Set every parameter of `table` in `obj` to its default. */
void sb_params_defaults(const struct sb_param *table, void *obj);

/* Deep-copy every parameter of `table` from src to dst (dst's old values are freed). */
void sb_params_copy(const struct sb_param *table, void *dst, const void *src);

/* Free owned values (strings, lists) of `obj`. */
void sb_params_free(const struct sb_param *table, void *obj);

/*
 * Typed setters used by the scenario reader and by embedders. They check type and range and
 * fill `err` with "<key>: expected …" on failure (the caller prefixes the location).
 */
int sb_param_set_int(const struct sb_param *p, void *obj, int64_t v, struct sb_error *err);
int sb_param_set_double(const struct sb_param *p, void *obj, double v, struct sb_error *err);
int sb_param_set_bool(const struct sb_param *p, void *obj, bool v, struct sb_error *err);
int sb_param_set_string(const struct sb_param *p, void *obj, const char *v, struct sb_error *err);
/* For SB_P_PRIO and SB_P_INT_LIST: element i of n. */
int sb_param_set_elem(const struct sb_param *p, void *obj, size_t i, size_t n, double v,
		      struct sb_error *err);

/* For SB_P_STR_LIST: element i of n, written at scenario line `line` (0 = unknown). */
int sb_param_set_str_elem(const struct sb_param *p, void *obj, size_t i, size_t n, const char *v, int line,
			  struct sb_error *err);

/* Parse a value written as text (defaults, --set, embedding API). */
int sb_param_set_text(const struct sb_param *p, void *obj, const char *text, struct sb_error *err);

/* Human-readable type name ("number", "integer", "one of dt|cs", ...). */
void sb_param_type_text(const struct sb_param *p, char *buf, size_t n);

/* Print the table as a Markdown table (docs/scenario.md is generated from these). */
void sb_params_markdown(FILE *f, const char *prefix, const struct sb_param *table);

#define SB_FIELD(type, member) offsetof(type, member)

#endif
