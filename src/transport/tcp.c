/*
 * tcp.c — the TCP engine's core: start and handshake, sending, RTT and RTO, the flow timer,
 * NewReno recovery (tcp.sack = false) and the dispatch of ACKs (see tcp.h, tcp_engine.h).
 *
 * Segments always start at multiples of the MSS (retransmissions start at snd_una, at a hole
 * or at a run of the scoreboard, all segment boundaries), so the engine never splits or
 * merges segments and the per-packet path never divides.
 *
 * Timers. A flow has one timer event (sb_flow_arm_timer); the engine keeps four deadlines and
 * arms it at the earliest: the RTO (or the SYN's retransmission), the loss probe, RACK's
 * reordering window and the receiver's delayed ACK. Moving a deadline later costs nothing
 * until the stale event fires (flows.c re-arms it then).
 *
 * Deliberate simplifications, all in docs/transports.md: no FIN exchange (the last byte's ACK
 * ends the flow), an unlimited receive window, no DSACK, F-RTO or undo of spurious
 * retransmissions.
 */
#include "transport/tcp.h"

#include <string.h>
#include "engine/packet.h"
#include "transport/flows.h"
#include "transport/tcp_engine.h"

uint64_t sb_first_rtt_budget(const struct sb_flows *fl, const struct sb_flow *f)
{
	const struct sb_tcp_params *p = fl->tcp;
	if (p->first_rtt_bytes > 0)
		return (uint64_t)p->first_rtt_bytes;
	sb_time rtt = sb_base_rtt(fl, f->src, f->dst, (uint32_t)(p->mss + p->header_bytes));
	uint64_t bps = sb_bottleneck_bps(fl->net, f->src, f->dst);
	return (uint64_t)((unsigned __int128)rtt * bps / (8u * (unsigned __int128)SB_SEC));
}

/* --- growth helpers --- */

uint64_t sb_tcp_slow_start(struct sb_tcp *tcp, uint64_t acked)
{
	if (tcp->cwnd >= tcp->ssthresh)
		return acked;
	uint64_t inc = tcp->ss_limit && acked > tcp->ss_limit ? tcp->ss_limit : acked;
	inc /= tcp_hystart_divisor(tcp); /* RFC 9406 CSS: a quarter of the growth */
	uint64_t room = tcp->ssthresh - tcp->cwnd;
	if (inc >= room) {
		tcp->cwnd = tcp->ssthresh;
		return acked - room; /* the rest counts towards congestion avoidance */
	}
	tcp->cwnd += inc;
	return 0;
}

void sb_tcp_reno_ca(struct sb_tcp *tcp, uint64_t acked)
{
	tcp->ca_bytes += acked;
	while (tcp->ca_bytes >= tcp->cwnd) {
		tcp->ca_bytes -= tcp->cwnd;
		tcp->cwnd += tcp->mss;
	}
}

uint64_t sb_tcp_half_flight(const struct sb_tcp *tcp)
{
	uint64_t half = (tcp->snd_max - tcp->snd_una) / 2;
	return half > 2u * tcp->mss ? half : 2u * tcp->mss;
}

/* --- timers --- */

/* --- sender --- */

uint32_t tcp_send_segment(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t seq)
{
	uint32_t len = tcp_seg_len(f, tcp, seq);
	struct sb_packet *p = sb_flow_data_packet(fl, f, seq, len, tcp->header, tcp->first_rtt_end);
	if (seq < tcp->snd_max) {
		p->flags |= SB_PF_RETX;
		f->pkts_retx++;
		fl->stats.tcp.retransmitted_segments++;
	}
	f->pkts_sent++;
	if (seq + len > tcp->snd_max)
		tcp->snd_max = seq + len;
	sb_host_send(fl->net, p);
	return len;
}

void tcp_send_new(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	uint64_t seq = tcp->snd_nxt;
	uint32_t len = tcp_seg_len(f, tcp, seq);
	if (fl->tcp->sack && seq == tcp->snd_max)
		tcp_board_sent(tcp, seq, sb_now(&fl->net->engine));
	tcp_send_segment(fl, f, tcp, seq);
	tcp->snd_nxt = seq + len;
}

/* NewReno: send new (or, after a timeout, go-back-N) segments while the window has room. A
 * segment goes out whenever any window is left, so the effective window is cwnd rounded up
 * to whole segments, as with Linux's packet-counted cwnd. */
