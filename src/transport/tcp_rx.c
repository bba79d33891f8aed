/*
 * tcp_rx.c — the TCP receiver: reassembly, ACKs with their SACK report, delayed ACKs, the
 * CE echo, and the answer to a SYN.
 *
 * ACKs. Each pure ACK carries the cumulative ACK (rcv_nxt), echoes the send time of the
 * segment it acknowledges (the timestamp option, RFC 7323: with delayed ACKs the first
 * unacknowledged segment's, so the RTT includes the delay), whether that segment was a
 * retransmission (the sender applies Karn's rule to its RTO samples), and ECE.
 *
 * SACK (RFC 2018). The ACK of an out-of-order segment reports that segment, as the first SACK
 * block must (§4: "the first SACK block MUST specify the contiguous block of data containing
 * the segment which triggered this ACK"); it is coded in the packet as the segment's offset
 * above the cumulative ACK in MSS (struct sb_packet's `sack`, sb_sack_code: a run of 1 to 8
 * segments from an offset below SB_OOO_SEGS). A real ACK repeats up to three more, older blocks (3 with
 * timestamps); they only matter when ACKs are lost, and here they cannot be: pure ACKs travel
 * in the control queues, never dropped and FIFO per flow, and every segment stored out of
 * order is reported by its own ACK (out-of-order data is acknowledged at once, below). The
 * union of reported segments at the sender is therefore exactly what the repeated blocks
 * would give.
 *
 * Out-of-order segments are held in a bitmap (struct sb_ooo), one bit per segment up to
 * SB_OOO_SEGS segments above rcv_nxt: any number of holes, O(1) per segment. A segment beyond
 * is discarded and not reported, as a receive window would refuse it.
 *
 * SACK compression (tcp.sack_compress_nr > 0, Linux's, docs/transports.md): above one hole,
 * after 3 ACKs at once, the ACKs of out-of-order segments are withheld until a timer, a cap
 * or any other ACK; then one ACK per run of withheld segments still held reports them
 * (flush_compressed), so the union at the sender stays exact.
 *
 * Delayed ACKs (tcp.delack_count > 1; RFC 5681 §4.2, RFC 1122 4.2.3.2): an ACK for every
 * delack_count segments, or delack_timeout_us after the first unacknowledged one, and at once
 * for out-of-order data, for a segment that fills all or part of a hole, for a duplicate,
 * and for the flow's last byte (the sender's FIN, which is acknowledged at once). ECN
 * (RFC 8257 §3.2): the receiver keeps the CE state of the last segment; when it changes with
 * an ACK pending, the pending segments are acknowledged at once with the old ECE, so every
 * ACK covers segments of one CE state and DCTCP's marked fraction stays exact. Without
 * delayed ACKs that is the per-segment echo DCTCP needs (not RFC 3168's "ECE until CWR").
 */
#include "transport/tcp_engine.h"

#include <string.h>
#include "engine/packet.h"
#include "transport/flows.h"

static inline uint64_t *slot(struct sb_ooo *o, uint64_t k, uint64_t *bit)
{
	uint32_t p = (uint32_t)((o->base + k) & (SB_OOO_SEGS - 1));
	*bit = 1ull << (p & 63);
	return &o->bits[p >> 6];
}

/* The segment at rcv_nxt arrived (rcv_nxt is past it): take in the held segments it joins. */
static void absorb(const struct sb_flows *fl, struct sb_flow *f)
{
	struct sb_ooo *o = &f->ooo;
	const uint64_t mss = (uint64_t)fl->tcp->mss;
	const uint64_t limit = f->size ? f->size : UINT64_MAX;
	o->base = (o->base + 1) & (SB_OOO_SEGS - 1);
	uint64_t bit, *w;
	while (o->n && (*(w = slot(o, 0, &bit)) & bit)) {
		*w &= ~bit;
		o->n--;
		uint64_t left = limit - f->rcv_nxt;
		f->rcv_nxt += left < mss ? left : mss;
		o->base = (o->base + 1) & (SB_OOO_SEGS - 1);
	}
}

/* A pure control packet from the receiver to the sender. */
static inline struct sb_packet *reply(struct sb_flows *fl, struct sb_flow *f, uint8_t type, uint64_t seq)
{
	return sb_flow_control_packet(fl, f, type, seq, (uint32_t)fl->tcp->ack_bytes, tcp_control_lane(fl), true);
}

/* Acknowledge `ack`, echoing `t_sent` (and whether that segment was a retransmission), with
 * ECE and the SACK report. */
static inline void send_ack(struct sb_flows *fl, struct sb_flow *f, uint64_t ack, sb_time t_sent, bool retx,
			    bool ece, uint16_t sack)
{
	struct sb_packet *a = reply(fl, f, SB_PKT_ACK, ack);
	a->t_sent = t_sent;
	a->sack = sack;
	if (ece)
		a->flags |= SB_PF_ECE;
	if (retx)
		a->flags |= SB_PF_RETX;
	sb_tcp_of(f)->rx.unacked = 0;
	sb_host_send(fl->net, a);
}

