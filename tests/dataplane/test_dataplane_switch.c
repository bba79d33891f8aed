/*
 * test_dataplane_switch.c — the software switch's forwarding core (src/dataplane/dpswitch.c)
 * with synthetic frames and a virtual clock: no sockets, no root.
 *
 *   test_shaper_rate       the egress shaper emits the port rate (frame + 24 B of Ethernet
 *                          overhead at 1 Gb/s) within 0.1 % over a second of virtual time with a
 *                          jittery loop that sometimes stalls for up to 800 µs, and sends one
 *                          frame, not a burst, after idleness; catches a wrong serialisation
 *                          formula, a missing overhead, a late loop's debt forgotten, idle time
 *                          credited
 *   test_dt_steady_state   Dynamic Thresholds through the real MMU: k congested queues filled by
 *                          a burst settle at αB/(1+kα) each, within one packet (Choudhury &
 *                          Hahne's steady state); catches a scheme built with the wrong buffer
 *                          or parameters
 *   test_conservation      received = forwarded + dropped + control + queued and MMU = queues,
 *                          with floods, refusals, expulsions and transmissions mixed
 *   test_ecn_enqueue       step marking at enqueue marks ECT packets above K with a valid
 *                          checksum, never Not-ECT ones
 *   test_ecn_red           RED at enqueue and at dequeue, frame by frame against the rule
 *                          written out (no mark at or below kmin, probability pmax·(q − kmin)/
 *                          (kmax − kmin) from the switch's stream, a mark above kmax; the queue
 *                          with the packet at enqueue, behind it at dequeue; Not-ECT frames
 *                          draw nothing): the simulator's decision (net/sched.h) on real frames
 *   test_first_window      the first tcp.first_rtt_bytes of a TCP flow are tagged, from its SYN
 *   test_setup_errors      scenarios the switch cannot run are refused at the right key
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "dataplane/dpswitch.h"
#include "dataplane/frame.h"
#include "scenario/scenario.h"
#include "testlib.h"

static sb_time vclock;
static sb_time virtual_now(void *ctx)
{
	(void)ctx;
	return vclock;
}

static uint8_t macs[8][6];

static void set_macs(void)
{
	for (int i = 0; i < 8; i++) {
		uint8_t m[6] = { 2, 0, 0, 0, 0, (uint8_t)(i + 1) };
		memcpy(macs[i], m, 6);
	}
}

static void make_switch(struct sb_dp_switch *sw, struct sb_scenario *sc, const char *text, uint16_t nports)
{
	set_macs();
	tl_scenario_net(sc, text, NULL, 0);
	struct sb_error err = { "" };
	vclock = 0;
	if (sb_dp_switch_init(sw, sc, nports, (const uint8_t(*)[6])macs, virtual_now, NULL, &err))
		fail_msg("init: %s", err.msg);
}

/* An IPv4/UDP frame of `len` bytes from host `src` to host `dst` (dst < 0: broadcast). */
static uint32_t frame(uint8_t *f, int src, int dst, uint8_t dscp, uint8_t ecn, uint32_t len)
{
	memset(f, 0, len);
	if (dst >= 0)
		memcpy(f, macs[dst], 6);
	else
		memset(f, 0xff, 6);
	memcpy(f + 6, macs[src], 6);
	f[12] = 0x08;
	uint8_t *ip = f + 14;
	uint16_t total = (uint16_t)(len - 14);
	ip[0] = 0x45;
	ip[1] = (uint8_t)(dscp << 2 | ecn);
	ip[2] = (uint8_t)(total >> 8);
	ip[3] = (uint8_t)total;
	ip[8] = 64;
	ip[9] = 17;
	ip[12] = 10, ip[15] = (uint8_t)(src + 1);
	ip[16] = 10, ip[19] = (uint8_t)(dst + 1);
	uint16_t c = sb_ipv4_checksum(ip, 20);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	return len;
}

