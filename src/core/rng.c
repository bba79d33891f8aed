#include "core/rng.h"

#include <math.h>
#include "core/util.h"

void sb_rng_init(struct sb_rng *r, uint64_t seed, uint64_t stream)
{
	/* Two rounds of mixing decorrelate neighbouring (seed, stream) pairs. */
	uint64_t x = sb_mix64(sb_mix64(seed) ^ (stream * 0xd1b54a32d192ed03ULL));
	for (int i = 0; i < 4; i++) {
		x = sb_mix64(x + (uint64_t)i);
		r->s[i] = x;
	}
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1; /* the all-zero state is a fixed point */
}

uint64_t sb_rng_below(struct sb_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)sb_rng_u64(r) * n;
	uint64_t low = (uint64_t)m;
	if (low < n) {
		uint64_t threshold = -n % n;
		while (low < threshold) {
			m = (unsigned __int128)sb_rng_u64(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double sb_rng_exponential(struct sb_rng *r, double mean)
{
	/* 1 - u lies in (0, 1], so the log is finite. */
	return -mean * log(1.0 - sb_rng_uniform(r));
}
