/*
 * dpswitch.h — the software switch's forwarding core: frames in, MMU admission, egress
 * queues, frames out. No sockets here (dploop.c moves frames between this core and the
 * packet sockets), so tests drive it with synthetic frames and an injected clock.
 *
 * Set-up from a scenario (sb_dp_switch_init) uses the simulator's own functions
 * (src/net/switch.h): the buffer of the single switch from its ports' rates
 * (sb_switch_buffer_for_rates), the MMU with the scheme and its parameters
 * (sb_switch_mmu_create, same seed as the simulator's switch 0), and each port's ECN table and
 * DRR quanta (sb_switch_port_tables). Port i runs at topology.host_rate_gbps.
 *
 * A received frame (sb_dp_switch_receive):
 *   - not IP, or to a broadcast/multicast/unknown MAC: the control path, copied into the control
 *     FIFO of the destination port, or of every other port (flooding); never charged to the MMU;
 *   - IP to the MAC of port `out`: priority DSCP >> 3, first-window tag (flowtag.h), then
 *     sb_mmu_admit with in_port, out_port, prio, tags, bytes = frame length, flow_hash. Refused:
 *     dropped and counted per cause. Admitted: ECN marking at enqueue if so configured
 *     (sb_sched_on_admit, net/sched.h: the simulator's own decision), queued.
 * Transmission (sb_dp_switch_transmit), while the port's shaper allows and the sink takes
 * frames: the scheduler picks a packet, sb_mmu_release(SB_RELEASE_TX) at the start of its
 * transmission (as the simulator does), ECN marking at dequeue if so configured, out.
 * The MMU's environment: now() = the clock since start (ps), arm_timer() = timers.h (fired
 * by sb_dp_switch_run_timers), expel_head() = drop the head of a data FIFO (never a frame
 * already handed to the kernel) and release it SB_RELEASE_EXPELLED; no send_pfc: schemes
 * that protect lossless classes are refused at set-up.
 *
 * Conservation (checked by sb_dp_switch_check and reported in summary.json):
 *   rx_frames = forwarded + dropped + control + queued
 * with dropped = MMU refusals + expelled + no_slot + local + oversize, control = frames taken
 * by the control path, queued = data packets still in the FIFOs.
 */
#ifndef SB_DP_SWITCH_H
#define SB_DP_SWITCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "core/rng.h"
#include "core/util.h"
#include "dataplane/flowtag.h"
#include "dataplane/pktbuf.h"
#include "dataplane/swport.h"
#include "dataplane/timers.h"
#include "mmu/mmu.h"

struct sb_scenario;

typedef sb_time (*sb_dp_clock_fn)(void *ctx);

/* Frames the core drops before the MMU sees them. */
enum sb_dp_local_drop {
	SB_DP_DROP_NO_SLOT = 0, /* the packet pool was empty */
	SB_DP_DROP_LOCAL,       /* destination MAC behind the port it came from */
	SB_DP_DROP_OVERSIZE,    /* longer than SB_DP_FRAME_MAX (offloads left on?) */
	SB_DP_NLOCAL
};
extern const char *const sb_dp_local_drop_name[SB_DP_NLOCAL];

struct sb_dp_switch {
	uint16_t nports;
	uint8_t (*mac)[6];           /* the MAC of the host behind each port */
	struct sb_swport *port;
	struct sb_mmu *mmu;
	struct sb_dp_pool pool;
	struct sb_dp_timers timers;
	struct sb_dp_flowtag flowtag;
	struct sb_rng rng;           /* ECN marking draws, the simulator's stream of switch 0 */
	sb_dp_clock_fn clock;
	void *clock_ctx;
	uint64_t rate_bps;           /* every port's */
	uint64_t buffer_bytes;
	char scheme[64];
	bool check;                  /* verify the counters after every operation */

	/* counters (packets unless named bytes) */
	uint64_t rx_frames, rx_bytes, rx_data, rx_ctrl;
	uint64_t fwd_pkts, fwd_bytes;          /* data packets that started transmission */
	uint64_t flood_frames, ctrl_copies;    /* control frames flooded; copies queued */
	uint64_t ctrl_lost;                    /* copies not queued (control FIFO full, no slot) */
	uint64_t local_drops[SB_DP_NLOCAL];
	uint64_t peak_queued_bytes;
};

/* Set up from a validated scenario; macs[i] is the host behind port i. -1 + err (naming the
 * key) when the scenario is not one this switch can run. */
int sb_dp_switch_init(struct sb_dp_switch *sw, const struct sb_scenario *sc, uint16_t nports,
		      const uint8_t (*macs)[6], sb_dp_clock_fn clock, void *clock_ctx, struct sb_error *err);
void sb_dp_switch_fini(struct sb_dp_switch *sw);

static inline sb_time sb_dp_switch_now(const struct sb_dp_switch *sw) { return sw->clock(sw->clock_ctx); }

/* One frame received on port `in`. The frame is copied; the caller keeps its buffer. */
void sb_dp_switch_receive(struct sb_dp_switch *sw, uint16_t in, const uint8_t *frame, uint32_t len);

/* Where transmitted frames go: `room` says whether port `port` can take a frame now (a free
 * slot in its transmit ring), `send` takes it (copied). */
struct sb_dp_sink {
	void *ctx;
	bool (*room)(void *ctx, uint16_t port);
	void (*send)(void *ctx, uint16_t port, const uint8_t *frame, uint32_t len);
};
/* Start every frame port `p` may start at `now`; returns how many. */
unsigned sb_dp_switch_transmit(struct sb_dp_switch *sw, uint16_t p, sb_time now, const struct sb_dp_sink *sink);
/* The earliest time a backlogged port's shaper lets a frame go, or UINT64_MAX if all are idle. */
sb_time sb_dp_switch_next_tx(const struct sb_dp_switch *sw);
/* Fire the MMU timers due at `now`. */
void sb_dp_switch_run_timers(struct sb_dp_switch *sw, sb_time now);

/* Totals for conservation and reports. */
uint64_t sb_dp_switch_dropped(const struct sb_dp_switch *sw);
uint64_t sb_dp_switch_queued_pkts(const struct sb_dp_switch *sw);
uint64_t sb_dp_switch_queued_bytes(const struct sb_dp_switch *sw);
/* Conservation and MMU == queues: 0, or -1 with what is wrong in err. */
int sb_dp_switch_check(const struct sb_dp_switch *sw, struct sb_error *err);

#endif
