/*
 * tcp_engine.h — what the files of the TCP engine share; congestion controls use tcp.h only.
 *
 *   tcp.c          start, handshake, sending, RTT and RTO, timers, NewReno (no SACK), dispatch
 *   tcp_board.c    the SACK scoreboard: runs of bytes with a state and a send time
 *   tcp_sack.c     SACK-mode ACK processing: RFC 6675 recovery, NextSeg, PRR, RTO recovery
 *   tcp_rack.c     RACK loss detection and the Tail Loss Probe (RFC 8985)
 *   tcp_hystart.c  HyStart++ (RFC 9406) and ns-3's classic HyStart
 *   tcp_rx.c       the receiver: reassembly, ACKs, SACK report, delayed ACKs, SYN answers
 */
#ifndef SB_TCP_ENGINE_H
#define SB_TCP_ENGINE_H

#include "transport/flows.h"
#include "transport/tcp.h"

struct sb_packet;

/* RFC 6298 (2.5): an upper bound of at least 60 s. */
#define TCP_MAX_RTO (60 * SB_SEC)

/* States of a scoreboard run, for its unSACKed segments (a SACKed one is delivered whatever its
 * run says). "In flight" for pipe (RFC 6675 SetPipe) is 1 for OUT and RETX, 2 for OUT_RETX
 * (the original may still arrive too), 0 for LOST. */
enum tcp_run_state {
	RUN_OUT,      /* sent once, not known lost */
	RUN_OUT_RETX, /* retransmitted before being marked lost (RFC 6675 rule 3/4, TLP probe) */
	RUN_RETX,     /* marked lost, then retransmitted */
	RUN_LOST,     /* marked lost, waiting for its retransmission */
};

enum sb_tcp_hystart_mode { SB_HYSTART_OFF, SB_HYSTART_PP, SB_HYSTART_CLASSIC, SB_HYSTART_LINUX };

static inline uint64_t tcp_limit(const struct sb_flow *f) { return f->size ? f->size : UINT64_MAX; }

/* Length of the segment starting at seq (segments start at multiples of the MSS). */
static inline uint32_t tcp_seg_len(const struct sb_flow *f, const struct sb_tcp *tcp, uint64_t seq)
{
	uint64_t left = tcp_limit(f) - seq;
	return left < tcp->mss ? (uint32_t)left : tcp->mss;
}

/* The lane of pure ACKs and the handshake's packets (tcp.ack_path): the control queue, outside
 * every buffer (the ns-3 artifacts' queue 0), or the flow's data queue, charged and dropped. */
static inline uint8_t tcp_control_lane(const struct sb_flows *fl)
{
	return fl->tcp->ack_path == SB_ACK_PATH_DATA ? SB_LANE_DATA : SB_LANE_CONTROL;
}

/* --- small steps of every ACK, inline because they run on every ACK --- */

/* cwnd within [1 MSS, tcp.max_cwnd_bytes]. */
static inline void tcp_cap(struct sb_tcp *tcp)
{
	if (tcp->cwnd < tcp->mss)
		tcp->cwnd = tcp->mss;
	if (tcp->max_cwnd && tcp->cwnd > tcp->max_cwnd)
		tcp->cwnd = tcp->max_cwnd;
}

/* RFC 6298 (2.2), (2.3) with α = 1/8, β = 1/4 as shifts; G = tcp.clock_granularity_ns. */
static inline void tcp_rtt_sample(struct sb_tcp *tcp, sb_time r)
{
	if (!tcp->srtt) {
		tcp->srtt = r ? r : 1;
		tcp->rttvar = r / 2;
	} else {
		sb_time err = tcp->srtt > r ? tcp->srtt - r : r - tcp->srtt;
		tcp->rttvar = (3 * tcp->rttvar + err) >> 2;
		tcp->srtt = (7 * tcp->srtt + r) >> 3;
	}
	sb_time var = 4 * tcp->rttvar;
	sb_time rto = tcp->srtt + (var > tcp->granularity ? var : tcp->granularity);
	if (rto < tcp->min_rto)
		rto = tcp->min_rto;
	tcp->rto = rto < TCP_MAX_RTO ? rto : TCP_MAX_RTO;
}

