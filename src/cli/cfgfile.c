/*
 * cfgfile.c — scenario files (libconfig syntax) and `--set` overrides.
 *
 * libconfig only parses; everything it hands back is checked here against the parameter
 * tables, so a key the tables do not know is an error (a typo must not silently fall back to
 * a default), and every message carries FILE:LINE and the full dotted key. Range checks are
 * the table setters' (one place decides what is valid); this file only relocates their
 * messages to the right line and key.
 */
#include "cli/cfgfile.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"

#define PLACE_LEN 320

static const char *const root_groups[] = { "run", "topology", "switch", "tcp", "workloads", NULL };

/* The groups that map one-to-one onto a parameter table and a struct of the scenario. */
static const struct section {
	const char *name;
	const struct sb_param *table;
	size_t offset; /* of its struct in struct sb_scenario */
} sections[] = {
	{ "run", sb_run_param_table, offsetof(struct sb_scenario, run) },
	{ "topology", sb_topo_param_table, offsetof(struct sb_scenario, topo) },
	{ "switch", sb_switch_param_table, offsetof(struct sb_scenario, sw) },
	{ "tcp", sb_tcp_param_table, offsetof(struct sb_scenario, tcp) },
};

static const struct section *find_section(const char *name)
{
	for (size_t i = 0; i < SB_ARRAY_LEN(sections); i++)
		if (strcmp(sections[i].name, name) == 0)
			return &sections[i];
	return NULL;
}

/* ---------- messages ---------- */

static int fail_place(struct sb_error *err, const char *place, const char *fmt, ...) SB_PRINTF(3, 4);
static int fail_place(struct sb_error *err, const char *place, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return sb_fail(err, "%s: %s", place, what);
}

/*
 * The setters write "<param name>: what"; the user needs the full key and the location, so
 * the short name is replaced by `place`. (Copied first: `inner` and `err` may be the same.)
 */
static int relay(struct sb_error *err, const char *place, const struct sb_param *p,
		 const struct sb_error *inner)
{
	char what[sizeof(inner->msg)];
	const char *m = inner->msg;
	size_t n = strlen(p->name);
	if (strncmp(m, p->name, n) == 0 && m[n] == ':' && m[n + 1] == ' ')
		m += n + 2;
	memcpy(what, m, strlen(m) + 1);
	return sb_fail(err, "%s: %s", place, what);
}

/*
 * "FILE:LINE: KEY" for a setting. `main` is the scenario's name. A setting from an @include'd
 * file carries the name written in the directive, which libconfig resolved against the main
 * file's directory (parse_config sets it as include dir), so we show that resolved path.
 */
static void file_place(char *buf, size_t n, const char *main, const config_setting_t *s,
		       const char *key)
{
	const char *file = s && config_setting_source_file(s) ? config_setting_source_file(s) : main;
	const char *slash = strrchr(main, '/');
	int dirlen = 0;
	if (file != main && strcmp(file, main) != 0 && file[0] != '/' && slash)
		dirlen = (int)SB_MIN(slash - main + 1, 200);
	unsigned line = s ? config_setting_source_line(s) : 0;
	if (line)
		snprintf(buf, n, "%.*s%s:%u: %s", dirlen, main, file, line, key);
	else
		snprintf(buf, n, "%.*s%s: %s", dirlen, main, file, key);
}

static void describe(const config_setting_t *s, char *buf, size_t n)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: snprintf(buf, n, "%lld", config_setting_get_int64(s)); break;
	case CONFIG_TYPE_FLOAT: snprintf(buf, n, "%g", config_setting_get_float(s)); break;
	case CONFIG_TYPE_BOOL: snprintf(buf, n, "%s", config_setting_get_bool(s) ? "true" : "false"); break;
	case CONFIG_TYPE_STRING: snprintf(buf, n, "\"%.200s\"", config_setting_get_string(s)); break;
	case CONFIG_TYPE_ARRAY:
	case CONFIG_TYPE_LIST: snprintf(buf, n, "a list of %d", config_setting_length(s)); break;
	case CONFIG_TYPE_GROUP: snprintf(buf, n, "a group"); break;
	default: snprintf(buf, n, "nothing"); break;
	}
}

static int mismatch(struct sb_error *err, const char *place, const struct sb_param *p,
		    const config_setting_t *s)
{
	char want[256], got[256];
	sb_param_type_text(p, want, sizeof(want));
	describe(s, got, sizeof(got));
	return fail_place(err, place, "expected %s, got %s", want, got);
}

/* ---------- "did you mean" ---------- */

