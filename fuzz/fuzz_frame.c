/*
 * fuzz_frame.c — the software switch's frame parser (src/dataplane/frame.c) and its ECN marker
 * on arbitrary bytes: runts, bad IHL and total lengths, IPv6 extension headers, VLAN tags,
 * fragments, frames larger than a ring slot (SB_DP_FRAME_MAX). See fuzz.h.
 *
 * The input is the frame itself, copied into a buffer of exactly its length so that a read past
 * the end is an AddressSanitizer report. The fields the parser returns are checked against the
 * bytes, read here straight from the wire formats (Ethernet II; IPv4, RFC 791 §3.1; IPv6,
 * RFC 8200 §3; TCP, RFC 9293 §3.1; UDP, RFC 768), never from the parser's own code:
 *
 *  - a frame below 14 bytes is not IP and has no addresses; otherwise the MACs point into it
 *    and the EtherType is bytes 12..13 (a VLAN tag, 0x8100, is therefore "not IP": frame.h);
 *  - "IP" holds exactly when the EtherType is IPv4 with version 4, 20 <= IHL·4 <= the bytes
 *    after the Ethernet header and IHL·4 <= the total length (RFC 1812 §5.2.2: a shorter total
 *    length is a bad header), or IPv6 with version 6 and its 40-byte header present; then DSCP,
 *    ECN, protocol (the first next header: extension headers are not walked) and the transport
 *    offset are those of the bytes;
 *  - the IP packet ends at the smaller of its length field and the frame (Ethernet pads short
 *    packets: a byte past the length field is padding, never a port);
 *  - ports are read only from a TCP or UDP header inside that packet, and never from an IPv4
 *    fragment other than the first (RFC 791: its payload continues the datagram, it carries no
 *    transport header); TCP's fields only from a complete TCP header (data offset >= 5 words,
 *    all of it inside the packet); the payload counts the bytes after that header within it;
 *  - the flow hash is 0 for a frame that is not IP, and depends only on the 5-tuple: a copy
 *    with another TTL / hop limit and another payload byte hashes the same;
 *  - marking CE (RFC 3168 §5) changes an ECT frame to CE and nothing else the parser reads, a
 *    Not-ECT, CE or non-IP frame not at all, and a correct IPv4 header checksum stays correct
 *    (RFC 1624).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dataplane/frame.h"
#include "dataplane/pktbuf.h"
#include "fuzz.h"

static unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* RFC 1071: a header is correct when the one's complement sum of all its words is 0xffff. */
static bool ipv4_sum_ok(const uint8_t *ip, unsigned ihl)
{
	uint32_t sum = 0;
	for (unsigned i = 0; i < ihl; i += 2)
		sum += be16(ip + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

/* What the bytes say, from the formats alone. */
struct wire {
	bool ip;
	unsigned version, dscp, ecn, proto, l4_off, end; /* end: the IP packet's last byte + 1 */
	bool first_fragment;
};

static struct wire read_wire(const uint8_t *f, size_t len)
{
	struct wire w = { 0 };
	if (len < SB_ETH_HLEN)
		return w;
	const uint8_t *ip = f + SB_ETH_HLEN;
	size_t avail = len - SB_ETH_HLEN;
	unsigned type = be16(f + 12);
	if (type == SB_ETHERTYPE_IPV4 && avail >= 20 && ip[0] >> 4 == 4) {
		unsigned ihl = (ip[0] & 15u) * 4, total = be16(ip + 2);
		if (ihl < 20 || ihl > avail || total < ihl)
			return w;
		w.ip = true;
		w.version = 4;
		w.dscp = ip[1] >> 2;
		w.ecn = ip[1] & 3;
		w.proto = ip[9];
		w.l4_off = SB_ETH_HLEN + ihl;
		w.end = SB_ETH_HLEN + (unsigned)(total < avail ? total : avail);
		w.first_fragment = (be16(ip + 6) & 0x1fff) == 0;
	} else if (type == SB_ETHERTYPE_IPV6 && avail >= 40 && ip[0] >> 4 == 6) {
		unsigned tc = (ip[0] & 15u) << 4 | ip[1] >> 4, payload = be16(ip + 4);
		w.ip = true;
		w.version = 6;
		w.dscp = tc >> 2;
		w.ecn = tc & 3;
		w.proto = ip[6];
		w.l4_off = SB_ETH_HLEN + 40;
		w.end = SB_ETH_HLEN + 40 + (unsigned)(payload < avail - 40 ? payload : avail - 40);
		w.first_fragment = true;
	}
	return w;
}

static void check_fields(const uint8_t *f, size_t len, const struct sb_frame_info *fi)
{
	struct wire w = read_wire(f, len);
	if (len < SB_ETH_HLEN) {
		SB_FUZZ_CHECK(!fi->ip && !fi->dst_mac && !fi->src_mac, "a %zu-byte runt was read", len);
		return;
	}
	SB_FUZZ_CHECK(fi->dst_mac == f && fi->src_mac == f + 6, "MAC addresses outside the frame");
	SB_FUZZ_CHECK(fi->ethertype == be16(f + 12), "EtherType %#x, bytes say %#x", fi->ethertype, be16(f + 12));
	SB_FUZZ_CHECK(fi->ip == w.ip, "ip = %d, the bytes say %d (EtherType %#x, %zu bytes)", fi->ip, w.ip,
		      fi->ethertype, len);
	if (!w.ip) {
		SB_FUZZ_CHECK(fi->hash == 0 && !fi->has_ports && !fi->tcp, "a frame that is not IP has a flow");
		return;
	}
	SB_FUZZ_CHECK(fi->ip_version == w.version && fi->dscp == w.dscp && fi->ecn == w.ecn && fi->proto == w.proto,
		      "IPv%u header: dscp %u ecn %u proto %u, bytes say %u %u %u", w.version, fi->dscp, fi->ecn,
		      fi->proto, w.dscp, w.ecn, w.proto);
	SB_FUZZ_CHECK(fi->l4_off == w.l4_off, "transport at %u, bytes say %u", fi->l4_off, w.l4_off);
	bool l4 = (w.proto == 6 || w.proto == 17) && w.first_fragment;
	bool ports = l4 && w.l4_off + 4 <= w.end;
	SB_FUZZ_CHECK(fi->has_ports == ports, "has_ports %d, the bytes say %d (proto %u, transport %u..%u)",
		      fi->has_ports, ports, w.proto, w.l4_off, w.end);
	if (ports)
		SB_FUZZ_CHECK(fi->sport == be16(f + w.l4_off) && fi->dport == be16(f + w.l4_off + 2), "ports");
	else
		SB_FUZZ_CHECK(fi->sport == 0 && fi->dport == 0, "ports without a transport header");
	unsigned hdr = 0;
	if (ports && w.proto == 17 && w.l4_off + 8 <= w.end)
		hdr = 8;
	bool tcp = false;
	if (ports && w.proto == 6 && w.l4_off + 20 <= w.end) {
		unsigned doff = (f[w.l4_off + 12] >> 4) * 4u;
		tcp = doff >= 20 && w.l4_off + doff <= w.end;
		if (tcp)
			hdr = doff;
	}
	SB_FUZZ_CHECK(fi->tcp == tcp, "tcp %d, the bytes say %d", fi->tcp, tcp);
	if (tcp)
		SB_FUZZ_CHECK(fi->tcp_seq == be32(f + w.l4_off + 4) && fi->tcp_flags == f[w.l4_off + 13], "TCP fields");
	uint32_t payload = hdr ? w.end - w.l4_off - hdr : 0;
	SB_FUZZ_CHECK(fi->l4_payload == payload, "payload %u, the bytes say %u", fi->l4_payload, payload);
}

static bool same_flow(const struct sb_frame_info *a, const struct sb_frame_info *b)
{
	return a->ip == b->ip && a->ip_version == b->ip_version && a->dscp == b->dscp && a->proto == b->proto &&
	       a->l4_off == b->l4_off && a->has_ports == b->has_ports && a->sport == b->sport &&
	       a->dport == b->dport && a->tcp == b->tcp && a->tcp_seq == b->tcp_seq &&
	       a->tcp_flags == b->tcp_flags && a->l4_payload == b->l4_payload && a->hash == b->hash;
}

/* The hash reads the 5-tuple only: the TTL / hop limit and the last byte of a frame whose
 * transport header ends before it are not part of it. */
static void check_hash(uint8_t *f, size_t len, const struct sb_frame_info *fi)
{
	if (!fi->ip)
		return;
	unsigned ttl = SB_ETH_HLEN + (fi->ip_version == 4 ? 8 : 7);
	f[ttl] ^= 0x5a;
	size_t last = len - 1;
	bool tail = fi->tcp ? last >= fi->l4_off + (f[fi->l4_off + 12] >> 4) * 4u
			    : last >= fi->l4_off + 8u;
	if (tail)
		f[last] ^= 0xa5;
	struct sb_frame_info again;
	sb_frame_parse(f, (uint32_t)len, &again);
	SB_FUZZ_CHECK(again.hash == fi->hash, "the hash read a byte outside the 5-tuple");
	f[ttl] ^= 0x5a;
	if (tail)
		f[last] ^= 0xa5;
}

static void check_mark(uint8_t *f, size_t len, const struct sb_frame_info *fi)
{
	bool ect = fi->ip && (fi->ecn == SB_ECN_ECT0 || fi->ecn == SB_ECN_ECT1);
	SB_FUZZ_CHECK(sb_frame_ect(fi) == ect, "sb_frame_ect");
	unsigned ihl = fi->ip_version == 4 ? (f[SB_ETH_HLEN] & 15u) * 4 : 0;
	bool sum_ok = fi->ip_version == 4 && ipv4_sum_ok(f + SB_ETH_HLEN, ihl);
	uint8_t *before = malloc(len);
	memcpy(before, f, len);
	bool changed = sb_frame_mark_ce(f, fi);
	SB_FUZZ_CHECK(changed == ect, "marked %d an ECN field of %u", changed, fi->ecn);
	if (!changed) {
		SB_FUZZ_CHECK(!memcmp(before, f, len), "a frame left alone was written");
		free(before);
		return;
	}
	struct sb_frame_info after;
	sb_frame_parse(f, (uint32_t)len, &after);
	SB_FUZZ_CHECK(after.ecn == SB_ECN_CE && same_flow(fi, &after), "marking changed more than ECN");
	/* the bytes the marker may write: the TOS / traffic-class byte, and IPv4's checksum */
	for (size_t i = 0; i < len; i++) {
		bool may = i == SB_ETH_HLEN + 1 || (fi->ip_version == 4 && (i == SB_ETH_HLEN + 10 || i == SB_ETH_HLEN + 11));
		SB_FUZZ_CHECK(may || before[i] == f[i], "marking wrote byte %zu", i);
	}
	if (sum_ok)
		SB_FUZZ_CHECK(ipv4_sum_ok(f + SB_ETH_HLEN, ihl), "a correct IPv4 checksum broken by marking");
	free(before);
}

int sb_fuzz_frame(const uint8_t *data, size_t size, struct sb_error *why)
{
	/* the switch drops a frame above its slot before parsing it (sb_dp_switch_receive); the
	 * parser is still asked about every length up to 64 KB, the largest an IP length says */
	if (size > 65535 + SB_ETH_HLEN)
		return 0;
	uint8_t *f = malloc(size ? size : 1);
	memcpy(f, data, size);
	struct sb_frame_info fi;
	sb_frame_parse(f, (uint32_t)size, &fi);
	SB_FUZZ_CHECK(!memcmp(f, data, size), "the parser wrote into the frame");
	check_fields(f, size, &fi);
	check_hash(f, size, &fi);
	check_mark(f, size, &fi);
	int refused = !fi.ip;
	if (refused && why)
		snprintf(why->msg, sizeof(why->msg), "not IP: %zu bytes, EtherType %#x", size,
			 size >= SB_ETH_HLEN ? be16(data + 12) : 0u);
	free(f);
	return refused;
}

#ifdef SB_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sb_fuzz_frame(data, size, NULL);
	return 0;
}
#endif
