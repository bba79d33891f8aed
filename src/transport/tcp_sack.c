/*
 * tcp_sack.c — loss recovery with SACK: RFC 6675 driven by RACK (RFC 8985) or DupThresh,
 * paced by PRR (RFC 6937) or RFC 6675's pipe rule.
 *
 * Per ACK: the cumulative ACK trims the scoreboard, the reported segment is SACKed, RACK
 * learns the delivered segment's send time, then losses are marked: by RACK, or without it
 * by RFC 6675's IsLost (DupThresh segments or blocks SACKed above). The first lost byte
 * starts fast recovery: RecoveryPoint = snd_max, ssthresh from the control, the first lost
 * segment is retransmitted at once, and from then on NextSeg chooses what to send while
 * pipe < cwnd (RFC 6675 §5, the state is Linux's "Recovery"):
 *   rule 1: the lowest lost segment (never one already retransmitted, unless RACK found the
 *           retransmission lost too);
 *   rule 2: new data;
 *   rules 3 and 4 (only without RACK, whose timer replaces them as in Linux): an unSACKed
 *           segment below the highest SACK that is not yet lost, then once per recovery a
 *           "rescue" retransmission of the highest unSACKed segment (which may be spurious).
 * With PRR each ACK in recovery sets cwnd = pipe + sndcnt, sndcnt being the data the
 * receiver got times ssthresh / RecoverFS (while pipe > ssthresh), else catching up to
 * ssthresh by at most what was delivered + 1 MSS (slow-start reduction bound). With
 * tcp.recovery = rfc6675, cwnd = ssthresh throughout. Recovery ends when the cumulative ACK
 * reaches RecoveryPoint, with cwnd = ssthresh.
 *
 * After a timeout (RFC 6675 §5.1, Linux's "Loss" state): every unSACKed byte is lost,
 * cwnd = 1 MSS and grows by slow start, and the same NextSeg loop retransmits the holes in
 * order, then new data; SACKed data is never sent again.
 */
#include "transport/tcp_engine.h"

#include "engine/packet.h"
#include "transport/flows.h"

/* Retransmit the segment at seq. */
static void retransmit(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t seq)
{
	uint32_t len = tcp_send_segment(fl, f, tcp, seq);
	tcp_board_retransmitted(tcp, seq, seq + len, sb_now(&fl->net->engine));
	tcp->prr_out += len;
}

/* RFC 6675 NextSeg + send one segment. Returns false when there is nothing to send. */
static bool send_next(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	const struct sb_tcp_params *p = fl->tcp;
	uint64_t seq = tcp->in_recovery ? tcp_board_first_unsacked(tcp, RUN_LOST, UINT64_MAX) : UINT64_MAX;
	if (seq != UINT64_MAX) {
		retransmit(fl, f, tcp, seq); /* rule 1 */
		return true;
	}
	if (tcp->snd_nxt < tcp_limit(f)) {
		uint64_t before = tcp->snd_nxt;
		tcp_send_new(fl, f, tcp); /* rule 2 */
		if (tcp->in_recovery)
			tcp->prr_out += tcp->snd_nxt - before;
		return true;
	}
	if (!tcp->in_recovery || tcp->in_loss || p->rack)
		return false;
	seq = tcp_board_first_unsacked(tcp, RUN_OUT, tcp_board_high_sacked(tcp));
	if (seq != UINT64_MAX) {
		retransmit(fl, f, tcp, seq); /* rule 3 */
		return true;
	}
	if (tcp->rescue_rxt < tcp->snd_una || !tcp->rescue_rxt) {
		/* rule 4: the highest unSACKed segment, once per recovery */
		seq = tcp_board_last_unsacked(tcp);
		if (seq != UINT64_MAX) {
			retransmit(fl, f, tcp, seq);
			tcp->rescue_rxt = tcp->recover;
			return true;
		}
	}
	return false;
}

void tcp_sack_transmit(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	bool sent = false;
	for (uint64_t pipe = tcp_pipe(tcp); pipe < tcp->cwnd && send_next(fl, f, tcp);) {
		sent = true;
		uint64_t now_pipe = tcp_pipe(tcp);
		if (now_pipe <= pipe)
			break; /* a rescue of a segment already retransmitted adds nothing to pipe */
		pipe = now_pipe;
	}
	/* RFC 6298 (5.1): start the timer when sending with none running. */
	if (sent && tcp->rto_at == SB_TIME_NEVER)
		tcp->rto_at = sb_now(&fl->net->engine) + tcp->rto;
}

