/*
 * hugepages.h — the simulation's memory on transparent huge pages.
 *
 * A large network's state (ports, MMU counters, flows, packets, events: about 100 MB at
 * 16,384 hosts) is read at random, a few cache lines per packet-hop, and with 4 KB pages most
 * of those reads also miss the TLB. Linux backs a region with 2 MB pages when the region is
 * advised MADV_HUGEPAGE (the "madvise" policy, Debian's default), but glibc's malloc advises
 * nothing unless its hugetlb tunable is set when the process starts. So the process asks for
 * one advised heap itself: the heap reserves SB_HEAP_RESERVE of address space at its first
 * growth (address space, not memory: pages nobody touches cost nothing), blocks up to glibc's
 * largest mmap threshold come from it instead of separate mappings, it is never trimmed, and
 * the whole of it is advised. A run larger than the reservation grows the heap as usual, on
 * 4 KB pages. Measured in BENCHMARKS.md ("Huge pages").
 */
#ifndef SB_HUGEPAGES_H
#define SB_HUGEPAGES_H

#include <stdbool.h>

#define SB_HEAP_RESERVE (1024u << 20)

/* Call first in main, before any large allocation. True when the heap was advised; false
 * when the allocator is not glibc's heap (AddressSanitizer, valgrind: nothing to advise), the
 * process's address space is capped (RLIMIT_AS: the reservation would eat into it), the
 * kernel refused the reservation or the advice. Outputs never depend on it. */
bool sb_heap_use_huge_pages(void);

#endif
