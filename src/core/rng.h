/*
 * rng.h — seedable pseudo-random numbers with independent streams.
 *
 * xoshiro256** (Blackman & Vigna): fast, 256-bit state, passes BigCrush. A stream is derived
 * from (seed, stream id) through splitmix64, so each host, switch or workload owns its stream:
 * adding a flow source somewhere does not reshuffle the draws of every other source, and the
 * same (seed, id) always yields the same sequence.
 */
#ifndef SB_RNG_H
#define SB_RNG_H

#include <stdint.h>

struct sb_rng {
	uint64_t s[4];
};

void sb_rng_init(struct sb_rng *r, uint64_t seed, uint64_t stream);

static inline uint64_t sb_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t sb_rng_u64(struct sb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = sb_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sb_rng_rotl(s[3], 45);
	return result;
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double sb_rng_uniform(struct sb_rng *r)
{
	return (double)(sb_rng_u64(r) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire's method). */
uint64_t sb_rng_below(struct sb_rng *r, uint64_t n);

/* Exponential variate with the given mean (inter-arrival times of a Poisson process). */
double sb_rng_exponential(struct sb_rng *r, double mean);

/* Well-known stream ids; per-object streams add the object's index. */
enum {
	SB_STREAM_HOST = 1u << 20,     /* + host index: transport-level randomness */
	SB_STREAM_SWITCH = 2u << 20,   /* + switch index: ECN marking */
	SB_STREAM_WORKLOAD = 3u << 20, /* + (workload index << 32) + host index */
	SB_STREAM_MMU = 4u << 20,      /* per MMU; the embedder's seed already tells MMUs apart */
	SB_STREAM_NIC = 5u << 20,      /* + host index: the NIC's send-time jitter */
	SB_STREAM_TEST = 15u << 20,
};

#endif
