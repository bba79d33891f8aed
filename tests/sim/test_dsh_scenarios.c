/*
 * test_dsh_scenarios.c — DSH and SIH (src/mmu/bm_dsh.c) in the simulator, with line-rate CBR
 * senders (the paper's "CC none") and every invariant checked: the pools of the paper's
 * Tomahawk switch, the Fig. 11 knee, port-level safety, lossless incast, undersized headroom,
 * and lossy-only runs. The state machines driven directly are in tests/sim/test_dsh.c.
 *
 * Vectors are worked from the DSH paper (ICDCS'23): Eq. 1 and §V-A (η = 56,840 B and the
 * Tomahawk pools), the fluid knee of Fig. 11, and what the design promises (port-level safety,
 * zero lossless drops).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mmu/bm_dsh.h"
#include "mmu/mmu.h"
#include "net/pfc.h"
#include "sim/sim.h"
#include "testlib.h"

#define MIB16 16777216ULL
#define ETA_100G 56840 /* Eq. (1) at 100 Gb/s, 2 us, 1500 B */

/* The paper's Tomahawk switch (§V-A): 100 Gb/s ports, 2 us links, 16 MiB, DWRR quantum 1600 B,
 * 1500-byte frames (so η = 56,840 B), no ECN, reserves for 7 lossless queues per port whatever
 * the traffic uses; `hosts` hosts and the given workloads. */
static void tomahawk(struct sb_scenario *sc, int hosts, double duration_ms, const char *workloads,
		     const char *scheme)
{
	char text[8192];
	snprintf(text, sizeof(text),
		 "run: { duration_ms = %g; sample_interval_us = 0.0; sample_switches = \"none\"; };\n"
		 "topology: { type = \"single\"; hosts = %d; host_rate_gbps = 100.0; host_delay_us = 2.0; };\n"
		 "switch: { scheme = \"%s\"; buffer_bytes = 16777216; ecn_mode = \"off\"; drr_quantum_bytes = 1600;\n"
		 "  sih: { lossless_queues = 7; }; dsh: { lossless_queues = 7; }; };\n"
		 "tcp: { mss = 1452; header_bytes = 48; };\n"
		 "pfc: { deadlock_check_us = 0.0; };\n"
		 "workloads = (%s);\n",
		 duration_ms, hosts, scheme, workloads);
	tl_scenario(sc, text, NULL, 0);
}