/* RFC 8985 §6.2 step 2: RACK_sent_after(t1, seq1, t2, seq2). */
static inline bool tcp_rack_sent_after(sb_time t1, uint64_t end1, sb_time t2, uint64_t end2)
{
	return t1 > t2 || (t1 == t2 && end1 > end2);
}

/* RACK.min_RTT: every delivery's RTT sample; with tcp.rack_retx_min_rtt, as Linux's
 * tcp_update_rtt_min, only those of segments never retransmitted (Karn). */
static inline void tcp_min_rtt_sample(struct sb_tcp *tcp, sb_time sample, bool retx)
{
	if (retx && tcp->rack.retx_min_rtt)
		return;
	if (!tcp->min_rtt || sample < tcp->min_rtt)
		tcp->min_rtt = sample;
}

/* RFC 8985 §6.2 steps 2-3: the ACK delivered data; the segment that triggered it was sent at
 * xmit (the echo), is a retransmission or not, and ends at end. */
static inline void tcp_rack_delivered(struct sb_tcp *tcp, sb_time xmit, uint64_t end, bool retx, sb_time now)
{
	struct sb_tcp_rack *r = &tcp->rack;
	/* an original delivered below the highest delivered byte arrived out of order */
	if (!retx && end < r->fack)
		r->reordering_seen = true;
	if (end > r->fack)
		r->fack = end;
	/* RFC 8985 §6.2 step 2, second test: a retransmission delivered sooner than min RTT may
	 * be the original arriving late, so it says nothing about what was sent before it */
	if (retx && r->retx_min_rtt && now - xmit < tcp->min_rtt)
		return;
	if (tcp_rack_sent_after(xmit, end, r->xmit, r->end)) {
		r->xmit = xmit;
		r->end = end;
		r->rtt = now - xmit;
	}
}

/* --- tcp.c --- */
/* Put one segment [seq, seq + len) on the wire; counts it, tags RETX when seq < snd_max. */
uint32_t tcp_send_segment(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t seq);
/* Send the next new segment at snd_nxt (recording it on the scoreboard in SACK mode). */
void tcp_send_new(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp);
/* RFC 6298 (5.5): the timer expired, double the RTO (at most TCP_MAX_RTO, (2.5)). One helper
 * for the data's and the SYN's timers, so that one rule has one line. */
static inline void tcp_rto_backoff(struct sb_tcp *tcp)
{
	tcp->rto = tcp->rto * 2 < TCP_MAX_RTO ? tcp->rto * 2 : TCP_MAX_RTO;
}
/* RFC 6298 (5.2)/(5.3): restart the RTO, or stop it when nothing is outstanding. */
static inline void tcp_restart_rto(sb_time now, struct sb_tcp *tcp)
{
	tcp->rto_at = tcp->snd_una >= tcp->snd_max ? SB_TIME_NEVER : now + tcp->rto;
}
/* Arm the flow's one timer at the earliest of the sender's and the receiver's deadlines. */
static inline void tcp_timers(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	sb_time at = tcp->rto_at;
	if (tcp->tlp_at < at)
		at = tcp->tlp_at;
	if (tcp->reo_at < at)
		at = tcp->reo_at;
	if (tcp->rx.unacked && tcp->rx.delack_at < at)
		at = tcp->rx.delack_at;
	if (f->timer_at != at)
		sb_flow_arm_timer(fl, f, at);
}
/* RFC 3168 6.1.2: halve at most once per window of data on an ECN echo. */
void tcp_ecn_halve(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp);
/* A congestion response (loss detected by ACKs, or repaired by a probe): ssthresh from the
 * control; the caller sets cwnd. */
void tcp_congestion_event(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp);

/* --- tcp_board.c: the scoreboard, [snd_una, snd_max) as SACK bits and send runs ---
 * Invariants: runs are in sequence order and cover [snd_una, snd_max) exactly; run
 * boundaries are segment boundaries; after tidy(), neighbouring runs differ (state, or send
 * time for the states where it matters); board.sacked is the SACKed bytes, board.lost and
 * board.extra the unSACKed bytes of LOST and OUT_RETX runs; sacked = 0 iff no bit is set. */
