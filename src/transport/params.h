/*
 * params.h — the parameters of the transports: TCP (scenario group `tcp`) and the RDMA NIC
 * transports (group `rdma`), with their parameter tables.
 *
 * The tables (transport/params.c) give every key its type, default, unit, range and
 * documentation; the transports read these values, the scenario composes them
 * (scenario/scenario.h).
 */
#ifndef SB_TRANSPORT_PARAMS_H
#define SB_TRANSPORT_PARAMS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/param.h"

/* tcp.ack_path and rdma.ack_path: the lane ACKs travel in (the data queue or the control queue). */
enum { SB_ACK_PATH_DATA = 0, SB_ACK_PATH_CONTROL };
/* tcp.hystart and tcp.recovery choices, in table order (transport/params.c). */
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

extern const struct sb_param sb_tcp_param_table[];
extern const struct sb_param sb_rdma_param_table[];

#endif