static void newreno_send_available(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	uint64_t limit = tcp_limit(f);
	uint64_t wnd_end = tcp->snd_una + tcp->cwnd;
	bool sent = false;
	while (tcp->snd_nxt < limit && tcp->snd_nxt < wnd_end) {
		tcp_send_new(fl, f, tcp);
		sent = true;
	}
	/* RFC 6298 (5.1): start the timer when sending with none running. */
	if (sent && tcp->rto_at == SB_TIME_NEVER)
		tcp->rto_at = sb_now(&fl->net->engine) + tcp->rto;
}

static void send_available(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	if (fl->tcp->sack)
		tcp_sack_transmit(fl, f, tcp);
	else
		newreno_send_available(fl, f, tcp);
}

void sb_tcp_init(struct sb_flows *fl, struct sb_flow *f, const struct sb_tcp_cc_ops *cc)
{
	const struct sb_tcp_params *p = fl->tcp;
	struct sb_tcp *tcp = sb_tcp_of(f);
	memset(tcp, 0, sizeof *tcp);
	tcp->cc = cc;
	tcp->mss = (uint32_t)p->mss;
	tcp->header = (uint32_t)p->header_bytes;
	tcp->max_cwnd = p->max_cwnd_bytes > 0 ? (uint64_t)p->max_cwnd_bytes : 0;
	tcp->cwnd = f->init_window ? f->init_window : (uint64_t)p->init_cwnd_pkts * tcp->mss;
	tcp->ssthresh = UINT64_MAX;
	tcp->limit = tcp_limit(f);
	tcp_cap(tcp);
	tcp->min_rto = sb_time_from_us(p->min_rto_us);
	tcp->granularity = (sb_time)(p->clock_granularity_ns * 1e3 + 0.5);
	tcp->rto = sb_time_from_us(p->init_rto_us);
	if (tcp->rto < tcp->min_rto) /* RFC 6298 (2.4), before a sample too */
		tcp->rto = tcp->min_rto;
	tcp->rto_at = tcp->tlp_at = tcp->reo_at = SB_TIME_NEVER;
	tcp->rack.retx_min_rtt = p->rack_retx_min_rtt;
	tcp->rx.quick_left = (uint16_t)p->quickack_segs;
	tcp->ss_limit = (uint32_t)p->abc_limit_segs * tcp->mss;
	tcp_board_reset(tcp);
	tcp_hystart_init(fl, tcp);
	if (cc->init)
		cc->init(fl, f, tcp);
}

/* A handshake packet from the sender to the receiver (the SYN, or the handshake's ACK). */
static void send_syn(struct sb_flows *fl, struct sb_flow *f, uint64_t step, bool retx)
{
	struct sb_packet *p = sb_flow_control_packet(fl, f, SB_PKT_SYN, step, (uint32_t)fl->tcp->ack_bytes,
						     tcp_control_lane(fl), false);
	p->t_sent = sb_now(&fl->net->engine);
	if (retx)
		p->flags |= SB_PF_RETX;
	sb_host_send(fl->net, p);
}

static sb_time syn_timeout(const struct sb_flows *fl, const struct sb_tcp *tcp)
{
	const struct sb_tcp_params *p = fl->tcp;
	if (p->syn_timeout_us > 0)
		return sb_time_from_us(p->syn_timeout_us);
	return tcp->rto;
}

/* Send the first window (after the handshake, if any). */
static void open_connection(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	send_available(fl, f, tcp);
	tcp_tlp_arm(fl, f, tcp);
	tcp_timers(fl, f, tcp);
}

void sb_tcp_start(struct sb_flows *fl, struct sb_flow *f, const struct sb_tcp_cc_ops *cc)
{
	sb_tcp_init(fl, f, cc);
	struct sb_tcp *tcp = sb_tcp_of(f);
	tcp->first_rtt_end = sb_first_rtt_budget(fl, f);
	if (fl->tcp->handshake) {
		tcp->syn_sent = true;
		tcp->rto = syn_timeout(fl, tcp);
		send_syn(fl, f, 0, false);
		tcp->rto_at = sb_now(&fl->net->engine) + tcp->rto;
		tcp_timers(fl, f, tcp);
		return;
	}
	open_connection(fl, f, tcp);
}

