/*
 * cfgfile.c — reading a scenario file (libconfig syntax) into a struct sb_scenario.
 *
 * libconfig only parses; everything it hands back is checked here against the parameter
 * tables, so a key the tables do not know is an error (a typo must not silently fall back to
 * a default), and every message carries FILE:LINE and the full dotted key. Range checks are
 * the table setters' (one place decides what is valid); this file only relocates their
 * messages to the right line and key. The messages themselves, shared with the `--set`
 * overrides, are in cfg_messages.c; the overrides in cfg_override.c.
 */
#include "scenario/cfgfile.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "scenario/cfg_internal.h"
#include "core/lines.h"
#include "mmu/mmu.h"

/* ---------- messages that need a libconfig setting ---------- */

/*
 * "FILE:LINE: KEY" for a setting. `main` is the scenario's name. A setting from an @include'd
 * file carries the name written in the directive, which libconfig resolved against the main
 * file's directory (sb_cfg_parse sets it as include dir), so we show that resolved path.
 */
static unsigned setting_file(char *buf, size_t n, const char *main, const config_setting_t *s)
{
	const char *file = s && config_setting_source_file(s) ? config_setting_source_file(s) : main;
	const char *slash = strrchr(main, '/');
	int dirlen = 0;
	if (file != main && strcmp(file, main) != 0 && file[0] != '/' && slash)
		dirlen = (int)SB_MIN(slash - main + 1, 200);
	snprintf(buf, n, "%.*s%s", dirlen, main, file);
	return s ? config_setting_source_line(s) : 0;
}

static void file_place(char *buf, size_t n, const char *main, const config_setting_t *s,
		       const char *key)
{
	char file[CFG_PLACE_LEN];
	unsigned line = setting_file(file, sizeof(file), main, s);
	if (line)
		snprintf(buf, n, "%.250s:%u: %s", file, line, key);
	else
		snprintf(buf, n, "%.250s: %s", file, key);
}

/* Remember where `key` was written, for checks made after reading (sb_scenario_place). */
static void note(struct sb_scenario *sc, const char *main, const config_setting_t *s, const char *key)
{
	char file[CFG_PLACE_LEN];
	unsigned line = setting_file(file, sizeof(file), main, s);
	sb_scenario_note_origin(sc, key, file, (int)line);
}

static void describe(const config_setting_t *s, char *buf, size_t n)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: snprintf(buf, n, "%lld", config_setting_get_int64(s)); break;
	case CONFIG_TYPE_FLOAT: {
		char num[SB_NUM_TEXT];
		snprintf(buf, n, "%s", sb_param_num_text(config_setting_get_float(s), num));
		break;
	}
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
	return cfg_fail_place(err, place, "expected %s, got %s", want, got);
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

/* SB_P_STR_LIST from a libconfig list or array of strings; each element keeps its line. */
static int set_str_list(const char *file, const struct sb_param *p, void *obj, const config_setting_t *s,
			const char *key, struct sb_error *err)
{
	char place[CFG_PLACE_LEN];
	struct sb_error inner;
	int n = config_setting_length(s);
	file_place(place, sizeof(place), file, s, key);
	if (n == 0)
		return sb_param_set_text(p, obj, "", &inner) ? cfg_relay(err, place, p, &inner) : 0;
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char elem_key[200];
		snprintf(elem_key, sizeof(elem_key), "%.180s[%d]", key, i);
		file_place(place, sizeof(place), file, e, elem_key);
		if (!e || config_setting_type(e) != CONFIG_TYPE_STRING) {
			char got[256];
			if (e)
				describe(e, got, sizeof(got));
			return cfg_fail_place(err, place, "expected a string, got %s", e ? got : "nothing");
		}
		if (sb_param_set_str_elem(p, obj, (size_t)i, (size_t)n, config_setting_get_string(e),
					  (int)config_setting_source_line(e), &inner))
			return cfg_relay(err, place, p, &inner);
	}
	return 0;
}

