/*
 * tcp.c — the TCP engine: sender, receiver, loss recovery and RTO (see tcp.h).
 *
 * Deliberate simplifications, all documented in docs/transports.md: connections start open
 * (no handshake), the receiver window is unlimited, every data segment is ACKed at once (no
 * delayed ACK), and there is no SACK, so loss recovery is NewReno's (one hole per RTT during
 * fast recovery, go-back-N after a timeout).
 *
 * Segments always start at multiples of the MSS (a retransmission restarts at snd_una, which
 * a cumulative ACK only ever sets to a segment boundary), so the engine never has to split or
 * merge segments and never divides on the per-packet path.
 */
#include "transport/tcp.h"

#include <string.h>
#include "net/packet.h"
#include "sim/sim.h"

/* RFC 6298 (2.5): an upper bound of at least 60 s. */
#define TCP_MAX_RTO (60 * SB_SEC)

static inline uint64_t tcp_limit(const struct sb_flow *f) { return f->size ? f->size : UINT64_MAX; }

static inline void tcp_cap(struct sb_tcp *tcp)
{
	if (tcp->cwnd < tcp->mss)
		tcp->cwnd = tcp->mss;
	if (tcp->max_cwnd && tcp->cwnd > tcp->max_cwnd)
		tcp->cwnd = tcp->max_cwnd;
}

uint64_t sb_first_rtt_budget(const struct sb_sim *sim, const struct sb_flow *f)
{
	const struct sb_tcp_params *p = &sim->sc->tcp;
	if (p->first_rtt_bytes > 0)
		return (uint64_t)p->first_rtt_bytes;
	sb_time rtt = sb_base_rtt(sim, f->src, f->dst, (uint32_t)(p->mss + p->header_bytes));
	uint64_t bps = sb_bottleneck_bps(sim, f->src, f->dst);
	return (uint64_t)((unsigned __int128)rtt * bps / (8u * (unsigned __int128)SB_SEC));
}

/* --- growth helpers --- */

