/*
 * dpswitch.c — the software switch's forwarding core (dpswitch.h).
 */
#include "dataplane/dpswitch.h"

#include <stdlib.h>
#include <string.h>
#include "dataplane/frame.h"
#include "net/switch.h"
#include "scenario/scenario.h"
#include "scenario/scenario_mmu.h"

const char *const sb_dp_local_drop_name[SB_DP_NLOCAL] = { "no_slot", "local", "oversize" };

/* Control frames a port may hold: ARP and the like, a few per host. */
#define CTRL_LIMIT 256
/* Entries of the first-window flow table (a power of two). */
#define FLOWTAG_ENTRIES 65536u
/* Largest number of packet slots (1.6 KB each; calloc'd, so only touched slots cost memory). */
#define POOL_MAX 65536u

/* --- the MMU's environment in real time --- */

static sb_time env_now(void *ctx)
{
	return sb_dp_switch_now(ctx);
}

static void env_arm_timer(void *ctx, struct sb_mmu *mmu, sb_time at, unsigned id)
{
	(void)mmu;
	sb_dp_timers_arm(&((struct sb_dp_switch *)ctx)->timers, at, id);
}

static inline struct sb_mmu_pkt mmu_view(const struct sb_dp_pkt *p, uint16_t out)
{
	struct sb_mmu_pkt m = {
		.in_port = p->in_port,
		.out_port = out,
		.prio = p->prio,
		.tags = p->tags,
		.bytes = p->len,
		.flow_hash = p->hash,
	};
	return m;
}

static void check_or_abort(const struct sb_dp_switch *sw)
{
	struct sb_error err = { "" };
	if (sb_dp_switch_check(sw, &err)) {
		fprintf(stderr, "sharebuf-switch: internal error: %s\n", err.msg);
		abort();
	}
}

static bool env_expel_head(void *ctx, struct sb_mmu *mmu, uint16_t port, uint8_t prio)
{
	struct sb_dp_switch *sw = ctx;
	struct sb_dp_pkt *p = sb_swport_pop_head(&sw->port[port], prio);
	if (!p)
		return false;
	struct sb_mmu_pkt m = mmu_view(p, port);
	sb_mmu_release(mmu, &m, SB_RELEASE_EXPELLED);
	sw->port[port].qs[prio].drops[SB_DROP_EXPELLED]++;
	sb_dp_pool_put(&sw->pool, p);
	return true;
}

/* --- set-up --- */

/* The simulator's base RTT of a single-switch path (sb_base_rtt: two propagation delays each
 * way, a full frame and an ACK serialised on each of the two hops) times the port rate: the
 * default first-window budget (tcp.first_rtt_bytes = 0). */
static uint64_t first_window_budget(const struct sb_scenario *sc, uint64_t rate_bps)
{
	if (sc->tcp.first_rtt_bytes > 0)
		return (uint64_t)sc->tcp.first_rtt_bytes;
	sb_time delay = (sb_time)(sc->topo.host_delay_us * 1e6 + 0.5);
	sb_time rtt = 4 * delay + 2 * sb_tx_time((uint64_t)(sc->tcp.mss + sc->tcp.header_bytes), rate_bps) +
		      2 * sb_tx_time((uint64_t)sc->tcp.ack_bytes, rate_bps);
	return (uint64_t)((unsigned __int128)rtt * rate_bps / (8u * (unsigned __int128)SB_SEC));
}

