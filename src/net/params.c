/*
 * params.c — the parameter tables of switches, host NICs and PFC (net/params.h).
 *
 * Their docs are written for users of the tool (docs/scenario-keys.md is generated from them):
 * what the key is, its unit, and what 0 means when 0 is special.
 */
#include "net/params.h"

#include <stddef.h>

#define SW(f) SB_FIELD(struct sb_switch_params, f)

static const char *const sched_choices[] = { "sp", "drr", "rr", NULL };
static const char *const ecn_mode_choices[] = { "off", "red", "step", NULL };
static const char *const ecn_at_choices[] = { "enqueue", "dequeue", NULL };
static const char *const nic_control_choices[] = { "priority", "fifo", NULL }; /* SB_NIC_CONTROL_* */
static const char *const pfc_mode_choices[] = { "onoff", "quanta", NULL };

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
