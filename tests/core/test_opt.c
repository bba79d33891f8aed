/*
 * test_opt.c — the option parser and the command table of every program (core/opt.h,
 * core/cmd.h), on a table of its own: each rule of the grammar, each message word for word,
 * and the corner cases (--opt= is the empty value, -- ends the options, a value may begin with
 * "--", --help as a value is a value). The programs' use of it is tested by test_cli.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cmd.h"
#include "core/opt.h"

struct o {
	const char *out;
	struct sb_opt_list sets, files;
	long long jobs;
	bool quiet;
};

static const struct sb_opt table[] = {
	{ "--out", NULL, "DIR", 0, sb_opt_string, offsetof(struct o, out), 0, 0, "the directory" },
	{ "--set", NULL, "KEY=VALUE", SB_OPT_REPEAT, sb_opt_key_value, offsetof(struct o, sets), 0, 0, "a key" },
	{ "--jobs", "-j", "N", 0, sb_opt_whole, offsetof(struct o, jobs), 1, 4096, "how many" },
	{ "--file", NULL, "F", SB_OPT_REPEAT, sb_opt_append, offsetof(struct o, files), 0, 0, "a file\nof two lines" },
	{ "--quiet", "-q", NULL, 0, sb_opt_true, offsetof(struct o, quiet), 0, 0, "say nothing" },
	{ 0 },
};

/* What one parse gave: its status, stderr, the options and the arguments. */
struct res {
	int rc;
	char *err;
	struct o o;
	struct sb_opt_list args;
};

/* Parse the words of `line` (split at blanks; "''" is the empty word) with `table`, the
 * arguments [min, max], stderr captured. */
static struct res parse_with(const struct sb_opt_spec *spec, const char *line)
{
	static char buf[1024];
	char *argv[64];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = !strcmp(w, "''") ? w + 2 : w;
	argv[argc] = NULL;
	struct res r = { .o = { .jobs = -1 } };
	fflush(stderr);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	int saved = dup(STDERR_FILENO);
	dup2(fileno(tmp), STDERR_FILENO);
	r.rc = sb_opt_parse(spec, argc, argv, &r.o, &r.args);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	long n = ftell(tmp);
	r.err = calloc((size_t)n + 1, 1);
	rewind(tmp);
	if (n > 0)
		assert_int_equal(fread(r.err, 1, (size_t)n, tmp), (size_t)n);
	fclose(tmp);
	return r;
}

static struct res parse(const char *line)
{
	static const struct sb_opt_spec spec = { "prog cmd", table, "[A] [B]", 0, 2 };
	return parse_with(&spec, line);
}

static void res_free(struct res *r)
{
	free(r->err);
	sb_opt_list_free(&r->o.sets);
	sb_opt_list_free(&r->o.files);
	sb_opt_list_free(&r->args);
}

/* A parse that fails with exactly this message. */
static void expect_error(const char *line, const char *msg)
{
	struct res r = parse(line);
	char want[512];
	snprintf(want, sizeof(want), "prog cmd: %s\n", msg);
	if (r.rc != 2 || strcmp(r.err, want))
		fail_msg("[%s]: %d, %s, expected %s", line, r.rc, r.err, want);
	res_free(&r);
}

static void test_forms(void **state)
{
	(void)state;
	static const char *const forms[] = { "--out d --set a=1 -j 3 --set b=2 x -q",
					     "--out=d --set=a=1 --jobs=3 --set=b=2 x --quiet",
					     "x --jobs 3 --out d --set a=1 --set b=2 -q" };
	for (size_t f = 0; f < 3; f++) {
		struct res r = parse(forms[f]);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.err, "");
		assert_string_equal(r.o.out, "d");
		assert_int_equal(r.o.jobs, 3);
		assert_true(r.o.quiet);
		/* a repeatable option's values in their order */
		assert_int_equal(r.o.sets.n, 2);
		assert_string_equal(r.o.sets.v[0], "a=1");
		assert_string_equal(r.o.sets.v[1], "b=2");
		assert_null(r.o.sets.v[2]);
		assert_int_equal(r.args.n, 1);
		assert_string_equal(r.args.v[0], "x");
		res_free(&r);
	}
}

