/*
 * cbr.c — constant-bit-rate transport (see cbr.h).
 *
 * Pacing is exact over the long run: the packet interval packet_bytes × 8 / rate in picoseconds
 * is split once into a whole part and a remainder, and the remainders are accumulated like a
 * Bresenham line, so after n packets the sender is within one picosecond of n × the ideal
 * interval and the per-packet path has no division.
 */
#include "transport/cbr.h"

#include <string.h>
#include "transport/flows.h"
#include "transport/tcp.h"
#include "transport/transport.h"

#define CBR_MAGIC 0x63627231u /* "cbr1": sb_cbr_configure ran */

struct cbr {
	uint32_t magic;
	uint32_t packet_bytes;  /* on the wire */
	uint64_t rate_bps;
	uint64_t sent;          /* payload bytes sent */
	uint64_t first_rtt_end;
	sb_time next_at;        /* when the next packet leaves */
	sb_time step;           /* whole picoseconds of one interval */
	uint64_t step_rem;      /* remainder of the interval, in units of 1/rate_bps ps */
	uint64_t rem_acc;
	uint32_t header;
};
_Static_assert(sizeof(struct cbr) <= sizeof(((struct sb_flow *)0)->tx), "CBR state must fit");

static inline struct cbr *cbr_of(struct sb_flow *f) { return (struct cbr *)(void *)f->tx; }

void sb_cbr_configure(struct sb_flow *f, uint64_t rate_bps, uint32_t packet_bytes)
{
	struct cbr *c = cbr_of(f);
	memset(c, 0, sizeof *c);
	c->magic = CBR_MAGIC;
	c->rate_bps = rate_bps;
	c->packet_bytes = packet_bytes;
}

static void cbr_send_due(struct sb_flows *fl, struct sb_flow *f)
{
	struct cbr *c = cbr_of(f);
	sb_time now = sb_now(&fl->net->engine);
	uint64_t limit = f->size ? f->size : UINT64_MAX;
	uint32_t max_payload = c->packet_bytes - c->header;
	while (c->sent < limit && c->next_at <= now) {
		uint64_t left = limit - c->sent;
		uint32_t len = left < max_payload ? (uint32_t)left : max_payload;
		struct sb_packet *p = sb_flow_data_packet(fl, f, c->sent, len, c->header, c->first_rtt_end);
		f->pkts_sent++;
		c->sent += len;
		sb_host_send(fl->net, p);

		c->next_at += c->step;
		c->rem_acc += c->step_rem;
		if (c->rem_acc >= c->rate_bps) {
			c->rem_acc -= c->rate_bps;
			c->next_at++;
		}
	}
	sb_flow_arm_timer(fl, f, c->sent < limit ? c->next_at : SB_TIME_NEVER);
}

static void cbr_start(struct sb_flows *fl, struct sb_flow *f)
{
	const struct sb_tcp_params *p = fl->tcp;
	struct cbr *c = cbr_of(f);
	if (c->magic != CBR_MAGIC)
		sb_cbr_configure(f, 0, 0);
	if (!c->rate_bps)
		c->rate_bps = sb_bottleneck_bps(fl->net, f->src, f->dst);
	c->header = (uint32_t)p->header_bytes;
	if (c->packet_bytes <= c->header)
		c->packet_bytes = (uint32_t)(p->mss + p->header_bytes);
	if (c->packet_bytes - c->header > UINT16_MAX)
		c->packet_bytes = c->header + UINT16_MAX; /* the packet's payload field is 16 bits */
	unsigned __int128 num = (unsigned __int128)c->packet_bytes * 8u * SB_SEC;
	c->step = (sb_time)(num / c->rate_bps);
	c->step_rem = (uint64_t)(num % c->rate_bps);
	c->rem_acc = 0;
	c->sent = 0;
	c->first_rtt_end = sb_first_rtt_budget(fl, f);
	c->next_at = sb_now(&fl->net->engine);
	cbr_send_due(fl, f);
}

static void cbr_on_timer(struct sb_flows *fl, struct sb_flow *f) { cbr_send_due(fl, f); }

static void cbr_on_data(struct sb_flows *fl, struct sb_flow *f, struct sb_packet *pkt)
{
	f->bytes_received += pkt->payload;
	if (pkt->seq == f->rcv_nxt)
		f->rcv_nxt += pkt->payload;
	if (f->size && !f->done && f->bytes_received >= f->size)
		sb_flow_received(fl, f);
}

const struct sb_transport_ops sb_transport_cbr = {
	.name = "cbr",
	.summary = "unresponsive constant bit rate (no ACKs, no retransmissions)",
	.state_size = sizeof(struct cbr),
	.start = cbr_start,
	.on_data = cbr_on_data,
	.on_ack = NULL,
	.on_timer = cbr_on_timer,
};