void tcp_board_reset(struct sb_tcp *tcp);
void tcp_board_sent_slow(struct sb_tcp *tcp, uint64_t seq, sb_time now);
void tcp_board_acked_slow(struct sb_tcp *tcp, uint64_t una);
/* The receiver holds the segment [seq, end), whose send time the ACK echoes (`echo`,
 * `echo_retx`). Returns the bytes newly SACKed (0 beyond SB_TCP_SACK_SEGS, see tcp_board.c). */
uint64_t tcp_board_sack(struct sb_tcp *tcp, uint64_t seq, uint64_t end, sb_time echo, bool echo_retx,
			sb_time now);
/* [seq, end) was retransmitted at `now`: LOST becomes RETX, OUT becomes OUT_RETX. */
void tcp_board_retransmitted(struct sb_tcp *tcp, uint64_t seq, uint64_t end, sb_time now);
/* RFC 6675 IsLost for every unSACKed run: more than (DupThresh − 1) MSS or DupThresh
 * discontiguous blocks SACKed above it. Returns the bytes newly marked lost. */
uint64_t tcp_board_mark_dupthresh(struct sb_tcp *tcp);
/* After a timeout (RFC 6675 §5.1): every unSACKed byte is lost. */
void tcp_board_mark_all_lost(struct sb_tcp *tcp);
/* Run i (0 = lowest) is lost; returns its unSACKed bytes newly lost. Neighbours are merged by
 * tcp_board_tidy(). */
uint64_t tcp_board_set_lost(struct sb_tcp *tcp, unsigned i);
void tcp_board_tidy(struct sb_tcp *tcp);
/* A run boundary at seq (a segment boundary), room permitting. */
void tcp_board_cut(struct sb_tcp *tcp, uint64_t seq);
/* Highest SACKed byte + 1, 0 when nothing is SACKed. */
uint64_t tcp_board_high_sacked(const struct sb_tcp *tcp);
/* The lowest unSACKed segment of a run in `state` that starts below `below`, or UINT64_MAX. */
uint64_t tcp_board_first_unsacked(const struct sb_tcp *tcp, uint8_t state, uint64_t below);
/* The highest unSACKed segment, or UINT64_MAX. */
uint64_t tcp_board_last_unsacked(const struct sb_tcp *tcp);

static inline unsigned tcp_board_ix(const struct sb_tcp_board *b, unsigned i)
{
	return (b->head + i) & (SB_TCP_RUNS - 1);
}
static inline uint64_t tcp_board_start(const struct sb_tcp *tcp, unsigned i)
{
	return tcp->board.run[tcp_board_ix(&tcp->board, i)].start;
}
static inline uint64_t tcp_board_end(const struct sb_tcp *tcp, unsigned i)
{
	return i + 1u < tcp->board.n ? tcp_board_start(tcp, i + 1) : tcp->snd_max;
}
static inline uint8_t tcp_board_state(const struct sb_tcp *tcp, unsigned i)
{
	return tcp->board.state[tcp_board_ix(&tcp->board, i)];
}
static inline sb_time tcp_board_xmit(const struct sb_tcp *tcp, unsigned i)
{
	return tcp->board.run[tcp_board_ix(&tcp->board, i)].xmit;
}
/* New data from seq (= snd_max) left at `now`; call before snd_max moves. Inline, with
 * tcp_board_acked, because every segment passes here: the same burst extends the last run,
 * a full ring gives it the later time (tcp_board.c explains why that is safe). */
static inline void tcp_board_sent(struct sb_tcp *tcp, uint64_t seq, sb_time now)
{
	struct sb_tcp_board *b = &tcp->board;
	if (b->n) {
		unsigned last = tcp_board_ix(b, b->n - 1u);
		if (b->state[last] == RUN_OUT && (b->run[last].xmit == now || b->n == SB_TCP_RUNS)) {
			b->run[last].xmit = now;
			return;
		}
	}
	tcp_board_sent_slow(tcp, seq, now);
}

/* The cumulative ACK moved to una (> snd_una); call before snd_una moves. The common case:
 * whole runs in flight (no counter to update) leave the head. */
