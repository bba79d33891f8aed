/*
 * plan.c — the testbed's flows from the simulator's workload generators (plan.h), and the
 * simulator's outputs from the testbed's measurements.
 */
#include "load/plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/cfgfile.h"
#include "core/lines.h"
#include "load/fields.h"
#include "load/proto.h"
#include "sim/report.h"
#include "workload/types.h"

extern const char sb_default_scenario[];

/* sim->flows.plan: a flow starts; note it instead of sending anything. */
static void note_flow(void *ctx, struct sb_flows *fl, struct sb_flow *f)
{
	struct sb_load_plan *p = ctx;
	(void)fl;
	if (f->kind == SB_KIND_CBR)
		return; /* testbed/run.sh plays constant-bit-rate flows with iperf3 (docs/testbed.md) */
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 1024;
		p->flows = sb_xrealloc(p->flows, p->cap * sizeof(*p->flows));
	}
	const char *cc = sb_load_linux_cc(f->ops->name);
	p->flows[p->n++] = (struct sb_load_flow){
		.id = f->id, .src = f->src, .dst = f->dst, .size = f->size, .start = f->start,
		.query = f->query_id, .prio = f->prio, .cc = cc ? cc : "",
	};
}

/* What a kernel TCP cannot play is refused before anything runs. */
static int check_playable(const struct sb_scenario *sc, struct sb_error *err)
{
	if (sc->topo.type != SB_TOPO_SINGLE)
		return sb_scenario_fail(sc, "topology.type", err,
					"the testbed has one switch, expected \"single\"");
	for (size_t i = 0; i < sc->nworkloads; i++) {
		char key[48];
		snprintf(key, sizeof(key), "workloads.%zu.transport", i);
		const struct sb_workload *wl = &sc->workloads[i];
		if (wl->ops->transport_per_flow)
			return sb_scenario_fail(sc, key, err,
						"a file workload names a transport per line; the testbed plays poisson, incast, longlived and burst workloads");
		if (wl->ops == &sb_workload_cbr) /* iperf3 plays it (cmd_info) */
			continue;
		if (!sb_load_linux_cc(sb_workload_common(wl)->transport))
			return sb_scenario_fail(sc, key, err,
						"\"%s\" has no Linux TCP to play it, expected dctcp, cubic or newreno",
						sb_workload_common(wl)->transport);
	}
	return 0;
}

int sb_load_plan_open(struct sb_load_plan *p, const char *path, const char *const *sets, size_t nsets,
		      struct sb_error *err)
{
	memset(p, 0, sizeof(*p));
	sb_scenario_defaults(&p->sc);
	if (sb_cfg_load(&p->sc, path, sb_default_scenario, sets, nsets, err) || sb_scenario_validate(&p->sc, err) ||
	    check_playable(&p->sc, err))
		return -1;
	p->built = true;
	if (sb_sim_build(&p->sim, &p->sc, err))
		return -1;
	/* flows stay in the table after they complete, so report can find each by id */
	p->sim.flows.keep_finished = true;
	p->sim.flows.plan = note_flow;
	p->sim.flows.plan_ctx = p;
	/* only arrivals and flow starts are scheduled: nothing sends, so nothing else happens */
	sb_eventq_run_until(&p->sim.net.engine.eq, p->sim.stop_at);
	return 0;
}

void sb_load_plan_free(struct sb_load_plan *p)
{
	if (p->built)
		sb_sim_free(&p->sim);
	sb_scenario_free(&p->sc);
	free(p->flows);
	memset(p, 0, sizeof(*p));
}

void sb_load_measured_header(FILE *f)
{
	fputs("flow_id,src,dst,size_bytes,fct_ps\n", f);
}

void sb_load_measured_row(FILE *f, const struct sb_load_flow *fl, sb_time fct)
{
	fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64 "\n", fl->id, fl->src, fl->dst,
		fl->size, (uint64_t)fct);
}

struct measured {
	uint32_t flow;
	sb_time fct, finish;
};

static int by_finish(const void *a, const void *b)
{
	const struct measured *x = a, *y = b;
	if (x->finish != y->finish)
		return x->finish < y->finish ? -1 : 1;
	return x->flow < y->flow ? -1 : x->flow > y->flow;
}

static const struct sb_load_flow *find_flow(const struct sb_load_plan *p, uint32_t id)
{
	/* flows are in start order, ids in creation order: a scan is plenty for a testbed run */
	for (size_t i = 0; i < p->n; i++)
		if (p->flows[i].id == id)
			return &p->flows[i];
	return NULL;
}

/* The longest FCT a client can measure for flow fl: it reports a flow only when its last byte
 * came before the run's end plus its grace period (net.h), at most the largest --grace-ms. */
