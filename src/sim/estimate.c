/*
 * estimate.c — the memory of a run, from the scenario alone (see estimate.h for what is
 * counted). Every figure is a double: the point is to refuse 10^15 bytes, not to wrap it.
 */
#include "sim/estimate.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mmu/mmu.h"
#include "sim/sim.h"
#include "workload/workload.h"

#define MB 1048576.0
/* The default limit's cap: 8 GiB. */
#define AUTO_LIMIT_CAP (8192 * MB)
/* Bytes of one flow in flight: its slot in the flow table (transport/flow_table.h) and its start
 * event (a slot and a far-heap entry, core/event.h). A flow's slot is reused once it has
 * finished, so this counts the flows that exist at once. */
#define FLOW_BYTES ((double)sizeof(struct sb_flow) + 48)
/* Per throughput.csv row (struct rx_row, src/sim/report_rx.c), rounded up; the array grows
 * by doubling. (An occupancy sample and a finished flow cost no memory: their rows are
 * streamed to disk and their statistics kept on disk, core/spill.h.) */
#define RX_ROW_BYTES 32.0
/* Per queue (port × priority) of an MMU: its counters and the scheme's per-queue state. */
#define MMU_QUEUE_BYTES 64.0
/* The event queue holds at most 2^24 - 1 events at once (core/event.c); flows created while
 * the network is built each wait for their start as one (a flow list's only for the records
 * read ahead, workload/filefeed.h). What runs later (packets on links, timers, arrivals) needs
 * some room too. */
#define MAX_START_EVENTS ((double)(1u << 24) - (double)(1u << 20))

double sb_memory_limit_auto(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	double half = pages > 0 && size > 0 ? (double)pages * (double)size / 2 : AUTO_LIMIT_CAP;
	return half < AUTO_LIMIT_CAP ? half : AUTO_LIMIT_CAP;
}

/* The shape of the network, from the topology keys (the builders are in src/topo/shapes.c). */
struct shape {
	double hosts, switches, leaves;   /* leaves: the switches hosts attach to */
	double switch_bytes;              /* ports and MMUs of every switch */
	double switch_ports;              /* Σ ports of the switches */
	double fib_rows;                  /* distinct rows of the forwarding tables (net/routes.h) */
	double fib_bytes;                 /* forwarding tables of every switch */
	double max_buffer_bytes;          /* the largest switch buffer */
	double uplink_bps;                /* per host: its leaf's uplinks shared by its hosts */
	double mmus;                      /* Σ MMUs */
	const char *keys;                 /* the keys that size it */
};

/* `count` switches of `ports` ports of `rate` b/s each. */
static void add_switches(const struct sb_scenario *sc, struct shape *s, double count, double ports, double port_bps)
{
	double group = sc->sw.mmu_ports > 0 && (double)sc->sw.mmu_ports < ports ? (double)sc->sw.mmu_ports : ports;
	double mmus = ceil(ports / group);
	/* every MMU of a switch keeps counters for all of the switch's queues (mmu.c) */
	double mmu = mmus * (ports * SB_MMU_NPRIO * MMU_QUEUE_BYTES + ports * 32 + 4096);
	s->switch_bytes += count * ((double)sizeof(struct sb_switch) + ports * (double)sizeof(struct sb_port) + mmu);
	s->mmus += count * mmus;
	s->switch_ports += count * ports;
	double buffer = sc->sw.buffer_bytes > 0 ? (double)sc->sw.buffer_bytes
						: sc->sw.buffer_per_port_per_gbps * ports * port_bps / 1e9;
	if (buffer > s->max_buffer_bytes)
		s->max_buffer_bytes = buffer;
}