sb_time sb_tcp_setup_time(const struct sb_flows *fl, uint32_t src, uint32_t dst)
{
	const struct sb_tcp_params *p = fl->tcp;
	if (!p->handshake)
		return 0;
	/* SYN out and SYN-ACK back, then the handshake's ACK leaves just before the first data
	 * segment and delays it by its serialisation on the sender's link. */
	uint32_t a = (uint32_t)p->ack_bytes;
	const struct sb_port *nic = &fl->net->hosts[src]->node.ports[0];
	return sb_path_rtt(fl->net, src, dst, a, a) + sb_tx_time(a, nic->rate_bps);
}

/* The SYN-ACK arrived: the connection is open. */
static void on_syn_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, struct sb_packet *pkt)
{
	if (!tcp->syn_sent)
		return; /* a duplicate SYN-ACK */
	tcp->syn_sent = false;
	/* the handshake's RTT is the first sample, unless the SYN was retransmitted (Karn) */
	const struct sb_tcp_params *p = fl->tcp;
	tcp->rto = sb_time_from_us(p->init_rto_us); /* RFC 6298 (5.7): the SYN's backoff ends */
	if (tcp->rto < tcp->min_rto)
		tcp->rto = tcp->min_rto;
	if (!(pkt->flags & SB_PF_RETX)) {
		sb_time sample = sb_now(&fl->net->engine) - pkt->t_sent;
		tcp_rtt_sample(tcp, sample);
		if (tcp->rack.retx_min_rtt)
			tcp_min_rtt_sample(tcp, sample, false); /* as Linux's min RTT filter */
	}
	tcp->rto_at = SB_TIME_NEVER;
	send_syn(fl, f, 2, false);
	open_connection(fl, f, tcp);
}

/* --- NewReno recovery (tcp.sack = false): RFC 5681 + RFC 6582 --- */

static void newreno_fast_retransmit(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	tcp->stats.recoveries++;
	fl->stats.tcp.recoveries++;
	tcp->recover = tcp->snd_max;
	tcp->ssthresh = tcp->cc->ssthresh(fl, f, tcp, false);
	tcp->cwnd = tcp->ssthresh + 3u * tcp->mss;
	tcp_cap(tcp);
	tcp->ca_bytes = 0;
	tcp->in_recovery = true;
	tcp->partial_seen = false;
	tcp->cwr_end = tcp->snd_max; /* the window that lost is also the window that would echo CE */
	tcp_send_segment(fl, f, tcp, tcp->snd_una);
	tcp->rto_at = sb_now(&fl->net->engine) + tcp->rto;
}

void tcp_ecn_halve(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	if (tcp->in_recovery || tcp->snd_una < tcp->cwr_end)
		return;
	tcp->ssthresh = tcp->cc->ssthresh(fl, f, tcp, false);
	tcp->cwnd = tcp->ssthresh; /* RFC 3168 §6.1.2: cwnd = ssthresh */
	tcp_cap(tcp);
	tcp->ca_bytes = 0;
	tcp->cwr_end = tcp->snd_max;
}

void tcp_congestion_event(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	tcp->ssthresh = tcp->cc->ssthresh(fl, f, tcp, false);
	tcp->ca_bytes = 0;
	tcp->cwr_end = tcp->snd_max; /* the window that lost is also the window that would echo CE */
}

