/*
 * main.c — build/sharebuf-switch: the MMU library in a software switch over AF_PACKET
 * sockets (docs/testbed.md §"The switch"). The command line is the contract with the testbed
 * (testbed/run.sh):
 *
 *   sharebuf-switch SCENARIO --port IFNAME=MAC [--port IFNAME=MAC]... --out DIR
 *                   [--set KEY=VALUE]... [--duration-s S] [--busy-poll]
 *
 * The options are a table read by the parser of every program (core/opt.h: the same forms and
 * messages as `sharebuf run`'s); the scenario is read exactly as `sharebuf run` reads it (same
 * --set, same messages) and its network validated as `run` validates it
 * (sb_scenario_validate_net); its workloads are the load generator's, which validates them
 * (sharebuf-load), so the switch links no transport or workload code. Bad input (a busy DIR,
 * or a link planted as its lock, included): a message on stderr, exit 2, DIR not created.
 * Otherwise the switch prints "sharebuf-switch: ready" once
 * every port is bound, forwards until SIGINT/SIGTERM or the duration, writes summary.json,
 * queues.csv and occupancy.csv into DIR as `sharebuf run` writes its files (dpreport.h) and
 * exits 0; 1 if they cannot be written, DIR then as it was.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cmd.h"
#include "scenario/cfgfile.h"
#include "dataplane/afpacket.h"
#include "dataplane/dploop.h"
#include "dataplane/dpreport.h"
#include "dataplane/dpswitch.h"
#include "core/outdir.h"
#include "scenario/scenario.h"
#include "topo/topo.h"

extern const char sb_default_scenario[];

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static int bad(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "sharebuf-switch: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\n");
	return 2;
}

static bool parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	char end;
	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &end) != 6)
		return false;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return true;
}

struct args {
	const char *scenario, *out;
	struct sb_opt_list sets;
	const char **ifnames;
	uint8_t (*macs)[6];
	uint16_t nports;
	double duration_s;
	bool busy_poll;
};

/* --port IFNAME=MAC: the next switch port. */
static int port_option(const struct sb_opt_call *c)
{
	struct args *a = c->opts;
	const char *v = c->value, *eq = strchr(v, '=');
	if (a->nports >= 1024) /* port indices of the MMU are 16-bit; 1024 is plenty */
		return sb_opt_error(c, "--port %s: too many ports, expected at most 1024", v);
	if (!eq || eq == v || eq - v >= 16 || !parse_mac(eq + 1, a->macs[a->nports]))
		return sb_opt_error(c, "--port %s: expected IFNAME=MAC, e.g. sbs0=02:00:00:00:00:01", v);
	char *name = strndup(v, (size_t)(eq - v));
	if (!name)
		abort();
	a->ifnames[a->nports++] = name;
	return 0;
}

/* --duration-s S: seconds, a real number in (0, 1e6]. */
static int duration_option(const struct sb_opt_call *c)
{
	char *end;
	double s = strtod(c->value, &end);
	if (!*c->value || *end || !(s > 0) || s > 1e6)
		return sb_opt_error(c, "--duration-s expects a number of seconds in (0, 1e6], got '%s'", c->value);
	*SB_OPT_DEST(c, double) = s;
	return 0;
}

static const struct sb_opt switch_opts[] = {
	{ "--port", NULL, "IFNAME=MAC", SB_OPT_REPEAT | SB_OPT_REQUIRED, port_option, 0, 0, 0,
	  "the next switch port: interface IFNAME, leading to the host of MAC" },
	{ "--out", NULL, "DIR", SB_OPT_REQUIRED, sb_opt_string, offsetof(struct args, out), 0, 0,
	  "write DIR/summary.json, queues.csv and occupancy.csv at the end" },
	{ "--set", NULL, "KEY=VALUE", SB_OPT_REPEAT, sb_opt_key_value, offsetof(struct args, sets), 0, 0,
	  "override a key of the scenario, as for `sharebuf run`" },
	{ "--duration-s", NULL, "S", 0, duration_option, offsetof(struct args, duration_s), 0, 0,
	  "stop after S seconds (default: at SIGINT or SIGTERM)" },
	{ "--busy-poll", NULL, NULL, 0, sb_opt_true, offsetof(struct args, busy_poll), 0, 0,
	  "poll the sockets without sleeping" },
	{ 0 },
};