static uint64_t max_fct(const struct sb_load_plan *p, const struct sb_load_flow *fl)
{
	sb_time end = p->sim.stop_at > fl->start ? p->sim.stop_at - fl->start : 0;
	return (uint64_t)end + (uint64_t)SB_LOAD_MAX_GRACE_MS * (uint64_t)SB_MS;
}

/* One row of measured.csv, checked against the plan: every field a plain whole number in its
 * range (sscanf's %u would take "-1" as 2^32 - 1), the FCT at least 1 ps (0 would make a
 * slowdown of 0) and no longer than the client could have measured. */
static int parse_row(const struct sb_load_plan *p, const struct sb_lines *in, char *line, struct measured *m,
		     struct sb_error *err)
{
	static const char *const col[] = { "flow_id", "src", "dst", "size_bytes", "fct_ps" };
	char copy[160];
	snprintf(copy, sizeof(copy), "%s", line);
	char *f[5];
	int nf = sb_load_fields_split(line, f, 5);
	if (nf != 5)
		return sb_fail(err, "%s:%d: expected 5 fields flow_id,src,dst,size_bytes,fct_ps, got %d in `%s`", in->name,
			       in->line, nf, copy);
	uint64_t v[5];
	for (int c = 0; c < 4; c++)
		if (sb_load_field_u64(f[c], 0, c == 3 ? UINT64_MAX : UINT32_MAX, &v[c]))
			return sb_fail(err, "%s:%d: %s: expected a whole number in [0, %" PRIu64 "], got `%s`", in->name,
				       in->line, col[c], c == 3 ? UINT64_MAX : (uint64_t)UINT32_MAX, f[c]);
	uint32_t id = (uint32_t)v[0], src = (uint32_t)v[1], dst = (uint32_t)v[2];
	uint64_t size = v[3];
	const struct sb_load_flow *fl = find_flow(p, id);
	if (!fl || fl->src != src || fl->dst != dst || fl->size != size)
		return sb_fail(err, "%s:%d: flow %" PRIu32 " (%" PRIu32 " -> %" PRIu32 ", %" PRIu64
			       " bytes) is not a flow of this scenario's plan (measured with another scenario or seed?)",
			       in->name, in->line, id, src, dst, size);
	if (fl->size == 0)
		return sb_fail(err, "%s:%d: flow %" PRIu32 " is long-lived and never completes", in->name, in->line, id);
	uint64_t hi = max_fct(p, fl);
	if (sb_load_field_u64(f[4], 1, hi, &v[4]))
		return sb_fail(err, "%s:%d: fct_ps: expected a whole number of picoseconds in [1, %" PRIu64
			       "] (up to the run's end plus the longest grace after the flow's start), got `%s`",
			       in->name, in->line, hi, f[4]);
	*m = (struct measured){ .flow = id, .fct = (sb_time)v[4], .finish = fl->start + (sb_time)v[4] };
	return 0;
}

static int read_measured(const struct sb_load_plan *p, const char *path, struct measured **v, size_t *n,
			 size_t *cap, struct sb_error *err)
{
	struct sb_lines in;
	if (sb_lines_open(&in, path, "measured flows", err))
		return -1;
	char *line;
	int rc, bad = 0;
	while (!bad && (rc = sb_lines_next(&in, &line, err)) == 1) {
		if (in.line == 1) {
			if (strcmp(line, "flow_id,src,dst,size_bytes,fct_ps"))
				bad = sb_fail(err, "%s:1: expected the header flow_id,src,dst,size_bytes,fct_ps", path);
			continue;
		}
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 1024;
			*v = sb_xrealloc(*v, *cap * sizeof(**v));
		}
		bad = parse_row(p, &in, line, &(*v)[*n], err);
		*n += !bad;
	}
	sb_lines_close(&in);
	return bad || rc < 0 ? -1 : 0;
}

int sb_load_plan_report(struct sb_load_plan *p, const char *const *files, size_t nfiles, const char *dir,
			struct sb_error *err)
{
	struct measured *v = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < nfiles; i++)
		rc = read_measured(p, files[i], &v, &n, &cap, err);
	if (rc == 0) {
		/* completion order, as the simulator's flows.csv has it */
		if (n)
			qsort(v, n, sizeof(*v), by_finish);
		for (size_t i = 0; rc == 0 && i < n; i++) {
			struct sb_flow *f = sb_flow_get(&p->sim.flows, v[i].flow);
			if (f->completed)
				rc = sb_fail(err, "flow %" PRIu32 " was measured twice (two files of the same host?)", v[i].flow);
			else
				sb_flow_complete_at(&p->sim.flows, f, v[i].finish, v[i].finish);
		}
	}
	free(v);
	return rc ? -1 : sb_report_write(&p->sim, dir, 0, err);
}
