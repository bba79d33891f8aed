/*
 * headroom.h — how much buffer a lossless queue needs after it sends PFC PAUSE.
 *
 * Between the moment a switch decides to pause an upstream sender and the moment the last
 * byte that sender could not stop has arrived, the upstream link keeps delivering. Headroom
 * is that many bytes, reserved so a paused lossless queue never drops. Two published forms:
 *
 *   Reverie artifact (Cisco PFC white paper), per (port, lossless priority):
 *       2·(mtu_payload + 48) + 3860 + 2·rate·delay/8
 *     = 2·1048 + 3860 + 12,500 = 18,456 B at 25 Gb/s, 2 µs, 1000 B payload.
 *
 *   DSH Eq. (1), per queue (SIH) or per port (DSH's insurance):
 *       η = 2·(rate·delay/8 + frame) + 3840
 *     = 56,840 B at 100 Gb/s, 2 µs, 1500 B frames. The five delay components: the frame the
 *       downstream is sending, PAUSE propagation, upstream processing (≤ 3840 B of time by
 *       802.1Qbb), the frame the upstream is sending, propagation of its last bit.
 *
 * Both return bytes, rounded up so the guarantee holds.
 */
#ifndef SB_HEADROOM_H
#define SB_HEADROOM_H

#include <stdint.h>
#include "core/param.h"
#include "core/time.h"

/* Reverie artifact form; `frame_bytes` is the largest data frame (payload + headers). */
uint64_t sb_headroom_reverie(uint32_t frame_bytes, uint64_t rate_bps, sb_time delay);
/* DSH Eq. (1). */
uint64_t sb_headroom_dsh(uint32_t frame_bytes, uint64_t rate_bps, sb_time delay);

/* The choice a lossless scheme offers its users, as a parameter `headroom`. */
enum sb_headroom_mode {
	SB_HEADROOM_REVERIE = 0, /* sb_headroom_reverie of the port's link */
	SB_HEADROOM_DSH,         /* sb_headroom_dsh of the port's link */
	SB_HEADROOM_BYTES,       /* a fixed number of bytes (the scheme's headroom_bytes) */
};
extern const char *const sb_headroom_mode_names[]; /* NULL-terminated, for SB_P_ENUM */

struct sb_mmu;
/* Headroom of ingress port `port` under `mode` (bytes_if_fixed for SB_HEADROOM_BYTES), in
 * the MMU's units (bytes, or cells rounded up). */
uint64_t sb_headroom_units(const struct sb_mmu *mmu, uint16_t port, int mode, uint64_t bytes_if_fixed);
/* The same for a link of the given rate and delay that the MMU need not have (reserves sized for
 * uncabled ports). */
uint64_t sb_headroom_units_of_link(const struct sb_mmu *mmu, int mode, uint64_t bytes_if_fixed, uint64_t rate_bps,
				   sb_time delay);

#endif