/* Optimal string alignment distance: edits plus adjacent swaps, the usual typos. */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 99;
	int d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int best = SB_MIN(d[i - 1][j] + 1, d[i][j - 1] + 1);
			best = SB_MIN(best, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				best = SB_MIN(best, d[i - 2][j - 2] + 1);
			d[i][j] = best;
		}
	return d[la][lb];
}

struct suggestion {
	const char *name;
	const char *best;
	int dist;
};

static void consider(struct suggestion *s, const char *candidate)
{
	int d = edit_distance(s->name, candidate);
	/* Two edits turn any short word into another ("foo" into "off"): be stricter there. */
	int allowed = strlen(s->name) <= 3 ? 1 : 2;
	if (d <= allowed && (!s->best || d < s->dist)) {
		s->best = candidate;
		s->dist = d;
	}
}

static void consider_table(struct suggestion *s, const struct sb_param *table)
{
	for (const struct sb_param *p = table; p && p->name; p++)
		consider(s, p->name);
}

static void consider_schemes(struct suggestion *s)
{
	for (const struct sb_bm_ops *const *o = sb_bm_all(); *o; o++)
		consider(s, (*o)->name);
}

/* `prefix` is the group path with its dot ("switch."), so the suggestion is a full key. */
static int unknown_key(struct sb_error *err, const char *place, const char *prefix,
		       const struct suggestion *s, const char *group)
{
	if (s->best)
		return fail_place(err, place, "unknown key (did you mean %s%s?)", prefix, s->best);
	return fail_place(err, place, "unknown key (`sharebuf params` lists the keys of %s)", group);
}

/* For a workload key that belongs to another type: say so instead of a bare "unknown". */
static int unknown_workload_key(struct sb_error *err, const char *place, size_t index, int type,
				const char *name)
{
	for (int t = 0; t < SB_WL_N; t++)
		if (t != type && sb_param_find(sb_workload_param_table[t], name))
			return fail_place(err, place, "unknown key for a workload of type %s (%s is a key of type %s)",
					  sb_workload_type_name[type], name, sb_workload_type_name[t]);
	struct suggestion s = { name, NULL, 0 };
	consider_table(&s, sb_workload_param_table[type]);
	consider(&s, "type");
	char prefix[48], group[64];
	snprintf(prefix, sizeof(prefix), "workloads.%zu.", index);
	snprintf(group, sizeof(group), "a workload of type %s", sb_workload_type_name[type]);
	return unknown_key(err, place, prefix, &s, group);
}

