/*
 * afpacket.c — AF_PACKET sockets with TPACKET_V2 rings.
 */
#include "dataplane/afpacket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

/* Ring geometry: 2 KB frames (a 1514-byte frame plus the TPACKET_V2 header), 64 KB blocks,
 * 512 frames per ring: about 6 ms of 1 Gb/s, deep enough to ride out a scheduling hiccup. */
#define FRAME_SIZE 2048u
#define BLOCK_SIZE 65536u
#define NBLOCKS 16u

static int fail_errno(struct sb_error *err, const char *ifname, const char *what)
{
	return sb_fail(err, "--port %s: %s: %s", ifname, what, strerror(errno));
}

int sb_afp_open(struct sb_afp *a, const char *ifname, struct sb_error *err)
{
	memset(a, 0, sizeof(*a));
	a->fd = -1;
	unsigned idx = if_nametoindex(ifname);
	if (!idx)
		return sb_fail(err, "--port %s: no such network interface", ifname);
	a->ifindex = (int)idx;
	a->fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (a->fd < 0)
		return sb_fail(err, "--port %s: socket(AF_PACKET): %s (the switch needs root or CAP_NET_RAW)", ifname,
			       strerror(errno));
	int v = TPACKET_V2, one = 1;
	if (setsockopt(a->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)))
		goto fail_version;
	if (setsockopt(a->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		goto fail_bypass;
	/* older kernels lack it: the receive path also skips PACKET_OUTGOING frames */
	(void)setsockopt(a->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	struct tpacket_req req = {
		.tp_block_size = BLOCK_SIZE,
		.tp_block_nr = NBLOCKS,
		.tp_frame_size = FRAME_SIZE,
		.tp_frame_nr = BLOCK_SIZE / FRAME_SIZE * NBLOCKS,
	};
	if (setsockopt(a->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)))
		goto fail_ring;
	if (setsockopt(a->fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)))
		goto fail_ring;
	a->frame_size = FRAME_SIZE;
	a->nframes = req.tp_frame_nr;
	a->map_len = 2u * BLOCK_SIZE * NBLOCKS;
	a->map = mmap(NULL, a->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, a->fd, 0);
	if (a->map == MAP_FAILED) /* MAP_LOCKED may exceed RLIMIT_MEMLOCK: try without */
		a->map = mmap(NULL, a->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
	if (a->map == MAP_FAILED) {
		a->map = NULL;
		int rc = fail_errno(err, ifname, "mmap of the packet rings");
		sb_afp_close(a);
		return rc;
	}
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL), .sll_ifindex = a->ifindex };
	if (bind(a->fd, (struct sockaddr *)&sll, sizeof(sll))) {
		int rc = fail_errno(err, ifname, "bind");
		sb_afp_close(a);
		return rc;
	}
	return 0;
	int rc;
fail_version:
	rc = fail_errno(err, ifname, "PACKET_VERSION TPACKET_V2");
	goto out;
fail_bypass:
	rc = fail_errno(err, ifname, "PACKET_QDISC_BYPASS");
	goto out;
fail_ring:
	rc = fail_errno(err, ifname, "PACKET_RX_RING/PACKET_TX_RING");
out:
	sb_afp_close(a);
	return rc;
}

void sb_afp_close(struct sb_afp *a)
{
	if (a->map)
		munmap(a->map, a->map_len);
	if (a->fd >= 0)
		close(a->fd);
	a->map = NULL;
	a->fd = -1;
}

static inline struct tpacket2_hdr *rx_slot(struct sb_afp *a, uint32_t i)
{
	return (struct tpacket2_hdr *)(a->map + (size_t)i * a->frame_size);
}

static inline struct tpacket2_hdr *tx_slot(struct sb_afp *a, uint32_t i)
{
	return (struct tpacket2_hdr *)(a->map + (size_t)(a->nframes + i) * a->frame_size);
}

const uint8_t *sb_afp_rx(struct sb_afp *a, uint32_t *len)
{
	for (;;) {
		struct tpacket2_hdr *h = rx_slot(a, a->rx_next);
		if (!(__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
			return NULL;
		const struct sockaddr_ll *sll =
			(const struct sockaddr_ll *)((const uint8_t *)h + TPACKET_ALIGN(sizeof(struct tpacket2_hdr)));
		if (sll->sll_pkttype != PACKET_OUTGOING) {
			if (h->tp_status & TP_STATUS_CSUMNOTREADY)
				a->rx_csum_partial++;
			/* a frame longer than the ring's slot arrives cut: its true length makes the
			 * switch drop it as oversize instead of forwarding the cut frame */
			*len = h->tp_len > h->tp_snaplen ? h->tp_len : h->tp_snaplen;
			return (const uint8_t *)h + h->tp_mac;
		}
		sb_afp_rx_done(a);
	}
}

void sb_afp_rx_done(struct sb_afp *a)
{
	struct tpacket2_hdr *h = rx_slot(a, a->rx_next);
	__atomic_store_n(&h->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	a->rx_next = (a->rx_next + 1) % a->nframes;
}

bool sb_afp_tx_room(struct sb_afp *a)
{
	struct tpacket2_hdr *h = tx_slot(a, a->tx_next);
	uint32_t st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
	if (st == TP_STATUS_WRONG_FORMAT) {
		/* the kernel refused this frame: count it and reuse the slot */
		a->tx_errors++;
		__atomic_store_n(&h->tp_status, TP_STATUS_AVAILABLE, __ATOMIC_RELEASE);
		return true;
	}
	return st == TP_STATUS_AVAILABLE;
}

void sb_afp_tx(struct sb_afp *a, const uint8_t *frame, uint32_t len)
{
	struct tpacket2_hdr *h = tx_slot(a, a->tx_next);
	uint8_t *data = (uint8_t *)h + TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);
	memcpy(data, frame, len);
	h->tp_len = len;
	h->tp_snaplen = len;
	__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
	a->tx_next = (a->tx_next + 1) % a->nframes;
	a->tx_pending++;
}

void sb_afp_read_drops(struct sb_afp *a)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);
	if (a->fd >= 0 && getsockopt(a->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
		a->rx_ring_drops += st.tp_drops;
}

void sb_afp_flush(struct sb_afp *a)
{
	if (!a->tx_pending)
		return;
	/* ENOBUFS/EAGAIN: the frames stay requested and go with the next kick */
	if (sendto(a->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0 || (errno != EAGAIN && errno != ENOBUFS))
		a->tx_pending = 0;
}
