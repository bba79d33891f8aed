/*
 * tcp.h — one TCP engine with pluggable congestion control.
 *
 * The engine does everything that is the same for every window-based TCP: byte sequence
 * numbers, segmentation, the receiver (cumulative ACK, out-of-order segments, SACK report,
 * delayed ACKs, ECN echo), the optional SYN handshake, loss detection and recovery, the
 * retransmission timer (RFC 6298) and the ECN reaction of RFC 3168 for controls that have no
 * ECN hook. A congestion control (struct sb_tcp_cc_ops) only decides how cwnd grows on new
 * ACKs, what ssthresh becomes on a congestion event and, optionally, how it reacts to ECN
 * echoes. Each control is one file (cc_newreno.c, cc_cubic.c, cc_dctcp.c) that exports a
 * struct sb_transport_ops whose start() is a one-liner calling sb_tcp_start() with its
 * control; the other entry points are the engine's.
 *
 * Loss recovery has two modes, chosen by tcp.sack:
 *   - SACK (default): the receiver reports the segment that triggered each ACK (RFC 2018);
 *     the sender keeps a scoreboard (tcp_board.c: SACK bits and send runs), detects losses
 *     with RACK (RFC 8985, tcp_rack.c) or, without RACK, RFC 6675's DupThresh rule,
 *     retransmits only the holes (RFC 6675 NextSeg) with PRR (RFC 6937) or RFC 6675's pipe
 *     rule setting the pace, probes tail losses with TLP, and after a timeout retransmits the
 *     holes only.
 *   - no SACK: NewReno (RFC 6582) fast recovery, one hole per RTT, go-back-N after a timeout.
 * Slow start can end early with HyStart++ (RFC 9406) or ns-3's classic HyStart
 * (tcp_hystart.c). The receiver side is tcp_rx.c.
 *
 * All window quantities are bytes. All state, both ends, lives in the flow's inline `tx`
 * area: nothing is allocated per flow or per packet.
 */
#ifndef SB_TCP_H
#define SB_TCP_H

#include <stdbool.h>
#include <stdint.h>
#include "core/time.h"
#include "transport/flow.h"

struct sb_flows;
struct sb_packet;
struct sb_tcp;

/* Bytes of control-private state inside struct sb_tcp (CUBIC needs 48). */
#define SB_TCP_CC_STATE 48

/* RFC 5681 / RFC 6675 DupThresh: three duplicate ACKs, or that many segments SACKed above. */
#define SB_TCP_DUPTHRESH 3

/* The scoreboard (tcp_board.c): runs of send state, and the SACKed segments. */
#define SB_TCP_RUNS 32
#define SB_TCP_SACK_SEGS 8192 /* segments above snd_una that can be marked SACKed */

struct sb_tcp_cc_ops {
	const char *name;
	/* Once at start, after the engine initialised cwnd/ssthresh. May set f->ecn. Optional. */
	void (*init)(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp);
	/* `acked` new bytes were cumulatively acknowledged outside fast recovery: grow cwnd
	 * (the engine applies the max_cwnd cap afterwards). */
	void (*on_ack)(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t acked);
	/* A congestion event: a loss detected by ACKs (timeout = false) or a retransmission
	 * timeout, or an ECN echo for controls without on_ecn. Returns the new ssthresh in bytes;
	 * the engine then sets cwnd (per its recovery mode, 1 MSS after a timeout). */
	uint64_t (*ssthresh)(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, bool timeout);
	/* Every ACK that delivers new data (also during recovery, where on_ack is not called):
	 * `acked` bytes newly delivered (cumulatively or by SACK), `ece` its ECN echo. Called
	 * before on_ack. When NULL, an ECE makes the engine halve as RFC 3168 (at most once per
	 * window, through ssthresh()). */
	void (*on_ecn)(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t acked,
		       bool ece);
};

/* One run of the scoreboard: bytes [start, next run's start) share a send state and time. */
struct sb_tcp_run {
	uint64_t start;
	sb_time xmit;  /* when these bytes were last sent (never earlier than the truth) */
};

/* The sender's view of [snd_una, snd_max), SACK mode only (tcp_board.c). What the receiver
 * holds is one bit per segment; how each byte was last sent is a run. A segment's state is
 * SACKed if its bit is set, else its run's. */
struct sb_tcp_board {
	uint64_t sacked;  /* bytes SACKed */
	uint64_t lost;    /* unSACKed bytes marked lost and not retransmitted since */
	uint64_t extra;   /* unSACKed bytes retransmitted while not marked lost (both copies may fly) */
	uint32_t base;    /* ring position in `sack` of the segment at snd_una (any when sacked = 0) */
	uint8_t head, n;  /* ring of n runs from run[head], in sequence order */
	uint8_t state[SB_TCP_RUNS];
	struct sb_tcp_run run[SB_TCP_RUNS];
	uint64_t sack[SB_TCP_SACK_SEGS / 64];
};

