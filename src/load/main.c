/*
 * main.c — build/sharebuf-load: the testbed's load generator (docs/testbed.md).
 *
 *   sharebuf-load server --listen PORT [--cc NAME] [--idle-ms MS]
 *   sharebuf-load client SCENARIO --host I --out DIR [--set K=V]... [--peers FILE] [--port P]
 *                        [--preopen N] [--grace-ms MS] [--reuse]
 *   sharebuf-load report SCENARIO --out DIR [--set K=V]... [--switch SWDIR] [--nstat FILE]...
 *                        MEASURED.csv...
 *   sharebuf-load plan SCENARIO [--set K=V]... [--host I]
 *   sharebuf-load info SCENARIO [--set K=V]...
 *
 * client plays host I's flows (net.h) and writes DIR/measured.csv, then DIR/flows.csv and
 * DIR/summary.json of its own flows; report merges several hosts' measured.csv into one
 * flows.csv and summary.json (plan.h), with --switch the drops and buffer samples that
 * build/sharebuf-switch wrote into SWDIR (switch_counts.h) and with --nstat the hosts' kernel
 * TCP counters (`nstat -az` outputs, summed: nstat.h); plan prints the flows a client would play, one line
 * each (flow_id src dst size_bytes start_ps query prio cc), to check what will run;
 * info prints what testbed/run.sh sets up the hosts with, as shell assignments (hosts=8,
 * rate_gbps=1, min_rto_ms=200, cc=cubic, ecn=0, duration_s=3, tcp_flows=N, and
 * cbr="SRC:DST:BITS_PER_S:PACKET_BYTES:PRIO:START_MS ..." for the iperf3 flows), read from the scenario as
 * the simulator reads it.
 * Bad input: one message naming the option or FILE:LINE: KEY, exit 2, nothing written.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load/net.h"
#include "load/nstat.h"
#include "load/plan.h"
#include "load/proto.h"
#include "load/switch_counts.h"
#include "sim/outdir.h"
#include "sim/report.h"
#include "transport/transport.h"

#define MAX_SETS 256

struct args {
	const char *scenario, *out, *peers, *switch_dir, *cc;
	const char *sets[MAX_SETS];
	size_t nsets;
	const char *files[MAX_SETS];
	size_t nfiles;
	const char *nstat[MAX_SETS];
	size_t nnstat;
	long long host, port, listen, preopen, grace_ms, idle_ms;
	bool reuse;
};

static int usage(const char *fmt, const char *what)
{
	fprintf(stderr, "sharebuf-load: ");
	fprintf(stderr, fmt, what);
	fputs("\nusage: sharebuf-load server --listen PORT [--cc NAME] [--idle-ms MS]\n"
	      "       sharebuf-load client SCENARIO --host I --out DIR [--set K=V]... [--peers FILE] [--port P] [--preopen N] [--grace-ms MS] [--reuse]\n"
	      "       sharebuf-load report SCENARIO --out DIR [--set K=V]... [--switch SWDIR] [--nstat FILE]... MEASURED.csv...\n"
	      "       sharebuf-load plan SCENARIO [--set K=V]... [--host I]\n"
	      "       sharebuf-load info SCENARIO [--set K=V]...\n",
	      stderr);
	return 2;
}

/* A whole number in [lo, hi] for option `opt`. */
static int number(const char *opt, const char *v, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (errno || end == v || *end || x < lo || x > hi) {
		fprintf(stderr, "sharebuf-load: %s: expected a whole number in [%lld, %lld], got \"%s\"\n", opt, lo, hi, v);
		return 2;
	}
	*out = x;
	return 0;
}

