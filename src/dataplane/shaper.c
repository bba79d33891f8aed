/*
 * shaper.c — the virtual-finish-time shaper of an egress port.
 */
#include "dataplane/shaper.h"

void sb_dp_shaper_init(struct sb_dp_shaper *s, uint64_t rate_bps, sb_time slack)
{
	s->rate_bps = rate_bps;
	s->next = 0;
	s->slack = slack;
}

void sb_dp_shaper_sent(struct sb_dp_shaper *s, sb_time now, uint32_t len)
{
	sb_time start = s->next;
	if (start + s->slack < now)
		start = now - s->slack; /* idle: no credit beyond the slack */
	s->next = start + sb_tx_time((uint64_t)len + SB_DP_WIRE_OVERHEAD, s->rate_bps);
}
