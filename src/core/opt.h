/*
 * opt.h — the one option grammar of sharebuf, sharebuf-switch and sharebuf-load (core/cmd.h
 * gives each program its table of commands). A command declares its options in a table; the
 * parser reads argv against it, so every program and command accepts the same forms and
 * refuses with the same words:
 *
 *   --opt VALUE and --opt=VALUE     the same for every option with a value; the word after
 *                                   --opt is its value whatever it is (--out --x: out is
 *                                   "--x"), and --opt= gives the empty value
 *   -q, -j N                        a one-dash alias, its value as the next word only
 *   --                              ends the options: every later word is an argument
 *   -                               an argument (a word, not an option)
 *   --help, -h                      anywhere among the options: the command's usage, nothing
 *                                   else is looked at (the parser says SB_OPT_HELP)
 *
 * A mistake is one line on stderr, prefixed with who is speaking ("sharebuf run: ",
 * "sharebuf-switch: "), and the parser returns 2, the programs' exit status for a usage error:
 *
 *   WHO: unknown option '--x' (see 'WHO --help')
 *   WHO: --out expects a value (--out DIR)
 *   WHO: --quiet takes no value, got '1'                  (--quiet=1)
 *   WHO: --out given twice (see 'WHO --help')           (unless SB_OPT_REPEAT)
 *   WHO: unexpected argument 'b' (see 'WHO --help')
 *   WHO: expected SCENARIO (see 'WHO --help')
 *   WHO: --jobs expects a whole number from 1 to 4096, got 'x'     (sb_opt_whole)
 *
 * Why one table and not a loop of strcmp per program: the three programs had three grammars
 * (`--out=DIR` worked in one and was an unknown option in another), and a command's --help
 * drifted from what it accepted. The table is both the grammar and the help.
 */
#ifndef SB_OPT_H
#define SB_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/util.h"

/* A list of words the parser collects: a repeatable option's values, the arguments. Values
 * are borrowed from argv unless added with sb_opt_list_own (freed with the list). */
struct sb_opt_list {
	const char **v;
	size_t n;
	char **own;
	size_t nown;
};
void sb_opt_list_add(struct sb_opt_list *l, const char *s);
void sb_opt_list_own(struct sb_opt_list *l, char *s); /* s malloc'd: the list frees it */
void sb_opt_list_free(struct sb_opt_list *l);

struct sb_opt;

/* One use of an option, handed to its handler. */
struct sb_opt_call {
	const char *who;          /* "sharebuf run": the prefix of every message */
	const struct sb_opt *opt;
	const char *value;        /* its value; NULL for a flag */
	const char *next;         /* the word after the option (NULL if none), for a hint */
	void *opts;               /* the command's options struct */
};

/* An option's destination in the command's options struct. */
#define SB_OPT_DEST(c, type) ((type *)((char *)(c)->opts + (c)->opt->offset))

/* A handler: 0, or an exit status after reporting (sb_opt_error). */
typedef int sb_opt_fn(const struct sb_opt_call *c);

enum {
	SB_OPT_REPEAT = 1,   /* may be given more than once (each use calls the handler) */
	SB_OPT_REQUIRED = 2, /* must be given: "WHO: expected --out DIR (see 'WHO --help')" */
};

struct sb_opt {
	const char *name;   /* "--out"; NULL ends the table */
	const char *alias;  /* "-q", or NULL */
	const char *arg;    /* the value's name in the usage, "DIR"; NULL: a flag */
	unsigned flags;     /* SB_OPT_REPEAT, SB_OPT_REQUIRED */
	sb_opt_fn *fn;      /* what a use does: one of the handlers below or the command's own */
	size_t offset;      /* the destination: offsetof(the command's options struct, field) */
	long long lo, hi;   /* sb_opt_whole's bounds (hi = SB_OPT_NO_MAX: none) */
	const char *help;   /* one line (or more, '\n'-separated) for the usage */
};

#define SB_OPT_NO_MAX 9223372036854775807LL

/* The handlers most options need; the destination is at opt->offset. */
int sb_opt_string(const struct sb_opt_call *c); /* const char *: the value */
int sb_opt_true(const struct sb_opt_call *c);   /* bool: true (a flag) */
int sb_opt_append(const struct sb_opt_call *c); /* struct sb_opt_list: the value added */
/* struct sb_opt_list: a KEY=VALUE (a non-empty KEY) added; "--set run.seed 3" is refused with
 * what to write instead, "--set run.seed=3" (the next word was once taken for a file). */
int sb_opt_key_value(const struct sb_opt_call *c);
/* long long: a whole number in decimal digits (sb_parse_digits) in [opt->lo, opt->hi]. */
int sb_opt_whole(const struct sb_opt_call *c);
/* The whole number of sb_opt_whole for a handler of its own: 0 with *out set, or 2 reported. */
int sb_opt_whole_value(const struct sb_opt_call *c, long long *out);

/* "WHO: " fmt "\n" on stderr; returns 2. */
int sb_opt_error(const struct sb_opt_call *c, const char *fmt, ...) SB_PRINTF(2, 3);

/* What a command accepts. */
struct sb_opt_spec {
	const char *who;             /* "sharebuf run" */
	const struct sb_opt *opts;   /* NULL-name terminated, or NULL: none */
	const char *args;            /* the arguments as the usage names them, "[SCENARIO]" */
	unsigned min_args, max_args; /* how many; max SB_OPT_MANY: no limit */
};
#define SB_OPT_MANY (~0u)
#define SB_OPT_HELP (-1)

/* Read argv (the words after the command) into opts (through the handlers, in the order
 * given) and the arguments into *args (which the caller frees with sb_opt_list_free, whatever
 * the outcome). Returns 0; SB_OPT_HELP when --help or -h is among the options (nothing else
 * read, nothing reported); or 2 after reporting a mistake. */
int sb_opt_parse(const struct sb_opt_spec *s, int argc, char **argv, void *opts, struct sb_opt_list *args);

/* The synopsis of the options, " [--set KEY=VALUE]... [--out DIR]", wrapped before `width`
 * columns with continuation lines indented by `indent`; `col` is the column it starts at.
 * Returns the column it ends at. */
int sb_opt_synopsis(FILE *f, const struct sb_opt *opts, int col, int indent, int width);
/* The options' list for a usage, one per line: "  -q, --quiet        HELP". */
void sb_opt_print_help(FILE *f, const struct sb_opt *opts);

#endif
