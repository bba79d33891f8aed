/*
 * scenario_validate.c — the cross-field checks of a scenario (sb_scenario_validate): what no
 * single key's range can say, such as a host index beyond the topology, a workload that needs
 * two racks on a single switch, a time finer than the event core's picosecond, or DRR weights
 * that do not fit a quantum. Each failure names the key (and where it was set) through
 * sb_scenario_fail(), so the user sees file:line or `--set`, the key and what was expected.
 *
 * This file holds the checks of everything but the workloads (sb_scenario_validate_net): the
 * software switch validates a scenario with it and links no transport or workload code. The
 * workloads' own checks, which name transports, are in validate_workloads.c.
 */
#include "scenario/scenario.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/mmu.h"
#include "scenario/validate_internal.h"

struct sb_topo_shape sb_topo_shape(const struct sb_topo_params *t)
{
	struct sb_topo_shape s = { 0, 1, 0, false };
	switch (t->type) {
	case SB_TOPO_SINGLE:
		s.hosts = t->hosts;
		s.hosts_per_rack = t->hosts;
		break;
	case SB_TOPO_LEAFSPINE:
		s.hosts = t->hosts_per_leaf * t->leaves;
		s.racks = t->leaves;
		s.hosts_per_rack = t->hosts_per_leaf;
		s.has_uplinks = true;
		break;
	case SB_TOPO_FATTREE:
		s.hosts = t->k * t->k * t->k / 4;
		s.racks = t->k * t->k / 2;
		s.hosts_per_rack = t->k / 2;
		s.has_uplinks = true;
		break;
	}
	return s;
}

int sb_scenario_check_host(const struct sb_scenario *sc, struct sb_error *err, const char *key, int64_t h,
			   const struct sb_topo_shape *s)
{
	if (h >= s->hosts)
		return sb_scenario_fail(sc, key, err, "host %" PRId64 " does not exist, the topology has %" PRId64
					" hosts (0..%" PRId64 ")", h, s->hosts, s->hosts - 1);
	return 0;
}

void sb_list_names(char *buf, size_t n, const char *const *names, size_t count)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < count && names[i] && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? "|" : "", names[i]);
}

/*
 * Time keys are converted to whole picoseconds (core/time.h). A positive value below half a
 * picosecond becomes 0, which is never what was asked: a sample interval of 1e-7 us turned
 * sampling off silently, a syn_timeout_us of 1e-7 retransmitted the SYN for ever at the same
 * instant, a deadlock_check_us of 1e-9 ran the detector at every picosecond. Checked for every
 * key of `table` whose unit is ms, us or ns.
 */
static int check_time_resolution(const struct sb_scenario *sc, const char *prefix, const struct sb_param *table,
				 const void *obj, struct sb_error *err)
{
	for (const struct sb_param *p = table; p && p->name; p++) {
		if (p->type != SB_P_DOUBLE || !p->unit)
			continue;
		double ps_per_unit = !strcmp(p->unit, "ms") ? 1e9 : !strcmp(p->unit, "us") ? 1e6
				     : !strcmp(p->unit, "ns") ? 1e3 : 0;
		double v = *(const double *)(const void *)((const char *)obj + p->offset);
		if (ps_per_unit > 0 && v > 0 && v * ps_per_unit < 0.5) {
			char key[160];
			snprintf(key, sizeof(key), "%s%s", prefix, p->name);
			char lo[SB_NUM_TEXT], got[SB_NUM_TEXT];
			return sb_scenario_fail(sc, key, err, "expected %sat least %s %s (1 ps, the clock's resolution), got %s %s, "
						"which would be 0", p->min > 0 ? "" : "0 or ", sb_param_num_text(1 / ps_per_unit, lo),
						p->unit, sb_param_num_text(v, got), p->unit);
		}
	}
	return 0;
}

/* Of two keys a check relates, the one the scenario set last (a if it set neither): the
 * message goes where the user last wrote. */
static const char *set_last(const struct sb_scenario *sc, const char *a, const char *b)
{
	for (size_t i = sc->norigins; i-- > 0;) {
		if (!strcmp(sc->origins[i].key, a))
			return a;
		if (!strcmp(sc->origins[i].key, b))
			return b;
	}
	return a;
}

/* Ports of the largest switch of the topology: a node has at most 65535 (its port indices
 * are 16 bits), which topo.c could only report without the key to change. */
