/*
 * bm_fab.h — the private state of FAB (Flow-Aware Buffer, src/mmu/bm_fab.c), exposed so that
 * tests and reports can read the per-flow table and its statistics. Only bm_fab.c writes it.
 */
#ifndef SB_BM_FAB_H
#define SB_BM_FAB_H

#include <stdint.h>
#include "mmu/flow_meter.h"
#include "mmu/mmu.h"

/* How FAB decides that a packet belongs to a short flow (docs/schemes/fab.md). */
enum sb_fab_mode {
	SB_FAB_FLOW_COUNTER = 0, /* per-flow byte counter with idle reset (GenQueueDisc, the paper's runs) */
	SB_FAB_FIRST_RTT = 1,    /* the end host's first-RTT tag (switch-mmu variant), stateless */
};

/* One slot of the per-flow table. bytes == 0 means the slot is free. */

struct sb_fab_state {
	/* parameters (switch.fab.*) */
	double alpha[SB_MMU_NPRIO];
	double alpha_short;
	int mode;                 /* enum sb_fab_mode */
	int64_t threshold_bytes;  /* short iff counter (incl. this packet) < threshold */
	double window_us;         /* idle time after which a flow's counter restarts */
	int64_t table_slots;      /* power of two */
	/* derived in init */
	sb_time window;
	uint32_t mask;
	struct sb_flow_meter *table;
	/* statistics */
	uint64_t short_arrivals;  /* arrivals classified short */
	uint64_t shared_arrivals; /* arrivals counted into a slot another active flow owns */
	uint64_t idle_resets;     /* counters restarted after an idle period */
};

#endif
