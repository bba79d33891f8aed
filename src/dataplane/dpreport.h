/*
 * dpreport.h — the software switch's output files (docs/testbed.md §"switch outputs").
 *
 *   summary.json   scheme, ports, rate, buffer; received / forwarded / control / dropped (per
 *                  cause) / queued at exit with the conservation check; peak occupancy; ECN
 *                  marks; first-window tags; run length
 *   queues.csv     one row per (port, priority): enqueued, dequeued, ECN-marked, dropped per
 *                  MMU cause, packets and bytes
 *   occupancy.csv  the simulator's columns (docs/outputs.md §4), rows streamed by the loop
 */
#ifndef SB_DP_REPORT_H
#define SB_DP_REPORT_H

#include <stdio.h>
#include "dataplane/dpswitch.h"

struct sb_dp_report_info {
	const char *scenario;      /* the file */
	const char *const *ifnames;/* per port */
	sb_time run_length;
	bool busy_poll;
	uint64_t rx_csum_partial; /* over all ports (afpacket.h) */
	uint64_t tx_errors;
	const uint64_t *rx_ring_drops; /* per port: frames lost in the kernel before the switch read
					* them, its receive ring full (afpacket.h) */
	FILE *occupancy_rows;      /* the rows of occupancy.csv the loop streamed (dploop.h), without
				    * the header; NULL: none */
};

/* The header line of occupancy.csv. */
extern const char sb_dp_occupancy_header[];

/* Write summary.json, queues.csv and occupancy.csv into dir, a directory the caller has
 * claimed (core/outdir.h): each through a new temporary file in dir (never through a link
 * planted under its name), all three renamed into place only once all three are written and
 * closed without error. -1 + err naming the output that could not be written (and errno's
 * text); then none of the three was replaced and no temporary is left. */
int sb_dp_report_write(const struct sb_dp_switch *sw, const struct sb_dp_report_info *info, const char *dir,
		       struct sb_error *err);
void sb_dp_write_queues(FILE *f, const struct sb_dp_switch *sw);

#endif
