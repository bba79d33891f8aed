/*
 * headroom.c — the headroom formulas (see headroom.h for where they come from).
 */
#include "mmu/headroom.h"

#include "mmu/mmu.h"

const char *const sb_headroom_mode_names[] = { "reverie", "dsh", "bytes", NULL };

/* rate·delay in bytes, rounded up: the bytes a link holds in flight. */
static uint64_t link_bytes(uint64_t rate_bps, sb_time delay)
{
	unsigned __int128 bits = (unsigned __int128)rate_bps * delay; /* bit·ps */
	unsigned __int128 per_byte = (unsigned __int128)8 * SB_SEC;
	return (uint64_t)((bits + per_byte - 1) / per_byte);
}

uint64_t sb_headroom_reverie(uint32_t frame_bytes, uint64_t rate_bps, sb_time delay)
{
	return 2ull * frame_bytes + 3860 + 2 * link_bytes(rate_bps, delay);
}

uint64_t sb_headroom_dsh(uint32_t frame_bytes, uint64_t rate_bps, sb_time delay)
{
	return 2 * (link_bytes(rate_bps, delay) + frame_bytes) + 3840;
}

uint64_t sb_headroom_units_of_link(const struct sb_mmu *mmu, int mode, uint64_t bytes_if_fixed, uint64_t rate_bps,
				   sb_time delay)
{
	uint64_t bytes;
	switch (mode) {
	case SB_HEADROOM_REVERIE:
		bytes = sb_headroom_reverie(mmu->max_frame_bytes, rate_bps, delay);
		break;
	case SB_HEADROOM_DSH:
		bytes = sb_headroom_dsh(mmu->max_frame_bytes, rate_bps, delay);
		break;
	default:
		bytes = bytes_if_fixed;
		break;
	}
	return mmu->cell_bytes ? (bytes + mmu->cell_bytes - 1) / mmu->cell_bytes : bytes;
}

uint64_t sb_headroom_units(const struct sb_mmu *mmu, uint16_t port, int mode, uint64_t bytes_if_fixed)
{
	return sb_headroom_units_of_link(mmu, mode, bytes_if_fixed, mmu->port_rate_bps[port], mmu->port_delay_ps[port]);
}
