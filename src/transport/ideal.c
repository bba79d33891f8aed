/*
 * ideal.c — a flow's ideal completion time and its transport's framing (flows.h).
 */
#include "transport/flows.h"

sb_time sb_base_rtt(const struct sb_flows *fl, uint32_t src, uint32_t dst, uint32_t pkt_bytes)
{
	return sb_path_rtt(fl->net, src, dst, pkt_bytes, (uint32_t)fl->tcp->ack_bytes);
}

static struct sb_framing tcp_framing(const struct sb_flows *fl)
{
	const struct sb_tcp_params *t = fl->tcp;
	return (struct sb_framing){ (uint32_t)t->mss, (uint32_t)t->header_bytes, (uint32_t)t->ack_bytes };
}

struct sb_framing sb_transport_framing(const struct sb_flows *fl, const struct sb_transport_ops *ops)
{
	return ops && ops->framing ? ops->framing(fl) : tcp_framing(fl);
}

/*
 * Ideal FCT (docs/outputs.md): the base RTT of the path for the flow's first packet plus the
 * remaining wire bytes at the bottleneck rate:
 *   ideal = 2·Σ prop + Σ_hops ser(first packet) + Σ_hops ser(ACK) + (wire_bytes − first) · 8 / C_min
 * and, for transports that complete at the receiver, the one-way part only:
 *   ideal_oneway = Σ prop + Σ_hops ser(first packet) + (wire_bytes − first) · 8 / C_min
 * with wire_bytes = size + ceil(size / payload) · header, in the transport's framing (TCP's:
 * tcp.mss and tcp.header_bytes). This is exactly the FCT of a flow alone on a path of equal
 * link rates sending at line rate, so slowdown ≥ 1 up to rounding.
 */
static sb_time ideal(const struct sb_flows *fl, uint32_t src, uint32_t dst, uint64_t size, bool with_ack,
		     struct sb_framing fr)
{
	uint64_t mss = fr.payload;
	uint64_t pkts = size ? (size + mss - 1) / mss : 1;
	uint64_t wire = size + pkts * fr.header;
	uint32_t first = (uint32_t)((size < mss ? size : mss) + fr.header);
	struct sb_path_sum s = sb_path_walk(fl->net, src, dst, first, fr.ack);
	sb_time one_way = s.prop + s.ser_data + sb_tx_time(wire - first, s.bottleneck_bps);
	return with_ack ? one_way + s.prop + s.ser_ack : one_way;
}

sb_time sb_ideal_fct(const struct sb_flows *fl, uint32_t src, uint32_t dst, uint64_t size)
{
	return ideal(fl, src, dst, size, true, tcp_framing(fl));
}

sb_time sb_ideal_fct_oneway(const struct sb_flows *fl, uint32_t src, uint32_t dst, uint64_t size)
{
	return ideal(fl, src, dst, size, false, tcp_framing(fl));
}

sb_time sb_transport_ideal_fct(const struct sb_flows *fl, const struct sb_transport_ops *ops, uint32_t src,
			       uint32_t dst, uint64_t size)
{
	sb_time setup = ops && ops->setup_time ? ops->setup_time(fl, src, dst) : 0;
	return setup + ideal(fl, src, dst, size, !ops || ops->on_ack != NULL, sb_transport_framing(fl, ops));
}

