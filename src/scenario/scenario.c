/*
 * scenario.c — the parameter tables of a scenario and its defaults (the cross-field checks are
 * scenario_validate.c).
 *
 * The tables are the single source of truth for every key: the reader (src/scenario/cfgfile.c),
 * `--set`, and the generated reference (docs/scenario-keys.md) all use them, so the docs here
 * are written for users of the tool: what the key is, its unit, and what 0 means when 0 is
 * special. Defaults describe a small leaf-spine that runs in seconds.
 */
#include "scenario/scenario.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"
#include "transport/transport.h"

#define RUN(f) SB_FIELD(struct sb_run_params, f)
#define TOPO(f) SB_FIELD(struct sb_topo_params, f)
#define SW(f) SB_FIELD(struct sb_switch_params, f)
#define TCP(f) SB_FIELD(struct sb_tcp_params, f)

/* Largest host index any topology can have (fattree k = 64 has 65536 hosts). */
#define MAX_HOST_INDEX 65535

static const char *const sample_choices[] = { "all", "leaves", "none", NULL };
const char *const sb_topo_names[] = { "single", "leafspine", "fattree", NULL };
static const char *const sched_choices[] = { "sp", "drr", "rr", NULL };
static const char *const ecn_mode_choices[] = { "off", "red", "step", NULL };
static const char *const ecn_at_choices[] = { "enqueue", "dequeue", NULL };
static const char *const nic_control_choices[] = { "priority", "fifo", NULL }; /* SB_NIC_CONTROL_* */

const struct sb_param sb_run_param_table[] = {
	{ "seed", SB_P_INT, RUN(seed), "1", 0, 1e15, "", NULL,
	  "random seed; every random choice of the run derives from it, so the same seed and scenario give the same results" },
	{ "duration_ms", SB_P_DOUBLE, RUN(duration_ms), "20", 0, 1e7, "ms", NULL,
	  "simulated time; flows still running at the end get no row in flows.csv and are counted in summary.json flows_unfinished" },
	{ "arrivals_ms", SB_P_DOUBLE, RUN(arrivals_ms), "10", 0, 1e7, "ms", NULL,
	  "workloads start no new flow after this time, leaving the rest of the run for flows to finish; 0 = duration_ms; a value past duration_ms is cut at duration_ms" },
	{ "sample_interval_us", SB_P_DOUBLE, RUN(sample_interval_us), "10", 0, 1e6, "us", NULL,
	  "period of the buffer-occupancy samples (occupancy.csv) and of the host-throughput samples (throughput.csv, run.sample_hosts); 0 = no sampling" },
	{ "sample_switches", SB_P_ENUM, RUN(sample_switches), "leaves", 0, 0, "", sample_choices,
	  "switches whose buffers are sampled: all, leaves (the switches hosts attach to) or none" },
	{ "sample_hosts", SB_P_INT_LIST, RUN(sample_hosts), "", 0, MAX_HOST_INDEX, "host indices", NULL,
	  "hosts whose receive throughput (payload received in order, all their flows together) is written to throughput.csv every sample_interval_us, e.g. [26, 27]; empty = none, no file" },
	{ "check_invariants", SB_P_BOOL, RUN(check_invariants), "false", 0, 0, "", NULL,
	  "debug mode: verify the MMU counters of every switch after every operation (several times slower)" },
	{ "max_memory_mb", SB_P_INT, RUN(max_memory_mb), "0", 0, 1e7, "MB", NULL,
	  "refuse to run, before building anything, a scenario whose memory is estimated above this many MB (2^20 bytes): network, forwarding tables, flows, samples and queued packets, as docs/scenario.md explains; 0 = half the physical memory, at most 8192" },
	SB_PARAM_END
};

const struct sb_param sb_topo_param_table[] = {
	{ "type", SB_P_ENUM, TOPO(type), "leafspine", 0, 0, "", sb_topo_names,
	  "single = one switch with `hosts` hosts; leafspine = two tiers, every leaf linked to every spine; fattree = three-tier k-ary fat tree" },
	{ "hosts", SB_P_INT, TOPO(hosts), "8", 1, 4096, "hosts", NULL,
	  "single: hosts attached to the switch (ignored by the other types)" },
	{ "hosts_per_leaf", SB_P_INT, TOPO(hosts_per_leaf), "8", 1, 4096, "hosts", NULL,
	  "leafspine: hosts attached to each leaf (one rack per leaf)" },
	{ "leaves", SB_P_INT, TOPO(leaves), "4", 1, 1024, "switches", NULL, "leafspine: number of leaf switches" },
	{ "spines", SB_P_INT, TOPO(spines), "2", 1, 1024, "switches", NULL, "leafspine: number of spine switches" },
	{ "links_per_spine", SB_P_INT, TOPO(links_per_spine), "1", 1, 64, "links", NULL,
	  "leafspine: parallel links between each leaf and each spine (all used by ECMP)" },
	{ "k", SB_P_INT, TOPO(k), "4", 2, 64, "ports", NULL,
	  "fattree: switch radix k (even); k^3/4 hosts, k/2 hosts per edge switch (rack)" },
	{ "host_rate_gbps", SB_P_DOUBLE, TOPO(host_rate_gbps), "25", 0.001, 10000, "Gb/s", NULL,
	  "rate of every host link, in both directions" },
	{ "host_delay_us", SB_P_DOUBLE, TOPO(host_delay_us), "2", 0, 1e6, "us", NULL,
	  "one-way propagation delay of every host link" },
	{ "fabric_rate_gbps", SB_P_DOUBLE, TOPO(fabric_rate_gbps), "25", 0.001, 10000, "Gb/s", NULL,
	  "rate of every switch-to-switch link, in both directions" },
	{ "fabric_delay_us", SB_P_DOUBLE, TOPO(fabric_delay_us), "2", 0, 1e6, "us", NULL,
	  "one-way propagation delay of every switch-to-switch link" },
	{ "remove_links", SB_P_STR_LIST, TOPO(remove_links), "", 0, 0, "", NULL,
	  "switch-to-switch links taken out of the topology (failed links), each \"A-B\" by the names of its two ends, e.g. (\"spine0-leaf3\", \"spine1-leaf0\"); every parallel link between A and B goes, and routing is shortest-path ECMP over what remains. Names are h<i> for hosts and leaf<n>, spine<n>, core<n> for switches (a fattree's edge and aggregation switches are leaf and spine), counted from 0; the rest must stay connected. Empty = none" },
	SB_PARAM_END
};