static int check_ports(const struct sb_scenario *sc, struct sb_error *err)
{
	const struct sb_topo_params *t = &sc->topo;
	if (t->type != SB_TOPO_LEAFSPINE)
		return 0; /* single: hosts <= 4096; fattree: k <= 64 */
	int64_t leaf = t->hosts_per_leaf + t->spines * t->links_per_spine, spine = t->leaves * t->links_per_spine;
	if (leaf > 65535)
		return sb_scenario_fail(sc, set_last(sc, "topology.spines", "topology.links_per_spine"), err,
					"expected at most 65535 ports per switch, got %" PRId64 " on each leaf "
					"(hosts_per_leaf + spines × links_per_spine)", leaf);
	if (spine > 65535)
		return sb_scenario_fail(sc, set_last(sc, "topology.leaves", "topology.links_per_spine"), err,
					"expected at most 65535 ports per switch, got %" PRId64 " on each spine "
					"(leaves × links_per_spine)", spine);
	return 0;
}

/* The most a DRR queue may be credited per turn: quantum = weight × drr_quantum_bytes is kept in
 * 32 bits and added to a signed 32-bit deficit (net/port.h); beyond 2^31 the product wrapped (a
 * quantum of 0 left a host NIC looping for ever) or overflowed the deficit. 2^30 leaves room
 * for the largest packet on top. */
#define DRR_MAX_QUANTUM 1073741824.0

static int check_drr(const struct sb_scenario *sc, const char *group, const double weight[8], int64_t quantum,
		     struct sb_error *err)
{
	for (int p = 0; p < 8; p++) {
		double q = weight[p] * (double)quantum;
		if (q > DRR_MAX_QUANTUM) {
			char wkey[48], qkey[48], wtext[SB_NUM_TEXT], qtext[SB_NUM_TEXT];
			snprintf(wkey, sizeof(wkey), "%s.drr_weight", group);
			snprintf(qkey, sizeof(qkey), "%s.drr_quantum_bytes", group);
			const char *key = set_last(sc, wkey, qkey);
			return sb_scenario_fail(sc, key, err, "expected drr_weight × drr_quantum_bytes of at most 2^30 = "
						"1073741824 bytes per turn, got %s × %" PRId64 " = %s at priority %d",
						sb_param_num_text(weight[p], wtext), quantum, sb_param_num_text(q, qtext), p);
		}
	}
	return 0;
}

/* The groups whose time keys check_time_resolution covers: every one of the scenario, the
 * selected scheme's, and each workload's. */
static int check_times(const struct sb_scenario *sc, struct sb_error *err)
{
	static const struct { const char *prefix; const struct sb_param *table; size_t offset; } groups[] = {
		{ "run.", sb_run_param_table, offsetof(struct sb_scenario, run) },
		{ "topology.", sb_topo_param_table, offsetof(struct sb_scenario, topo) },
		{ "switch.", sb_switch_param_table, offsetof(struct sb_scenario, sw) },
		{ "host.", sb_host_param_table, offsetof(struct sb_scenario, host) },
		{ "tcp.", sb_tcp_param_table, offsetof(struct sb_scenario, tcp) },
		{ "pfc.", sb_pfc_param_table, offsetof(struct sb_scenario, pfc) },
		{ "rdma.", sb_rdma_param_table, offsetof(struct sb_scenario, rdma) },
	};
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		if (check_time_resolution(sc, groups[g].prefix, groups[g].table, (const char *)sc + groups[g].offset, err))
			return -1;
	const struct sb_bm_ops *const *all = sb_bm_all();
	for (size_t i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, sc->sw.scheme)) {
			char prefix[64];
			snprintf(prefix, sizeof(prefix), "switch.%s.", all[i]->name);
			if (check_time_resolution(sc, prefix, all[i]->params, sc->scheme_params[i], err))
				return -1;
		}
	for (size_t w = 0; w < sc->nworkloads; w++) {
		char prefix[48];
		snprintf(prefix, sizeof(prefix), "workloads.%zu.", w);
		if (check_time_resolution(sc, prefix, sc->workloads[w].ops->params, sc->workloads[w].params, err))
			return -1;
	}
	return 0;
}

