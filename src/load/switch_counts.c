/*
 * switch_counts.c — the testbed switch's drops and buffer samples into the run's outputs
 * (switch_counts.h).
 */
#include "load/switch_counts.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "core/lines.h"
#include "sim/report.h"

static int read_summary(struct sb_load_plan *p, const char *path, struct sb_error *err)
{
	json_error_t jerr;
	json_t *j = json_load_file(path, 0, &jerr);
	if (!j)
		return sb_fail(err, "%s: cannot read the switch's summary: %s (line %d)", path, jerr.text, jerr.line);
	json_t *dropped = json_object_get(j, "dropped"), *causes = json_object_get(dropped, "by_cause");
	json_t *total = json_object_get(dropped, "pkts"), *peak = json_object_get(j, "peak_occupancy_bytes");
	if (!json_is_integer(total) || !json_is_object(causes) || !json_is_integer(peak)) {
		json_decref(j);
		return sb_fail(err, "%s: not a summary of sharebuf-switch (expected dropped.pkts, dropped.by_cause and peak_occupancy_bytes)",
			       path);
	}
	struct sb_sim *sim = &p->sim;
	struct sb_switch *sw = sim->switches[0];
	sim->stats.pkts_dropped = (uint64_t)json_integer_value(total);
	for (int c = 1; c < SB_DROP_NCAUSES; c++) {
		json_t *n = json_object_get(causes, sb_drop_cause_name[c]);
		sw->drops[c] = sim->stats.drops[c] = json_is_integer(n) ? (uint64_t)json_integer_value(n) : 0;
	}
	struct sb_mmu *m = sw->mmus[0];
	m->peak_used = (uint64_t)json_integer_value(peak) / (m->cell_bytes ? m->cell_bytes : 1);
	json_decref(j);
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
		unsigned long long lossy, lossless, drops;
		int end = 0;
		if (sscanf(line, "%lf,%*[^,],%llu,%llu,%lf,%llu%n", &t_ns, &lossy, &lossless, &util, &drops, &end) != 5 ||
		    line[end] || !(t_ns >= 0) || t_ns > 1e15) {
			rc = sb_fail(err, "%s:%d: expected time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops, got `%s`",
				     path, in.line, line);
			break;
		}
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