static void enter_recovery(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	tcp->stats.recoveries++;
	fl->stats.tcp.recoveries++;
	tcp->recover = tcp->snd_max; /* RFC 6675 §5 (4.1): RecoveryPoint = HighData */
	tcp_congestion_event(fl, f, tcp);
	tcp->in_recovery = true;
	tcp->in_loss = false;
	tcp->rescue_rxt = 0;
	tcp->prr_delivered = tcp->prr_out = 0;
	tcp->recover_fs = tcp->snd_max - tcp->snd_una;
	tcp->tlp_at = SB_TIME_NEVER;
	if (fl->tcp->recovery == SB_TCP_RECOVERY_RFC6675) {
		tcp->cwnd = tcp->ssthresh; /* RFC 6675 §5 (4.2) */
		tcp_cap(tcp);
	}
}

/* PRR (RFC 6937 §3, with the slow-start reduction bound): cwnd for this ACK. */
static void prr_cwnd(struct sb_tcp *tcp, uint64_t delivered)
{
	tcp->prr_delivered += delivered;
	uint64_t pipe = tcp_pipe(tcp);
	int64_t sndcnt;
	if (pipe > tcp->ssthresh) {
		unsigned __int128 num = (unsigned __int128)tcp->prr_delivered * tcp->ssthresh;
		uint64_t fs = tcp->recover_fs ? tcp->recover_fs : 1;
		uint64_t share = (uint64_t)((num + fs - 1) / fs);
		sndcnt = (int64_t)share - (int64_t)tcp->prr_out;
	} else {
		int64_t owed = (int64_t)tcp->prr_delivered - (int64_t)tcp->prr_out;
		int64_t limit = (owed > (int64_t)delivered ? owed : (int64_t)delivered) + (int64_t)tcp->mss;
		int64_t room = (int64_t)tcp->ssthresh - (int64_t)pipe;
		sndcnt = room < limit ? room : limit;
	}
	if (sndcnt < 0)
		sndcnt = 0;
	tcp->cwnd = pipe + (uint64_t)sndcnt;
}

/* Mark losses; true if anything is (still) waiting for retransmission. */
static bool detect(struct sb_flows *fl, struct sb_tcp *tcp)
{
	if (!tcp->board.sacked && !tcp->in_recovery) {
		/* no hole is known: nothing sent before a delivered segment is missing */
		tcp->reo_at = SB_TIME_NEVER;
		return false;
	}
	if (fl->tcp->rack) {
		uint32_t before = tcp->stats.lost_retransmits;
		tcp_rack_detect(tcp, sb_now(&fl->net->engine));
		fl->stats.tcp.lost_retransmits += tcp->stats.lost_retransmits - before;
	}
	else
		tcp_board_mark_dupthresh(tcp);
	return tcp->board.lost != 0;
}

void tcp_sack_detect_and_send(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	bool lost = detect(fl, tcp);
	if (lost && !tcp->in_recovery) {
		/* RACK's timer started the recovery: PRR paces it from here as from an ACK (RFC 6937
		 * from the first loss), with one segment counted as delivered as Linux's
		 * tcp_rack_reo_timeout does (tcp_cwnd_reduction(sk, 1, ...)); the old cwnd, not yet
		 * reduced, would send a burst of retransmissions into the queue that just dropped
		 * their originals */
		enter_recovery(fl, f, tcp);
		if (fl->tcp->recovery == SB_TCP_RECOVERY_PRR)
			prr_cwnd(tcp, tcp->mss);
		uint64_t seq = tcp_board_first_unsacked(tcp, RUN_LOST, UINT64_MAX);
		if (seq != UINT64_MAX)
			retransmit(fl, f, tcp, seq); /* the fast retransmit, whatever cwnd says */
	}
	tcp_sack_transmit(fl, f, tcp);
}

