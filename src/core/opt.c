/*
 * opt.c — the option parser of every program (see opt.h).
 */
#include "core/opt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A word the parser reads as an option (else an argument): "-" alone is an argument. */
static bool is_option_word(const char *a)
{
	return a[0] == '-' && a[1] != 0;
}

void sb_opt_list_add(struct sb_opt_list *l, const char *s)
{
	l->v = sb_xrealloc(l->v, (l->n + 2) * sizeof(*l->v));
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

void sb_opt_list_own(struct sb_opt_list *l, char *s)
{
	l->own = sb_xrealloc(l->own, (l->nown + 1) * sizeof(*l->own));
	l->own[l->nown++] = s;
	sb_opt_list_add(l, s);
}

void sb_opt_list_free(struct sb_opt_list *l)
{
	for (size_t i = 0; i < l->nown; i++)
		free(l->own[i]);
	free(l->own);
	free(l->v);
	*l = (struct sb_opt_list){ 0 };
}

int sb_opt_error(const struct sb_opt_call *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", c->who);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}

int sb_opt_string(const struct sb_opt_call *c)
{
	*SB_OPT_DEST(c, const char *) = c->value;
	return 0;
}

int sb_opt_true(const struct sb_opt_call *c)
{
	*SB_OPT_DEST(c, bool) = true;
	return 0;
}

int sb_opt_append(const struct sb_opt_call *c)
{
	sb_opt_list_add(SB_OPT_DEST(c, struct sb_opt_list), c->value);
	return 0;
}

int sb_opt_key_value(const struct sb_opt_call *c)
{
	const char *v = c->value, *eq = strchr(v, '=');
	if (eq && eq > v) {
		sb_opt_list_add(SB_OPT_DEST(c, struct sb_opt_list), v);
		return 0;
	}
	if (!eq && *v && c->next && !is_option_word(c->next))
		return sb_opt_error(c, "%s expects KEY=VALUE, got '%s'; write %s %s=%s", c->opt->name, v, c->opt->name, v,
				    c->next);
	return sb_opt_error(c, "%s expects KEY=VALUE, got '%s'", c->opt->name, v);
}

int sb_opt_whole_value(const struct sb_opt_call *c, long long *out)
{
	uint64_t x;
	const struct sb_opt *o = c->opt;
	if (sb_parse_digits(c->value, &x) == 0 && x >= (uint64_t)o->lo && x <= (uint64_t)o->hi) {
		*out = (long long)x;
		return 0;
	}
	if (o->hi == SB_OPT_NO_MAX)
		return sb_opt_error(c, "%s expects a whole number >= %lld, got '%s'", o->name, o->lo, c->value);
	return sb_opt_error(c, "%s expects a whole number from %lld to %lld, got '%s'", o->name, o->lo, o->hi,
			    c->value);
}

int sb_opt_whole(const struct sb_opt_call *c)
{
	return sb_opt_whole_value(c, SB_OPT_DEST(c, long long));
}

static bool is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* The option argv word `a` names ("--out", "--out=DIR", "-q"), or NULL; *eq gets the value of
 * the "=" form (NULL when there is none). */
static const struct sb_opt *find(const struct sb_opt *opts, const char *a, const char **eq)
{
	*eq = NULL;
	for (const struct sb_opt *o = opts; o && o->name; o++) {
		size_t n = strlen(o->name);
		if (!strncmp(a, o->name, n) && (a[n] == 0 || a[n] == '=')) {
			*eq = a[n] == '=' ? a + n + 1 : NULL;
			return o;
		}
		if (o->alias && !strcmp(a, o->alias))
			return o;
	}
	return NULL;
}

/* --help anywhere among the options wins over everything else, mistakes included, so that a
 * half-written command line can always ask for help. The words read as values (--out --help:
 * out is "--help") and those after "--" are not options. */
static bool asks_help(const struct sb_opt_spec *s, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq;
		if (!strcmp(a, "--"))
			return false;
		if (is_help(a))
			return true;
		const struct sb_opt *o = is_option_word(a) ? find(s->opts, a, &eq) : NULL;
		if (o && o->arg && !eq)
			i++;
	}
	return false;
}

int sb_opt_parse(const struct sb_opt_spec *s, int argc, char **argv, void *opts, struct sb_opt_list *args)
{
	if (asks_help(s, argc, argv))
		return SB_OPT_HELP;
	size_t nopts = 0;
	while (s->opts && s->opts[nopts].name)
		nopts++;
	unsigned char *seen = sb_xcalloc(nopts + 1, 1);
	struct sb_opt_call c = { .who = s->who, .opts = opts };
	int rc = 0;
	bool ended = false;
	for (int i = 0; i < argc && rc == 0; i++) {
		const char *a = argv[i], *eq = NULL;
		if (!ended && !strcmp(a, "--")) {
			ended = true;
			continue;
		}
		if (ended || !is_option_word(a)) {
			if (args->n >= s->max_args)
				rc = sb_opt_error(&c, "unexpected argument '%s' (see '%s --help')", a, s->who);
			else
				sb_opt_list_add(args, a);
			continue;
		}
		const struct sb_opt *o = find(s->opts, a, &eq);
		if (!o) {
			rc = sb_opt_error(&c, "unknown option '%.*s' (see '%s --help')", (int)strcspn(a, "="), a, s->who);
			continue;
		}
		c.opt = o;
		c.value = NULL;
		if (!o->arg && eq) {
			rc = sb_opt_error(&c, "%s takes no value, got '%s'", o->name, eq);
			continue;
		}
		if (o->arg) {
			if (!eq && i + 1 >= argc) {
				rc = sb_opt_error(&c, "%s expects a value (%s %s)", o->name, o->name, o->arg);
				continue;
			}
			c.value = eq ? eq : argv[++i];
		}
		size_t k = (size_t)(o - s->opts);
		if (seen[k] && !(o->flags & SB_OPT_REPEAT)) {
			rc = sb_opt_error(&c, "%s given twice (see '%s --help')", o->name, s->who);
			continue;
		}
		seen[k] = 1; /* a flag, not a count: 256 uses of a repeatable one must not read as none */
		c.next = i + 1 < argc ? argv[i + 1] : NULL;
		rc = o->fn(&c);
	}
	if (rc == 0 && args->n < s->min_args)
		rc = sb_opt_error(&c, "expected %s (see '%s --help')", s->args ? s->args : "an argument", s->who);
	for (size_t k = 0; rc == 0 && k < nopts; k++)
		if (s->opts[k].flags & SB_OPT_REQUIRED && !seen[k])
			rc = sb_opt_error(&c, "expected %s%s%s (see '%s --help')", s->opts[k].name,
					  s->opts[k].arg ? " " : "", s->opts[k].arg ? s->opts[k].arg : "", s->who);
	free(seen);
	return rc;
}

/* "[--set KEY=VALUE]..." and its length. */
static int item(char *buf, size_t n, const struct sb_opt *o)
{
	bool opt = !(o->flags & SB_OPT_REQUIRED);
	return snprintf(buf, n, "%s%s%s%s%s%s", opt ? "[" : "", o->name, o->arg ? " " : "", o->arg ? o->arg : "",
			opt ? "]" : "", o->flags & SB_OPT_REPEAT ? "..." : "");
}

int sb_opt_synopsis(FILE *f, const struct sb_opt *opts, int col, int indent, int width)
{
	for (const struct sb_opt *o = opts; o && o->name; o++) {
		char buf[128];
		int n = item(buf, sizeof(buf), o);
		if (col + 1 + n > width && col > indent) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%s", buf);
	}
	return col;
}

void sb_opt_print_help(FILE *f, const struct sb_opt *opts)
{
	enum { COL = 24 };
	for (const struct sb_opt *o = opts; o && o->name; o++) {
		int col = fprintf(f, "  %s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
				  o->arg ? " " : "", o->arg ? o->arg : "");
		const char *t = o->help ? o->help : "";
		bool first = true;
		if (col >= COL - 1) {
			fputc('\n', f);
			col = 0;
		}
		do {
			size_t n = strcspn(t, "\n");
			fprintf(f, "%*s%.*s%s\n", COL - (first ? col : 0), "", (int)n, t,
				first && o->flags & SB_OPT_REPEAT ? " (repeatable)" : "");
			first = false;
			t += n + (t[n] == '\n');
		} while (*t);
	}
	fprintf(f, "  -h, --help            this help\n");
}
