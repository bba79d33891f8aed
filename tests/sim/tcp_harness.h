/*
 * tcp_harness.h — a two-host path and a packet tap for the TCP tests (test_tcp_*.c).
 *
 * The tap is the simulator's fault-injection hook (sim->net.inject): it sees every packet a
 * host sends, records those of one flow (time, type, seq, flags), and can lose chosen ones
 * (the n-th transmission of a segment, every data packet, the first SYNs) or mark them CE.
 * Losing a packet at the sender's host is, for TCP, a loss anywhere on the path.
 */
#ifndef TCP_HARNESS_H
#define TCP_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "engine/packet.h"
#include "scenario/scenario.h"
#include "sim/sim.h"
#include "transport/tcp.h"
#include "transport/transport.h"

#define TH_MAX_EVENTS 8192
#define TH_MAX_RULES 64

struct th_event {
	sb_time t;
	sb_time t_sent; /* the packet's timestamp (an ACK's echo) */
	uint64_t seq;
	uint8_t type, flags;
	uint16_t sack;
	bool dropped;
};

struct th_tap {
	struct sb_sim *sim;
	uint32_t flow;
	/* lose transmission number `nth` (1 = the original) of the data segment at `seq` */
	struct { uint64_t seq; uint32_t nth; } rule[TH_MAX_RULES];
	uint32_t nrules;
	uint32_t sent[TH_MAX_RULES]; /* transmissions seen per rule */
	bool drop_all_data;          /* lose every data packet (the test plays the receiver) */
	uint32_t drop_syns;          /* lose this many SYNs (step 0) */
	uint32_t ce_every;           /* mark CE on ECT data whose segment index % ce_every == ce_every - 1 */
	uint32_t sent_by_type[8];    /* every packet seen, by type (the log below may be full) */
	struct th_event ev[TH_MAX_EVENTS];
	uint32_t nev;
};

static inline bool th_inject(void *ctx, struct sb_packet *p)
{
	struct th_tap *t = ctx;
	if (p->flow != t->flow || p->type == SB_PKT_PFC)
		return false;
	bool drop = false;
	if (p->type == SB_PKT_DATA) {
		uint64_t mss = (uint64_t)t->sim->sc->tcp.mss;
		if (t->ce_every && (p->flags & SB_PF_ECT) && (p->seq / mss) % t->ce_every == t->ce_every - 1)
			p->flags |= SB_PF_CE;
		for (uint32_t i = 0; i < t->nrules; i++)
			if (t->rule[i].seq == p->seq && ++t->sent[i] == t->rule[i].nth)
				drop = true;
		if (t->drop_all_data)
			drop = true;
	} else if (p->type == SB_PKT_SYN && p->seq == 0 && t->drop_syns) {
		t->drop_syns--;
		drop = true;
	}
	if (p->type < 8)
		t->sent_by_type[p->type]++;
	if (t->nev < TH_MAX_EVENTS)
		t->ev[t->nev++] = (struct th_event){ .t = sb_now(&t->sim->net.engine), .t_sent = p->t_sent, .seq = p->seq, .type = p->type,
						     .flags = p->flags, .sack = p->type == SB_PKT_ACK ? p->sack : 0,
						     .dropped = drop };
	return drop;
}

static inline void th_tap_attach(struct th_tap *t, struct sb_sim *sim, uint32_t flow)
{
	memset(t, 0, sizeof *t);
	t->sim = sim;
	t->flow = flow;
	sim->net.inject = th_inject;
	sim->net.inject_ctx = t;
}

static inline void th_lose(struct th_tap *t, uint64_t seq, uint32_t nth)
{
	t->rule[t->nrules].seq = seq;
	t->rule[t->nrules].nth = nth;
	t->nrules++;
}

/* Transmissions of the data segment at seq (originals and retransmissions, lost or not). */
static inline uint32_t th_transmissions(const struct th_tap *t, uint64_t seq)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nev; i++)
		n += t->ev[i].type == SB_PKT_DATA && t->ev[i].seq == seq;
	return n;
}

