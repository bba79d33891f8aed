/*
 * report.c — sampling, progress, summary statistics and output files.
 */
#include "sim/report.h"
#include "sim/flowlog.h"
#include "core/outdir.h"
#include "sim/report_pfc.h"
#include "sim/report_rx.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "core/safefile.h"
#include "core/spill.h"
#include "core/util.h"

bool sb_report_progress_enabled = true;

struct occ_sample {
	sb_time t;
	uint32_t sw;
	uint64_t lossy, lossless; /* bytes */
	double mem_bw_util;       /* read-bandwidth utilisation over the interval (membw_*) */
	uint64_t drops;           /* packets the switch dropped during the interval */
};

/* What the summary needs of the samples takes constant memory: the occupancy and, for samples
 * with drops, the utilisation go to exact order-statistics streams (core/spill.h, on disk)
 * next to running sums; the samples themselves are streamed to occupancy.csv when the run
 * streams its outputs, and kept whole (`v`) only when it does not (tests). */
struct sb_occupancy_sink {
	sb_time interval;
	struct occ_sample *v;
	size_t n, cap;              /* samples taken; v holds them when rows == NULL */
	FILE *rows;                 /* occupancy.csv's temporary, or NULL */
	struct sb_spill *occ;       /* every sample's bytes (lossy + lossless): the p99 */
	uint64_t occ_max;           /* and the largest */
	double util_sum;            /* Σ mem_bw_util in sampling order */
	struct sb_spill *at_drops;  /* utilisation of samples with drops, weighted by the drops */
	double at_drops_sum;        /* Σ utilisation × drops, in sampling order */
	double wall_start;
	bool tty;
	uint64_t *last_tx_bytes, *last_drops; /* per switch, at the previous sample */
	struct sb_rx_sink *rx;                /* run.sample_hosts (report_rx.c), or NULL */
};

/* --- memory-bandwidth utilisation (Occamy Fig. 6(b)) ---
 * The shared buffer must be read at the rate the switch's ports send, so the consumed share
 * of its read bandwidth over a sampling interval is the bytes its ports started sending in
 * that interval over what they could send (Σ port rates × interval); the artifact divides the
 * partition's egress send rate by its capacity the same way. Counted at transmission start,
 * so one interval can read slightly above 1. */
static uint64_t membw_tx_bytes(const struct sb_switch *sw)
{
	uint64_t b = 0;
	for (uint16_t i = 0; i < sw->node.nports; i++)
		b += sw->node.ports[i].tx_bytes;
	return b;
}

static double membw_capacity_bits(const struct sb_switch *sw, sb_time interval)
{
	double bps = 0;
	for (uint16_t i = 0; i < sw->node.nports; i++)
		bps += (double)sw->node.ports[i].rate_bps;
	return bps * sb_time_to_sec(interval);
}

static uint64_t membw_drops(const struct sb_switch *sw)
{
	uint64_t n = 0;
	for (int c = 1; c < SB_DROP_NCAUSES; c++)
		n += sw->drops[c];
	return n;
}

static void membw_sample(struct sb_occupancy_sink *o, uint32_t i, const struct sb_switch *sw, struct occ_sample *s)
{
	uint64_t tx = membw_tx_bytes(sw), drops = membw_drops(sw);
	double cap = membw_capacity_bits(sw, o->interval);
	s->mem_bw_util = cap > 0 ? 8.0 * (double)(tx - o->last_tx_bytes[i]) / cap : 0;
	s->drops = drops - o->last_drops[i];
	o->last_tx_bytes[i] = tx;
	o->last_drops[i] = drops;
}

/* Mean utilisation over all samples; nearest-rank percentiles at drops, each drop taking the
 * utilisation of the interval it fell in (a sample's utilisation weighted by its drops). */
