/*
 * report_rx.c — per-host receive throughput samples (throughput.csv).
 *
 * Why per host and not per packet or per flow: a receiver's in-order payload count already
 * exists in every transport's flow state, so reading it at the sampling instants costs nothing
 * on the packet path. Per host (rather than per flow) keeps the file small however many flows
 * a workload creates, and a host that receives a single flow (the innocent flow of DSH Fig. 13,
 * say) gives that flow's throughput exactly.
 *
 * The sink keeps the ids of the flows whose receiver is sampled, told of each as it is
 * created (the flows of the build, when the sink is made); a flow whose receiver has every
 * byte is counted one last time and then folded into a per-host total, so the work per sample
 * stays proportional to the flows still receiving, not to every flow the run ever had. A flow
 * released between two samples (transport/flow_table.h) is folded in at its release.
 */
#include "sim/report_rx.h"

#include <stdlib.h>
#include "core/util.h"

struct rx_row {
	sb_time t;
	uint32_t host;
	uint64_t bytes; /* payload received in order during the interval ending at t */
};

struct sb_rx_sink {
	sb_time interval;
	uint32_t n;          /* sampled hosts */
	uint32_t *hosts;     /* their indices, ascending */
	int32_t *slot;       /* per host index: position in hosts, -1 if not sampled */
	uint64_t *retired;   /* per slot: bytes of finished flows no longer in `live` */
	uint64_t *last;      /* per slot: cumulative bytes at the previous sample */
	uint64_t *cur;       /* per slot: scratch for the current sample */
	uint32_t *live;      /* flows to sampled hosts that may still receive (ids) */
	uint32_t nlive, live_cap;
	struct rx_row *v;
	size_t nrows, cap;
};

struct sb_rx_sink *sb_rx_new(const struct sb_sim *sim)
{
	const struct sb_int_list *l = &sim->sc->run.sample_hosts;
	if (!l->n || !sim->net.nhosts)
		return NULL;
	struct sb_rx_sink *rx = sb_xcalloc(1, sizeof(*rx));
	rx->interval = sb_time_from_us(sim->sc->run.sample_interval_us);
	rx->slot = sb_xmalloc(sim->net.nhosts * sizeof(*rx->slot));
	for (uint32_t h = 0; h < sim->net.nhosts; h++)
		rx->slot[h] = -1;
	/* mark, then number in ascending order: the list may repeat a host or be unsorted */
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] >= 0 && (uint64_t)l->v[i] < sim->net.nhosts)
			rx->slot[l->v[i]] = 0;
	rx->hosts = sb_xmalloc(l->n * sizeof(*rx->hosts));
	for (uint32_t h = 0; h < sim->net.nhosts; h++)
		if (rx->slot[h] == 0) {
			rx->slot[h] = (int32_t)rx->n;
			rx->hosts[rx->n++] = h;
		}
	rx->retired = sb_xcalloc(rx->n, sizeof(uint64_t));
	rx->last = sb_xcalloc(rx->n, sizeof(uint64_t));
	rx->cur = sb_xcalloc(rx->n, sizeof(uint64_t));
	/* the flows that exist already (created at build time); later ones come through
	 * sb_rx_flow_created */
	for (uint32_t id = 0; id < sim->flows.table.next_id; id++) {
		const struct sb_flow *f = sb_flow_table_get(&sim->flows.table, id);
		if (f)
			sb_rx_flow_created(rx, f);
	}
	return rx;
}

void sb_rx_flow_created(struct sb_rx_sink *rx, const struct sb_flow *f)
{
	if (rx->slot[f->dst] < 0)
		return;
	if (rx->nlive == rx->live_cap) {
		rx->live_cap = rx->live_cap ? rx->live_cap * 2 : 64;
		rx->live = sb_xrealloc(rx->live, rx->live_cap * sizeof(*rx->live));
	}
	rx->live[rx->nlive++] = f->id;
}

void sb_rx_sample(struct sb_sim *sim, struct sb_rx_sink *rx)
{
	for (uint32_t k = 0; k < rx->n; k++)
		rx->cur[k] = rx->retired[k];
	for (uint32_t i = 0; i < rx->nlive; i++) {
		struct sb_flow *f = sb_flow_get(&sim->flows, rx->live[i]);
		if (!f) { /* released since the last sample: its bytes are in `retired` */
			rx->live[i--] = rx->live[--rx->nlive];
			continue;
		}
		int32_t s = rx->slot[f->dst];
		rx->cur[s] += f->bytes_received;
		/* the receiver has every byte: bytes_received is final, fold it in */
		if (f->done) {
			rx->retired[s] += f->bytes_received;
			f->rx_counted = true;
			rx->live[i--] = rx->live[--rx->nlive];
		}
	}
	if (rx->nrows + rx->n > rx->cap) {
		rx->cap = rx->cap ? rx->cap * 2 : 1024;
		if (rx->cap < rx->nrows + rx->n)
			rx->cap = rx->nrows + rx->n;
		rx->v = sb_xrealloc(rx->v, rx->cap * sizeof(*rx->v));
	}
	for (uint32_t k = 0; k < rx->n; k++) {
		rx->v[rx->nrows++] = (struct rx_row){ sb_now(&sim->net.engine), rx->hosts[k], rx->cur[k] - rx->last[k] };
		rx->last[k] = rx->cur[k];
	}
}

void sb_rx_flow_released(struct sb_rx_sink *rx, const struct sb_flow *f)
{
	/* a released flow is done: its bytes are final; fold them in unless a sample did */
	if (rx->slot[f->dst] >= 0 && !f->rx_counted)
		rx->retired[rx->slot[f->dst]] += f->bytes_received;
}

void sb_rx_write(FILE *f, const struct sb_sim *sim, const struct sb_rx_sink *rx)
{
	fprintf(f, "time_ns,host,rx_bytes,rx_gbps\n");
	if (!rx)
		return;
	double ns = sb_time_to_ns(rx->interval);
	for (size_t i = 0; i < rx->nrows; i++)
		fprintf(f, "%.3f,%s,%llu,%.6f\n", sb_time_to_ns(rx->v[i].t), sim->net.hosts[rx->v[i].host]->node.name,
			(unsigned long long)rx->v[i].bytes, ns > 0 ? 8.0 * (double)rx->v[i].bytes / ns : 0.0);
}

void sb_rx_free(struct sb_rx_sink *rx)
{
	if (!rx)
		return;
	free(rx->hosts);
	free(rx->slot);
	free(rx->retired);
	free(rx->last);
	free(rx->cur);
	free(rx->live);
	free(rx->v);
	free(rx);
}
