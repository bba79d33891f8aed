/*
 * scenario.h — everything a run is made of, as plain parameter structs.
 *
 * Each struct has a parameter table (scenario.c) that gives every key its type, default, unit,
 * range and documentation; the scenario file reader (src/scenario/cfgfile.c) fills them, and
 * docs/scenario.md is generated from the same tables. Units are in the key names
 * (_ms, _us, _gbps, _bytes) so a scenario file reads unambiguously.
 */
#ifndef SB_SCENARIO_H
#define SB_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include "core/param.h"
#include "workload/ops.h"

struct sb_run_params {
	int64_t seed;
	double duration_ms;        /* simulated time; flows still running then are unfinished */
	double arrivals_ms;        /* generators stop creating flows after this (0 = duration) */
	double sample_interval_us; /* buffer occupancy sampling period (0 = off) */
	int sample_switches;       /* SB_SAMPLE_* */
	struct sb_int_list sample_hosts; /* hosts whose receive throughput is sampled (throughput.csv) */
	bool check_invariants;     /* debug mode: verify MMU counters after every operation */
	int64_t max_memory_mb;     /* refuse a run estimated above this (sim/estimate.h); 0 = automatic */
};
enum { SB_SAMPLE_ALL = 0, SB_SAMPLE_LEAVES, SB_SAMPLE_NONE };

enum { SB_TOPO_SINGLE = 0, SB_TOPO_LEAFSPINE, SB_TOPO_FATTREE };
extern const char *const sb_topo_names[]; /* by SB_TOPO_*, as scenarios spell them */
struct sb_topo_params {
	int type;
	int64_t hosts;           /* single: hosts on the switch */
	int64_t hosts_per_leaf;  /* leafspine */
	int64_t leaves;
	int64_t spines;
	int64_t links_per_spine; /* parallel links between each leaf and each spine */
	int64_t k;               /* fattree: k-ary (k even), k^3/4 hosts */
	double host_rate_gbps, host_delay_us;     /* host <-> first switch */
	double fabric_rate_gbps, fabric_delay_us; /* switch <-> switch */
	struct sb_str_list remove_links;          /* failed links, "A-B" by node name (topo/remove.c) */
};

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

/* tcp.ack_path and rdma.ack_path: the lane ACKs travel in (the data queue or the control queue). */
enum { SB_ACK_PATH_DATA = 0, SB_ACK_PATH_CONTROL };
/* tcp.hystart and tcp.recovery choices, in table order (src/scenario/scenario.c). */
enum { SB_TCP_HYSTART_AUTO, SB_TCP_HYSTART_OFF, SB_TCP_HYSTART_PP, SB_TCP_HYSTART_CLASSIC, SB_TCP_HYSTART_LINUX };
enum { SB_TCP_RECOVERY_PRR, SB_TCP_RECOVERY_RFC6675 };

struct sb_tcp_params {
	int64_t mss;              /* payload bytes per segment */
	int64_t header_bytes;     /* per-packet header overhead on the wire */
	int64_t ack_bytes;        /* pure ACK size on the wire */
	int64_t init_cwnd_pkts;   /* initial window, segments */
	double min_rto_us;
	double init_rto_us;       /* RTO before the first RTT sample */
	double dctcp_g;           /* DCTCP EWMA gain */
	double cubic_beta;        /* multiplicative decrease factor */
	double cubic_c;           /* cubic scaling constant */
	int64_t cubic_cnt_clamp;  /* until the first loss, ≥ 1 segment of growth per this many ACKed (0 = off) */
	bool cubic_tcp_friendly;  /* RFC 8312 §4.2's TCP-friendly region */
	int64_t first_rtt_bytes;  /* bytes of each flow tagged "first RTT" (0 = one BDP) */
	int64_t max_cwnd_bytes;   /* cap on cwnd (0 = none) */
	double clock_granularity_ns; /* RFC 6298 G */
	bool sack;                /* SACK and RFC 6675 recovery (else NewReno) */
	bool rack;                /* RACK loss detection (RFC 8985), SACK only */
	bool tlp;                 /* Tail Loss Probe (RFC 8985), SACK only */
	bool rack_retx_min_rtt;   /* RACK ignores a retransmission delivered sooner than min RTT */
	int recovery;             /* SB_TCP_RECOVERY_*: PRR (RFC 6937) or RFC 6675's cwnd = ssthresh */
	int hystart;              /* SB_TCP_HYSTART_* */
	double hystart_min_rtt_thresh_us, hystart_max_rtt_thresh_us;
	int64_t delack_count;     /* ACK every this many segments (1 = every segment) */
	double delack_timeout_us; /* delayed-ACK timer */
	int64_t quickack_segs;    /* the first this many data segments are acknowledged at once */
	int64_t sack_compress_nr; /* Linux's SACK compression: ACKs withheld at most (0 = off) */
	double sack_compress_delay_us, sack_compress_slack_us; /* its timer: min(delay, RTT/20) + slack */
	int64_t abc_limit_segs;   /* RFC 3465 L: slow-start growth per ACK at most (0 = none) */
	bool handshake;           /* SYN / SYN-ACK before data */
	double syn_timeout_us;    /* first SYN retransmission timeout (0 = init_rto_us) */
	int ack_path;             /* SB_ACK_PATH_*: the lane of pure ACKs and handshake packets */
	double tlp_extra_us;      /* added to 2 SRTT in the probe timeout, more than a segment out */
};

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