const struct sb_param sb_switch_param_table[] = {
	{ "scheme", SB_P_STRING, SW(scheme), "dt", 0, 0, "", NULL,
	  "buffer-management scheme of every switch (`sharebuf list` shows them); its parameters go in the group switch.SCHEME (e.g. switch.dt)" },
	{ "buffer_bytes", SB_P_INT, SW(buffer_bytes), "0", 0, 1e12, "bytes", NULL,
	  "shared buffer of each switch; 0 = buffer_per_port_per_gbps × the sum of its port rates in Gb/s" },
	{ "buffer_per_port_per_gbps", SB_P_DOUBLE, SW(buffer_per_port_per_gbps), "5120", 0, 1e9, "bytes", NULL,
	  "buffer per port per Gb/s of port rate, used when buffer_bytes = 0 (5120 = 5.12 KB, Broadcom Tomahawk)" },
	{ "cell_bytes", SB_P_INT, SW(cell_bytes), "0", 0, 65536, "bytes", NULL,
	  "buffer allocation cell: a packet occupies ceil(size / cell_bytes) cells; 0 = account exact bytes" },
	{ "mmu_ports", SB_P_INT, SW(mmu_ports), "0", 0, 65535, "ports", NULL,
	  "ports per MMU: the switch's ports are grouped into ceil(ports / mmu_ports) independent MMUs, each with the share of the buffer its ports' rates represent; 0 = one MMU for the whole switch" },
	{ "sched", SB_P_ENUM, SW(sched), "drr", 0, 0, "", sched_choices,
	  "scheduler among the 8 priority queues of a port: sp = strict priority (priority 7 first), drr = deficit round robin weighted by drr_weight; rr = one packet per queue per turn whatever its size (the ns-3 artifacts' DequeueRR: a queue of 64-byte ACKs gets as many turns as one of full frames)" },
	{ "drr_weight", SB_P_PRIO, SW(drr_weight), "1", 0.001, 1e6, "", NULL,
	  "DRR weight per priority; a queue's quantum = weight × drr_quantum_bytes" },
	{ "drr_quantum_bytes", SB_P_INT, SW(drr_quantum_bytes), "1500", 1, 1e9, "bytes", NULL,
	  "DRR quantum of a queue of weight 1" },
	{ "ecn_mode", SB_P_ENUM, SW(ecn_mode), "step", 0, 0, "", ecn_mode_choices,
	  "ECN marking of ECN-capable packets: off; red = probability rising linearly from 0 at ecn_kmin_bytes to ecn_pmax at ecn_kmax_bytes; step = mark every packet once the queue reaches ecn_kmin_bytes (DCTCP's K)" },
	{ "ecn_at", SB_P_ENUM, SW(ecn_at), "enqueue", 0, 0, "", ecn_at_choices,
	  "when the egress queue length is compared with the thresholds: on packet arrival or on departure" },
	{ "ecn_kmin_bytes", SB_P_PRIO, SW(ecn_kmin_bytes), "65000", 0, 1e12, "bytes", NULL,
	  "egress queue length (per port and priority) from which packets are marked" },
	{ "ecn_kmax_bytes", SB_P_PRIO, SW(ecn_kmax_bytes), "65000", 0, 1e12, "bytes", NULL,
	  "red: queue length at which the marking probability reaches ecn_pmax (every packet beyond it is marked); ignored by step" },
	{ "ecn_pmax", SB_P_PRIO, SW(ecn_pmax), "1", 0, 1, "", NULL,
	  "red: marking probability at ecn_kmax_bytes; ignored by step" },
	{ "ecn_ref_gbps", SB_P_DOUBLE, SW(ecn_ref_gbps), "0", 0, 1e6, "Gb/s", NULL,
	  "port rate that ecn_kmin_bytes and ecn_kmax_bytes are written for: a port of rate R marks at the thresholds × R / ecn_ref_gbps, as the HPCC-lineage ns-3 KMIN_MAP/KMAX_MAP do (400 KB at 100G, 1600 KB at 400G); 0 = the same thresholds on every port" },
	{ "lossless_as_label", SB_P_BOOL, SW(lossless_as_label), "false", 0, 0, "", NULL,
	  "accept class = \"lossless\" workloads on a scheme without PFC: the class is then only a label (their drops count in drops.lossless, their bytes in occupancy.csv's lossless column) and nothing protects them; for experiments that track one traffic aggregate, e.g. experiments/edt" },
	{ "check_invariants", SB_P_BOOL, SW(check_invariants), "false", 0, 0, "", NULL,
	  "verify the MMU counters after every admission and release (run.check_invariants enables it too)" },
	SB_PARAM_END
};