/* A sink that takes every frame and keeps the last one. */
struct capture {
	uint64_t frames, bytes;
	uint8_t last[SB_DP_FRAME_MAX];
	uint32_t last_len;
	bool full;
};
static bool cap_room(void *ctx, uint16_t port)
{
	(void)port;
	return !((struct capture *)ctx)->full;
}
static void cap_send(void *ctx, uint16_t port, const uint8_t *f, uint32_t len)
{
	struct capture *c = ctx;
	(void)port;
	c->frames++;
	c->bytes += len;
	memcpy(c->last, f, len);
	c->last_len = len;
}

static const char *single(void)
{
	return "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; host_delay_us = 1.0; };\n"
	       "switch: { scheme = \"dt\"; buffer_bytes = 100000; sched = \"sp\"; dt: { alpha = 1.0; }; };\n";
}

static void test_shaper_rate(void **state)
{
	(void)state;
	struct sb_dp_switch sw;
	struct sb_scenario sc;
	/* a buffer deep enough for 100 frames in one queue (DT: half of it) */
	make_switch(&sw, &sc,
		    "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; };\n"
		    "switch: { scheme = \"dt\"; buffer_bytes = 1000000; dt: { alpha = 1.0; }; };\n",
		    4);
	struct capture cap = { 0 };
	struct sb_dp_sink sink = { &cap, cap_room, cap_send };
	uint8_t f[1514];
	struct sb_rng rng;
	sb_rng_init(&rng, 3, 0);
	/* keep port 1 backlogged for one virtual second, waking up every 0..30 µs, and now and
	 * then not for 0..800 µs (a loop kept off the CPU) */
	while (vclock < SB_SEC) {
		while (sw.port[1].q[0].pkts < 100)
			sb_dp_switch_receive(&sw, 0, f, frame(f, 0, 1, 0, 0, 1514));
		sb_dp_switch_transmit(&sw, 1, vclock, &sink);
		vclock += sb_rng_below(&rng, 50) ? sb_rng_below(&rng, 30 * SB_US) : sb_rng_below(&rng, 800 * SB_US);
	}
	double bps = 8.0 * (double)(cap.bytes + cap.frames * SB_DP_WIRE_OVERHEAD) / ((double)vclock / (double)SB_SEC);
	TL_EXPECT_NEAR(bps, 1e9, 0.001, "shaped rate of a backlogged 1 Gb/s port");
	/* idle for a while: at most the slack's worth of frames go at once */
	while (sb_swport_select(&sw.port[1]))
		; /* leaves the MMU charged; rebuilt below */
	sb_dp_switch_fini(&sw);
	sb_scenario_free(&sc);
	make_switch(&sw, &sc, single(), 4);
	vclock = 10 * SB_MS;
	for (int i = 0; i < 20; i++)
		sb_dp_switch_receive(&sw, 0, f, frame(f, 0, 1, 0, 0, 1514));
	cap.frames = 0;
	unsigned burst = sb_dp_switch_transmit(&sw, 1, vclock, &sink);
	print_message("after idle: %u frames at once\n", burst);
	assert_int_equal(burst, 1);
	sb_dp_switch_fini(&sw);
	sb_scenario_free(&sc);
}

