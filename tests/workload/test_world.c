/*
 * test_world.c — the workload layer on a world of its own (workload/world.h): a network built
 * by topo/, the flows of transport/ and hooks of the test's instead of the simulation's. It
 * links no archive above the workloads', so it holds only while the layer names nothing of
 * the scenario or of sim/: a file workload's queries reach the owner's hook with their
 * transport, its flow list is opened where the owner's env->path says, and its messages are
 * placed through env->fail.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/param.h"
#include "net/net.h"
#include "net/params.h"
#include "testlib.h"
#include "topo/params.h"
#include "topo/topo.h"
#include "transport/flows.h"
#include "workload/types.h"
#include "workload/workload.h"
#include "workload/world.h"

/* What the owner's hooks saw. */
struct owner {
	char dir[64];            /* env->path resolves relative to it */
	char failed_key[64];     /* the last env->fail */
	char failed_what[256];
	int nqueries;
	uint32_t host[4], responder[4];
	uint16_t responses[4];
	uint64_t bytes[4];
	const struct sb_transport_ops *ops[4];
};

static int owner_fail(const void *ctx, const char *key, struct sb_error *err, const char *what)
{
	struct owner *o = (struct owner *)ctx;
	snprintf(o->failed_key, sizeof(o->failed_key), "%s", key);
	snprintf(o->failed_what, sizeof(o->failed_what), "%s", what);
	return sb_fail(err, "%s: %s", key, what);
}

static char *owner_path(const void *ctx, const char *key, const char *value)
{
	const struct owner *o = ctx;
	size_t n = strlen(o->dir) + strlen(value) + 2;
	char *p = sb_xmalloc(n);
	snprintf(p, n, "%s/%s", o->dir, value);
	return p;
}

static struct owner the_owner;

static struct sb_wl_env owner_env(const void *ctx, size_t wi)
{
	return (struct sb_wl_env){ .ctx = ctx, .fail = owner_fail, .path = owner_path, .index = wi };
}

static int32_t owner_query(void *ctx, uint32_t host, sb_time start, uint16_t responses, uint32_t responder,
			   uint64_t bytes, const struct sb_transport_ops *ops)
{
	struct owner *o = ctx;
	int q = o->nqueries++;
	assert_true(q < 4);
	o->host[q] = host;
	o->responder[q] = responder;
	o->responses[q] = responses;
	o->bytes[q] = bytes;
	o->ops[q] = ops;
	return q;
}

/* A network of the default topology, its flows, and a world of one file workload reading
 * `name` (relative to the owner's directory). */
struct rig {
	struct sb_topo_params topo;
	struct sb_host_params host;
	struct sb_tcp_params tcp;
	struct sb_rdma_params rdma;
	struct sb_net net;
	struct sb_flows flows;
	struct sb_workload wl;
	struct sb_wl_world world;
};

static void rig_build(struct rig *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	sb_params_defaults(sb_topo_param_table, &r->topo);
	sb_params_defaults(sb_host_param_table, &r->host);
	sb_params_defaults(sb_tcp_param_table, &r->tcp);
	sb_params_defaults(sb_rdma_param_table, &r->rdma);
	sb_engine_init(&r->net.engine, sb_flows_packet_gone, &r->flows);
	r->net.seed = 1;
	r->net.deliver = sb_flows_deliver;
	r->net.deliver_ctx = &r->flows;
	r->flows = (struct sb_flows){ .net = &r->net, .tcp = &r->tcp, .rdma = &r->rdma, .seed = 1 };
	struct sb_topo_plan plan;
	struct sb_error err = { "" };
	assert_int_equal(sb_topo_plan_make(&plan, &r->topo, &err), 0);
	assert_int_equal(sb_topo_build(&r->net, &plan, &err), 0);
	sb_topo_plan_free(&plan);
	sb_net_configure_hosts(&r->net, &r->host);
	assert_true(r->net.nhosts >= 4);

	sb_workload_init(&r->wl, &sb_workload_file);
	struct sb_wl_file *p = r->wl.params;
	free(p->path);
	p->path = sb_xstrdup(name);
	memset(&the_owner, 0, sizeof(the_owner));
	snprintf(the_owner.dir, sizeof(the_owner.dir), "%s", tl_group_dir);
	r->world = (struct sb_wl_world){
		.flows = &r->flows, .workloads = &r->wl, .nworkloads = 1, .env = owner_env, .env_ctx = &the_owner,
		.seed = 1, .arrivals_end = sb_time_from_ms(1), .query_new = owner_query, .query_ctx = &the_owner,
	};
}

static void rig_free(struct rig *r)
{
	sb_workloads_free(&r->world);
	assert_null(r->world.runtime);
	sb_workload_clear(&r->wl);
	sb_flows_free(&r->flows);
	sb_net_free(&r->net);
}

/* A flow list's query: the hook gets its querier, its responses' count, sender and bytes, and
 * the transport its lines name; a lossless line marks its priority in the network. */
static void test_file_queries_reach_the_hook(void **state)
{
	(void)state;
	char *file = tl_write_file(tl_group_dir, "q.csv",
			   "start_us,src,dst,size_bytes,priority,transport,class,query\n"
			   "0,1,0,1000,1,dctcp,,7\n"
			   "0,2,0,3000,1,dctcp,,7\n"
			   "5,3,2,500,3,dcqcn,lossless,\n");
	struct rig r;
	rig_build(&r, "q.csv");
	struct sb_error err = { "" };
	assert_int_equal(sb_workloads_start(&r.world, &err), 0);
	assert_non_null(r.world.runtime);
	assert_int_equal(the_owner.nqueries, 1);
	assert_int_equal(the_owner.host[0], 0);
	assert_int_equal(the_owner.responder[0], 1);
	assert_int_equal(the_owner.responses[0], 2);
	assert_int_equal(the_owner.bytes[0], 4000);
	assert_ptr_equal(the_owner.ops[0], sb_transport_find("dctcp"));
	assert_int_equal(r.net.lossless_prio_mask, 1u << 3);
	assert_int_equal(the_owner.failed_key[0], 0);
	rig_free(&r);
	unlink(file);
	free(file);
}

/* A bad flow list: the message goes through the owner's env->fail at workloads.0.path, and
 * names the file where env->path put it. */
static void test_file_fails_through_the_env(void **state)
{
	(void)state;
	char *file = tl_write_file(tl_group_dir, "bad.csv", "start_us,src,dst,size_bytes,priority,transport\n"
							    "0,1,0,1000,1,nosuch\n");
	struct rig r;
	rig_build(&r, "bad.csv");
	struct sb_error err = { "" };
	assert_int_equal(sb_workloads_start(&r.world, &err), -1);
	assert_string_equal(the_owner.failed_key, "workloads.0.path");
	char want[160];
	snprintf(want, sizeof(want), "%s/bad.csv:2: column transport: unknown transport \"nosuch\"", tl_group_dir);
	assert_true(strncmp(the_owner.failed_what, want, strlen(want)) == 0);
	assert_int_equal(the_owner.nqueries, 0);
	rig_free(&r);
	unlink(file);
	free(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_queries_reach_the_hook),
		cmocka_unit_test(test_file_fails_through_the_env),
	};
	return cmocka_run_group_tests(tests, tl_group_tmpdir, tl_group_rmdir);
}
