/*
 * bm_static.c — static (complete) partitioning: every egress queue owns a fixed share and
 * never uses more, whatever the rest of the buffer holds. Perfect isolation, no sharing.
 *
 * The share is `queue_bytes` if set, else buffer / (ports × queues_per_port), counting only
 * the ports of this MMU: with one data queue per port in use (the common case) that is B/N.
 */
#include <stddef.h>
#include "mmu/mmu.h"

struct static_state {
	int64_t queue_bytes;
	int64_t queues_per_port;
	uint64_t limit_units; /* derived */
};

static const struct sb_param static_params[] = {
	{ "queue_bytes", SB_P_INT, offsetof(struct static_state, queue_bytes), "0", 0, 1e15, "bytes",
	  NULL, "fixed share of every egress queue; 0 = this MMU's buffer / (its ports × queues_per_port)" },
	{ "queues_per_port", SB_P_INT, offsetof(struct static_state, queues_per_port), "1", 1, 8, "",
	  NULL, "queues per port the buffer is divided among when queue_bytes = 0" },
	SB_PARAM_END
};

static int static_init(struct sb_mmu *m, struct sb_error *err)
{
	struct static_state *s = sb_mmu_state(m);
	/* only this MMU's own ports share its buffer (a switch may be split into several MMUs) */
	uint64_t own_ports = (uint64_t)(m->port_hi - m->port_lo);
	uint64_t bytes = s->queue_bytes ? (uint64_t)s->queue_bytes
					: m->buffer_bytes / (own_ports * (uint64_t)s->queues_per_port);
	/* whole units only: a share never rounds up into its neighbour's */
	s->limit_units = m->cell_bytes ? bytes / m->cell_bytes : bytes;
	if (s->limit_units == 0)
		return sb_fail(err, "static: queue share of %llu bytes is smaller than one unit",
			       (unsigned long long)bytes);
	return 0;
}

static enum sb_drop_cause static_admit(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	const struct static_state *s = sb_mmu_state(m);
	if (m->q_egr[sb_mmu_qi(pkt->out_port, pkt->prio)] + pkt->units > s->limit_units)
		return SB_DROP_THRESHOLD;
	return m->used + pkt->units > m->buffer ? SB_DROP_BUFFER_FULL : SB_ADMIT;
}

const struct sb_bm_ops sb_bm_static = {
	.name = "static",
	.summary = "Static partitioning: every egress queue owns a fixed share",
	.params = static_params,
	.state_size = sizeof(struct static_state),
	.init = static_init,
	.admit = static_admit,
};
