/*
 * fuzz_cdf.c — the CDF reader (src/workload/cdf.c), from memory, and sampling what it accepts:
 * a curve it accepts must never make sb_cdf_sample loop, return 0 bytes or leave its support.
 * See fuzz.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/rng.h"
#include "fuzz.h"
#include "workload/cdf.h"

int sb_fuzz_cdf(const uint8_t *data, size_t size, struct sb_error *why)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	struct sb_cdf c;
	struct sb_error err = { "" };
	int rc = sb_cdf_read(&c, f, "fuzz.cdf", &err);
	fclose(f);
	if (rc) {
		SB_FUZZ_CHECK(c.points == NULL && c.name == NULL, "a failed read kept its points");
		SB_FUZZ_CHECK(!strchr(err.msg, '\n') && err.msg[0], "message: %s", err.msg);
		if (why)
			*why = err;
		return 1;
	}
	SB_FUZZ_CHECK(c.n >= 2 && c.points[0].prob == 0 && c.points[c.n - 1].prob == 1, "points of a curve");
	SB_FUZZ_CHECK(c.zero_share >= 0 && c.zero_share < 1, "p0 = %g", c.zero_share);
	double mean = sb_cdf_flow_mean(&c);
	/* within rounding: 1 - p0 and the mean are both differences of probabilities (an input with
	 * 99.2 % at 0 bytes and the rest up to 1 byte gave a mean one ulp above 1) */
	SB_FUZZ_CHECK(isfinite(mean) && mean >= 0.5 * (1 - 1e-9) && mean <= sb_cdf_max(&c) * (1 + 1e-9),
		      "flow mean %.17g of [0, %g]", mean, sb_cdf_max(&c));
	struct sb_rng r;
	sb_rng_init(&r, size, SB_STREAM_TEST);
	double lo = sb_cdf_min(&c) < 1 ? 1 : sb_cdf_min(&c), hi = sb_cdf_max(&c);
	for (int k = 0; k < 64; k++) {
		uint64_t s = sb_cdf_sample(&c, &r);
		SB_FUZZ_CHECK(s >= 1 && (double)s >= floor(lo) && (double)s <= hi, "sample %llu outside [%g, %g]",
			      (unsigned long long)s, lo, hi);
	}
	for (int k = 0; k <= 16; k++) {
		double q = sb_cdf_quantile(&c, k / 16.0 * 0.999999);
		SB_FUZZ_CHECK(q >= 0 && q <= hi, "quantile %g", q);
	}
	sb_cdf_free(&c);
	return 0;
}

#ifdef SB_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sb_fuzz_cdf(data, size, NULL);
	return 0;
}
#endif