static void membw_summarize(const struct sb_occupancy_sink *o, struct sb_summary *s)
{
	if (!o || !o->n)
		return;
	uint64_t w = o->at_drops->weight;
	s->mem_bw_mean = o->util_sum / (double)o->n;
	s->mem_bw_drops = w;
	if (w) {
		s->mem_bw_at_drop_p50 = sb_spill_percentile(o->at_drops, 50);
		s->mem_bw_at_drop_p99 = sb_spill_percentile(o->at_drops, 99);
		s->mem_bw_at_drop_mean = o->at_drops_sum / (double)w;
	}
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool sampled(const struct sb_sim *sim, const struct sb_switch *sw)
{
	int mode = sim->sc->run.sample_switches;
	return mode == SB_SAMPLE_ALL || (mode == SB_SAMPLE_LEAVES && sw->node.tier == 1);
}

static void switch_bytes(const struct sb_sim *sim, const struct sb_switch *sw, uint64_t *lossy, uint64_t *lossless)
{
	*lossy = *lossless = 0;
	for (uint16_t g = 0; g < sw->nmmus; g++) {
		const struct sb_mmu *m = sw->mmus[g];
		uint64_t unit = m->cell_bytes ? m->cell_bytes : 1;
		for (uint16_t p = 0; p < m->nports; p++)
			for (uint8_t q = 0; q < SB_MMU_NPRIO; q++) {
				uint64_t b = m->q_egr[sb_mmu_qi(p, q)] * unit;
				if (sim->net.lossless_prio_mask & (1u << q))
					*lossless += b;
				else
					*lossy += b;
			}
	}
}

static void write_occupancy_row(FILE *f, const struct sb_sim *sim, const struct occ_sample *s)
{
	fprintf(f, "%.3f,%s,%llu,%llu,%.6f,%llu\n", sb_time_to_ns(s->t), sim->net.switches[s->sw]->node.name,
		(unsigned long long)s->lossy, (unsigned long long)s->lossless, s->mem_bw_util,
		(unsigned long long)s->drops);
}

static void keep_sample(const struct sb_sim *sim, struct sb_occupancy_sink *o, const struct occ_sample *s)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 4096;
		if (!o->rows)
			o->v = sb_xrealloc(o->v, o->cap * sizeof(*o->v));
	}
	if (o->rows)
		write_occupancy_row(o->rows, sim, s);
	else
		o->v[o->n] = *s;
	o->n++;
	uint64_t bytes = s->lossy + s->lossless;
	sb_spill_add(o->occ, (double)bytes, 1);
	o->occ_max = bytes > o->occ_max ? bytes : o->occ_max;
	o->util_sum += s->mem_bw_util;
	if (s->drops) {
		sb_spill_add(o->at_drops, s->mem_bw_util, s->drops);
		o->at_drops_sum += s->mem_bw_util * (double)s->drops;
	}
}

static void sample(void *obj, uint64_t arg)
{
	struct sb_sim *sim = obj;
	struct sb_occupancy_sink *o = sim->occ;
	(void)arg;
	for (uint32_t i = 0; i < sim->net.nswitches; i++) {
		struct sb_switch *sw = sim->net.switches[i];
		if (!sampled(sim, sw))
			continue;
		struct occ_sample smp = { .t = sb_now(&sim->net.engine), .sw = i };
		switch_bytes(sim, sw, &smp.lossy, &smp.lossless);
		membw_sample(o, i, sw, &smp);
		keep_sample(sim, o, &smp);
	}
	if (o->rx)
		sb_rx_sample(sim, o->rx);
	sb_time next = sb_now(&sim->net.engine) + o->interval;
	if (next <= sim->stop_at)
		sb_at(&sim->net.engine, next, sample, sim, 0);
}

static struct sb_occupancy_sink *sink_new(struct sb_sim *sim)
{
	struct sb_occupancy_sink *o = sb_xcalloc(1, sizeof(*o));
	o->occ = sb_spill_new();
	o->at_drops = sb_spill_new();
	sim->occ = o;
	o->wall_start = wall_now();
	o->tty = sb_report_progress_enabled && isatty(STDERR_FILENO);
	o->interval = sb_time_from_us(sim->sc->run.sample_interval_us);
	o->last_tx_bytes = sb_xcalloc(sim->net.nswitches + 1, sizeof(uint64_t));
	o->last_drops = sb_xcalloc(sim->net.nswitches + 1, sizeof(uint64_t));
	o->rows = sim->streams ? sim->streams->file[SB_STREAM_OCCUPANCY].f : NULL;
	return o;
}

void sb_report_run_start(struct sb_sim *sim)
{
	struct sb_occupancy_sink *o = sink_new(sim);
	if (o->interval > 0)
		o->rx = sb_rx_new(sim);
	if (o->interval > 0 && (sim->sc->run.sample_switches != SB_SAMPLE_NONE || o->rx))
		sb_at(&sim->net.engine, o->interval, sample, sim, 0);
}