/* Take the segment into rcv_nxt or the held segments; returns its SACK report. Counts each
 * segment's first arrival in the run's `delivered` (Linux's TCPDelivered, which its senders
 * count from their ACKs: the same number when no ACK is lost, as here). */
static inline uint16_t take(struct sb_flows *fl, struct sb_flow *f, uint64_t seq, uint64_t end)
{
	if (end <= f->rcv_nxt)
		return 0; /* a duplicate */
	struct sb_ooo *o = &f->ooo;
	if (seq <= f->rcv_nxt) {
		fl->stats.tcp.delivered++;
		f->rcv_nxt = end;
		if (o->n)
			absorb(fl, f);
		f->bytes_received = f->rcv_nxt;
		return 0;
	}
	/* above rcv_nxt (segments start at multiples of the MSS): hold it and report it */
	uint64_t k = (seq - f->rcv_nxt) / (uint64_t)fl->tcp->mss;
	if (k >= SB_OOO_SEGS)
		return 0; /* beyond the receive window: discarded, the sender will send it again */
	fl->stats.tcp.ofo_segments++;
	if (!o->n)
		o->base = 0; /* nothing held: any origin will do */
	uint64_t bit, *w = slot(o, k, &bit);
	if (!(*w & bit)) {
		*w |= bit;
		o->n++;
		fl->stats.tcp.delivered++; /* once, however often it comes again */
	}
	return sb_sack_code((uint32_t)k, 1);
}
_Static_assert(SB_OOO_SEGS - 1 <= SB_SACK_OFFSET_MAX, "every held segment's offset fits a SACK block");

static inline bool held(struct sb_ooo *o, uint32_t k)
{
	uint64_t bit, *w = slot(o, k, &bit);
	return *w & bit;
}

/* SACK compression: send the withheld ACKs' report, one ACK per run of up to SB_SACK_RUN_MAX
 * withheld segments still held (a real ACK carries up to 3 blocks of any length; here one
 * block each, so a compressed report of several runs takes several ACKs). Returns the ACKs
 * sent; the withheld segments left without an ACK of their own are counted in
 * acks_compressed (Linux's TCPAckCompressed). */
static uint32_t flush_compressed(struct sb_flows *fl, struct sb_flow *f)
{
	struct sb_tcp_rx *rx = &sb_tcp_of(f)->rx;
	if (!rx->comp_n)
		return 0;
	uint32_t next = (uint32_t)(f->rcv_nxt / (uint64_t)fl->tcp->mss);
	uint32_t span = rx->comp_hi - rx->comp_lo, sent = 0;
	for (uint32_t i = 0; i <= span;) {
		uint32_t k = rx->comp_lo + i - next; /* offset above rcv_nxt, modulo 2^32 */
		if (k == 0 || k >= SB_OOO_SEGS || !held(&f->ooo, k)) {
			i++; /* acknowledged cumulatively since, or never held */
			continue;
		}
		uint32_t run = 1;
		while (run < SB_SACK_RUN_MAX && i + run <= span && k + run < SB_OOO_SEGS && held(&f->ooo, k + run))
			run++;
		send_ack(fl, f, f->rcv_nxt, rx->echo_t_sent, rx->echo_retx, rx->ce, sb_sack_code(k, run));
		sent++;
		i += run;
	}
	fl->stats.tcp.acks_compressed += rx->comp_n > sent ? rx->comp_n - sent : 0;
	rx->comp_n = 0;
	return sent;
}

/* Linux's __tcp_ack_snd_check for a segment held above a hole: the first SB_TCP_DUPTHRESH ACKs
 * for one hole go at once (the sender's duplicate ACKs); then each ACK is withheld, up to
 * tcp.sack_compress_nr of them, until the compression timer fires or one more is due. Returns
 * false when this segment's ACK must go at once, true when it is withheld or already sent
 * with the withheld ones. */
static bool compress(struct sb_flows *fl, struct sb_flow *f, struct sb_tcp *tcp,
		     const struct sb_packet *pkt)
{
	const struct sb_tcp_params *tp = fl->tcp;
	struct sb_tcp_rx *rx = &tcp->rx;
	const uint64_t mss = (uint64_t)tp->mss;
	uint32_t hole = (uint32_t)(f->rcv_nxt / mss), seg = (uint32_t)(pkt->seq / mss);
	if (hole != rx->comp_at) {
		rx->comp_at = hole;
		rx->dupacks = 0;
	}
	if (rx->dupacks < SB_TCP_DUPTHRESH) {
		rx->dupacks++;
		return false;
	}
	bool retx = pkt->flags & SB_PF_RETX;
	if (!rx->comp_n) {
		/* the withheld ACK echoes the latest segment's send time, as RACK wants */
		rx->comp_lo = rx->comp_hi = seg;
		rx->echo_t_sent = pkt->t_sent;
		rx->echo_retx = retx;
		/* Linux: min(tcp_comp_sack_delay_ns, RTT / 20) with tcp_comp_sack_slack_ns */
		sb_time delay = tcp->min_rtt / 20, most = sb_time_from_us(tp->sack_compress_delay_us);
		rx->delack_at = sb_now(&fl->net->engine) + (delay < most ? delay : most) +
				sb_time_from_us(tp->sack_compress_slack_us);
		tcp_timers(fl, f, tcp);
	} else {
		if ((int32_t)(seg - rx->comp_lo) < 0)
			rx->comp_lo = seg;
		if ((int32_t)(seg - rx->comp_hi) > 0)
			rx->comp_hi = seg;
		if (pkt->t_sent > rx->echo_t_sent)
			rx->echo_t_sent = pkt->t_sent;
		rx->echo_retx |= retx;
	}
	bool due = rx->comp_n >= tp->sack_compress_nr; /* Linux: compressed_ack >= tcp_comp_sack_nr */
	rx->comp_n++;
	if (due)
		flush_compressed(fl, f);
	return true;
}

