/*
 * swport.h — an egress port of the software switch: 8 priority FIFOs, a control FIFO, the
 * scheduler, ECN marking tables and the shaper.
 *
 * The scheduler is the simulator's (src/net/port.c) for a switch port, which never pauses
 * (no PFC here) and has no pull sources: the control FIFO is served first; then, by
 * switch.sched, strict priority (the highest backlogged index), packet-by-packet round robin,
 * or deficit round robin with per-priority quanta (a queue's turn adds its quantum; it keeps
 * the turn while its deficit covers its head packet; a queue found empty, or emptied, loses
 * its deficit). For the same queue contents both pick the same packets in the same order and
 * keep the same deficits (tests/cli/test_dataplane_sched.c runs both).
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
#include "net/port.h"

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
	uint8_t sched;             /* SB_SCHED_SP / DRR / RR (scenario/scenario.h) */
	uint8_t drr_next, drr_turn;
	bool ecn_at_dequeue;
	int32_t deficit[SB_MMU_NPRIO];
	uint32_t quantum[SB_MMU_NPRIO];
	struct sb_ecn_cfg ecn[SB_MMU_NPRIO];
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