static struct shape shape_of(const struct sb_scenario *sc)
{
	const struct sb_topo_params *t = &sc->topo;
	double host_bps = t->host_rate_gbps * 1e9, fabric_bps = t->fabric_rate_gbps * 1e9;
	struct shape s = { 0 };
	switch (t->type) {
	case SB_TOPO_SINGLE:
		s.hosts = (double)t->hosts;
		s.switches = s.leaves = 1;
		s.uplink_bps = host_bps;
		s.keys = "topology.hosts";
		add_switches(sc, &s, 1, s.hosts, host_bps);
		s.fib_rows = 1;
		break;
	case SB_TOPO_LEAFSPINE: {
		double per = (double)t->hosts_per_leaf, l = (double)t->leaves, sp = (double)t->spines;
		double links = (double)t->links_per_spine;
		s.hosts = per * l;
		s.switches = l + sp;
		s.leaves = l;
		s.uplink_bps = sp * links * fabric_bps / per;
		s.keys = "topology.leaves topology.hosts_per_leaf topology.spines topology.links_per_spine";
		add_switches(sc, &s, l, per + sp * links, (per * host_bps + sp * links * fabric_bps) / (per + sp * links));
		add_switches(sc, &s, sp, l * links, fabric_bps);
		s.fib_rows = 2; /* the leaves', the spines' */
		break;
	}
	case SB_TOPO_FATTREE: {
		double k = (double)t->k, half = k / 2;
		s.hosts = k * k * k / 4;
		s.leaves = k * half;
		s.switches = 2 * k * half + half * half;
		s.uplink_bps = fabric_bps;
		s.keys = "topology.k";
		add_switches(sc, &s, k * half, k, (host_bps + fabric_bps) / 2);
		add_switches(sc, &s, k * half, k, fabric_bps);
		add_switches(sc, &s, half * half, k, fabric_bps);
		s.fib_rows = k + 2; /* the edges', each pod's aggregation switches', the cores' */
		break;
	}
	}
	/*
	 * Forwarding (net/routes.h): a row of 4 bytes per rack, shared by the switches whose rows
	 * are equal (failed links can make every row different), a port list of 2 bytes per port
	 * per distinct group (at most about one per switch port), and per host its rack and port;
	 * while the tables are built, a byte per switch and rack of hop distances.
	 */
	if (sc->topo.remove_links.n > 0)
		s.fib_rows = s.switches;
	s.fib_bytes = s.fib_rows * s.leaves * 4 + 2 * s.switch_ports + 8 * s.hosts + s.switches * s.leaves;
	return s;
}

/* Seconds during which workload `w` creates flows. */
static double window_s(const struct sb_scenario *sc, const struct sb_workload_common *w)
{
	double end = sc->run.arrivals_ms > 0 && sc->run.arrivals_ms < sc->run.duration_ms ? sc->run.arrivals_ms
											 : sc->run.duration_ms;
	if (w->stop_ms > 0)
		end = w->stop_ms < sc->run.duration_ms ? w->stop_ms : sc->run.duration_ms;
	return end > w->start_ms ? (end - w->start_ms) / 1e3 : 0;
}

/* Of the space-separated keys, the one the scenario set last (the first if it set none). */
static void latest_key(const struct sb_scenario *sc, const char *keys, char *out, size_t n)
{
	for (size_t i = sc->norigins; i-- > 0;) {
		const char *k = sc->origins[i].key, *at = strstr(keys, k);
		size_t len = strlen(k);
		if (at && (at == keys || at[-1] == ' ') && (at[len] == ' ' || at[len] == 0)) {
			snprintf(out, n, "%s", k);
			return;
		}
	}
	snprintf(out, n, "%.*s", (int)strcspn(keys, " "), keys);
}

/* Count the larger of two contributions to a part, remembering which key and why. */
static void add(struct sb_mem_part *p, double bytes, double *largest, const char *key, const char *what)
{
	p->bytes += bytes;
	if (bytes > *largest) {
		*largest = bytes;
		snprintf(p->key, sizeof(p->key), "%s", key);
		snprintf(p->what, sizeof(p->what), "%s", what);
	}
}

