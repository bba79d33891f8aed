/*
 * bm_edt.h — read-only views into the EDT scheme (src/mmu/bm_edt.c) for tests, reports and
 * embedders. The scheme itself is used like any other, through sb_bm_find("edt"). Every
 * function here takes an MMU that runs edt and has been started (sb_mmu_start).
 */
#ifndef SB_BM_EDT_H
#define SB_BM_EDT_H

#include <stdbool.h>
#include <stdint.h>
#include "mmu/mmu.h"

/* Transition counts of one EDT MMU since sb_mmu_start (all queues together). */
struct sb_edt_stats {
	uint64_t entered;        /* CONTROLLED -> UNCONTROLLED (C2 reached cn2 within TM1) */
	uint64_t exit_c1;        /* back to CONTROLLED: cn1 consecutive dequeues */
	uint64_t exit_overflow;  /* back to CONTROLLED: the shared buffer overflowed */
	uint64_t exit_tm2;       /* back to CONTROLLED: TM2 expired */
	uint32_t max_uncontrolled; /* largest n seen */
};

/* The values EDT runs with for priority `prio` once started: parameters, or their derived
 * defaults when left at 0 (docs/schemes/edt.md §3). */
struct sb_edt_derived {
	int64_t cn1, cn2;        /* packets */
	sb_time tm1, tm2;        /* ps; tm2 = d */
	int64_t ports;           /* P used in the derivation */
};

/* One queue's machine, for tests. */
struct sb_edt_queue_view {
	bool uncontrolled;
	bool tm1_running;
	int32_t c1, c2;
	sb_time tm1_expiry, tm2_expiry; /* meaningful while TM1 runs / while UNCONTROLLED */
};

/* True iff egress queue (port, prio) is UNCONTROLLED (threshold B/n). */
bool sb_edt_uncontrolled(const struct sb_mmu *m, uint16_t port, uint8_t prio);
/* n: queues of this MMU currently UNCONTROLLED. */
uint32_t sb_edt_n_uncontrolled(const struct sb_mmu *m);
const struct sb_edt_stats *sb_edt_stats(const struct sb_mmu *m);
void sb_edt_queue(const struct sb_mmu *m, uint16_t port, uint8_t prio, struct sb_edt_queue_view *out);
void sb_edt_get_derived(const struct sb_mmu *m, uint8_t prio, struct sb_edt_derived *out);

#endif
