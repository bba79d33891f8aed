/*
 * hugepages.c — one heap advised MADV_HUGEPAGE (hugepages.h).
 */
#include "core/hugepages.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* glibc's ceiling for M_MMAP_THRESHOLD on 64-bit targets (DEFAULT_MMAP_THRESHOLD_MAX) */
#define MMAP_THRESHOLD_MAX (32u << 20)

bool sb_heap_use_huge_pages(void)
{
	/* each call may fail on another allocator; the heap below is checked for either way */
	mallopt(M_TOP_PAD, (int)SB_HEAP_RESERVE);
	mallopt(M_TRIM_THRESHOLD, (int)SB_HEAP_RESERVE);
	mallopt(M_MMAP_THRESHOLD, (int)MMAP_THRESHOLD_MAX);
	/* a block below the mmap threshold makes the heap grow now, by the reservation; the
	 * small one finds where the heap's used part is (earlier allocations, e.g. the C
	 * library's own, are advised with the rest) */
	void *grow = malloc(MMAP_THRESHOLD_MAX / 2), *probe = malloc(64);
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t low = (uintptr_t)probe < (uintptr_t)grow ? (uintptr_t)probe : (uintptr_t)grow;
	uintptr_t start = low & ~(page - 1);
	uintptr_t end = (uintptr_t)sbrk(0);
	free(probe);
	free(grow); /* stays in the heap: it is never trimmed */
	if (!grow || !probe)
		return false;
	/* the block must lie in the brk heap just grown: not so under AddressSanitizer or
	 * valgrind, whose allocators map their own memory elsewhere */
	if (end <= start || end - start > 2 * (uintptr_t)SB_HEAP_RESERVE)
		return false;
	return madvise((void *)start, end - start, MADV_HUGEPAGE) == 0;
}