/* Send time of the k-th (1-based) transmission of the segment at seq, or 0. */
static inline sb_time th_sent_at(const struct th_tap *t, uint64_t seq, uint32_t k)
{
	for (uint32_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == SB_PKT_DATA && t->ev[i].seq == seq && --k == 0)
			return t->ev[i].t;
	return 0;
}

/* When the receiver first acknowledged everything below seq (0 = never). */
static inline sb_time th_acked_at(const struct th_tap *t, uint64_t seq)
{
	for (uint32_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == SB_PKT_ACK && t->ev[i].seq >= seq)
			return t->ev[i].t;
	return 0;
}

static inline uint32_t th_count(const struct th_tap *t, uint8_t type)
{
	return type < 8 ? t->sent_by_type[type] : 0;
}

/* One switch with `hosts` hosts at `gbps`, host links of `delay_us`, a large buffer. */
static inline void th_scenario(struct sb_scenario *sc, int hosts, double gbps, double delay_us)
{
	sb_scenario_defaults(sc);
	sc->topo.type = SB_TOPO_SINGLE;
	sc->topo.hosts = hosts;
	sc->topo.host_rate_gbps = gbps;
	sc->topo.fabric_rate_gbps = gbps;
	sc->topo.host_delay_us = delay_us;
	sc->sw.buffer_bytes = 16 << 20;
	sc->run.duration_ms = 200;
	sc->run.arrivals_ms = 200;
	sc->run.sample_interval_us = 0;
}

/* One-way delay of a packet of `bytes` from src to dst on the idle path. */
static inline sb_time th_one_way(const struct sb_sim *sim, uint32_t src, uint32_t dst, uint32_t bytes)
{
	return sb_path_rtt(&sim->net, src, dst, bytes, 0) - sb_path_rtt(&sim->net, src, dst, 0, 0) / 2;
}

/* --- A scripted peer: the test plays one end of a flow, packet by packet ---
 *
 * th_script_start() builds the two-host path, sets tcp.* keys by name, starts one flow 0 -> 1
 * at 10 us. For the sender's tests every data packet is lost
 * (drop_all_data) and the test feeds hand-made ACKs with th_script_ack(); for the receiver's,
 * the test feeds data segments with th_script_data() and reads the ACKs from the tap. Each
 * call first runs the simulation to its instant, so the engine's timers fire in between. */
struct th_script {
	struct sb_scenario sc;
	struct sb_sim sim;
	struct sb_flow *f;
	struct sb_tcp *tcp;
	struct th_tap tap;
};

#define TH_SCRIPT_START (10 * SB_US)

static inline void th_script_noop(void *obj, uint64_t arg)
{
	(void)obj;
	(void)arg;
}

/* Run the simulation to `at`, and stand there (an event at `at` sets the clock). */
static inline void th_script_run(struct th_script *s, sb_time at)
{
	if (at <= sb_now(&s->sim.net.engine))
		return;
	sb_at(&s->sim.net.engine, at, th_script_noop, NULL, 0);
	sb_eventq_run_until(&s->sim.net.engine.eq, at);
}

/* Builds the path and creates the flow, which starts at TH_SCRIPT_START: the caller may set the
 * tap's rules, then th_script_run(s, TH_SCRIPT_START). Returns an error message, or NULL.
 * `sets` holds key, value pairs (keys without "tcp."). */