void sb_report_add_sample(struct sb_sim *sim, uint32_t sw, sb_time t, uint64_t lossy, uint64_t lossless,
			  double mem_bw_util, uint64_t drops)
{
	if (!sim->occ)
		sim->occ = sink_new(sim);
	struct occ_sample smp = { .t = t, .sw = sw, .lossy = lossy, .lossless = lossless, .mem_bw_util = mem_bw_util,
				  .drops = drops };
	keep_sample(sim, sim->occ, &smp);
}

void sb_report_progress(struct sb_sim *sim, sb_time now)
{
	struct sb_occupancy_sink *o = sim->occ;
	if (!o || !o->tty)
		return;
	double wall = wall_now() - o->wall_start;
	double frac = (double)now / (double)(sim->stop_at ? sim->stop_at : 1);
	double eta = frac > 0 ? wall * (1 - frac) / frac : 0;
	fprintf(stderr, "\r  simulated %.3f / %.3f ms  (%3.0f%%)  wall %.1f s  ETA %.1f s   ",
		sb_time_to_us(now) / 1e3, sb_time_to_us(sim->stop_at) / 1e3, frac * 100, wall, eta);
	fflush(stderr);
}

void sb_report_run_end(struct sb_sim *sim)
{
	if (sim->occ && sim->occ->tty)
		fprintf(stderr, "\n");
}

void sb_report_free(struct sb_sim *sim)
{
	if (sim->occ) {
		free(sim->occ->v);
		sb_spill_free(sim->occ->occ);
		sb_spill_free(sim->occ->at_drops);
		free(sim->occ->last_tx_bytes);
		free(sim->occ->last_drops);
		sb_rx_free(sim->occ->rx);
		free(sim->occ);
		sim->occ = NULL;
	}
	sb_flowlog_free(sim);
	/* streams of a run that was not written (a failed check, an error): no partial file */
	if (sim->streams) {
		for (int i = 0; i < SB_STREAM_N; i++)
			if (sim->streams->file[i].f) {
				fclose(sim->streams->file[i].f);
				unlink(sim->streams->file[i].tmp);
				sb_outdir_tmp_done(sim->streams->file[i].tmp);
			}
		free(sim->streams);
		sim->streams = NULL;
	}
}

void sb_report_flow_created(struct sb_sim *sim, const struct sb_flow *f)
{
	if (sim->occ && sim->occ->rx)
		sb_rx_flow_created(sim->occ->rx, f);
}

