/*
 * simlib.c — the helpers of testlib.h that build and run a simulated network (sim/): a run with
 * every invariant checked, flows started by hand, a timer every step.
 */
#include "testlib.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include "sim/report.h"
#include "transport/cbr.h"
#include "transport/transport.h"

static void run_checked(struct sb_sim *sim, const struct sb_scenario *sc, bool keep, const char *stream_dir)
{
	struct sb_error err = { "" };
	if (sb_sim_build(sim, sc, &err))
		fail_msg("build: %s", err.msg);
	sim->flows.keep_finished = keep;
	if (stream_dir && sb_report_stream(sim, stream_dir, &err))
		fail_msg("stream: %s", err.msg);
	sb_sim_run(sim);
	if (sb_sim_check(sim, &err))
		fail_msg("invariants: %s", err.msg);
}

void tl_run_checked(struct sb_sim *sim, const struct sb_scenario *sc)
{
	run_checked(sim, sc, false, NULL);
}

void tl_run_kept(struct sb_sim *sim, const struct sb_scenario *sc)
{
	run_checked(sim, sc, true, NULL);
}

char *tl_run_streamed(struct sb_sim *sim, const struct sb_scenario *sc)
{
	char *dir = tl_tmpdir();
	run_checked(sim, sc, false, dir);
	return dir;
}

struct sb_flow *tl_cbr(struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t rate_bps, uint32_t packet_bytes,
		       sb_time start)
{
	struct sb_flow *f = sb_flow_create(&sim->flows, src, dst, 0, start, sb_transport_find("cbr"));
	sb_cbr_configure(f, rate_bps, packet_bytes);
	return f;
}

struct sb_flow *tl_rdma_flow(struct sb_sim *sim, const char *transport, uint32_t src, uint32_t dst, uint64_t size,
			     sb_time start)
{
	const struct sb_transport_ops *ops = sb_transport_find(transport);
	assert_non_null(ops);
	struct sb_flow *f = sb_flow_create(&sim->flows, src, dst, size, start, ops);
	f->prio = SB_DEFAULT_PRIO_LOSSLESS;
	f->lossless = 1;
	return f;
}

void tl_build(struct sb_sim *sim, const struct sb_scenario *sc)
{
	struct sb_error err = { "" };
	if (sb_sim_build(sim, sc, &err))
		fail_msg("build: %s", err.msg);
	sim->flows.keep_finished = true;
}

void tl_run_and_check(struct sb_sim *sim)
{
	struct sb_error err = { "" };
	sb_sim_run(sim);
	if (sb_sim_check(sim, &err))
		fail_msg("invariants: %s", err.msg);
}

static void every_fire(void *obj, uint64_t arg)
{
	struct tl_every *e = obj;
	(void)arg;
	e->calls++;
	e->fn(e);
	e->next += e->step;
	if (e->next <= e->to)
		sb_at(&e->sim->net.engine, e->next, every_fire, e, 0);
}

void tl_every_start(struct tl_every *e, struct sb_sim *sim, sb_time from, sb_time to, sb_time step,
		    void (*fn)(struct tl_every *e), void *ctx)
{
	*e = (struct tl_every){ .sim = sim, .next = from, .to = to, .step = step, .fn = fn, .ctx = ctx };
	sb_at(&sim->net.engine, from, every_fire, e, 0);
}

void tl_check_and_free(struct sb_sim *sim, struct sb_scenario *sc)
{
	struct sb_error err = { { 0 } };
	if (sb_sim_check(sim, &err) != 0)
		fail_msg("sb_sim_check: %s", err.msg);
	sb_sim_free(sim);
	sb_scenario_free(sc);
}

struct sb_port *tl_port_to_host(struct sb_sim *sim, uint32_t h)
{
	struct sb_switch *sw = sim->net.switches[0];
	for (uint16_t i = 0; i < sw->node.nports; i++)
		if (sw->node.ports[i].peer->node == &sim->net.hosts[h]->node)
			return &sw->node.ports[i];
	fail_msg("no port to host %u", h);
	return NULL;
}
