/*
 * cfg_write.c — the resolved scenario: every key of a loaded scenario, defaults included, as a
 * scenario file that reproduces the run by itself (sb_cfg_write_resolved, cfgfile.h).
 *
 * It walks the same parameter tables the reader checks against (cfg_sections, each scheme's
 * table, each workload type's table), so a key the reader knows cannot be left out. Every
 * value is written in a form the reader reads back to the same bits:
 *   - reals with the fewest digits (15 to 17) that strtod turns back into the same double, and
 *     always with a '.' or an exponent, so that libconfig stores a real, never a 32-bit int;
 *   - integers beyond 32 bits with libconfig's L suffix (the reader refuses them without);
 *   - per-priority values and integer lists as ( ... ) lists, which, unlike [ ... ] arrays,
 *     may mix 1.0 and 1;
 *   - file names (a workload's CDF file or flow list) as the absolute path the run opened, so
 *     the file works from any directory, not only from the original scenario's.
 * The text has no date, version or source name in it: two runs of the same scenario give the
 * same text, hence the same SHA-256 (sim/provenance.h), wherever they were started from.
 */
#include "scenario/cfgfile.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scenario/cfg_internal.h"
#include "mmu/mmu.h"
#include "workload/cdf.h"

#define AT(obj, p, T) ((const T *)(const void *)((const char *)(obj) + (p)->offset))

/* A libconfig string literal: quotes, backslashes and control characters escaped. */
static void write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", f);
		else if (*c == '\t')
			fputs("\\t", f);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\x%02x", *c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

/* The shortest of %.15g, %.16g, %.17g that reads back as v, as a libconfig real. */
static void write_real(FILE *f, double v)
{
	char buf[64];
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
	if (!strpbrk(buf, ".eEni")) /* 5120 would be an int to libconfig */
		fputs(".0", f);
}

static void write_int(FILE *f, int64_t v)
{
	fprintf(f, "%lld%s", (long long)v, v > INT32_MAX || v < INT32_MIN ? "L" : "");
}

/* An absolute form of `path`: as realpath finds it, or the working directory in front of a
 * relative name that does not exist (the run then fails on it as the original did). */
static char *absolute(const char *path)
{
	char *real = realpath(path, NULL);
	if (real)
		return real;
	if (path[0] == '/')
		return sb_xstrdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return sb_xstrdup(path);
	size_t len = strlen(cwd) + strlen(path) + 2;
	char *full = sb_xmalloc(len);
	snprintf(full, len, "%s/%s", cwd, path);
	return full;
}

/* A workload's string that names a file: `cdf` (unless a built-in CDF's name or empty) and
 * `path`. `key` is its full key, whose origin says what a relative name is relative to. */
static void write_file_name(FILE *f, const struct sb_scenario *sc, const char *key, const char *name,
			    const char *value)
{
	bool is_file = value && *value &&
		       (!strcmp(name, "path") || (!strcmp(name, "cdf") && !sb_cdf_builtin_find(value)));
	if (!is_file) {
		write_string(f, value);
		return;
	}
	char *opened = sb_scenario_path(sc, key, value);
	char *full = absolute(opened);
	write_string(f, full);
	free(full);
	free(opened);
}

/* `name = value;` for every parameter of `table` in `obj`, indented; `prefix` is the dotted
 * key of the group ("workloads.0."), for the origin of file names. */
static void write_table(FILE *f, const struct sb_scenario *sc, const char *indent, const char *prefix,
			const struct sb_param *table, const void *obj)
{
	for (const struct sb_param *p = table; p && p->name; p++) {
		fprintf(f, "%s%s = ", indent, p->name);
		switch (p->type) {
		case SB_P_INT: write_int(f, *AT(obj, p, int64_t)); break;
		case SB_P_DOUBLE: write_real(f, *AT(obj, p, double)); break;
		case SB_P_BOOL: fputs(*AT(obj, p, bool) ? "true" : "false", f); break;
		case SB_P_ENUM: write_string(f, p->choices[*AT(obj, p, int)]); break;
		case SB_P_STRING: {
			char key[256];
			snprintf(key, sizeof(key), "%s%s", prefix, p->name);
			write_file_name(f, sc, key, p->name, *AT(obj, p, char *));
			break;
		}
		case SB_P_PRIO:
			fputc('(', f);
			for (int i = 0; i < 8; i++) {
				fputs(i ? ", " : " ", f);
				write_real(f, AT(obj, p, double)[i]);
			}
			fputs(" )", f);
			break;
		case SB_P_INT_LIST: {
			const struct sb_int_list *l = AT(obj, p, struct sb_int_list);
			fputc('(', f);
			for (size_t i = 0; i < l->n; i++) {
				fputs(i ? ", " : " ", f);
				write_int(f, l->v[i]);
			}
			fputs(l->n ? " )" : ")", f);
			break;
		}
		case SB_P_STR_LIST: {
			const struct sb_str_list *l = AT(obj, p, struct sb_str_list);
			fputc('(', f);
			for (size_t i = 0; i < l->n; i++) {
				fputs(i ? ", " : " ", f);
				write_string(f, l->v[i]);
			}
			fputs(l->n ? " )" : ")", f);
			break;
		}
		}
		fputs(";\n", f);
	}
}

void sb_cfg_write_resolved(FILE *f, const struct sb_scenario *sc)
{
	fputs("# The resolved scenario of a sharebuf run: every key with the value the run used, defaults\n"
	      "# included (docs/outputs.md). `sharebuf run` on this file alone repeats the run.\n",
	      f);
	for (size_t s = 0; s < cfg_nsections; s++) {
		const struct cfg_section *sec = &cfg_sections[s];
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "%s.", sec->name);
		fprintf(f, "\n%s = {\n", sec->name);
		write_table(f, sc, "  ", prefix, sec->table, (const char *)sc + sec->offset);
		if (!strcmp(sec->name, "switch")) {
			size_t i = 0;
			for (const struct sb_bm_ops *const *o = sb_bm_all(); *o; o++, i++) {
				if (!(*o)->params || !(*o)->params->name)
					continue;
				snprintf(prefix, sizeof(prefix), "switch.%s.", (*o)->name);
				fprintf(f, "  %s = {\n", (*o)->name);
				write_table(f, sc, "    ", prefix, (*o)->params, sc->scheme_params[i]);
				fputs("  };\n", f);
			}
		}
		fputs("};\n", f);
	}
	fputs("\nworkloads = (", f);
	for (size_t w = 0; w < sc->nworkloads; w++) {
		const struct sb_workload *wl = &sc->workloads[w];
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "workloads.%zu.", w);
		fprintf(f, "%s\n  {\n    type = ", w ? "," : "");
		write_string(f, wl->ops->name);
		fputs(";\n", f);
		write_table(f, sc, "    ", prefix, wl->ops->params, wl->params);
		fputs("  }", f);
	}
	fputs(sc->nworkloads ? "\n);\n" : ");\n", f);
}

char *sb_cfg_resolved_text(const struct sb_scenario *sc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m) {
		fprintf(stderr, "sharebuf: out of memory\n");
		abort();
	}
	sb_cfg_write_resolved(m, sc);
	fclose(m);
	return text;
}