enum { SB_RDMA_CNP_PACKET = 0, SB_RDMA_CNP_ACK };
enum { SB_DCQCN_FIRST_CUT_CHECK = 0, SB_DCQCN_FIRST_CUT_CNP };

/* RDMA NIC transports (rdma, dcqcn, hpcc, powertcp, thetapowertcp, timely): framing, loss
 * recovery and the parameters of each congestion control (docs/transports.md). */
struct sb_rdma_params {
	bool cc;                   /* false = every RDMA transport sends at line rate (PFC only) */
	int64_t mtu;               /* payload bytes per packet */
	int64_t header_bytes;
	int64_t ack_bytes;         /* ACK and NACK size on the wire */
	int64_t cnp_bytes;
	int ack_path;              /* SB_ACK_PATH_*: which lane ACKs and NACKs travel in */
	int cnp;                   /* SB_RDMA_CNP_*: how a receiver tells the sender about CE */
	double rto_us;             /* retransmission timeout (safety net; go-back-N on NACK first) */
	double nack_interval_us;   /* the receiver repeats a NACK for the same byte after this */
	int64_t first_rtt_bytes;   /* tagged "first RTT" (0 = one BDP of the path) */
	double min_rate_mbps;      /* floor of every rate-based control */
	/* DCQCN */
	double dcqcn_g;
	double dcqcn_ai_mbps, dcqcn_hai_mbps;
	double dcqcn_rate_decrease_interval_us, dcqcn_alpha_interval_us, dcqcn_rp_timer_us;
	int64_t dcqcn_fast_recovery;
	int64_t dcqcn_byte_counter_bytes; /* 0 = no byte counter */
	bool dcqcn_clamp_target;
	int dcqcn_first_cut;       /* SB_DCQCN_FIRST_CUT_*: when the first CNP's cut happens */
	double dcqcn_cnp_interval_us; /* NP: at most one CNP per flow per interval */
	/* HPCC */
	double hpcc_eta;
	int64_t hpcc_mi_thresh;
	double hpcc_ai_mbps;       /* 0 = 10 Mb/s per 25 Gb/s of NIC rate */
	/* PowerTCP, θ-PowerTCP */
	double powertcp_gamma, powertcp_beta_mbps, powertcp_eta;
	double thetapowertcp_gamma;
	/* TIMELY */
	double timely_alpha, timely_beta;
	double timely_tlow_us, timely_thigh_us, timely_min_rtt_us;
	double timely_ai_mbps, timely_hai_mbps; /* 0 = 10 / 50 Mb/s per 10 Gb/s of NIC rate */
	int64_t timely_hai_after;
};

/*
 * Where a key got its value, so that checks made long after reading (sb_scenario_validate,
 * building the network, opening a workload's files) can still say "FILE:LINE: KEY". The
 * reader (src/scenario/cfgfile.c) notes every key it sets, and the groups switch.SCHEME and
 * workloads.N; an override notes its key with file NULL. The latest note of a key wins.
 */
struct sb_key_origin {
	char *key;   /* full dotted key, as --set writes it: "switch.scheme", "workloads.0.path" */
	char *file;  /* the file as messages name it; NULL = a --set override */
	int line;    /* 0 = unknown */
};