static void workload_types_text(char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (int t = 0; t < SB_WL_N && used < n; t++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", t ? "|" : "", sb_workload_type_name[t]);
}

/* `got` describes the value as the user wrote it; `name` is the bare string, if it was one. */
static int workload_type_fail(struct sb_error *err, const char *place, const char *got, const char *name)
{
	char types[128];
	workload_types_text(types, sizeof(types));
	struct suggestion s = { name ? name : "", NULL, 0 };
	for (int t = 0; t < SB_WL_N; t++)
		consider(&s, sb_workload_type_name[t]);
	if (s.best)
		return fail_place(err, place, "expected one of %s, got %s (did you mean \"%s\"?)", types, got, s.best);
	return fail_place(err, place, "expected one of %s, got %s", types, got);
}

static int find_workload_type(const char *name)
{
	for (int t = 0; t < SB_WL_N; t++)
		if (strcmp(sb_workload_type_name[t], name) == 0)
			return t;
	return -1;
}

static int scheme_index(const char *name)
{
	const struct sb_bm_ops *const *all = sb_bm_all();
	for (int i = 0; all[i]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return i;
	return -1;
}

/* relay() for a string value: an unknown choice of an enum also gets a "did you mean". */
static int relay_string(struct sb_error *err, const char *place, const struct sb_param *p,
			const struct sb_error *inner, const char *value)
{
	relay(err, place, p, inner);
	if (p->type != SB_P_ENUM)
		return -1;
	struct suggestion s = { value, NULL, 0 };
	for (const char *const *c = p->choices; c && *c; c++)
		consider(&s, *c);
	size_t used = strlen(err->msg);
	if (s.best && used < sizeof(err->msg))
		snprintf(err->msg + used, sizeof(err->msg) - used, " (did you mean \"%s\"?)", s.best);
	return -1;
}

/*
 * Integer keys reached through a double must be range-checked before the setter converts
 * them to int64_t: a conversion of a value beyond 2^63 is undefined behaviour, not an error.
 */
static int int_range_fail(struct sb_error *err, const char *place, const struct sb_param *p, double v)
{
	if (p->type != SB_P_INT || (v >= p->min && v <= p->max))
		return 0;
	return fail_place(err, place, "%g is out of range, expected a value in [%g, %g]%s%s", v, p->min,
			  p->max, p->unit && *p->unit ? " " : "", p->unit ? p->unit : "");
}

/* ---------- values from the file ---------- */

static bool is_number(const config_setting_t *s)
{
	int t = config_setting_type(s);
	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64 || t == CONFIG_TYPE_FLOAT;
}

static double number_of(const config_setting_t *s)
{
	return config_setting_type(s) == CONFIG_TYPE_FLOAT ? config_setting_get_float(s)
							    : (double)config_setting_get_int64(s);
}

/* SB_P_PRIO and SB_P_INT_LIST from a libconfig list or array. */
static int set_list(const char *file, const struct sb_param *p, void *obj, const config_setting_t *s,
		    const char *key, struct sb_error *err)
{
	char place[PLACE_LEN];
	struct sb_error inner;
	int n = config_setting_length(s);
	file_place(place, sizeof(place), file, s, key);
	if (n == 0) {
		if (p->type == SB_P_PRIO)
			return mismatch(err, place, p, s);
		return sb_param_set_text(p, obj, "", &inner) ? relay(err, place, p, &inner) : 0;
	}
	if (p->type == SB_P_PRIO && n != 1 && n != SB_MMU_NPRIO)
		return mismatch(err, place, p, s);
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char elem_key[200];
		snprintf(elem_key, sizeof(elem_key), "%.180s[%d]", key, i);
		file_place(place, sizeof(place), file, e, elem_key);
		if (!e || !is_number(e)) {
			char got[256];
			if (e)
				describe(e, got, sizeof(got));
			return fail_place(err, place, "expected %s, got %s",
					  p->type == SB_P_PRIO ? "a number" : "an integer", e ? got : "nothing");
		}
		double v = number_of(e);
		if (p->type == SB_P_INT_LIST && v != floor(v))
			return fail_place(err, place, "expected an integer, got %g", v);
		int rc = n == 1 && p->type == SB_P_PRIO ? sb_param_set_double(p, obj, v, &inner)
							 : sb_param_set_elem(p, obj, (size_t)i, (size_t)n, v, &inner);
		if (rc)
			return relay(err, place, p, &inner);
	}
	return 0;
}

static int set_from_setting(const char *file, const struct sb_param *p, void *obj,
			    const config_setting_t *s, const char *key, struct sb_error *err)
{
	char place[PLACE_LEN];
	struct sb_error inner;
	int rc;
	file_place(place, sizeof(place), file, s, key);
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
	case CONFIG_TYPE_FLOAT: {
		bool is_float = config_setting_type(s) == CONFIG_TYPE_FLOAT;
		double v = number_of(s);
		if (p->type != SB_P_INT && p->type != SB_P_DOUBLE && p->type != SB_P_PRIO &&
		    p->type != SB_P_INT_LIST)
			return mismatch(err, place, p, s);
		if ((p->type == SB_P_INT || p->type == SB_P_INT_LIST) && v != floor(v))
			return mismatch(err, place, p, s);
		if (int_range_fail(err, place, p, v))
			return -1;
		if (p->type == SB_P_INT_LIST)
			rc = sb_param_set_elem(p, obj, 0, 1, v, &inner);
		else if (is_float)
			rc = sb_param_set_double(p, obj, v, &inner);
		else
			rc = sb_param_set_int(p, obj, config_setting_get_int64(s), &inner);
		break;
	}
	case CONFIG_TYPE_BOOL:
		if (p->type != SB_P_BOOL)
			return mismatch(err, place, p, s);
		rc = sb_param_set_bool(p, obj, config_setting_get_bool(s) != 0, &inner);
		break;
	case CONFIG_TYPE_STRING:
		if (p->type != SB_P_STRING && p->type != SB_P_ENUM)
			return mismatch(err, place, p, s);
		if (sb_param_set_string(p, obj, config_setting_get_string(s), &inner))
			return relay_string(err, place, p, &inner, config_setting_get_string(s));
		return 0;
	case CONFIG_TYPE_ARRAY:
	case CONFIG_TYPE_LIST:
		if (p->type != SB_P_PRIO && p->type != SB_P_INT_LIST)
			return mismatch(err, place, p, s);
		return set_list(file, p, obj, s, key, err);
	default:
		return mismatch(err, place, p, s);
	}
	return rc ? relay(err, place, p, &inner) : 0;
}

/* ---------- groups ---------- */

static int expect_group(const char *file, const config_setting_t *s, const char *key,
			const char *shape, struct sb_error *err)
{
	if (config_setting_is_group(s))
		return 0;
	char place[PLACE_LEN], got[256];
	file_place(place, sizeof(place), file, s, key);
	describe(s, got, sizeof(got));
	return fail_place(err, place, "expected a group %s, got %s", shape, got);
}

