/*
 * shaper.h — an egress port's rate: a virtual-finish-time shaper.
 *
 * A port may start a frame when its virtual clock `next` (the time its previous frame would
 * have finished on a wire of the port's rate) is not in the future; each frame then advances
 * `next` by its serialisation time, frame + SB_DP_WIRE_OVERHEAD bytes at the port's rate. The
 * switch thus emits exactly the rate of a real link of that speed, so the queue builds in the
 * switch's buffer (where the MMU sees it), not in the kernel's.
 *
 * Real time is coarse: the loop may wake up late. A port idle for a while must not then send
 * a burst for the time it was idle, so `next` never lags `now` by more than `slack` (a few
 * frames' time): short wake-up delays are made good, long idle periods are not credited.
 * The clock is passed in, so a test drives the shaper in virtual time.
 */
#ifndef SB_DP_SHAPER_H
#define SB_DP_SHAPER_H

#include <stdbool.h>
#include <stdint.h>
#include "core/time.h"

/* Preamble (8), FCS (4) and inter-frame gap (12): what a frame costs on an Ethernet wire
 * beyond the bytes a packet socket sees. */
#define SB_DP_WIRE_OVERHEAD 24u

struct sb_dp_shaper {
	uint64_t rate_bps;
	sb_time next;  /* virtual finish time of the last frame started */
	sb_time slack; /* largest lag of `next` behind now that is made good */
};

void sb_dp_shaper_init(struct sb_dp_shaper *s, uint64_t rate_bps, sb_time slack);
/* May a frame start at `now`? */
static inline bool sb_dp_shaper_ready(const struct sb_dp_shaper *s, sb_time now) { return s->next <= now; }
/* A frame of `len` bytes started at `now` (ready was true). */
void sb_dp_shaper_sent(struct sb_dp_shaper *s, sb_time now, uint32_t len);
/* The time a frame may start next (for the loop's sleep). */
static inline sb_time sb_dp_shaper_next(const struct sb_dp_shaper *s) { return s->next; }

#endif
