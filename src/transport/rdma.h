/*
 * rdma.h — RDMA NIC transports: one rate-based, go-back-N engine with pluggable congestion
 * control. The transports `dcqcn`, `hpcc`, `powertcp`, `thetapowertcp` and `timely` are this
 * engine with a control; `rdma` is the engine alone (line rate, PFC as the only brake), and
 * `rdma.cc = false` turns every one of them into `rdma` for a whole run.
 *
 * The engine does what a RoCE NIC does the same way whatever the control:
 *
 *   framing    data packets of rdma.mtu payload + rdma.header_bytes; one ACK (rdma.ack_bytes)
 *              per data packet, in the control queue like TCP's pure ACKs;
 *   sending    each flow is a queue pair (QP) with a rate (initially the NIC's line rate) and
 *              optionally a window on the bytes in flight. The NIC pulls the next packet of a
 *              QP whose rate allows it when the link is free (rdma_nic.h), so pacing needs no
 *              per-packet timer and a PFC-paused priority simply stops being pulled;
 *   receiving  an in-order packet or a duplicate is acknowledged cumulatively; a packet beyond
 *              the expected byte is discarded and answered with a NACK carrying the expected
 *              byte (once per byte per rdma.nack_interval_us);
 *   loss       on a NACK the sender goes back to the NACKed byte and resends everything from
 *              there (go-back-N); a retransmission timeout (rdma.rto_us without progress) is
 *              the safety net for a lost tail. The lossless class normally loses nothing;
 *   DCQCN NP   for controls with `ecn`: data is ECN-capable, and the receiver answers a
 *              CE-marked packet with a CNP, at most one per flow per rdma.dcqcn_cnp_interval_us;
 *   INT        for controls with `telemetry`: every data packet carries an INT record
 *              (engine/telemetry.h), its ACK or NACK echoes it.
 *
 * A congestion control is a struct sb_rdma_cc_ops. It sees every ACK and NACK (with the RTT of
 * the packet it acknowledges and, when asked for, the path's INT), every CNP, and sets the
 * QP's rate and window with sb_rdma_set_rate() and sb_rdma_set_window(). Its state lives in
 * the QP's cc_state. The QP lives in the flow's inline `tx` area: nothing is allocated per
 * flow or per packet.
 *
 * Sequence numbers are 64-bit byte offsets from 0; a flow completes when the ACK of its last
 * byte reaches the sender (the simulator's completion path). The first rdma.first_rtt_bytes
 * (default: one BDP of the path) are tagged SB_PF_FIRST_RTT.
 */
#ifndef SB_RDMA_H
#define SB_RDMA_H

#include <stdbool.h>
#include <stdint.h>
#include "core/time.h"
#include "transport/flow.h"
#include "transport/transport.h"

struct sb_flows;
struct sb_packet;
struct sb_int_rec;
struct sb_rdma_qp;

/* What the sender learns from one ACK or NACK. */
struct sb_rdma_feedback {
	uint64_t ack;                    /* cumulative: every byte below has arrived */
	uint64_t newly_acked;            /* bytes this ACK acknowledged for the first time */
	sb_time rtt;                     /* now − send time of the packet it answers */
	bool nack;                       /* the receiver is missing byte `ack` */
	const struct sb_int_rec *hops;   /* the path's INT (controls with `telemetry`), else NULL */
};

struct sb_rdma_cc_ops {
	const char *name;
	bool ecn;       /* data is ECT and receivers send CNPs (DCQCN) */
	bool telemetry; /* data carries INT records (HPCC, PowerTCP) */
	/* Once at start, after the engine set the QP up at line rate. Optional. */
	void (*init)(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp);
	/* Every ACK and NACK of the flow, after the engine applied it. Optional. */
	void (*on_ack)(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp,
		       const struct sb_rdma_feedback *fb);
	/* Every CNP of the flow. Optional. */
	void (*on_cnp)(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp);
	/* Just before the NIC takes a packet of `wire_bytes` from the QP: lets a control bring
	 * timers it evaluates lazily up to date and count bytes (DCQCN). Optional. */
	void (*on_send)(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, uint32_t wire_bytes);
};

/* Bytes of control-private state inside struct sb_rdma_qp. */
#define SB_RDMA_CC_STATE 112

/* Where a QP is in its NIC's scheduler (rdma_nic.c). */
enum sb_qp_where { SB_QP_IDLE = 0, SB_QP_READY, SB_QP_PACED, SB_QP_BUSY };

