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
 * Each command has its own options table (core/opt.h: the grammar of every program).
 * Bad input: one message naming the option or FILE:LINE: KEY, exit 2, nothing written.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cmd.h"
#include "load/net.h"
#include "load/nstat.h"
#include "load/plan.h"
#include "load/proto.h"
#include "load/switch_counts.h"
#include "core/outdir.h"
#include "sim/report.h"
#include "transport/transport.h"
#include "workload/types.h"

struct args {
	const char *scenario, *out, *peers, *switch_dir, *cc;
	struct sb_opt_list sets, nstat;
	struct sb_opt_list pos; /* SCENARIO, then report's MEASURED.csv files */
	const char **files;
	size_t nfiles;
	long long host, port, listen, preopen, grace_ms, idle_ms;
	bool reuse;
};

/* The options, one table per command (a command takes only its own). */
#define OPT(name, arg, flags, fn, field, lo, hi, help) \
	{ name, NULL, arg, flags, fn, offsetof(struct args, field), lo, hi, help }
#define SET OPT("--set", "KEY=VALUE", SB_OPT_REPEAT, sb_opt_key_value, sets, 0, 0, "override a key of the scenario")
#define HOST(flags) OPT("--host", "I", flags, sb_opt_whole, host, 0, 65535, "the host whose flows to play (or list)")

static const struct sb_opt server_opts[] = {
	OPT("--listen", "PORT", SB_OPT_REQUIRED, sb_opt_whole, listen, 1, 65535, "serve on TCP port PORT"),
	OPT("--cc", "NAME", 0, sb_opt_string, cc, 0, 0, "the congestion control connections are born with (default: the host's)"),
	OPT("--idle-ms", "MS", 0, sb_opt_whole, idle_ms, 0, 86400000, "close a connection idle for MS ms (0: never)"),
	{ 0 },
};

static const struct sb_opt client_opts[] = {
	HOST(SB_OPT_REQUIRED),
	OPT("--out", "DIR", SB_OPT_REQUIRED, sb_opt_string, out, 0, 0, "write DIR/measured.csv, flows.csv, summary.json"),
	SET,
	OPT("--peers", "FILE", 0, sb_opt_string, peers, 0, 0, "the hosts' addresses, \"INDEX ADDRESS\" lines (default: host i is 10.0.0.<i+1>)"),
	OPT("--port", "P", 0, sb_opt_whole, port, 1, 65535, "the servers' TCP port (default: 5301)"),
	OPT("--preopen", "N", 0, sb_opt_whole, preopen, 0, 64, "connections opened to each peer before time 0 (at least one)"),
	OPT("--grace-ms", "MS", 0, sb_opt_whole, grace_ms, 0, SB_LOAD_MAX_GRACE_MS,
	    "wait MS ms past the run's end for flows to complete"),
	OPT("--reuse", NULL, 0, sb_opt_true, reuse, 0, 0, "flows over idle persistent connections (else one connection each)"),
	{ 0 },
};

static const struct sb_opt report_opts[] = {
	OPT("--out", "DIR", SB_OPT_REQUIRED, sb_opt_string, out, 0, 0, "write DIR/flows.csv, summary.json, ..."),
	SET,
	OPT("--switch", "SWDIR", 0, sb_opt_string, switch_dir, 0, 0, "add the drops and buffer samples of sharebuf-switch"),
	OPT("--nstat", "FILE", SB_OPT_REPEAT, sb_opt_append, nstat, 0, 0, "add a host's kernel TCP counters (`nstat -az`)"),
	{ 0 },
};

static const struct sb_opt plan_opts[] = {
	SET,
	HOST(0),
	{ 0 },
};

static const struct sb_opt info_opts[] = {
	SET,
	{ 0 },
};

/* The command's options and arguments into *a. Returns SB_CMD_GO or the exit status. */
static int parse(const struct sb_cmd_call *c, int argc, char **argv, struct args *a)
{
	/* port 5301: testbed/run.sh's; iperf3's default is 5201 */
	*a = (struct args){ .host = -1, .port = 5301, .listen = -1, .preopen = 1, .grace_ms = 2000,
			  .idle_ms = SB_LOAD_IDLE_MS_DEFAULT };
	int rc = sb_cmd_parse(c, argc, argv, a, &a->pos);
	if (a->pos.n) {
		a->scenario = a->pos.v[0];
		a->files = a->pos.v + 1;
		a->nfiles = a->pos.n - 1;
	}
	return rc;
}

