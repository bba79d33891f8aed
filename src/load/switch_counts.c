/*
 * switch_counts.c — the testbed switch's drops and buffer samples into the run's outputs
 * (switch_counts.h).
 */
#include "load/switch_counts.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/lines.h"
#include "load/fields.h"
#include "sim/report.h"

/* A count of the switch's summary: a JSON integer >= 0 (json_integer_value of a negative count
 * cast to uint64_t wrapped to 2^64 - 7). */
static int count_of(const char *path, const char *key, json_t *v, uint64_t *out, struct sb_error *err)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		char got[64] = "nothing";
		if (json_is_integer(v))
			snprintf(got, sizeof(got), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		else if (v)
			snprintf(got, sizeof(got), "a JSON %s", json_is_real(v) ? "real" : json_is_string(v) ? "string" : "value of another type");
		return sb_fail(err, "%s: %s: expected a whole number >= 0, got %s", path, key, got);
	}
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int read_summary(struct sb_load_plan *p, const char *path, struct sb_error *err)
{
	json_error_t jerr;
	json_t *j = json_load_file(path, 0, &jerr);
	if (!j)
		return sb_fail(err, "%s: cannot read the switch's summary: %s (line %d)", path, jerr.text, jerr.line);
	json_t *dropped = json_object_get(j, "dropped"), *causes = json_object_get(dropped, "by_cause");
	json_t *total = json_object_get(dropped, "pkts"), *peak = json_object_get(j, "peak_occupancy_bytes");
	if (!total || !json_is_object(causes) || !peak) {
		json_decref(j);
		return sb_fail(err, "%s: not a summary of sharebuf-switch (expected dropped.pkts, dropped.by_cause and peak_occupancy_bytes)",
			       path);
	}
	/* every count checked before any is taken: a refused file changes nothing */
	uint64_t pkts, peak_bytes, by[SB_DROP_NCAUSES] = { 0 }, sum = 0;
	int rc = count_of(path, "dropped.pkts", total, &pkts, err) ||
		 count_of(path, "peak_occupancy_bytes", peak, &peak_bytes, err) ? -1 : 0;
	const char *name;
	json_t *n;
	json_object_foreach(causes, name, n) {
		char key[128];
		snprintf(key, sizeof(key), "dropped.by_cause.%s", name);
		uint64_t v = 0;
		if (rc == 0 && count_of(path, key, n, &v, err))
			rc = -1;
		for (int c = 1; c < SB_DROP_NCAUSES; c++)
			if (!strcmp(name, sb_drop_cause_name[c]))
				by[c] = v;
		sum = sum + v < sum ? UINT64_MAX : sum + v;
	}
	/* dropped.pkts is the sum over the causes (src/dataplane/dpswitch.c, sb_dp_switch_dropped) */
	if (rc == 0 && sum != pkts)
		rc = sb_fail(err, "%s: dropped.pkts: expected the sum of dropped.by_cause, %" PRIu64 ", got %" PRIu64,
			     path, sum, pkts);
	json_decref(j);
	if (rc)
		return -1;
	struct sb_sim *sim = &p->sim;
	struct sb_switch *sw = sim->net.switches[0];
	sim->net.stats.pkts_dropped = pkts;
	for (int c = 1; c < SB_DROP_NCAUSES; c++)
		sw->drops[c] = sim->net.stats.drops[c] = by[c];
	struct sb_mmu *m = sw->mmus[0];
	m->peak_used = peak_bytes / (m->cell_bytes ? m->cell_bytes : 1);
	return 0;
}

/* One row of occupancy.csv (docs/outputs.md §4): a time in [0, 10^15] ns, the switch's name,
 * two byte counts, a utilisation that is finite and >= 0 (it may read slightly above 1: a
 * transmission counts whole when it starts) and a drop count. */
static int occupancy_row(const char *path, int line_no, char *line, double *t_ns, uint64_t *lossy,
			 uint64_t *lossless, double *util, uint64_t *drops, struct sb_error *err)
{
	static const char *const want[] = { "a time in ns in [0, 1e15]", "a switch name", "a whole number of bytes",
					    "a whole number of bytes", "a finite number >= 0", "a whole number of packets" };
	static const char *const col[] = { "time_ns", "switch", "lossy_bytes", "lossless_bytes", "mem_bw_util", "drops" };
	char *f[6];
	int n = sb_load_fields_split(line, f, 6);
	if (n != 6)
		return sb_fail(err, "%s:%d: expected 6 fields time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops, got %d",
			       path, line_no, n);
	int bad = -1;
	if (sb_load_field_real(f[0], 0, 1e15, t_ns))
		bad = 0;
	else if (!f[1][0])
		bad = 1;
	else if (sb_load_field_u64(f[2], 0, UINT64_MAX, lossy))
		bad = 2;
	else if (sb_load_field_u64(f[3], 0, UINT64_MAX, lossless))
		bad = 3;
	else if (sb_load_field_real(f[4], 0, HUGE_VAL, util))
		bad = 4;
	else if (sb_load_field_u64(f[5], 0, UINT64_MAX, drops))
		bad = 5;
	if (bad >= 0)
		return sb_fail(err, "%s:%d: %s: expected %s, got `%.40s`", path, line_no, col[bad], want[bad], f[bad]);
	return 0;
}

static int read_occupancy(struct sb_load_plan *p, const char *path, struct sb_error *err)
{
	struct sb_lines in;
	if (sb_lines_open(&in, path, "switch occupancy", err))
		return -1;
	char *line;
	int rc;
	while ((rc = sb_lines_next(&in, &line, err)) == 1) {
		if (in.line == 1) {
			if (strcmp(line, "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops")) {
				rc = sb_fail(err, "%s:1: expected the header of occupancy.csv (docs/outputs.md)", path);
				break;
			}
			continue;
		}
		double t_ns, util;
		uint64_t lossy, lossless, drops;
		if ((rc = occupancy_row(path, in.line, line, &t_ns, &lossy, &lossless, &util, &drops, err)))
			break;
		sb_report_add_sample(&p->sim, 0, (sb_time)(t_ns * 1e3 + 0.5), lossy, lossless, util, drops);
	}
	sb_lines_close(&in);
	return rc < 0 ? -1 : 0;
}

int sb_load_switch_counts(struct sb_load_plan *p, const char *dir, struct sb_error *err)
{
	size_t n = strlen(dir) + 32;
	char *sum = sb_xmalloc(n), *occ = sb_xmalloc(n);
	snprintf(sum, n, "%s/summary.json", dir);
	snprintf(occ, n, "%s/occupancy.csv", dir);
	int rc = read_summary(p, sum, err) || read_occupancy(p, occ, err) ? -1 : 0;
	free(sum);
	free(occ);
	return rc;
}
