/*
 * test_reclog.c — the record log (core/reclog.h): records come back in the order they were
 * added, whole, whether they stayed in the buffer or went to the file; each can be read more
 * than once and the log grow in between; get() finds any one record.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include "core/reclog.h"

struct rec {
	uint64_t i;
	uint32_t twice;
	uint16_t low;
	uint8_t tag, pad;
};

struct check {
	uint64_t next;
};

static void expect_in_order(void *ctx, const void *record)
{
	struct check *c = ctx;
	struct rec r;
	memcpy(&r, record, sizeof(r));
	assert_int_equal(r.i, c->next);
	assert_int_equal(r.twice, (uint32_t)(2 * c->next));
	assert_int_equal(r.low, (uint16_t)c->next);
	assert_int_equal(r.tag, (uint8_t)(c->next * 7));
	c->next++;
}

static void add_range(struct sb_reclog *l, uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to; i++) {
		struct rec r = { i, (uint32_t)(2 * i), (uint16_t)i, (uint8_t)(i * 7), 0 };
		sb_reclog_add(l, &r);
	}
}

static void test_order_across_buffer_and_file(void **state)
{
	(void)state;
	const uint64_t sizes[] = { 0, 1, SB_RECLOG_BUFFER_BYTES / sizeof(struct rec),
				   SB_RECLOG_BUFFER_BYTES / sizeof(struct rec) + 1, 100000 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct sb_reclog *l = sb_reclog_new(sizeof(struct rec));
		add_range(l, 0, sizes[k]);
		assert_int_equal(l->n, sizes[k]);
		struct check c = { 0 };
		sb_reclog_each(l, expect_in_order, &c);
		assert_int_equal(c.next, sizes[k]);
		/* read again after growing: the file's position was put back for appending */
		add_range(l, sizes[k], sizes[k] + 5000);
		c.next = 0;
		sb_reclog_each(l, expect_in_order, &c);
		assert_int_equal(c.next, sizes[k] + 5000);
		const uint64_t probes[] = { 0, sizes[k] / 2, sizes[k] + 4999 };
		for (size_t p = 0; p < 3; p++) {
			struct rec r;
			sb_reclog_get(l, probes[p], &r);
			assert_int_equal(r.i, probes[p]);
		}
		sb_reclog_free(l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_across_buffer_and_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