static void test_dt_steady_state(void **state)
{
	(void)state;
	static const struct { int k; const char *alpha; double a; } cases[] = {
		{ 1, "1.0", 1.0 }, { 2, "1.0", 1.0 }, { 3, "0.5", 0.5 }, { 3, "2.0", 2.0 },
	};
	uint8_t f[1514];
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char text[512];
		snprintf(text, sizeof(text),
			 "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; };\n"
			 "switch: { scheme = \"dt\"; buffer_bytes = 200000; dt: { alpha = %s; }; };\n", cases[c].alpha);
		struct sb_dp_switch sw;
		struct sb_scenario sc;
		make_switch(&sw, &sc, text, 4);
		/* a burst to ports 1..k from port 0, round robin, far more than the buffer */
		for (int i = 0; i < 2000; i++)
			sb_dp_switch_receive(&sw, 0, f, frame(f, 0, 1 + i % cases[c].k, 0, 0, 1000));
		double want = cases[c].a * 200000.0 / (1 + cases[c].k * cases[c].a);
		for (int p = 1; p <= cases[c].k; p++) {
			double got = (double)sw.port[p].q[0].bytes;
			print_message("k=%d alpha=%s port %d: %.0f bytes, theory %.0f\n", cases[c].k, cases[c].alpha, p,
				      got, want);
			assert_true(got > want - 1000 && got < want + 1000);
		}
		assert_true(sw.port[1].qs[0].drops[SB_DROP_THRESHOLD] > 0);
		sb_dp_switch_fini(&sw);
		sb_scenario_free(&sc);
	}
}

/* Occamy through the real MMU and the switch's timers: a queue filled to DT's threshold
 * becomes over-allocated when a second queue grows (T = α(B − Q) falls below it), and
 * Occamy's grants, fired by the switch's timer heap on the virtual clock, drop its head. */
static void test_occamy_expels(void **state)
{
	(void)state;
	struct sb_dp_switch sw;
	struct sb_scenario sc;
	make_switch(&sw, &sc,
		    "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; };\n"
		    "switch: { scheme = \"occamy\"; buffer_bytes = 200000; };\n",
		    4);
	uint8_t f[1514];
	for (int i = 0; i < 400; i++)
		sb_dp_switch_receive(&sw, 0, f, frame(f, 0, 1, 0, 0, 1000));
	uint64_t full = sw.port[1].q[0].bytes;
	for (int i = 0; i < 400; i++) {
		sb_dp_switch_receive(&sw, 3, f, frame(f, 3, 2, 0, 0, 1000));
		vclock += 1 * SB_US;
		sb_dp_switch_run_timers(&sw, vclock);
	}
	for (int i = 0; i < 1000; i++) {
		vclock += 1 * SB_US;
		sb_dp_switch_run_timers(&sw, vclock);
	}
	uint64_t expelled = sw.port[1].qs[0].drops[SB_DROP_EXPELLED];
	print_message("occamy: port 1 held %llu bytes alone, %llu after port 2 took %llu; %llu expelled\n",
		      (unsigned long long)full, (unsigned long long)sw.port[1].q[0].bytes,
		      (unsigned long long)sw.port[2].q[0].bytes, (unsigned long long)expelled);
	assert_true(expelled > 0);
	sb_dp_switch_fini(&sw);
	sb_scenario_free(&sc);
}

