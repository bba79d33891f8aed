#include "core/param.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define AT(obj, p, T) ((T *)((char *)(obj) + (p)->offset))

const struct sb_param *sb_param_find(const struct sb_param *table, const char *name)
{
	for (const struct sb_param *p = table; p && p->name; p++)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

static int range_ok(const struct sb_param *p, double v)
{
	return !(v < p->min || v > p->max) && !isnan(v);
}

const char *sb_param_num_text(double v, char buf[SB_NUM_TEXT])
{
	if (v == floor(v) && fabs(v) < 1e21) {
		/* a whole number as one, every digit (%.0f of a double is its exact value) */
		snprintf(buf, SB_NUM_TEXT, "%.0f", v == 0 ? 0.0 : v);
		return buf;
	}
	/* the shortest %g that reads back as v: 0.1 stays 0.1, and 1e15 + 0.5 is not 1e+15 */
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, SB_NUM_TEXT, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf; /* nan and inf print as %g has them */
}

static int range_fail(const struct sb_param *p, double v, struct sb_error *err)
{
	char a[SB_NUM_TEXT], lo[SB_NUM_TEXT], hi[SB_NUM_TEXT];
	return sb_fail(err, "%s: %s is out of range, expected a value in [%s, %s]%s%s", p->name,
		       sb_param_num_text(v, a), sb_param_num_text(p->min, lo), sb_param_num_text(p->max, hi),
		       p->unit && *p->unit ? " " : "", p->unit ? p->unit : "");
}

void sb_param_type_text(const struct sb_param *p, char *buf, size_t n)
{
	switch (p->type) {
	case SB_P_INT: snprintf(buf, n, "an integer"); break;
	case SB_P_DOUBLE: snprintf(buf, n, "a number"); break;
	case SB_P_BOOL: snprintf(buf, n, "true or false"); break;
	case SB_P_STRING: snprintf(buf, n, "a string"); break;
	case SB_P_PRIO: snprintf(buf, n, "a number or a list of %d numbers (one per priority)", 8); break;
	case SB_P_INT_LIST: snprintf(buf, n, "a list of integers"); break;
	case SB_P_STR_LIST: snprintf(buf, n, "a list of strings"); break;
	case SB_P_ENUM: {
		size_t used = (size_t)snprintf(buf, n, "one of ");
		for (const char *const *c = p->choices; *c && used < n; c++)
			used += (size_t)snprintf(buf + used, n - used, "%s%s", c == p->choices ? "" : "|", *c);
		break;
	}
	}
}

/* Markdown table cells cannot hold a bare '|'. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static int type_fail(const struct sb_param *p, const char *got, struct sb_error *err)
{
	char t[256];
	sb_param_type_text(p, t, sizeof(t));
	return sb_fail(err, "%s: expected %s, got %s", p->name, t, got);
}

int sb_param_set_int(const struct sb_param *p, void *obj, int64_t v, struct sb_error *err)
{
	if (p->type == SB_P_DOUBLE || p->type == SB_P_PRIO)
		return sb_param_set_double(p, obj, (double)v, err);
	if (p->type == SB_P_INT_LIST)
		return sb_param_set_elem(p, obj, 0, 1, (double)v, err);
	if (p->type != SB_P_INT)
		return type_fail(p, "an integer", err);
	if (!range_ok(p, (double)v))
		return range_fail(p, (double)v, err);
	*AT(obj, p, int64_t) = v;
	return 0;
}

int sb_param_set_double(const struct sb_param *p, void *obj, double v, struct sb_error *err)
{
	if (p->type == SB_P_PRIO) {
		if (!range_ok(p, v))
			return range_fail(p, v, err);
		for (int i = 0; i < 8; i++)
			AT(obj, p, double)[i] = v;
		return 0;
	}
	if (p->type == SB_P_INT) {
		if (v != floor(v))
			return type_fail(p, "a fractional number", err);
		if (!range_ok(p, v)) /* before converting: (int64_t)1e300 is undefined */
			return range_fail(p, v, err);
		return sb_param_set_int(p, obj, (int64_t)v, err);
	}
	if (p->type != SB_P_DOUBLE)
		return type_fail(p, "a number", err);
	if (!range_ok(p, v))
		return range_fail(p, v, err);
	*AT(obj, p, double) = v;
	return 0;
}

