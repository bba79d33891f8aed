/*
 * tcp_harness.h — a two-host path and a packet tap for the TCP tests (test_tcp_*.c).
 *
 * The tap is the simulator's fault-injection hook (sim->inject): it sees every packet a
 * host sends, records those of one flow (time, type, seq, flags), and can lose chosen ones
 * (the n-th transmission of a segment, every data packet, the first SYNs) or mark them CE.
 * Losing a packet at the sender's host is, for TCP, a loss anywhere on the path.
 */
#ifndef TCP_HARNESS_H
#define TCP_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "engine/packet.h"
#include "sim/scenario.h"
#include "sim/sim.h"
#include "transport/tcp.h"
#include "transport/transport.h"

#define TH_MAX_EVENTS 8192
#define TH_MAX_RULES 64

struct th_event {
	sb_time t;
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
		t->ev[t->nev++] = (struct th_event){ .t = sb_now(&t->sim->engine), .seq = p->seq, .type = p->type,
						     .flags = p->flags, .sack = p->type == SB_PKT_ACK ? p->sack : 0,
						     .dropped = drop };
	return drop;
}

static inline void th_tap_attach(struct th_tap *t, struct sb_sim *sim, uint32_t flow)
{
	memset(t, 0, sizeof *t);
	t->sim = sim;
	t->flow = flow;
	sim->inject = th_inject;
	sim->inject_ctx = t;
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
	return sb_path_rtt(sim, src, dst, bytes, 0) - sb_path_rtt(sim, src, dst, 0, 0) / 2;
}

#endif