int sb_scenario_validate_net(const struct sb_scenario *sc, struct sb_error *err)
{
	const struct sb_run_params *run = &sc->run;
	const struct sb_topo_params *t = &sc->topo;

	char num[SB_NUM_TEXT];
	if (!(run->duration_ms > 0))
		return sb_scenario_fail(sc, "run.duration_ms", err, "must be greater than 0, got %s",
					sb_param_num_text(run->duration_ms, num));

	if (t->type == SB_TOPO_FATTREE && t->k % 2 != 0)
		return sb_scenario_fail(sc, "topology.k", err, "a fattree needs an even k, got %" PRId64, t->k);
	if (check_ports(sc, err))
		return -1;

	if (!sc->sw.scheme || !sb_bm_find(sc->sw.scheme)) {
		char known[256];
		const char *names[64];
		size_t n = 0;
		for (const struct sb_bm_ops *const *b = sb_bm_all(); *b && n < 64; b++)
			names[n++] = (*b)->name;
		sb_list_names(known, sizeof(known), names, n);
		return sb_scenario_fail(sc, "switch.scheme", err, "unknown scheme \"%s\", expected one of %s",
					sc->sw.scheme ? sc->sw.scheme : "", known);
	}
	if (check_times(sc, err) || check_drr(sc, "switch", sc->sw.drr_weight, sc->sw.drr_quantum_bytes, err) ||
	    check_drr(sc, "host", sc->host.drr_weight, sc->host.drr_quantum_bytes, err))
		return -1;
	if (sc->sw.buffer_bytes == 0 && sc->sw.buffer_per_port_per_gbps <= 0)
		return sb_scenario_fail(sc, "switch.buffer_per_port_per_gbps", err,
					"must be greater than 0 when switch.buffer_bytes = 0 (the buffer would be empty)");
	if (sc->sw.ecn_mode == SB_ECN_RED)
		for (int p = 0; p < 8; p++)
			if (sc->sw.ecn_kmax_bytes[p] < sc->sw.ecn_kmin_bytes[p]) {
				char hi[SB_NUM_TEXT], lo[SB_NUM_TEXT];
				return sb_scenario_fail(sc, set_last(sc, "switch.ecn_kmax_bytes", "switch.ecn_kmin_bytes"), err,
							"priority %d: %s is below ecn_kmin_bytes (%s); red needs kmin <= kmax", p,
							sb_param_num_text(sc->sw.ecn_kmax_bytes[p], hi),
							sb_param_num_text(sc->sw.ecn_kmin_bytes[p], lo));
			}

	if (sc->tcp.mss + sc->tcp.header_bytes > 65535)
		return sb_scenario_fail(sc, set_last(sc, "tcp.mss", "tcp.header_bytes"), err, "mss + header_bytes = %" PRId64 " bytes, a packet can be at most 65535 bytes",
					sc->tcp.mss + sc->tcp.header_bytes);

	if (sc->rdma.mtu + sc->rdma.header_bytes > 65535)
		return sb_scenario_fail(sc, set_last(sc, "rdma.mtu", "rdma.header_bytes"), err, "mtu + header_bytes = %" PRId64 " bytes, a packet can be at most 65535 bytes",
					sc->rdma.mtu + sc->rdma.header_bytes);
	if (sc->rdma.timely_thigh_us < sc->rdma.timely_tlow_us) {
		char hi[SB_NUM_TEXT], lo[SB_NUM_TEXT];
		return sb_scenario_fail(sc, set_last(sc, "rdma.timely_thigh_us", "rdma.timely_tlow_us"), err,
					"%s is below timely_tlow_us (%s); TIMELY needs T_low <= T_high",
					sb_param_num_text(sc->rdma.timely_thigh_us, hi), sb_param_num_text(sc->rdma.timely_tlow_us, lo));
	}

	struct sb_topo_shape shape = sb_topo_shape(t);
	if (run->sample_hosts.n && !(run->sample_interval_us > 0))
		return sb_scenario_fail(sc, "run.sample_hosts", err,
					"sampling host throughput needs run.sample_interval_us > 0, got %s",
					sb_param_num_text(run->sample_interval_us, num));
	for (size_t i = 0; i < run->sample_hosts.n; i++) {
		char elem[48];
		snprintf(elem, sizeof(elem), "run.sample_hosts[%zu]", i);
		if (sb_scenario_check_host(sc, err, elem, run->sample_hosts.v[i], &shape))
			return -1;
	}
	return 0;
}
