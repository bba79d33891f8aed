/*
 * proto.h — the load generator's wire format and the Linux names of the scenario's transports.
 *
 * A flow of the testbed is a request: the host that receives the flow's data (the
 * simulator's flow destination) asks the flow's source for N bytes over TCP, and the
 * source's server sends exactly N bytes back (N = 0: it sends until the connection closes,
 * a long-lived flow). The request is one fixed-size record, so a server needs no parser:
 *
 *   bytes 0..3   magic "SBL1" (a stray connection is refused, not served)
 *   byte  4      priority 0..7: the server sends the response with DSCP = prio << 3, so
 *                the switch queues it in priority prio (DSCP >> 3, docs/testbed.md)
 *   bytes 5..7   zero
 *   bytes 8..15  N, unsigned big-endian
 *   bytes 16..31 the Linux congestion control the server sets on the connection before it
 *                sends (NUL-padded; empty = the namespace's default), since the sender's
 *                congestion control is the one that matters
 */
#ifndef SB_LOAD_PROTO_H
#define SB_LOAD_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_LOAD_REQ_BYTES 32
#define SB_LOAD_CC_LEN 16

struct sb_load_req {
	uint8_t prio;
	uint64_t size;                 /* 0 = until the connection closes */
	char cc[SB_LOAD_CC_LEN];       /* NUL-terminated, "" = default */
};

/* Encode r into buf (SB_LOAD_REQ_BYTES). */
void sb_load_req_encode(const struct sb_load_req *r, uint8_t buf[SB_LOAD_REQ_BYTES]);
/* Decode buf into r; -1 when it is not a request (bad magic, priority > 7, nonzero padding,
 * a congestion-control name without its NUL). */
int sb_load_req_decode(const uint8_t buf[SB_LOAD_REQ_BYTES], struct sb_load_req *r);

/* The Linux congestion control (TCP_CONGESTION) that plays the simulator's transport
 * `name`: dctcp -> "dctcp", newreno -> "reno", cubic -> "cubic"; NULL for a transport the
 * testbed cannot play with a kernel TCP (cbr, the RDMA ones). */
const char *sb_load_linux_cc(const char *name);

/* The IP TOS byte of priority prio: DSCP = prio << 3 in its upper six bits, ECN bits 0
 * (the kernel sets ECT itself when ECN is on). */
static inline int sb_load_tos(unsigned prio) { return (int)((prio & 7u) << 5); }

#endif