static int parse(int argc, char **argv, struct args *a)
{
	/* port 5301: testbed/run.sh's; iperf3's default is 5201 */
	*a = (struct args){ .host = -1, .port = 5301, .listen = -1, .preopen = 1, .grace_ms = 2000,
			  .idle_ms = SB_LOAD_IDLE_MS_DEFAULT };
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = !strcmp(s, "--set") || !strcmp(s, "--out") || !strcmp(s, "--peers") || !strcmp(s, "--switch") || !strcmp(s, "--nstat") || !strcmp(s, "--cc") || !strcmp(s, "--host") ||
			     !strcmp(s, "--port") || !strcmp(s, "--listen") || !strcmp(s, "--preopen") ||
			     !strcmp(s, "--grace-ms") || !strcmp(s, "--idle-ms");
		if (takes && !v)
			return usage("%s needs a value", s);
		int rc = 0;
		if (!strcmp(s, "--set")) {
			if (!strchr(v, '='))
				return usage("--set %s: expected KEY=VALUE", v);
			if (a->nsets == MAX_SETS)
				return usage("more than %s --set options", "256");
			a->sets[a->nsets++] = v;
		} else if (!strcmp(s, "--out"))
			a->out = v;
		else if (!strcmp(s, "--peers"))
			a->peers = v;
		else if (!strcmp(s, "--switch"))
			a->switch_dir = v;
		else if (!strcmp(s, "--nstat")) {
			if (a->nnstat == MAX_SETS)
				return usage("more than %s --nstat options", "256");
			a->nstat[a->nnstat++] = v;
		}
		else if (!strcmp(s, "--cc"))
			a->cc = v;
		else if (!strcmp(s, "--host"))
			rc = number(s, v, 0, 65535, &a->host);
		else if (!strcmp(s, "--port"))
			rc = number(s, v, 1, 65535, &a->port);
		else if (!strcmp(s, "--listen"))
			rc = number(s, v, 1, 65535, &a->listen);
		else if (!strcmp(s, "--preopen"))
			rc = number(s, v, 0, 64, &a->preopen);
		else if (!strcmp(s, "--grace-ms"))
			rc = number(s, v, 0, SB_LOAD_MAX_GRACE_MS, &a->grace_ms);
		else if (!strcmp(s, "--idle-ms"))
			rc = number(s, v, 0, 86400000, &a->idle_ms);
		else if (!strcmp(s, "--reuse"))
			a->reuse = true;
		else if (s[0] == '-' && s[1] == '-')
			return usage("unknown option %s", s);
		else if (!a->scenario)
			a->scenario = s;
		else if (a->nfiles < MAX_SETS)
			a->files[a->nfiles++] = s;
		else
			return usage("more than %s files", "256");
		if (rc)
			return rc;
		i += takes;
	}
	return 0;
}

static void on_stop(int sig)
{
	(void)sig;
	sb_load_stop = 1;
}

static void catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int cmd_server(const struct args *a)
{
	if (a->listen < 0)
		return usage("server: %s is required", "--listen PORT");
	catch_stop();
	struct sb_error err = { 0 };
	struct sb_load_server_opts o = { .port = (uint16_t)a->listen, .cc = a->cc, .idle = (sb_time)a->idle_ms * SB_MS,
					 .log = stderr };
	if (sb_load_serve(&o, &err) == 0)
		return 0;
	fprintf(stderr, "sharebuf-load: %s\n", err.msg);
	return 1;
}

/* The scenario's flow plan, or its error on stderr (nonzero). */
static int open_plan(const struct args *a, struct sb_load_plan *p)
{
	struct sb_error err = { 0 };
	if (sb_load_plan_open(p, a->scenario, a->sets, a->nsets, &err) == 0)
		return 0;
	fprintf(stderr, "sharebuf-load: %s\n", err.msg);
	sb_load_plan_free(p);
	return -1;
}

static int cmd_plan(const struct args *a)
{
	struct sb_load_plan p;
	if (open_plan(a, &p))
		return 2;
	for (size_t i = 0; i < p.n; i++) {
		const struct sb_load_flow *f = &p.flows[i];
		if (a->host < 0 || f->dst == (uint32_t)a->host)
			printf("%" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64 " %" PRId32 " %u %s\n", f->id, f->src,
			       f->dst, f->size, (uint64_t)f->start, f->query, f->prio, f->cc);
	}
	sb_load_plan_free(&p);
	return 0;
}

static int cmd_info(const struct args *a)
{
	struct sb_load_plan p;
	if (open_plan(a, &p))
		return 2;
	/* the hosts' default congestion control: the first TCP workload's; ECN when DCTCP plays */
	const char *cc = NULL;
	for (size_t i = 0; i < p.sc.nworkloads && !cc; i++)
		cc = sb_load_linux_cc(p.sc.workloads[i].transport);
	bool ecn = false;
	for (size_t i = 0; i < p.sc.nworkloads; i++) {
		const char *w = sb_load_linux_cc(p.sc.workloads[i].transport);
		ecn |= w && !strcmp(w, "dctcp");
	}
	printf("hosts=%u\nrate_gbps=%.17g\nmin_rto_ms=%.17g\ncc=%s\necn=%d\nduration_s=%.17g\ntcp_flows=%zu\n",
	       p.sim.net.nhosts, p.sc.topo.host_rate_gbps, p.sc.tcp.min_rto_us / 1000.0, cc ? cc : "cubic", ecn,
	       (double)p.sim.stop_at / (double)SB_SEC, p.n);
	/* constant-bit-rate flows, for iperf3: SRC:DST:BITS_PER_S:PACKET_BYTES:PRIO:START_MS */
	printf("cbr=\"");
	const char *sep = "";
	for (size_t i = 0; i < p.sc.nworkloads; i++) {
		const struct sb_workload *w = &p.sc.workloads[i];
		for (size_t k = 0; w->type == SB_WL_CBR && k < w->srcs.n; k++, sep = " ")
			printf("%s%lld:%lld:%.0f:%lld:%lld:%.17g", sep, (long long)w->srcs.v[k], (long long)w->dst,
			       w->rate_gbps * 1e9, (long long)w->packet_bytes,
			       (long long)(w->prio >= 0 ? w->prio : sb_transport_default_prio(sb_transport_find(w->transport))),
			       w->start_ms);
	}
	printf("\"\n");
	sb_load_plan_free(&p);
	return 0;
}