/* RACK (RFC 8985 §6): the most recently sent segment known to be delivered. */
struct sb_tcp_rack {
	sb_time xmit;          /* RACK.xmit_ts, 0 = nothing delivered yet */
	uint64_t end;          /* RACK.end_seq */
	sb_time rtt;           /* RACK.rtt */
	uint64_t fack;         /* RACK.fack: highest delivered byte + 1 */
	bool reordering_seen;  /* RACK.reordering_seen */
	bool retx_min_rtt;     /* tcp.rack_retx_min_rtt */
};

/* HyStart++ (RFC 9406) and classic HyStart (ns-3's TcpCubic) state, tcp_hystart.c. */
struct sb_tcp_hystart {
	uint8_t samples;       /* RTT samples this round */
	uint8_t css_rounds;    /* rounds begun in CSS */
	bool found;            /* classic: slow start ended */
	uint64_t window_end;   /* the round ends when an ACK passes this */
	sb_time last_round_min, cur_round_min, css_baseline; /* HyStart++ */
	sb_time min_thresh, max_thresh;                      /* HyStart++ RttThresh bounds */
	sb_time round_start, last_ack, delay_min;            /* classic */
};

/* Receiver: delayed ACKs (RFC 5681 §4.2, RFC 1122) and RFC 8257 §3.2's CE state. */
struct sb_tcp_rx {
	sb_time delack_at;     /* when the pending ACK must go, valid while unacked > 0 */
	sb_time echo_t_sent;   /* timestamp to echo: the first unacknowledged segment's (RFC 7323) */
	uint16_t unacked;      /* segments received and not yet acknowledged */
	uint16_t quick_left;   /* segments still acknowledged at once (tcp.quickack_segs) */
	bool ce;               /* CE of the last segment (DCTCP.CE) */
	bool echo_retx;        /* the echoed segment was a retransmission */
	bool syn_seen;         /* a SYN arrived (handshake) */
	/* SACK compression (tcp.sack_compress_nr): the withheld ACKs' segments, as segment numbers
	 * (seq / mss, modulo 2^32) */
	uint8_t dupacks;       /* ACKs sent at once for out-of-order data above the hole at comp_at */
	uint16_t comp_n;       /* out-of-order segments whose ACK is withheld (up to 255 + 1) */
	uint32_t comp_at;      /* the hole (rcv_nxt's segment number) dupacks counts for */
	uint32_t comp_lo, comp_hi; /* lowest and highest withheld segment */
};

/* Per-flow counters for tests and diagnostics; the run's totals are fl->stats.tcp. */
struct sb_tcp_stats {
	uint32_t recoveries;   /* fast recovery episodes entered */
	uint32_t tlp_probes;   /* loss probes sent */
	uint32_t tlp_repaired; /* probes that repaired a loss (congestion response taken) */
	uint32_t syn_retries;  /* SYN retransmissions */
	uint32_t hystart_exits;/* slow start ended by HyStart (into CSS or congestion avoidance) */
	uint32_t lost_retransmits; /* segments of retransmissions RACK marked lost */
};

/* Laid out by use from the flow's line-aligned tx area (transport/flow.h). An ACK of new data
 * in the open state, the sender's commonest event, reads lines 0 to 4 (sequence, flags and
 * RTT; timers; growth and RTT minimum; RACK; the congestion control's state) and the
 * scoreboard's line 0 (its counters, ring and run states); what is read only on loss, timeout
 * or at the receiver comes after. In a large network each line a packet touches is a likely
 * cache miss (BENCHMARKS.md, "Cache misses per packet-hop"): a field read per ACK belongs in
 * those lines. */
