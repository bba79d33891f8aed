/*
 * test_spill.c — exact order statistics in constant memory (core/spill.h): every rank of
 * streams below and well beyond the in-memory buffer (so that most values are read back from
 * the file) against a sort, with negative values, ties, -0.0 and weights; nearest-rank
 * percentiles equal to sb_percentile_sorted's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/spill.h"
#include "sim/report.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* n values: from a few distinct ones (many ties) to spread reals of both signs. */
static double draw(struct sb_rng *rng, int kind)
{
	double u = sb_rng_uniform(rng);
	switch (kind) {
	case 0: return floor(u * 7);                       /* 0..6, many ties */
	case 1: return (u - 0.3) * 1e6;                    /* both signs */
	default: return u < 0.5 ? -0.0 : ldexp(u, (int)(u * 200) - 100); /* -0.0 and tiny/huge */
	}
}

/* Unweighted: every p of the summary and the k-th smallest for a spread of k, at sizes up to
 * 6x the in-memory buffer. */
static void test_select_matches_sort(void **state)
{
	(void)state;
	const size_t sizes[] = { 1, 2, 100, SB_SPILL_BUFFER, SB_SPILL_BUFFER + 1, 6 * SB_SPILL_BUFFER + 17 };
	for (int kind = 0; kind < 3; kind++)
		for (size_t z = 0; z < sizeof(sizes) / sizeof(*sizes); z++) {
			size_t n = sizes[z];
			struct sb_rng rng;
			sb_rng_init(&rng, 1000 * (uint64_t)kind + z, 1);
			struct sb_spill *s = sb_spill_new();
			double *v = malloc(n * sizeof(*v));
			for (size_t i = 0; i < n; i++) {
				v[i] = draw(&rng, kind);
				sb_spill_add(s, v[i], 1);
			}
			assert_int_equal(s->n, n);
			assert_true(n <= SB_SPILL_BUFFER ? s->file == NULL : s->file != NULL);
			qsort(v, n, sizeof(*v), cmp_double);
			for (size_t k = 1; k <= n; k += 1 + n / 97) {
				double got = sb_spill_select(s, k);
				if (got != v[k - 1])
					fail_msg("kind %d, n %zu: rank %zu is %.17g, the sort says %.17g", kind, n, k, got, v[k - 1]);
			}
			assert_true(sb_spill_select(s, n) == v[n - 1]);
			assert_true(sb_spill_select(s, n + 5) == v[n - 1]); /* clamped */
			assert_true(sb_spill_select(s, 0) == v[0]);
			const double ps[] = { 50, 95, 99, 99.9, 100 };
			for (size_t i = 0; i < sizeof(ps) / sizeof(*ps); i++)
				assert_true(sb_spill_percentile(s, ps[i]) == sb_percentile_sorted(v, n, ps[i]));
			free(v);
			sb_spill_free(s);
		}
}

/* Weighted: the same as the unweighted stream in which each value is repeated `weight` times. */
static void test_weights_are_repeats(void **state)
{
	(void)state;
	struct sb_rng rng;
	sb_rng_init(&rng, 7, 1);
	struct sb_spill *w = sb_spill_new(), *r = sb_spill_new();
	for (size_t i = 0; i < 3 * SB_SPILL_BUFFER; i++) {
		double x = floor(sb_rng_uniform(&rng) * 1000) / 1000;
		uint64_t weight = 1 + (uint64_t)(sb_rng_uniform(&rng) * 5);
		sb_spill_add(w, x, weight);
		for (uint64_t k = 0; k < weight; k++)
			sb_spill_add(r, x, 1);
	}
	assert_int_equal(w->weight, r->n);
	for (uint64_t k = 1; k <= w->weight; k += 1 + w->weight / 301)
		assert_true(sb_spill_select(w, k) == sb_spill_select(r, k));
	assert_true(sb_spill_percentile(w, 99) == sb_spill_percentile(r, 99));
	sb_spill_free(w);
	sb_spill_free(r);
}

/* Nothing added: 0, as the summary reports an empty group. */
static void test_empty(void **state)
{
	(void)state;
	struct sb_spill *s = sb_spill_new();
	assert_true(sb_spill_percentile(s, 99) == 0);
	sb_spill_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_select_matches_sort),
		cmocka_unit_test(test_weights_are_repeats),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
