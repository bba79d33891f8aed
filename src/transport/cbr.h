/*
 * cbr.h — an unresponsive constant-bit-rate source.
 *
 * The sender emits `packet_bytes` wire-size packets (payload = packet_bytes − header_bytes)
 * every packet_bytes × 8 / rate_bps seconds from the flow's start, paced by the flow timer,
 * until f->size payload bytes are sent (forever when f->size is 0). It ignores congestion and
 * never retransmits; the receiver sends no ACKs and only counts payload bytes. A CBR flow that
 * loses a packet therefore never completes (it stays "unfinished" in the results); lossless
 * classes or a large enough buffer are needed for a finite CBR flow to finish.
 */
#ifndef SB_CBR_H
#define SB_CBR_H

#include <stdint.h>
#include "transport/flow.h"

struct sb_flows;

/* Call right after sb_flow_create (before the flow starts). Unconfigured flows send at their
 * path's bottleneck rate with full-size (mss + header_bytes) packets. */
void sb_cbr_configure(struct sb_flow *f, uint64_t rate_bps, uint32_t packet_bytes);

#endif
