/*
 * cfg_messages.c — the scenario's groups, name lookups and error messages shared by the file
 * reader (cfgfile.c) and the `--set` overrides (cfg_override.c), so that both report a mistake
 * in the same words. cfg_internal.h documents each function.
 */
#include "scenario/cfg_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mmu/mmu.h"

/* The top-level names a scenario may use, for suggestions. */
static const char *const root_groups[] = { "run", "topology", "switch", "host", "tcp", "rdma", "workloads", NULL };

const struct cfg_section cfg_sections[] = {
	{ "run", sb_run_param_table, offsetof(struct sb_scenario, run) },
	{ "topology", sb_topo_param_table, offsetof(struct sb_scenario, topo) },
	{ "switch", sb_switch_param_table, offsetof(struct sb_scenario, sw) },
	{ "host", sb_host_param_table, offsetof(struct sb_scenario, host) },
	{ "tcp", sb_tcp_param_table, offsetof(struct sb_scenario, tcp) },
	{ "pfc", sb_pfc_param_table, offsetof(struct sb_scenario, pfc) },
	{ "rdma", sb_rdma_param_table, offsetof(struct sb_scenario, rdma) },
};
const size_t cfg_nsections = SB_ARRAY_LEN(cfg_sections);

const struct cfg_section *cfg_find_section(const char *name)
{
	for (size_t i = 0; i < SB_ARRAY_LEN(cfg_sections); i++)
		if (strcmp(cfg_sections[i].name, name) == 0)
			return &cfg_sections[i];
	return NULL;
}

int cfg_scheme_index(const char *name)
{
	const struct sb_bm_ops *const *all = sb_bm_all();
	for (int i = 0; all[i]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return i;
	return -1;
}

/* ---------- messages ---------- */

int cfg_fail_place(struct sb_error *err, const char *place, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return sb_fail(err, "%s: %s", place, what);
}

int cfg_relay(struct sb_error *err, const char *place, const struct sb_param *p,
	      const struct sb_error *inner)
{
	/* Copied first: `inner` and `err` may be the same. */
	char what[sizeof(inner->msg)];
	const char *m = inner->msg;
	size_t n = strlen(p->name);
	if (strncmp(m, p->name, n) == 0 && m[n] == ':' && m[n + 1] == ' ')
		m += n + 2;
	memcpy(what, m, strlen(m) + 1);
	return sb_fail(err, "%s: %s", place, what);
}

int cfg_int_range_fail(struct sb_error *err, const char *place, const struct sb_param *p, double v)
{
	if (p->type != SB_P_INT || (v >= p->min && v <= p->max))
		return 0;
	char a[SB_NUM_TEXT], lo[SB_NUM_TEXT], hi[SB_NUM_TEXT];
	return cfg_fail_place(err, place, "%s is out of range, expected a value in [%s, %s]%s%s",
			      sb_param_num_text(v, a), sb_param_num_text(p->min, lo), sb_param_num_text(p->max, hi),
			      p->unit && *p->unit ? " " : "", p->unit ? p->unit : "");
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

static void consider(struct cfg_suggestion *s, const char *candidate)
{
	int d = edit_distance(s->name, candidate);
	/* Two edits turn any short word into another ("foo" into "off"): be stricter there. */
	int allowed = strlen(s->name) <= 3 ? 1 : 2;
	if (d <= allowed && (!s->best || d < s->dist)) {
		s->best = candidate;
		s->dist = d;
	}
}

void cfg_consider_table(struct cfg_suggestion *s, const struct sb_param *table)
{
	for (const struct sb_param *p = table; p && p->name; p++)
		consider(s, p->name);
}

void cfg_consider_schemes(struct cfg_suggestion *s)
{
	for (const struct sb_bm_ops *const *o = sb_bm_all(); *o; o++)
		consider(s, (*o)->name);
}

int cfg_unknown_key(struct sb_error *err, const char *place, const char *prefix,
		    const struct cfg_suggestion *s, const char *group)
{
	if (s->best)
		return cfg_fail_place(err, place, "unknown key (did you mean %s%s?)", prefix, s->best);
	return cfg_fail_place(err, place, "unknown key (`sharebuf params` lists the keys of %s)", group);
}

int cfg_unknown_workload_key(const struct sb_workload_ops *const *types, struct sb_error *err, const char *place, size_t index,
			     const struct sb_workload_ops *type, const char *name)
{
	for (const struct sb_workload_ops *const *t = types; t && *t; t++)
		if (*t != type && sb_param_find((*t)->params, name))
			return cfg_fail_place(err, place, "unknown key for a workload of type %s (%s is a key of type %s)",
					      type->name, name, (*t)->name);
	struct cfg_suggestion s = { name, NULL, 0 };
	cfg_consider_table(&s, type->params);
	consider(&s, "type");
	char prefix[48], group[64];
	snprintf(prefix, sizeof(prefix), "workloads.%zu.", index);
	snprintf(group, sizeof(group), "a workload of type %s", type->name);
	return cfg_unknown_key(err, place, prefix, &s, group);
}

int cfg_unknown_group(struct sb_error *err, const char *place, const char *name)
{
	struct cfg_suggestion s = { name, NULL, 0 };
	for (const char *const *r = root_groups; *r; r++)
		consider(&s, *r);
	if (s.best)
		return cfg_fail_place(err, place, "unknown key (did you mean %s?)", s.best);
	return cfg_fail_place(err, place, "unknown key, expected one of run, topology, switch, host, tcp, rdma, workloads");
}

int cfg_workload_type_fail(const struct sb_workload_ops *const *types, struct sb_error *err, const char *place, const char *got, const char *name)
{
	char names[128];
	sb_workload_names(types, names, sizeof(names));
	struct cfg_suggestion s = { name ? name : "", NULL, 0 };
	for (const struct sb_workload_ops *const *t = types; t && *t; t++)
		consider(&s, (*t)->name);
	if (s.best)
		return cfg_fail_place(err, place, "expected one of %s, got %s (did you mean \"%s\"?)", names, got, s.best);
	return cfg_fail_place(err, place, "expected one of %s, got %s", names, got);
}

int cfg_relay_string(struct sb_error *err, const char *place, const struct sb_param *p,
		     const struct sb_error *inner, const char *value)
{
	cfg_relay(err, place, p, inner);
	if (p->type != SB_P_ENUM)
		return -1;
	struct cfg_suggestion s = { value, NULL, 0 };
	for (const char *const *c = p->choices; c && *c; c++)
		consider(&s, *c);
	size_t used = strlen(err->msg);
	if (s.best && used < sizeof(err->msg))
		snprintf(err->msg + used, sizeof(err->msg) - used, " (did you mean \"%s\"?)", s.best);
	return -1;
}