static void test_corners(void **state)
{
	(void)state;
	/* --opt= is the empty value */
	struct res r = parse("--out=");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.o.out, "");
	res_free(&r);
	/* the word after a valued option is its value, whatever it is */
	r = parse("--out --x --file -q --file=--help");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.o.out, "--x");
	assert_false(r.o.quiet);
	assert_int_equal(r.o.files.n, 2);
	assert_string_equal(r.o.files.v[0], "-q");
	assert_string_equal(r.o.files.v[1], "--help");
	res_free(&r);
	/* -- ends the options: later words are arguments, a second -- included */
	r = parse("-q -- --out --");
	assert_int_equal(r.rc, 0);
	assert_true(r.o.quiet);
	assert_null(r.o.out);
	assert_int_equal(r.args.n, 2);
	assert_string_equal(r.args.v[0], "--out");
	assert_string_equal(r.args.v[1], "--");
	res_free(&r);
	/* "-" is an argument */
	r = parse("- -q");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.args.n, 1);
	assert_string_equal(r.args.v[0], "-");
	res_free(&r);
	/* a name that only begins like an option's is not that option */
	expect_error("--outdir x", "unknown option '--outdir' (see 'prog cmd --help')");
	expect_error("--ou x", "unknown option '--ou' (see 'prog cmd --help')");
	/* a one-dash alias takes its value as the next word only */
	expect_error("-j=3", "unknown option '-j' (see 'prog cmd --help')");
	expect_error("-x", "unknown option '-x' (see 'prog cmd --help')");
}

static void test_help(void **state)
{
	(void)state;
	static const char *const help[] = { "--help", "-h", "--bogus --help", "a b c --help", "--jobs x -h",
					    "--out d --help", "--out=--help -h" };
	for (size_t i = 0; i < sizeof(help) / sizeof(help[0]); i++) {
		struct res r = parse(help[i]);
		if (r.rc != SB_OPT_HELP || *r.err)
			fail_msg("[%s]: %d, %s", help[i], r.rc, r.err);
		res_free(&r);
	}
	/* --help as a value, or after --, is not a request for help */
	struct res r = parse("--out --help");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.o.out, "--help");
	res_free(&r);
	r = parse("-- --help");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.args.v[0], "--help");
	res_free(&r);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("--bogus", "unknown option '--bogus' (see 'prog cmd --help')");
	expect_error("--bogus=1", "unknown option '--bogus' (see 'prog cmd --help')");
	expect_error("--out", "--out expects a value (--out DIR)");
	expect_error("a -j", "--jobs expects a value (--jobs N)");
	expect_error("--out a --out b", "--out given twice (see 'prog cmd --help')");
	expect_error("--out=a --out=a", "--out given twice (see 'prog cmd --help')");
	expect_error("-q --quiet", "--quiet given twice (see 'prog cmd --help')");
	expect_error("--quiet=1", "--quiet takes no value, got '1'");
	expect_error("--quiet=", "--quiet takes no value, got ''");
	expect_error("a b c", "unexpected argument 'c' (see 'prog cmd --help')");
	expect_error("-- a b c", "unexpected argument 'c' (see 'prog cmd --help')");
	/* the first mistake is the one reported */
	expect_error("--bogus --out", "unknown option '--bogus' (see 'prog cmd --help')");
	/* at least and at most: none of a command that takes none, an argument it needs */
	static const struct sb_opt_spec none = { "prog cmd", table, NULL, 0, 0 };
	struct res r = parse_with(&none, "x");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "prog cmd: unexpected argument 'x' (see 'prog cmd --help')\n");
	res_free(&r);
	static const struct sb_opt_spec two = { "prog cmd", table, "SPEC FILE...", 2, SB_OPT_MANY };
	r = parse_with(&two, "a -q");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "prog cmd: expected SPEC FILE... (see 'prog cmd --help')\n");
	res_free(&r);
	r = parse_with(&two, "a b c d e");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.args.n, 5);
	res_free(&r);
	/* a required option */
	static const struct sb_opt req_table[] = {
		{ "--out", NULL, "DIR", SB_OPT_REQUIRED, sb_opt_string, offsetof(struct o, out), 0, 0, "where" },
		{ 0 },
	};
	static const struct sb_opt_spec req = { "prog", req_table, NULL, 0, 0 };
	r = parse_with(&req, "");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "prog: expected --out DIR (see 'prog --help')\n");
	res_free(&r);
	r = parse_with(&req, "--out=x");
	assert_int_equal(r.rc, 0);
	res_free(&r);
	/* a required option that may repeat, given 300 times (the switch's --port): given */
	static const struct sb_opt many_table[] = {
		{ "--file", NULL, "F", SB_OPT_REPEAT | SB_OPT_REQUIRED, sb_opt_append, offsetof(struct o, files), 0, 0, "" },
		{ 0 },
	};
	static const struct sb_opt_spec many = { "prog", many_table, NULL, 0, 0 };
	char *argv[600];
	for (int i = 0; i < 600; i += 2) {
		argv[i] = "--file";
		argv[i + 1] = "f";
	}
	struct o o = { 0 };
	struct sb_opt_list args = { 0 };
	assert_int_equal(sb_opt_parse(&many, 512, argv, &o, &args), 0);
	assert_int_equal(o.files.n, 256);
	sb_opt_list_free(&o.files);
	assert_int_equal(sb_opt_parse(&many, 600, argv, &o, &args), 0);
	assert_int_equal(o.files.n, 300);
	sb_opt_list_free(&o.files);
	sb_opt_list_free(&args);
}