int sb_param_set_bool(const struct sb_param *p, void *obj, bool v, struct sb_error *err)
{
	if (p->type != SB_P_BOOL)
		return type_fail(p, "a boolean", err);
	*AT(obj, p, bool) = v;
	return 0;
}

static void str_list_clear(struct sb_str_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l->line);
	*l = (struct sb_str_list){ NULL, NULL, 0 };
}

int sb_param_set_str_elem(const struct sb_param *p, void *obj, size_t i, size_t n, const char *v, int line,
			  struct sb_error *err)
{
	if (p->type != SB_P_STR_LIST)
		return type_fail(p, "a list of strings", err);
	struct sb_str_list *l = AT(obj, p, struct sb_str_list);
	if (i == 0) {
		str_list_clear(l);
		l->v = sb_xcalloc(n, sizeof(*l->v));
		l->line = sb_xcalloc(n, sizeof(*l->line));
		l->n = n;
	}
	if (i < l->n) {
		free(l->v[i]);
		l->v[i] = sb_xstrdup(v);
		l->line[i] = line;
	}
	return 0;
}

int sb_param_set_string(const struct sb_param *p, void *obj, const char *v, struct sb_error *err)
{
	if (p->type == SB_P_STR_LIST) /* one string is a list of one, as one number is for SB_P_INT_LIST */
		return sb_param_set_str_elem(p, obj, 0, 1, v, 0, err);
	if (p->type == SB_P_ENUM) {
		for (int i = 0; p->choices[i]; i++)
			if (strcmp(p->choices[i], v) == 0) {
				*AT(obj, p, int) = i;
				return 0;
			}
		char got[300];
		snprintf(got, sizeof(got), "\"%.256s\"", v);
		return type_fail(p, got, err);
	}
	if (p->type != SB_P_STRING)
		return type_fail(p, "a string", err);
	char **slot = AT(obj, p, char *);
	free(*slot);
	*slot = sb_xstrdup(v);
	return 0;
}

int sb_param_set_elem(const struct sb_param *p, void *obj, size_t i, size_t n, double v,
		      struct sb_error *err)
{
	if (p->type == SB_P_PRIO) {
		if (n != 8)
			return sb_fail(err, "%s: expected one number or a list of 8 (one per priority), got a list of %zu",
				       p->name, n);
		if (!range_ok(p, v))
			return range_fail(p, v, err);
		AT(obj, p, double)[i] = v;
		return 0;
	}
	if (p->type != SB_P_INT_LIST)
		return type_fail(p, "a list", err);
	if (v != floor(v))
		return type_fail(p, "a fractional number in the list", err);
	if (!range_ok(p, v))
		return range_fail(p, v, err);
	struct sb_int_list *l = AT(obj, p, struct sb_int_list);
	if (i == 0) {
		free(l->v);
		l->v = sb_xcalloc(n, sizeof(*l->v));
		l->n = n;
	}
	if (i < l->n)
		l->v[i] = (int64_t)v;
	return 0;
}

static const char *skip_ws(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static int parse_number(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno)
		return -1;
	end = (char *)skip_ws(end);
	if (*end)
		return -1;
	*out = v;
	return 0;
}

/*
 * The elements of a list in text form, split in place: "[a, b]", "(a, b)" or a bare "a, b".
 * Brackets must match and every element must hold something: `--set srcs=1,,2` is a typo, not
 * a list of three hosts, and "[1, 2" is a truncated list, not the list [1, 2]. On success *n
 * elements (trimmed, 0 for an empty list) are in elem[], which the caller frees.
 */
static int list_split(const struct sb_param *p, char *text, const char *orig, char ***elem, size_t *n,
		      struct sb_error *err)
{
	char *s = sb_trim(text);
	size_t len = strlen(s);
	bool opened = len && (s[0] == '[' || s[0] == '(');
	bool closed = len && (s[len - 1] == ']' || s[len - 1] == ')');
	*elem = NULL;
	*n = 0;
	if (opened || closed) {
		if (!opened || !closed || len < 2 || s[len - 1] != (s[0] == '[' ? ']' : ')'))
			return sb_fail(err, "%s: expected a list [a, b, ...] with matching brackets, got `%.200s`",
				       p->name, orig);
		s[len - 1] = 0;
		s++;
	}
	if (!*skip_ws(s))
		return 0;
	size_t count = 1;
	for (const char *c = s; *c; c++)
		count += *c == ',';
	char **e = sb_xcalloc(count, sizeof(*e));
	for (size_t i = 0; i < count; i++) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = 0;
		e[i] = sb_trim(s);
		if (!*e[i]) {
			free(e);
			return sb_fail(err, "%s: expected a list of %s, got an empty element in `%.200s`", p->name,
				       p->type == SB_P_STR_LIST ? "strings" : p->type == SB_P_INT_LIST ? "integers" : "numbers",
				       orig);
		}
		s = comma ? comma + 1 : s;
	}
	*elem = e;
	*n = count;
	return 0;
}

