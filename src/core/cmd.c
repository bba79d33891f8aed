/*
 * cmd.c — a program's table of commands: dispatch and usage (see cmd.h).
 */
#include "core/cmd.h"

#include <string.h>

enum {
	WIDTH = 96,   /* a synopsis wraps before this column */
	TEXT_COL = 22 /* where a command's summary starts in the program's --help */
};

static void call_of(const struct sb_prog *p, const struct sb_cmd *cmd, struct sb_cmd_call *c)
{
	c->prog = p;
	c->cmd = cmd;
	snprintf(c->who, sizeof(c->who), "%s%s%s", p->name, cmd->name ? " " : "", cmd->name ? cmd->name : "");
}

int sb_cmd_lookup(const struct sb_prog *p, const char *name, struct sb_cmd_call *out)
{
	for (const struct sb_cmd *cmd = p->cmds; cmd->fn; cmd++)
		if (cmd->name && !strcmp(cmd->name, name)) {
			call_of(p, cmd, out);
			return 0;
		}
	return -1;
}

int sb_cmd_run(const struct sb_cmd_call *c, int argc, char **argv)
{
	return c->cmd->fn(c, argc, argv);
}

/* "NAME ARGS [--opt V]..." from column `col`, continuation lines indented by `indent`.
 * Returns the column it ends at. */
static int synopsis(FILE *f, const struct sb_cmd *cmd, int col, int indent)
{
	if (cmd->name)
		col += fprintf(f, "%s", cmd->name);
	if (cmd->args)
		col += fprintf(f, "%s%s", cmd->name ? " " : "", cmd->args);
	return sb_opt_synopsis(f, cmd->opts, col, indent, WIDTH);
}

/* Lines of `text`, each indented to `col`; the first from column `at` (< col) when at > 0. */
static void indented(FILE *f, const char *text, int col, int at)
{
	for (const char *t = text; t && *t;) {
		size_t n = strcspn(t, "\n");
		fprintf(f, "%*s%.*s\n", col - at, "", (int)n, t);
		at = 0;
		t += n + (t[n] == '\n');
	}
}

void sb_cmd_usage(FILE *f, const struct sb_cmd_call *c)
{
	int col = fprintf(f, "usage: %s ", c->prog->name);
	synopsis(f, c->cmd, col, 8);
	fputs("\n\n", f);
	indented(f, c->cmd->text, 0, 0);
	fputs("\noptions:\n", f);
	sb_opt_print_help(f, c->cmd->opts);
	fputs("\n--opt VALUE and --opt=VALUE are the same; -- ends the options\n", f);
	if (c->cmd->docs)
		fprintf(f, "\ndocs: %s\n", c->cmd->docs);
}

void sb_prog_usage(FILE *f, const struct sb_prog *p)
{
	if (!p->cmds[0].name) { /* a program of one command */
		struct sb_cmd_call c;
		call_of(p, &p->cmds[0], &c);
		sb_cmd_usage(f, &c);
		return;
	}
	fprintf(f, "usage: %s COMMAND [ARGS]\n\ncommands:\n", p->name);
	for (const struct sb_cmd *cmd = p->cmds; cmd->fn; cmd++) {
		fputs("  ", f);
		int col = synopsis(f, cmd, 2, 10);
		/* the summary on the synopsis's last line when it leaves room, as for `list` */
		if (col < TEXT_COL - 1) {
			indented(f, cmd->text, TEXT_COL, col);
		} else {
			fputc('\n', f);
			indented(f, cmd->text, TEXT_COL, 0);
		}
	}
	fprintf(f, "  %-*s(and `%s COMMAND --help`)\n", TEXT_COL - 2, p->version ? "--help, --version" : "--help",
		p->name);
	if (p->notes)
		fprintf(f, "\n%s", p->notes);
}

int sb_cmd_parse(const struct sb_cmd_call *c, int argc, char **argv, void *opts, struct sb_opt_list *args)
{
	const struct sb_cmd *cmd = c->cmd;
	struct sb_opt_spec s = { c->who, cmd->opts, cmd->args, cmd->min_args, cmd->max_args };
	int rc = sb_opt_parse(&s, argc, argv, opts, args);
	if (rc == SB_OPT_HELP) {
		sb_cmd_usage(stdout, c);
		return 0;
	}
	return rc ? rc : SB_CMD_GO;
}

static int start(const struct sb_prog *p, const struct sb_cmd *cmd, int argc, char **argv)
{
	struct sb_cmd_call c;
	call_of(p, cmd, &c);
	if (cmd->setup)
		cmd->setup();
	return sb_cmd_run(&c, argc, argv);
}

int sb_cmd_main(const struct sb_prog *p, int argc, char **argv)
{
	if (!p->cmds[0].name) /* a program of one command: every word is the command's */
		return start(p, &p->cmds[0], argc - 1, argv + 1);
	if (argc < 2) {
		sb_prog_usage(stderr, p);
		return 2;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		sb_prog_usage(stdout, p);
		return 0;
	}
	if (p->version && !strcmp(name, "--version")) {
		printf("%s\n", p->version);
		return 0;
	}
	for (const struct sb_cmd *cmd = p->cmds; cmd->fn; cmd++)
		if (!strcmp(cmd->name, name))
			return start(p, cmd, argc - 2, argv + 2);
	fprintf(stderr, "%s: unknown command '%s' (see '%s --help')\n", p->name, name, p->name);
	return 2;
}