void sb_report_flow_released(struct sb_sim *sim, const struct sb_flow *f)
{
	if (sim->occ && sim->occ->rx)
		sb_rx_flow_released(sim->occ->rx, f);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double sb_percentile_sorted(const double *v, size_t n, double p)
{
	if (n == 0)
		return 0;
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

static void group_stats(double *v, size_t n, struct sb_summary_group *g)
{
	memset(g, 0, sizeof(*g));
	g->count = n;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	g->mean = sum / (double)n;
	g->p50 = sb_percentile_sorted(v, n, 50);
	g->p95 = sb_percentile_sorted(v, n, 95);
	g->p99 = sb_percentile_sorted(v, n, 99);
}

void sb_report_summarize(const struct sb_sim *sim, struct sb_summary *s)
{
	memset(s, 0, sizeof(*s));
	sb_flowlog_groups(sim, &s->all, &s->small, &s->large, &s->incast);

	double *qct = sb_xmalloc((sim->nqueries + 1) * sizeof(double));
	size_t nq = 0;
	for (size_t i = 0; i < sim->nqueries; i++) {
		const struct sb_query *q = &sim->queries[i];
		if (q->done < q->responses || q->responses == 0)
			continue;
		sb_time ideal = sb_transport_ideal_fct(&sim->flows, q->ops, q->responder, q->host, q->bytes);
		qct[nq++] = (double)(q->last_finish - q->start) / (double)(ideal ? ideal : 1);
	}
	group_stats(qct, nq, &s->qct);
	free(qct);

	s->drops_total = sim->net.stats.pkts_dropped;
	s->drops_lossless = sim->net.stats.pkts_dropped_lossless;
	s->drops_lossy = s->drops_total - s->drops_lossless;

	const struct sb_occupancy_sink *o = sim->occ;
	if (o && o->n) {
		s->p99_occupancy_bytes = (uint64_t)sb_spill_percentile(o->occ, 99);
		s->max_occupancy_bytes = o->occ_max;
	}
	for (uint32_t i = 0; i < sim->net.nswitches; i++) {
		const struct sb_switch *sw = sim->net.switches[i];
		if (!sampled(sim, sw))
			continue;
		for (uint16_t g = 0; g < sw->nmmus; g++) {
			uint64_t peak = sw->mmus[g]->peak_used * (sw->mmus[g]->cell_bytes ? sw->mmus[g]->cell_bytes : 1);
			if (peak > s->peak_mmu_occupancy_bytes)
				s->peak_mmu_occupancy_bytes = peak;
		}
	}
	membw_summarize(o, s);
	s->queries_started = sim->nqueries;
	s->queries_completed = s->qct.count;
	sb_time end = sim->net.engine.eq.now < sim->stop_at ? sim->net.engine.eq.now : sim->stop_at;
	s->sim_time_s = sb_time_to_sec(end);
}

static json_t *group_json(const struct sb_summary_group *g, bool full)
{
	json_t *o = json_object();
	json_object_set_new(o, "count", json_integer((json_int_t)g->count));
	json_object_set_new(o, "mean", json_real(g->mean));
	if (full) {
		json_object_set_new(o, "p50", json_real(g->p50));
		json_object_set_new(o, "p95", json_real(g->p95));
	}
	json_object_set_new(o, "p99", json_real(g->p99));
	return o;
}

#define TCP_KEY(field, linux_name, linux_also) \
	{ #field, linux_name, linux_also, offsetof(struct sb_tcp_counters, field) }
const struct sb_tcp_counter_key sb_tcp_counter_keys[] = {
	TCP_KEY(timeouts, "TcpExtTCPTimeouts", NULL),
	TCP_KEY(timeouts_in_recovery, "TcpExtTCPSackRecoveryFail", NULL),
	TCP_KEY(timeouts_sacked, "TcpExtTCPSackFailures", NULL),
	TCP_KEY(timeouts_repeated, "TcpExtTCPLossFailures", NULL),
	TCP_KEY(syn_retransmits, "TcpExtTCPSynRetrans", NULL),
	TCP_KEY(recoveries, "TcpExtTCPSackRecovery", "TcpExtTCPRenoRecovery"),
	TCP_KEY(loss_probes, "TcpExtTCPLossProbes", NULL),
	TCP_KEY(loss_probe_repairs, "TcpExtTCPLossProbeRecovery", NULL),
	TCP_KEY(retransmitted_segments, "TcpRetransSegs", NULL),
	TCP_KEY(lost_retransmits, "TcpExtTCPLostRetransmit", NULL),
	TCP_KEY(pure_acks, "TcpExtTCPPureAcks", "TcpExtTCPHPAcks"),
	TCP_KEY(delivered, "TcpExtTCPDelivered", NULL),
	TCP_KEY(ofo_segments, "TcpExtTCPOFOQueue", NULL),
	TCP_KEY(acks_compressed, "TcpExtTCPAckCompressed", NULL),
};
const size_t sb_tcp_ncounter_keys = SB_ARRAY_LEN(sb_tcp_counter_keys);

static json_t *summary_json(const struct sb_sim *sim, const struct sb_summary *s, double wall_s,
			    const struct sb_provenance *prov)
{
	const struct sb_scenario *sc = sim->sc;
	json_t *root = json_object();
	json_object_set_new(root, "scheme", json_string(sc->sw.scheme));
	json_object_set_new(root, "scenario", json_string(sc->source ? sc->source : ""));
	json_object_set_new(root, "seed", json_integer(sc->run.seed));
	json_object_set_new(root, "sim_time_s", json_real(s->sim_time_s));
	json_object_set_new(root, "wall_time_s", json_real(wall_s));
	json_object_set_new(root, "events", json_integer((json_int_t)sim->net.engine.eq.executed));
	json_object_set_new(root, "packet_hops", json_integer((json_int_t)sim->net.stats.packet_hops));
	json_object_set_new(root, "packets_sent", json_integer((json_int_t)sim->net.stats.pkts_sent));
	json_object_set_new(root, "flows_started", json_integer((json_int_t)sim->flows.stats.flows_started));
	json_object_set_new(root, "flows_completed", json_integer((json_int_t)sim->flows.stats.flows_completed));
	json_object_set_new(root, "flows_unfinished",
			    json_integer((json_int_t)(sim->flows.stats.flows_started - sim->flows.stats.flows_completed)));
	json_object_set_new(root, "queries_started", json_integer((json_int_t)s->queries_started));
	json_object_set_new(root, "queries_completed", json_integer((json_int_t)s->queries_completed));
	json_t *fct = json_object();
	json_object_set_new(fct, "all", group_json(&s->all, true));
	json_object_set_new(fct, "short", group_json(&s->small, true));
	json_object_set_new(fct, "long", group_json(&s->large, true));
	json_object_set_new(fct, "incast", group_json(&s->incast, true));
	json_object_set_new(root, "fct_slowdown", fct);
	json_object_set_new(root, "qct_slowdown", group_json(&s->qct, true));
	json_t *drops = json_object();
	json_object_set_new(drops, "total", json_integer((json_int_t)s->drops_total));
	json_object_set_new(drops, "lossy", json_integer((json_int_t)s->drops_lossy));
	json_object_set_new(drops, "lossless", json_integer((json_int_t)s->drops_lossless));
	json_t *causes = json_object();
	for (int c = 1; c < SB_DROP_NCAUSES; c++)
		json_object_set_new(causes, sb_drop_cause_name[c], json_integer((json_int_t)sim->net.stats.drops[c]));
	json_object_set_new(causes, "nic", json_integer((json_int_t)sim->net.stats.drops_nic));
	json_object_set_new(drops, "by_cause", causes);
	json_object_set_new(root, "drops", drops);
	struct sb_pfc_summary pfc;
	sb_pfc_summarize(sim, &pfc);
	json_object_set_new(root, "pfc", sb_pfc_summary_json(sim, &pfc));
	json_t *rdma = json_object();
	json_object_set_new(rdma, "cnps", json_integer((json_int_t)sim->flows.stats.rdma_cnps));
	json_object_set_new(rdma, "nacks", json_integer((json_int_t)sim->flows.stats.rdma_nacks));
	json_object_set_new(root, "rdma", rdma);
	json_t *tcp = json_object();
	for (size_t i = 0; i < sb_tcp_ncounter_keys; i++) {
		const struct sb_tcp_counter_key *k = &sb_tcp_counter_keys[i];
		uint64_t v = *(const uint64_t *)(const void *)((const char *)&sim->flows.stats.tcp + k->offset);
		json_object_set_new(tcp, k->key, json_integer((json_int_t)v));
	}
	json_object_set_new(root, "tcp", tcp);
	json_t *buf = json_object();
	json_object_set_new(buf, "p99_occupancy_bytes", json_integer((json_int_t)s->p99_occupancy_bytes));
	json_object_set_new(buf, "max_occupancy_bytes", json_integer((json_int_t)s->max_occupancy_bytes));
	json_object_set_new(buf, "peak_mmu_occupancy_bytes", json_integer((json_int_t)s->peak_mmu_occupancy_bytes));
	json_object_set_new(root, "buffer", buf);
	json_t *bw = json_object();
	json_object_set_new(bw, "mean_util", json_real(s->mem_bw_mean));
	json_object_set_new(bw, "drops_sampled", json_integer((json_int_t)s->mem_bw_drops));
	json_object_set_new(bw, "at_drop_mean", json_real(s->mem_bw_at_drop_mean));
	json_object_set_new(bw, "at_drop_p50", json_real(s->mem_bw_at_drop_p50));
	json_object_set_new(bw, "at_drop_p99", json_real(s->mem_bw_at_drop_p99));
	json_object_set_new(root, "memory_bandwidth", bw);
	if (prov)
		json_object_set_new(root, "provenance", sb_provenance_json(prov));
	return root;
}

void sb_report_print(FILE *f, const struct sb_sim *sim, const struct sb_summary *s, double wall_s)
{
	fprintf(f, "scheme %s, seed %lld: %.3f ms simulated in %.2f s wall (%llu events, %.2f M packet-hops/s)\n",
		sim->sc->sw.scheme, (long long)sim->sc->run.seed, s->sim_time_s * 1e3, wall_s,
		(unsigned long long)sim->net.engine.eq.executed,
		wall_s > 0 ? (double)sim->net.stats.packet_hops / wall_s / 1e6 : 0.0);
	fprintf(f, "flows: %llu started, %llu completed; queries: %llu started, %llu completed\n",
		(unsigned long long)sim->flows.stats.flows_started, (unsigned long long)sim->flows.stats.flows_completed,
		(unsigned long long)s->queries_started, (unsigned long long)s->queries_completed);
	fprintf(f, "FCT slowdown        count      mean       p50       p95       p99\n");
	const struct { const char *name; const struct sb_summary_group *g; } rows[] = {
		{ "all", &s->all }, { "short (<100KB)", &s->small }, { "long (>1MB)", &s->large },
		{ "incast", &s->incast }, { "query (QCT)", &s->qct },
	};
	for (size_t i = 0; i < SB_ARRAY_LEN(rows); i++)
		fprintf(f, "  %-15s %8llu %9.2f %9.2f %9.2f %9.2f\n", rows[i].name,
			(unsigned long long)rows[i].g->count, rows[i].g->mean, rows[i].g->p50, rows[i].g->p95,
			rows[i].g->p99);
	fprintf(f, "drops: %llu (lossy %llu, lossless %llu)\n", (unsigned long long)s->drops_total,
		(unsigned long long)s->drops_lossy, (unsigned long long)s->drops_lossless);
	struct sb_pfc_summary pfc;
	sb_pfc_summarize(sim, &pfc);
	fprintf(f, "PFC: %llu pause / %llu resume frames (port-level %llu / %llu); %llu queues paused, "
		"%.1f us in total, p99 per queue %.1f us",
		(unsigned long long)sim->net.stats.pfc_pause_frames, (unsigned long long)sim->net.stats.pfc_resume_frames,
		(unsigned long long)sim->net.stats.pfc_port_pause_frames,
		(unsigned long long)sim->net.stats.pfc_port_resume_frames, (unsigned long long)pfc.paused_queues,
		pfc.total_us, pfc.per_queue_p99_us);
	if (pfc.deadlocks)
		fprintf(f, "; %llu DEADLOCKS, first at %.1f us", (unsigned long long)pfc.deadlocks,
			pfc.first_deadlock_us);
	fputc('\n', f);
	const struct sb_tcp_counters *tc = &sim->flows.stats.tcp;
	fprintf(f, "TCP: %llu timeouts (%llu of SYNs), %llu fast recoveries, %llu loss probes, "
		"%llu retransmitted segments (%llu lost again)\n",
		(unsigned long long)tc->timeouts, (unsigned long long)tc->syn_retransmits,
		(unsigned long long)tc->recoveries, (unsigned long long)tc->loss_probes,
		(unsigned long long)tc->retransmitted_segments, (unsigned long long)tc->lost_retransmits);
	fprintf(f, "buffer occupancy (sampled switches): p99 %llu B, max %llu B; peak of one MMU %llu B\n",
		(unsigned long long)s->p99_occupancy_bytes, (unsigned long long)s->max_occupancy_bytes,
		(unsigned long long)s->peak_mmu_occupancy_bytes);
	fprintf(f, "memory bandwidth (sampled switches): mean %.1f%% used; at %llu drops: mean %.1f%%, p50 %.1f%%, p99 %.1f%%\n",
		100 * s->mem_bw_mean, (unsigned long long)s->mem_bw_drops, 100 * s->mem_bw_at_drop_mean,
		100 * s->mem_bw_at_drop_p50, 100 * s->mem_bw_at_drop_p99);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(f, "resources: %.2f s wall, peak RSS %.1f MB, %llu events (%.2f M/s), %llu packet-hops (%.2f M/s)\n",
		wall_s, (double)ru.ru_maxrss / 1024.0, (unsigned long long)sim->net.engine.eq.executed,
		wall_s > 0 ? (double)sim->net.engine.eq.executed / wall_s / 1e6 : 0.0, (unsigned long long)sim->net.stats.packet_hops,
		wall_s > 0 ? (double)sim->net.stats.packet_hops / wall_s / 1e6 : 0.0);
}

/* --- output files --- */

/* A unique temporary DIR/.NAME.XXXXXX (outdir.c): two runs on one directory can never write
 * the same file, and a signal removes it. */
static int out_open(struct sb_out_file *o, const char *dir, const char *name, struct sb_error *err)
{
	snprintf(o->final, sizeof(o->final), "%s/%s", dir, name);
	o->f = sb_outdir_tmp_open(dir, name, o->tmp, sizeof(o->tmp), err);
	return o->f ? 0 : -1;
}

static void occupancy_header(FILE *f)
{
	fprintf(f, "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n");
}

static int mkdir_p(const char *dir, struct sb_error *err)
{
	char path[4096];
	if (!*dir)
		return sb_fail(err, "--out: the output directory name is empty");
	if (strlen(dir) >= sizeof(path))
		return sb_fail(err, "--out: the output directory name is longer than %zu bytes", sizeof(path) - 1);
	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0777) && errno != EEXIST)
			return sb_fail(err, "cannot create directory %s: %s", path, strerror(errno));
		*p = '/';
	}
	if (mkdir(path, 0777) && errno != EEXIST)
		return sb_fail(err, "cannot create directory %s: %s", path, strerror(errno));
	return 0;
}

