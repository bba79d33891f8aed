/*
 * flowtag.h — first-window tagging (SB_MT_FIRST_RTT) of real flows.
 *
 * The simulator's TCP tags the data bytes of a flow whose sequence offset is below its
 * first-window budget (tcp.first_rtt_bytes, or one bandwidth-delay product of the path when
 * 0; src/transport/tcp.c, sb_first_rtt_budget), so retransmissions of those bytes are tagged
 * too. The switch applies the same rule to the TCP segments it sees: a flow (5-tuple) starts
 * at its SYN (the first data byte is the SYN's sequence + 1) or, if the SYN was not seen, at
 * the first segment seen; a segment is tagged when its sequence offset from that start is
 * below the budget. UDP and other IP flows: while fewer than `budget` bytes of payload were
 * seen. A FIN or RST ends the entry.
 *
 * The table is direct-mapped on the 5-tuple hash with a fixed number of entries allocated at
 * start (no allocation per packet): a flow that collides with another one evicts it, and
 * the evicted flow restarts its window when next seen. With a few hundred flows in a
 * 65,536-entry table this is rare; its count is reported (summary.json, flowtag.evictions).
 */
#ifndef SB_DP_FLOWTAG_H
#define SB_DP_FLOWTAG_H

#include <stdbool.h>
#include <stdint.h>
#include "dataplane/frame.h"

struct sb_dp_flow {
	uint8_t key[40];   /* addresses, protocol, ports */
	uint32_t start;    /* first data byte's sequence (TCP), or 0 */
	uint64_t seen;     /* payload bytes seen (other protocols) */
	bool used;
};

struct sb_dp_flowtag {
	struct sb_dp_flow *t;
	uint32_t mask;
	uint64_t budget;   /* bytes of each flow tagged */
	uint64_t evictions, tagged;
};

bool sb_dp_flowtag_init(struct sb_dp_flowtag *ft, uint32_t entries_pow2, uint64_t budget);
void sb_dp_flowtag_fini(struct sb_dp_flowtag *ft);
/* Is this IP packet in its flow's first window? Updates the flow's entry. */
bool sb_dp_flowtag_first(struct sb_dp_flowtag *ft, const uint8_t *frame, const struct sb_frame_info *fi);

#endif