int sb_dp_switch_init(struct sb_dp_switch *sw, const struct sb_scenario *sc, uint16_t nports,
		      const uint8_t (*macs)[6], sb_dp_clock_fn clock, void *clock_ctx, struct sb_error *err)
{
	memset(sw, 0, sizeof(*sw));
	if (sc->topo.type != SB_TOPO_SINGLE)
		return sb_scenario_fail(sc, "topology.type", err,
					"the software switch runs only topology.type = \"single\", not \"%s\"",
					sb_topo_names[sc->topo.type]);
	if (sc->topo.hosts != nports)
		return sb_scenario_fail(sc, "topology.hosts", err,
					"%lld hosts, but %u --port given: expected one --port per host",
					(long long)sc->topo.hosts, nports);
	if (sc->sw.mmu_ports > 0 && sc->sw.mmu_ports < nports)
		return sb_scenario_fail(sc, "switch.mmu_ports", err,
					"the software switch has one MMU: expected 0 (or at least the number of ports)");
	const struct sb_bm_ops *ops = sb_bm_find(sc->sw.scheme);
	if (ops && ops->lossless)
		return sb_scenario_fail(sc, "switch.scheme", err,
					"\"%s\" protects lossless classes with PFC, which the software switch does not "
					"send: expected a lossy scheme (see `sharebuf list`)",
					ops->name);
	sw->nports = nports;
	sw->clock = clock;
	sw->clock_ctx = clock_ctx;
	sw->rate_bps = (uint64_t)(sc->topo.host_rate_gbps * 1e9 + 0.5);
	sw->check = sc->sw.check_invariants || sc->run.check_invariants;
	snprintf(sw->scheme, sizeof(sw->scheme), "%s", sc->sw.scheme);

	uint64_t *rates = calloc(nports, sizeof(*rates));
	sb_time *delays = calloc(nports, sizeof(*delays));
	sw->mac = calloc(nports, sizeof(*sw->mac));
	sw->port = calloc(nports, sizeof(*sw->port));
	if (!rates || !delays || !sw->mac || !sw->port) {
		free(rates);
		free(delays);
		sb_dp_switch_fini(sw);
		return sb_fail(err, "out of memory for %u ports", nports);
	}
	for (uint16_t i = 0; i < nports; i++) {
		rates[i] = sw->rate_bps;
		delays[i] = (sb_time)(sc->topo.host_delay_us * 1e6 + 0.5);
		memcpy(sw->mac[i], macs[i], 6);
	}
	sw->buffer_bytes = sb_switch_buffer_for_rates(&sc->sw, rates, nports);
	struct sb_mmu_config cfg = {
		.nports = nports,
		.buffer_bytes = sw->buffer_bytes,
		.cell_bytes = (uint32_t)sc->sw.cell_bytes,
		.port_rate_bps = rates,
		.port_delay_ps = delays,
		.max_frame_bytes = sb_scenario_max_frame_bytes(sc),
		.seed = sb_mix64((uint64_t)sc->run.seed), /* the simulator's switch 0, MMU 0 */
	};
	struct sb_mmu_env env = { sw, env_now, env_arm_timer, NULL, env_expel_head };
	sw->mmu = sb_switch_mmu_create(sc, &cfg, &env, "leaf0", err);
	free(rates);
	free(delays);
	if (!sw->mmu) {
		sb_dp_switch_fini(sw);
		return -1;
	}
	sb_rng_init(&sw->rng, (uint64_t)sc->run.seed, SB_STREAM_SWITCH);
	for (uint16_t i = 0; i < nports; i++) {
		struct sb_ecn_cfg ecn[SB_MMU_NPRIO];
		uint32_t quantum[SB_MMU_NPRIO];
		sb_switch_port_tables(&sc->sw, sw->rate_bps, ecn, quantum);
		/* 1 ms of slack: a backlogged port makes good what a loop kept off the CPU owes */
		sb_swport_init(&sw->port[i], (uint8_t)sc->sw.sched, quantum, ecn, sc->sw.ecn_at == SB_ECN_AT_DEQUEUE,
			       sw->rate_bps, SB_MS, CTRL_LIMIT);
	}
	uint64_t slots = sw->buffer_bytes / 64 + (uint64_t)nports * (CTRL_LIMIT + 64);
	if (slots > POOL_MAX)
		slots = POOL_MAX;
	if (!sb_dp_pool_init(&sw->pool, (uint32_t)slots) || !sb_dp_timers_init(&sw->timers, 256) ||
	    !sb_dp_flowtag_init(&sw->flowtag, FLOWTAG_ENTRIES, first_window_budget(sc, sw->rate_bps))) {
		sb_dp_switch_fini(sw);
		return sb_fail(err, "out of memory for the packet pool (%llu slots)", (unsigned long long)slots);
	}
	return 0;
}

void sb_dp_switch_fini(struct sb_dp_switch *sw)
{
	sb_mmu_free(sw->mmu);
	sb_dp_pool_fini(&sw->pool);
	sb_dp_timers_fini(&sw->timers);
	sb_dp_flowtag_fini(&sw->flowtag);
	free(sw->mac);
	free(sw->port);
	sw->mmu = NULL;
	sw->mac = NULL;
	sw->port = NULL;
}

/* --- receive --- */

static int port_of_mac(const struct sb_dp_switch *sw, const uint8_t *mac)
{
	for (uint16_t i = 0; i < sw->nports; i++)
		if (!memcmp(sw->mac[i], mac, 6))
			return i;
	return -1;
}