/* flows.csv and occupancy.csv when the run did not stream them (sb_report_stream): from what
 * it kept, which is every row only with sim->flows.keep_finished (flows) and always (samples). */
static void write_flows(FILE *f, const struct sb_sim *sim)
{
	sb_flowlog_header(f);
	for (size_t i = 0; i < sim->nrecords; i++)
		sb_flowlog_row(f, &sim->records[i]);
}

static void write_occupancy(FILE *f, const struct sb_sim *sim)
{
	occupancy_header(f);
	const struct sb_occupancy_sink *o = sim->occ;
	for (size_t i = 0; o && i < o->n; i++)
		write_occupancy_row(f, sim, &o->v[i]);
}

static void write_drops(FILE *f, const struct sb_sim *sim)
{
	fprintf(f, "node,cause,packets\n");
	for (uint32_t i = 0; i < sim->net.nswitches; i++)
		for (int c = 1; c < SB_DROP_NCAUSES; c++)
			if (sim->net.switches[i]->drops[c])
				fprintf(f, "%s,%s,%llu\n", sim->net.switches[i]->node.name, sb_drop_cause_name[c],
					(unsigned long long)sim->net.switches[i]->drops[c]);
	for (uint32_t h = 0; h < sim->net.nhosts; h++)
		if (sim->net.hosts[h]->nic_drops)
			fprintf(f, "%s,nic,%llu\n", sim->net.hosts[h]->node.name, (unsigned long long)sim->net.hosts[h]->nic_drops);
}

