/*
 * packet.h — the packet: a plain struct that travels hop by hop.
 *
 * One struct serves data segments, ACKs (and RDMA's NACKs and CNPs) and control frames
 * (PFC). It is 64 bytes and comes from the simulation's packet pool (never malloc'd per
 * packet), which gives every object of more than 32 bytes a 64-byte aligned slot, so a packet
 * never straddles two cache lines. Fields are ordered by size to avoid padding. Headers are
 * not modelled byte by byte: `size` is the number of bytes on the wire (payload + header
 * overhead), which is what links serialise and what buffers account.
 */
#ifndef SB_PACKET_H
#define SB_PACKET_H

#include <stdint.h>
#include "core/time.h"

#define SB_NPRIO 8 /* data priorities (queues) per port, 0..7 */

enum sb_pkt_type {
	SB_PKT_DATA = 0, /* transport payload */
	SB_PKT_ACK,      /* pure ACK (no payload) */
	SB_PKT_PFC,      /* 802.1Qbb PAUSE/RESUME frame, hop-local */
	SB_PKT_NACK,     /* RDMA negative ACK: go back to `seq` (also a cumulative ACK of seq) */
	SB_PKT_CNP,      /* RDMA congestion notification packet (DCQCN) */
	SB_PKT_SYN,      /* TCP handshake, `seq` = step: 0 SYN, 1 SYN-ACK, 2 the ACK */
};

/* Which queue a packet travels in at every port it crosses (sb_port_enqueue). The type does not
 * decide it: TCP's pure ACKs, SYNs and PFC frames take the control lane, but an RDMA NIC's ACKs,
 * NACKs and CNPs go in the data queue of their flow's priority when rdma.ack_path says so, as
 * real RoCE NICs and the Reverie artifact send them. Zero is DATA, so a packet fresh from the
 * pool travels as data unless its maker says otherwise. */
enum sb_pkt_lane {
	SB_LANE_DATA = 0,  /* the data queue of `prio`: charged to the switch's MMU, stopped by PFC */
	SB_LANE_CONTROL,   /* the control queue: served first, never paused, never charged */
};

enum sb_pkt_flags {
	SB_PF_ECT = 1u << 0,       /* ECN-capable transport */
	SB_PF_CE = 1u << 1,        /* congestion experienced (set by a switch) */
	SB_PF_ECE = 1u << 2,       /* ACK echoes CE of the segment it acknowledges */
	SB_PF_FIRST_RTT = 1u << 3, /* segment in its flow's first window ("unscheduled" bytes) */
	SB_PF_LOSSLESS = 1u << 4,  /* belongs to a lossless (PFC) class */
	SB_PF_PAUSE = 1u << 5,     /* PFC frame: pause (set) or resume (clear) */
	SB_PF_RETX = 1u << 6,      /* retransmission (statistics only) */
	SB_PF_PORT_LEVEL = 1u << 7,/* PFC frame: port-level (DSH), kept apart from per-priority pauses */
};

struct sb_packet {
	struct sb_packet *next; /* FIFO link: egress queue, link pipeline or pool free list */
	sb_time t_sent;         /* when the transport sent it (echoed by ACKs for RTT samples) */
	uint64_t seq;           /* data: first payload byte; ACK: cumulative ack; PFC: unused */
	uint32_t flow;          /* flow index (sb_flow.id); PFC: priority mask */
	uint32_t size;          /* bytes on the wire */
	uint32_t src, dst;      /* host indices */
	uint32_t hash;          /* per-flow hash for ECMP */
	union {
		uint16_t payload; /* data: transport payload bytes (0 for ACK and PFC) */
		/* TCP ACK: its SACK block, a run of segments held above the cumulative ACK
		 * (transport/tcp_rx.c), coded by sb_sack_code; 0 = none */
		uint16_t sack;
	};
	uint16_t in_port;       /* ingress port at the switch currently holding it */
	uint8_t prio;           /* 0..7 */
	uint8_t type;           /* enum sb_pkt_type */
	uint8_t flags;          /* enum sb_pkt_flags */
	uint8_t lane;           /* enum sb_pkt_lane */
	uint32_t int_id;        /* INT record handle (engine/telemetry.h), 0 = none; the packet owns it */
	sb_time t_next_arrive;  /* on a link: when the packet behind it (p->next) arrives (port.h) */
};

_Static_assert(sizeof(struct sb_packet) <= 64, "a packet must fit one cache line");

/* A TCP ACK's SACK block in 16 bits: the first segment's offset in MSS above the cumulative ACK
 * (1 .. 8191, the low 13 bits) and the run's length less one (the high 3 bits: 1 .. 8
 * segments). An ACK for one out-of-order segment codes its offset alone, so the block is the
 * plain offset unless a compressed ACK (tcp.sack_compress_nr) reports a longer run. */
#define SB_SACK_OFFSET_BITS 13
#define SB_SACK_OFFSET_MAX ((1u << SB_SACK_OFFSET_BITS) - 1)
#define SB_SACK_RUN_MAX 8u
static inline uint16_t sb_sack_code(uint32_t offset, uint32_t segs)
{
	return (uint16_t)(offset | (segs - 1) << SB_SACK_OFFSET_BITS);
}
static inline uint32_t sb_sack_offset(uint16_t sack) { return sack & SB_SACK_OFFSET_MAX; }
static inline uint32_t sb_sack_segs(uint16_t sack) { return (uint32_t)(sack >> SB_SACK_OFFSET_BITS) + 1; }

#endif