uint64_t sb_tcp_slow_start(struct sb_tcp *tcp, uint64_t acked)
{
	if (tcp->cwnd >= tcp->ssthresh)
		return acked;
	uint64_t inc = acked < 2u * tcp->mss ? acked : 2u * tcp->mss;
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

/* --- retransmission timer --- */

static void tcp_set_timer(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp, sb_time at)
{
	if (tcp->rto_at == at)
		return;
	tcp->rto_at = at;
	sb_flow_arm_timer(sim, f, at);
}

static void tcp_restart_timer(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp)
{
	if (tcp->snd_una >= tcp->snd_max)
		tcp_set_timer(sim, f, tcp, SB_TIME_NEVER); /* nothing outstanding (RFC 6298 5.2) */
	else
		tcp_set_timer(sim, f, tcp, sb_now(sim) + tcp->rto);
}

/* RFC 6298 (2.2), (2.3) with α = 1/8, β = 1/4 as shifts; G = 0 (picosecond clock). */
static void tcp_rtt_sample(struct sb_tcp *tcp, sb_time r)
{
	if (!tcp->srtt) {
		tcp->srtt = r ? r : 1;
		tcp->rttvar = r / 2;
	} else {
		sb_time err = tcp->srtt > r ? tcp->srtt - r : r - tcp->srtt;
		tcp->rttvar = (3 * tcp->rttvar + err) >> 2;
		tcp->srtt = (7 * tcp->srtt + r) >> 3;
	}
	sb_time rto = tcp->srtt + 4 * tcp->rttvar;
	if (rto < tcp->min_rto)
		rto = tcp->min_rto;
	tcp->rto = rto < TCP_MAX_RTO ? rto : TCP_MAX_RTO;
}

/* --- sender --- */

static void tcp_send_segment(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp, uint64_t seq)
{
	uint64_t left = tcp_limit(f) - seq;
	uint32_t len = left < tcp->mss ? (uint32_t)left : tcp->mss;
	struct sb_packet *p = sb_flow_data_packet(sim, f, seq, len, tcp->header, tcp->first_rtt_end);
	if (seq < tcp->snd_max) {
		p->flags |= SB_PF_RETX;
		f->pkts_retx++;
	}
	f->pkts_sent++;
	if (seq + len > tcp->snd_max)
		tcp->snd_max = seq + len;
	sb_host_send(sim, p);
}

/* Send new (or, after a timeout, go-back-N) segments while the window has room. A segment
 * goes out whenever any window is left, so the effective window is cwnd rounded up to whole
 * segments, as with Linux's packet-counted cwnd. */
static void tcp_send_available(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp)
{
	uint64_t limit = tcp_limit(f);
	uint64_t wnd_end = tcp->snd_una + tcp->cwnd;
	bool sent = false;
	while (tcp->snd_nxt < limit && tcp->snd_nxt < wnd_end) {
		tcp_send_segment(sim, f, tcp, tcp->snd_nxt);
		uint64_t left = limit - tcp->snd_nxt;
		tcp->snd_nxt += left < tcp->mss ? left : tcp->mss;
		sent = true;
	}
	/* RFC 6298 (5.1): start the timer when sending with none running. */
	if (sent && tcp->rto_at == SB_TIME_NEVER)
		tcp_set_timer(sim, f, tcp, sb_now(sim) + tcp->rto);
}

void sb_tcp_init(struct sb_sim *sim, struct sb_flow *f, const struct sb_tcp_cc_ops *cc)
{
	const struct sb_tcp_params *p = &sim->sc->tcp;
	struct sb_tcp *tcp = sb_tcp_of(f);
	memset(tcp, 0, sizeof *tcp);
	tcp->cc = cc;
	tcp->mss = (uint32_t)p->mss;
	tcp->header = (uint32_t)p->header_bytes;
	tcp->max_cwnd = p->max_cwnd_bytes > 0 ? (uint64_t)p->max_cwnd_bytes : 0;
	tcp->cwnd = f->init_window ? f->init_window : (uint64_t)p->init_cwnd_pkts * tcp->mss;
	tcp->ssthresh = UINT64_MAX;
	tcp_cap(tcp);
	tcp->min_rto = sb_time_from_us(p->min_rto_us);
	tcp->rto = sb_time_from_us(p->init_rto_us);
	if (tcp->rto < tcp->min_rto)
		tcp->rto = tcp->min_rto;
	tcp->rto_at = SB_TIME_NEVER;
	if (cc->init)
		cc->init(sim, f, tcp);
}

void sb_tcp_start(struct sb_sim *sim, struct sb_flow *f, const struct sb_tcp_cc_ops *cc)
{
	sb_tcp_init(sim, f, cc);
	sb_tcp_of(f)->first_rtt_end = sb_first_rtt_budget(sim, f);
	tcp_send_available(sim, f, sb_tcp_of(f));
}

/* RFC 6582 step 2 (enter fast retransmit) on the third duplicate ACK. */
static void tcp_fast_retransmit(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp)
{
	tcp->recover = tcp->snd_max;
	tcp->ssthresh = tcp->cc->ssthresh(sim, f, tcp, false);
	tcp->cwnd = tcp->ssthresh + 3u * tcp->mss;
	tcp_cap(tcp);
	tcp->ca_bytes = 0;
	tcp->in_recovery = true;
	tcp->partial_seen = false;
	tcp->cwr_end = tcp->snd_max; /* the window that lost is also the window that would echo CE */
	tcp_send_segment(sim, f, tcp, tcp->snd_una);
	tcp_set_timer(sim, f, tcp, sb_now(sim) + tcp->rto);
}

/* RFC 3168 6.1.2: halve at most once per window of data on an ECN echo. */
static void tcp_ecn_halve(struct sb_sim *sim, struct sb_flow *f, struct sb_tcp *tcp)
{
	if (tcp->in_recovery || tcp->snd_una < tcp->cwr_end)
		return;
	tcp->ssthresh = tcp->cc->ssthresh(sim, f, tcp, false);
	tcp->cwnd = tcp->ssthresh;
	tcp_cap(tcp);
	tcp->ca_bytes = 0;
	tcp->cwr_end = tcp->snd_max;
}

void sb_tcp_on_ack(struct sb_sim *sim, struct sb_flow *f, struct sb_packet *pkt)
{
	struct sb_tcp *tcp = sb_tcp_of(f);
	uint64_t ack = pkt->seq;
	bool ece = pkt->flags & SB_PF_ECE;

	if (ack > tcp->snd_una) {
		uint64_t acked = ack - tcp->snd_una;
		tcp->snd_una = ack;
		if (tcp->snd_nxt < ack)
			tcp->snd_nxt = ack; /* go-back-N: the receiver already had these bytes */
		/* Karn: the receiver flags ACKs of retransmitted segments. */
		if (!(pkt->flags & SB_PF_RETX))
			tcp_rtt_sample(tcp, sb_now(sim) - pkt->t_sent);
		tcp->dupacks = 0;
		if (tcp->cc->on_ecn)
			tcp->cc->on_ecn(sim, f, tcp, acked, ece);
		else if (ece)
			tcp_ecn_halve(sim, f, tcp);

		if (tcp->in_recovery) {
			if (ack >= tcp->recover) {
				/* Full ACK, RFC 6582 step 3 option (1): min(ssthresh, FlightSize + MSS)
				 * avoids a burst when the flight is small. */
				uint64_t flight = tcp->snd_max - tcp->snd_una;
				uint64_t w = flight + tcp->mss;
				tcp->cwnd = w < tcp->ssthresh ? w : tcp->ssthresh;
				tcp_cap(tcp);
				tcp->in_recovery = false;
				tcp_restart_timer(sim, f, tcp);
			} else {
				/* Partial ACK: retransmit the next hole, deflate by the acked amount and
				 * add back one MSS (RFC 6582 step 4). */
				tcp_send_segment(sim, f, tcp, tcp->snd_una);
				tcp->cwnd = tcp->cwnd > acked ? tcp->cwnd - acked : 0;
				if (acked >= tcp->mss)
					tcp->cwnd += tcp->mss;
				tcp_cap(tcp);
				if (!tcp->partial_seen) {
					tcp->partial_seen = true;
					tcp_restart_timer(sim, f, tcp);
				}
			}
		} else {
			tcp->cc->on_ack(sim, f, tcp, acked);
			tcp_cap(tcp);
			tcp_restart_timer(sim, f, tcp);
		}
	} else if (ack == tcp->snd_una && tcp->snd_una < tcp->snd_max) {
		if (tcp->in_recovery) {
			tcp->cwnd += tcp->mss; /* each duplicate means a segment left the network */
			if (tcp->max_cwnd && tcp->cwnd > tcp->max_cwnd + 3u * tcp->mss)
				tcp->cwnd = tcp->max_cwnd + 3u * tcp->mss;
		} else if (++tcp->dupacks == 3 && ack >= tcp->recover) {
			/* ack < recover: duplicates caused by our own go-back-N after a timeout
			 * (RFC 6582 step 2), not a new loss. */
			tcp_fast_retransmit(sim, f, tcp);
		}
	} else {
		return; /* older than snd_una: reordered or stale */
	}
	tcp_send_available(sim, f, tcp);
}

void sb_tcp_on_timer(struct sb_sim *sim, struct sb_flow *f)
{
	struct sb_tcp *tcp = sb_tcp_of(f);
	sb_time now = sb_now(sim);
	if (tcp->rto_at == SB_TIME_NEVER)
		return;
	if (now < tcp->rto_at) {
		sb_flow_arm_timer(sim, f, tcp->rto_at); /* stale firing: keep our deadline */
		return;
	}
	tcp->rto_at = SB_TIME_NEVER;
	if (tcp->snd_una >= tcp->snd_max)
		return;

	f->timeouts++;
	/* RFC 5681 (4) / RFC 6582: the flight before the timeout sets ssthresh and recover; the
	 * whole flight is resent from snd_una, one segment first (cwnd = loss window). */
	tcp->ssthresh = tcp->cc->ssthresh(sim, f, tcp, true);
	tcp->cwnd = tcp->mss;
	tcp->ca_bytes = 0;
	tcp->recover = tcp->snd_max;
	tcp->cwr_end = tcp->snd_max;
	tcp->in_recovery = false;
	tcp->dupacks = 0;
	tcp->snd_nxt = tcp->snd_una;
	/* RFC 6298 (5.5): back off. */
	tcp->rto = tcp->rto * 2 < TCP_MAX_RTO ? tcp->rto * 2 : TCP_MAX_RTO;
	tcp_send_available(sim, f, tcp);
}

/* --- receiver --- */

/* Record [seq, end) above rcv_nxt. The ranges are sorted, disjoint and never touch. Returns
 * false when keeping it would need more than SB_OOO_RANGES ranges (the segment is dropped and
 * the sender will retransmit it). */
static bool ooo_insert(struct sb_ooo *o, uint64_t seq, uint64_t end)
{
	unsigned i = 0;
	while (i < o->n && o->end[i] < seq)
		i++;
	if (i < o->n && o->start[i] <= end) {
		/* overlaps or touches range i: widen it, then swallow the ranges it now reaches */
		if (seq < o->start[i])
			o->start[i] = seq;
		if (end > o->end[i])
			o->end[i] = end;
		unsigned j = i + 1;
		while (j < o->n && o->start[j] <= o->end[i]) {
			if (o->end[j] > o->end[i])
				o->end[i] = o->end[j];
			j++;
		}
		unsigned gone = j - (i + 1);
		if (gone) {
			memmove(&o->start[i + 1], &o->start[j], (o->n - j) * sizeof o->start[0]);
			memmove(&o->end[i + 1], &o->end[j], (o->n - j) * sizeof o->end[0]);
			o->n = (uint8_t)(o->n - gone);
		}
		return true;
	}
	if (o->n == SB_OOO_RANGES)
		return false;
	memmove(&o->start[i + 1], &o->start[i], (o->n - i) * sizeof o->start[0]);
	memmove(&o->end[i + 1], &o->end[i], (o->n - i) * sizeof o->end[0]);
	o->start[i] = seq;
	o->end[i] = end;
	o->n++;
	return true;
}

/* rcv_nxt advanced: absorb the out-of-order ranges it now reaches. */
static void ooo_advance(struct sb_flow *f)
{
	struct sb_ooo *o = &f->ooo;
	unsigned k = 0;
	while (k < o->n && o->start[k] <= f->rcv_nxt) {
		if (o->end[k] > f->rcv_nxt)
			f->rcv_nxt = o->end[k];
		k++;
	}
	if (k) {
		memmove(&o->start[0], &o->start[k], (o->n - k) * sizeof o->start[0]);
		memmove(&o->end[0], &o->end[k], (o->n - k) * sizeof o->end[0]);
		o->n = (uint8_t)(o->n - k);
	}
}

void sb_tcp_on_data(struct sb_sim *sim, struct sb_flow *f, struct sb_packet *pkt)
{
	uint64_t seq = pkt->seq, end = seq + pkt->payload;
	if (end > f->rcv_nxt) {
		if (seq <= f->rcv_nxt) {
			f->rcv_nxt = end;
			if (f->ooo.n)
				ooo_advance(f);
			f->bytes_received = f->rcv_nxt;
		} else {
			(void)ooo_insert(&f->ooo, seq, end);
		}
	}

	/* One pure ACK per segment, echoing its timestamp, CE and retransmission status. */
	const struct sb_tcp_params *tp = &sim->sc->tcp;
	struct sb_packet *a = sb_packet_new(sim);
	a->type = SB_PKT_ACK;
	a->lane = SB_LANE_CONTROL; /* pure ACKs bypass the buffer (the artifacts' queue 0) */
	a->seq = f->rcv_nxt;
	a->size = (uint32_t)tp->ack_bytes;
	a->flow = f->id;
	a->src = f->dst;
	a->dst = f->src;
	a->hash = f->hash;
	a->prio = f->prio;
	a->t_sent = pkt->t_sent;
	uint8_t flags = 0;
	if (pkt->flags & SB_PF_CE)
		flags |= SB_PF_ECE;
	if (pkt->flags & SB_PF_RETX)
		flags |= SB_PF_RETX;
	if (f->lossless)
		flags |= SB_PF_LOSSLESS;
	a->flags = flags;
	sb_host_send(sim, a);

	if (f->size && !f->done && f->rcv_nxt >= f->size)
		sb_flow_received(sim, f);
}