static void control_copy(struct sb_dp_switch *sw, uint16_t out, uint16_t in, const uint8_t *frame, uint32_t len)
{
	struct sb_dp_pkt *p = sb_dp_pool_get(&sw->pool);
	if (!p) {
		sw->ctrl_lost++;
		return;
	}
	memcpy(p->data, frame, len);
	p->len = len;
	p->in_port = in;
	p->prio = 0;
	p->ctrl = true;
	p->ect = false;
	if (sb_swport_push_ctrl(&sw->port[out], p)) {
		sw->ctrl_copies++;
	} else {
		sw->ctrl_lost++;
		sb_dp_pool_put(&sw->pool, p);
	}
}

void sb_dp_switch_receive(struct sb_dp_switch *sw, uint16_t in, const uint8_t *frame, uint32_t len)
{
	sw->rx_frames++;
	sw->rx_bytes += len;
	if (len > SB_DP_FRAME_MAX) {
		sw->local_drops[SB_DP_DROP_OVERSIZE]++;
		return;
	}
	struct sb_frame_info fi;
	sb_frame_parse(frame, len, &fi);
	int out = fi.dst_mac && !(fi.dst_mac[0] & 1) ? port_of_mac(sw, fi.dst_mac) : -1;
	if (out == in) {
		sw->local_drops[SB_DP_DROP_LOCAL]++;
		return;
	}
	if (!fi.ip || out < 0) {
		/* the control path: to its port, or flooded to every other port */
		sw->rx_ctrl++;
		if (out >= 0) {
			control_copy(sw, (uint16_t)out, in, frame, len);
		} else {
			sw->flood_frames++;
			for (uint16_t o = 0; o < sw->nports; o++)
				if (o != in)
					control_copy(sw, o, in, frame, len);
		}
		return;
	}
	sw->rx_data++;
	struct sb_dp_pkt *p = sb_dp_pool_get(&sw->pool);
	if (!p) {
		sw->local_drops[SB_DP_DROP_NO_SLOT]++;
		return;
	}
	p->len = len;
	p->in_port = in;
	p->prio = sb_frame_prio(&fi);
	p->hash = fi.hash;
	p->ect = sb_frame_ect(&fi);
	p->ctrl = false;
	p->ip_version = fi.ip_version;
	p->tags = sb_dp_flowtag_first(&sw->flowtag, frame, &fi) ? SB_MT_FIRST_RTT : 0;
	struct sb_swport *port = &sw->port[out];
	struct sb_dp_qstats *qs = &port->qs[p->prio];
	struct sb_mmu_pkt m = mmu_view(p, (uint16_t)out);
	enum sb_drop_cause why = sb_mmu_admit(sw->mmu, &m);
	enum sb_sched_arrival to = sb_sched_on_admit(why, &port->profile, p->prio, p->ect, port->q[p->prio].bytes,
						     p->len, &sw->rng);
	if (to == SB_ARRIVAL_DROP) {
		qs->drops[why]++;
		sb_dp_pool_put(&sw->pool, p);
		if (sw->check)
			check_or_abort(sw);
		return;
	}
	memcpy(p->data, frame, len);
	if (to == SB_ARRIVAL_MARK) {
		struct sb_frame_info mark = { .ip = true, .ip_version = p->ip_version, .ecn = SB_ECN_ECT0 };
		sb_frame_mark_ce(p->data, &mark);
		p->ect = false; /* CE now: never counted twice */
		qs->ecn_marked++;
	}
	qs->enq_pkts++;
	qs->enq_bytes += len;
	sb_swport_push(port, p);
	uint64_t queued = sb_dp_switch_queued_bytes(sw);
	if (queued > sw->peak_queued_bytes)
		sw->peak_queued_bytes = queued;
	if (sw->check)
		check_or_abort(sw);
}

/* --- transmit --- */