/* §2.2 and §7 item 2: the pools of the paper's switch, read from the scheme after start. */
static void pools_of(const char *scheme, int hosts, const char *ports, struct sb_dsh_pools *out, uint64_t *t,
		     int64_t *xq, uint64_t *xp, uint64_t *eta)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	tomahawk(&sc, hosts, 1, "{ type = \"cbr\"; srcs = [1]; dst = 0; prio = 1; class = \"lossless\"; }", scheme);
	if (ports)
		tl_set_scheme(&sc, scheme, "ports", ports);
	tl_build(&sim, &sc);
	const struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	sb_dsh_get_pools(m, out);
	*t = sb_dsh_threshold(m);
	*xq = sb_dsh_xqoff(m, 0);
	*xp = sb_dsh_xpoff(m);
	*eta = sb_dsh_eta(m, (uint16_t)(hosts - 1));
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_tomahawk_pools(void **state)
{
	(void)state;
	struct sb_dsh_pools p;
	uint64_t t, xp, eta;
	int64_t xq;
	pools_of("sih", 32, NULL, &p, &t, &xq, &xp, &eta);
	printf("  SIH: B_p %llu, h %llu, B_s %llu, T %llu\n", (unsigned long long)p.private_total,
	       (unsigned long long)p.headroom_total, (unsigned long long)p.shared, (unsigned long long)t);
	assert_int_equal(eta, ETA_100G);
	assert_int_equal(p.private_total, 688128);
	assert_int_equal(p.headroom_total, 12732160);
	assert_int_equal(p.shared, 3356928);
	assert_int_equal(t, 209808);
	assert_int_equal(xq, 209808); /* SIH: X_off = T */
	assert_int_equal(xp, 0);
	pools_of("dsh", 32, NULL, &p, &t, &xq, &xp, &eta);
	printf("  DSH: B_p %llu, B_i %llu, B_s %llu, T %llu, X_qoff %lld, X_poff %llu\n",
	       (unsigned long long)p.private_total, (unsigned long long)p.headroom_total,
	       (unsigned long long)p.shared, (unsigned long long)t, (long long)xq, (unsigned long long)xp);
	assert_int_equal(p.private_total, 688128);
	assert_int_equal(p.headroom_total, 1818880);
	assert_int_equal(p.shared, 14270208);
	assert_int_equal(t, 891888);
	assert_int_equal(xq, 835048);
	assert_int_equal(xp, 6243216);
	/* U16: a 16-port switch reserving for 32 ports has the same pools */
	pools_of("dsh", 16, "32", &p, &t, &xq, &xp, &eta);
	assert_int_equal(p.ports, 32);
	assert_int_equal(p.shared, 14270208);
	pools_of("sih", 16, "32", &p, &t, &xq, &xp, &eta);
	assert_int_equal(p.shared, 3356928);
	/* ... and reserving for its own 16: B − 16·7·3072 − 16·56,840 */
	pools_of("dsh", 16, NULL, &p, &t, &xq, &xp, &eta);
	assert_int_equal(p.shared, 16777216 - 344064 - 909440);
	/* N_q = 8 in X_poff (U3's alternative) */
	struct sb_scenario sc;
	struct sb_sim sim;
	tomahawk(&sc, 32, 1, "{ type = \"cbr\"; srcs = [1]; dst = 0; prio = 1; class = \"lossless\"; }", "dsh");
	tl_set_scheme(&sc, "dsh", "nq_port_multiplier", "8");
	tl_build(&sim, &sc);
	assert_int_equal(sb_dsh_xpoff(sim.net.switches[0]->mmus[0]), 7135104);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

/* port_gbps: the Fig. 12 leaf-spine (16 x 100G hosts per leaf, 400G uplinks, S0-L3 and S1-L0
 * removed) on 32 x 100G chips. A 400G port takes 4 of the 32 ports; the ports left over are
 * reserved at 100G (Eq. (1): 56,840 B), the 400G ports at their own 206,840 B (U17). */
static void fig12_pools(const char *scheme, const char *sw, const char *ports, struct sb_dsh_pools *out,
			struct sb_error *err)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	char text[2048];
	snprintf(text, sizeof(text),
		 "run: { duration_ms = 1.0; sample_interval_us = 0.0; sample_switches = \"none\"; };\n"
		 "topology: { leaves = 4; hosts_per_leaf = 16; spines = 2; host_rate_gbps = 100.0;\n"
		 "  fabric_rate_gbps = 400.0; remove_links = (\"spine0-leaf3\", \"spine1-leaf0\"); };\n"
		 "switch: { scheme = \"%s\"; buffer_bytes = 16777216;\n"
		 "  %s: { lossless_queues = 7; ports = %s; port_gbps = 100.0; }; };\n"
		 "rdma: { mtu = 1452; header_bytes = 48; };\n"
		 "workloads = ({ type = \"longlived\"; transport = \"dcqcn\"; srcs = [1]; dst = 0; prio = 2; });\n",
		 scheme, scheme, ports);
	tl_scenario(&sc, text, NULL, 0);
	*out = (struct sb_dsh_pools){ 0 };
	if (sb_sim_build(&sim, &sc, err) == 0) {
		for (uint32_t i = 0; i < sim.net.nswitches; i++)
			if (!strcmp(sim.net.switches[i]->node.name, sw))
				sb_dsh_get_pools(sim.net.switches[i]->mmus[0], out);
	}
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_pools_in_100g_ports(void **state)
{
	(void)state;
	const uint64_t eta400 = 206840, phi7 = 7 * 3072;
	struct sb_dsh_pools p;
	struct sb_error err = { "" };
	/* leaf1: 16 hosts + 2 uplinks of 400G = 24 ports of 100G, 8 left over */
	fig12_pools("sih", "leaf1", "32", &p, &err);
	uint64_t sum = 24 * ETA_100G + 2 * eta400;
	assert_int_equal(p.ports, 26);
	assert_int_equal(p.private_total, 26 * phi7);
	assert_int_equal(p.headroom_total, 7 * sum);
	assert_int_equal(p.shared, MIB16 - 26 * phi7 - 7 * sum);
	printf("  leaf1 SIH: B_p %llu, h %llu, B_s %llu\n", (unsigned long long)p.private_total,
	       (unsigned long long)p.headroom_total, (unsigned long long)p.shared);
	fig12_pools("dsh", "leaf1", "32", &p, &err);
	assert_int_equal(p.headroom_total, sum);
	assert_int_equal(p.shared, MIB16 - 26 * phi7 - sum);
	/* leaf0 lost an uplink: 20 ports of 100G, 12 left over */
	fig12_pools("sih", "leaf0", "32", &p, &err);
	assert_int_equal(p.ports, 29);
	assert_int_equal(p.headroom_total, 7 * (28 * ETA_100G + eta400));
	/* spine0: 3 uplinks of 400G = 12, 20 left over */
	fig12_pools("sih", "spine0", "32", &p, &err);
	assert_int_equal(p.ports, 23);
	assert_int_equal(p.shared, MIB16 - 23 * phi7 - 7 * (20 * ETA_100G + 3 * eta400));
	/* fewer ports than a switch fills (leaf0 needs 20, leaf1 24) */
	fig12_pools("sih", "leaf1", "20", &p, &err);
	/* placed at the scheme's key the scenario set last */
	assert_string_equal(err.msg, "(default):5: switch.sih.port_gbps: switch leaf1: sih: ports = 20 reserves for fewer ports "
				     "than the switch's 24 (counted in ports of port_gbps)");
}

static struct sb_port *switch_port_to(struct sb_sim *sim, uint32_t host)
{
	struct sb_switch *sw = sim->net.switches[0];
	for (uint16_t i = 0; i < sw->node.nports; i++)
		if (sw->node.ports[i].peer->node == &sim->net.hosts[host]->node)
			return &sw->node.ports[i];
	fail_msg("no port to host %u", host);
	return NULL;
}

/* --- Fig. 11: PFC avoidance (§4.2, §3.4) --- */

/* Fan-in senders h2..h17 that received a PAUSE, and their total paused time, for a burst of
 * `permille` of the 16 MiB buffer (bytes on the wire, split over the 16 senders: 1452 payload
 * bytes per 1500-byte frame), the burst starting at 0.3 ms on top of two line-rate background
 * flows h0, h1 -> h31. */
static int fig11_paused_senders(const char *scheme, int permille, double *paused_us)
{
	char wl[1024];
	snprintf(wl, sizeof(wl),
		 "{ type = \"cbr\"; srcs = [0, 1]; dst = 31; rate_gbps = 100.0; packet_bytes = 1500; size_bytes = 0;"
		 "  prio = 2; class = \"lossless\"; },\n"
		 "{ type = \"cbr\"; srcs = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]; dst = 30;"
		 "  rate_gbps = 100.0; packet_bytes = 1500; size_bytes = %llu; start_ms = 0.3; prio = 1;"
		 "  class = \"lossless\"; }",
		 (unsigned long long)(MIB16 * (uint64_t)permille / 1000 / 16 * 1452 / 1500));
	struct sb_scenario sc;
	struct sb_sim sim;
	tomahawk(&sc, 32, 0.45, wl, scheme);
	tl_run_checked(&sim, &sc);
	int paused = 0;
	*paused_us = 0;
	for (uint32_t h = 2; h <= 17; h++) {
		struct sb_port *nic = &sim.net.hosts[h]->node.ports[0];
		paused += nic->pause_rx > 0;
		*paused_us += sb_time_to_us(sb_pfc_paused_time(&sim.net, nic, 1));
	}
	assert_int_equal(sim.net.stats.pkts_dropped, 0);
	assert_int_equal(sim.net.switches[0]->mmus[0]->pfc_port_pauses_sent, 0);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return paused;
}

/* The largest burst (permille of B, to 10 ‰) no fan-in sender is paused for, by bisection. */
static int fig11_knee(const char *scheme, int lo, int hi)
{
	double us;
	if (lo > 0) /* (a burst of 0 bytes would be an unbounded CBR flow) */
		assert_int_equal(fig11_paused_senders(scheme, lo, &us), 0);
	assert_true(fig11_paused_senders(scheme, hi, &us) > 0);
	while (hi - lo > 10) {
		int mid = (lo + hi) / 2;
		if (fig11_paused_senders(scheme, mid, &us) == 0)
			lo = mid;
		else
			hi = mid;
	}
	int n = fig11_paused_senders(scheme, hi, &us);
	printf("  %s: no PAUSE up to %.1f %% of B; at %.1f %%: %d senders paused, %.2f us in total\n", scheme,
	       lo / 10.0, hi / 10.0, n, us);
	return lo;
}

/* §3.4 and §7 item 5: SIH absorbs ≈10 % of the buffer without PAUSE, DSH ≈40 % (fluid:
 * 9.8–10.0 % and 39.0–40.0 %, depending on how the background queues follow the threshold). */
static void test_fig11_knee(void **state)
{
	(void)state;
	int sih = fig11_knee("sih", 0, 300), dsh = fig11_knee("dsh", 200, 600);
	printf("  knee: SIH %.1f %%, DSH %.1f %% of the buffer (paper: ~10 %%, 40 %%), DSH/SIH %.2f (paper: over 4x)\n",
	       sih / 10.0, dsh / 10.0, (double)dsh / sih);
	assert_in_range(sih, 50, 200);
	assert_in_range(dsh, 300, 500);
	assert_true(dsh >= 3 * sih);
}

/* --- Theorems 1 and 2 (§IV-C): the burst the simulated switch absorbs --- */

struct first_pause {
	const struct sb_mmu *m;
	sb_time at;
};

static void watch_pause(struct tl_every *e)
{
	struct first_pause *fp = e->ctx;
	if (!fp->at && fp->m->pfc_pauses_sent > 0)
		fp->at = sb_now(&e->sim->net.engine);
}

/* M = 2 empty lossless queues (hosts 1 and 2, one priority) burst at line rate into one 100 Gb/s
 * port: each drains at μ = 50 Gb/s, so R = 2, N = 0. sb_dsh_burst_absorption() (the theorems'
 * t_max, from the scheme's own α, B_s and η) must say when the first PAUSE goes out, counted from
 * the burst's first packet at the switch: within 1 % plus one packet time per queue (the fluid
 * model grows ω continuously, the switch by 1500-byte packets). No private buffer, as the model
 * (private_bytes = 0): DSH t_max = (αB_s − η)/(μ(1 + 2α)) = 124.9 µs, SIH αB_s/(μ(1 + 2α)) = 36.0 µs. */
static void test_burst_absorption_measured(void **state)
{
	(void)state;
	double t_dsh = 0, t_sih = 0;
	for (int k = 0; k < 2; k++) {
		const char *scheme = k ? "sih" : "dsh";
		struct sb_scenario sc;
		struct sb_sim sim;
		tomahawk(&sc, 32, 0.2,
			 "{ type = \"cbr\"; srcs = [1, 2]; dst = 0; rate_gbps = 100.0; packet_bytes = 1500; size_bytes = 0;"
			 "  prio = 1; class = \"lossless\"; }",
			 scheme);
		tl_set_scheme(&sc, scheme, "private_bytes", "0");
		tl_build(&sim, &sc);
		const struct sb_mmu *m = sim.net.switches[0]->mmus[0];
		struct sb_dsh_burst th;
		assert_int_equal(sb_dsh_burst_absorption(m, 1, 0, 2, 2, 50e9, &th), 0);
		struct first_pause fp = { m, 0 };
		struct tl_every probe;
		tl_every_start(&probe, &sim, 0, 190 * SB_US, 10 * SB_NS, watch_pause, &fp);
		tl_run_and_check(&sim);
		assert_true(fp.at > 0);
		/* the first packets reach the switch after one serialisation and the link delay */
		sb_time first = sb_tx_time(1500, 100000000000ULL) + 2 * SB_US;
		double t = sb_time_to_sec(fp.at - first);
		printf("  %s: first PAUSE %.3f us after the burst reached the switch; theorem (R* %.2f, regime %d): "
		       "t_max %.3f us, S_max %.0f B (measured %.0f B)\n", scheme, t * 1e6, th.r_star, th.regime,
		       th.t_max * 1e6, th.s_max, 2 * 12.5e9 * t);
		assert_int_equal(th.regime, 1);
		assert_true(fabs(t - th.t_max) <= 0.01 * th.t_max + 2 * sb_time_to_sec(sb_tx_time(1500, 100000000000ULL)));
		*(k ? &t_sih : &t_dsh) = t;
		sb_sim_free(&sim);
		sb_scenario_free(&sc);
	}
	assert_true(t_dsh > 3 * t_sih); /* DSH's shared headroom: 3.5× the pause-free burst here */
}

/* --- §7 item 7: port-level safety --- */

static void block_egress(void *obj, uint64_t host)
{
	struct sb_sim *sim = obj;
	sb_port_pfc(&sim->net, switch_port_to(sim, (uint32_t)host), 0xFF, true, true);
}

/* `senders` hosts (1..senders) each drive all 7 lossless classes at 100/7 Gb/s (line rate in
 * total) into host 0, whose switch port is blocked from t = 0. Optionally host 0 sends 1500 B
 * frames to host 1 at line rate, so the PAUSE for host 1 waits behind one (component ①). */
static uint64_t port_safety_run(int senders, const char *const *sets, double processing_ns, bool reverse_flow,
				struct sb_dsh_stats *st, uint64_t *port_pauses, uint64_t *eta)
{
	char wl[4096], srcs[512];
	size_t u = 0;
	for (int h = 1; h <= senders; h++)
		u += (size_t)snprintf(srcs + u, sizeof(srcs) - u, "%s%d", h > 1 ? ", " : "", h);
	u = 0;
	for (int j = 1; j <= 7; j++)
		u += (size_t)snprintf(wl + u, sizeof(wl) - u,
				      "%s{ type = \"cbr\"; srcs = [%s]; dst = 0; rate_gbps = %.9f; packet_bytes = 1500;"
				      " size_bytes = 0; prio = %d; class = \"lossless\"; }",
				      j > 1 ? ",\n" : "", srcs, 100.0 / 7, j);
	if (reverse_flow)
		snprintf(wl + u, sizeof(wl) - u,
			 ",\n{ type = \"cbr\"; srcs = [0]; dst = 1; rate_gbps = 100.0; packet_bytes = 1500; size_bytes = 0;"
			 " prio = 1; class = \"lossless\"; }");
	struct sb_scenario sc;
	struct sb_sim sim;
	tomahawk(&sc, 32, 0.15, wl, "dsh");
	sc.pfc.processing_delay_ns = processing_ns;
	tl_set_scheme(&sc, "dsh", "insurance_fallback", "false"); /* insurance alone must suffice */
	for (; sets && *sets; sets += 2)
		tl_set_scheme(&sc, "dsh", sets[0], sets[1]);
	tl_build(&sim, &sc);
	sb_at(&sim.net.engine, 0, block_egress, &sim, 0);
	tl_run_and_check(&sim);
	const struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	*st = *sb_dsh_stats(m);
	*port_pauses = m->pfc_port_pauses_sent;
	*eta = sb_dsh_eta(m, st->peak_headroom_port);
	uint64_t lost = sim.net.stats.pkts_dropped_lossless;
	printf("  %d sender(s) x 7 classes, processing %.1f ns%s: %llu port PAUSEs, insurance peak %llu B (port %u), "
	       "eta %llu, buffer %llu of %llu B, drops %llu (headroom %llu), ins_overflow %llu\n",
	       senders, processing_ns, reverse_flow ? ", frames in flight both ways" : "",
	       (unsigned long long)*port_pauses, (unsigned long long)st->peak_headroom, st->peak_headroom_port,
	       (unsigned long long)*eta, (unsigned long long)m->used, (unsigned long long)m->buffer,
	       (unsigned long long)lost, (unsigned long long)sim.net.stats.drops[SB_DROP_HEADROOM],
	       (unsigned long long)st->ins_overflow);
	assert_int_equal(sim.net.stats.pkts_dropped, lost);
	assert_int_equal(sim.net.stats.drops[SB_DROP_HEADROOM], lost);
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return lost;
}

static void test_port_level_safety(void **state)
{
	(void)state;
	static const char *const nq1[] = { "nq_port_multiplier", "1", NULL };
	struct sb_dsh_stats st;
	uint64_t pauses, eta;
	/* One port, X_poff = T: the port level acts first and the whole in-flight lands in insurance:
	 * at least the 2·C·D_prop = 50,000 B of two link delays (less one frame of granularity),
	 * never more than η. */
	assert_int_equal(port_safety_run(1, nq1, 0, false, &st, &pauses, &eta), 0);
	assert_true(pauses >= 1);
	assert_in_range(st.peak_headroom, 50000 - 1500, ETA_100G);
	/* Eq. (1)'s worst case: 3840 B of processing and a 1500 B frame in flight at both ends */
	assert_int_equal(port_safety_run(1, nq1, 307.2, true, &st, &pauses, &eta), 0);
	assert_true(pauses >= 1);
	assert_in_range(st.peak_headroom, 50000 + 3840 - 1500, ETA_100G);
	/* Default N_q = 7: 31 ports × 7 classes fill the buffer so fast that T falls faster than
	 * queue-level headroom can follow; the port level steps in, within η, and nothing drops. */
	assert_int_equal(port_safety_run(31, NULL, 0, false, &st, &pauses, &eta), 0);
	assert_true(pauses >= 1);
	assert_true(st.peak_headroom > 0 && st.peak_headroom <= eta);
	assert_int_equal(port_safety_run(31, NULL, 307.2, false, &st, &pauses, &eta), 0);
	assert_true(pauses >= 1);
	assert_true(st.peak_headroom > 0 && st.peak_headroom <= eta);
}

/* --- §7 item 4 / §3.1: incast without loss, and what undersized headroom costs --- */

/* n:1 incast of 256 KiB per sender at 25 Gb/s (1 us links: η = 13,090 B), senders spread over
 * the 7 lossless classes; 16 MiB. Returns lossless drops; fills the scheme's stats. */
static uint64_t incast_run(const char *scheme, int n, const char *const *sets, struct sb_dsh_stats *st,
			   uint64_t *headroom_drops, uint64_t *eta)
{
	char wl[16384], srcs[7][2048];
	size_t len[7] = { 0 };
	for (int h = 1; h <= n; h++) {
		int j = (h - 1) % 7;
		len[j] += (size_t)snprintf(srcs[j] + len[j], sizeof(srcs[j]) - len[j], "%s%d", len[j] ? ", " : "", h);
	}
	size_t u = 0;
	for (int j = 0; j < 7; j++)
		u += (size_t)snprintf(wl + u, sizeof(wl) - u,
				      "%s{ type = \"cbr\"; srcs = [%s]; dst = 0; rate_gbps = 25.0; packet_bytes = 1500;"
				      " size_bytes = 262144; prio = %d; class = \"lossless\"; }",
				      j ? ",\n" : "", srcs[j], j + 1);
	char text[20000];
	snprintf(text, sizeof(text),
		 "run: { duration_ms = %g; sample_interval_us = 0.0; sample_switches = \"none\"; };\n"
		 "topology: { type = \"single\"; hosts = %d; host_rate_gbps = 25.0; host_delay_us = 1.0; };\n"
		 "switch: { scheme = \"%s\"; buffer_bytes = 16777216; ecn_mode = \"off\"; };\n"
		 "tcp: { mss = 1452; header_bytes = 48; };\n"
		 "pfc: { deadlock_check_us = 0.0; };\n"
		 "workloads = (%s);\n",
		 n * 262144.0 * 8 / 25e9 * 1e3 * 1.04 + 0.2, n + 1, scheme, wl);
	struct sb_scenario sc;
	struct sb_sim sim;
	tl_scenario(&sc, text, NULL, 0);
	for (; sets && *sets; sets += 2)
		tl_set_scheme(&sc, scheme, sets[0], sets[1]);
	tl_run_checked(&sim, &sc);
	const struct sb_mmu *m = sim.net.switches[0]->mmus[0];
	*st = *sb_dsh_stats(m);
	*headroom_drops = sim.net.stats.drops[SB_DROP_HEADROOM];
	*eta = sb_dsh_eta(m, 1);
	uint64_t lost = sim.net.stats.pkts_dropped_lossless;
	printf("  %s %d:1%s: %llu lossless drops (headroom %llu), %llu of %d flows done, %llu PAUSE, %llu port "
	       "PAUSE, headroom peak %llu of eta %llu, ins_overflow %llu\n",
	       scheme, n, sets ? " (undersized headroom)" : "", (unsigned long long)lost,
	       (unsigned long long)*headroom_drops, (unsigned long long)sim.flows.stats.flows_completed, n,
	       (unsigned long long)m->pfc_pauses_sent, (unsigned long long)m->pfc_port_pauses_sent,
	       (unsigned long long)st->peak_headroom, (unsigned long long)*eta, (unsigned long long)st->ins_overflow);
	if (!lost)
		assert_int_equal(sim.flows.stats.flows_completed, (uint64_t)n);
	assert_int_equal(sim.net.stats.pkts_dropped, lost); /* every packet here is lossless */
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
	return lost;
}

static void test_incast_lossless(void **state)
{
	(void)state;
	static const char *const schemes[] = { "sih", "dsh" };
	static const int fanin[] = { 64, 128 };
	struct sb_dsh_stats st;
	uint64_t hd, eta;
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < 2; k++) {
			assert_int_equal(incast_run(schemes[s], fanin[k], NULL, &st, &hd, &eta), 0);
			assert_int_equal(eta, 13090); /* Eq. (1): 2·(3125 + 1500) + 3840 */
			assert_true(st.peak_headroom <= eta);
			assert_int_equal(st.ins_overflow, 0);
			/* SIH relies on its per-queue headroom; DSH on shared headroom (insurance only
			 * if the port level had to act) */
			if (s == 0)
				assert_true(st.peak_headroom > 0);
		}
}