/* SB_P_PRIO and SB_P_INT_LIST from a libconfig list or array. */
static int set_list(const char *file, const struct sb_param *p, void *obj, const config_setting_t *s,
		    const char *key, struct sb_error *err)
{
	char place[CFG_PLACE_LEN];
	struct sb_error inner;
	int n = config_setting_length(s);
	if (p->type == SB_P_STR_LIST)
		return set_str_list(file, p, obj, s, key, err);
	file_place(place, sizeof(place), file, s, key);
	if (n == 0) {
		if (p->type == SB_P_PRIO)
			return mismatch(err, place, p, s);
		return sb_param_set_text(p, obj, "", &inner) ? cfg_relay(err, place, p, &inner) : 0;
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
			return cfg_fail_place(err, place, "expected %s, got %s",
					      p->type == SB_P_PRIO ? "a number" : "an integer", e ? got : "nothing");
		}
		double v = number_of(e);
		char num[SB_NUM_TEXT];
		if (p->type == SB_P_INT_LIST && v != floor(v))
			return cfg_fail_place(err, place, "expected an integer, got %s", sb_param_num_text(v, num));
		int rc = n == 1 && p->type == SB_P_PRIO ? sb_param_set_double(p, obj, v, &inner)
							 : sb_param_set_elem(p, obj, (size_t)i, (size_t)n, v, &inner);
		if (rc)
			return cfg_relay(err, place, p, &inner);
	}
	return 0;
}

static int set_from_setting(const char *file, const struct sb_param *p, void *obj,
			    const config_setting_t *s, const char *key, struct sb_error *err)
{
	char place[CFG_PLACE_LEN];
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
		if (cfg_int_range_fail(err, place, p, v))
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
		if (p->type == SB_P_STR_LIST) { /* one string: a list of one */
			rc = sb_param_set_str_elem(p, obj, 0, 1, config_setting_get_string(s),
						   (int)config_setting_source_line(s), &inner);
			break;
		}
		if (p->type != SB_P_STRING && p->type != SB_P_ENUM)
			return mismatch(err, place, p, s);
		if (sb_param_set_string(p, obj, config_setting_get_string(s), &inner))
			return cfg_relay_string(err, place, p, &inner, config_setting_get_string(s));
		return 0;
	case CONFIG_TYPE_ARRAY:
	case CONFIG_TYPE_LIST:
		if (p->type != SB_P_PRIO && p->type != SB_P_INT_LIST && p->type != SB_P_STR_LIST)
			return mismatch(err, place, p, s);
		return set_list(file, p, obj, s, key, err);
	default:
		return mismatch(err, place, p, s);
	}
	return rc ? cfg_relay(err, place, p, &inner) : 0;
}

/* ---------- groups ---------- */

static int expect_group(const char *file, const config_setting_t *s, const char *key,
			const char *shape, struct sb_error *err)
{
	if (config_setting_is_group(s))
		return 0;
	char place[CFG_PLACE_LEN], got[256];
	file_place(place, sizeof(place), file, s, key);
	describe(s, got, sizeof(got));
	return cfg_fail_place(err, place, "expected a group %s, got %s", shape, got);
}

static int read_scheme_group(const char *file, struct sb_scenario *sc, int scheme,
			     const config_setting_t *group, struct sb_error *err)
{
	const struct sb_bm_ops *ops = sb_bm_all()[scheme];
	char key[200], place[CFG_PLACE_LEN];
	snprintf(key, sizeof(key), "switch.%s", ops->name);
	if (expect_group(file, group, key, "of scheme parameters { name = value; ... }", err))
		return -1;
	note(sc, file, group, key);
	for (int i = 0; i < config_setting_length(group); i++) {
		const config_setting_t *m = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(m);
		snprintf(key, sizeof(key), "switch.%s.%.100s", ops->name, name ? name : "?");
		const struct sb_param *p = sb_param_find(ops->params, name ? name : "");
		if (!p) {
			file_place(place, sizeof(place), file, m, key);
			if (!ops->params || !ops->params->name)
				return cfg_fail_place(err, place, "unknown key (scheme %s has no parameters)", ops->name);
			struct cfg_suggestion s = { name ? name : "", NULL, 0 };
			cfg_consider_table(&s, ops->params);
			char prefix[80], what[80];
			snprintf(prefix, sizeof(prefix), "switch.%s.", ops->name);
			snprintf(what, sizeof(what), "scheme %s", ops->name);
			return cfg_unknown_key(err, place, prefix, &s, what);
		}
		if (set_from_setting(file, p, sc->scheme_params[scheme], m, key, err))
			return -1;
		note(sc, file, m, key);
	}
	return 0;
}

