/*
 * util.h — small helpers shared by every module: checked allocation, min/max, error text.
 *
 * Allocation failure is not a user error we can report usefully mid-simulation, so the x*
 * helpers abort with a message; every allocation they guard happens at set-up or on rare
 * growth, never per packet.
 */
#ifndef SB_UTIL_H
#define SB_UTIL_H

#include <stddef.h>
#include <stdint.h>

void *sb_xmalloc(size_t n);
void *sb_xcalloc(size_t n, size_t size);
/* Zeroed array whose start is aligned to `align` (a power of two), for types laid out by cache
 * line; released with free(). */
void *sb_xcalloc_aligned(size_t n, size_t size, size_t align);
void *sb_xrealloc(void *p, size_t n);
char *sb_xstrdup(const char *s);
/* `s` without leading and trailing blanks, in place: cuts the trailing ones off the string and
 * returns a pointer past the leading ones. */
char *sb_trim(char *s);
/* A whole number written as decimal digits only (no sign, blank, exponent or empty string),
 * refusing what overflows 64 bits: 0 with *out set, or -1. The flow-list and the load
 * generator's readers share it, so "+5", " 5" and 2^64 mean the same to both. */
int sb_parse_digits(const char *s, uint64_t *out);

#define SB_MIN(a, b) ((a) < (b) ? (a) : (b))
#define SB_MAX(a, b) ((a) > (b) ? (a) : (b))
#define SB_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * A user-facing error: where (file and line, when known), which key, and what was expected.
 * Functions that can fail on user input fill one of these and return -1; the CLI prints it.
 */
struct sb_error {
	char msg[512];
};

#if defined(__GNUC__)
#define SB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SB_PRINTF(a, b)
#endif

/* Format into err (if non-NULL) and return -1, so callers can `return sb_fail(err, ...)`.
 * Control characters (a line break quoted from the input) become '?': a message is one line. */
int sb_fail(struct sb_error *err, const char *fmt, ...) SB_PRINTF(2, 3);

/* A non-negative double as uint64_t, saturated at UINT64_MAX (and NaN as 0): converting a
 * double beyond 2^64 is undefined behaviour. For set-up code, not per packet. */
static inline uint64_t sb_u64_saturate(double v)
{
	if (!(v > 0))
		return 0;
	return v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
}

/* 64-bit mixing function (splitmix64 finaliser): hashing flow keys, deriving seeds. */
static inline uint64_t sb_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

#endif