struct sb_tcp {
	/* line 0 */
	const struct sb_tcp_cc_ops *cc;
	/* sender sequence space: [snd_una, snd_nxt) in flight, snd_max = highest byte sent + 1;
	 * in SACK mode snd_nxt = snd_max always (retransmissions do not move it) */
	uint64_t snd_una, snd_nxt, snd_max;
	uint64_t cwnd, ssthresh;
	sb_time srtt;          /* 0 = no sample yet */
	uint16_t dupacks;
	uint8_t backoff;       /* timeouts in a row without progress (RFC 5681: ssthresh is held) */
	bool in_recovery;      /* fast recovery, or (SACK mode) recovery after a timeout */
	bool in_loss;          /* SACK mode: recovery after a timeout (Linux's CA_Loss) */
	bool partial_seen;     /* NewReno: a partial ACK already restarted the timer */
	bool syn_sent;         /* handshake: SYN sent, SYN-ACK not yet received */
	bool tlp_retrans;      /* the outstanding probe retransmitted old data */
	/* line 1 */
	sb_time rttvar;
	sb_time rto, min_rto, granularity;
	sb_time rto_at;        /* retransmission (or SYN) deadline, SB_TIME_NEVER = not running */
	uint64_t tlp_end;      /* TLP.end_seq: snd_nxt after the probe, 0 = no probe outstanding */
	uint64_t limit;        /* the flow's size, UINT64_MAX when unbounded */
	uint32_t mss, header;
	/* line 2 */
	uint32_t ss_limit;     /* slow start's growth per ACK at most (RFC 3465 L), 0 = none */
	/* HyStart's variant and phase (tcp_hystart.c), here and not in `hs`: every ACK in slow
	 * start reads them with ss_limit, and with HyStart off that is all it reads of HyStart */
	uint8_t hystart_mode;  /* enum sb_tcp_hystart_mode */
	uint8_t hystart_phase; /* HyStart++: slow start, CSS or done */
	uint64_t recover;      /* RecoveryPoint: snd_max when the last congestion event started */
	uint64_t ca_bytes;     /* bytes acked since the last additive increase (RFC 3465) */
	uint64_t cwr_end;      /* no new ECN reduction before snd_una passes this */
	uint64_t first_rtt_end;/* bytes below this are tagged SB_PF_FIRST_RTT */
	uint64_t max_cwnd;     /* 0 = no cap */
	sb_time min_rtt;       /* smallest RTT sample, 0 = none (RACK.min_RTT) */
	sb_time tlp_at;        /* loss probe deadline (RFC 8985 PTO) */
	/* line 3 */
	struct sb_tcp_rack rack;
	sb_time reo_at;        /* RACK reordering-window deadline */
	uint64_t rescue_rxt;   /* RFC 6675 RescueRxt, 0 = none this recovery */
	uint64_t prr_delivered; /* PRR (RFC 6937), with the next two */
	/* line 4: the congestion control's own state */
	_Alignas(64) unsigned char cc_state[SB_TCP_CC_STATE];
	uint64_t prr_out, recover_fs;
	/* line 5: the receiver's */
	struct sb_tcp_rx rx;
	struct sb_tcp_stats stats;
	struct sb_tcp_hystart hs; /* lines 6 and 7, read per ACK in slow start with HyStart on */
	_Alignas(64) struct sb_tcp_board board;
};

_Static_assert(sizeof(struct sb_tcp) <= sizeof(((struct sb_flow *)0)->tx),
	       "TCP state must fit in the flow's tx area");
_Static_assert(offsetof(struct sb_tcp, tlp_retrans) < 64 && offsetof(struct sb_tcp, header) < 128 &&
		       offsetof(struct sb_tcp, tlp_at) < 192 && offsetof(struct sb_tcp, prr_delivered) < 256 &&
		       offsetof(struct sb_tcp, recover_fs) < 320 && offsetof(struct sb_tcp, rx) == 320 &&
		       offsetof(struct sb_tcp, board.state) + SB_TCP_RUNS <= offsetof(struct sb_tcp, board) + 64,
	       "TCP: what an ACK reads sits in lines 0 to 4 and the scoreboard's line 0");

static inline struct sb_tcp *sb_tcp_of(struct sb_flow *f) { return (struct sb_tcp *)(void *)f->tx; }

extern const struct sb_tcp_cc_ops sb_cc_newreno, sb_cc_cubic, sb_cc_dctcp;
/* DCTCP's α of a dctcp flow (tests, diagnostics). */
double sb_dctcp_alpha(struct sb_tcp *tcp);

/* Initialise the sender state with control `cc` without sending (unit tests drive a control
 * through this). */
void sb_tcp_init(struct sb_flows *fl, struct sb_flow *f, const struct sb_tcp_cc_ops *cc);
/* sb_tcp_init + send the SYN (tcp.handshake) or the initial window. */
void sb_tcp_start(struct sb_flows *fl, struct sb_flow *f, const struct sb_tcp_cc_ops *cc);
void sb_tcp_on_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt);
/* ACKs at the sender, and the handshake's packets (SB_PKT_SYN) at either end. */
void sb_tcp_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt);
void sb_tcp_on_timer(struct sb_flows *fl, struct sb_flow *f);
/* Time the handshake adds before the first data byte leaves (0 without tcp.handshake): the
 * ideal FCT includes it (sb_transport_ideal_fct). */
sb_time sb_tcp_setup_time(const struct sb_flows *fl, uint32_t src, uint32_t dst);

/* Growth helpers shared by the controls. Slow start (RFC 5681 with RFC 3465's L = 2 MSS;
 * a quarter of that in HyStart++'s conservative slow start): grows cwnd up to ssthresh and
 * returns the acked bytes left over for congestion avoidance. */
uint64_t sb_tcp_slow_start(struct sb_tcp *tcp, uint64_t acked);
/* Reno congestion avoidance by byte counting: one MSS per cwnd of acknowledged bytes. */
void sb_tcp_reno_ca(struct sb_tcp *tcp, uint64_t acked);
/* RFC 5681 (4): max(FlightSize / 2, 2 MSS). */
uint64_t sb_tcp_half_flight(const struct sb_tcp *tcp);

/* Bytes of a flow tagged "first RTT": sc->tcp.first_rtt_bytes, or one BDP of its path. */
uint64_t sb_first_rtt_budget(const struct sb_flows *fl, const struct sb_flow *f);

#endif
