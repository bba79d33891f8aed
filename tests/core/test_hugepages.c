/*
 * test_hugepages.c — the heap on transparent huge pages (core/hugepages.h): after the call,
 * blocks the simulation allocates, small or of several MB, lie in one mapping advised
 * MADV_HUGEPAGE ("hg" among its VmFlags in /proc/self/smaps). Under AddressSanitizer the
 * allocator is not glibc's heap, and the call says so instead of advising anything. A process
 * whose address space is capped reserves nothing: a run that fits the cap still does.
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
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
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

#if !defined(__SANITIZE_ADDRESS__)
/* In a fresh process (this program again, with "capped": the parent's heap is already
 * reserved) under an address-space cap 1.2 GB above what it maps at start: the call must
 * leave the heap alone, so that a 300 MB block still fits (1 GB reserved would leave 0.2). */
static int capped_child(void)
{
	struct rlimit as;
	if (getrlimit(RLIMIT_AS, &as) || as.rlim_cur == RLIM_INFINITY)
		return 3;
	if (sb_heap_use_huge_pages())
		return 4;
	char *b = malloc(300u << 20);
	if (!b)
		return 5;
	memset(b, 1, 1u << 20);
	free(b);
	return 0;
}

static void test_capped_address_space(void **state)
{
	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* what this process maps now, from /proc/self/statm (pages), plus 1.2 GB */
		FILE *f = fopen("/proc/self/statm", "r");
		unsigned long pages = 0;
		if (!f || fscanf(f, "%lu", &pages) != 1)
			_exit(2);
		fclose(f);
		rlim_t cap = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)(1200u << 20);
		struct rlimit as = { cap, cap };
		if (setrlimit(RLIMIT_AS, &as))
			_exit(2);
		execl("/proc/self/exe", "test_hugepages", "capped", (char *)NULL);
		_exit(2);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}
#endif

int main(int argc, char **argv)
{
#if !defined(__SANITIZE_ADDRESS__)
	if (argc > 1 && !strcmp(argv[1], "capped"))
		return capped_child();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap_advised),
		cmocka_unit_test(test_capped_address_space),
	};
#else
	(void)argc;
	(void)argv;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap_advised),
	};
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