static void test_conservation(void **state)
{
	(void)state;
	struct sb_dp_switch sw;
	struct sb_scenario sc;
	make_switch(&sw, &sc,
		    "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; };\n"
		    "switch: { scheme = \"dt\"; buffer_bytes = 30000; sched = \"drr\"; dt: { alpha = 1.0; }; };\n",
		    4);
	struct capture cap = { 0 };
	struct sb_dp_sink sink = { &cap, cap_room, cap_send };
	struct sb_rng rng;
	sb_rng_init(&rng, 5, 0);
	uint8_t f[1514];
	for (int i = 0; i < 20000; i++) {
		int src = (int)sb_rng_below(&rng, 4), dst = sb_rng_below(&rng, 20) ? (int)sb_rng_below(&rng, 4) : -1;
		uint32_t len = 64 + (uint32_t)sb_rng_below(&rng, 1451);
		frame(f, src, dst, (uint8_t)(sb_rng_below(&rng, 64)), SB_ECN_ECT0, len);
		if (sb_rng_below(&rng, 50) == 0) /* ARP to a known host: control, not flooded */
			f[13] = 0x06;
		sb_dp_switch_receive(&sw, (uint16_t)src, f, len);
		if (sb_rng_below(&rng, 100) == 0) { /* a scheme's expulsion */
			uint16_t p = (uint16_t)sb_rng_below(&rng, 4);
			uint8_t q = (uint8_t)sb_rng_below(&rng, 8);
			sb_mmu_expel_head(sw.mmu, p, q);
		}
		cap.full = sb_rng_below(&rng, 3) == 0;
		vclock += sb_rng_below(&rng, 2 * SB_US); /* about 4x the ports' capacity: queues fill */
		for (uint16_t p = 0; p < 4; p++)
			sb_dp_switch_transmit(&sw, p, vclock, &sink);
		struct sb_error err = { "" };
		if (sb_dp_switch_check(&sw, &err))
			fail_msg("after frame %d: %s", i, err.msg);
	}
	uint64_t expelled = 0, refused = 0;
	for (uint16_t p = 0; p < 4; p++)
		for (unsigned q = 0; q < 8; q++) {
			expelled += sw.port[p].qs[q].drops[SB_DROP_EXPELLED];
			refused += sw.port[p].qs[q].drops[SB_DROP_THRESHOLD];
		}
	print_message("received %llu: forwarded %llu, dropped %llu (expelled %llu, refused %llu, local %llu), "
		      "control %llu (flooded %llu), queued %llu\n",
		      (unsigned long long)sw.rx_frames, (unsigned long long)sw.fwd_pkts,
		      (unsigned long long)sb_dp_switch_dropped(&sw), (unsigned long long)expelled,
		      (unsigned long long)refused, (unsigned long long)sw.local_drops[SB_DP_DROP_LOCAL],
		      (unsigned long long)sw.rx_ctrl, (unsigned long long)sw.flood_frames,
		      (unsigned long long)sb_dp_switch_queued_pkts(&sw));
	assert_true(expelled > 0 && refused > 0 && sw.flood_frames > 0 && sw.rx_ctrl > sw.flood_frames &&
		    sw.local_drops[SB_DP_DROP_LOCAL] > 0 && sw.fwd_pkts > 0);
	assert_int_equal(sw.rx_frames, sw.fwd_pkts + sb_dp_switch_dropped(&sw) + sw.rx_ctrl + sb_dp_switch_queued_pkts(&sw));
	/* every flooded frame went to the three other ports */
	assert_int_equal(sw.ctrl_copies + sw.ctrl_lost, 3 * sw.flood_frames + (sw.rx_ctrl - sw.flood_frames));
	sb_dp_switch_fini(&sw);
	sb_scenario_free(&sc);
}

static void test_ecn_enqueue(void **state)
{
	(void)state;
	struct sb_dp_switch sw;
	struct sb_scenario sc;
	make_switch(&sw, &sc,
		    "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; };\n"
		    "switch: { scheme = \"dt\"; buffer_bytes = 1000000; ecn_mode = \"step\"; ecn_kmin_bytes = 5000.0;\n"
		    "  ecn_kmax_bytes = 5000.0; ecn_at = \"enqueue\"; dt: { alpha = 8.0; }; };\n",
		    4);
	uint8_t f[1514];
	for (int i = 0; i < 10; i++) /* 10 x 1000 B: marked once the queue with the packet exceeds 5000 */
		sb_dp_switch_receive(&sw, 0, f, frame(f, 0, 1, 0, i % 2 ? SB_ECN_ECT0 : SB_ECN_NOT_ECT, 1000));
	assert_int_equal(sw.port[1].qs[0].ecn_marked, 3); /* packets 6, 8 and 10 (5 and up exceed, odd are Not-ECT) */
	unsigned i = 0;
	for (const struct sb_dp_pkt *p = sw.port[1].q[0].head; p; p = p->next, i++) {
		struct sb_frame_info fi;
		sb_frame_parse(p->data, p->len, &fi);
		uint8_t want = i % 2 == 0 ? SB_ECN_NOT_ECT : (i + 1) * 1000 > 5000 ? SB_ECN_CE : SB_ECN_ECT0;
		assert_int_equal(fi.ecn, want);
		const uint8_t *ip = p->data + 14;
		assert_int_equal((uint16_t)(ip[10] << 8 | ip[11]), sb_ipv4_checksum(ip, 20));
	}
	sb_dp_switch_fini(&sw);
	sb_scenario_free(&sc);
}