/* With delayed ACKs: RFC 5681 §4.2's immediate cases and RFC 8257 §3.2's CE state. */
static void on_data_delayed(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	const struct sb_tcp_params *tp = fl->tcp;
	struct sb_tcp *tcp = sb_tcp_of(f);
	struct sb_tcp_rx *rx = &tcp->rx;
	uint64_t before = f->rcv_nxt;
	bool had_holes = f->ooo.n != 0;
	bool ce = pkt->flags & SB_PF_CE;

	/* A change of CE state first acknowledges what is pending, with the old state, so that
	 * no ACK mixes marked and unmarked segments. */
	if (ce != rx->ce && rx->unacked && !flush_compressed(fl, f))
		send_ack(fl, f, before, rx->echo_t_sent, rx->echo_retx, rx->ce, 0);
	rx->ce = ce;

	uint16_t sack = take(fl, f, pkt->seq, pkt->seq + pkt->payload);
	bool complete = f->size && f->rcv_nxt >= f->size;
	if (!rx->unacked) {
		rx->echo_t_sent = pkt->t_sent;
		rx->echo_retx = pkt->flags & SB_PF_RETX;
	}
	rx->unacked++;
	bool in_order = f->rcv_nxt > before && !had_holes;
	bool quick = rx->quick_left > 0;
	if (quick)
		rx->quick_left--;
	if (in_order && !complete && !quick && rx->unacked < tp->delack_count) {
		/* delay: the timer runs from the first unacknowledged segment */
		if (rx->unacked == 1) {
			rx->delack_at = sb_now(&fl->net->engine) + sb_time_from_us(tp->delack_timeout_us);
			tcp_timers(fl, f, tcp);
		}
	} else if (sack && f->rcv_nxt == before && !quick && tp->sack_compress_nr && tp->sack &&
		   compress(fl, f, tcp, pkt)) {
		/* withheld, or sent with the compressed ones */
	} else if (flush_compressed(fl, f) && !sack) {
		/* the compressed ACKs just sent carry the cumulative ACK: this segment's is one of
		 * them, as in Linux, whose one ACK carries every block */
		fl->stats.tcp.acks_compressed++;
	} else {
		/* a delayed-ACK deadline still armed just finds nothing pending */
		send_ack(fl, f, f->rcv_nxt, rx->echo_t_sent, rx->echo_retx, rx->ce, sack);
	}
	if (complete && !f->done)
		sb_flow_received(fl, f);
}

void sb_tcp_on_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	if (fl->tcp->delack_count > 1) {
		on_data_delayed(fl, f, pkt);
		return;
	}
	/* an ACK per segment, echoing its own timestamp, retransmission flag and CE */
	uint16_t sack = take(fl, f, pkt->seq, pkt->seq + pkt->payload);
	send_ack(fl, f, f->rcv_nxt, pkt->t_sent, pkt->flags & SB_PF_RETX, pkt->flags & SB_PF_CE, sack);
	if (f->size && !f->done && f->rcv_nxt >= f->size)
		sb_flow_received(fl, f);
}

void tcp_rx_on_timer(struct sb_flows *fl, struct sb_flow *f)
{
	struct sb_tcp_rx *rx = &sb_tcp_of(f)->rx;
	if (rx->unacked && !flush_compressed(fl, f))
		send_ack(fl, f, f->rcv_nxt, rx->echo_t_sent, rx->echo_retx, rx->ce, 0);
}

void tcp_rx_on_syn(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	if (pkt->seq != 0)
		return; /* the handshake's ACK: nothing to do, data follows */
	/* a SYN, or its retransmission: (re)send the SYN-ACK, echoing the SYN's send time */
	sb_tcp_of(f)->rx.syn_seen = true;
	struct sb_packet *a = reply(fl, f, SB_PKT_SYN, 1);
	a->t_sent = pkt->t_sent;
	if (pkt->flags & SB_PF_RETX)
		a->flags |= SB_PF_RETX;
	sb_host_send(fl->net, a);
}