#define HOST(f) offsetof(struct sb_host_params, f)
const struct sb_param sb_host_param_table[] = {
	{ "sched", SB_P_ENUM, HOST(sched), "drr", 0, 0, "", sched_choices,
	  "scheduler among the NIC's 8 priority queues: sp = strict priority (priority 7 first), drr = deficit round robin, rr = one packet per queue per turn" },
	{ "drr_weight", SB_P_PRIO, HOST(drr_weight), "1", 0.001, 1e6, "", NULL,
	  "DRR weight per priority at the NIC (quantum = weight × drr_quantum_bytes)" },
	{ "drr_quantum_bytes", SB_P_INT, HOST(drr_quantum_bytes), "1500", 1, 1e7, "bytes", NULL,
	  "DRR quantum of weight 1 at the NIC" },
	{ "nic_buffer_bytes", SB_P_INT, HOST(nic_buffer_bytes), "0", 0, 1e15, "bytes", NULL,
	  "limit on data bytes queued in a host NIC; 0 = unlimited. Beyond it the NIC drops the packet (counted as cause nic). With 0, a flow whose path has no congested switch port sees neither ECN nor loss and piles its packets into its own NIC, and the run's memory grows with them: the first NIC priority queue past 4 MiB (SB_NIC_WARN_BYTES, sim/sim.h) is reported once per run on stderr, naming its host, its flow and this key (docs/transports.md)" },
	{ "control_queue", SB_P_ENUM, HOST(control_queue), "priority", 0, 0, "", nic_control_choices,
	  "where a NIC keeps the control packets its host sends (TCP's ACKs and SYNs, and RDMA feedback on the control path): priority = a queue served before every data queue, as switches do; fifo = the FIFO of the packet's priority, behind the data queued before it, as ns-3's QbbNetDevice does with everything the IP stack sends (the Reverie artifact)" },
	{ "nic_rate_gbps", SB_P_DOUBLE, HOST(nic_rate_gbps), "0", 0, 10000, "Gb/s", NULL,
	  "rate at which every host's NIC sends, the host-to-switch direction of its link (the switch's port toward the host keeps topology.host_rate_gbps); 0 = topology.host_rate_gbps. A host that sends faster than the port that delivers to its receivers brings a burst into the switch's buffer at its own rate: the testbed's hosts, whose veth has no rate, behind the switch's 1 Gb/s shapers (docs/testbed.md)" },
	{ "send_jitter_us", SB_P_DOUBLE, HOST(send_jitter_us), "0", 0, 1e6, "us", NULL,
	  "every packet a host sends reaches the other end of its link up to this much later than the link's delay, uniformly at random and never ahead of the packet before it: the timing noise of a real host's software. Without it, hosts that start together send to the picosecond in step, and a full queue's tail drop hits the same senders every round (phase effects, Floyd & Jacobson 1992), which real hosts (testbed/REPORT.md) do not show; 0 = none" },
	SB_PARAM_END
};

/* where ACKs travel (tcp.ack_path, rdma.ack_path) */
static const char *const ack_path_choices[] = { "data", "control", NULL };         /* SB_ACK_PATH_* */
static const char *const hystart_choices[] = { "auto", "off", "hystartpp", "classic", "linux", NULL };
static const char *const recovery_choices[] = { "prr", "rfc6675", NULL };

/* TCP defaults are a modern Linux-like stack (SACK, RACK-TLP, PRR, HyStart++ for CUBIC) with
 * an ACK per segment and no handshake, as the datacenter papers' stacks run;
 * docs/transports.md gives each default's reason and the ns-3 profile. */