static int read_scheme_group(const char *file, struct sb_scenario *sc, int scheme,
			     const config_setting_t *group, struct sb_error *err)
{
	const struct sb_bm_ops *ops = sb_bm_all()[scheme];
	char key[200], place[PLACE_LEN];
	snprintf(key, sizeof(key), "switch.%s", ops->name);
	if (expect_group(file, group, key, "of scheme parameters { name = value; ... }", err))
		return -1;
	for (int i = 0; i < config_setting_length(group); i++) {
		const config_setting_t *m = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(m);
		snprintf(key, sizeof(key), "switch.%s.%.100s", ops->name, name ? name : "?");
		const struct sb_param *p = sb_param_find(ops->params, name ? name : "");
		if (!p) {
			file_place(place, sizeof(place), file, m, key);
			if (!ops->params || !ops->params->name)
				return fail_place(err, place, "unknown key (scheme %s has no parameters)", ops->name);
			struct suggestion s = { name ? name : "", NULL, 0 };
			consider_table(&s, ops->params);
			char prefix[80], what[80];
			snprintf(prefix, sizeof(prefix), "switch.%s.", ops->name);
			snprintf(what, sizeof(what), "scheme %s", ops->name);
			return unknown_key(err, place, prefix, &s, what);
		}
		if (set_from_setting(file, p, sc->scheme_params[scheme], m, key, err))
			return -1;
	}
	return 0;
}

/* One of run, topology, switch, tcp; `switch` also holds one subgroup per scheme. */
static int read_section(const char *file, struct sb_scenario *sc, const config_setting_t *group,
			const struct section *sec, struct sb_error *err)
{
	const char *gname = sec->name;
	const struct sb_param *table = sec->table;
	void *obj = (char *)sc + sec->offset;
	bool is_switch = strcmp(gname, "switch") == 0;
	if (expect_group(file, group, gname, "{ key = value; ... }", err))
		return -1;
	for (int i = 0; i < config_setting_length(group); i++) {
		const config_setting_t *m = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(m) ? config_setting_name(m) : "";
		char key[200], place[PLACE_LEN];
		snprintf(key, sizeof(key), "%s.%.100s", gname, name);
		const struct sb_param *p = sb_param_find(table, name);
		if (p) {
			if (set_from_setting(file, p, obj, m, key, err))
				return -1;
			continue;
		}
		int scheme = is_switch ? scheme_index(name) : -1;
		if (scheme >= 0) {
			if (read_scheme_group(file, sc, scheme, m, err))
				return -1;
			continue;
		}
		struct suggestion s = { name, NULL, 0 };
		consider_table(&s, table);
		if (is_switch)
			consider_schemes(&s);
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "%s.", gname);
		file_place(place, sizeof(place), file, m, key);
		return unknown_key(err, place, prefix, &s, gname);
	}
	return 0;
}

static int read_workload(const char *file, const config_setting_t *g, size_t index,
			 struct sb_workload *wl, struct sb_error *err)
{
	char key[200], place[PLACE_LEN];
	snprintf(key, sizeof(key), "workloads.%zu", index);
	if (expect_group(file, g, key, "{ type = \"poisson\"; ... }", err))
		return -1;
	const config_setting_t *ts = config_setting_get_member(g, "type");
	snprintf(key, sizeof(key), "workloads.%zu.type", index);
	if (!ts) {
		char types[128];
		workload_types_text(types, sizeof(types));
		file_place(place, sizeof(place), file, g, key);
		return fail_place(err, place, "missing; every workload needs a type, one of %s", types);
	}
	file_place(place, sizeof(place), file, ts, key);
	char got[256];
	describe(ts, got, sizeof(got));
	if (config_setting_type(ts) != CONFIG_TYPE_STRING)
		return workload_type_fail(err, place, got, NULL);
	int type = find_workload_type(config_setting_get_string(ts));
	if (type < 0)
		return workload_type_fail(err, place, got, config_setting_get_string(ts));

	const struct sb_param *table = sb_workload_param_table[type];
	wl->type = type;
	wl->line = (int)config_setting_source_line(g);
	sb_params_defaults(table, wl);
	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(m) ? config_setting_name(m) : "";
		if (strcmp(name, "type") == 0)
			continue;
		snprintf(key, sizeof(key), "workloads.%zu.%.100s", index, name);
		const struct sb_param *p = sb_param_find(table, name);
		if (!p) {
			file_place(place, sizeof(place), file, m, key);
			return unknown_workload_key(err, place, index, type, name);
		}
		if (set_from_setting(file, p, wl, m, key, err))
			return -1;
	}
	return 0;
}