struct sb_rdma_qp {
	const struct sb_rdma_cc_ops *cc;
	/* sender: [snd_una, snd_nxt) is in flight; snd_max = highest byte ever sent + 1 */
	uint64_t snd_una, snd_nxt, snd_max;
	uint64_t rate_bps;       /* current rate: the NIC spaces packet starts by size / rate */
	uint64_t line_bps;       /* the NIC's rate, the ceiling of rate_bps */
	uint64_t window;         /* cap on bytes in flight; 0 = none */
	sb_time next_send;       /* the earliest start of the QP's next packet */
	sb_time last_send;       /* start of the last packet (re-pacing on a rate change) */
	sb_time base_rtt;        /* of the flow's path: one full data packet and its ACK, idle */
	sb_time rto_at;          /* retransmission deadline, SB_TIME_NEVER = none */
	uint64_t first_rtt_end;  /* bytes below are tagged SB_PF_FIRST_RTT */
	uint32_t last_wire;      /* wire bytes of the last packet */
	uint32_t mtu;
	uint16_t header;
	uint8_t where;           /* enum sb_qp_where */
	uint32_t link;           /* READY: next QP (flow id) in the ring; PACED: index in the heap */
	/* receiver */
	uint64_t nack_seq;       /* byte the last NACK asked for */
	sb_time nack_next;       /* no second NACK for nack_seq before this */
	sb_time cnp_next;        /* no CNP before this (DCQCN NP) */
	_Alignas(8) unsigned char cc_state[SB_RDMA_CC_STATE];
};

_Static_assert(sizeof(struct sb_rdma_qp) <= sizeof(((struct sb_flow *)0)->tx),
	       "RDMA QP state must fit in the flow's tx area");

static inline struct sb_rdma_qp *sb_rdma_qp_of(struct sb_flow *f) { return (struct sb_rdma_qp *)(void *)f->tx; }
/* The NIC's scheduler still holds the QP by flow id (ops->held): removal is lazy, rdma_nic.h. */
static inline bool sb_rdma_held(const struct sb_flow *f)
{
	return ((const struct sb_rdma_qp *)(const void *)f->tx)->where != SB_QP_IDLE;
}

extern const struct sb_rdma_cc_ops sb_rdma_cc_none, sb_rdma_cc_dcqcn, sb_rdma_cc_hpcc, sb_rdma_cc_powertcp,
	sb_rdma_cc_thetapowertcp, sb_rdma_cc_timely;

/* Entry points: each transport's start() calls sb_rdma_start() with its control; the others
 * are the engine's. */
void sb_rdma_start(struct sb_flows *fl, struct sb_flow *f, const struct sb_rdma_cc_ops *cc);
void sb_rdma_on_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt);
void sb_rdma_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt);
void sb_rdma_on_timer(struct sb_flows *fl, struct sb_flow *f);
struct sb_framing sb_rdma_framing(const struct sb_flows *fl);

/* The transport of a control: all but name, summary and start are the engine's. */
#define SB_RDMA_TRANSPORT(start_fn)                                                   \
	.state_size = sizeof(struct sb_rdma_qp), .start = (start_fn), .on_data = sb_rdma_on_data, \
	.on_ack = sb_rdma_on_ack, .on_timer = sb_rdma_on_timer, .framing = sb_rdma_framing,     \
	.held = sb_rdma_held, .lossless_by_default = true

/* --- for the controls --- */

/* Set the rate, clamped to [rdma.min_rate_mbps, line rate]; the gap before the QP's next
 * packet is re-computed at the new rate. */
void sb_rdma_set_rate(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, double bps);
/* Set the window on bytes in flight (0 = none); at least one MTU. */
void sb_rdma_set_window(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp, uint64_t bytes);
/* rdma.min_rate_mbps in bits/s. */
double sb_rdma_min_bps(const struct sb_flows *fl);

/* --- for the NIC scheduler (rdma_nic.c) --- */

/* The QP has a packet to send if its rate allowed: data left and room in its window. */
static inline bool sb_rdma_sendable(const struct sb_flow *f, const struct sb_rdma_qp *qp)
{
	uint64_t limit = f->size ? f->size : UINT64_MAX;
	return qp->snd_nxt < limit && (!qp->window || qp->snd_nxt - qp->snd_una < qp->window);
}
/* Build the QP's next packet (a new one, or a go-back-N retransmission), stamped now, and
 * advance the QP: snd_nxt, next_send = now + size / rate, the retransmission timer. */
struct sb_packet *sb_rdma_next_packet(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp);

#endif