const struct sb_param sb_tcp_param_table[] = {
	{ "mss", SB_P_INT, TCP(mss), "1000", 1, 65535, "bytes", NULL, "payload bytes of a full-sized data segment" },
	{ "header_bytes", SB_P_INT, TCP(header_bytes), "48", 0, 1024, "bytes", NULL,
	  "header overhead added to every data packet's payload on the wire" },
	{ "ack_bytes", SB_P_INT, TCP(ack_bytes), "64", 1, 65535, "bytes", NULL, "size of a pure ACK on the wire" },
	{ "init_cwnd_pkts", SB_P_INT, TCP(init_cwnd_pkts), "10", 1, 1e6, "segments", NULL,
	  "initial congestion window" },
	{ "min_rto_us", SB_P_DOUBLE, TCP(min_rto_us), "1000", 1, 1e9, "us", NULL,
	  "lower bound of the retransmission timeout" },
	{ "init_rto_us", SB_P_DOUBLE, TCP(init_rto_us), "1000", 1, 1e9, "us", NULL,
	  "retransmission timeout before a flow's first RTT sample" },
	{ "dctcp_g", SB_P_DOUBLE, TCP(dctcp_g), "0.0625", 0, 1, "", NULL,
	  "DCTCP gain g: each window, alpha = (1 - g) · alpha + g · (fraction of ACKs with ECN echo)" },
	{ "cubic_beta", SB_P_DOUBLE, TCP(cubic_beta), "0.7", 0.01, 1, "", NULL,
	  "CUBIC multiplicative decrease: on loss the window becomes cubic_beta × window" },
	{ "cubic_c", SB_P_DOUBLE, TCP(cubic_c), "0.4", 0.001, 1000, "", NULL,
	  "CUBIC scaling constant C of W(t) = C (t - K)^3 + W_max (W in segments, t in seconds)" },
	{ "cubic_cnt_clamp", SB_P_INT, TCP(cubic_cnt_clamp), "20", 0, 1e6, "segments", NULL,
	  "CUBIC until its first loss (and after a timeout): cwnd grows by at least one segment per this many acknowledged, 5 % per RTT at 20, as Linux and ns-3 do (their cnt clamp) because the cubic curve alone barely grows before a W_max is known; 0 = the cubic curve alone (RFC 8312)" },
	{ "cubic_tcp_friendly", SB_P_BOOL, TCP(cubic_tcp_friendly), "true", 0, 0, "", NULL,
	  "CUBIC's TCP-friendly region (RFC 8312 4.2): grow at least as fast as standard TCP would; Linux has it, ns-3's TcpCubic does not (false: after a loss a datacenter flow's window barely moves for seconds, as in ns-3)" },
	{ "first_rtt_bytes", SB_P_INT, TCP(first_rtt_bytes), "0", 0, 1e12, "bytes", NULL,
	  "bytes at the start of every flow tagged first-RTT, for schemes that favour new flows; 0 = one bandwidth-delay product of the flow's path" },
	{ "max_cwnd_bytes", SB_P_INT, TCP(max_cwnd_bytes), "0", 0, 1e12, "bytes", NULL,
	  "upper bound of the congestion window; 0 = unbounded" },
	{ "clock_granularity_ns", SB_P_DOUBLE, TCP(clock_granularity_ns), "0", 0, 1e9, "ns", NULL,
	  "RFC 6298 clock granularity G: RTO = SRTT + max(G, 4 RTTVAR); 0 = an exact clock (ns-3's TcpSocketBase default is 1 ms, the Reverie artifact sets 10 ns)" },
	{ "sack", SB_P_BOOL, TCP(sack), "true", 0, 0, "", NULL,
	  "selective acknowledgments (RFC 2018) with RFC 6675 loss recovery: only the holes are retransmitted, also after a timeout; false = NewReno (RFC 6582): one hole per RTT in fast recovery, go-back-N after a timeout" },
	{ "rack", SB_P_BOOL, TCP(rack), "true", 0, 0, "", NULL,
	  "RACK time-based loss detection (RFC 8985) instead of RFC 6675's DupThresh rule: a segment is lost once one sent after it was delivered and min RTT / 4 has passed; finds lost retransmissions. Needs sack" },
	{ "tlp", SB_P_BOOL, TCP(tlp), "true", 0, 0, "", NULL,
	  "Tail Loss Probe (RFC 8985): after 2 SRTT without ACKs, send one new or the last segment to turn a tail loss into a fast recovery instead of a timeout. Needs sack" },
	{ "rack_retx_min_rtt", SB_P_BOOL, TCP(rack_retx_min_rtt), "false", 0, 0, "", NULL,
	  "RFC 8985 6.2 step 2's second test, as Linux applies it (tcp_rack_advance): the delivery of a retransmitted segment sent less than min RTT ago may be its original's, so RACK does not use it; min RTT then takes the handshake's sample and none from retransmissions. Its effect: a tail-loss probe that returns faster than the flow's smallest RTT (its queue has drained) finds nothing lost, and the flow waits for its RTO. false = every delivery counts (the receiver echoes the very transmission's timestamp)" },
	{ "recovery", SB_P_ENUM, TCP(recovery), "prr", 0, 0, "", recovery_choices,
	  "sending rate in SACK fast recovery: prr = Proportional Rate Reduction (RFC 6937, slow-start reduction bound; Linux's and ns-3's default); rfc6675 = cwnd = ssthresh, send while pipe < cwnd" },
	{ "hystart", SB_P_ENUM, TCP(hystart), "auto", 0, 0, "", hystart_choices,
	  "slow-start exit before loss: hystartpp = HyStart++ (RFC 9406, with the thresholds below); classic = ns-3.39 TcpCubic's HyStart (ACK train and delay, its default attributes); linux = Linux's tcp_cubic HyStart, whose ACK train must outlast (min RTT + an allowance for GSO bursts at the pacing rate, up to 1 ms) / 2, so at datacenter RTTs it leaves slow start several times later than ns-3's; off; auto = hystartpp for cubic, off for newreno and dctcp" },
	{ "hystart_min_rtt_thresh_us", SB_P_DOUBLE, TCP(hystart_min_rtt_thresh_us), "4", 0, 1e9, "us", NULL,
	  "HyStart++ MIN_RTT_THRESH: smallest RTT increase that ends slow start (the RFC's 4 ms scaled to datacenter RTTs by 1/1000)" },
	{ "hystart_max_rtt_thresh_us", SB_P_DOUBLE, TCP(hystart_max_rtt_thresh_us), "16", 0, 1e9, "us", NULL,
	  "HyStart++ MAX_RTT_THRESH: largest RTT increase needed to end slow start (the RFC's 16 ms scaled by 1/1000)" },
	{ "delack_count", SB_P_INT, TCP(delack_count), "1", 1, 64, "segments", NULL,
	  "delayed ACKs: acknowledge every delack_count segments or after delack_timeout_us, at once on out-of-order data, a filled hole, a change of CE (RFC 8257 3.2) or the flow's last byte; 1 = an ACK per segment (ns-3 DelAckCount 0 or 1; its default 2)" },
	{ "delack_timeout_us", SB_P_DOUBLE, TCP(delack_timeout_us), "40000", 1, 5e5, "us", NULL,
	  "delayed-ACK timer (Linux's minimum 40 ms; ns-3's DelAckTimeout 200 ms; RFC 5681: under 500 ms); used when delack_count > 1" },
	{ "abc_limit_segs", SB_P_INT, TCP(abc_limit_segs), "2", 0, 1000, "segments", NULL,
	  "RFC 3465's L: an ACK grows the window in slow start by the bytes it acknowledges, at most this many segments (ns-3's TcpSocketBase); 0 = no limit, as Linux (tcp_slow_start: cwnd += acked), where an ACK that covers many segments after lost ACKs grows the window by all of them and releases a burst twice that size" },
	{ "quickack_segs", SB_P_INT, TCP(quickack_segs), "0", 0, 65535, "segments", NULL,
	  "with delayed ACKs, the receiver acknowledges each of a connection's first this many data segments at once: Linux's quick-ACK mode at the first data (tcp_incr_quickack: 16, TCP_MAX_QUICKACKS, with a receive window of 32 segments or more), which lets slow start grow by a segment per segment; 0 = delay from the first segment (ns-3)" },
	{ "sack_compress_nr", SB_P_INT, TCP(sack_compress_nr), "0", 0, 255, "ACKs", NULL,
	  "with delayed ACKs and SACK, Linux's SACK compression (tcp_comp_sack_nr, Linux's default 44, since 4.19): of the ACKs for out-of-order segments above one hole, the first 3 go at once and the next ones are withheld, up to this many, and replaced by one ACK when the compression timer (sack_compress_delay_us, sack_compress_slack_us) fires or the next one is due; 0 = every out-of-order segment is acknowledged at once (RFC 5681 4.2, ns-3)" },
	{ "sack_compress_delay_us", SB_P_DOUBLE, TCP(sack_compress_delay_us), "1000", 0, 1e6, "us", NULL,
	  "SACK compression timer: min(this, the connection's RTT / 20) after the first withheld ACK (Linux's tcp_comp_sack_delay_ns, 1 ms, and 5 % of the RTT); the RTT is the flow's minimum RTT, standing for a Linux receiver's own, which it measures on its idle request path" },
	{ "sack_compress_slack_us", SB_P_DOUBLE, TCP(sack_compress_slack_us), "100", 0, 1e6, "us", NULL,
	  "added to the SACK compression timer: Linux arms it as a high-resolution timer with this much slack (tcp_comp_sack_slack_ns, 100 us), which fires at its latest on a CPU with no earlier timer due, as the model assumes" },
	{ "handshake", SB_P_BOOL, TCP(handshake), "false", 0, 0, "", NULL,
	  "open each connection with SYN / SYN-ACK (tcp.ack_bytes each) and the handshake's ACK before data; FCT still starts at the SYN and the ideal FCT includes the handshake" },
	{ "syn_timeout_us", SB_P_DOUBLE, TCP(syn_timeout_us), "0", 0, 1e9, "us", NULL,
	  "first SYN retransmission timeout, doubling per retry (ns-3 ConnTimeout; the Reverie artifact 10 ms); 0 = init_rto_us" },
	{ "ack_path", SB_P_ENUM, TCP(ack_path), "control", 0, 0, "", ack_path_choices,
	  "lane of pure ACKs and of the handshake's SYN, SYN-ACK and ACK: control = the control queue, never charged to a buffer and never dropped (the ns-3 artifacts' queue 0); data = the data queue of the flow's priority, charged to the switch's buffer and dropped like data, as on a switch that classifies by DSCP alone (the testbed: a lost SYN then waits for Linux's 1 s SYN timeout)" },
	{ "tlp_extra_us", SB_P_DOUBLE, TCP(tlp_extra_us), "0", 0, 1e9, "us", NULL,
	  "added to 2 SRTT in the tail-loss probe's timeout when more than one segment is in flight: Linux adds TCP_TIMEOUT_MIN, two jiffies (8000 at CONFIG_HZ = 250, 2000 at 1000), so that its probe rarely fires before a datacenter flow's ACKs; 0 = RFC 8985's 2 SRTT" },
	SB_PARAM_END
};