static void free_workloads(struct sb_scenario *sc)
{
	for (size_t i = 0; i < sc->nworkloads; i++)
		sb_params_free(sb_workload_param_table[sc->workloads[i].type], &sc->workloads[i]);
	free(sc->workloads);
	sc->workloads = NULL;
	sc->nworkloads = 0;
}

static int read_workloads(const char *file, struct sb_scenario *sc, const config_setting_t *list,
			  struct sb_error *err)
{
	int n = config_setting_length(list);
	bool empty_array = config_setting_is_array(list) && n == 0; /* `workloads = [];` */
	if (!config_setting_is_list(list) && !empty_array) {
		char place[PLACE_LEN], got[256];
		file_place(place, sizeof(place), file, list, "workloads");
		describe(list, got, sizeof(got));
		return fail_place(err, place, "expected a list of groups ( { type = \"poisson\"; ... }, ... ), got %s", got);
	}
	free_workloads(sc);
	if (n == 0)
		return 0;
	/* Zeroed entries are safe to free whatever their type, so a failure half-way leaks nothing. */
	sc->workloads = sb_xcalloc((size_t)n, sizeof(*sc->workloads));
	sc->nworkloads = (size_t)n;
	for (int i = 0; i < n; i++)
		if (read_workload(file, config_setting_get_elem(list, (unsigned)i), (size_t)i,
				  &sc->workloads[i], err))
			return -1;
	return 0;
}

static int unknown_group(struct sb_error *err, const char *place, const char *name)
{
	struct suggestion s = { name, NULL, 0 };
	for (const char *const *r = root_groups; *r; r++)
		consider(&s, *r);
	if (s.best)
		return fail_place(err, place, "unknown key (did you mean %s?)", s.best);
	return fail_place(err, place, "unknown key, expected one of run, topology, switch, tcp, workloads");
}

static int read_root(const char *file, struct sb_scenario *sc, const config_setting_t *root,
		     struct sb_error *err)
{
	for (int i = 0; i < config_setting_length(root); i++) {
		const config_setting_t *g = config_setting_get_elem(root, (unsigned)i);
		const char *name = config_setting_name(g) ? config_setting_name(g) : "";
		const struct section *sec = find_section(name);
		int rc;
		if (sec) {
			rc = read_section(file, sc, g, sec, err);
		} else if (strcmp(name, "workloads") == 0) {
			rc = read_workloads(file, sc, g, err);
		} else {
			char place[PLACE_LEN];
			file_place(place, sizeof(place), file, g, name);
			return unknown_group(err, place, name);
		}
		if (rc)
			return -1;
	}
	return 0;
}

/* ---------- integers libconfig 1.5 would truncate ---------- */

static bool starts_word(char c) { return isalpha((unsigned char)c) || c == '_' || c == '*'; }
static bool in_word(char c) { return isalnum((unsigned char)c) || c == '_' || c == '*' || c == '-'; }

/*
 * libconfig 1.5 stores an integer literal above 2^31 - 1 without an L suffix as a 32-bit int,
 * silently wrapped (5000000000 becomes 705032704): a plausible but wrong buffer size. We scan
 * the text for such literals first and ask for the L suffix. Files pulled in with @include are
 * not scanned.
 */
static int check_int_literals(const char *text, const char *file, struct sb_error *err)
{
	unsigned line = 1;
	const char *s = text;
	while (*s) {
		if (*s == '\n') {
			line++;
			s++;
		} else if (*s == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\\' && s[1])
					s++;
				line += *s == '\n';
			}
			s += *s != 0;
		} else if (*s == '#' || (s[0] == '/' && s[1] == '/')) {
			while (*s && *s != '\n')
				s++;
		} else if (s[0] == '/' && s[1] == '*') {
			for (s += 2; *s && !(s[0] == '*' && s[1] == '/'); s++)
				line += *s == '\n';
			s += *s ? 2 : 0;
		} else if (starts_word(*s)) {
			while (in_word(*s))
				s++;
		} else if (isdigit((unsigned char)*s)) {
			bool negative = s > text && s[-1] == '-';
			const char *start = s;
			bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
			unsigned long long v = 0;
			bool huge = false;
			if (hex) {
				for (s += 2; isxdigit((unsigned char)*s); s++) {
					huge |= v > (1ULL << 40);
					v = v * 16 + (unsigned)(isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
				}
			} else {
				for (; isdigit((unsigned char)*s); s++) {
					huge |= v > (1ULL << 40);
					v = v * 10 + (unsigned)(*s - '0');
				}
				if (*s == '.' || *s == 'e' || *s == 'E') { /* a float: libconfig reads it fine */
					while (isdigit((unsigned char)*s) || *s == '.' || *s == 'e' || *s == 'E' ||
					       ((*s == '+' || *s == '-') && (s[-1] == 'e' || s[-1] == 'E')))
						s++;
					continue;
				}
			}
			if (*s == 'L')
				continue;
			if (huge || v > (negative ? 2147483648ULL : 2147483647ULL)) {
				int len = (int)SB_MIN(s - start, 40);
				return sb_fail(err, "%s:%u: integer %s%.*s does not fit in 32 bits; write it as %s%.*sL "
					       "(libconfig would silently truncate it)",
					       file, line, negative ? "-" : "", len, start, negative ? "-" : "", len, start);
			}
		} else {
			s++;
		}
	}
	return 0;
}