/* One of cfg_sections (run, topology, switch, host, tcp, rdma); `switch` also holds one subgroup per scheme. */
static int read_section(const char *file, struct sb_scenario *sc, const config_setting_t *group,
			const struct cfg_section *sec, struct sb_error *err)
{
	const char *gname = sec->name;
	const struct sb_param *table = sec->table;
	void *obj = (char *)sc + sec->offset;
	bool is_switch = strcmp(gname, "switch") == 0;
	if (expect_group(file, group, gname, "{ key = value; ... }", err))
		return -1;
	note(sc, file, group, gname);
	for (int i = 0; i < config_setting_length(group); i++) {
		const config_setting_t *m = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(m) ? config_setting_name(m) : "";
		char key[200], place[CFG_PLACE_LEN];
		snprintf(key, sizeof(key), "%s.%.100s", gname, name);
		const struct sb_param *p = sb_param_find(table, name);
		if (p) {
			if (set_from_setting(file, p, obj, m, key, err))
				return -1;
			note(sc, file, m, key);
			continue;
		}
		int scheme = is_switch ? cfg_scheme_index(name) : -1;
		if (scheme >= 0) {
			if (read_scheme_group(file, sc, scheme, m, err))
				return -1;
			continue;
		}
		struct cfg_suggestion s = { name, NULL, 0 };
		cfg_consider_table(&s, table);
		if (is_switch)
			cfg_consider_schemes(&s);
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "%s.", gname);
		file_place(place, sizeof(place), file, m, key);
		return cfg_unknown_key(err, place, prefix, &s, gname);
	}
	return 0;
}

static int read_workload(const char *file, struct sb_scenario *sc, const config_setting_t *g, size_t index,
			 struct sb_workload *wl, struct sb_error *err)
{
	char key[200], place[CFG_PLACE_LEN];
	snprintf(key, sizeof(key), "workloads.%zu", index);
	if (expect_group(file, g, key, "{ type = \"poisson\"; ... }", err))
		return -1;
	note(sc, file, g, key);
	const config_setting_t *ts = config_setting_get_member(g, "type");
	snprintf(key, sizeof(key), "workloads.%zu.type", index);
	if (!ts) {
		char types[128];
		sb_workload_names(sc->workload_types, types, sizeof(types));
		file_place(place, sizeof(place), file, g, key);
		return cfg_fail_place(err, place, "missing; every workload needs a type, one of %s", types);
	}
	file_place(place, sizeof(place), file, ts, key);
	char got[256];
	describe(ts, got, sizeof(got));
	if (config_setting_type(ts) != CONFIG_TYPE_STRING)
		return cfg_workload_type_fail(sc->workload_types, err, place, got, NULL);
	const struct sb_workload_ops *type = sb_scenario_workload_type(sc, config_setting_get_string(ts));
	if (!type)
		return cfg_workload_type_fail(sc->workload_types, err, place, got, config_setting_get_string(ts));

	const struct sb_param *table = type->params;
	sb_workload_init(wl, type);
	wl->line = (int)config_setting_source_line(g);
	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(m) ? config_setting_name(m) : "";
		if (strcmp(name, "type") == 0)
			continue;
		snprintf(key, sizeof(key), "workloads.%zu.%.100s", index, name);
		const struct sb_param *p = sb_param_find(table, name);
		if (!p) {
			file_place(place, sizeof(place), file, m, key);
			return cfg_unknown_workload_key(sc->workload_types, err, place, index, type, name);
		}
		if (set_from_setting(file, p, wl->params, m, key, err))
			return -1;
		note(sc, file, m, key);
	}
	return 0;
}

static void free_workloads(struct sb_scenario *sc)
{
	for (size_t i = 0; i < sc->nworkloads; i++)
		sb_workload_clear(&sc->workloads[i]);
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
		char place[CFG_PLACE_LEN], got[256];
		file_place(place, sizeof(place), file, list, "workloads");
		describe(list, got, sizeof(got));
		return cfg_fail_place(err, place, "expected a list of groups ( { type = \"poisson\"; ... }, ... ), got %s", got);
	}
	free_workloads(sc);
	sb_scenario_forget_origins(sc, "workloads.");
	if (n == 0)
		return 0;
	/* Zeroed entries are safe to free whatever their type, so a failure half-way leaks nothing. */
	sc->workloads = sb_xcalloc((size_t)n, sizeof(*sc->workloads));
	sc->nworkloads = (size_t)n;
	for (int i = 0; i < n; i++)
		if (read_workload(file, sc, config_setting_get_elem(list, (unsigned)i), (size_t)i,
				  &sc->workloads[i], err))
			return -1;
	return 0;
}