/* sb_opt_whole: decimal digits only (sb_parse_digits), within the bounds. */
static void test_whole(void **state)
{
	(void)state;
	static const struct {
		const char *v;
		long long want; /* -1: refused */
	} cases[] = {
		{ "1", 1 }, { "4096", 4096 }, { "007", 7 }, { "0", -1 }, { "4097", -1 }, { "", -1 }, { "+5", -1 },
		{ " 5", -1 }, { "5 ", -1 }, { "-1", -1 }, { "1e3", -1 }, { "0x10", -1 }, { "18446744073709551616", -1 },
		{ "9223372036854775808", -1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "--jobs", (char *)cases[i].v, NULL };
		static const struct sb_opt_spec spec = { "p", table, NULL, 0, 0 };
		struct o o = { .jobs = -1 };
		struct sb_opt_list args = { 0 };
		FILE *saved = stderr;
		stderr = fopen("/dev/null", "w");
		int rc = sb_opt_parse(&spec, 2, argv, &o, &args);
		fclose(stderr);
		stderr = saved;
		if (cases[i].want < 0 ? rc != 2 : rc != 0 || o.jobs != cases[i].want)
			fail_msg("--jobs '%s': %d, %lld", cases[i].v, rc, o.jobs);
		sb_opt_list_free(&args);
	}
	expect_error("--jobs x", "--jobs expects a whole number from 1 to 4096, got 'x'");
	expect_error("--jobs=", "--jobs expects a whole number from 1 to 4096, got ''");
	static const struct sb_opt open_table[] = {
		{ "--n", NULL, "N", 0, sb_opt_whole, offsetof(struct o, jobs), 0, SB_OPT_NO_MAX, "" },
		{ 0 },
	};
	static const struct sb_opt_spec open = { "prog cmd", open_table, NULL, 0, 0 };
	struct res r = parse_with(&open, "--n -3");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "prog cmd: --n expects a whole number >= 0, got '-3'\n");
	res_free(&r);
	r = parse_with(&open, "--n 9223372036854775807");
	assert_int_equal(r.rc, 0);
	assert_true(r.o.jobs == SB_OPT_NO_MAX);
	res_free(&r);
}

/* sb_opt_key_value: KEY=VALUE with a KEY; without "=", what to write instead. */
static void test_key_value(void **state)
{
	(void)state;
	expect_error("--set a", "--set expects KEY=VALUE, got 'a'");
	expect_error("--set a b", "--set expects KEY=VALUE, got 'a'; write --set a=b");
	expect_error("--set=a b", "--set expects KEY=VALUE, got 'a'; write --set a=b");
	expect_error("--set a -q", "--set expects KEY=VALUE, got 'a'");
	expect_error("--set =1", "--set expects KEY=VALUE, got '=1'");
	expect_error("--set=", "--set expects KEY=VALUE, got ''");
	struct res r = parse("--set a= --set=b==c");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.o.sets.v[0], "a=");
	assert_string_equal(r.o.sets.v[1], "b==c");
	res_free(&r);
}

