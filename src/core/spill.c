/*
 * spill.c — exact order statistics in constant memory (core/spill.h).
 */
#include "core/spill.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/reclog.h"
#include "core/util.h"

#define RADIX_BITS 16
#define RADIX (1u << RADIX_BITS)
#define CHUNK 4096 /* entries read back at a time */

/* Doubles compare as these keys compare: a positive value's bits with the sign bit set, a
 * negative value's bits inverted. */
static uint64_t key_of(double v)
{
	if (v == 0)
		v = 0.0; /* -0.0 is 0.0 */
	uint64_t b;
	memcpy(&b, &v, sizeof(b));
	return (b >> 63) ? ~b : b | (1ull << 63);
}

static double value_of(uint64_t k)
{
	uint64_t b = (k >> 63) ? k & ~(1ull << 63) : ~k;
	double v;
	memcpy(&v, &b, sizeof(v));
	return v;
}

struct sb_spill *sb_spill_new(void)
{
	return sb_xcalloc(1, sizeof(struct sb_spill));
}

void sb_spill_add(struct sb_spill *s, double value, uint64_t weight)
{
	if (s->nbuf == SB_SPILL_BUFFER) {
		if (!s->file)
			s->file = sb_tmpfile("a run's statistics");
		if (fwrite(s->buf, sizeof(s->buf[0]), s->nbuf, s->file) != s->nbuf)
			sb_tmpfile_fail("a run's statistics", "write");
		s->nbuf = 0;
	}
	s->buf[s->nbuf++] = (struct sb_spill_entry){ key_of(value), weight };
	s->n++;
	s->weight += weight;
}

/* Add the weight of every entry whose key has `prefix` in the bits above `shift + RADIX_BITS`
 * to counts[its next RADIX_BITS bits]. */
static void count_pass(struct sb_spill *s, const double *extra, size_t nextra, uint64_t prefix, int shift,
		       uint64_t *counts, struct sb_spill_entry *chunk)
{
	uint64_t high = shift + RADIX_BITS >= 64 ? 0 : ~0ull << (shift + RADIX_BITS);
	if (s->file) {
		if (fflush(s->file) || fseek(s->file, 0, SEEK_SET))
			sb_tmpfile_fail("a run's statistics", "read");
		size_t got;
		while ((got = fread(chunk, sizeof(*chunk), CHUNK, s->file)) > 0)
			for (size_t i = 0; i < got; i++)
				if ((chunk[i].key & high) == prefix)
					counts[(chunk[i].key >> shift) & (RADIX - 1)] += chunk[i].weight;
		if (ferror(s->file))
			sb_tmpfile_fail("a run's statistics", "read");
		if (fseek(s->file, 0, SEEK_END))
			sb_tmpfile_fail("a run's statistics", "read");
	}
	for (size_t i = 0; i < s->nbuf; i++)
		if ((s->buf[i].key & high) == prefix)
			counts[(s->buf[i].key >> shift) & (RADIX - 1)] += s->buf[i].weight;
	for (size_t i = 0; i < nextra; i++) {
		uint64_t key = key_of(extra[i]);
		if ((key & high) == prefix)
			counts[(key >> shift) & (RADIX - 1)]++;
	}
}

double sb_spill_select(struct sb_spill *s, uint64_t rank)
{
	return sb_spill_select_with(s, NULL, 0, rank);
}

double sb_spill_select_with(struct sb_spill *s, const double *extra, size_t nextra, uint64_t rank)
{
	uint64_t weight = s->weight + nextra;
	if (!weight)
		return 0;
	if (rank < 1)
		rank = 1;
	if (rank > weight)
		rank = weight;
	uint64_t *counts = sb_xmalloc(RADIX * sizeof(*counts)), prefix = 0, below = 0;
	struct sb_spill_entry *chunk = s->file ? sb_xmalloc(CHUNK * sizeof(*chunk)) : NULL;
	/* Each pass fixes the next 16 bits of the answer: the bucket in which the cumulative
	 * weight (of everything below it, plus the bucket) first reaches the rank. */
	for (int shift = 64 - RADIX_BITS; shift >= 0; shift -= RADIX_BITS) {
		memset(counts, 0, RADIX * sizeof(*counts));
		count_pass(s, extra, nextra, prefix, shift, counts, chunk);
		uint32_t b = 0;
		while (b < RADIX - 1 && below + counts[b] < rank)
			below += counts[b++];
		prefix |= (uint64_t)b << shift;
	}
	free(chunk);
	free(counts);
	return value_of(prefix);
}

double sb_spill_percentile(struct sb_spill *s, double p)
{
	/* the rank as sb_percentile_sorted computes it (sim/report.h), so both agree exactly */
	return sb_spill_select(s, (uint64_t)ceil(p / 100.0 * (double)s->weight));
}

void sb_spill_free(struct sb_spill *s)
{
	if (!s)
		return;
	if (s->file)
		fclose(s->file);
	free(s);
}
