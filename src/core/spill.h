/*
 * spill.h — exact order statistics of a stream of any length in constant memory.
 *
 * A run's summary wants nearest-rank percentiles (the p99 of the buffer occupancy samples, the
 * p50/p95/p99 FCT slowdown of the finished flows) over every value the run produced. Keeping
 * the values in memory makes a run's memory grow with its simulated time (one sample every few
 * microseconds, hundreds of thousands of flows a second). Here the values go to an unlinked
 * temporary file instead, 16 bytes each, through a small buffer; a percentile is then found by
 * radix selection: four passes over the file, each counting the weight of the values that
 * share the prefix found so far by their next 16 bits. The answer is exact (the same value a
 * sort would give), whatever the number of values, with 512 KB of counters.
 *
 * Values are doubles (any finite value; -0.0 and 0.0 are one value) with a positive integer
 * weight: the k-th smallest by weight is the smallest value whose cumulative weight, values in
 * ascending order, reaches k. Unweighted statistics use weight 1.
 *
 * The first SB_SPILL_BUFFER values stay in memory: short runs (and tests) touch no file.
 */
#ifndef SB_SPILL_H
#define SB_SPILL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SB_SPILL_BUFFER 4096 /* values held in memory before the first write to the file */

struct sb_spill_entry {
	uint64_t key;    /* the value as an order-preserving unsigned key */
	uint64_t weight;
};

struct sb_spill {
	struct sb_spill_entry buf[SB_SPILL_BUFFER];
	size_t nbuf;
	FILE *file;           /* the values written so far (NULL until the buffer first fills) */
	uint64_t n;           /* values added */
	uint64_t weight;      /* their total weight */
};

/* A heap-allocated, empty stream (the buffer is 64 KB: not for the stack). */
struct sb_spill *sb_spill_new(void);
/* Add `value` with `weight` (>= 1). Exits with a message if the temporary file cannot be
 * created or written (a full disk): a run must not report statistics over part of its values. */
void sb_spill_add(struct sb_spill *s, double value, uint64_t weight);
/* The smallest value whose cumulative weight reaches `rank` (1 <= rank <= s->weight; clamped
 * into that range). 0 when the stream is empty. */
double sb_spill_select(struct sb_spill *s, uint64_t rank);
/* The same over the stream and `nextra` more values of weight 1 that are not added to it
 * (values known only at the end, such as the pause episodes still open when a run stops). */
double sb_spill_select_with(struct sb_spill *s, const double *extra, size_t nextra, uint64_t rank);
/* Nearest-rank percentile p (0 < p <= 100) by weight: rank ceil(p/100 · weight), at least 1. */
double sb_spill_percentile(struct sb_spill *s, double p);
void sb_spill_free(struct sb_spill *s);

#endif