static int parse_args(const struct sb_cmd_call *c, int argc, char **argv, struct args *a)
{
	struct sb_opt_list args = { 0 };
	int rc = sb_cmd_parse(c, argc, argv, a, &args);
	a->scenario = args.n ? args.v[0] : NULL; /* a word of argv: it outlives the list */
	sb_opt_list_free(&args);
	if (rc != SB_CMD_GO)
		return rc;
	for (uint16_t i = 0; i < a->nports; i++)
		for (uint16_t j = 0; j < i; j++) {
			if (!strcmp(a->ifnames[i], a->ifnames[j]))
				return bad("--port %s: interface given twice%s", a->ifnames[i], "");
			if (!memcmp(a->macs[i], a->macs[j], 6))
				return bad("--port %s: MAC already given for %s", a->ifnames[i], a->ifnames[j]);
		}
	return SB_CMD_GO;
}

static void free_args(struct args *a)
{
	for (uint16_t i = 0; i < a->nports; i++)
		free((void *)a->ifnames[i]);
	sb_opt_list_free(&a->sets);
	free(a->ifnames);
	free(a->macs);
}

static int run_switch(const struct sb_cmd_call *c, int argc, char **argv)
{
	struct args a = { 0 };
	a.ifnames = sb_xcalloc((size_t)argc + 1, sizeof(*a.ifnames));
	a.macs = sb_xcalloc((size_t)argc + 1, sizeof(*a.macs));
	int rc = parse_args(c, argc, argv, &a);
	if (rc != SB_CMD_GO) {
		free_args(&a);
		return rc;
	}

	struct sb_scenario sc;
	struct sb_error err = { "" };
	sb_scenario_defaults_net(&sc);
	rc = sb_cfg_load(&sc, a.scenario, sb_default_scenario, a.sets.v, a.sets.n, &err);
	if (rc == 0)
		rc = sb_scenario_validate_net(&sc, &err);
	/* The clock runs from here: the MMU reads it when it is built (Occamy's token bucket starts
	 * its refill then), and it must never run backwards after that. */
	struct sb_dp_clock clock;
	sb_dp_clock_start(&clock);
	struct sb_dp_switch sw;
	if (rc == 0)
		rc = sb_dp_switch_init(&sw, &sc, a.nports, (const uint8_t(*)[6])a.macs, sb_dp_clock_now, &clock, &err);
	if (rc) {
		fprintf(stderr, "sharebuf-switch: %s\n", err.msg);
		sb_scenario_free(&sc);
		free_args(&a);
		return 2;
	}
	struct sb_afp *ports = calloc(a.nports, sizeof(*ports));
	if (!ports)
		abort();
	for (uint16_t i = 0; i < a.nports && rc == 0; i++)
		rc = sb_afp_open(&ports[i], a.ifnames[i], &err);
	FILE *occ = rc == 0 ? tmpfile() : NULL;
	if (rc == 0 && !occ)
		rc = sb_fail(&err, "cannot create a temporary file for the occupancy samples: %s", strerror(errno));
	/* DIR is created and locked only once the input is known good, so that bad input leaves
	 * nothing behind; the lock (core/outdir.h) keeps a second switch or run out of it, and a
	 * link planted under its name or an output's is never followed */
	static const char *const out_names[] = { "summary.json", "queues.csv", "occupancy.csv", NULL };
	if (rc == 0 && sb_outdir_claim(a.out, out_names, &err))
		rc = -1;
	if (rc) {
		sb_outdir_release(true);
		fprintf(stderr, "sharebuf-switch: %s\n", err.msg);
		for (uint16_t i = 0; i < a.nports; i++)
			sb_afp_close(&ports[i]);
		if (occ)
			fclose(occ);
		free(ports);
		sb_dp_switch_fini(&sw);
		sb_scenario_free(&sc);
		free_args(&a);
		return 2;
	}

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	char name[16];
	snprintf(name, sizeof(name), "%s0", sb_topo_tier_name[1]);
	struct sb_dp_loop_opts o = {
		.duration = a.duration_s > 0 ? (sb_time)(a.duration_s * (double)SB_SEC) : 0,
		.sample_interval = (sb_time)(sc.run.sample_interval_us * 1e6 + 0.5),
		.busy_poll = a.busy_poll,
		.occupancy = occ,
		.switch_name = name,
		.stop = &stop_flag,
	};
	if (sc.run.sample_switches == SB_SAMPLE_NONE)
		o.sample_interval = 0;
	for (uint16_t i = 0; i < a.nports; i++) { /* count the run's ring drops only */
		sb_afp_read_drops(&ports[i]);
		ports[i].rx_ring_drops = 0;
	}
	printf("sharebuf-switch: ready\n");
	fflush(stdout);
	sb_time ran = sb_dp_loop_run(&sw, ports, &o);

	uint64_t *ring_drops = sb_xcalloc(a.nports, sizeof(*ring_drops));
	uint64_t ring_total = 0;
	struct sb_dp_report_info info = { a.scenario, a.ifnames, ran, a.busy_poll, 0, 0, ring_drops, occ };
	for (uint16_t i = 0; i < a.nports; i++) {
		info.rx_csum_partial += ports[i].rx_csum_partial;
		info.tx_errors += ports[i].tx_errors;
		sb_afp_read_drops(&ports[i]);
		ring_drops[i] = ports[i].rx_ring_drops;
		ring_total += ring_drops[i];
	}
	if (ring_total)
		fprintf(stderr,
			"sharebuf-switch: warning: the kernel dropped %llu frames before the switch read them (a "
			"receive ring was full): they are in no count of received or dropped (summary.json "
			"rx_ring_dropped)\n",
			(unsigned long long)ring_total);
	if (info.rx_csum_partial)
		fprintf(stderr,
			"sharebuf-switch: warning: %llu frames arrived with their checksum left to an offload and "
			"were forwarded with a wrong one: turn tx checksumming off on the hosts (ethtool -K eth0 tx off)\n",
			(unsigned long long)info.rx_csum_partial);
	rc = sb_dp_report_write(&sw, &info, a.out, &err);
	if (rc)
		fprintf(stderr, "sharebuf-switch: %s\n", err.msg);
	/* a failed write leaves DIR as it was (removed if this switch created it) */
	sb_outdir_release(rc != 0);
	fclose(occ);
	for (uint16_t i = 0; i < a.nports; i++)
		sb_afp_close(&ports[i]);
	free(ports);
	free(ring_drops);
	sb_dp_switch_fini(&sw);
	sb_scenario_free(&sc);
	free_args(&a);
	return rc ? 1 : 0;
}

static const struct sb_cmd switch_cmd[] = {
	{ NULL, "SCENARIO", 1, 1, switch_opts,
	  "The MMU library in a software switch over AF_PACKET sockets: the i-th --port is switch\n"
	  "port i. Runs until SIGINT/SIGTERM or S seconds, then writes DIR/summary.json,\n"
	  "queues.csv and occupancy.csv.",
	  "docs/testbed.md", run_switch, NULL },
	{ 0 },
};

int main(int argc, char **argv)
{
	static const struct sb_prog prog = { "sharebuf-switch", switch_cmd, NULL, NULL };
	return sb_cmd_main(&prog, argc, argv);
}