/* Headroom of 3,000 B per queue (SIH) or port (DSH), a fraction of what one link delivers after
 * a PAUSE: lossless packets are lost, each counted with cause `headroom`. SIH loses them in a
 * 64:1 incast at 25 Gb/s; DSH needs its insurance only when the port level acts (the one-port
 * scenario of the safety test). DSH's U7 fallback instead takes them into shared while there
 * is room, counted as ins_overflow. */
static void test_undersized_headroom(void **state)
{
	(void)state;
	static const char *const small_sih[] = { "headroom", "bytes", "headroom_bytes", "3000", NULL };
	static const char *const small_dsh[] = { "nq_port_multiplier", "1", "headroom", "bytes", "headroom_bytes",
						 "3000", NULL };
	static const char *const small_dsh_fb[] = { "nq_port_multiplier", "1", "headroom", "bytes", "headroom_bytes",
						    "3000", "insurance_fallback", "true", NULL };
	struct sb_dsh_stats st;
	uint64_t hd, eta, lost, pauses;
	lost = incast_run("sih", 64, small_sih, &st, &hd, &eta);
	assert_true(lost > 0);
	assert_int_equal(hd, lost);
	assert_int_equal(eta, 3000);
	assert_int_equal(st.peak_headroom, 3000);
	lost = port_safety_run(1, small_dsh, 0, false, &st, &pauses, &eta);
	assert_true(lost > 0);
	assert_int_equal(eta, 3000);
	assert_true(st.peak_headroom <= 3000);
	assert_int_equal(port_safety_run(1, small_dsh_fb, 0, false, &st, &pauses, &eta), 0);
	assert_true(st.ins_overflow > 0);
}

