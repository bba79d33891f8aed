/*
 * tcp.h — one TCP engine with pluggable congestion control.
 *
 * The engine does everything that is the same for every window-based TCP: byte sequence
 * numbers, segmentation, the receiver (cumulative ACK per segment, out-of-order ranges, ECN
 * echo), duplicate-ACK fast retransmit with NewReno fast recovery (RFC 5681, RFC 6582), the
 * retransmission timer (RFC 6298) and the ECN reaction of RFC 3168 for controls that have no
 * ECN hook. A congestion control (struct sb_tcp_cc_ops) only decides how cwnd grows on new
 * ACKs, what ssthresh becomes on a congestion event and, optionally, how it reacts to ECN
 * echoes. Each control is one file (cc_newreno.c, cc_cubic.c, cc_dctcp.c) that exports a
 * struct sb_transport_ops whose start() is a one-liner calling sb_tcp_start() with its
 * control; the other entry points are the engine's.
 *
 * All window quantities are bytes. The state lives in the flow's inline `tx` area.
 */
#ifndef SB_TCP_H
#define SB_TCP_H

#include <stdbool.h>
#include <stdint.h>
#include "core/time.h"
#include "transport/flow.h"

struct sb_sim;
struct sb_packet;
struct sb_tcp;

/* Bytes of control-private state inside struct sb_tcp. */
#define SB_TCP_CC_STATE 96

struct sb_tcp_cc_ops {
	const char *name;
	/* Once at start, after the engine initialised cwnd/ssthresh. May set f->ecn. Optional. */
	void (*init)(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp);
	/* `acked` new bytes were cumulatively acknowledged outside fast recovery: grow cwnd
	 * (the engine applies the max_cwnd cap afterwards). */
	void (*on_ack)(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp, uint64_t acked);
	/* A congestion event: 3 duplicate ACKs (timeout = false) or a retransmission timeout, or an
	 * ECN echo for controls without on_ecn. Returns the new ssthresh in bytes; the engine
	 * then sets cwnd (ssthresh + 3 MSS in recovery, 1 MSS after a timeout). */
	uint64_t (*ssthresh)(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp, bool timeout);
	/* Every ACK that acknowledges new data (also during fast recovery, where on_ack is not
	 * called): `acked` new bytes, `ece` its ECN echo. Called before on_ack. When NULL, an ECE makes the engine halve as RFC 3168 (at most
	 * once per window, through ssthresh()). */
	void (*on_ecn)(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp, uint64_t acked,
		       bool ece);
};

struct sb_tcp {
	const struct sb_tcp_cc_ops *cc;
	/* sender sequence space: [snd_una, snd_nxt) in flight, snd_max = highest byte sent + 1 */
	uint64_t snd_una, snd_nxt, snd_max;
	uint64_t recover;      /* RFC 6582: snd_max when the last congestion event started */
	uint64_t cwnd, ssthresh;
	uint64_t ca_bytes;     /* bytes acked since the last additive increase (RFC 3465) */
	uint64_t cwr_end;      /* no new ECN reduction before snd_una passes this */
	uint64_t first_rtt_end;/* bytes below this are tagged SB_PF_FIRST_RTT */
	uint64_t max_cwnd;     /* 0 = no cap */
	sb_time srtt, rttvar;  /* 0 srtt = no sample yet */
	sb_time rto, min_rto;
	sb_time rto_at;        /* retransmission deadline, SB_TIME_NEVER = not running */
	uint32_t mss, header;
	uint16_t dupacks;
	bool in_recovery;
	bool partial_seen;     /* a partial ACK already restarted the timer in this recovery */
	_Alignas(8) unsigned char cc_state[SB_TCP_CC_STATE];
};

_Static_assert(sizeof(struct sb_tcp) <= sizeof(((struct sb_flow *)0)->tx),
	       "TCP state must fit in the flow's tx area");

static inline struct sb_tcp *sb_tcp_of(struct sb_flow *f) { return (struct sb_tcp *)(void *)f->tx; }

extern const struct sb_tcp_cc_ops sb_cc_newreno, sb_cc_cubic, sb_cc_dctcp;

/* Initialise the sender state with control `cc` without sending (unit tests drive a control
 * through this). */
void sb_tcp_init(struct sb_sim *sim, struct sb_flow *f, const struct sb_tcp_cc_ops *cc);
/* sb_tcp_init + send the initial window. */
void sb_tcp_start(struct sb_sim *sim, struct sb_flow *f, const struct sb_tcp_cc_ops *cc);
void sb_tcp_on_data(struct sb_sim *sim, struct sb_flow *f, struct sb_packet *pkt);
void sb_tcp_on_ack(struct sb_sim *sim, struct sb_flow *f, struct sb_packet *pkt);
void sb_tcp_on_timer(struct sb_sim *sim, struct sb_flow *f);

/* Growth helpers shared by the controls. Slow start (RFC 5681 with RFC 3465's L = 2 MSS):
 * grows cwnd up to ssthresh and returns the acked bytes left over for congestion avoidance. */
uint64_t sb_tcp_slow_start(struct sb_tcp *tcp, uint64_t acked);
/* Reno congestion avoidance by byte counting: one MSS per cwnd of acknowledged bytes. */
void sb_tcp_reno_ca(struct sb_tcp *tcp, uint64_t acked);
/* RFC 5681 (4): max(FlightSize / 2, 2 MSS). */
uint64_t sb_tcp_half_flight(const struct sb_tcp *tcp);

/* Bytes of a flow tagged "first RTT": sc->tcp.first_rtt_bytes, or one BDP of its path. */
uint64_t sb_first_rtt_budget(const struct sb_sim *sim, const struct sb_flow *f);

#endif