/* The usage is generated from the table: every option, its value's name, its help. */
static void test_usage_text(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs("usage: prog", f);
	sb_opt_synopsis(f, table, 11, 6, 40);
	fputc('\n', f);
	sb_opt_print_help(f, table);
	fclose(f);
	static const char *const want[] = { " [--out DIR]", " [--set KEY=VALUE]...", "[--jobs N]", "[--file F]...",
					    "[--quiet]\n", "\n  --out DIR             the directory\n",
					    "\n  --set KEY=VALUE       a key (repeatable)\n",
					    "\n  -j, --jobs N          how many\n",
					    "\n  --file F              a file (repeatable)\n                        of two lines\n",
					    "\n  -q, --quiet           say nothing\n", "\n  -h, --help            this help\n" };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(text, want[i]))
			fail_msg("the usage lacks \"%s\":\n%s", want[i], text);
	/* wrapped before column 40, continued at column 6 */
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		if (l < strstr(text, "\n  --out"))
			assert_true(n < 40);
		l += n + (l[n] == '\n');
	}
	assert_non_null(strstr(text, "\n      [--"));
	free(text);
}

/* ---- the command table ---- */

static int calls, setups;
static char last_who[64];

static int cmd_fn(const struct sb_cmd_call *c, int argc, char **argv)
{
	struct o o = { 0 };
	struct sb_opt_list args = { 0 };
	int rc = sb_cmd_parse(c, argc, argv, &o, &args);
	sb_opt_list_free(&o.sets);
	sb_opt_list_free(&o.files);
	sb_opt_list_free(&args);
	if (rc != SB_CMD_GO)
		return rc;
	calls++;
	snprintf(last_who, sizeof(last_who), "%s", c->who);
	return 7;
}

static void setup_fn(void)
{
	setups++;
}

static const struct sb_cmd cmds[] = {
	{ "go", "[A]", 0, 1, table, "go somewhere", "docs/go.md", cmd_fn, setup_fn },
	{ "stay", NULL, 0, 0, NULL, "stay\nhere", NULL, cmd_fn, NULL },
	{ 0 },
};
static const struct sb_prog prog = { "prog", cmds, "notes\n", "prog 1.0" };

/* sb_cmd_main with stdout and stderr captured into *out and *err. */
static int main_of(const struct sb_prog *p, const char *line, char **out, char **err)
{
	static char buf[512];
	char *argv[32] = { "prog" };
	int argc = 1;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	fflush(NULL);
	FILE *fo = tmpfile(), *fe = tmpfile();
	int so = dup(STDOUT_FILENO), se = dup(STDERR_FILENO);
	dup2(fileno(fo), STDOUT_FILENO);
	dup2(fileno(fe), STDERR_FILENO);
	int rc = sb_cmd_main(p, argc, argv);
	fflush(NULL);
	dup2(so, STDOUT_FILENO);
	dup2(se, STDERR_FILENO);
	close(so);
	close(se);
	FILE *fs[2] = { fo, fe };
	char **dst[2] = { out, err };
	for (int i = 0; i < 2; i++) {
		long n = ftell(fs[i]);
		*dst[i] = calloc((size_t)n + 1, 1);
		rewind(fs[i]);
		if (n > 0)
			assert_int_equal(fread(*dst[i], 1, (size_t)n, fs[i]), (size_t)n);
		fclose(fs[i]);
	}
	return rc;
}

