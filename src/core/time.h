/*
 * time.h — simulated time.
 *
 * Simulated time is an unsigned 64-bit count of picoseconds. 2^64 ps is about 213 days of
 * simulated time, far beyond any run, and picoseconds make serialisation exact for every
 * common line rate (1 byte at 100 Gb/s = 80 ps, at 25 Gb/s = 320 ps, at 400 Gb/s = 20 ps).
 * Integer time keeps runs bit-for-bit reproducible: no rounding depends on evaluation order.
 */
#ifndef SB_TIME_H
#define SB_TIME_H

#include <stdint.h>

typedef uint64_t sb_time;

#define SB_PS  ((sb_time)1)
#define SB_NS  ((sb_time)1000)
#define SB_US  ((sb_time)1000000)
#define SB_MS  ((sb_time)1000000000)
#define SB_SEC ((sb_time)1000000000000)
#define SB_TIME_NEVER UINT64_MAX

/* Conversions for configuration values and reports (never used in the hot path). */
static inline sb_time sb_time_from_us(double us) { return (sb_time)(us * 1e6 + 0.5); }
static inline sb_time sb_time_from_ms(double ms) { return (sb_time)(ms * 1e9 + 0.5); }
static inline sb_time sb_time_from_sec(double s) { return (sb_time)(s * 1e12 + 0.5); }
/* A span computed in floating point (picoseconds), saturated at 2^62 ps (53 days, beyond any
 * run): a derived timer such as EDT's B/C for a terabyte buffer on a 1 Mb/s port would
 * otherwise exceed sb_time, and converting it would be undefined. */
static inline sb_time sb_time_span_ps(double ps)
{
	if (!(ps > 0))
		return 0;
	return ps >= 4611686018427387904.0 ? (sb_time)1 << 62 : (sb_time)(ps + 0.5);
}
static inline double sb_time_to_sec(sb_time t) { return (double)t * 1e-12; }
static inline double sb_time_to_us(sb_time t) { return (double)t * 1e-6; }
static inline double sb_time_to_ns(sb_time t) { return (double)t * 1e-3; }

/*
 * Serialisation delay of `bytes` on a link of `rate_bps` bits/s, rounded up to a whole
 * picosecond. bytes * 8e12 overflows 64 bits above ~2.3 MB: a packet's size (the per-packet
 * case, e.g. pacing at an arbitrary rate) takes one 64-bit division, larger sizes 128 bits.
 */
static inline sb_time sb_tx_time(uint64_t bytes, uint64_t rate_bps)
{
	if (bytes <= 1000000 && rate_bps <= UINT64_MAX / 2)
		return (bytes * 8u * SB_SEC + rate_bps - 1) / rate_bps;
	/* __extension__: this header is public (the installed MMU library, docs/mmu.md §7), and
	 * an embedder compiling with -pedantic must not be told that ISO C lacks __int128 */
	__extension__ typedef unsigned __int128 u128;
	u128 num = (u128)bytes * 8u * (u128)SB_SEC;
	return (sb_time)((num + rate_bps - 1) / rate_bps);
}

#endif