static void newreno_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, struct sb_packet *pkt)
{
	uint64_t ack = pkt->seq;
	bool ece = pkt->flags & SB_PF_ECE;

	if (ack > tcp->snd_una) {
		uint64_t acked = ack - tcp->snd_una;
		tcp->snd_una = ack;
		tcp->backoff = 0;
		if (tcp->snd_nxt < ack)
			tcp->snd_nxt = ack; /* go-back-N: the receiver already had these bytes */
		/* Karn: the receiver flags ACKs of retransmitted segments. */
		bool retx = pkt->flags & SB_PF_RETX;
		sb_time sample = sb_now(&fl->net->engine) - pkt->t_sent;
		if (!retx)
			tcp_rtt_sample(tcp, sample);
		tcp->dupacks = 0;
		if (tcp->cc->on_ecn)
			tcp->cc->on_ecn(fl, f, tcp, acked, ece);
		else if (ece)
			tcp_ecn_halve(fl, f, tcp);
		if (!retx && !tcp->in_recovery && tcp->cwnd < tcp->ssthresh)
			tcp_hystart_on_ack(tcp, ack, sample, sb_now(&fl->net->engine));

		if (tcp->in_recovery) {
			if (ack >= tcp->recover) {
				/* Full ACK, RFC 6582 step 3 option (1): min(ssthresh, FlightSize + MSS)
				 * avoids a burst when the flight is small. */
				uint64_t flight = tcp->snd_max - tcp->snd_una;
				uint64_t w = flight + tcp->mss;
				tcp->cwnd = w < tcp->ssthresh ? w : tcp->ssthresh;
				tcp_cap(tcp);
				tcp->in_recovery = false;
				tcp_restart_rto(sb_now(&fl->net->engine), tcp);
			} else {
				/* Partial ACK: retransmit the next hole, deflate by the acked amount and
				 * add back one MSS (RFC 6582 step 4). */
				tcp_send_segment(fl, f, tcp, tcp->snd_una);
				tcp->cwnd = tcp->cwnd > acked ? tcp->cwnd - acked : 0;
				if (acked >= tcp->mss)
					tcp->cwnd += tcp->mss;
				tcp_cap(tcp);
				if (!tcp->partial_seen) {
					tcp->partial_seen = true;
					tcp_restart_rto(sb_now(&fl->net->engine), tcp);
				}
			}
		} else {
			tcp->cc->on_ack(fl, f, tcp, acked);
			tcp_cap(tcp);
			tcp_restart_rto(sb_now(&fl->net->engine), tcp);
		}
	} else if (ack == tcp->snd_una && tcp->snd_una < tcp->snd_max) {
		if (tcp->in_recovery) {
			tcp->cwnd += tcp->mss; /* each duplicate means a segment left the network */
			if (tcp->max_cwnd && tcp->cwnd > tcp->max_cwnd + 3u * tcp->mss)
				tcp->cwnd = tcp->max_cwnd + 3u * tcp->mss;
		} else if (++tcp->dupacks == SB_TCP_DUPTHRESH && ack >= tcp->recover) {
			/* ack < recover: duplicates caused by our own go-back-N after a timeout
			 * (RFC 6582 step 2), not a new loss. */
			newreno_fast_retransmit(fl, f, tcp);
		}
	} else {
		return; /* older than snd_una: reordered or stale */
	}
	newreno_send_available(fl, f, tcp);
}

static void newreno_on_rto(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	/* RFC 5681 (4) / RFC 6582: the flight before the first timeout sets ssthresh (held on
	 * repeated timeouts) and recover; the whole flight is resent from snd_una, one segment
	 * first (cwnd = loss window). */
	if (!tcp->backoff)
		tcp->ssthresh = tcp->cc->ssthresh(fl, f, tcp, true);
	tcp->backoff++;
	tcp->cwnd = tcp->mss;
	tcp->ca_bytes = 0;
	tcp->recover = tcp->snd_max;
	tcp->cwr_end = tcp->snd_max;
	tcp->in_recovery = false;
	tcp->dupacks = 0;
	tcp->snd_nxt = tcp->snd_una;
	tcp_hystart_on_timeout(tcp);
	/* RFC 6298 (5.5): back off. */
	tcp_rto_backoff(tcp);
	tcp->rto_at = sb_now(&fl->net->engine) + tcp->rto;
	newreno_send_available(fl, f, tcp);
}

/* --- dispatch --- */

/* The ACK of almost every packet: new data acknowledged in the open state with no hole known
 * (nothing SACKed, lost or probed; in NewReno mode no go-back-N under way). It does exactly
 * what tcp_sack_on_ack() and newreno_on_ack() do then, without the steps that cannot apply:
 * no loss to detect, no recovery to pace, only new data to send. Returns false for any other
 * ACK. */