/* ---------- reading ---------- */

static char *slurp(const char *path, struct sb_error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		sb_fail(err, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *buf = sb_xmalloc(cap);
	for (;;) {
		size_t got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
		if (len + 1 == cap)
			buf = sb_xrealloc(buf, cap *= 2);
	}
	if (ferror(f)) {
		sb_fail(err, "cannot open %s: %s", path, strerror(errno ? errno : EIO));
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[len] = 0;
	return buf;
}

static int parse_config(config_t *cfg, const char *path, const char *text, const char *name,
			struct sb_error *err)
{
	int ok;
	if (path) {
		char *content = slurp(path, err);
		if (!content)
			return -1;
		int rc = check_int_literals(content, name, err);
		free(content);
		if (rc)
			return -1;
		/* @include "x.cfg" is relative to the including file, not to the working directory. */
		char *dir = sb_xstrdup(path);
		char *slash = strrchr(dir, '/');
		if (slash) {
			slash[slash == dir] = 0; /* keep "/" for a file at the root */
			config_set_include_dir(cfg, dir);
		}
		ok = config_read_file(cfg, path);
		free(dir);
	} else {
		if (check_int_literals(text, name, err))
			return -1;
		ok = config_read_string(cfg, text);
	}
	if (ok == CONFIG_TRUE)
		return 0;
	const char *efile = config_error_file(cfg) ? config_error_file(cfg) : name;
	const char *etext = config_error_text(cfg) ? config_error_text(cfg) : "cannot be read";
	if (config_error_type(cfg) == CONFIG_ERR_FILE_IO)
		return sb_fail(err, "cannot open %s: read error", efile);
	const char *hint = "";
	if (strcmp(etext, "syntax error") == 0)
		hint = " (expected key = value; or name: { ... }; strings need double quotes)";
	else if (strcmp(etext, "mismatched element type in array") == 0)
		hint = " (the numbers of a [ ... ] array must all be written alike, e.g. 1.0 and 0.5, or use a ( ... ) list)";
	return sb_fail(err, "%s:%d: %s%s", efile, config_error_line(cfg), etext, hint);
}

/* ---------- --set ---------- */

static char *trimmed_copy(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	char *c = sb_xmalloc(n + 1);
	memcpy(c, s, n);
	c[n] = 0;
	return c;
}

/* A --set VALUE as sb_param_set_text reads a string: blanks trimmed, quotes optional. */
static char *bare_value(const char *value)
{
	char *name = trimmed_copy(value, strlen(value));
	size_t len = strlen(name);
	if (len >= 2 && name[0] == '"' && name[len - 1] == '"') {
		memmove(name, name + 1, len - 2);
		name[len - 2] = 0;
	}
	return name;
}

/* Add a workload of `type` (with its defaults) at the end: `--set workloads.N.type=T`. */
static int append_workload(struct sb_scenario *sc, const char *place, const char *value,
			   struct sb_error *err)
{
	char *name = bare_value(value);
	int type = find_workload_type(name);
	if (type < 0) {
		char got[160];
		snprintf(got, sizeof(got), "\"%.128s\"", name);
		int rc = workload_type_fail(err, place, got, name);
		free(name);
		return rc;
	}
	free(name);
	sc->workloads = sb_xrealloc(sc->workloads, (sc->nworkloads + 1) * sizeof(*sc->workloads));
	struct sb_workload *wl = &sc->workloads[sc->nworkloads++];
	memset(wl, 0, sizeof(*wl));
	wl->type = type;
	sb_params_defaults(sb_workload_param_table[type], wl);
	return 0;
}

/* Find what an override's dotted key designates: a parameter and the struct that holds it. */
static int resolve_override(struct sb_scenario *sc, char **part, size_t nparts, const char *place,
			    const char *value, const struct sb_param **out_p, void **out_obj,
			    struct sb_error *err)
{
	const char *g = part[0];
	const struct section *sec = find_section(g);
	const struct sb_param *table = NULL;
	void *obj = NULL;
	char prefix[96], group[96];
	struct suggestion s = { "", NULL, 0 };
	size_t leaf = 1; /* index of the part naming the parameter */

	if (sec) {
		table = sec->table;
		obj = (char *)sc + sec->offset;
		snprintf(group, sizeof(group), "%s", g);
		int scheme = !strcmp(g, "switch") && nparts >= 2 ? scheme_index(part[1]) : -1;
		if (scheme >= 0) {
			const struct sb_bm_ops *ops = sb_bm_all()[scheme];
			table = ops->params;
			obj = sc->scheme_params[scheme];
			leaf = 2;
			snprintf(group, sizeof(group), "switch.%s", ops->name);
			if (!table || !table->name)
				return fail_place(err, place, "unknown key (scheme %s has no parameters)", ops->name);
		}
	} else if (!strcmp(g, "workloads")) {
		char *end = NULL;
		unsigned long long index = nparts >= 2 && isdigit((unsigned char)part[1][0])
						   ? strtoull(part[1], &end, 10) : 0;
		if (nparts < 3 || !end || *end)
			return fail_place(err, place, "expected workloads.N.KEY, N counted from 0");
		if (index == sc->nworkloads && !strcmp(part[2], "type") && nparts == 3)
			return append_workload(sc, place, value, err) ? -1 : 1;
		if (index >= sc->nworkloads)
			return fail_place(err, place, "the scenario has %zu workload%s; add one with workloads.%zu.type=TYPE",
					  sc->nworkloads, sc->nworkloads == 1 ? "" : "s", sc->nworkloads);
		struct sb_workload *wl = &sc->workloads[index];
		if (!strcmp(part[2], "type") && nparts == 3) {
			char *name = bare_value(value);
			bool same = strcmp(name, sb_workload_type_name[wl->type]) == 0;
			free(name);
			if (same)
				return 1;
			return fail_place(err, place, "cannot change the type of a workload (it is %s); add a new one instead",
					  sb_workload_type_name[wl->type]);
		}
		if (nparts == 3 && !sb_param_find(sb_workload_param_table[wl->type], part[2]))
			return unknown_workload_key(err, place, (size_t)index, wl->type, part[2]);
		table = sb_workload_param_table[wl->type];
		obj = wl;
		leaf = 2;
		snprintf(group, sizeof(group), "a workload of type %s", sb_workload_type_name[wl->type]);
	} else {
		return unknown_group(err, place, g);
	}

	if (nparts <= leaf)
		return fail_place(err, place, "is a group; set one of its keys, e.g. %s.%s=VALUE", group,
				  table && table->name ? table->name : "KEY");
	const struct sb_param *p = nparts == leaf + 1 ? sb_param_find(table, part[leaf]) : NULL;
	if (!p) {
		s.name = part[leaf];
		consider_table(&s, table);
		if (!strcmp(g, "switch") && leaf == 1)
			consider_schemes(&s);
		size_t used = 0;
		prefix[0] = 0;
		for (size_t i = 0; i < leaf; i++)
			used += (size_t)snprintf(prefix + used, sizeof(prefix) - SB_MIN(used, sizeof(prefix)),
						 "%.40s.", part[i]);
		if (nparts > leaf + 1 && sb_param_find(table, part[leaf]))
			return fail_place(err, place, "unknown key (%s%s is not a group)", prefix, part[leaf]);
		return unknown_key(err, place, prefix, &s, group);
	}
	*out_p = p;
	*out_obj = obj;
	return 0;
}

static int apply_override(struct sb_scenario *sc, const char *set, struct sb_error *err)
{
	const char *eq = strchr(set, '=');
	char place[PLACE_LEN];
	if (!eq) {
		snprintf(place, sizeof(place), "--set %.256s", set);
		return fail_place(err, place, "expected KEY=VALUE");
	}
	char *key = trimmed_copy(set, (size_t)(eq - set));
	const char *value = eq + 1;
	snprintf(place, sizeof(place), "--set %.256s", key);
	char *part[8];
	size_t nparts = 0;
	bool bad = !*key;
	for (char *c = key, *startp = key;; c++) {
		if (*c == '.' || *c == 0) {
			bad |= c == startp || nparts == SB_ARRAY_LEN(part);
			if (bad)
				break;
			part[nparts++] = startp;
			bool last = *c == 0;
			*c = 0;
			startp = c + 1;
			if (last)
				break;
		}
	}
	if (bad) {
		free(key);
		return fail_place(err, place, "expected KEY=VALUE with a dotted KEY such as switch.scheme or workloads.0.load");
	}
	const struct sb_param *p = NULL;
	void *obj = NULL;
	int rc = resolve_override(sc, part, nparts, place, value, &p, &obj, err);
	if (rc == 0) {
		struct sb_error inner;
		char *end;
		double v = strtod(value, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end != value && !*end && int_range_fail(err, place, p, v))
			rc = -1;
		else if (sb_param_set_text(p, obj, value, &inner)) {
			char *bare = bare_value(value);
			rc = relay_string(err, place, p, &inner, bare);
			free(bare);
		}
	}
	free(key);
	return rc < 0 ? -1 : 0;
}

int sb_cfg_load(struct sb_scenario *sc, const char *path, const char *text, const char *const *sets,
		size_t nsets, struct sb_error *err)
{
	const char *name = path ? path : "(default)";
	if (path || text) {
		config_t cfg;
		config_init(&cfg);
		int rc = parse_config(&cfg, path, text, name, err);
		if (rc == 0) {
			free(sc->source);
			sc->source = sb_xstrdup(name);
			rc = read_root(name, sc, config_root_setting(&cfg), err);
		}
		config_destroy(&cfg);
		if (rc)
			return -1;
	}
	for (size_t i = 0; i < nsets; i++)
		if (apply_override(sc, sets[i] ? sets[i] : "", err))
			return -1;
	return 0;
}

/* ---------- reference ---------- */

static const char *const workload_summary[SB_WL_N] = {
	[SB_WL_POISSON] = ("Background traffic: flows arrive as a Poisson process at every host, sizes drawn "
			   "from `cdf`, rate set by `load` (docs/scenario.md). Flow arrival rate per host = "
			   "offered bits per second / (8 × mean flow size)."),
	[SB_WL_INCAST] = ("Query/response incast: every host issues queries at `query_rate`; each query asks "
			  "`fanin` responders for `size_bytes / fanin` bytes each, all answering at once."),
	[SB_WL_LONGLIVED] = "Long-lived flows from each host of `srcs` to `dst`, started at `start_ms`.",
	[SB_WL_BURST] = "One synchronised burst: at `start_ms` every host of `srcs` sends `size_bytes` to `dst`.",
	[SB_WL_CBR] = "Constant-bit-rate senders without congestion control, from each host of `srcs` to `dst`.",
	[SB_WL_FILE] = "Replays the flows listed in the file `path`.",
};

void sb_cfg_write_reference(FILE *f)
{
	fprintf(f, "# Scenario keys\n\n"
		   "Generated by `sharebuf params` from the parameter tables; do not edit by hand. "
		   "docs/scenario.md describes the file format, `--set` and units. "
		   "A key is written `group.key` in `--set` and `key = value;` inside its group in a file.\n\n");
	for (size_t i = 0; i < SB_ARRAY_LEN(sections); i++) {
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "%s.", sections[i].name);
		fprintf(f, "## %s\n\n", sections[i].name);
		sb_params_markdown(f, prefix, sections[i].table);
		fprintf(f, "\n");
	}
	fprintf(f, "## Scheme parameters\n\n"
		   "Each scheme reads its parameters from the group `switch.SCHEME`; only the group of the "
		   "scheme selected by `switch.scheme` is used, the others may stay in the file.\n\n");
	for (const struct sb_bm_ops *const *o = sb_bm_all(); *o; o++) {
		char prefix[80];
		snprintf(prefix, sizeof(prefix), "switch.%s.", (*o)->name);
		const char *summary = (*o)->summary ? (*o)->summary : "";
		size_t len = strlen(summary);
		fprintf(f, "### switch.%s\n\n%s%s\n\n", (*o)->name, summary,
			len && summary[len - 1] != '.' ? "." : "");
		if ((*o)->params && (*o)->params->name)
			sb_params_markdown(f, prefix, (*o)->params);
		else
			fprintf(f, "No parameters.\n");
		fprintf(f, "\n");
	}
	fprintf(f, "## Workloads\n\n"
		   "`workloads` is a list of groups; the `type` key of each selects which keys it accepts. "
		   "`workloads.N.KEY` is key KEY of the N-th workload (counted from 0).\n\n");
	for (int t = 0; t < SB_WL_N; t++) {
		fprintf(f, "### type = \"%s\"\n\n%s\n\n", sb_workload_type_name[t], workload_summary[t]);
		sb_params_markdown(f, "workloads.N.", sb_workload_param_table[t]);
		fprintf(f, "\n");
	}
}