static int read_root(const char *file, struct sb_scenario *sc, const config_setting_t *root,
		     struct sb_error *err)
{
	for (int i = 0; i < config_setting_length(root); i++) {
		const config_setting_t *g = config_setting_get_elem(root, (unsigned)i);
		const char *name = config_setting_name(g) ? config_setting_name(g) : "";
		const struct cfg_section *sec = cfg_find_section(name);
		int rc;
		if (sec) {
			rc = read_section(file, sc, g, sec, err);
		} else if (strcmp(name, "workloads") == 0) {
			/* a program that knows no workload type leaves them to one that does */
			rc = sc->workload_types ? read_workloads(file, sc, g, err) : 0;
		} else {
			char place[CFG_PLACE_LEN];
			file_place(place, sizeof(place), file, g, name);
			return cfg_unknown_group(err, place, name);
		}
		if (rc)
			return -1;
	}
	return 0;
}

/* ---------- what libconfig is not asked to read ---------- */

static bool starts_word(char c) { return isalpha((unsigned char)c) || c == '_' || c == '*'; }
static bool in_word(char c) { return isalnum((unsigned char)c) || c == '_' || c == '*' || c == '-'; }

static int read_file(const char *path, const char *shown, size_t *len, char **out, struct sb_error *err);
static int scan_text(const char *text, size_t len, const char *file, const char *include_dir, int depth,
		     struct sb_error *err);

/* libconfig 1.5's own limit on nested @include (MAX_INCLUDE_DEPTH): deeper it reports an error. */
#define INCLUDE_DEPTH 10

/*
 * An @include directive at `s` (its line's first word), in `file` at `line`: the file it names
 * must be a regular file of at most SB_CFG_MAX_BYTES (libconfig would wait for ever on a FIFO
 * and read a multi-gigabyte file whole), and its own text is scanned as the main file's is.
 * libconfig 1.5 takes the name verbatim up to the closing quote, and puts the include
 * directory (the main file's) in front of it; a file that does not exist is left to libconfig
 * to report.
 */
static int check_include(const char *s, const char *file, unsigned line, const char *include_dir, int depth,
			 struct sb_error *err)
{
	s += strlen("@include");
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '"' || depth >= INCLUDE_DEPTH)
		return 0; /* not a directive libconfig accepts: its syntax error says so */
	const char *name = ++s, *end = strchr(name, '"');
	if (!end || memchr(name, '\n', (size_t)(end - name)))
		return 0;
	char path[4200], shown[300];
	int n = (int)SB_MIN(end - name, 4000);
	if (include_dir)
		snprintf(path, sizeof(path), "%s/%.*s", include_dir, n, name);
	else
		snprintf(path, sizeof(path), "%.*s", n, name);
	snprintf(shown, sizeof(shown), "%s:%u: @include \"%.*s\"", file, line, (int)SB_MIN(n, 200), name);
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	char *text;
	size_t len;
	if (read_file(path, shown, &len, &text, err))
		return -1;
	int rc = scan_text(text, len, path, include_dir, depth + 1, err);
	free(text);
	return rc;
}

/*
 * Checks of a scenario's text that libconfig cannot make, before it parses it:
 *   - a NUL byte: libconfig would stop there and silently ignore the rest of the file;
 *   - an integer literal above 2^31 - 1 without an L suffix: libconfig 1.5 stores it as a
 *     32-bit int, silently wrapped (5000000000 becomes 705032704), a plausible but wrong
 *     buffer size; we ask for the L suffix;
 *   - the files of @include directives (check_include), to the depth libconfig follows.
 */
