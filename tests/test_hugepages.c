/*
 * test_hugepages.c — the heap on transparent huge pages (core/hugepages.h): after the call,
 * blocks the simulation allocates, small or of several MB, lie in one mapping advised
 * MADV_HUGEPAGE ("hg" among its VmFlags in /proc/self/smaps). Under AddressSanitizer the
 * allocator is not glibc's heap, and the call says so instead of advising anything.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/hugepages.h"

#if !defined(__SANITIZE_ADDRESS__)
/* The VmFlags of the mapping that holds address a, and its name ("[heap]", a file, ""). */
static bool mapping_of(const void *a, char *flags, size_t flags_size, char *name, size_t name_size)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return false;
	char line[256];
	bool inside = false, found = false;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char path[256] = "";
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &lo, &hi, path) >= 2 && strchr(line, '-') < strchr(line, ' ')) {
			inside = (uintptr_t)a >= lo && (uintptr_t)a < hi;
			if (inside)
				snprintf(name, name_size, "%s", path);
			continue;
		}
		if (inside && !strncmp(line, "VmFlags:", 8)) {
			snprintf(flags, flags_size, "%s", line + 8);
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}
#endif

static void test_heap_advised(void **state)
{
	(void)state;
	bool advised = sb_heap_use_huge_pages();
#if defined(__SANITIZE_ADDRESS__)
	assert_false(advised); /* ASan's allocator: nothing of glibc's heap to advise */
#else
	assert_true(advised);
	/* a small block and one of 8 MB (below glibc's mmap threshold, which the call raised to
	 * its maximum: without it the 8 MB block would get a mapping of its own, unadvised) */
	const size_t sizes[] = { 100, 8u << 20 };
	for (size_t i = 0; i < 2; i++) {
		char *b = malloc(sizes[i]);
		assert_non_null(b);
		memset(b, 1, sizes[i]);
		char flags[512] = "", name[512] = "";
		assert_true(mapping_of(b, flags, sizeof flags, name, sizeof name));
		print_message("%zu B block: mapping %s, VmFlags:%s", sizes[i], name[0] ? name : "(anonymous)", flags);
		assert_string_equal(name, "[heap]");
		assert_non_null(strstr(flags, " hg"));
		free(b);
	}
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap_advised),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
