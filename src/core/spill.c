/*
 * spill.c — exact order statistics in constant memory (core/spill.h).
 */
#include "core/spill.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

static _Noreturn void fail(const char *what)
{
	fprintf(stderr, "sharebuf: cannot %s the temporary file of a run's statistics (TMPDIR or /tmp): %s\n", what,
		strerror(errno));
	exit(1);
}

struct sb_spill *sb_spill_new(void)
{
	return sb_xcalloc(1, sizeof(struct sb_spill));
}

/* An unlinked file in $TMPDIR (or /tmp): it disappears with the process, however it ends. */
static FILE *open_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/sharebuf-spill.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		fail("create");
	unlink(path);
	FILE *f = fdopen(fd, "w+b");
	if (!f)
		fail("open");
	return f;
}

void sb_spill_add(struct sb_spill *s, double value, uint64_t weight)
{
	if (s->nbuf == SB_SPILL_BUFFER) {
		if (!s->file)
			s->file = open_file();
		if (fwrite(s->buf, sizeof(s->buf[0]), s->nbuf, s->file) != s->nbuf)
			fail("write");
		s->nbuf = 0;
	}
	s->buf[s->nbuf++] = (struct sb_spill_entry){ key_of(value), weight };
	s->n++;
	s->weight += weight;
}

/* Add the weight of every entry whose key has `prefix` in the bits above `shift + RADIX_BITS`
 * to counts[its next RADIX_BITS bits]. */
static void count_pass(struct sb_spill *s, uint64_t prefix, int shift, uint64_t *counts, struct sb_spill_entry *chunk)
{
	uint64_t high = shift + RADIX_BITS >= 64 ? 0 : ~0ull << (shift + RADIX_BITS);
	if (s->file) {
		if (fflush(s->file) || fseek(s->file, 0, SEEK_SET))
			fail("read");
		size_t got;
		while ((got = fread(chunk, sizeof(*chunk), CHUNK, s->file)) > 0)
			for (size_t i = 0; i < got; i++)
				if ((chunk[i].key & high) == prefix)
					counts[(chunk[i].key >> shift) & (RADIX - 1)] += chunk[i].weight;
		if (ferror(s->file))
			fail("read");
		if (fseek(s->file, 0, SEEK_END))
			fail("read");
	}
	for (size_t i = 0; i < s->nbuf; i++)
		if ((s->buf[i].key & high) == prefix)
			counts[(s->buf[i].key >> shift) & (RADIX - 1)] += s->buf[i].weight;
}

double sb_spill_select(struct sb_spill *s, uint64_t rank)
{
	if (!s->n)
		return 0;
	if (rank < 1)
		rank = 1;
	if (rank > s->weight)
		rank = s->weight;
	uint64_t *counts = sb_xmalloc(RADIX * sizeof(*counts)), prefix = 0, below = 0;
	struct sb_spill_entry *chunk = s->file ? sb_xmalloc(CHUNK * sizeof(*chunk)) : NULL;
	/* Each pass fixes the next 16 bits of the answer: the bucket in which the cumulative
	 * weight (of everything below it, plus the bucket) first reaches the rank. */
	for (int shift = 64 - RADIX_BITS; shift >= 0; shift -= RADIX_BITS) {
		memset(counts, 0, RADIX * sizeof(*counts));
		count_pass(s, prefix, shift, counts, chunk);
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