/* A sink that keeps the ECN field of every IPv4 frame it is given, in order. */
struct ecn_log {
	uint8_t ecn[256];
	unsigned n;
};
static bool log_room(void *ctx, uint16_t port)
{
	(void)ctx;
	(void)port;
	return true;
}
static void log_send(void *ctx, uint16_t port, const uint8_t *f, uint32_t len)
{
	struct ecn_log *l = ctx;
	(void)port;
	(void)len;
	assert_true(l->n < 256);
	l->ecn[l->n++] = f[15] & 3;
}

/* RED between 20 and 80 KB with pmax 0.8, drawing from r: the definition. */
static bool red_marks(uint64_t q, struct sb_rng *r)
{
	const uint64_t kmin = 20000, kmax = 80000, pmax = (uint64_t)(0.8 * 4294967295.0);
	if (q <= kmin)
		return false;
	if (q > kmax)
		return true;
	return (sb_rng_u64(r) >> 32) < (uint64_t)(((unsigned __int128)pmax * (q - kmin)) / (kmax - kmin));
}

static void test_ecn_red(void **state)
{
	(void)state;
	for (int dequeue = 0; dequeue < 2; dequeue++) {
		struct sb_dp_switch sw;
		struct sb_scenario sc;
		char text[512];
		snprintf(text, sizeof(text),
			 "topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; };\n"
			 "switch: { scheme = \"dt\"; buffer_bytes = 1000000; ecn_mode = \"red\"; ecn_kmin_bytes = 20000.0;\n"
			 "  ecn_kmax_bytes = 80000.0; ecn_pmax = 0.8; ecn_at = \"%s\"; dt: { alpha = 8.0; }; };\n",
			 dequeue ? "dequeue" : "enqueue");
		make_switch(&sw, &sc, text, 4);
		struct sb_rng r = sw.rng;
		const unsigned n = 100;
		/* every fifth frame Not-ECT, but not those that meet the queue at exactly kmin (frame 19
		 * at enqueue, 79 at dequeue): a draw taken there would shift every later decision */
		bool want[100];
		unsigned marks = 0;
		uint8_t f[1514];
		for (unsigned i = 0; i < n; i++) {
			bool ect = i % 5 != 3;
			sb_dp_switch_receive(&sw, 0, f, frame(f, 0, 1, 0, ect ? SB_ECN_ECT0 : SB_ECN_NOT_ECT, 1000));
			want[i] = !dequeue && ect && red_marks((i + 1) * 1000ull, &r);
		}
		if (dequeue)
			for (unsigned i = 0; i < n; i++)
				want[i] = i % 5 != 3 && red_marks((n - 1 - i) * 1000ull, &r);
		struct ecn_log log = { .n = 0 };
		struct sb_dp_sink sink = { &log, log_room, log_send };
		for (int step = 0; step < 10000 && log.n < n; step++) {
			vclock += 10 * SB_US;
			sb_dp_switch_transmit(&sw, 1, vclock, &sink);
		}
		assert_int_equal(log.n, n);
		for (unsigned i = 0; i < n; i++) {
			uint8_t ecn = want[i] ? SB_ECN_CE : i % 5 != 3 ? SB_ECN_ECT0 : SB_ECN_NOT_ECT;
			if (log.ecn[i] != ecn)
				fail_msg("ecn_at = %s, frame %u: ECN %u, expected %u", dequeue ? "dequeue" : "enqueue", i,
					 log.ecn[i], ecn);
			marks += want[i];
		}
		assert_int_equal(sw.port[1].qs[0].ecn_marked, marks);
		print_message("ecn_at = %s: %u of %u frames marked\n", dequeue ? "dequeue" : "enqueue", marks, n);
		assert_true(marks > 20 && marks < 75); /* some in the band, all above kmax, none below */
		sb_dp_switch_fini(&sw);
		sb_scenario_free(&sc);
	}
}

