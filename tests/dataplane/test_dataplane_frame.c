/*
 * test_dataplane_frame.c — the software switch's frame code (src/dataplane/frame.c): parsing
 * of IPv4/IPv6 frames, and ECN marking with IPv4's checksum fixed incrementally (RFC 1624),
 * checked against a checksum computed from scratch over many random headers.
 *
 * Bugs caught: a marking that skips or botches the checksum fix (the random-header test);
 * marking a Not-ECT packet or rewriting CE (test_mark_only_ect); DSCP/ECN read from the wrong
 * bits, a wrong IPv6 traffic-class shift, reading past a truncated frame (test_parse_*).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "core/rng.h"
#include "dataplane/frame.h"

/* An Ethernet + IPv4 + TCP frame with a correct header checksum. */
static uint32_t ipv4_tcp(uint8_t *f, uint8_t tos, uint16_t payload, uint32_t seq, uint8_t flags)
{
	memset(f, 0, 1514);
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00", 14);
	uint8_t *ip = f + 14;
	uint16_t total = (uint16_t)(20 + 20 + payload);
	ip[0] = 0x45;
	ip[1] = tos;
	ip[2] = (uint8_t)(total >> 8);
	ip[3] = (uint8_t)total;
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	uint16_t c = sb_ipv4_checksum(ip, 20);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	uint8_t *tcp = ip + 20;
	tcp[0] = 0x30; tcp[1] = 0x39; /* 12345 */
	tcp[2] = 0x14; tcp[3] = 0x51; /* 5201 */
	tcp[4] = (uint8_t)(seq >> 24); tcp[5] = (uint8_t)(seq >> 16); tcp[6] = (uint8_t)(seq >> 8); tcp[7] = (uint8_t)seq;
	tcp[12] = 0x50;
	tcp[13] = flags;
	return 14u + total;
}

static uint16_t stored_checksum(const uint8_t *f) { return (uint16_t)(f[24] << 8 | f[25]); }

static void test_parse_ipv4(void **state)
{
	(void)state;
	uint8_t f[1514];
	uint32_t len = ipv4_tcp(f, (uint8_t)(46 << 2 | SB_ECN_ECT0), 1000, 777, SB_TCP_SYN);
	struct sb_frame_info fi;
	sb_frame_parse(f, len, &fi);
	assert_true(fi.ip);
	assert_int_equal(fi.ip_version, 4);
	assert_int_equal(fi.dscp, 46);
	assert_int_equal(sb_frame_prio(&fi), 5);
	assert_int_equal(fi.ecn, SB_ECN_ECT0);
	assert_true(fi.tcp);
	assert_int_equal(fi.sport, 12345);
	assert_int_equal(fi.dport, 5201);
	assert_int_equal(fi.tcp_seq, 777);
	assert_int_equal(fi.tcp_flags, SB_TCP_SYN);
	assert_int_equal(fi.l4_payload, 1000);
	assert_int_not_equal(fi.hash, 0);
	/* truncated inside the IP header: not IP, and nothing read past the end */
	sb_frame_parse(f, 14 + 19, &fi);
	assert_false(fi.ip);
	/* ARP */
	f[12] = 0x08;
	f[13] = 0x06;
	sb_frame_parse(f, len, &fi);
	assert_false(fi.ip);
	assert_int_equal(fi.ethertype, 0x0806);
}

static void test_parse_ipv6(void **state)
{
	(void)state;
	uint8_t f[200] = { 0 };
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x86\xdd", 14);
	uint8_t tc = (uint8_t)(26 << 2 | SB_ECN_ECT1); /* DSCP 26: priority 3 */
	f[14] = (uint8_t)(0x60 | tc >> 4);
	f[15] = (uint8_t)(tc << 4);
	f[14 + 5] = 8 + 100; /* payload length */
	f[14 + 6] = 17;      /* UDP */
	struct sb_frame_info fi;
	sb_frame_parse(f, 14 + 40 + 108, &fi);
	assert_true(fi.ip);
	assert_int_equal(fi.ip_version, 6);
	assert_int_equal(fi.dscp, 26);
	assert_int_equal(fi.ecn, SB_ECN_ECT1);
	assert_int_equal(fi.l4_payload, 100);
	assert_true(sb_frame_mark_ce(f, &fi));
	sb_frame_parse(f, 14 + 40 + 108, &fi);
	assert_int_equal(fi.ecn, SB_ECN_CE);
	assert_int_equal(fi.dscp, 26); /* the DSCP bits are untouched */
}

/* Random headers (options included), random TOS with an ECT codepoint: after marking, the
 * stored checksum equals the one computed from scratch, and only the ECN bits changed. */
static void test_mark_fixes_checksum(void **state)
{
	(void)state;
	struct sb_rng rng;
	sb_rng_init(&rng, 13, 0);
	uint8_t f[1514], before[1514];
	for (int i = 0; i < 20000; i++) {
		uint32_t len = ipv4_tcp(f, 0, (uint16_t)(40 + sb_rng_below(&rng, 1400)), (uint32_t)sb_rng_u64(&rng), 0x10);
		uint8_t *ip = f + 14;
		/* random fields, options (IHL 5..15), then a correct checksum */
		unsigned ihl = 5 + (unsigned)sb_rng_below(&rng, 11);
		ip[0] = (uint8_t)(0x40 | ihl);
		ip[1] = (uint8_t)((sb_rng_below(&rng, 64) << 2) | (sb_rng_below(&rng, 2) ? SB_ECN_ECT0 : SB_ECN_ECT1));
		for (unsigned b = 4; b < ihl * 4; b++)
			if (b != 9 && b != 10 && b != 11)
				ip[b] = (uint8_t)sb_rng_u64(&rng);
		uint16_t c = sb_ipv4_checksum(ip, ihl * 4);
		ip[10] = (uint8_t)(c >> 8);
		ip[11] = (uint8_t)c;
		memcpy(before, f, len);
		struct sb_frame_info fi;
		sb_frame_parse(f, len, &fi);
		assert_true(fi.ip);
		assert_true(sb_frame_mark_ce(f, &fi));
		assert_int_equal(ip[1] & 3, SB_ECN_CE);
		assert_int_equal(ip[1] >> 2, before[15] >> 2);
		assert_int_equal(stored_checksum(f), sb_ipv4_checksum(ip, ihl * 4));
		for (uint32_t b = 0; b < len; b++)
			if (b != 15 && b != 24 && b != 25)
				assert_int_equal(f[b], before[b]);
	}
}

static void test_mark_only_ect(void **state)
{
	(void)state;
	uint8_t f[1514], before[1514];
	struct sb_frame_info fi;
	for (uint8_t ecn = 0; ecn < 4; ecn++) {
		uint32_t len = ipv4_tcp(f, (uint8_t)(8 << 2 | ecn), 100, 1, 0x10);
		memcpy(before, f, len);
		sb_frame_parse(f, len, &fi);
		bool ect = ecn == SB_ECN_ECT0 || ecn == SB_ECN_ECT1;
		assert_int_equal(sb_frame_mark_ce(f, &fi), ect);
		if (!ect)
			assert_memory_equal(f, before, len); /* Not-ECT and CE: untouched */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ipv4),
		cmocka_unit_test(test_parse_ipv6),
		cmocka_unit_test(test_mark_fixes_checksum),
		cmocka_unit_test(test_mark_only_ect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