static const char *const pfc_mode_choices[] = { "onoff", "quanta", NULL };
static const char *const rdma_cnp_choices[] = { "packet", "ack", NULL };           /* SB_RDMA_CNP_* */
static const char *const dcqcn_first_cut_choices[] = { "check", "cnp", NULL };     /* SB_DCQCN_FIRST_CUT_* */
#define PFC(f) offsetof(struct sb_pfc_params, f)
const struct sb_param sb_pfc_param_table[] = {
	{ "mode", SB_P_ENUM, PFC(mode), "onoff", 0, 0, "", pfc_mode_choices,
	  "onoff = a PAUSE holds until the RESUME (the Reverie and DSH artifacts); quanta = 802.1Qbb timers: a PAUSE holds for `quanta` × 512 bit times, the switch re-sends it while the queue stays congested, RESUME = zero quanta" },
	{ "quanta", SB_P_INT, PFC(quanta), "65535", 1, 65535, "quanta", NULL,
	  "quanta mode: pause time carried by a PAUSE, in units of 512 bit times of the link (65535 = 1.34 ms at 25 Gb/s)" },
	{ "refresh_fraction", SB_P_DOUBLE, PFC(refresh_fraction), "0.5", 0.01, 1, "", NULL,
	  "quanta mode: a switch re-sends PAUSE after this fraction of the pause time, so the upstream never resumes on its own while the queue is congested" },
	{ "processing_delay_ns", SB_P_DOUBLE, PFC(processing_delay_ns), "0", 0, 1e6, "ns", NULL,
	  "time between a PFC frame's arrival and the upstream acting on it (802.1Qbb allows up to 3840 B of link time; DSH's Eq. 1 budgets it)" },
	{ "log", SB_P_BOOL, PFC(log), "true", 0, 0, "", NULL,
	  "record every PAUSE/RESUME a switch sends in pfc.csv" },
	{ "deadlock_check_us", SB_P_DOUBLE, PFC(deadlock_check_us), "100", 0, 1e9, "us", NULL,
	  "period of the PFC deadlock detector (runs with lossless traffic only); 0 = off" },
	{ "deadlock_persist_us", SB_P_DOUBLE, PFC(deadlock_persist_us), "1000", 0, 1e9, "us", NULL,
	  "a cycle of paused, backlogged queues counts as a deadlock once every queue on it has been paused this long (1 ms, our choice: docs/pfc.md §4)" },
	SB_PARAM_END
};

/* RDMA defaults reproduce the artifacts the papers were evaluated with: the Reverie/ns3-datacenter
 * config (inet-tub/ns3-datacenter, examples/Reverie/config-workload.txt; rdma-hw.cc for PowerTCP)
 * for framing, DCQCN and PowerTCP, and HPCC's run.py (alibaba-edu/High-Precision-Congestion-Control,
 * simulation/run.py) for HPCC and TIMELY; each doc names its source. */
