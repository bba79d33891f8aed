/*
 * dploop.h — the software switch's main loop: packet sockets <-> the forwarding core.
 *
 * One iteration:
 *   1. wait in ppoll() on every port's socket, at most until the earliest of: a backlogged
 *      port's shaper release, the next MMU timer, the next occupancy sample, the end of the
 *      run (no wait at all with busy polling; the timer slack is set to 1 ns so the kernel
 *      wakes the loop when asked, not up to 50 µs later);
 *   2. drain the receive rings into the core (admission, queueing), one frame of each port
 *      in turn, up to RX_BATCH rounds;
 *   3. fire the MMU timers that are due;
 *   4. for each port, start every frame its shaper allows, into its transmit ring;
 *   5. kick every transmit ring that got frames (one sendto per port and iteration);
 *   6. take the occupancy sample if it is due.
 * It runs until *stop is set (SIGINT/SIGTERM) or `duration` has passed.
 */
#ifndef SB_DP_LOOP_H
#define SB_DP_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include "dataplane/afpacket.h"
#include "dataplane/dpswitch.h"

/* The real-time clock of a run: CLOCK_MONOTONIC in ps since t0. */
struct sb_dp_clock {
	uint64_t t0_ns;
};
void sb_dp_clock_start(struct sb_dp_clock *c);
sb_time sb_dp_clock_now(void *clock);

struct sb_dp_loop_opts {
	sb_time duration;        /* 0 = until stopped */
	sb_time sample_interval; /* occupancy samples (0 = none) */
	bool busy_poll;
	FILE *occupancy;         /* rows of occupancy.csv, without the header */
	const char *switch_name; /* its `switch` column */
	volatile sig_atomic_t *stop;
};

/* Run until stopped; returns the run's length (ps). */
sb_time sb_dp_loop_run(struct sb_dp_switch *sw, struct sb_afp *ports, const struct sb_dp_loop_opts *o);

#endif