static inline void tcp_board_acked(struct sb_tcp *tcp, uint64_t una)
{
	struct sb_tcp_board *b = &tcp->board;
	if (b->sacked) {
		tcp_board_acked_slow(tcp, una); /* SACK bits to drop too */
		return;
	}
	while (b->n > 1 && b->state[b->head] == RUN_OUT && tcp_board_start(tcp, 1) <= una) {
		b->head = (uint8_t)tcp_board_ix(b, 1);
		b->n--;
	}
	if (b->n && b->state[b->head] == RUN_OUT) {
		if (b->n > 1 || una < tcp->snd_max) {
			b->run[b->head].start = una; /* una is below the next run's start */
		} else {
			b->n = 0; /* everything acknowledged */
			b->head = 0;
		}
		return;
	}
	tcp_board_acked_slow(tcp, una);
}

/* RFC 6675 SetPipe: bytes in flight. */
static inline uint64_t tcp_pipe(const struct sb_tcp *tcp)
{
	return tcp->snd_max - tcp->snd_una - tcp->board.sacked - tcp->board.lost + tcp->board.extra;
}

/* --- tcp_sack.c --- */
void tcp_sack_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, struct sb_packet *pkt);
void tcp_sack_on_rto(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp);
/* Mark losses (RACK or DupThresh) and start fast recovery if any; then transmit. */
void tcp_sack_detect_and_send(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp);
/* Send what NextSeg allows while pipe < cwnd (RFC 6675 §5 step C). */
void tcp_sack_transmit(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp);

/* --- tcp_rack.c --- */
/* RACK_detect_loss: mark lost runs, arm or stop the reordering timer; bytes newly lost. */
uint64_t tcp_rack_detect(struct sb_tcp *tcp, sb_time now);

/* (Re)arm or stop the probe timer per RFC 8985 §7.2 (inline: it runs on every ACK). */
static inline void tcp_tlp_arm(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	const struct sb_tcp_params *p = fl->tcp;
	(void)f;
	/* not in recovery, not with SACKed data (RACK's timer covers that), one probe per
	 * episode, and only with data in flight */
	if (!p->tlp || !p->sack || tcp->in_recovery || tcp->board.sacked || tcp->tlp_end ||
	    tcp->snd_una >= tcp->snd_max || tcp->syn_sent) {
		tcp->tlp_at = SB_TIME_NEVER;
		return;
	}
	sb_time pto;
	if (tcp->srtt) {
		pto = 2 * tcp->srtt;
		/* WCDelAckT: a lone segment may wait for the receiver's delayed-ACK timer */
		if (tcp->snd_max - tcp->snd_una <= tcp->mss) {
			if (p->delack_count > 1)
				pto += sb_time_from_us(p->delack_timeout_us);
		} else {
			pto += sb_time_from_us(p->tlp_extra_us);
		}
	} else {
		pto = SB_SEC; /* no RTT sample yet: 1 s, then capped by the RTO below */
	}
	sb_time at = sb_now(&fl->net->engine) + pto;
	tcp->tlp_at = at < tcp->rto_at ? at : tcp->rto_at;
}
/* The probe timer fired: send a probe (RFC 8985 §7.3), re-arm the RTO. */
void tcp_tlp_fire(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp);
/* RFC 8985 §7.4: was a probe's loss repaired, or was it spurious? */
void tcp_tlp_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t ack, bool advanced,
		    bool sacked);

/* --- tcp_hystart.c --- */
void tcp_hystart_init(struct sb_flows *fl, struct sb_tcp *tcp);
/* An ACK of new data in slow start with an RTT sample. */
void tcp_hystart_on_ack(struct sb_tcp *tcp, uint64_t ack, sb_time rtt, sb_time now);
/* A retransmission timeout ends HyStart++ and restarts classic HyStart (as ns-3 does). */
void tcp_hystart_on_timeout(struct sb_tcp *tcp);
/* Divisor of slow-start growth: 4 in HyStart++'s conservative slow start, else 1. */
unsigned tcp_hystart_divisor(const struct sb_tcp *tcp);

/* --- tcp_rx.c --- */
/* The delayed-ACK deadline passed: acknowledge what is pending. */
void tcp_rx_on_timer(struct sb_flows *fl, struct sb_flow *f);
/* A handshake packet arrived at the receiver: answer a SYN with a SYN-ACK. */
void tcp_rx_on_syn(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt);

#endif
