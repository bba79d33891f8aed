/*
 * params.h — the parameters of the network's devices: switches (buffer, scheduler, ECN), host
 * NICs and PFC (scenario groups `switch`, `host`, `pfc`), with their parameter tables.
 *
 * The tables (net/params.c) give every key its type, default, unit, range and documentation;
 * net/ reads these values when it configures ports and MMUs, the scenario composes them
 * (scenario/scenario.h).
 */
#ifndef SB_NET_PARAMS_H
#define SB_NET_PARAMS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/param.h"

enum { SB_SCHED_SP = 0, SB_SCHED_DRR, SB_SCHED_RR };
enum { SB_ECN_OFF = 0, SB_ECN_RED, SB_ECN_STEP };
enum { SB_ECN_AT_ENQUEUE = 0, SB_ECN_AT_DEQUEUE };
struct sb_switch_params {
	char *scheme;                   /* BM scheme name, see `sharebuf list` */
	int64_t buffer_bytes;           /* per switch (0 = derive from per-port-per-Gbps) */
	double buffer_per_port_per_gbps;/* bytes per port per Gb/s (5120 = 5.12 KB Tomahawk) */
	int64_t cell_bytes;             /* 0 = byte accounting */
	int64_t mmu_ports;              /* ports per MMU (buffer split across MMUs); 0 = one MMU */
	int sched;                      /* SB_SCHED_* for data queues */
	double drr_weight[8];           /* DRR weight per priority (quantum = weight × drr_quantum_bytes) */
	int64_t drr_quantum_bytes;
	int ecn_mode;                   /* SB_ECN_* */
	int ecn_at;                     /* SB_ECN_AT_* */
	double ecn_kmin_bytes[8], ecn_kmax_bytes[8], ecn_pmax[8];
	double ecn_ref_gbps;            /* thresholds are for this port rate, scaled per port (0 = as is) */
	bool check_invariants;
	bool lossless_as_label;         /* accept lossless workloads on a scheme without PFC */
};

/* Host NICs: one port towards the first switch, 8 priority queues + the control queue. */
struct sb_host_params {
	int sched;                  /* SB_SCHED_* among the NIC's data queues */
	double drr_weight[8];
	int64_t drr_quantum_bytes;
	int64_t nic_buffer_bytes;   /* 0 = unlimited; else data packets beyond it are dropped at the NIC */
	int control_queue;          /* SB_NIC_CONTROL_*: where the NIC keeps control-lane packets */
	double send_jitter_us;      /* each sent packet reaches the first switch up to this much late */
	double nic_rate_gbps;       /* the NIC's sending rate (0 = topology.host_rate_gbps) */
};
enum { SB_NIC_CONTROL_PRIORITY = 0, SB_NIC_CONTROL_FIFO };

/* PFC transport and measurement (net/pfc.c, net/deadlock.c); when to pause is the scheme's. */
struct sb_pfc_params {
	int mode;                   /* SB_PFC_ONOFF / SB_PFC_QUANTA (net/pfc.h) */
	int64_t quanta;             /* quanta mode: pause time of a PAUSE, in 512-bit-time quanta */
	double refresh_fraction;    /* quanta mode: re-send PAUSE after this fraction of its time */
	double processing_delay_ns; /* upstream reaction delay after a frame arrives */
	bool log;                   /* record every frame for pfc.csv */
	double deadlock_check_us;   /* period of the deadlock detector (0 = off) */
	double deadlock_persist_us; /* a cycle of paused queues must last this long to count */
};

extern const struct sb_param sb_switch_param_table[];
extern const struct sb_param sb_host_param_table[];
extern const struct sb_param sb_pfc_param_table[];

#endif