#define RDMA(f) SB_FIELD(struct sb_rdma_params, f)
const struct sb_param sb_rdma_param_table[] = {
	{ "cc", SB_P_BOOL, RDMA(cc), "true", 0, 0, "", NULL,
	  "false = congestion control off for the whole run: every RDMA transport (dcqcn, hpcc, ...) sends at line rate like `rdma`, and only PFC slows it down" },
	{ "mtu", SB_P_INT, RDMA(mtu), "1000", 1, 65535, "bytes", NULL,
	  "payload bytes of a full RDMA data packet (Reverie and HPCC artifacts: 1000)" },
	{ "header_bytes", SB_P_INT, RDMA(header_bytes), "48", 0, 1024, "bytes", NULL,
	  "header bytes added to every RDMA data packet on the wire (Reverie artifact: 48)" },
	{ "ack_bytes", SB_P_INT, RDMA(ack_bytes), "64", 1, 65535, "bytes", NULL,
	  "wire size of an RDMA ACK or NACK (64 = a minimum Ethernet frame)" },
	{ "cnp_bytes", SB_P_INT, RDMA(cnp_bytes), "64", 1, 65535, "bytes", NULL,
	  "wire size of a DCQCN congestion notification packet (64 = a minimum Ethernet frame)" },
	{ "ack_path", SB_P_ENUM, RDMA(ack_path), "data", 0, 0, "", ack_path_choices,
	  "lane of the receivers' ACKs and NACKs: data = the data queue of the flow's priority, as RoCE NICs and the Reverie artifact send them (ACK_HIGH_PRIO 0): switches charge them to the buffer and PFC stops them, at the NIC too (they go ahead of the queue pairs' data but pause with their priority); control = the control queue, never paused, never charged (HPCC's ACK_HIGH_PRIO 1)" },
	{ "cnp", SB_P_ENUM, RDMA(cnp), "packet", 0, 0, "", rdma_cnp_choices,
	  "DCQCN notification: packet = a separate CNP of cnp_bytes in the control queue, as RoCE NICs send them (on a high, strict priority); ack = a CNP flag in the ACK of the marked packet, no extra packet (the Reverie and HPCC artifacts)" },
	{ "rto_us", SB_P_DOUBLE, RDMA(rto_us), "10000", 1, 1e9, "us", NULL,
	  "retransmission timeout: with no ACK progress for this long the sender goes back to its first unacknowledged byte. A safety net for a lost tail (NACKs repair holes that later packets reveal), so it must exceed any queueing or PFC delay of a lossless network: 10 ms is 31 MB at 25 Gb/s; RoCE NICs default to tens of ms" },
	{ "nack_interval_us", SB_P_DOUBLE, RDMA(nack_interval_us), "500", 0, 1e9, "us", NULL,
	  "a receiver sends one NACK per missing byte position, and repeats it only after this interval (500 as the HPCC ns-3 model)" },
	{ "first_rtt_bytes", SB_P_INT, RDMA(first_rtt_bytes), "0", 0, 1e12, "bytes", NULL,
	  "bytes at the start of every RDMA flow tagged first-RTT (unscheduled); 0 = one bandwidth-delay product of the flow's path (NIC rate × base RTT)" },
	{ "min_rate_mbps", SB_P_DOUBLE, RDMA(min_rate_mbps), "100", 0.001, 1e7, "Mb/s", NULL,
	  "lowest rate any RDMA congestion control may set (Reverie artifact MIN_RATE; PowerTCP's clamp)" },
	{ "dcqcn_g", SB_P_DOUBLE, RDMA(dcqcn_g), "0.00390625", 0, 1, "", NULL,
	  "DCQCN EWMA gain g of alpha (1/256, DCQCN paper and artifacts)" },
	{ "dcqcn_ai_mbps", SB_P_DOUBLE, RDMA(dcqcn_ai_mbps), "50", 0, 1e7, "Mb/s", NULL,
	  "DCQCN additive increase R_AI of the target rate (Reverie artifact; HPCC's run.py uses 5 per 25 Gb/s)" },
	{ "dcqcn_hai_mbps", SB_P_DOUBLE, RDMA(dcqcn_hai_mbps), "100", 0, 1e7, "Mb/s", NULL,
	  "DCQCN hyper increase R_HAI of the target rate (Reverie artifact; HPCC's run.py uses 50 per 25 Gb/s)" },
	{ "dcqcn_rate_decrease_interval_us", SB_P_DOUBLE, RDMA(dcqcn_rate_decrease_interval_us), "4", 0, 1e9, "us", NULL,
	  "DCQCN: the rate is cut at most once per interval; a CNP inside it is applied when it ends (Reverie and HPCC artifacts)" },
	{ "dcqcn_alpha_interval_us", SB_P_DOUBLE, RDMA(dcqcn_alpha_interval_us), "1", 0.001, 1e9, "us", NULL,
	  "DCQCN: alpha decays by (1 - g) per interval without a CNP (artifacts: 1; the paper's K = 55)" },
	{ "dcqcn_rp_timer_us", SB_P_DOUBLE, RDMA(dcqcn_rp_timer_us), "900", 0.001, 1e9, "us", NULL,
	  "DCQCN rate-increase timer: one increase event per period after a cut (Reverie artifact; the paper's 55, HPCC's run.py 300)" },
	{ "dcqcn_fast_recovery", SB_P_INT, RDMA(dcqcn_fast_recovery), "1", 0, 1000, "stages", NULL,
	  "DCQCN F: increase events of fast recovery after a cut before additive increase (Reverie artifact; the paper's F = 5)" },
	{ "dcqcn_byte_counter_bytes", SB_P_INT, RDMA(dcqcn_byte_counter_bytes), "0", 0, 1e15, "bytes", NULL,
	  "DCQCN byte counter B: one increase event per B bytes sent; 0 = off (the artifacts have only the timer; the paper's B = 10 MB)" },
	{ "dcqcn_clamp_target", SB_P_BOOL, RDMA(dcqcn_clamp_target), "false", 0, 0, "", NULL,
	  "DCQCN: true = every cut sets the target rate to the current rate; false = only the first cut after a timer increase does (artifact CLAMP_TARGET_RATE 0)" },
	{ "dcqcn_first_cut", SB_P_ENUM, RDMA(dcqcn_first_cut), "check", 0, 0, "", dcqcn_first_cut_choices,
	  "DCQCN: when the first CNP of a flow cuts its rate: check = at the first rate-decrease check after it (rate_decrease_interval_us later), with α as its clock left it, as Mellanox NICs and the artifacts do (the first CNP only starts the clocks: RateOnFirstCnp 1); cnp = at once, with α = 1 (a halving)" },
	{ "dcqcn_cnp_interval_us", SB_P_DOUBLE, RDMA(dcqcn_cnp_interval_us), "0", 0, 1e9, "us", NULL,
	  "DCQCN notification point: at most one CNP per flow per interval, sent on a CE-marked packet; 0 = one per marked packet, as the artifacts (their receivers echo ECN in every ACK, which their 1 us alpha clock assumes). The paper's N = 50 goes with its 55 us alpha timer: with a 1 us clock it leaves alpha near 0.02 under persistent marking" },
	{ "hpcc_eta", SB_P_DOUBLE, RDMA(hpcc_eta), "0.95", 0.01, 1, "", NULL,
	  "HPCC target utilisation eta (HPCC paper and run.py)" },
	{ "hpcc_mi_thresh", SB_P_INT, RDMA(hpcc_mi_thresh), "5", 0, 1000, "stages", NULL,
	  "HPCC maxStage: additive-increase steps before a multiplicative one while below eta (ns3-datacenter, the artifact of Reverie and DSH: 5; HPCC's run.py: 0)" },
	{ "hpcc_ai_mbps", SB_P_DOUBLE, RDMA(hpcc_ai_mbps), "0", 0, 1e7, "Mb/s", NULL,
	  "HPCC additive increase W_AI as a rate; 0 = 10 Mb/s per 25 Gb/s of the NIC rate (HPCC's run.py)" },
	{ "powertcp_gamma", SB_P_DOUBLE, RDMA(powertcp_gamma), "0.9", 0.01, 1, "", NULL,
	  "PowerTCP EWMA weight gamma of the new rate against the current one (paper and ns3-datacenter)" },
	{ "powertcp_beta_mbps", SB_P_DOUBLE, RDMA(powertcp_beta_mbps), "150", 0, 1e7, "Mb/s", NULL,
	  "PowerTCP and theta-PowerTCP additive increase beta (ns3-datacenter)" },
	{ "powertcp_eta", SB_P_DOUBLE, RDMA(powertcp_eta), "0.95", 0.01, 1, "", NULL,
	  "PowerTCP and theta-PowerTCP target utilisation (ns3-datacenter U_TARGET)" },
	{ "thetapowertcp_gamma", SB_P_DOUBLE, RDMA(thetapowertcp_gamma), "0.7", 0.01, 1, "", NULL,
	  "theta-PowerTCP EWMA weight gamma (ns3-datacenter's delay variant: 0.7 new, 0.3 old)" },
	{ "timely_alpha", SB_P_DOUBLE, RDMA(timely_alpha), "0.875", 0, 1, "", NULL,
	  "TIMELY EWMA weight of the newest RTT difference (ns3-datacenter)" },
	{ "timely_beta", SB_P_DOUBLE, RDMA(timely_beta), "0.8", 0, 1, "", NULL,
	  "TIMELY multiplicative decrease factor beta (TIMELY paper, ns3-datacenter)" },
	{ "timely_tlow_us", SB_P_DOUBLE, RDMA(timely_tlow_us), "50", 0, 1e9, "us", NULL,
	  "TIMELY T_low: below this RTT the rate always grows additively (paper, ns3-datacenter)" },
	{ "timely_thigh_us", SB_P_DOUBLE, RDMA(timely_thigh_us), "500", 0, 1e9, "us", NULL,
	  "TIMELY T_high: above this RTT the rate is cut by beta (1 - T_high / RTT) (paper, ns3-datacenter)" },
	{ "timely_min_rtt_us", SB_P_DOUBLE, RDMA(timely_min_rtt_us), "20", 0.001, 1e9, "us", NULL,
	  "TIMELY minRTT normalising the RTT gradient (ns3-datacenter)" },
	{ "timely_ai_mbps", SB_P_DOUBLE, RDMA(timely_ai_mbps), "0", 0, 1e7, "Mb/s", NULL,
	  "TIMELY additive increase delta; 0 = 10 Mb/s per 10 Gb/s of the NIC rate (HPCC's run.py)" },
	{ "timely_hai_mbps", SB_P_DOUBLE, RDMA(timely_hai_mbps), "0", 0, 1e7, "Mb/s", NULL,
	  "TIMELY hyper-active increase N delta; 0 = 50 Mb/s per 10 Gb/s of the NIC rate (HPCC's run.py; the paper's N = 5)" },
	{ "timely_hai_after", SB_P_INT, RDMA(timely_hai_after), "5", 1, 1000000, "updates", NULL,
	  "TIMELY enters hyper-active increase after this many consecutive updates with a negative gradient (paper: 5)" },
	SB_PARAM_END
};