static void test_first_window(void **state)
{
	(void)state;
	struct sb_dp_flowtag ft;
	assert_true(sb_dp_flowtag_init(&ft, 1024, 3000));
	uint8_t f[1514] = { 0 };
	set_macs();
	frame(f, 0, 1, 0, 0, 14 + 20 + 20 + 1000);
	uint8_t *ip = f + 14, *tcp = ip + 20;
	ip[9] = 6;
	tcp[12] = 0x50;
	struct sb_frame_info fi;
	/* SYN at seq 1000: data starts at 1001 */
	tcp[13] = SB_TCP_SYN;
	uint32_t seq = 1000;
	tcp[4] = 0, tcp[5] = 0, tcp[6] = (uint8_t)(seq >> 8), tcp[7] = (uint8_t)seq;
	sb_frame_parse(f, 14 + 40 + 1000, &fi);
	assert_false(sb_dp_flowtag_first(&ft, f, &fi) && fi.l4_payload == 0);
	tcp[13] = 0x10;
	int tagged = 0;
	for (uint32_t s = 1001; s < 1001 + 6000; s += 1000) {
		tcp[4] = (uint8_t)(s >> 24), tcp[5] = (uint8_t)(s >> 16), tcp[6] = (uint8_t)(s >> 8), tcp[7] = (uint8_t)s;
		sb_frame_parse(f, 14 + 40 + 1000, &fi);
		bool first = sb_dp_flowtag_first(&ft, f, &fi);
		assert_int_equal(first, s - 1001 < 3000);
		tagged += first;
	}
	assert_int_equal(tagged, 3);
	/* a retransmission of the first window is tagged again, as in the simulator */
	tcp[4] = 0, tcp[5] = 0, tcp[6] = (uint8_t)(2001 >> 8), tcp[7] = (uint8_t)2001;
	sb_frame_parse(f, 14 + 40 + 1000, &fi);
	assert_true(sb_dp_flowtag_first(&ft, f, &fi));
	sb_dp_flowtag_fini(&ft);
}

static void expect_refused(const char *text, uint16_t nports, const char *key)
{
	struct sb_scenario sc;
	struct sb_dp_switch sw;
	struct sb_error err = { "" };
	set_macs();
	tl_scenario_net(&sc, text, NULL, 0);
	assert_int_equal(sb_dp_switch_init(&sw, &sc, nports, (const uint8_t(*)[6])macs, virtual_now, NULL, &err), -1);
	print_message("%s\n", err.msg);
	assert_non_null(strstr(err.msg, key));
	sb_scenario_free(&sc);
}

static void test_setup_errors(void **state)
{
	(void)state;
	expect_refused("topology: { type = \"leafspine\"; leaves = 2; hosts_per_leaf = 2; spines = 1; };\n", 4,
		       "topology.type");
	expect_refused("topology: { type = \"single\"; hosts = 4; };\n", 3, "topology.hosts");
	expect_refused("topology: { type = \"single\"; hosts = 4; };\nswitch: { scheme = \"dsh\"; };\n", 4,
		       "switch.scheme");
	expect_refused("topology: { type = \"single\"; hosts = 4; };\nswitch: { mmu_ports = 2; };\n", 4,
		       "switch.mmu_ports");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shaper_rate),
		cmocka_unit_test(test_dt_steady_state),
		cmocka_unit_test(test_occamy_expels),
		cmocka_unit_test(test_conservation),
		cmocka_unit_test(test_ecn_enqueue),
		cmocka_unit_test(test_ecn_red),
		cmocka_unit_test(test_first_window),
		cmocka_unit_test(test_setup_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
