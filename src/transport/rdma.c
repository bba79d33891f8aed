/*
 * rdma.c — the RDMA engine: queue-pair sender, receiver, go-back-N, the retransmission
 * timer, DCQCN's notification point, and the `rdma` transport without congestion control
 * (see rdma.h).
 *
 * Deliberate simplifications, documented in docs/transports.md: queue pairs are modelled as
 * already connected; one ACK per data packet (no coalescing); the receiver keeps nothing
 * beyond the expected byte (go-back-N, as RoCE NICs do); INT bytes are not added to the wire
 * size.
 */
#include "transport/rdma.h"

#include <string.h>
#include "engine/packet.h"
#include "transport/flows.h"
#include "transport/rdma_nic.h"

static inline uint64_t qp_limit(const struct sb_flow *f) { return f->size ? f->size : UINT64_MAX; }

struct sb_framing sb_rdma_framing(const struct sb_flows *fl)
{
	const struct sb_rdma_params *r = fl->rdma;
	return (struct sb_framing){ (uint32_t)r->mtu, (uint32_t)r->header_bytes, (uint32_t)r->ack_bytes };
}

double sb_rdma_min_bps(const struct sb_flows *fl) { return fl->rdma->min_rate_mbps * 1e6; }

/* --- rate, window, timer --- */

void sb_rdma_set_rate(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, double bps)
{
	double lo = sb_rdma_min_bps(fl), hi = (double)qp->line_bps;
	if (lo > hi)
		lo = hi;
	if (!(bps >= lo)) /* also catches NaN */
		bps = lo;
	if (bps > hi)
		bps = hi;
	uint64_t rate = (uint64_t)(bps + 0.5);
	if (rate == qp->rate_bps)
		return;
	qp->rate_bps = rate;
	/* The gap after the last packet now runs at the new rate, as a NIC's rate limiter would
	 * re-time the pending packet; the QP is never due before its last packet left. */
	if (qp->last_wire) {
		qp->next_send = qp->last_send + sb_tx_time(qp->last_wire, rate);
		sb_rdma_nic_repace(fl, f, qp);
	}
}

void sb_rdma_set_window(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, uint64_t bytes)
{
	if (bytes && bytes < qp->mtu)
		bytes = qp->mtu;
	bool opened = !bytes || (qp->window && bytes > qp->window);
	qp->window = bytes;
	if (opened)
		sb_rdma_nic_activate(fl, f, qp);
}

static void set_rto(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, sb_time at)
{
	if (qp->rto_at == at)
		return;
	qp->rto_at = at;
	sb_flow_arm_timer(fl, f, at);
}

static inline sb_time rto_span(const struct sb_flows *fl) { return sb_time_from_us(fl->rdma->rto_us); }

/* --- sender --- */

struct sb_packet *sb_rdma_next_packet(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	uint64_t seq = qp->snd_nxt, left = qp_limit(f) - seq;
	uint32_t len = left < qp->mtu ? (uint32_t)left : qp->mtu;
	if (qp->cc->on_send)
		qp->cc->on_send(fl, f, qp, len + qp->header);
	struct sb_packet *p = sb_flow_data_packet(fl, f, seq, len, qp->header, qp->first_rtt_end);
	if (seq < qp->snd_max) {
		p->flags |= SB_PF_RETX;
		f->pkts_retx++;
	}
	if (qp->cc->telemetry)
		p->int_id = sb_int_alloc(&fl->net->engine.telemetry);
	f->pkts_sent++;
	fl->net->stats.pkts_sent++; /* the NIC takes it now: sb_host_send's count for pulled packets */
	qp->snd_nxt = seq + len;
	if (qp->snd_nxt > qp->snd_max)
		qp->snd_max = qp->snd_nxt;
	sb_time now = sb_now(&fl->net->engine);
	qp->last_send = now;
	qp->last_wire = p->size;
	qp->next_send = now + sb_tx_time(p->size, qp->rate_bps);
	if (qp->rto_at == SB_TIME_NEVER)
		set_rto(fl, f, qp, now + rto_span(fl));
	return p;
}

