/*
 * dploop.c — the software switch's main loop (dploop.h).
 */
#include "dataplane/dploop.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#define RX_BATCH 256

void sb_dp_clock_start(struct sb_dp_clock *c)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c->t0_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

sb_time sb_dp_clock_now(void *clock)
{
	const struct sb_dp_clock *c = clock;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return (ns - c->t0_ns) * 1000u;
}

static bool sink_room(void *ctx, uint16_t port)
{
	return sb_afp_tx_room(&((struct sb_afp *)ctx)[port]);
}

static void sink_send(void *ctx, uint16_t port, const uint8_t *frame, uint32_t len)
{
	sb_afp_tx(&((struct sb_afp *)ctx)[port], frame, len);
}

/* One row of occupancy.csv (docs/outputs.md §4): the sample's time, the bytes queued (all lossy:
 * the switch refuses lossless schemes), the read bandwidth used since the last sample and the
 * drops since then. */
struct sampler {
	sb_time start;      /* the loop's start: samples are timed from it */
	sb_time next, last;
	uint64_t last_tx, last_drops;
};

static void take_sample(struct sb_dp_switch *sw, struct sampler *s, const struct sb_dp_loop_opts *o, sb_time now)
{
	struct sb_error err = { "" };
	if (sw->check && sb_dp_switch_check(sw, &err)) { /* MMU = queues, conservation */
		fprintf(stderr, "sharebuf-switch: internal error at a sample: %s\n", err.msg);
		abort();
	}
	uint64_t tx = 0;
	for (uint16_t i = 0; i < sw->nports; i++)
		tx += sw->port[i].tx_bytes;
	uint64_t drops = sb_dp_switch_dropped(sw);
	double cap = (double)sw->rate_bps * (double)sw->nports * (double)(now - s->last) / (double)SB_SEC;
	uint64_t unit = sw->mmu->cell_bytes ? sw->mmu->cell_bytes : 1;
	fprintf(o->occupancy, "%.3f,%s,%llu,0,%.6f,%llu\n", (double)(now - s->start) / 1000.0, o->switch_name,
		(unsigned long long)(sw->mmu->used * unit), cap > 0 ? 8.0 * (double)(tx - s->last_tx) / cap : 0.0,
		(unsigned long long)(drops - s->last_drops));
	s->last = now;
	s->last_tx = tx;
	s->last_drops = drops;
	s->next += o->sample_interval;
	if (s->next <= now) /* the loop was late by more than an interval: no burst of rows */
		s->next = now + o->sample_interval;
}

static inline sb_time min_t(sb_time a, sb_time b) { return a < b ? a : b; }

sb_time sb_dp_loop_run(struct sb_dp_switch *sw, struct sb_afp *ports, const struct sb_dp_loop_opts *o)
{
	/* ppoll's timeouts are honoured to the ns instead of the default 50 µs of slack */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	struct pollfd *pfd = calloc(sw->nports, sizeof(*pfd));
	if (!pfd)
		abort();
	for (uint16_t i = 0; i < sw->nports; i++)
		pfd[i] = (struct pollfd){ .fd = ports[i].fd, .events = POLLIN };
	struct sb_dp_sink sink = { ports, sink_room, sink_send };
	sb_time start = sb_dp_switch_now(sw), now = start;
	struct sampler smp = { .start = start, .next = o->sample_interval ? start + o->sample_interval : UINT64_MAX,
			       .last = start };
	sb_time end = o->duration ? start + o->duration : UINT64_MAX;
	while (!*o->stop && now < end) {
		sb_time wake = min_t(min_t(sb_dp_switch_next_tx(sw), sb_dp_timers_next(&sw->timers)), min_t(smp.next, end));
		struct timespec ts = { 0, 0 };
		if (!o->busy_poll && wake > now) {
			sb_time wait = wake - now;
			if (wait > 100 * SB_MS) /* look at the stop flag now and then */
				wait = 100 * SB_MS;
			ts.tv_sec = (time_t)(wait / SB_SEC);
			ts.tv_nsec = (long)(wait % SB_SEC / 1000u);
		}
		bool any_rx = false;
		for (uint16_t i = 0; i < sw->nports; i++) {
			uint32_t len;
			const uint8_t *f = sb_afp_rx(&ports[i], &len);
			if (f) {
				any_rx = true;
				break;
			}
		}
		if (!any_rx && (ts.tv_sec || ts.tv_nsec))
			ppoll(pfd, sw->nports, &ts, NULL);
		/* One frame per port in turn, not one port's ring after the other: frames that
		 * reached different ports at about the same time are admitted interleaved, as a
		 * hardware switch admits them in arrival order, and a port whose ring holds a burst
		 * cannot take the buffer's room before the others' frames are even looked at. */
		for (unsigned n = 0; n < RX_BATCH; n++) {
			bool got = false;
			for (uint16_t i = 0; i < sw->nports; i++) {
				uint32_t len;
				const uint8_t *f = sb_afp_rx(&ports[i], &len);
				if (!f)
					continue;
				got = true;
				/* An MMU timer due (Occamy's grant) runs before the next admission, as in
				 * the simulator and in hardware, not after a whole batch was admitted or
				 * refused: the clock is read only while a timer is pending. */
				if (sb_dp_timers_next(&sw->timers) != UINT64_MAX)
					sb_dp_switch_run_timers(sw, sb_dp_switch_now(sw));
				sb_dp_switch_receive(sw, i, f, len);
				sb_afp_rx_done(&ports[i]);
			}
			if (!got)
				break;
		}
		now = sb_dp_switch_now(sw);
		sb_dp_switch_run_timers(sw, now);
		for (uint16_t i = 0; i < sw->nports; i++) {
			sb_dp_switch_transmit(sw, i, now, &sink);
			sb_afp_flush(&ports[i]); /* also frames a busy kernel left requested last time */
		}
		if (now >= smp.next && o->occupancy)
			take_sample(sw, &smp, o, now);
		now = sb_dp_switch_now(sw);
	}
	free(pfd);
	return now - start;
}