/* a run's counters: the network's and the transports' */
struct run_counts {
	struct sb_net_stats net;
	struct sb_flow_stats flows;
};

static void lossy_run(const char *scheme, struct run_counts *out)
{
	struct sb_scenario sc;
	struct sb_sim sim;
	char text[1024];
	snprintf(text, sizeof(text),
		 "run: { duration_ms = 20.0; arrivals_ms = 15.0; sample_interval_us = 0.0; };\n"
		 "topology: { type = \"single\"; hosts = 9; host_rate_gbps = 10.0; host_delay_us = 1.0; };\n"
		 "switch: { scheme = \"%s\"; buffer_bytes = 300000; };\n"
		 "workloads = ({ type = \"incast\"; query_rate = 2000.0; fanin = 8; size_bytes = 40000; responders = \"any\"; },\n"
		 "             { type = \"poisson\"; load = 0.5; dest = \"any\"; });\n",
		 scheme);
	tl_scenario(&sc, text, NULL, 0);
	tl_run_checked(&sim, &sc);
	out->net = sim.net.stats;
	out->flows = sim.flows.stats;
	sb_sim_free(&sim);
	sb_scenario_free(&sc);
}

static void test_lossy_only_is_dt(void **state)
{
	(void)state;
	struct run_counts dt, sih, dsh;
	lossy_run("dt", &dt);
	lossy_run("sih", &sih);
	lossy_run("dsh", &dsh);
	printf("  dt: %llu drops, %llu flows done; sih %llu, %llu; dsh %llu, %llu\n",
	       (unsigned long long)dt.net.pkts_dropped, (unsigned long long)dt.flows.flows_completed,
	       (unsigned long long)sih.net.pkts_dropped, (unsigned long long)sih.flows.flows_completed,
	       (unsigned long long)dsh.net.pkts_dropped, (unsigned long long)dsh.flows.flows_completed);
	assert_true(dt.net.pkts_dropped > 0);
	assert_memory_equal(&dt, &sih, sizeof dt);
	assert_memory_equal(&dt, &dsh, sizeof dt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tomahawk_pools),
		cmocka_unit_test(test_pools_in_100g_ports),
		cmocka_unit_test(test_lossy_only_is_dt),
		cmocka_unit_test(test_burst_absorption_measured),
		cmocka_unit_test(test_fig11_knee),
		cmocka_unit_test(test_port_level_safety),
		cmocka_unit_test(test_incast_lossless),
		cmocka_unit_test(test_undersized_headroom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