/* Number lists in text form: "[1, 2, 3]" or "1,2,3" or "(1,2)". An empty list empties an
 * integer list; a priority list needs one number or eight. */
static int set_list_text(const struct sb_param *p, void *obj, const char *text, struct sb_error *err)
{
	char *buf = sb_xstrdup(text), **e;
	size_t n;
	int rc = list_split(p, buf, text, &e, &n, err);
	if (rc == 0 && n == 0) {
		if (p->type == SB_P_PRIO) {
			rc = type_fail(p, "an empty list", err);
		} else {
			struct sb_int_list *l = AT(obj, p, struct sb_int_list);
			free(l->v);
			l->v = NULL;
			l->n = 0;
		}
	}
	/* every element parsed before any is stored: a failure leaves the old list */
	double *v = rc == 0 && n ? sb_xcalloc(n, sizeof(*v)) : NULL;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (parse_number(e[i], &v[i]))
			rc = type_fail(p, text, err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (n == 1 && p->type == SB_P_PRIO)
			rc = sb_param_set_double(p, obj, v[i], err);
		else
			rc = sb_param_set_elem(p, obj, i, n, v[i], err);
	}
	free(v);
	free(e);
	free(buf);
	return rc;
}

/* String lists in text form: "[\"a\", \"b\"]", "(a, b)" or "a,b"; quotes optional, no element
 * may contain a comma (none of the names such lists hold does). */
static int set_str_list_text(const struct sb_param *p, void *obj, const char *text, struct sb_error *err)
{
	char *buf = sb_xstrdup(text), **e;
	size_t n;
	int rc = list_split(p, buf, text, &e, &n, err);
	if (rc == 0 && n == 0)
		str_list_clear(AT(obj, p, struct sb_str_list));
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char *t = e[i];
		size_t tl = strlen(t);
		if (tl >= 2 && t[0] == '"' && t[tl - 1] == '"') {
			t[tl - 1] = 0;
			t++;
		}
		if (!*t)
			rc = sb_fail(err, "%s: expected a list of strings, got an empty element in `%s`", p->name, text);
		else
			sb_param_set_str_elem(p, obj, i, n, t, 0, err);
	}
	free(e);
	free(buf);
	return rc;
}

int sb_param_set_text(const struct sb_param *p, void *obj, const char *text, struct sb_error *err)
{
	double v;
	const char *t = skip_ws(text);
	switch (p->type) {
	case SB_P_INT:
	case SB_P_DOUBLE:
		if (parse_number(t, &v))
			return type_fail(p, *t ? t : "nothing", err);
		return sb_param_set_double(p, obj, v, err);
	case SB_P_BOOL:
		if (!strcmp(t, "true") || !strcmp(t, "1"))
			return sb_param_set_bool(p, obj, true, err);
		if (!strcmp(t, "false") || !strcmp(t, "0"))
			return sb_param_set_bool(p, obj, false, err);
		return type_fail(p, t, err);
	case SB_P_STRING:
	case SB_P_ENUM: {
		/* accept quoted or bare strings */
		size_t n = strlen(t);
		if (n >= 2 && t[0] == '"' && t[n - 1] == '"') {
			char *s = sb_xstrdup(t + 1);
			s[n - 2] = 0;
			int rc = sb_param_set_string(p, obj, s, err);
			free(s);
			return rc;
		}
		return sb_param_set_string(p, obj, t, err);
	}
	case SB_P_PRIO:
	case SB_P_INT_LIST:
		return set_list_text(p, obj, t, err);
	case SB_P_STR_LIST:
		return set_str_list_text(p, obj, t, err);
	}
	return type_fail(p, t, err);
}

