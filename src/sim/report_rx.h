/*
 * report_rx.h — receive throughput of chosen hosts over time (throughput.csv; docs/outputs.md §4.1).
 *
 * Every run.sample_interval_us, each host of run.sample_hosts reports the payload bytes its
 * flows received in order since the previous sample. The counts are read from the receivers'
 * flow state (sb_flow.bytes_received) at the sampling instants, so the packet path does no
 * extra work whether sampling is on or off.
 */
#ifndef SB_REPORT_RX_H
#define SB_REPORT_RX_H

#include <stdio.h>
#include "sim/sim.h"

struct sb_rx_sink;

/* NULL when run.sample_hosts is empty (nothing to sample). */
struct sb_rx_sink *sb_rx_new(const struct sb_sim *sim);
/* Take one sample at the current time (called from the sampling event). */
void sb_rx_sample(struct sb_sim *sim, struct sb_rx_sink *rx);
/* Flow f was created during the run (those created before are found by sb_rx_new). */
void sb_rx_flow_created(struct sb_rx_sink *rx, const struct sb_flow *f);
/* Flow f is being released (transport/flows.c): count its received bytes if no sample did. */
void sb_rx_flow_released(struct sb_rx_sink *rx, const struct sb_flow *f);
void sb_rx_write(FILE *f, const struct sb_sim *sim, const struct sb_rx_sink *rx);
void sb_rx_free(struct sb_rx_sink *rx);

#endif
