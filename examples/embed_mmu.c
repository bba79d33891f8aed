/*
 * embed_mmu.c — using the sharebuf MMU library without the simulator (docs/mmu.md, "Embedding").
 *
 * A 4-port buffer of 100 000 bytes runs Dynamic Thresholds with alpha = 1. Ports 1 and 2 send
 * 1500-byte packets to port 0 until DT refuses one; then the queue drains one packet, which
 * makes room again. The embedder owns the packets and the queues; the MMU only counts.
 *
 *   make install PREFIX=$HOME/sbmmu
 *   export PKG_CONFIG_PATH=$HOME/sbmmu/lib/pkgconfig
 *   cc -std=c17 -Wall -Wextra -Werror -pedantic examples/embed_mmu.c \
 *       $(pkg-config --cflags --libs sbmmu) -o embed_mmu && ./embed_mmu
 */
#include <stdio.h>
#include "mmu/mmu.h"

static sb_time clock_ps; /* the embedder's clock; a data plane would read its own */

static sb_time now_ps(void *ctx)
{
	(void)ctx;
	return clock_ps;
}

int main(void)
{
	struct sb_error err;
	const uint64_t rates[4] = { 10000000000ULL, 10000000000ULL, 10000000000ULL, 10000000000ULL };
	struct sb_mmu_config cfg = {
		.nports = 4,
		.port_lo = 0, .port_hi = 0, /* 0, 0: this MMU serves all 4 ports */
		.seed = 1,                  /* seeds m->rng for schemes that draw numbers; DT does not */
		.buffer_bytes = 100000,
		.cell_bytes = 0,          /* account exact bytes */
		.port_rate_bps = rates,
		.lossless_prio_mask = 0,  /* no PFC classes */
	};
	/* DT needs no timer, PFC or expulsion: only now() is provided, the rest stays NULL. */
	struct sb_mmu_env env = { .ctx = NULL, .now = now_ps };

	struct sb_mmu *m = sb_mmu_new(sb_bm_find("dt"), &cfg, &env);
	if (sb_mmu_set_param(m, "alpha", "1", &err) || sb_mmu_start(m, &err)) {
		fprintf(stderr, "mmu: %s\n", err.msg);
		sb_mmu_free(m);
		return 1;
	}

	/* The descriptor of every packet heading from port 1 or 2 to port 0, priority 1. */
	struct sb_mmu_pkt pkt = { .in_port = 1, .out_port = 0, .prio = 1, .bytes = 1500 };
	unsigned queued = 0;
	enum sb_drop_cause why;
	for (;;) {
		pkt.in_port = (uint16_t)(1 + queued % 2);
		why = sb_mmu_admit(m, &pkt);
		if (why != SB_ADMIT)
			break;
		queued++;
		clock_ps += 1200000; /* 1500 B at 10 Gb/s */
	}
	printf("admitted %u packets, then refused one: %s\n", queued, sb_drop_cause_name[why]);
	printf("used %llu of %llu bytes, egress queue (0,1) holds %llu\n", (unsigned long long)m->used,
	       (unsigned long long)m->buffer, (unsigned long long)m->q_egr[sb_mmu_qi(0, 1)]);

	/* The head packet (it came from port 1) starts transmission: release it with the same
	 * ports, priority and size it was admitted with. */
	pkt.in_port = 1;
	sb_mmu_release(m, &pkt, SB_RELEASE_TX);
	queued--;
	pkt.in_port = 2;
	why = sb_mmu_admit(m, &pkt);
	printf("after one departure the next arrival is %s\n", sb_drop_cause_name[why]);
	if (why == SB_ADMIT)
		queued++;

	if (sb_mmu_check(m, &err)) {
		fprintf(stderr, "invariant: %s\n", err.msg);
		sb_mmu_free(m);
		return 1;
	}
	printf("counters consistent: %llu admitted = %llu released + %u queued\n",
	       (unsigned long long)m->admitted, (unsigned long long)m->released, queued);
	sb_mmu_free(m);
	return 0;
}