static void free_args(struct args *a)
{
	sb_opt_list_free(&a->sets);
	sb_opt_list_free(&a->nstat);
	sb_opt_list_free(&a->pos);
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
	if (sb_load_plan_open(p, a->scenario, a->sets.v, a->sets.n, &err) == 0)
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
		cc = sb_load_linux_cc(sb_workload_common(&p.sc.workloads[i])->transport);
	bool ecn = false;
	for (size_t i = 0; i < p.sc.nworkloads; i++) {
		const char *w = sb_load_linux_cc(sb_workload_common(&p.sc.workloads[i])->transport);
		ecn |= w && !strcmp(w, "dctcp");
	}
	printf("hosts=%u\nrate_gbps=%.17g\nmin_rto_ms=%.17g\ncc=%s\necn=%d\nduration_s=%.17g\ntcp_flows=%zu\n",
	       p.sim.net.nhosts, p.sc.topo.host_rate_gbps, p.sc.tcp.min_rto_us / 1000.0, cc ? cc : "cubic", ecn,
	       (double)p.sim.stop_at / (double)SB_SEC, p.n);
	/* constant-bit-rate flows, for iperf3: SRC:DST:BITS_PER_S:PACKET_BYTES:PRIO:START_MS */
	printf("cbr=\"");
	const char *sep = "";
	for (size_t i = 0; i < p.sc.nworkloads; i++) {
		if (p.sc.workloads[i].ops != &sb_workload_cbr)
			continue;
		const struct sb_wl_cbr *w = p.sc.workloads[i].params;
		for (size_t k = 0; k < w->ep.srcs.n; k++, sep = " ")
			printf("%s%lld:%lld:%.0f:%lld:%lld:%.17g", sep, (long long)w->ep.srcs.v[k], (long long)w->ep.dst,
			       w->rate_gbps * 1e9, (long long)w->packet_bytes,
			       (long long)(w->c.prio >= 0 ? w->c.prio : sb_transport_default_prio(sb_transport_find(w->c.transport))),
			       w->c.start_ms);
	}
	printf("\"\n");
	sb_load_plan_free(&p);
	return 0;
}

/* Play (client) and/or report into a->out. */
static int cmd_client_or_report(const struct args *a, bool client)
{
	/* --out (and client's --host) are required, report's MEASURED.csv too: the tables say so */
	struct sb_load_plan p;
	struct sb_error err = { 0 };
	int rc = sb_load_plan_open(&p, a->scenario, a->sets.v, a->sets.n, &err) ? 2 : 0;
	if (rc == 0 && client && (uint64_t)a->host >= p.sim.net.nhosts) {
		rc = -2 * sb_fail(&err, "--host %lld: the scenario has hosts 0..%u", a->host, p.sim.net.nhosts - 1);
	}
	if (rc == 0 && a->switch_dir && sb_load_switch_counts(&p, a->switch_dir, &err))
		rc = 2;
	for (size_t i = 0; rc == 0 && i < a->nstat.n; i++)
		if (sb_load_nstat(&p, a->nstat.v[i], &err))
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

static int cmd_client(const struct args *a)
{
	return cmd_client_or_report(a, true);
}

static int cmd_report(const struct args *a)
{
	return cmd_client_or_report(a, false);
}

/* Each command: its options and arguments, then its function. */
#define COMMAND(name, fn)                                                       \
	static int name##_main(const struct sb_cmd_call *c, int argc, char **argv) \
	{                                                                       \
		struct args a;                                                  \
		int rc = parse(c, argc, argv, &a);                              \
		if (rc == SB_CMD_GO)                                            \
			rc = fn(&a);                                            \
		free_args(&a);                                                  \
		return rc;                                                      \
	}
COMMAND(server, cmd_server)
COMMAND(client, cmd_client)
COMMAND(report, cmd_report)
COMMAND(plan, cmd_plan)
COMMAND(info, cmd_info)

static const struct sb_cmd commands[] = {
	{ "server", NULL, 0, 0, server_opts, "serve the flows the clients request, until SIGINT/SIGTERM",
	  "docs/testbed.md", server_main, NULL },
	{ "client", "[SCENARIO]", 0, 1, client_opts,
	  "play host I's flows of SCENARIO (default: the embedded one) and write\n"
	  "DIR/measured.csv, then DIR/flows.csv and DIR/summary.json of its own flows",
	  "docs/testbed.md", client_main, NULL },
	{ "report", "SCENARIO MEASURED.csv...", 2, SB_OPT_MANY, report_opts,
	  "merge the hosts' measured.csv into one flows.csv and summary.json,\n"
	  "with --switch the switch's drops and buffer samples and with\n"
	  "--nstat the hosts' kernel TCP counters (summed)",
	  "docs/testbed.md", report_main, NULL },
	{ "plan", "[SCENARIO]", 0, 1, plan_opts,
	  "print the flows a client would play, one line each\n"
	  "(flow_id src dst size_bytes start_ps query prio cc)",
	  "docs/testbed.md", plan_main, NULL },
	{ "info", "[SCENARIO]", 0, 1, info_opts,
	  "print what testbed/run.sh sets up the hosts with, as shell\n"
	  "assignments (hosts=, rate_gbps=, cc=, cbr=, ...)",
	  "docs/testbed.md", info_main, NULL },
	{ 0 },
};

int main(int argc, char **argv)
{
	static const struct sb_prog prog = {
		"sharebuf-load", commands,
		"the testbed's load generator: --opt VALUE and --opt=VALUE are the same (docs/testbed.md)\n", NULL,
	};
	return sb_cmd_main(&prog, argc, argv);
}