static void write_summary(FILE *f, const struct sb_sim *sim, const struct sb_summary *s, double wall_s,
			  const struct sb_provenance *prov)
{
	json_t *j = summary_json(sim, s, wall_s, prov);
	json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(j);
}

enum { OUT_FLOWS, OUT_SUMMARY, OUT_OCCUPANCY, OUT_DROPS, OUT_PFC, OUT_PFC_PAUSED, OUT_DEADLOCKS, OUT_THROUGHPUT,
       OUT_SCENARIO, OUT_N };
static const char *const out_names[OUT_N + 1] = { "flows.csv", "summary.json", "occupancy.csv", "drops.csv",
						  "pfc.csv", "pfc_paused.csv", "deadlocks.csv", "throughput.csv",
						  "scenario.cfg", NULL };
const char *const *const sb_report_file_names = out_names;

/* The PFC files only where PFC can happen (a lossless class, or frames were sent anyway). */
static void outputs_wanted(const struct sb_sim *sim, bool wanted[OUT_N])
{
	bool pfc = sim->net.lossless_prio_mask || sim->net.stats.pfc_pause_frames || sim->net.stats.pfc_port_pause_frames;
	for (int i = 0; i < OUT_N; i++)
		wanted[i] = i < OUT_PFC;
	wanted[OUT_PFC] = pfc && sim->sc->pfc.log;
	wanted[OUT_PFC_PAUSED] = pfc;
	wanted[OUT_DEADLOCKS] = sim->net.deadlock != NULL;
	wanted[OUT_THROUGHPUT] = sim->occ && sim->occ->rx;
	wanted[OUT_SCENARIO] = false; /* sb_report_write_provenance decides */
}