/* Play (client) and/or report into a->out. */
static int cmd_client_or_report(const struct args *a, bool client)
{
	if (!a->out)
		return usage("%s: --out DIR is required", client ? "client" : "report");
	if (client && a->host < 0)
		return usage("client: %s is required", "--host I");
	if (!client && a->nfiles == 0)
		return usage("report: %s", "expected at least one MEASURED.csv");
	if (client && a->nfiles)
		return usage("client: unexpected argument %s", a->files[0]);
	if (client && a->nnstat)
		return usage("client: %s is an option of report", "--nstat");
	struct sb_load_plan p;
	struct sb_error err = { 0 };
	int rc = sb_load_plan_open(&p, a->scenario, a->sets, a->nsets, &err) ? 2 : 0;
	if (rc == 0 && client && (uint64_t)a->host >= p.sim.net.nhosts) {
		rc = -2 * sb_fail(&err, "--host %lld: the scenario has hosts 0..%u", a->host, p.sim.net.nhosts - 1);
	}
	if (rc == 0 && a->switch_dir && sb_load_switch_counts(&p, a->switch_dir, &err))
		rc = 2;
	for (size_t i = 0; rc == 0 && i < a->nnstat; i++)
		if (sb_load_nstat(&p, a->nstat[i], &err))
			rc = 2;
	if (rc == 0 && sb_outdir_claim(a->out, sb_report_file_names, &err))
		rc = 2;
	char tmp[4096] = "", final[4096];
	const char *files[1] = { final };
	if (rc == 0 && client) {
		snprintf(final, sizeof(final), "%s/measured.csv", a->out);
		FILE *m = sb_outdir_tmp_open(a->out, "measured.csv", tmp, sizeof(tmp), &err);
		if (!m)
			rc = 1;
		catch_stop();
		struct sb_load_client_opts o = {
			.host = (uint32_t)a->host, .port = (uint16_t)a->port, .peers = a->peers,
			.preopen = a->preopen > 0 ? (unsigned)a->preopen : 1, .reuse = a->reuse, .grace = (sb_time)a->grace_ms * SB_MS, .measured = m,
		};
		if (m) {
			sb_load_measured_header(m);
			rc = sb_load_play(&p, &o, &err) ? 1 : 0;
			/* checked close (a write error of any earlier row counts), rename into place;
			 * on failure the temporary goes and the message names measured.csv */
			char *fin[1] = { final };
			FILE *mf[1] = { m };
			if (sb_outdir_commit(mf, &tmp, fin, 1, rc, &err) && rc == 0)
				rc = 1;
		}
	}
	if (rc == 0 && sb_load_plan_report(&p, client ? files : a->files, client ? 1 : a->nfiles, a->out, &err))
		rc = client ? 1 : 2;
	if (rc)
		fprintf(stderr, "sharebuf-load: %s\n", err.msg);
	sb_outdir_release(rc != 0);
	sb_load_plan_free(&p);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage("%s", "expected a command");
	struct args a;
	int rc = parse(argc - 2, argv + 2, &a);
	if (rc)
		return rc;
	const char *cmd = argv[1];
	if (!strcmp(cmd, "server"))
		return a.scenario ? usage("server: unexpected argument %s", a.scenario) : cmd_server(&a);
	if (!strcmp(cmd, "plan"))
		return cmd_plan(&a);
	if (!strcmp(cmd, "info"))
		return cmd_info(&a);
	if (!strcmp(cmd, "client"))
		return cmd_client_or_report(&a, true);
	if (!strcmp(cmd, "report"))
		return cmd_client_or_report(&a, false);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage("%s", "the testbed's load generator (docs/testbed.md)");
		return 0;
	}
	return usage("unknown command \"%s\"", cmd);
}
