/*
 * tcp_rack.c — RACK-TLP (RFC 8985): time-based loss detection and the Tail Loss Probe.
 *
 * RACK: a segment is lost once a segment sent after it has been delivered and more than a
 * reordering window has passed since: it was sent at xmit and
 *     xmit + RACK.rtt + reo_wnd <= now,
 * with RACK.rtt the RTT of the most recently sent delivered segment (§6.2). Unlike
 * DupThresh this also finds lost retransmissions and losses with fewer than three segments
 * behind them. The send times come from the scoreboard (tcp_board.c), the delivered
 * segment's from the ACK's echo of its send time: the receiver echoes the send time of the
 * very transmission that arrived (what TCP timestamps give), so RFC 8985's test against
 * retransmission ambiguity (§6.2 step 2) is never needed.
 *
 * TLP: when the sender has data in flight and nothing tells it about losses (no SACK, not in
 * recovery), a probe timer PTO = 2 SRTT (+ the worst-case delayed-ACK time when the flight is
 * one segment and the receiver delays ACKs), at most the RTO, sends one segment: new data
 * if there is any, else the last segment again. Its ACK, SACKing or acknowledging the probe,
 * lets RACK find the tail loss without a timeout (§7).
 *
 * Not implemented: DSACK (RFC 2883), so RACK's reo_wnd never grows (§6.2 step 4's
 * reo_wnd_mult stays 1) and a spurious probe is recognised, as in Linux, by the duplicate
 * ACK its copy causes rather than by a DSACK.
 */
#include "transport/tcp_engine.h"

#include "transport/flows.h"

/* RFC 8985 §6.2 step 4: reo_wnd = min_RTT / 4 by default. */
#define RACK_REO_WND_DIVISOR 4

/* §6.2 step 4 without DSACK: no window once DupThresh segments are SACKed or in recovery,
 * unless reordering was seen; else min_RTT / 4, at most SRTT. */
static sb_time reo_wnd(const struct sb_tcp *tcp)
{
	if (!tcp->rack.reordering_seen &&
	    (tcp->in_recovery || tcp->board.sacked > (uint64_t)(SB_TCP_DUPTHRESH - 1) * tcp->mss))
		return 0;
	sb_time w = tcp->min_rtt / RACK_REO_WND_DIVISOR;
	return tcp->srtt && w > tcp->srtt ? tcp->srtt : w;
}

uint64_t tcp_rack_detect(struct sb_tcp *tcp, sb_time now)
{
	const struct sb_tcp_rack *r = &tcp->rack;
	if (!r->xmit) {
		tcp->reo_at = SB_TIME_NEVER;
		return 0;
	}
	sb_time wnd = reo_wnd(tcp), timeout = 0;
	uint64_t newly = 0;
	/* Runs sent at RACK's instant went first only below RACK's segment (§6.2's tie-break on
	 * end_seq, segment by segment): cut them there, so that a run is all before or all not.
	 * SACKs do not cut runs, so one burst is often one run holding RACK's segment too. */
	tcp_board_cut(tcp, r->end);
	for (unsigned i = 0; i < tcp->board.n; i++) {
		if (tcp_board_state(tcp, i) == RUN_LOST)
			continue;
		sb_time xmit = tcp_board_xmit(tcp, i);
		if (xmit > r->xmit || (xmit == r->xmit && tcp_board_start(tcp, i) >= r->end))
			continue; /* sent after RACK's segment */
		sb_time due = xmit + r->rtt + wnd;
		if (due <= now) {
			uint8_t state = tcp_board_state(tcp, i);
			uint64_t marked = tcp_board_set_lost(tcp, i); /* its SACKed segments stay delivered */
			if (state == RUN_RETX || state == RUN_OUT_RETX)
				tcp->stats.lost_retransmits += (uint32_t)((marked + tcp->mss - 1) / tcp->mss);
			newly += marked;
		} else if (due - now > timeout) {
			timeout = due - now;
		}
	}
	tcp_board_tidy(tcp); /* also undoes the cut where it was not needed */
	tcp->reo_at = timeout ? now + timeout : SB_TIME_NEVER;
	return newly;
}

/* --- Tail Loss Probe --- */

void tcp_tlp_fire(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp)
{
	tcp->tlp_at = SB_TIME_NEVER;
	if (tcp->in_recovery || tcp->snd_una >= tcp->snd_max)
		return;
	if (tcp->snd_nxt < tcp_limit(f)) {
		/* §7.3: a new segment, sent whatever cwnd says */
		tcp_send_new(fl, f, tcp);
		tcp->tlp_retrans = false;
	} else {
		/* else the last segment again */
		uint64_t last = tcp->snd_max - 1;
		uint64_t seq = last - last % tcp->mss;
		tcp_send_segment(fl, f, tcp, seq);
		tcp_board_retransmitted(tcp, seq, tcp->snd_max, sb_now(&fl->net->engine));
		tcp->tlp_retrans = true;
	}
	tcp->stats.tlp_probes++;
	fl->stats.tcp.loss_probes++;
	tcp->tlp_end = tcp->snd_nxt;
	/* after a probe the RTO, not another probe, guards the flight */
	tcp->rto_at = sb_now(&fl->net->engine) + tcp->rto;
}

void tcp_tlp_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp, uint64_t ack, bool advanced,
		    bool sacked)
{
	if (!tcp->tlp_end || ack < tcp->tlp_end)
		return;
	if (!tcp->tlp_retrans) {
		tcp->tlp_end = 0; /* the new data sent as a probe arrived */
	} else if (ack > tcp->tlp_end) {
		/* §7.4.2: the flight beyond the probe is acknowledged and nothing showed that both
		 * copies arrived: the probe repaired a loss, so react as to any loss */
		tcp->tlp_end = 0;
		tcp->stats.tlp_repaired++;
		fl->stats.tcp.loss_probe_repairs++;
		tcp_congestion_event(fl, f, tcp);
		tcp->cwnd = tcp->ssthresh;
		tcp_cap(tcp);
	} else if (!advanced && !sacked) {
		/* a pure duplicate ACK: the probe's copy arrived after the original, no loss */
		tcp->tlp_end = 0;
	}
}
