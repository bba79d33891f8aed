/*
 * swport.h — an egress port of the software switch: 8 priority FIFOs, a control FIFO, the
 * scheduler, ECN marking tables and the shaper.
 *
 * The scheduler and the marking are the simulator's own (net/sched.h), called with what a
 * switch port of the software switch has: no PFC pause (it sends none) and no pull source. The
 * control FIFO is served first; then, by switch.sched, strict priority, packet-by-packet round
 * robin or deficit round robin with the port profile's quanta. For the same queue contents the
 * simulator's port and this one pick the same packets in the same order and keep the same
 * deficits (tests/test_dataplane_sched.c runs both, and both against the definitions).
 *
 * The data FIFOs hold only packets the MMU admitted; the control FIFO holds frames that are
 * not charged to the shared buffer (not IP, or flooded), bounded by a count.
 */
#ifndef SB_DP_SWPORT_H
#define SB_DP_SWPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "core/rng.h"
#include "dataplane/pktbuf.h"
#include "dataplane/shaper.h"
#include "mmu/mmu.h"
#include "net/sched.h"

struct sb_dp_fifo {
	struct sb_dp_pkt *head, *tail;
	uint64_t bytes;
	uint32_t pkts;
};

/* Counters of one (port, priority) egress queue. */
struct sb_dp_qstats {
	uint64_t enq_pkts, enq_bytes;   /* admitted */
	uint64_t deq_pkts, deq_bytes;   /* started transmission */
	uint64_t ecn_marked;
	uint64_t drops[SB_DROP_NCAUSES];/* refused by the MMU (per cause) or expelled */
};

struct sb_swport {
	struct sb_dp_fifo q[SB_MMU_NPRIO];
	struct sb_dp_fifo ctrl;
	uint32_t ctrl_limit;       /* frames the control FIFO may hold */
	uint8_t backlog;           /* bit p set = q[p] non-empty */
	uint8_t sched;             /* SB_SCHED_SP / DRR / RR (sim/scenario.h) */
	struct sb_sched_turn turn; /* DRR, RR: whose turn it is */
	int32_t deficit[SB_MMU_NPRIO];
	struct sb_port_profile profile; /* quanta, marking tables, where marking happens */
	struct sb_dp_shaper shaper;
	struct sb_dp_qstats qs[SB_MMU_NPRIO];
	uint64_t ctrl_enq, ctrl_tx, ctrl_drops;
	uint64_t tx_pkts, tx_bytes; /* everything started, data and control */
};

void sb_swport_init(struct sb_swport *p, uint8_t sched, const uint32_t quantum[SB_MMU_NPRIO],
		    const struct sb_ecn_cfg ecn[SB_MMU_NPRIO], bool ecn_at_dequeue, uint64_t rate_bps, sb_time slack,
		    uint32_t ctrl_limit);

/* Append an admitted packet to data FIFO pkt->prio. */
void sb_swport_push(struct sb_swport *p, struct sb_dp_pkt *pkt);
/* Append a control frame; false (not queued, counted) when the control FIFO is full. */
bool sb_swport_push_ctrl(struct sb_swport *p, struct sb_dp_pkt *pkt);
/* The next packet to transmit, removed from its FIFO (control first, then the scheduler), or
 * NULL when every FIFO is empty. */
struct sb_dp_pkt *sb_swport_select(struct sb_swport *p);
/* Remove the head of data FIFO prio (an expulsion), or NULL. */
struct sb_dp_pkt *sb_swport_pop_head(struct sb_swport *p, uint8_t prio);
/* Bytes queued in the data FIFOs of the port. */
uint64_t sb_swport_data_bytes(const struct sb_swport *p);

#endif