static bool ack_open(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, const struct sb_packet *pkt,
		     bool sack)
{
	uint64_t ack = pkt->seq;
	if (ack <= tcp->snd_una || ack > tcp->snd_max || tcp->in_recovery)
		return false;
	if (sack ? (pkt->sack || tcp->board.sacked || tcp->board.lost || tcp->board.extra || tcp->tlp_end)
		 : tcp->snd_nxt != tcp->snd_max)
		return false;
	sb_time now = sb_now(&fl->net->engine);
	uint64_t acked = ack - tcp->snd_una;
	bool retx = pkt->flags & SB_PF_RETX;
	if (sack)
		tcp_board_acked(tcp, ack);
	tcp->snd_una = ack;
	tcp->backoff = 0;
	tcp->dupacks = 0;
	sb_time sample = now - pkt->t_sent;
	if (!retx)
		tcp_rtt_sample(tcp, sample); /* Karn */
	if (sack) {
		tcp_min_rtt_sample(tcp, sample, retx);
		tcp_rack_delivered(tcp, pkt->t_sent, ack, retx, now);
		tcp->reo_at = SB_TIME_NEVER;
	}
	if (tcp->cc->on_ecn)
		tcp->cc->on_ecn(fl, f, tcp, acked, pkt->flags & SB_PF_ECE);
	else if (pkt->flags & SB_PF_ECE)
		tcp_ecn_halve(fl, f, tcp);
	if (!retx && tcp->cwnd < tcp->ssthresh)
		tcp_hystart_on_ack(tcp, ack, sample, now);
	tcp->cc->on_ack(fl, f, tcp, acked);
	tcp_cap(tcp);
	tcp_restart_rto(now, tcp);
	/* pipe is the flight here; a segment goes out while any window is left */
	uint64_t limit = tcp_limit(f);
	bool sent = false;
	while (tcp->snd_nxt < limit && tcp->snd_max - tcp->snd_una < tcp->cwnd) {
		tcp_send_new(fl, f, tcp);
		sent = true;
	}
	if (sent && tcp->rto_at == SB_TIME_NEVER)
		tcp->rto_at = now + tcp->rto;
	if (sack)
		tcp_tlp_arm(fl, f, tcp);
	return true;
}

void sb_tcp_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	struct sb_tcp *tcp = sb_tcp_of(f);
	if (pkt->type == SB_PKT_SYN) {
		if (pkt->seq == 1)
			on_syn_ack(fl, f, tcp, pkt); /* at the sender */
		else
			tcp_rx_on_syn(fl, f, pkt);   /* the SYN or the handshake's ACK, at the receiver */
		return;
	}
	fl->stats.tcp.pure_acks++;
	if (f->completed || tcp->syn_sent)
		return;
	bool sack = fl->tcp->sack;
	if (!ack_open(fl, f, tcp, pkt, sack)) {
		if (sack)
			tcp_sack_on_ack(fl, f, tcp, pkt);
		else
			newreno_on_ack(fl, f, tcp, pkt);
	}
	tcp_timers(fl, f, tcp);
}

static void on_rto(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	tcp->rto_at = SB_TIME_NEVER;
	if (tcp->syn_sent) {
		/* the SYN (or its answer) was lost: again, backing off */
		tcp->stats.syn_retries++;
		f->timeouts++;
		fl->stats.tcp.timeouts++;
		fl->stats.tcp.syn_retransmits++;
		tcp_rto_backoff(tcp);
		send_syn(fl, f, 0, true);
		tcp->rto_at = sb_now(&fl->net->engine) + tcp->rto;
		return;
	}
	if (tcp->snd_una >= tcp->snd_max)
		return;
	f->timeouts++;
	fl->stats.tcp.timeouts++;
	if (!tcp->backoff) {
		/* the state the first timeout of a series found (Linux classifies only that one) */
		if (tcp->in_loss)
			fl->stats.tcp.timeouts_repeated++;
		else if (tcp->in_recovery)
			fl->stats.tcp.timeouts_in_recovery++;
		else if (fl->tcp->sack && tcp->board.sacked)
			fl->stats.tcp.timeouts_sacked++;
	}
	if (fl->tcp->sack)
		tcp_sack_on_rto(fl, f, tcp);
	else
		newreno_on_rto(fl, f, tcp);
}

void sb_tcp_on_timer(struct sb_flows *fl, struct sb_flow *f)
{
	struct sb_tcp *tcp = sb_tcp_of(f);
	sb_time now = sb_now(&fl->net->engine);
	if (tcp->rx.unacked && tcp->rx.delack_at <= now)
		tcp_rx_on_timer(fl, f);
	if (!f->completed) {
		if (tcp->reo_at <= now) {
			tcp->reo_at = SB_TIME_NEVER;
			tcp_sack_detect_and_send(fl, f, tcp);
		}
		if (tcp->tlp_at <= now)
			tcp_tlp_fire(fl, f, tcp);
		if (tcp->rto_at <= now)
			on_rto(fl, f, tcp);
	}
	tcp_timers(fl, f, tcp);
}
