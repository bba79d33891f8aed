/*
 * frame.c — parsing Ethernet/IP frames and ECN marking with the checksum fix.
 */
#include "dataplane/frame.h"

#include <string.h>

static inline uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* FNV-1a over the bytes of the 5-tuple: cheap, and the same flow always gets the same hash. */
static uint32_t fnv(uint32_t h, const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* The transport header, read only inside the IP packet: [l4_off, l4_end) is what its length
 * field says, cut to the frame. A byte past it is Ethernet padding (a frame is at least 60
 * bytes) and a port read there would be zeros, not the flow's. */
static void parse_l4(const uint8_t *f, uint32_t l4_end, struct sb_frame_info *fi)
{
	uint32_t off = fi->l4_off;
	if (fi->proto != 6 && fi->proto != 17)
		return;
	if (off + 4 > l4_end)
		return;
	fi->has_ports = true;
	fi->sport = rd16(f + off);
	fi->dport = rd16(f + off + 2);
	if (fi->proto == 17) {
		fi->l4_payload = l4_end > off + 8 ? l4_end - off - 8 : 0;
		return;
	}
	if (off + 20 > l4_end)
		return;
	/* a complete header: seq, flags and the payload's start are the header's own */
	unsigned doff = (unsigned)(f[off + 12] >> 4) * 4u;
	if (doff < 20 || off + doff > l4_end)
		return;
	fi->tcp = true;
	fi->tcp_seq = rd32(f + off + 4);
	fi->tcp_flags = f[off + 13];
	fi->l4_payload = l4_end > off + doff ? l4_end - off - doff : 0;
}

void sb_frame_parse(const uint8_t *f, uint32_t len, struct sb_frame_info *fi)
{
	memset(fi, 0, sizeof(*fi));
	if (len < SB_ETH_HLEN)
		return;
	fi->dst_mac = f;
	fi->src_mac = f + 6;
	fi->ethertype = rd16(f + 12);
	const uint8_t *ip = f + SB_ETH_HLEN;
	uint32_t avail = len - SB_ETH_HLEN, l4_end;
	uint32_t h = 2166136261u;
	if (fi->ethertype == SB_ETHERTYPE_IPV4) {
		if (avail < 20 || ip[0] >> 4 != 4)
			return;
		unsigned ihl = (unsigned)(ip[0] & 15) * 4u;
		uint32_t total = rd16(ip + 2);
		/* a total length below the header's is a bad header (RFC 1812 §5.2.2) */
		if (ihl < 20 || ihl > avail || total < ihl)
			return;
		fi->ip_version = 4;
		fi->dscp = ip[1] >> 2;
		fi->ecn = ip[1] & 3;
		fi->proto = ip[9];
		fi->l4_off = (uint16_t)(SB_ETH_HLEN + ihl);
		l4_end = SB_ETH_HLEN + (total < avail ? total : avail);
		/* a fragment other than the first carries the datagram's middle, no transport
		 * header (RFC 791 §3.1: fragment offset, the low 13 bits of bytes 6..7) */
		if (rd16(ip + 6) & 0x1fff)
			l4_end = fi->l4_off;
		h = fnv(h, ip + 12, 8);
	} else if (fi->ethertype == SB_ETHERTYPE_IPV6) {
		if (avail < 40 || ip[0] >> 4 != 6)
			return;
		fi->ip_version = 6;
		uint8_t tc = (uint8_t)((ip[0] & 15) << 4 | ip[1] >> 4);
		fi->dscp = tc >> 2;
		fi->ecn = tc & 3;
		fi->proto = ip[6];
		fi->l4_off = SB_ETH_HLEN + 40;
		uint32_t payload = rd16(ip + 4);
		l4_end = SB_ETH_HLEN + 40 + (payload < avail - 40 ? payload : avail - 40);
		h = fnv(h, ip + 8, 32);
	} else {
		return;
	}
	fi->ip = true;
	parse_l4(f, l4_end, fi);
	uint8_t rest[5] = { fi->proto, (uint8_t)(fi->sport >> 8), (uint8_t)fi->sport, (uint8_t)(fi->dport >> 8),
			    (uint8_t)fi->dport };
	fi->hash = fnv(h, rest, sizeof(rest));
}

uint16_t sb_ipv4_checksum(const uint8_t *ip, unsigned ihl_bytes)
{
	uint32_t sum = 0;
	for (unsigned i = 0; i + 1 < ihl_bytes; i += 2)
		if (i != 10)
			sum += rd16(ip + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

bool sb_frame_mark_ce(uint8_t *f, const struct sb_frame_info *fi)
{
	if (!sb_frame_ect(fi))
		return false;
	uint8_t *ip = f + SB_ETH_HLEN;
	if (fi->ip_version == 6) {
		ip[1] |= (uint8_t)(SB_ECN_CE << 4);
		return true;
	}
	/* RFC 1624 eq. 3 on the word holding version/IHL and TOS */
	uint16_t m = rd16(ip);
	uint16_t m2 = (uint16_t)(m | SB_ECN_CE);
	uint32_t sum = (uint16_t)~rd16(ip + 10);
	sum += (uint16_t)~m;
	sum += m2;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	uint16_t hc = (uint16_t)~sum;
	ip[1] = (uint8_t)m2;
	ip[10] = (uint8_t)(hc >> 8);
	ip[11] = (uint8_t)hc;
	return true;
}