/* Bytes tagged "first RTT": rdma.first_rtt_bytes, or one bandwidth-delay product of the path. */
static uint64_t first_rtt_budget(const struct sb_flows *fl, const struct sb_flow *f, sb_time base_rtt)
{
	if (fl->rdma->first_rtt_bytes > 0)
		return (uint64_t)fl->rdma->first_rtt_bytes;
	uint64_t bps = sb_bottleneck_bps(fl->net, f->src, f->dst);
	return (uint64_t)((unsigned __int128)base_rtt * bps / (8u * (unsigned __int128)SB_SEC));
}

void sb_rdma_start(struct sb_flows *fl, struct sb_flow *f, const struct sb_rdma_cc_ops *cc)
{
	const struct sb_rdma_params *r = fl->rdma;
	struct sb_rdma_qp *qp = sb_rdma_qp_of(f);
	memset(qp, 0, sizeof *qp);
	qp->cc = r->cc ? cc : &sb_rdma_cc_none;
	qp->mtu = (uint32_t)r->mtu;
	qp->header = (uint16_t)r->header_bytes;
	qp->line_bps = fl->net->hosts[f->src]->node.ports[0].rate_bps;
	qp->rate_bps = qp->line_bps; /* RDMA NICs start at line rate (all the artifacts) */
	qp->base_rtt = sb_path_rtt(fl->net, f->src, f->dst, qp->mtu + qp->header, (uint32_t)r->ack_bytes);
	qp->first_rtt_end = first_rtt_budget(fl, f, qp->base_rtt);
	qp->next_send = sb_now(&fl->net->engine);
	qp->rto_at = SB_TIME_NEVER;
	qp->nack_seq = UINT64_MAX;
	f->ecn = qp->cc->ecn;
	if (qp->cc->init)
		qp->cc->init(fl, f, qp);
	sb_rdma_nic_activate(fl, f, qp);
}

void sb_rdma_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	struct sb_rdma_qp *qp = sb_rdma_qp_of(f);
	/* A CNP, or an ACK carrying one (rdma.cnp = ack: the receiver flags it with ECE only when
	 * a CNP is due), reaches the control before the ACK's own news, as the artifacts handle
	 * the ACK's CNP bit before the rate update of the ACK. */
	if (pkt->type == SB_PKT_CNP || (pkt->flags & SB_PF_ECE && fl->rdma->cnp == SB_RDMA_CNP_ACK)) {
		if (qp->cc->on_cnp && !f->completed)
			qp->cc->on_cnp(fl, f, qp);
		if (pkt->type == SB_PKT_CNP)
			return;
	}
	if (f->completed)
		return; /* a late duplicate */
	sb_time now = sb_now(&fl->net->engine);
	uint64_t ack = pkt->seq, newly = 0;
	if (ack > qp->snd_una) {
		newly = ack - qp->snd_una;
		qp->snd_una = ack;
		if (qp->snd_nxt < ack)
			qp->snd_nxt = ack; /* went back, but the receiver had these already */
	}
	bool nack = pkt->type == SB_PKT_NACK;
	bool went_back = nack && ack == qp->snd_una && ack < qp->snd_nxt;
	if (went_back)
		qp->snd_nxt = ack; /* go-back-N: resend everything from the missing byte */

	/* The timer runs while data is outstanding and restarts on progress, and on a go-back so
	 * that the retransmission has a full timeout to be acknowledged. */
	if (qp->snd_una >= qp->snd_max)
		set_rto(fl, f, qp, SB_TIME_NEVER);
	else if (newly || went_back)
		set_rto(fl, f, qp, now + rto_span(fl));

	/* State first, control second: the control may re-pace the QP, and the NIC may pull it
	 * at once, so everything it reads must already be current. */
	if (qp->cc->on_ack) {
		struct sb_rdma_feedback fb = {
			.ack = ack, .newly_acked = newly, .rtt = now - pkt->t_sent, .nack = nack,
			.hops = pkt->int_id ? sb_int_get(&fl->net->engine.telemetry, pkt->int_id) : NULL,
		};
		qp->cc->on_ack(fl, f, qp, &fb);
	}
	sb_rdma_nic_activate(fl, f, qp);
}

