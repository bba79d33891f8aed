/*
 * wl_file.c — replays the flows listed in a CSV file (docs/workloads.md): the flow list is
 * workload/flowfile.c's to read and workload/filefeed.c's to feed into the run; this file is
 * the type around them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lines.h"
#include "workload/filefeed.h"
#include "workload/flowfile.h"
#include "workload/types.h"
#include "workload/wl_params.h"
#include "workload/world.h"

#define P(f) offsetof(struct sb_wl_file, f)
/* A flow list's flows that start within this many microseconds of each other count as in
 * flight at once (scan_flow_list). */
#define FILE_WINDOW_US 1000.0

/* The flow list gives each flow its own transport, priority, class and start, so a file
 * workload has only its path and an optional time offset. */
static const struct sb_param file_params[] = {
	{ "path", SB_P_STRING, P(path), "", 0, 0, "", NULL,
	  "file listing the flows to replay, one per line (see docs/workloads.md). A relative path is relative to the directory of the scenario file that names it; one given with --set, to the working directory" },
	{ "start_ms", SB_P_DOUBLE, P(c.start_ms), "0", 0, 1e7, "ms", NULL,
	  "offset added to every start time of the file" },
	SB_PARAM_END
};

static int validate(const void *params, const struct sb_wl_shape *s, const struct sb_wl_env *env, struct sb_error *err)
{
	const struct sb_wl_file *p = params;
	(void)s;
	if (!p->path || !*p->path)
		return sb_wl_fail(env, "path", err, "required for a workload of type file (the flow list to replay)");
	return 0;
}

/* A flow list without reading it as the simulator does: its lines (one flow each but the
 * header and comments) and the most flows that start within FILE_WINDOW_US of each other,
 * from the first field of each line (all of them when the file is not in start order: it is
 * then sorted in memory, 48 bytes a line, and *sorted says so). Lines that do not parse are
 * the builder's to report. */
struct flow_list_scan {
	double lines, busiest;
	bool sorted;
};

static struct flow_list_scan scan_flow_list(const char *path)
{
	struct flow_list_scan r = { 0, 0, true };
	FILE *f = sb_fopen_regular(path);
	if (!f)
		return r;
	static char line[SB_LINE_MAX + 2];
	double prev = 0, bucket = -1, in_bucket = 0, in_prev = 0;
	bool header = true;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		if (len && line[len - 1] != '\n' && !feof(f)) { /* a line longer than the reader takes */
			int ch;
			while ((ch = fgetc(f)) != EOF && ch != '\n')
				;
		}
		r.lines++;
		const char *p = line + strspn(line, " \t\xEF\xBB\xBF");
		if (*p == '#' || *p == '\n' || *p == '\r' || *p == 0)
			continue;
		if (header) {
			header = false;
			continue;
		}
		double start = strtod(p, NULL);
		if (!(start >= prev)) /* NaN too */
			r.sorted = false;
		prev = start;
		double b = floor(start / FILE_WINDOW_US);
		if (b != bucket) {
			in_prev = b == bucket + 1 ? in_bucket : 0;
			bucket = b;
			in_bucket = 0;
		}
		in_bucket++;
		if (in_bucket + in_prev > r.busiest) /* a window spans at most two buckets */
			r.busiest = in_bucket + in_prev;
	}
	fclose(f);
	if (!r.sorted)
		r.busiest = r.lines;
	return r;
}

static void estimate(const void *params, const struct sb_wl_estimate_in *in, const struct sb_wl_env *env,
		     struct sb_wl_estimate *out)
{
	const struct sb_wl_file *p = params;
	char key[48];
	snprintf(key, sizeof(key), "workloads.%zu.path", env->index);
	char *path = env->path(env->ctx, key, p->path ? p->path : "");
	struct flow_list_scan scan = scan_flow_list(path);
	free(path);
	double n = scan.lines;
	out->flows = n;
	out->in_flight = scan.busiest;
	out->extra_bytes = scan.sorted ? 0 : n * (double)sizeof(struct sb_flow_record);
	out->start_events = scan.busiest;
	out->flows_key = out->issued_key = "path";
	snprintf(out->what, sizeof(out->what), "the %.0f lines of workload %zu's flow list, a flow each (%.4g within %g ms%s, "
		 "≈ %.1f KB each at once)", n, env->index, scan.busiest, FILE_WINDOW_US / 1e3,
		 scan.sorted ? "" : ": not in start order, held whole", in->flow_bytes / 1e3);
}

static const char *input_file(const void *params, const char **key, bool *builtin_ok)
{
	const struct sb_wl_file *p = params;
	*key = "path";
	*builtin_ok = false;
	return p->path && *p->path ? p->path : NULL;
}

static int start(struct sb_wl_run *r, struct sb_error *err)
{
	struct sb_filefeed *feed = NULL;
	const struct sb_wl_file *p = r->cfg->params;
	int rc = sb_filefeed_start(r->world, &r->env, p->path, r->start, &feed, err);
	r->state = feed;
	return rc;
}

static void release(struct sb_wl_run *r)
{
	sb_filefeed_free(r->state);
}

const struct sb_workload_ops sb_workload_file = {
	.name = "file",
	.summary = "Replays the flows listed in the file `path`.",
	.params = file_params,
	.params_size = sizeof(struct sb_wl_file),
	.transport_per_flow = true,
	.validate = validate,
	.estimate = estimate,
	.input_file = input_file,
	.start = start,
	.free = release,
};
