/*
 * bm_ib.h — Cisco Intelligent Buffer (src/mmu/bm_ib.c): its private state, exposed so tests and
 * reports can read the AFD controller, and the two AFD formulas as pure functions.
 */
#ifndef SB_BM_IB_H
#define SB_BM_IB_H

#include <stdbool.h>
#include <stdint.h>
#include "mmu/flow_meter.h"
#include "mmu/mmu.h"

/* What AFD measures the arrival rate of (docs/schemes/ib.md). */
enum sb_ib_afd_mode {
	SB_IB_AFD_FLOW = 0,  /* per flow, elephants only: Cisco's intent, our default (docs/schemes/ib.md) */
	SB_IB_AFD_QUEUE = 1, /* per egress queue, every packet: the ABM artifact */
};

/* Which queues each AFD period updates. */
enum sb_ib_afd_update {
	SB_IB_UPDATE_TICK = 0,   /* every queue, every period: a free-running hardware timer (Cisco) */
	SB_IB_UPDATE_ACTIVE = 1, /* only the ports that saw an arrival in the period: what the
				  * artifact's arrival-driven update amounts to */
};

/* One slot of the per-flow table (flow mode). bytes == 0 means the slot is free. */
struct sb_ib_flow {
	struct sb_flow_meter meter; /* bytes since the flow was last idle (elephant test) */
	uint32_t m_cur;    /* units arrived in AFD window `epoch` */
	uint32_t m_last;   /* units arrived in window `epoch − 1` */
	uint64_t epoch;    /* the AFD window m_cur belongs to */
};

struct sb_ib_state {
	/* parameters (switch.ib.*) */
	double alpha[SB_MMU_NPRIO];
	bool afd;
	int afd_mode;              /* enum sb_ib_afd_mode */
	int afd_update;            /* enum sb_ib_afd_update */
	double window_us;          /* AFD period */
	double a1, a2;
	int64_t qref_bytes;        /* Q_ref */
	int64_t desired_bytes;     /* AFD drops only while q > this ("queue-desired") */
	double mfair_init;         /* M_fair at start, bytes */
	double rate_scale;         /* p = 1 − min(s·M, M_fair) / (s·M); the artifact's s = 15 */
	double mfair_max;          /* 0 = no upper clamp (artifact) */
	int64_t elephant_bytes;    /* flow mode: a flow is an elephant from this many bytes on */
	double elephant_idle_us;   /* flow mode: an idle flow's byte count restarts */
	int64_t table_slots;       /* flow mode: per-flow table slots (power of two) */

	/* derived in init, all in MMU units */
	sb_time window, elephant_idle;
	double qref, mfair_cap, unit_bytes;
	uint64_t desired;
	uint32_t mask;
	size_t nq;                 /* nports × 8 */
	double *mfair;             /* [nq] fair share per egress queue */
	uint64_t *qold;            /* [nq] queue length at the previous tick */
	uint64_t *m_cur, *m_last;  /* [nq] queue mode: units arrived this / last window */
	uint64_t *afd_drops;       /* [nq] packets AFD refused, per egress queue */
	uint8_t *port_active;      /* [nports] an arrival since the last tick (afd_update = active) */
	struct sb_ib_flow *flows;  /* [mask + 1] flow mode */

	/* the control loop: one timer per MMU, stopped while the MMU is idle */
	uint64_t epoch;            /* ticks so far (including ticks skipped while idle) */
	sb_time last_tick;
	bool ticking;              /* a tick is armed */
	bool arrivals_in_window;

	/* statistics */
	uint64_t ticks_run, ticks_skipped, shared_arrivals;
};

/* Drop probability of an arrival whose rate (flow or queue) was M in the last window:
 * max(0, 1 − min(s·M, M_fair) / (s·M)); 0 when s·M ≤ M_fair (including M = 0). */
double sb_ib_afd_drop_prob(double mfair, double m_last, double rate_scale);

/* One control step: max(0, M_fair − a1·(Q_now − Q_ref) + a2·(Q_old − Q_ref)), then clamped to
 * `cap` when cap > 0. */
double sb_ib_mfair_step(double mfair, double q_now, double q_old, double q_ref, double a1, double a2,
			double cap);

#endif