static size_t scheme_count(void)
{
	size_t n = 0;
	for (const struct sb_bm_ops *const *s = sb_bm_all(); *s; s++)
		n++;
	return n;
}

const struct sb_workload_ops *sb_scenario_workload_type(const struct sb_scenario *sc, const char *name)
{
	for (const struct sb_workload_ops *const *t = sc->workload_types; t && *t; t++)
		if (strcmp((*t)->name, name) == 0)
			return *t;
	return NULL;
}

void sb_scenario_defaults_net(struct sb_scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	sb_params_defaults(sb_run_param_table, &sc->run);
	sb_params_defaults(sb_topo_param_table, &sc->topo);
	sb_params_defaults(sb_switch_param_table, &sc->sw);
	sb_params_defaults(sb_host_param_table, &sc->host);
	sb_params_defaults(sb_tcp_param_table, &sc->tcp);
	sb_params_defaults(sb_pfc_param_table, &sc->pfc);
	sb_params_defaults(sb_rdma_param_table, &sc->rdma);

	const struct sb_bm_ops *const *all = sb_bm_all();
	size_t n = scheme_count();
	/* One extra NULL slot so the array is safe to walk without knowing the count. */
	sc->scheme_params = sb_xcalloc(n + 1, sizeof(*sc->scheme_params));
	for (size_t i = 0; i < n; i++) {
		sc->scheme_params[i] = sb_xcalloc(1, all[i]->state_size ? all[i]->state_size : 1);
		sb_params_defaults(all[i]->params, sc->scheme_params[i]);
	}
	sc->source = sb_xstrdup("(default)");
}

