/*
 * cdf.h — empirical flow-size distributions (web search, data mining, Hadoop, cache, ...).
 *
 * File format (docs/workloads.md has the full description):
 *
 *     # comment lines start with '#'; text after '#' on a data line is ignored too
 *     size_bytes  cumulative_probability
 *
 * one point per line, the two numbers separated by blanks (or one comma). Sizes are whole,
 * non-negative byte counts; probabilities are fractions in [0, 1] (not percentiles: the HPCC
 * traffic_gen files use 0..100 and must be divided by 100). Both columns are non-decreasing,
 * the last probability is exactly 1, and there are at least two points. Equal probabilities on
 * consecutive points make a size range that is never drawn; equal sizes make a point mass.
 *
 * Distribution: P(size <= s_k) = p_k, linear between consecutive points. If the first point
 * has p > 0, the curve starts at (0 bytes, 0), so the first segment spreads p_0 uniformly over
 * [0, s_0] — the convention of the ns3-datacenter `cdf.c` that the websearch/datamining/hadoop
 * files come from. That is what a stored point list always starts with here: sb_cdf prepends
 * (0, 0) when needed, so points[0].prob == 0.
 *
 * Sampling (sb_cdf_sample) is inverse transform: u uniform in [0, 1), find the segment with
 * p_{k-1} <= u < p_k, interpolate linearly, round to the nearest byte. A zero-byte flow is not
 * a flow (ns3-datacenter draws again), so the draws that would round to 0 bytes, a share
 * p0 = P(size < 0.5), are left out: u is taken uniform in [p0, 1) instead, which gives exactly
 * the distribution conditioned on at least 1 byte in one draw. Its mean, the one flow rates
 * derive from, is sb_cdf_flow_mean = sb_cdf_mean / (1 - p0): rounding to whole bytes keeps
 * every segment's mean. p0 is 0 for every built-in but websearch_hpcc, fbhdp and alistorage
 * (at most 0.005 %). A curve with p0 = 1 (every size below 1 byte) is refused.
 */
#ifndef SB_CDF_H
#define SB_CDF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/rng.h"
#include "core/util.h"

struct sb_cdf_point {
	double size; /* bytes, a whole number in [0, 2^53] */
	double prob; /* cumulative probability P(flow size <= size), in [0, 1] */
};

struct sb_cdf {
	char *name;                  /* built-in name or the path it was read from */
	struct sb_cdf_point *points; /* points[0].prob == 0, points[n-1].prob == 1 */
	size_t n;
	double mean;                 /* bytes, = sb_cdf_mean() */
	double zero_share;           /* p0 = P(size < 0.5 byte), the draws left out; < 1 */
	double sized_share;          /* 1 - p0, summed from the curve's own differences: computed as
				      * 1 - p0 it cancels to a few digits when p0 is within 1e-14 of 1 */
};

/* A distribution compiled into the binary (src/workload/cdf_builtin.c = data/cdf/NAME.cdf). */
struct sb_cdf_builtin {
	const char *name;
	const char *source;          /* one line: paper / artifact / file it comes from */
	const struct sb_cdf_point *points;
	size_t n;
};

extern const struct sb_cdf_builtin sb_cdf_builtins[];
extern const size_t sb_cdf_nbuiltins;

const struct sb_cdf_builtin *sb_cdf_builtin_find(const char *name);

/*
 * Load a built-in distribution by name ("websearch", "datamining", "hadoop", "cache", ...) or,
 * if no built-in has that name, read the file at that path. A built-in name wins over a file in
 * the working directory with the same name; write "./websearch" for the file.
 * On error fills err ("FILE:LINE: what was expected") and returns -1 with *c left empty.
 */
int sb_cdf_load(struct sb_cdf *c, const char *name_or_path, struct sb_error *err);

/* The same from an open stream, named `name` in messages (fuzzing harnesses: fmemopen). */
int sb_cdf_read(struct sb_cdf *c, FILE *f, const char *name, struct sb_error *err);

/* Build a distribution from n points with the same checks as the file reader; messages
 * read "NAME: point K: ..." with K counted from 1. */
int sb_cdf_from_points(struct sb_cdf *c, const char *name, const struct sb_cdf_point *pts,
		       size_t n, struct sb_error *err);

/* Inverse CDF of the piecewise-linear distribution, u in [0, 1), unrounded (may be 0). */
double sb_cdf_quantile(const struct sb_cdf *c, double u);

/* A flow size in bytes, >= 1; see the top of this file for the exact rule. */
uint64_t sb_cdf_sample(const struct sb_cdf *c, struct sb_rng *r);

/* Mean of the sizes sb_cdf_sample draws: sb_cdf_mean / (1 - p0). Flow rates use it. */
double sb_cdf_flow_mean(const struct sb_cdf *c);

/* Exact mean of the piecewise-linear distribution: Σ (p_k − p_{k−1}) · (s_{k−1} + s_k) / 2. */
double sb_cdf_mean(const struct sb_cdf *c);

/* Bounds of the support: the largest size with probability 0, and the last size. Samples lie
 * in [max(1, min), max]. */
double sb_cdf_min(const struct sb_cdf *c);
double sb_cdf_max(const struct sb_cdf *c);

void sb_cdf_free(struct sb_cdf *c);

#endif
