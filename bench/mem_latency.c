/*
 * mem_latency.c — build/mem-latency: how long this machine takes to load one cache line from a
 * working set of a given size, when every load depends on the one before (a pointer chase in a
 * random single cycle, so neither the prefetchers nor out-of-order execution can hide it).
 *
 *   mem-latency MB...      prints "MB ns_per_load" per size, e.g. mem-latency 1 4 16 64
 *
 * Why the benchmarks need it: the simulator's cost per packet-hop grows with the topology only
 * because its hot state outgrows the caches (BENCHMARKS.md, "Scaling with the topology"), so the
 * same binary's "× 256 hosts" ratio is a property of the machine's memory as much as of the
 * code: on two machines of the same CPU model, its 16,384-host cost per hop differed by 3.9×
 * and its 256-host cost by 1.6×. bench/run-scaling.sh records this curve beside its rows.
 *
 * The set is advised into 2 MB pages (MADV_HUGEPAGE), as the simulator's heap is
 * (src/core/hugepages.h), so that the curve measures the caches and memory, not the TLB.
 * Exit 0 on success, 2 on bad arguments, 1 when the memory cannot be had.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define LOADS 20000000UL

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* xorshift64*: any fixed sequence does; the point is an order no prefetcher can guess. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

static int measure(size_t megabytes, double *ns_per_load)
{
	size_t bytes = megabytes << 20, lines = bytes / LINE;
	uint64_t *set = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t *order = malloc(lines * sizeof(*order));
	if (set == MAP_FAILED || !order) {
		free(order);
		if (set != MAP_FAILED)
			munmap(set, bytes);
		return -1;
	}
	madvise(set, bytes, MADV_HUGEPAGE);
	/* Sattolo's shuffle: a random permutation that is one cycle through every line */
	for (size_t i = 0; i < lines; i++)
		order[i] = (uint32_t)i;
	uint64_t state = 0x9E3779B97F4A7C15ULL;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = next_random(&state) % i;
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	/* line order[i] holds the index of line order[i + 1]: the chase visits every line */
	for (size_t i = 0; i < lines; i++)
		set[(size_t)order[i] * (LINE / sizeof(uint64_t))] = (uint64_t)order[(i + 1) % lines] * (LINE / sizeof(uint64_t));
	free(order);
	uint64_t at = 0;
	for (size_t i = 0; i < lines; i++) /* one lap to warm the caches and the page tables */
		at = set[at];
	double start = now_ns();
	for (unsigned long i = 0; i < LOADS; i++)
		at = set[at];
	double elapsed = now_ns() - start;
	/* the chase's end is printed nowhere but must look used, or the loop would be dropped */
	__asm__ volatile("" : : "r"(at));
	munmap(set, bytes);
	*ns_per_load = elapsed / LOADS;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: mem-latency MB... (sizes of the working set in MB, 1 to 65536)\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		char *end;
		unsigned long mb = strtoul(argv[i], &end, 10);
		if (*end || end == argv[i] || mb < 1 || mb > 65536) {
			fprintf(stderr, "mem-latency: argument %d: expected a size in MB from 1 to 65536, got '%s'\n", i,
				argv[i]);
			return 2;
		}
		double ns;
		if (measure(mb, &ns) < 0) {
			fprintf(stderr, "mem-latency: cannot map %lu MB\n", mb);
			return 1;
		}
		printf("%lu %.1f\n", mb, ns);
		fflush(stdout);
	}
	return 0;
}