void sb_params_defaults(const struct sb_param *table, void *obj)
{
	for (const struct sb_param *p = table; p && p->name; p++) {
		struct sb_error err;
		if (p->type == SB_P_STRING)
			*AT(obj, p, char *) = NULL;
		if (p->type == SB_P_INT_LIST)
			*AT(obj, p, struct sb_int_list) = (struct sb_int_list){ NULL, 0 };
		if (p->type == SB_P_STR_LIST)
			*AT(obj, p, struct sb_str_list) = (struct sb_str_list){ NULL, NULL, 0 };
		if (sb_param_set_text(p, obj, p->def ? p->def : "", &err)) {
			/* A bad default is a programming error, caught by the first test run. */
			fprintf(stderr, "sharebuf: internal error: bad default for %s: %s\n", p->name, err.msg);
			abort();
		}
	}
}

void sb_params_free(const struct sb_param *table, void *obj)
{
	for (const struct sb_param *p = table; p && p->name; p++) {
		if (p->type == SB_P_STRING) {
			free(*AT(obj, p, char *));
			*AT(obj, p, char *) = NULL;
		} else if (p->type == SB_P_INT_LIST) {
			struct sb_int_list *l = AT(obj, p, struct sb_int_list);
			free(l->v);
			l->v = NULL;
			l->n = 0;
		} else if (p->type == SB_P_STR_LIST) {
			str_list_clear(AT(obj, p, struct sb_str_list));
		}
	}
}

void sb_params_copy(const struct sb_param *table, void *dst, const void *src)
{
	for (const struct sb_param *p = table; p && p->name; p++) {
		const char *from = (const char *)src + p->offset;
		char *to = (char *)dst + p->offset;
		switch (p->type) {
		case SB_P_STRING: {
			char *const *sv = (char *const *)(const void *)from;
			free(*(char **)(void *)to);
			*(char **)(void *)to = *sv ? sb_xstrdup(*sv) : NULL;
			break;
		}
		case SB_P_INT_LIST: {
			const struct sb_int_list *l = (const struct sb_int_list *)(const void *)from;
			struct sb_int_list *d = (struct sb_int_list *)(void *)to;
			free(d->v);
			d->n = l->n;
			d->v = l->n ? sb_xcalloc(l->n, sizeof(*d->v)) : NULL;
			if (l->n)
				memcpy(d->v, l->v, l->n * sizeof(*d->v));
			break;
		}
		case SB_P_STR_LIST: {
			const struct sb_str_list *l = (const struct sb_str_list *)(const void *)from;
			struct sb_str_list *d = (struct sb_str_list *)(void *)to;
			str_list_clear(d);
			d->n = l->n;
			d->v = l->n ? sb_xcalloc(l->n, sizeof(*d->v)) : NULL;
			d->line = l->n ? sb_xcalloc(l->n, sizeof(*d->line)) : NULL;
			for (size_t i = 0; i < l->n; i++) {
				d->v[i] = sb_xstrdup(l->v[i]);
				d->line[i] = l->line[i];
			}
			break;
		}
		case SB_P_INT: memcpy(to, from, sizeof(int64_t)); break;
		case SB_P_DOUBLE: memcpy(to, from, sizeof(double)); break;
		case SB_P_BOOL: memcpy(to, from, sizeof(bool)); break;
		case SB_P_ENUM: memcpy(to, from, sizeof(int)); break;
		case SB_P_PRIO: memcpy(to, from, 8 * sizeof(double)); break;
		}
	}
}

void sb_params_markdown(FILE *f, const char *prefix, const struct sb_param *table)
{
	fprintf(f, "| key | type | default | unit | range | meaning |\n|---|---|---|---|---|---|\n");
	for (const struct sb_param *p = table; p && p->name; p++) {
		char t[256], range[64] = "";
		sb_param_type_text(p, t, sizeof(t));
		if (p->type == SB_P_INT || p->type == SB_P_DOUBLE || p->type == SB_P_PRIO ||
		    p->type == SB_P_INT_LIST)
			snprintf(range, sizeof(range), "%g … %g", p->min, p->max);
		fprintf(f, "| `%s%s` | ", prefix, p->name);
		md_cell(f, t);
		fprintf(f, " | `%s` | %s | %s | ", p->def && *p->def ? p->def : "(none)",
			p->unit && *p->unit ? p->unit : "", range);
		md_cell(f, p->doc);
		fprintf(f, " |\n");
	}
}