void sb_report_output_list(const struct sb_sim *sim, char *buf, size_t len)
{
	bool wanted[OUT_N];
	outputs_wanted(sim, wanted);
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < OUT_N; i++)
		if (wanted[i] && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", out_names[i]);
}

int sb_report_stream(struct sb_sim *sim, const char *dir, struct sb_error *err)
{
	if (mkdir_p(dir, err))
		return -1;
	struct sb_report_streams *st = sb_xcalloc(1, sizeof(*st));
	sim->streams = st; /* sb_report_free removes whatever was opened */
	if (out_open(&st->file[SB_STREAM_FLOWS], dir, out_names[OUT_FLOWS], err) ||
	    out_open(&st->file[SB_STREAM_OCCUPANCY], dir, out_names[OUT_OCCUPANCY], err))
		return -1;
	sb_flowlog_header(st->file[SB_STREAM_FLOWS].f);
	occupancy_header(st->file[SB_STREAM_OCCUPANCY].f);
	if (!sim->flowlog)
		sim->flowlog = sb_xcalloc(1, sizeof(*sim->flowlog));
	sim->flowlog->rows = st->file[SB_STREAM_FLOWS].f;
	return 0;
}

int sb_report_write(const struct sb_sim *sim, const char *dir, double wall_s, struct sb_error *err)
{
	return sb_report_write_provenance(sim, dir, wall_s, NULL, err);
}

