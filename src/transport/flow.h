/*
 * flow.h — a flow: one transfer from a source host to a destination host.
 *
 * The simulator holds both ends of a connection in one struct (sender state at the source,
 * receiver state at the destination) because nothing is gained by splitting them in a
 * simulation. Transport-specific state lives in the inline `tx` area (no allocation per flow
 * beyond the flow table's chunk). Its 2 KB is TCP's need: the sender's SACK scoreboard
 * (transport/tcp.h, 1 KB of SACK bits and 32 send runs) is most of it; RDMA and CBR use a
 * fraction. A TCP connection may open
 * with a handshake (tcp.handshake); the other transports start open.
 */
#ifndef SB_FLOW_H
#define SB_FLOW_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/time.h"

enum sb_flow_kind {
	SB_KIND_BACKGROUND = 0,
	SB_KIND_INCAST,
	SB_KIND_LONGLIVED,
	SB_KIND_CBR,
	SB_KIND_FILE,
	SB_KIND_BURST,
	SB_KIND_N
};
extern const char *const sb_flow_kind_name[SB_KIND_N];

struct sb_transport_ops;

/* Out-of-order segments held by a TCP receiver above rcv_nxt: one bit per segment (segments
 * start at multiples of the MSS), a ring whose slot `base` is the segment at rcv_nxt. A
 * segment more than SB_OOO_SEGS segments above rcv_nxt is discarded (a receive window of
 * SB_OOO_SEGS segments for out-of-order data). */
#define SB_OOO_SEGS 8192
struct sb_ooo {
	uint32_t base; /* any while n = 0 */
	uint32_t n;    /* segments held: first, beside rcv_nxt, since every segment reads it */
	uint64_t bits[SB_OOO_SEGS / 64];
};

/* Laid out by use, 64-byte aligned (flows come from aligned slabs, transport/flow_table.c): line 0 is
 * what both ends read per packet, line 1 what the sender adds up per packet and its timer, line 2
 * the receiver's sequence state (the held-segment bitmap after it is read only when segments
 * arrive out of order); the transport's state follows. In a large network each line is a
 * likely cache miss per packet. */
struct sb_flow {
	_Alignas(64) uint32_t id;
	uint32_t src, dst;       /* host indices */
	uint32_t in_network;     /* its packets that exist (made, not yet delivered or dropped):
				  * the flow is released only at 0 (transport/flow_table.h) */
	uint64_t size;           /* payload bytes; 0 = unbounded (runs until the simulation ends) */
	uint8_t prio;
	uint8_t lossless;
	uint8_t kind;            /* enum sb_flow_kind */
	bool done;               /* receiver has every byte */
	bool completed;          /* the sender knows it (last byte acknowledged): FCT is taken here */
	bool ecn;                /* sender marks its packets ECT */
	bool rx_counted;         /* throughput sampling has its received bytes (sim/report_rx.c) */
	int32_t query_id;        /* incast query this response belongs to, -1 if none */
	uint32_t hash;           /* ECMP hash of the flow */
	sb_time start;           /* when the first byte may be sent */
	sb_time finish;          /* when the flow completed (the sender knows; see `completed`) */
	sb_time received;        /* when the receiver had every byte (valid once `done`) */
	uint64_t init_window;    /* initial window in bytes, 0 = transport default */
	const struct sb_transport_ops *ops;

	/* timer: one pending event per flow at most (see sb_flow_arm_timer) */
	sb_time timer_at;        /* deadline the transport wants; SB_TIME_NEVER = none */
	sb_time timer_scheduled; /* deadline of the pending event; SB_TIME_NEVER = none */

	/* sender statistics */
	uint64_t pkts_sent, pkts_retx, timeouts;

	/* receiver */
	uint64_t rcv_nxt;        /* next in-order byte expected */
	uint64_t bytes_received; /* unique payload bytes delivered in order */
	struct sb_ooo ooo;

	/* transport-private state (TCP, CBR, RDMA…) */
	_Alignas(64) unsigned char tx[2112]; /* from a line: its owner lays it out by line */
};
_Static_assert(offsetof(struct sb_flow, timer_at) < 128 && offsetof(struct sb_flow, ooo.n) < 192,
	       "flow: the sender's and the receiver's per-packet fields sit in lines 1 and 2");


#endif
