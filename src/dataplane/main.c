/*
 * main.c — build/sharebuf-switch: the MMU library in a software switch over AF_PACKET
 * sockets (docs/testbed.md §"The switch"). The command line is the contract with the testbed
 * (testbed/run.sh):
 *
 *   sharebuf-switch SCENARIO --port IFNAME=MAC [--port IFNAME=MAC]... --out DIR
 *                   [--set KEY=VALUE]... [--duration-s S] [--busy-poll]
 *
 * The scenario is read exactly as `sharebuf run` reads it (same --set, same messages) and its
 * network validated as `run` validates it (sb_scenario_validate_net); its workloads are the
 * load generator's, which validates them (sharebuf-load), so the switch links no transport or
 * workload code. Bad input (a busy DIR, or a link planted as its lock, included): a message on
 * stderr, exit 2, DIR not created. Otherwise the switch prints "sharebuf-switch: ready" once
 * every port is bound, forwards until SIGINT/SIGTERM or the duration, writes summary.json,
 * queues.csv and occupancy.csv into DIR as `sharebuf run` writes its files (dpreport.h) and
 * exits 0; 1 if they cannot be written, DIR then as it was.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/cfgfile.h"
#include "dataplane/afpacket.h"
#include "dataplane/dploop.h"
#include "dataplane/dpreport.h"
#include "dataplane/dpswitch.h"
#include "core/outdir.h"
#include "scenario/scenario.h"
#include "topo/topo.h"

extern const char sb_default_scenario[];

static const char usage[] =
	"usage: sharebuf-switch SCENARIO --port IFNAME=MAC [--port IFNAME=MAC]... --out DIR\n"
	"                       [--set KEY=VALUE]... [--duration-s S] [--busy-poll]\n"
	"  The i-th --port is switch port i, on interface IFNAME, leading to the host of MAC.\n"
	"  Runs until SIGINT/SIGTERM or S seconds, then writes DIR/summary.json, queues.csv and\n"
	"  occupancy.csv. docs/testbed.md explains the switch.\n";

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
	const char **sets, **ifnames;
	uint8_t (*macs)[6];
	size_t nsets;
	uint16_t nports;
	double duration_s;
	bool busy_poll;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			fputs(usage, stdout);
			exit(0);
		} else if (!strcmp(s, "--busy-poll")) {
			a->busy_poll = true;
		} else if (!strcmp(s, "--port") || !strcmp(s, "--set") || !strcmp(s, "--out") ||
			   !strcmp(s, "--duration-s")) {
			if (!v)
				return bad("%s: expected a value after it%s", s, "");
			i++;
			if (!strcmp(s, "--set")) {
				a->sets[a->nsets++] = v;
			} else if (!strcmp(s, "--out")) {
				a->out = v;
			} else if (!strcmp(s, "--duration-s")) {
				char *end;
				a->duration_s = strtod(v, &end);
				if (*end || !(a->duration_s > 0) || a->duration_s > 1e6)
					return bad("--duration-s %s: expected a number of seconds in (0, 1e6]%s", v, "");
			} else {
				const char *eq = strchr(v, '=');
				if (a->nports >= 1024) /* port indices of the MMU are 16-bit; 1024 is plenty */
					return bad("--port %s: too many ports, expected at most 1024%s", v, "");
				if (!eq || eq == v || eq - v >= 16 || !parse_mac(eq + 1, a->macs[a->nports]))
					return bad("--port %s: expected IFNAME=MAC, e.g. sbs0=02:00:00:00:00:01%s", v, "");
				char *name = strndup(v, (size_t)(eq - v));
				if (!name)
					abort();
				a->ifnames[a->nports++] = name;
			}
		} else if (s[0] == '-') {
			return bad("unknown option %s (see --help)%s", s, "");
		} else if (!a->scenario) {
			a->scenario = s;
		} else {
			return bad("more than one scenario file (%s, %s)", a->scenario, s);
		}
	}
	if (!a->scenario)
		return bad("expected a SCENARIO file%s%s (see --help)", "", "");
	if (!a->out)
		return bad("expected --out DIR%s%s", "", "");
	if (!a->nports)
		return bad("expected at least one --port IFNAME=MAC%s%s", "", "");
	for (uint16_t i = 0; i < a->nports; i++)
		for (uint16_t j = 0; j < i; j++) {
			if (!strcmp(a->ifnames[i], a->ifnames[j]))
				return bad("--port %s: interface given twice%s", a->ifnames[i], "");
			if (!memcmp(a->macs[i], a->macs[j], 6))
				return bad("--port %s: MAC already given for %s", a->ifnames[i], a->ifnames[j]);
		}
	return 0;
}

static void free_args(struct args *a)
{
	for (uint16_t i = 0; i < a->nports; i++)
		free((void *)a->ifnames[i]);
	free(a->sets);
	free(a->ifnames);
	free(a->macs);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	a.sets = calloc((size_t)argc, sizeof(*a.sets));
	a.ifnames = calloc((size_t)argc, sizeof(*a.ifnames));
	a.macs = calloc((size_t)argc, sizeof(*a.macs));
	if (!a.sets || !a.ifnames || !a.macs)
		abort();
	int rc = parse_args(argc, argv, &a);
	if (rc) {
		free_args(&a);
		return rc;
	}

	struct sb_scenario sc;
	struct sb_error err = { "" };
	sb_scenario_defaults(&sc);
	rc = sb_cfg_load(&sc, a.scenario, sb_default_scenario, a.sets, a.nsets, &err);
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