struct sb_scenario {
	struct sb_run_params run;
	struct sb_topo_params topo;
	struct sb_switch_params sw;
	struct sb_host_params host;
	struct sb_tcp_params tcp;
	struct sb_pfc_params pfc;
	struct sb_rdma_params rdma;
	struct sb_workload *workloads; /* a list; each one's type is its ops (workload/ops.h) */
	size_t nworkloads;
	/* The workload types the reader knows (sb_workload_all(), set by sb_scenario_defaults), or
	 * NULL (sb_scenario_defaults_net): a program that runs no workload (the software switch)
	 * reads and checks the network's sections and leaves `workloads` and `--set workloads.*`
	 * unread, so that it links no workload type; the load generator checks them. */
	const struct sb_workload_ops *const *workload_types;
	void **scheme_params;     /* per registered scheme (sb_bm_all order): its parameter struct */
	char *source;             /* scenario file name, or "(default)" */
	struct sb_key_origin *origins; /* sb_scenario_note_origin, in the order the keys were set */
	size_t norigins, origins_cap;
};

extern const struct sb_param sb_run_param_table[];
extern const struct sb_param sb_topo_param_table[];
extern const struct sb_param sb_switch_param_table[];
extern const struct sb_param sb_host_param_table[];
extern const struct sb_param sb_tcp_param_table[];
extern const struct sb_param sb_pfc_param_table[];
extern const struct sb_param sb_rdma_param_table[];

/* Every key at its default, no workload, every workload type known (scenario_defaults.c). */
void sb_scenario_defaults(struct sb_scenario *sc);
/* The same, knowing no workload type: the reader then skips the workloads (workload_types). */
void sb_scenario_defaults_net(struct sb_scenario *sc);
/* The known workload type called `name`, or NULL. */
const struct sb_workload_ops *sb_scenario_workload_type(const struct sb_scenario *sc, const char *name);
void sb_scenario_free(struct sb_scenario *sc);
/* Record that `key` was set at file:line (file NULL: by --set). */
void sb_scenario_note_origin(struct sb_scenario *sc, const char *key, const char *file, int line);
/* Forget every origin whose key starts with `prefix` (a replaced workloads list). */
void sb_scenario_forget_origins(struct sb_scenario *sc, const char *prefix);
/* The latest origin of `key`, or NULL when the key kept its default. */
const struct sb_key_origin *sb_scenario_origin(const struct sb_scenario *sc, const char *key);
/* The key of the latest origin whose key starts with `prefix`, or NULL. */
const char *sb_scenario_latest_key(const struct sb_scenario *sc, const char *prefix);
/*
 * The place of `key` for a message: "FILE:LINE: KEY", "--set KEY", and for a key that kept its
 * default, the place of its group (workloads.N, switch.SCHEME) or, lacking one, "KEY" alone.
 */
void sb_scenario_place(const struct sb_scenario *sc, const char *key, char *buf, size_t n);
/* sb_fail() with the place of `key` in front: "PLACE: what". */
int sb_scenario_fail(const struct sb_scenario *sc, const char *key, struct sb_error *err, const char *fmt, ...)
	SB_PRINTF(4, 5);
/*
 * A file named by the value of `key` (a workload's flow list or CDF), as the program opens
 * it: a relative path written in a scenario file is relative to that file's directory, as
 * @include is; one given with --set (or in the built-in scenario) is relative to the working
 * directory, as any path on a command line. malloc'd.
 */
char *sb_scenario_path(const struct sb_scenario *sc, const char *key, const char *path);
/* How workload `wi`'s hooks place their messages and open their files: sb_scenario_fail and
 * sb_scenario_path of sc (workload/ops.h). */
struct sb_wl_env sb_scenario_workload_env(const struct sb_scenario *sc, size_t wi);

/* "dctcp|cubic|...": the registered transports, for messages. */
void sb_transport_names(char *buf, size_t n);

/* Cross-field checks the tables cannot express (e.g. a host index beyond the topology):
 * sb_scenario_validate_net's, then each workload's (validate_workloads.c). */
int sb_scenario_validate(const struct sb_scenario *sc, struct sb_error *err);
/* The same without the workloads' checks (scenario_validate.c): what a program that runs no
 * workload needs (the software switch); it links no transport or workload code. */
int sb_scenario_validate_net(const struct sb_scenario *sc, struct sb_error *err);

/* The largest data frame any transport of the scenario puts on the wire (headroom formulas):
 * the larger of TCP's (tcp.mss + tcp.header_bytes) and RDMA's (rdma.mtu + rdma.header_bytes).
 * Here, not in sim/, because the software switch needs it and has no simulated world. */
uint32_t sb_scenario_max_frame_bytes(const struct sb_scenario *sc);

#endif