void sb_estimate_memory(const struct sb_scenario *sc, struct sb_mem_estimate *e)
{
	memset(e, 0, sizeof(*e));
	struct shape s = shape_of(sc);
	char what[200], key[96];

	struct sb_mem_part *net = &e->part[SB_MEM_NETWORK];
	net->bytes = s.hosts * ((double)sizeof(struct sb_host) + (double)sizeof(struct sb_port) + 64) + s.switch_bytes;
	latest_key(sc, s.keys, net->key, sizeof(net->key));
	snprintf(net->what, sizeof(net->what), "%.0f hosts, %.0f switches and their ports", s.hosts, s.switches);

	struct sb_mem_part *fib = &e->part[SB_MEM_FORWARDING];
	fib->bytes = s.fib_bytes + (s.hosts + s.switches) * 8;
	latest_key(sc, s.keys, fib->key, sizeof(fib->key));
	snprintf(fib->what, sizeof(fib->what), "the forwarding tables of %.0f switches to %.0f racks", s.switches, s.leaves);

	/*
	 * Flows, and the packets they put in NICs. A flow starts by handing its first window to its
	 * NIC: the whole flow with full_window, else tcp.init_cwnd_pkts segments. What the NICs
	 * cannot send on (all of them at line rate for the whole run, a generous drain) stays
	 * queued: 10^7 incast queries per second of 1 MB responses queued 8 GB of packets in
	 * 0.3 ms. At least the windows of one query per receiver, or of a burst, wait at once.
	 */
	double payload = (double)SB_MIN(sc->tcp.mss, sc->rdma.mtu), pkt = (double)sizeof(struct sb_packet);
	double host_bps = sc->topo.host_rate_gbps * 1e9, largest_flows = 0, largest_pkts = 0;
	double init_window = (double)sc->tcp.init_cwnd_pkts * (double)sc->tcp.mss;
	double issued = 0, at_once = 0, largest_issued = 0;
	char issued_key[96] = "", issued_what[200] = "";
	struct sb_mem_part *flows = &e->part[SB_MEM_FLOWS], *pkts = &e->part[SB_MEM_PACKETS];
	for (size_t i = 0; i < sc->nworkloads; i++) {
		const struct sb_workload *w = &sc->workloads[i];
		struct sb_wl_estimate_in in = {
			.hosts = s.hosts, .host_bps = host_bps, .uplink_bps = s.uplink_bps, .init_window = init_window,
			.window_s = window_s(sc, sb_workload_common(w)), .duration_ms = sc->run.duration_ms,
			.nic_buffer_bytes = sc->host.nic_buffer_bytes, .flow_bytes = FLOW_BYTES,
			.query_bytes = (double)sizeof(struct sb_query), .packet_bytes = pkt,
		};
		/* a flow hands its NIC its first window; -1: all the flows are in flight at once */
		struct sb_wl_estimate out = { .in_flight = -1, .first_bytes = init_window, .flows_key = "type",
					      .issued_key = "type" };
		struct sb_wl_env env = sb_scenario_workload_env(sc, i);
		if (w->ops->estimate)
			w->ops->estimate(w->params, &in, &env, &out);
		double n = out.flows, inflight = out.in_flight, first = out.first_bytes;
		snprintf(key, sizeof(key), "workloads.%zu.%s", i, out.flows_key);
		e->start_events += out.start_events;
		if (inflight < 0 || inflight > n)
			inflight = n;
		e->flows += n;
		e->in_flight += inflight;
		add(flows, inflight * FLOW_BYTES + out.extra_bytes, &largest_flows, key, out.what);
		if (out.nic_bytes > 0) { /* cbr */
			snprintf(key, sizeof(key), "workloads.%zu.%s", i, out.nic_key ? out.nic_key : "type");
			snprintf(what, sizeof(what), "the packets workload %zu leaves in host NICs", i);
			add(pkts, out.nic_bytes, &largest_pkts, key, what);
		}
		issued += n * first;
		at_once += out.concurrent * first;
		if (n * first > largest_issued) {
			largest_issued = n * first;
			snprintf(issued_key, sizeof(issued_key), "workloads.%zu.%s", i, out.issued_key);
			snprintf(issued_what, sizeof(issued_what), "the packets workload %zu puts in host NICs faster than they leave", i);
		}
	}
	double drained = s.hosts * host_bps / 8 * sc->run.duration_ms / 1e3;
	double waiting = issued - drained > at_once ? issued - drained : at_once;
	if (waiting > 0)
		add(pkts, ceil(waiting / payload) * pkt, &largest_pkts, issued_key, issued_what);
	/* one switch buffer full of full-sized frames: congestion fills the buffer of a hot spot,
	 * hardly every buffer of the network at once */
	add(pkts, s.max_buffer_bytes / (payload + (double)sc->tcp.header_bytes) * pkt, &largest_pkts,
	    sc->sw.buffer_bytes > 0 ? "switch.buffer_bytes" : "switch.buffer_per_port_per_gbps",
	    "the packets a full switch buffer holds");

	/* throughput.csv's rows of the sampled hosts (occupancy samples cost no memory) */
	struct sb_mem_part *samples = &e->part[SB_MEM_SAMPLES];
	if (sc->run.sample_interval_us > 0 && sc->run.sample_hosts.n) {
		double intervals = floor(sc->run.duration_ms * 1e3 / sc->run.sample_interval_us);
		double rx = intervals * (double)sc->run.sample_hosts.n;
		samples->bytes = 2 * rx * RX_ROW_BYTES;
		snprintf(samples->key, sizeof(samples->key), "run.sample_interval_us");
		snprintf(samples->what, sizeof(samples->what), "%.4g throughput samples (%g ms / %g us × %zu hosts)", rx,
			 sc->run.duration_ms, sc->run.sample_interval_us, sc->run.sample_hosts.n);
	}

	/* what the selected scheme allocates per MMU beyond its counters (sb_bm_ops.state_bytes) */
	struct sb_mem_part *scheme = &e->part[SB_MEM_SCHEME];
	const struct sb_bm_ops *const *all = sb_bm_all();
	for (size_t i = 0; all[i]; i++) {
		if (strcmp(all[i]->name, sc->sw.scheme ? sc->sw.scheme : "") != 0 || !all[i]->state_bytes)
			continue;
		const char *param = "";
		char each[96];
		double bytes = all[i]->state_bytes(sc->scheme_params[i], &param, each, sizeof(each));
		scheme->bytes = s.mmus * bytes;
		snprintf(scheme->key, sizeof(scheme->key), "switch.%s.%s", all[i]->name, param);
		snprintf(scheme->what, sizeof(scheme->what), "%.0f %s", s.mmus, each);
	}

	for (int i = 0; i < SB_MEM_NPARTS; i++)
		e->total += e->part[i].bytes;
	e->limit_auto = sc->run.max_memory_mb == 0;
	e->limit = e->limit_auto ? sb_memory_limit_auto() : (double)sc->run.max_memory_mb * MB;
}