void tcp_sack_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, struct sb_packet *pkt)
{
	const struct sb_tcp_params *p = fl->tcp;
	sb_time now = sb_now(&fl->net->engine);
	uint64_t ack = pkt->seq;
	bool ece = pkt->flags & SB_PF_ECE;
	bool echo_retx = pkt->flags & SB_PF_RETX;
	if (ack < tcp->snd_una || ack > tcp->snd_max)
		return; /* stale (cannot happen with FIFO paths) */

	bool advanced = ack > tcp->snd_una;
	uint64_t acked = ack - tcp->snd_una;
	uint64_t sacked_before = tcp->board.sacked;
	if (advanced) {
		tcp_board_acked(tcp, ack);
		tcp->snd_una = ack;
		tcp->backoff = 0;
	}
	uint64_t newly_sacked = 0, delivered_end = ack;
	if (pkt->sack) {
		/* the block: a run of segments from the coded offset (one, unless the receiver
		 * compressed its ACKs) */
		uint64_t seq = ack + (uint64_t)sb_sack_offset(pkt->sack) * tcp->mss;
		for (uint32_t i = sb_sack_segs(pkt->sack); i && seq < tcp->snd_max; i--) {
			uint64_t end = seq + tcp_seg_len(f, tcp, seq);
			newly_sacked += tcp_board_sack(tcp, seq, end, pkt->t_sent, echo_retx, now);
			delivered_end = end;
			seq = end;
		}
	}
	/* RFC 6937 DeliveredData: the change in snd_una plus the change in SACKed bytes */
	uint64_t delivered = acked + tcp->board.sacked - sacked_before;

	sb_time sample = now - pkt->t_sent;
	if (advanced && !echo_retx)
		tcp_rtt_sample(tcp, sample);
	if (delivered) {
		tcp_min_rtt_sample(tcp, sample, echo_retx);
		tcp_rack_delivered(tcp, pkt->t_sent, delivered_end, echo_retx, now);
		if (tcp->cc->on_ecn)
			tcp->cc->on_ecn(fl, f, tcp, delivered, ece);
		else if (ece)
			tcp_ecn_halve(fl, f, tcp);
	}
	if (advanced && !echo_retx && tcp->cwnd < tcp->ssthresh)
		tcp_hystart_on_ack(tcp, ack, sample, now);
	tcp_tlp_on_ack(fl, f, tcp, ack, advanced, newly_sacked != 0);

	/* the end of a recovery */
	if (tcp->in_recovery && ack >= tcp->recover && advanced) {
		if (!tcp->in_loss) {
			tcp->cwnd = tcp->ssthresh;
			tcp_cap(tcp);
		}
		tcp->in_recovery = tcp->in_loss = false;
	}
	bool was_fast = tcp->in_recovery && !tcp->in_loss;
	bool lost = detect(fl, tcp);
	if (lost && !tcp->in_recovery) {
		enter_recovery(fl, f, tcp);
		if (p->recovery == SB_TCP_RECOVERY_PRR)
			prr_cwnd(tcp, delivered);
		uint64_t seq = tcp_board_first_unsacked(tcp, RUN_LOST, UINT64_MAX);
		if (seq != UINT64_MAX)
			retransmit(fl, f, tcp, seq); /* the fast retransmit */
	} else if (was_fast) {
		if (p->recovery == SB_TCP_RECOVERY_PRR)
			prr_cwnd(tcp, delivered);
	} else if (advanced) {
		/* open, or after a timeout: the control grows cwnd (slow start in both cases) */
		tcp->cc->on_ack(fl, f, tcp, acked);
		tcp_cap(tcp);
	}
	if (advanced)
		tcp_restart_rto(sb_now(&fl->net->engine), tcp);
	tcp_sack_transmit(fl, f, tcp);
	if (advanced || tcp->tlp_at != SB_TIME_NEVER)
		tcp_tlp_arm(fl, f, tcp);
}

void tcp_sack_on_rto(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	/* RFC 5681 (4): ssthresh from the flight before the first timeout, held on repeats */
	if (!tcp->backoff)
		tcp->ssthresh = tcp->cc->ssthresh(fl, f, tcp, true);
	tcp->backoff++;
	tcp->cwnd = tcp->mss;
	tcp->ca_bytes = 0;
	tcp->recover = tcp->snd_max;
	tcp->cwr_end = tcp->snd_max;
	tcp->in_recovery = tcp->in_loss = true;
	tcp->tlp_end = 0;
	tcp->tlp_at = tcp->reo_at = SB_TIME_NEVER;
	tcp_hystart_on_timeout(tcp);
	tcp_board_mark_all_lost(tcp);
	tcp_rto_backoff(tcp); /* RFC 6298 (5.5) */
	tcp->rto_at = sb_now(&fl->net->engine) + tcp->rto;
	tcp_sack_transmit(fl, f, tcp);
}