static inline const char *th_script_start(struct th_script *s, const char *transport, uint64_t bytes,
					  uint64_t init_window, const char *const *sets, size_t nsets)
{
	static char msg[1024];
	th_scenario(&s->sc, 2, 10, 10);
	s->sc.run.duration_ms = 100000; /* the tests stop the run themselves */
	s->sc.run.arrivals_ms = 100000;
	for (size_t i = 0; i + 1 < nsets; i += 2) {
		struct sb_error err = { { 0 } };
		const struct sb_param *p = sb_param_find(sb_tcp_param_table, sets[i]);
		if (!p || sb_param_set_text(p, &s->sc.tcp, sets[i + 1], &err) != 0) {
			snprintf(msg, sizeof msg, "tcp.%s = %s: %s", sets[i], sets[i + 1], p ? err.msg : "no such key");
			return msg;
		}
	}
	struct sb_error err = { { 0 } };
	if (sb_sim_build(&s->sim, &s->sc, &err) != 0) {
		snprintf(msg, sizeof msg, "build: %s", err.msg);
		return msg;
	}
	s->sim.flows.keep_finished = true;
	s->f = sb_flow_create(&s->sim.flows, 0, 1, bytes, TH_SCRIPT_START, sb_transport_find(transport));
	if (init_window)
		s->f->init_window = init_window;
	th_tap_attach(&s->tap, &s->sim, s->f->id);
	s->tap.drop_all_data = true;
	s->tcp = sb_tcp_of(s->f);
	return NULL;
}

/* At `at` (not before now), an ACK reaches the sender: cumulative `cum`, SACKing `nsack`
 * segments from segment number `sack_seg` (nsack = 0: none), echoing `t_sent`, with `flags`
 * (SB_PF_RETX: the ACK of a retransmission; SB_PF_ECE). th_script_ack: flags RETX or none. */
static inline void th_script_ack_flags(struct th_script *s, sb_time at, uint64_t cum, uint32_t sack_seg,
				       uint32_t nsack, sb_time t_sent, uint8_t flags)
{
	th_script_run(s, at);
	struct sb_packet a;
	memset(&a, 0, sizeof a);
	a.type = SB_PKT_ACK;
	a.seq = cum;
	uint64_t mss = (uint64_t)s->sc.tcp.mss;
	a.sack = nsack ? sb_sack_code((uint32_t)(sack_seg - cum / mss), nsack) : 0;
	a.flow = s->f->id;
	a.src = s->f->dst;
	a.dst = s->f->src;
	a.t_sent = t_sent;
	a.flags = flags;
	s->f->ops->on_ack(&s->sim.flows, s->f, &a);
}

static inline void th_script_ack(struct th_script *s, sb_time at, uint64_t cum, uint32_t sack_seg, uint32_t nsack,
				 sb_time t_sent, bool retx)
{
	th_script_ack_flags(s, at, cum, sack_seg, nsack, t_sent, retx ? SB_PF_RETX : 0);
}

/* At `at`, the data segment number `seg` (sent at `t_sent`) reaches the receiver. */
static inline void th_script_data(struct th_script *s, sb_time at, uint32_t seg, sb_time t_sent, bool retx)
{
	th_script_run(s, at);
	struct sb_packet d;
	memset(&d, 0, sizeof d);
	d.type = SB_PKT_DATA;
	uint64_t mss = (uint64_t)s->sc.tcp.mss, seq = (uint64_t)seg * mss;
	uint64_t left = s->f->size - seq;
	d.seq = seq;
	d.payload = (uint16_t)(left < mss ? left : mss);
	d.flow = s->f->id;
	d.src = s->f->src;
	d.dst = s->f->dst;
	d.t_sent = t_sent;
	if (retx)
		d.flags |= SB_PF_RETX;
	s->f->ops->on_data(&s->sim.flows, s->f, &d);
}


static inline void th_script_end(struct th_script *s)
{
	s->sim.net.inject = NULL;
	sb_sim_free(&s->sim);
	sb_scenario_free(&s->sc);
}

/* The tap's events from index `from` on of `type`: how many, and the first's index (or nev). */
static inline uint32_t th_first(const struct th_tap *t, uint32_t from, uint8_t type)
{
	for (uint32_t i = from; i < t->nev; i++)
		if (t->ev[i].type == type)
			return i;
	return t->nev;
}

#endif