int sb_check_memory(const struct sb_scenario *sc, struct sb_error *err)
{
	struct sb_mem_estimate e;
	sb_estimate_memory(sc, &e);
	if (e.start_events > MAX_START_EVENTS) {
		const struct sb_mem_part *f = &e.part[SB_MEM_FLOWS];
		return sb_scenario_fail(sc, f->key, err, "expected at most %.0f flows created before the run starts (each waits "
					"for its start in the event queue, which holds 2^24), got %.0f", MAX_START_EVENTS,
					e.start_events);
	}
	if (e.total <= e.limit)
		return 0;
	/* the largest part, unless the network alone does not fit: then no workload could */
	const struct sb_mem_part *big = &e.part[0];
	for (int i = 1; i < SB_MEM_NPARTS; i++)
		if (e.part[i].bytes > big->bytes)
			big = &e.part[i];
	const struct sb_mem_part *net = &e.part[SB_MEM_NETWORK], *fib = &e.part[SB_MEM_FORWARDING];
	if (net->bytes + fib->bytes > e.limit)
		big = fib->bytes > net->bytes ? fib : net;
	char limit[96];
	if (e.limit_auto)
		snprintf(limit, sizeof(limit), "run.max_memory_mb = 0: half the physical memory, at most 8192");
	else
		snprintf(limit, sizeof(limit), "run.max_memory_mb");
	return sb_scenario_fail(sc, big->key, err, "expected a run of at most %.0f MB (%s), got an estimate of %.0f MB, "
				"%.0f MB of it for %s; make it smaller or raise run.max_memory_mb",
				e.limit / MB, limit, e.total / MB, big->bytes / MB, big->what);
}
