/*
 * cfg_override.c — `--set KEY=VALUE` overrides, applied after the scenario file (sb_cfg_load).
 *
 * The dotted KEY names the same place a file would (switch.dt.alpha, workloads.0.load), and the
 * VALUE is parsed by sb_param_set_text, so every check and message is the file reader's with
 * "--set KEY" as the place (cfg_messages.c).
 */
#include "scenario/cfg_internal.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"

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
	const struct sb_workload_ops *type = sb_scenario_workload_type(sc, name);
	if (!type) {
		char got[160];
		snprintf(got, sizeof(got), "\"%.128s\"", name);
		int rc = cfg_workload_type_fail(sc->workload_types, err, place, got, name);
		free(name);
		return rc;
	}
	free(name);
	sc->workloads = sb_xrealloc(sc->workloads, (sc->nworkloads + 1) * sizeof(*sc->workloads));
	struct sb_workload *wl = &sc->workloads[sc->nworkloads++];
	memset(wl, 0, sizeof(*wl));
	sb_workload_init(wl, type);
	return 0;
}

/* Find what an override's dotted key designates: a parameter and the struct that holds it. */
static int resolve_override(struct sb_scenario *sc, char **part, size_t nparts, const char *place,
			    const char *value, const struct sb_param **out_p, void **out_obj,
			    struct sb_error *err)
{
	const char *g = part[0];
	const struct cfg_section *sec = cfg_find_section(g);
	const struct sb_param *table = NULL;
	void *obj = NULL;
	char prefix[96], group[96];
	struct cfg_suggestion s = { "", NULL, 0 };
	size_t leaf = 1; /* index of the part naming the parameter */

	if (sec) {
		table = sec->table;
		obj = (char *)sc + sec->offset;
		snprintf(group, sizeof(group), "%s", g);
		int scheme = !strcmp(g, "switch") && nparts >= 2 ? cfg_scheme_index(part[1]) : -1;
		if (scheme >= 0) {
			const struct sb_bm_ops *ops = sb_bm_all()[scheme];
			table = ops->params;
			obj = sc->scheme_params[scheme];
			leaf = 2;
			snprintf(group, sizeof(group), "switch.%s", ops->name);
			if (!table || !table->name)
				return cfg_fail_place(err, place, "unknown key (scheme %s has no parameters)", ops->name);
		}
	} else if (!strcmp(g, "workloads") && !sc->workload_types) {
		return 1; /* done, nothing to set: the program leaves the workloads unread (struct sb_scenario, workload_types) */
	} else if (!strcmp(g, "workloads")) {
		char *end = NULL;
		unsigned long long index = nparts >= 2 && isdigit((unsigned char)part[1][0])
						   ? strtoull(part[1], &end, 10) : 0;
		if (nparts < 3 || !end || *end)
			return cfg_fail_place(err, place, "expected workloads.N.KEY, N counted from 0");
		if (index == sc->nworkloads && !strcmp(part[2], "type") && nparts == 3) {
			if (append_workload(sc, place, value, err))
				return -1;
			char wkey[48];
			snprintf(wkey, sizeof(wkey), "workloads.%llu", index);
			sb_scenario_note_origin(sc, wkey, NULL, 0);
			return 1;
		}
		if (index >= sc->nworkloads)
			return cfg_fail_place(err, place, "the scenario has %zu workload%s; add one with workloads.%zu.type=TYPE",
					      sc->nworkloads, sc->nworkloads == 1 ? "" : "s", sc->nworkloads);
		struct sb_workload *wl = &sc->workloads[index];
		if (!strcmp(part[2], "type") && nparts == 3) {
			char *name = bare_value(value);
			bool same = strcmp(name, wl->ops->name) == 0;
			free(name);
			if (same)
				return 1;
			return cfg_fail_place(err, place, "cannot change the type of a workload (it is %s); add a new one instead",
					      wl->ops->name);
		}
		if (nparts == 3 && !sb_param_find(wl->ops->params, part[2]))
			return cfg_unknown_workload_key(sc->workload_types, err, place, (size_t)index, wl->ops, part[2]);
		table = wl->ops->params;
		obj = wl->params;
		leaf = 2;
		snprintf(group, sizeof(group), "a workload of type %s", wl->ops->name);
	} else {
		return cfg_unknown_group(err, place, g);
	}

	if (nparts <= leaf)
		return cfg_fail_place(err, place, "is a group; set one of its keys, e.g. %s.%s=VALUE", group,
				      table && table->name ? table->name : "KEY");
	const struct sb_param *p = nparts == leaf + 1 ? sb_param_find(table, part[leaf]) : NULL;
	if (!p) {
		s.name = part[leaf];
		cfg_consider_table(&s, table);
		if (!strcmp(g, "switch") && leaf == 1)
			cfg_consider_schemes(&s);
		size_t used = 0;
		prefix[0] = 0;
		for (size_t i = 0; i < leaf; i++)
			used += (size_t)snprintf(prefix + used, sizeof(prefix) - SB_MIN(used, sizeof(prefix)),
						 "%.40s.", part[i]);
		if (nparts > leaf + 1 && sb_param_find(table, part[leaf]))
			return cfg_fail_place(err, place, "unknown key (%s%s is not a group)", prefix, part[leaf]);
		return cfg_unknown_key(err, place, prefix, &s, group);
	}
	*out_p = p;
	*out_obj = obj;
	return 0;
}

int cfg_apply_override(struct sb_scenario *sc, const char *set, struct sb_error *err)
{
	const char *eq = strchr(set, '=');
	char place[CFG_PLACE_LEN];
	if (!eq) {
		snprintf(place, sizeof(place), "--set %.256s", set);
		return cfg_fail_place(err, place, "expected KEY=VALUE");
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
		return cfg_fail_place(err, place, "expected KEY=VALUE with a dotted KEY such as switch.scheme or workloads.0.load");
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
		if (end != value && !*end && cfg_int_range_fail(err, place, p, v))
			rc = -1;
		else if (sb_param_set_text(p, obj, value, &inner)) {
			char *bare = bare_value(value);
			rc = cfg_relay_string(err, place, p, &inner, bare);
			free(bare);
		} else {
			/* the key as the file reader spells it (workloads.007.load is workloads.7.load) */
			char canon[CFG_PLACE_LEN];
			if (!strcmp(part[0], "workloads"))
				snprintf(canon, sizeof(canon), "workloads.%llu.%.200s", strtoull(part[1], NULL, 10), part[2]);
			else if (nparts == 3)
				snprintf(canon, sizeof(canon), "%s.%.100s.%.100s", part[0], part[1], part[2]);
			else
				snprintf(canon, sizeof(canon), "%s.%.200s", part[0], part[1]);
			sb_scenario_note_origin(sc, canon, NULL, 0);
		}
	}
	free(key);
	return rc < 0 ? -1 : 0;
}
