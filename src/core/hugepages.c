/*
 * hugepages.c — one heap advised MADV_HUGEPAGE (hugepages.h).
 */
#include "core/hugepages.h"

#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* glibc's ceiling for M_MMAP_THRESHOLD on 64-bit targets (DEFAULT_MMAP_THRESHOLD_MAX) and
 * its default top pad (DEFAULT_TOP_PAD) */
#define MMAP_THRESHOLD_MAX (32u << 20)
#define DEFAULT_TOP_PAD (128u << 10)

bool sb_heap_use_huge_pages(void)
{
	/* Under a cap on address space (ulimit -v, some batch systems' memory limit) the
	 * reservation would take 1 GB of what the run may map: leave the heap alone. */
	struct rlimit as;
	if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
		return false;
	mallopt(M_TRIM_THRESHOLD, INT_MAX); /* free never hands the reservation back */
	mallopt(M_MMAP_THRESHOLD, (int)MMAP_THRESHOLD_MAX);
	/* a block below the mmap threshold makes the heap grow now, by the reservation; the
	 * small one finds where the heap's used part is (earlier allocations, e.g. the C
	 * library's own, are advised with the rest) */
	mallopt(M_TOP_PAD, (int)SB_HEAP_RESERVE);
	void *grow = malloc(MMAP_THRESHOLD_MAX / 2), *probe = malloc(64);
	/* only this first growth reserves; later ones (a run beyond 1 GB) take what they need,
	 * and a refused reservation (strict overcommit) leaves malloc as it was */
	mallopt(M_TOP_PAD, (int)DEFAULT_TOP_PAD);
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t low = (uintptr_t)probe < (uintptr_t)grow ? (uintptr_t)probe : (uintptr_t)grow;
	uintptr_t start = low & ~(page - 1);
	uintptr_t end = (uintptr_t)sbrk(0);
	/* the blocks must lie in the brk heap just grown: not so under AddressSanitizer or
	 * valgrind, whose allocators map their own memory elsewhere */
	bool advised = grow && probe && end > start && end - start <= 2 * (uintptr_t)SB_HEAP_RESERVE &&
		       madvise((void *)start, end - start, MADV_HUGEPAGE) == 0;
	free(probe);
	free(grow);
	return advised;
}