/* --- where keys came from --- */

void sb_scenario_note_origin(struct sb_scenario *sc, const char *key, const char *file, int line)
{
	/* appended, never searched here: a scenario of many workloads notes many keys, and only
	 * a failing check looks one up */
	if (sc->norigins == sc->origins_cap) {
		sc->origins_cap = sc->origins_cap ? 2 * sc->origins_cap : 64;
		sc->origins = sb_xrealloc(sc->origins, sc->origins_cap * sizeof(*sc->origins));
	}
	sc->origins[sc->norigins++] = (struct sb_key_origin){ sb_xstrdup(key), file ? sb_xstrdup(file) : NULL, line };
}

void sb_scenario_forget_origins(struct sb_scenario *sc, const char *prefix)
{
	size_t keep = 0, len = strlen(prefix);
	for (size_t i = 0; i < sc->norigins; i++) {
		struct sb_key_origin *o = &sc->origins[i];
		if (strncmp(o->key, prefix, len) == 0) {
			free(o->key);
			free(o->file);
		} else {
			sc->origins[keep++] = *o;
		}
	}
	sc->norigins = keep;
}

/* The latest origin of the first `len` characters of a key. */
static const struct sb_key_origin *origin_n(const struct sb_scenario *sc, const char *key, size_t len)
{
	for (size_t i = sc->norigins; i-- > 0;)
		if (strncmp(sc->origins[i].key, key, len) == 0 && sc->origins[i].key[len] == 0)
			return &sc->origins[i];
	return NULL;
}

const struct sb_key_origin *sb_scenario_origin(const struct sb_scenario *sc, const char *key)
{
	return origin_n(sc, key, strlen(key));
}

const char *sb_scenario_latest_key(const struct sb_scenario *sc, const char *prefix)
{
	size_t len = strlen(prefix);
	for (size_t i = sc->norigins; i-- > 0;)
		if (strncmp(sc->origins[i].key, prefix, len) == 0)
			return sc->origins[i].key;
	return NULL;
}

void sb_scenario_place(const struct sb_scenario *sc, const char *key, char *buf, size_t n)
{
	/* the key itself ("srcs[1]" is written where "srcs" is), else its innermost noted group */
	size_t len = strcspn(key, "[");
	const struct sb_key_origin *o = NULL;
	while (len > 0 && !(o = origin_n(sc, key, len))) {
		while (len > 0 && key[len - 1] != '.')
			len--;
		if (len > 0)
			len--; /* drop the dot */
	}
	if (!o)
		snprintf(buf, n, "%s", key);
	else if (!o->file)
		snprintf(buf, n, "--set %s", key);
	else if (o->line > 0)
		snprintf(buf, n, "%s:%d: %s", o->file, o->line, key);
	else
		snprintf(buf, n, "%s: %s", o->file, key);
}

int sb_scenario_fail(const struct sb_scenario *sc, const char *key, struct sb_error *err, const char *fmt, ...)
{
	char place[400], what[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	sb_scenario_place(sc, key, place, sizeof(place));
	return sb_fail(err, "%s: %s", place, what);
}

char *sb_scenario_path(const struct sb_scenario *sc, const char *key, const char *path)
{
	const struct sb_key_origin *o = sb_scenario_origin(sc, key);
	const char *slash = o && o->file ? strrchr(o->file, '/') : NULL;
	if (path[0] == '/' || !slash)
		return sb_xstrdup(path);
	size_t dir = (size_t)(slash - o->file) + 1, len = strlen(path);
	char *full = sb_xmalloc(dir + len + 1);
	memcpy(full, o->file, dir);
	memcpy(full + dir, path, len + 1);
	return full;
}

static int workload_fail(const void *ctx, const char *key, struct sb_error *err, const char *what)
{
	return sb_scenario_fail(ctx, key, err, "%s", what);
}

static char *workload_path(const void *ctx, const char *key, const char *value)
{
	return sb_scenario_path(ctx, key, value);
}

struct sb_wl_env sb_scenario_workload_env(const struct sb_scenario *sc, size_t wi)
{
	return (struct sb_wl_env){ .ctx = sc, .fail = workload_fail, .path = workload_path, .index = wi };
}

void sb_scenario_free(struct sb_scenario *sc)
{
	sb_scenario_forget_origins(sc, "");
	free(sc->origins);
	sb_params_free(sb_run_param_table, &sc->run);
	sb_params_free(sb_topo_param_table, &sc->topo);
	sb_params_free(sb_switch_param_table, &sc->sw);
	sb_params_free(sb_host_param_table, &sc->host);
	sb_params_free(sb_tcp_param_table, &sc->tcp);
	sb_params_free(sb_pfc_param_table, &sc->pfc);
	sb_params_free(sb_rdma_param_table, &sc->rdma);
	for (size_t i = 0; i < sc->nworkloads; i++)
		sb_workload_clear(&sc->workloads[i]);
	free(sc->workloads);
	if (sc->scheme_params) {
		const struct sb_bm_ops *const *all = sb_bm_all();
		for (size_t i = 0; all[i]; i++) {
			sb_params_free(all[i]->params, sc->scheme_params[i]);
			free(sc->scheme_params[i]);
		}
		free(sc->scheme_params);
	}
	free(sc->source);
	memset(sc, 0, sizeof(*sc));
}

uint32_t sb_scenario_max_frame_bytes(const struct sb_scenario *sc)
{
	int64_t tcp = sc->tcp.mss + sc->tcp.header_bytes, rdma = sc->rdma.mtu + sc->rdma.header_bytes;
	return (uint32_t)(tcp > rdma ? tcp : rdma);
}