int sb_report_write_provenance(const struct sb_sim *sim, const char *dir, double wall_s,
			       const struct sb_provenance *prov, struct sb_error *err)
{
	if (mkdir_p(dir, err))
		return -1;
	struct sb_report_streams *st = sim->streams;
	if (!st && !sim->flows.keep_finished && sim->flows.stats.flows_completed)
		return sb_fail(err, "flows.csv: the finished flows were neither streamed (sb_report_stream) nor kept");
	struct sb_summary s;
	sb_report_summarize(sim, &s);
	bool wanted[OUT_N];
	outputs_wanted(sim, wanted);
	wanted[OUT_SCENARIO] = prov != NULL;
	struct sb_out_file files[OUT_N] = { 0 };
	int rc = 0;
	/* the streamed files change hands: from here on they are closed and renamed (or
	 * removed) below like the others */
	if (st) {
		files[OUT_FLOWS] = st->file[SB_STREAM_FLOWS];
		files[OUT_OCCUPANCY] = st->file[SB_STREAM_OCCUPANCY];
		st->file[SB_STREAM_FLOWS].f = st->file[SB_STREAM_OCCUPANCY].f = NULL;
		if (sim->flowlog)
			sim->flowlog->rows = NULL;
		if (sim->occ)
			sim->occ->rows = NULL;
	}
	for (int i = 0; i < OUT_N && rc == 0; i++)
		if (wanted[i] && !files[i].f)
			rc = out_open(&files[i], dir, out_names[i], err);
	if (rc == 0) {
		if (!st)
			write_flows(files[OUT_FLOWS].f, sim);
		write_summary(files[OUT_SUMMARY].f, sim, &s, wall_s, prov);
		if (prov)
			fputs(prov->scenario_text, files[OUT_SCENARIO].f);
		if (!st)
			write_occupancy(files[OUT_OCCUPANCY].f, sim);
		write_drops(files[OUT_DROPS].f, sim);
		if (wanted[OUT_PFC])
			sb_pfc_write_events(files[OUT_PFC].f, sim);
		if (wanted[OUT_PFC_PAUSED])
			sb_pfc_write_paused(files[OUT_PFC_PAUSED].f, sim);
		if (wanted[OUT_DEADLOCKS])
			sb_pfc_write_deadlocks(files[OUT_DEADLOCKS].f, sim);
		if (wanted[OUT_THROUGHPUT])
			sb_rx_write(files[OUT_THROUGHPUT].f, sim, sim->occ->rx);
	}
	for (int i = 0; i < OUT_N; i++) {
		if (!files[i].f)
			continue;
		/* the message names the output, not its temporary */
		if (sb_safe_fclose(files[i].f) && rc == 0)
			rc = sb_fail(err, "cannot write %s: %s", files[i].final, strerror(errno));
	}
	/* The renames and the removal of stale files happen with the signals held, so that a
	 * signal cannot leave some files of this run beside some of the previous one: it takes
	 * effect once the directory holds exactly this run's files. */
	sigset_t saved;
	sb_outdir_block(&saved);
	for (int i = 0; i < OUT_N; i++) {
		if (!files[i].f)
			continue;
		if (rc == 0 && rename(files[i].tmp, files[i].final))
			rc = sb_fail(err, "cannot replace %s: %s", files[i].final, strerror(errno));
		if (rc)
			unlink(files[i].tmp);
		sb_outdir_tmp_done(files[i].tmp);
	}
	/* A run owns its outputs' names in DIR: one of them that this run did not write (the
	 * pfc.csv of an earlier lossless run, say) would read as this run's result. */
	for (int i = 0; i < OUT_N && rc == 0; i++) {
		if (wanted[i])
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, out_names[i]);
		if (unlink(path) && errno != ENOENT)
			rc = sb_fail(err, "cannot remove %s, the output of an earlier run: %s", path, strerror(errno));
	}
	sb_outdir_unblock(&saved);
	return rc;
}
