/*
 * cmd.h — a program as a table of commands (sharebuf: run, compare, sweep, ...; sharebuf-load:
 * server, client, ...; sharebuf-switch: a table of one), each with its options table
 * (core/opt.h). The table is the dispatch, the program's --help and each command's --help,
 * so that what a program lists is what it runs and what a command's usage says is what it
 * parses:
 *
 *   PROGRAM --help | -h | help      the commands, each with its synopsis and summary
 *   PROGRAM --version               when the program has one
 *   PROGRAM COMMAND --help          the command's usage, generated from its table
 *   PROGRAM                         the program's usage on stderr, exit 2
 *   PROGRAM frob                    "PROGRAM: unknown command 'frob' (see 'PROGRAM --help')", 2
 *
 * A command that runs another (compare and sweep start `run` in each child) finds it in the
 * table by name (sb_cmd_lookup), so the program has one way to reach a command.
 */
#ifndef SB_CMD_H
#define SB_CMD_H

#include <stdio.h>
#include "core/opt.h"

struct sb_prog;
struct sb_cmd;

/* A command being run: the program, the command and the prefix of its messages. */
struct sb_cmd_call {
	const struct sb_prog *prog;
	const struct sb_cmd *cmd;
	char who[64]; /* "sharebuf run"; the program's name alone for a program of one command */
};

/* A command's function: the words after the command's name; the exit status. */
typedef int sb_cmd_fn(const struct sb_cmd_call *c, int argc, char **argv);

struct sb_cmd {
	const char *name;            /* NULL: the program's only command (sharebuf-switch) */
	const char *args;            /* its arguments as the usage names them, "[SCENARIO]", or NULL */
	unsigned min_args, max_args; /* how many (SB_OPT_MANY: no limit) */
	const struct sb_opt *opts;   /* its options, or NULL */
	const char *text;            /* what it does, '\n'-separated lines */
	const char *docs;            /* where it is documented, or NULL */
	sb_cmd_fn *fn;               /* NULL ends the table */
	/* Called before fn when the program starts the command from its command line (not when
	 * another command runs it through sb_cmd_run), or NULL: what the process as a whole needs
	 * (run's signal handlers). */
	void (*setup)(void);
};

struct sb_prog {
	const char *name;          /* "sharebuf" */
	const struct sb_cmd *cmds; /* ends with an entry of fn NULL */
	const char *notes;         /* printed after the commands by --help, or NULL */
	const char *version;       /* --version's line, or NULL: no --version */
};

/* The program's entry: argv[0] its name, argv[1] the command (a program of one command has
 * none). Returns the exit status. */
int sb_cmd_main(const struct sb_prog *p, int argc, char **argv);

/* The command `name` of the program as a call, for running it from another command. Returns
 * 0, or -1 when the table has no such command. */
int sb_cmd_lookup(const struct sb_prog *p, const char *name, struct sb_cmd_call *out);

/* The command's function on argv (the words after the command's name). */
int sb_cmd_run(const struct sb_cmd_call *c, int argc, char **argv);

#define SB_CMD_GO (-1)
/* sb_opt_parse with the command's table, its --help printed on stdout. Returns SB_CMD_GO to go
 * on, or the exit status to return: 0 after --help, 2 after a mistake (reported). *args is
 * the caller's to free (sb_opt_list_free) in either case. */
int sb_cmd_parse(const struct sb_cmd_call *c, int argc, char **argv, void *opts, struct sb_opt_list *args);

/* The command's usage ("usage: sharebuf run [SCENARIO] [--set KEY=VALUE]... ", its text,
 * its options, its docs) and the program's (its commands). */
void sb_cmd_usage(FILE *f, const struct sb_cmd_call *c);
void sb_prog_usage(FILE *f, const struct sb_prog *p);

#endif