static void test_commands(void **state)
{
	(void)state;
	char *out, *err;
	calls = setups = 0;
	assert_int_equal(main_of(&prog, "go x -q", &out, &err), 7);
	assert_int_equal(calls, 1);
	assert_int_equal(setups, 1);
	assert_string_equal(last_who, "prog go");
	free(out), free(err);
	/* the program's --help: every command, its synopsis from its table, its summary */
	assert_int_equal(main_of(&prog, "--help", &out, &err), 0);
	assert_true(!strncmp(out, "usage: prog COMMAND [ARGS]\n\ncommands:\n", 38));
	assert_non_null(strstr(out, "\n  go [A] [--out DIR] [--set KEY=VALUE]... [--jobs N] [--file F]... [--quiet]\n"
				    "                      go somewhere\n"));
	assert_non_null(strstr(out, "\n  stay                stay\n                      here\n"));
	assert_non_null(strstr(out, "\n  --help, --version   (and `prog COMMAND --help`)\n\nnotes\n"));
	assert_string_equal(err, "");
	free(out), free(err);
	assert_int_equal(main_of(&prog, "help", &out, &err), 0);
	free(out), free(err);
	assert_int_equal(main_of(&prog, "--version", &out, &err), 0);
	assert_string_equal(out, "prog 1.0\n");
	free(out), free(err);
	/* a command's --help: its usage, options, docs; the command is not run */
	assert_int_equal(main_of(&prog, "go --bogus --help", &out, &err), 0);
	assert_true(!strncmp(out, "usage: prog go [A] [--out DIR]", 30));
	assert_non_null(strstr(out, "\n\ngo somewhere\n\noptions:\n  --out DIR "));
	assert_non_null(strstr(out, "\ndocs: docs/go.md\n"));
	assert_int_equal(calls, 1);
	free(out), free(err);
	assert_int_equal(main_of(&prog, "stay -h", &out, &err), 0);
	assert_non_null(strstr(out, "\noptions:\n  -h, --help "));
	free(out), free(err);
	/* no command, an unknown one, a mistake */
	assert_int_equal(main_of(&prog, "", &out, &err), 2);
	assert_string_equal(out, "");
	assert_true(!strncmp(err, "usage: prog COMMAND", 19));
	free(out), free(err);
	assert_int_equal(main_of(&prog, "frob", &out, &err), 2);
	assert_string_equal(err, "prog: unknown command 'frob' (see 'prog --help')\n");
	free(out), free(err);
	assert_int_equal(main_of(&prog, "stay x", &out, &err), 2);
	assert_string_equal(err, "prog stay: unexpected argument 'x' (see 'prog stay --help')\n");
	free(out), free(err);
	/* another command runs one through the table: no setup, the same parser */
	struct sb_cmd_call c;
	assert_int_equal(sb_cmd_lookup(&prog, "nosuch", &c), -1);
	assert_int_equal(sb_cmd_lookup(&prog, "go", &c), 0);
	assert_string_equal(c.who, "prog go");
	char *argv[] = { "-q", NULL };
	setups = 0;
	assert_int_equal(sb_cmd_run(&c, 1, argv), 7);
	assert_int_equal(setups, 0);
	assert_int_equal(calls, 2);
}

/* A program of one command: its words are the command's, its name the messages' prefix. */
static void test_single_command(void **state)
{
	(void)state;
	static const struct sb_cmd one[] = {
		{ NULL, "SCENARIO", 1, 1, table, "switch", NULL, cmd_fn, NULL },
		{ 0 },
	};
	static const struct sb_prog p = { "solo", one, NULL, NULL };
	char *out, *err;
	assert_int_equal(main_of(&p, "--help", &out, &err), 0);
	assert_true(!strncmp(out, "usage: solo SCENARIO [--out DIR]", 32));
	free(out), free(err);
	assert_int_equal(main_of(&p, "s.cfg --out=d", &out, &err), 7);
	assert_string_equal(last_who, "solo");
	free(out), free(err);
	assert_int_equal(main_of(&p, "", &out, &err), 2);
	assert_string_equal(err, "solo: expected SCENARIO (see 'solo --help')\n");
	free(out), free(err);
	assert_int_equal(main_of(&p, "--version", &out, &err), 2);
	assert_string_equal(err, "solo: unknown option '--version' (see 'solo --help')\n");
	free(out), free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),      cmocka_unit_test(test_corners),    cmocka_unit_test(test_help),
		cmocka_unit_test(test_errors),     cmocka_unit_test(test_whole),      cmocka_unit_test(test_key_value),
		cmocka_unit_test(test_usage_text), cmocka_unit_test(test_commands),   cmocka_unit_test(test_single_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
