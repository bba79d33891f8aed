/*
 * frame.h — what the software switch reads and writes in an Ethernet frame.
 *
 * The switch forwards untagged Ethernet II frames (no VLAN). Of an IPv4 or IPv6 packet it reads
 * the DSCP (its priority, DSCP >> 3), the ECN field and the 5-tuple (first-window tagging and
 * the flow hash); every other frame (ARP, LLDP, ...) is "not IP" and takes the control path.
 *
 * ECN marking (RFC 3168 §5): only an ECN-capable packet, ECT(0) or ECT(1), is set to CE; a
 * Not-ECT packet is never marked (the switch would drop it instead, which is the MMU's call,
 * not the marker's) and a CE packet stays CE. IPv4's header checksum is updated incrementally
 * for the changed 16-bit word, HC' = ~(~HC + ~m + m') in one's complement arithmetic
 * (RFC 1624 eq. 3), so marking costs no pass over the header; IPv6 has no header checksum.
 */
#ifndef SB_DP_FRAME_H
#define SB_DP_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#define SB_ETH_HLEN 14
#define SB_ETHERTYPE_IPV4 0x0800
#define SB_ETHERTYPE_IPV6 0x86dd

enum { SB_ECN_NOT_ECT = 0, SB_ECN_ECT1 = 1, SB_ECN_ECT0 = 2, SB_ECN_CE = 3 };

struct sb_frame_info {
	const uint8_t *dst_mac, *src_mac;
	uint16_t ethertype;
	bool ip;             /* a complete IPv4 or IPv6 header follows the Ethernet header (IPv4:
			      * with a total length of at least its header's) */
	uint8_t ip_version;  /* 4 or 6 */
	uint8_t dscp;        /* 0..63 */
	uint8_t ecn;         /* SB_ECN_* */
	uint8_t proto;       /* IPv4 protocol / IPv6 next header (no extension headers walked) */
	uint16_t l4_off;     /* offset of the transport header in the frame */
	bool has_ports;      /* TCP or UDP with its ports inside the IP packet (its length field,
			      * cut to the frame; never in Ethernet padding, never in an IPv4
			      * fragment other than the first) */
	uint16_t sport, dport;
	bool tcp;            /* a complete TCP header (all its data offset, inside the IP packet):
			      * seq, flags and payload below are valid */
	uint32_t tcp_seq;
	uint8_t tcp_flags;
	uint32_t l4_payload; /* bytes after the TCP/UDP header (as the IP length says) */
	uint32_t hash;       /* of the 5-tuple (addresses, protocol, ports); 0 when not IP */
};

#define SB_TCP_FIN 0x01
#define SB_TCP_SYN 0x02
#define SB_TCP_RST 0x04

/* Parse a frame of `len` bytes. Never reads past `len`; a truncated IP header makes the frame
 * "not IP". fuzz/fuzz_frame.c checks every field against the bytes. */
void sb_frame_parse(const uint8_t *frame, uint32_t len, struct sb_frame_info *fi);

/* The priority of an IP frame: DSCP >> 3, 0..7. */
static inline uint8_t sb_frame_prio(const struct sb_frame_info *fi) { return (uint8_t)(fi->dscp >> 3); }

static inline bool sb_frame_ect(const struct sb_frame_info *fi)
{
	return fi->ip && (fi->ecn == SB_ECN_ECT0 || fi->ecn == SB_ECN_ECT1);
}

/* Set CE in an ECN-capable IP frame parsed as `fi` (fixing IPv4's checksum). Returns true if
 * the frame was changed; a Not-ECT, CE or non-IP frame is left alone. */
bool sb_frame_mark_ce(uint8_t *frame, const struct sb_frame_info *fi);

/* The IPv4 header checksum computed from scratch over `ihl_bytes` bytes (the checksum field
 * taken as zero): what a correct header carries. */
uint16_t sb_ipv4_checksum(const uint8_t *ip, unsigned ihl_bytes);

#endif