static int scan_text(const char *text, size_t len, const char *file, const char *include_dir, int depth,
		     struct sb_error *err)
{
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		unsigned line = 1;
		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		return sb_fail(err, "%s:%u: unexpected NUL byte (is this a text file?)", file, line);
	}
	unsigned line = 1;
	const char *s = text;
	bool line_start = true; /* only blanks so far on this line */
	while (*s) {
		if (*s == '\n') {
			line++;
			s++;
			line_start = true;
			continue;
		}
		if (*s == ' ' || *s == '\t' || *s == '\r') {
			s++;
			continue;
		}
		bool first = line_start;
		line_start = false;
		if (first && strncmp(s, "@include", 8) == 0) {
			if (check_include(s, file, line, include_dir, depth, err))
				return -1;
			while (*s && *s != '\n')
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
				int n = (int)SB_MIN(s - start, 40);
				return sb_fail(err, "%s:%u: integer %s%.*s does not fit in 32 bits; write it as %s%.*sL "
					       "(libconfig would silently truncate it)",
					       file, line, negative ? "-" : "", n, start, negative ? "-" : "", n, start);
			}
		} else {
			s++;
		}
	}
	return 0;
}

/* ---------- reading ---------- */

/*
 * The whole of a file that must be a regular file of at most `max` bytes: `sharebuf run
 * /dev/zero` once read until the machine ran out of memory, and a FIFO never ends. *out is
 * NUL-terminated (and may hold NULs: scan_text refuses them in a scenario).
 */
int sb_cfg_read_whole(const char *path, const char *shown, const char *what, size_t max, size_t *len, char **out,
		      struct sb_error *err)
{
	*out = NULL;
	FILE *f = sb_fopen_regular(path);
	if (!f && errno != EINVAL)
		return sb_fail(err, "cannot open %s: %s", shown, strerror(errno));
	struct stat st = { 0 };
	if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		if (!f)
			stat(path, &st);
		bool dir = S_ISDIR(st.st_mode);
		if (f)
			fclose(f);
		if (dir)
			return sb_fail(err, "cannot open %s: it is a directory", shown);
		return sb_fail(err, "cannot open %s: not a regular file (a device, pipe or socket might never end)", shown);
	}
	if ((unsigned long long)st.st_size > max) {
		fclose(f);
		return sb_fail(err, "cannot open %s: it has %lld bytes, %s file may have at most %zu MiB "
			       "(is it %s?)", shown, (long long)st.st_size, what, max >> 20, what);
	}
	/* read one byte more than the size: a file that grows meanwhile is refused too */
	size_t cap = (size_t)st.st_size + 2;
	char *buf = sb_xmalloc(cap);
	size_t got = fread(buf, 1, cap - 1, f);
	bool bad = ferror(f) != 0;
	fclose(f);
	if (bad || got > max) {
		free(buf);
		return sb_fail(err, "cannot open %s: %s", shown, bad ? "read error" : "the file grew while it was read");
	}
	buf[got] = 0;
	*len = got;
	*out = buf;
	return 0;
}

/* A scenario file, or one it @includes: at most SB_CFG_MAX_BYTES. */
static int read_file(const char *path, const char *shown, size_t *len, char **out, struct sb_error *err)
{
	return sb_cfg_read_whole(path, shown, "a scenario", SB_CFG_MAX_BYTES, len, out, err);
}

int sb_cfg_parse(config_t *cfg, const char *path, const char *text, const char *name, struct sb_error *err)
{
	int ok;
	if (path) {
		char *content;
		size_t len;
		if (read_file(path, path, &len, &content, err))
			return -1;
		/* @include "x.cfg" is relative to the including file, not to the working directory. */
		char *dir = sb_xstrdup(path);
		char *slash = strrchr(dir, '/');
		if (slash) {
			slash[slash == dir] = 0; /* keep "/" for a file at the root */
			config_set_include_dir(cfg, dir);
		}
		int rc = scan_text(content, len, name, slash ? dir : NULL, 0, err);
		/* the text checked is the text parsed: the file is not opened a second time */
		ok = rc == 0 ? config_read_string(cfg, content) : CONFIG_FALSE;
		free(content);
		free(dir);
		if (rc)
			return -1;
	} else {
		if (scan_text(text, strlen(text), name, NULL, 0, err))
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

int sb_cfg_load(struct sb_scenario *sc, const char *path, const char *text, const char *const *sets,
		size_t nsets, struct sb_error *err)
{
	const char *name = path ? path : "(default)";
	if (path || text) {
		config_t cfg;
		config_init(&cfg);
		int rc = sb_cfg_parse(&cfg, path, text, name, err);
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
		if (cfg_apply_override(sc, sets[i] ? sets[i] : "", err))
			return -1;
	return 0;
}