void sb_rdma_on_timer(struct sb_flows *fl, struct sb_flow *f)
{
	struct sb_rdma_qp *qp = sb_rdma_qp_of(f);
	sb_time now = sb_now(&fl->net->engine);
	if (qp->rto_at == SB_TIME_NEVER)
		return;
	if (now < qp->rto_at) {
		sb_flow_arm_timer(fl, f, qp->rto_at); /* stale firing: keep our deadline */
		return;
	}
	qp->rto_at = SB_TIME_NEVER;
	if (f->completed || qp->snd_una >= qp->snd_max)
		return;
	f->timeouts++;
	qp->snd_nxt = qp->snd_una;
	set_rto(fl, f, qp, now + rto_span(fl));
	sb_rdma_nic_activate(fl, f, qp);
}

/* --- receiver --- */

/* An ACK, NACK or CNP from the receiver back to the sender, in the lane given. */
static inline struct sb_packet *feedback_packet(struct sb_flows *fl, struct sb_flow *f, uint8_t type,
						uint32_t size, uint8_t lane)
{
	return sb_flow_control_packet(fl, f, type, f->rcv_nxt, size, lane, true);
}

void sb_rdma_on_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	const struct sb_rdma_params *r = fl->rdma;
	struct sb_rdma_qp *qp = sb_rdma_qp_of(f);
	sb_time now = sb_now(&fl->net->engine);
	uint8_t type = SB_PKT_ACK;
	bool answer = true;
	if (pkt->seq == f->rcv_nxt) {
		f->rcv_nxt += pkt->payload;
		f->bytes_received = f->rcv_nxt;
	} else if (pkt->seq > f->rcv_nxt) {
		/* A hole: go-back-N keeps nothing out of order. One NACK per missing byte position,
		 * repeated only after the interval (the packets still in flight behind the lost one
		 * would otherwise each send the sender back again). */
		if (f->rcv_nxt == qp->nack_seq && now < qp->nack_next) {
			answer = false;
		} else {
			type = SB_PKT_NACK;
			qp->nack_seq = f->rcv_nxt;
			qp->nack_next = now + sb_time_from_us(r->nack_interval_us);
			fl->stats.rdma_nacks++;
		}
	} /* below rcv_nxt: a duplicate of a go-back-N resend, acknowledged cumulatively */

	/* DCQCN notification point: CE → CNP, at most one per flow per interval; as a packet of
	 * its own, or as a flag in this packet's ACK (none if no ACK answers it, as in the
	 * artifacts, whose CNP is a bit of the ACK). */
	bool cnp = (pkt->flags & SB_PF_CE) && qp->cc->ecn && now >= qp->cnp_next &&
		   (answer || r->cnp == SB_RDMA_CNP_PACKET);
	if (cnp) {
		qp->cnp_next = now + sb_time_from_us(r->dcqcn_cnp_interval_us);
		fl->stats.rdma_cnps++;
	}
	if (answer) {
		uint8_t lane = r->ack_path == SB_ACK_PATH_CONTROL ? SB_LANE_CONTROL : SB_LANE_DATA;
		struct sb_packet *a = feedback_packet(fl, f, type, (uint32_t)r->ack_bytes, lane);
		a->t_sent = pkt->t_sent;
		/* ECE echoes CE with separate CNPs (no control reads it then); with rdma.cnp = ack it
		 * is the CNP itself, so it is set only when one is due. */
		if (r->cnp == SB_RDMA_CNP_ACK ? cnp : (pkt->flags & SB_PF_CE) != 0)
			a->flags |= SB_PF_ECE;
		if (pkt->flags & SB_PF_RETX)
			a->flags |= SB_PF_RETX;
		a->int_id = pkt->int_id; /* the ACK carries the INT record back */
		pkt->int_id = 0;
		sb_host_send(fl->net, a);
	}
	/* A separate CNP takes the control lane: NICs send CNPs on a high, strict priority. */
	if (cnp && r->cnp == SB_RDMA_CNP_PACKET)
		sb_host_send(fl->net, feedback_packet(fl, f, SB_PKT_CNP, (uint32_t)r->cnp_bytes, SB_LANE_CONTROL));
	if (f->size && !f->done && f->rcv_nxt >= f->size)
		sb_flow_received(fl, f);
}

/* --- no congestion control --- */

const struct sb_rdma_cc_ops sb_rdma_cc_none = { .name = "none" };

static void rdma_start(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &sb_rdma_cc_none); }

const struct sb_transport_ops sb_transport_rdma = {
	.name = "rdma",
	.summary = "RDMA NIC without congestion control: line rate, go-back-N, PFC as the only brake",
	SB_RDMA_TRANSPORT(rdma_start),
};
