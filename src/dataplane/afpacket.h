/*
 * afpacket.h — one AF_PACKET socket bound to one interface, with memory-mapped TPACKET_V2
 * receive and transmit rings.
 *
 * Receiving reads frames straight out of the shared ring (no system call per frame: the loop
 * polls the socket, then drains every frame the kernel marked TP_STATUS_USER and hands each
 * slot back). Sending writes frames into free slots of the transmit ring and kicks the kernel
 * once per batch with sendto(MSG_DONTWAIT) (sb_afp_flush). PACKET_QDISC_BYPASS sends past the
 * interface's qdisc: the switch's own queues and shaper are the only queues, and
 * PACKET_IGNORE_OUTGOING keeps the socket from reading its own transmissions.
 */
#ifndef SB_DP_AFPACKET_H
#define SB_DP_AFPACKET_H

#include <stdbool.h>
#include <stdint.h>
#include "core/util.h"

struct sb_afp {
	int fd;
	int ifindex;
	uint8_t *map;          /* RX ring, then TX ring */
	size_t map_len;
	uint32_t frame_size, nframes; /* per ring */
	uint32_t rx_next, tx_next;
	uint32_t tx_pending;   /* frames written since the last flush */
	uint64_t tx_errors;    /* frames the kernel reported as not sent */
	uint64_t rx_ring_drops;/* frames the kernel found no free receive slot for (sb_afp_read_drops) */
	uint64_t rx_csum_partial; /* frames received with their L4 checksum left to an offload
				   * (TP_STATUS_CSUMNOTREADY): forwarded as they are, they arrive with a
				   * bad checksum; the testbed turns tx checksumming off on the hosts */
};

/* Open and bind to `ifname`; -1 + err (naming the interface and the failing call). */
int sb_afp_open(struct sb_afp *a, const char *ifname, struct sb_error *err);
void sb_afp_close(struct sb_afp *a);

/* The next received frame (its length in *len), or NULL when the ring is empty; give the
 * slot back with sb_afp_rx_done before asking for the next. */
const uint8_t *sb_afp_rx(struct sb_afp *a, uint32_t *len);
void sb_afp_rx_done(struct sb_afp *a);

/* Is a transmit slot free? */
bool sb_afp_tx_room(struct sb_afp *a);
/* Copy a frame into the free transmit slot (sb_afp_tx_room was true). */
void sb_afp_tx(struct sb_afp *a, const uint8_t *frame, uint32_t len);
/* Ask the kernel to send what was written. */
void sb_afp_flush(struct sb_afp *a);

/* Add to rx_ring_drops the frames the kernel dropped since the last call because the receive
 * ring was full (PACKET_STATISTICS, whose reading resets the kernel's count): frames that never
 * reached the switch's MMU, lost before any scheme decided on them. */
void sb_afp_read_drops(struct sb_afp *a);

#endif