unsigned sb_dp_switch_transmit(struct sb_dp_switch *sw, uint16_t pi, sb_time now, const struct sb_dp_sink *sink)
{
	struct sb_swport *port = &sw->port[pi];
	unsigned n = 0;
	while (sb_dp_shaper_ready(&port->shaper, now) && sink->room(sink->ctx, pi)) {
		struct sb_dp_pkt *p = sb_swport_select(port);
		if (!p)
			break;
		if (p->ctrl) {
			port->ctrl_tx++;
		} else {
			struct sb_mmu_pkt m = mmu_view(p, pi);
			sb_mmu_release(sw->mmu, &m, SB_RELEASE_TX);
			struct sb_dp_qstats *qs = &port->qs[p->prio];
			if (sb_sched_on_dequeue(&port->profile, p->prio, p->ect, port->q[p->prio].bytes, &sw->rng)) {
				struct sb_frame_info mark = { .ip = true, .ip_version = p->ip_version, .ecn = SB_ECN_ECT0 };
				sb_frame_mark_ce(p->data, &mark);
				qs->ecn_marked++;
			}
			qs->deq_pkts++;
			qs->deq_bytes += p->len;
			sw->fwd_pkts++;
			sw->fwd_bytes += p->len;
		}
		port->tx_pkts++;
		port->tx_bytes += p->len;
		sb_dp_shaper_sent(&port->shaper, now, p->len);
		sink->send(sink->ctx, pi, p->data, p->len);
		sb_dp_pool_put(&sw->pool, p);
		n++;
	}
	if (!port->backlog && !port->ctrl.head)
		sb_dp_shaper_idle(&port->shaper);
	if (n && sw->check)
		check_or_abort(sw);
	return n;
}

sb_time sb_dp_switch_next_tx(const struct sb_dp_switch *sw)
{
	sb_time next = UINT64_MAX;
	for (uint16_t i = 0; i < sw->nports; i++) {
		const struct sb_swport *p = &sw->port[i];
		if ((p->backlog || p->ctrl.head) && sb_dp_shaper_next(&p->shaper) < next)
			next = sb_dp_shaper_next(&p->shaper);
	}
	return next;
}

void sb_dp_switch_run_timers(struct sb_dp_switch *sw, sb_time now)
{
	unsigned id;
	while (sb_dp_timers_pop_due(&sw->timers, now, &id))
		sb_mmu_timer(sw->mmu, id);
}

/* --- totals and checks --- */

uint64_t sb_dp_switch_dropped(const struct sb_dp_switch *sw)
{
	uint64_t d = 0;
	for (uint16_t i = 0; i < sw->nports; i++)
		for (unsigned q = 0; q < SB_MMU_NPRIO; q++)
			for (int c = 1; c < SB_DROP_NCAUSES; c++)
				d += sw->port[i].qs[q].drops[c];
	for (int c = 0; c < SB_DP_NLOCAL; c++)
		d += sw->local_drops[c];
	return d;
}

uint64_t sb_dp_switch_queued_pkts(const struct sb_dp_switch *sw)
{
	uint64_t n = 0;
	for (uint16_t i = 0; i < sw->nports; i++)
		for (unsigned q = 0; q < SB_MMU_NPRIO; q++)
			n += sw->port[i].q[q].pkts;
	return n;
}

uint64_t sb_dp_switch_queued_bytes(const struct sb_dp_switch *sw)
{
	uint64_t b = 0;
	for (uint16_t i = 0; i < sw->nports; i++)
		b += sb_swport_data_bytes(&sw->port[i]);
	return b;
}

int sb_dp_switch_check(const struct sb_dp_switch *sw, struct sb_error *err)
{
	uint64_t queued = sb_dp_switch_queued_pkts(sw), dropped = sb_dp_switch_dropped(sw);
	if (sw->rx_frames != sw->fwd_pkts + dropped + sw->rx_ctrl + queued)
		return sb_fail(err, "conservation: received %llu != forwarded %llu + dropped %llu + control %llu + queued %llu",
			       (unsigned long long)sw->rx_frames, (unsigned long long)sw->fwd_pkts,
			       (unsigned long long)dropped, (unsigned long long)sw->rx_ctrl, (unsigned long long)queued);
	for (uint16_t i = 0; i < sw->nports; i++)
		for (unsigned q = 0; q < SB_MMU_NPRIO; q++) {
			uint64_t units = 0;
			for (const struct sb_dp_pkt *p = sw->port[i].q[q].head; p; p = p->next)
				units += sb_mmu_units(sw->mmu, p->len);
			if (units != sw->mmu->q_egr[sb_mmu_qi(i, (uint8_t)q)])
				return sb_fail(err, "port %u priority %u: %llu units queued, the MMU counts %llu", i, q,
					       (unsigned long long)units,
					       (unsigned long long)sw->mmu->q_egr[sb_mmu_qi(i, (uint8_t)q)]);
		}
	return sb_mmu_check(sw->mmu, err);
}
