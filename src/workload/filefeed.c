/*
 * filefeed.c — the `file` workload's flow list, checked at build and read as the run goes
 * (see filefeed.h).
 */
#include "workload/filefeed.h"

#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "net/net.h"
#include "transport/flows.h"
#include "transport/transport.h"
#include "workload/flowfile.h"
#include "workload/world.h"

/* How far ahead of the next pending record the feed reads: two wheel spans, so that a record
 * read when the previous one starts is still beyond the wheel (core/event.h). */
#define LOOKAHEAD ((sb_time)2 * SB_WHEEL_SIZE * SB_TICK_PS)

/* A line of a `query` column, noted during the check to group the queries. */
struct query_note {
	int64_t query;
	uint64_t index; /* record index (start order) */
	uint32_t src, dst;
	uint64_t size;
	double start_us;
	const char *transport;
	int line;
};

/* A query of the file: its id there, and the id the world's query hook gave it. */
struct query_map {
	int64_t query;
	int32_t q;
};

struct sb_filefeed {
	struct sb_wl_world *world;
	char *path;
	struct sb_flowfile names; /* transports; all records only when `in_memory` */
	const struct sb_transport_ops **ops; /* per transport of `names` */
	bool in_memory;          /* the file is not in start order: sorted in memory */
	struct sb_flowfile_cursor cur;
	size_t pos;              /* in memory: the next record */
	struct sb_flow_record next;
	bool has_next;           /* `next` is the first record not yet scheduled */
	uint64_t n, n_near, read;/* records, those in the wheel at build, records scheduled */
	uint32_t first_id;       /* the reserved flow ids: first_id + record index */
	uint64_t first_seq;      /* reserved sequence numbers of records n_near .. n-1 */
	sb_time start;           /* the workload's start */
	sb_time *pending;        /* starts of the records scheduled and not started (a ring) */
	size_t phead, plen, pcap;
	struct query_map *qmap;  /* sorted by query */
	size_t nq;
	/* the check's notes */
	struct query_note *notes;
	size_t nnotes, notes_cap;
	int unknown_line;        /* first line naming an unknown transport, 0 = none */
	const char *unknown;
	size_t checked_transports;
};

static const struct sb_transport_ops *ops_of(const struct sb_filefeed *feed, const char *transport)
{
	for (size_t t = 0; t < feed->names.ntransports; t++)
		if (feed->names.transports[t] == transport)
			return feed->ops[t];
	return NULL;
}

/* --- the check --- */

static void note(struct sb_filefeed *feed, const struct sb_flow_record *r, uint64_t index)
{
	struct sb_net *net = feed->world->flows->net;
	/* a transport named for the first time: known? (the first unknown is reported, at its
	 * first line, once the whole file read well) */
	for (; feed->checked_transports < feed->names.ntransports; feed->checked_transports++) {
		size_t t = feed->checked_transports;
		feed->ops = sb_xrealloc(feed->ops, (t + 1) * sizeof(*feed->ops));
		feed->ops[t] = sb_transport_find(feed->names.transports[t]);
		if (!feed->ops[t] && !feed->unknown)
			feed->unknown = feed->names.transports[t];
	}
	if (feed->unknown && !feed->unknown_line && r->transport == feed->unknown)
		feed->unknown_line = r->line; /* the first line (in start order) that names it */
	if (r->klass == SB_CLASS_LOSSLESS)
		net->lossless_prio_mask |= (uint8_t)(1u << r->priority);
	sb_time at = feed->start + sb_time_from_us(r->start_us);
	if ((at >> SB_TICK_BITS) - net->engine.eq.cur_tick < SB_WHEEL_SIZE)
		feed->n_near++; /* records are in start order: these are the first ones */
	if (r->query >= 0) {
		if (feed->nnotes == feed->notes_cap) {
			feed->notes_cap = feed->notes_cap ? 2 * feed->notes_cap : 256;
			feed->notes = sb_xrealloc(feed->notes, feed->notes_cap * sizeof(*feed->notes));
		}
		feed->notes[feed->nnotes++] = (struct query_note){ r->query, index, r->src, r->dst, r->size_bytes,
								   r->start_us, r->transport, r->line };
	}
	feed->n++;
}

/* One streaming pass over the file: 1 if it is in start order, 0 if not (the pass stopped
 * there), -1 with err set. */
static int check_streaming(struct sb_filefeed *feed, struct sb_error *err)
{
	struct sb_flowfile_cursor c;
	if (sb_flowfile_open(&c, feed->path, feed->world->flows->net->nhosts, &feed->names, err))
		return -1;
	struct sb_flow_record r;
	double prev = 0;
	int got;
	while ((got = sb_flowfile_next(&c, &r, err)) > 0) {
		if (r.start_us < prev) {
			sb_flowfile_close(&c);
			return 0;
		}
		prev = r.start_us;
		note(feed, &r, feed->n);
	}
	sb_flowfile_close(&c);
	return got < 0 ? -1 : 1;
}

static int cmp_note(const void *a, const void *b)
{
	const struct query_note *x = a, *y = b;
	if (x->query != y->query)
		return x->query < y->query ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

struct query_group {
	size_t a, b; /* its notes are notes[a .. b) */
	uint64_t first; /* record index of notes[a], its earliest record */
};

static int cmp_group_start(const void *a, const void *b)
{
	uint64_t x = ((const struct query_group *)a)->first, y = ((const struct query_group *)b)->first;
	return (x > y) - (x < y);
}

static int cmp_qmap(const void *a, const void *b)
{
	int64_t x = ((const struct query_map *)a)->query, y = ((const struct query_map *)b)->query;
	return (x > y) - (x < y);
}

/*
 * The queries of a flow list with a `query` column: the lines with one query id are the
 * responses of one incast query, and become queries exactly like a generated incast's
 * (issue_query in workload.c): kind incast, one sb_query with their count and total bytes,
 * the querier their common receiver, the query start their earliest start, the ideal QCT
 * that of all the bytes from the first response's sender with its transport. Queries are
 * numbered (flows.csv query_id) in the order they start, as generated ones are, whatever ids
 * the file uses. O(n log n) in the file's query lines.
 */
static int make_queries(struct sb_filefeed *feed, struct sb_error *err)
{
	struct query_note *v = feed->notes;
	size_t n = feed->nnotes;
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_note);
	struct query_group *g = sb_xmalloc(n * sizeof(*g));
	size_t ng = 0;
	int rc = 0;
	for (size_t a = 0, b; a < n && rc == 0; a = b) {
		const struct query_note *r0 = &v[a];
		for (b = a + 1; b < n && v[b].query == r0->query && rc == 0; b++)
			if (v[b].dst != r0->dst)
				rc = sb_fail(err, "%s:%d: column query: query %lld's responses go to host %u (line %d) and to host %u; "
						  "expected one querier per query",
					     feed->path, v[b].line, (long long)r0->query, r0->dst, r0->line, v[b].dst);
		if (rc == 0 && b - a > UINT16_MAX)
			rc = sb_fail(err, "%s:%d: column query: query %lld has %zu responses, expected at most %u", feed->path,
				     r0->line, (long long)r0->query, b - a, UINT16_MAX);
		g[ng++] = (struct query_group){ a, b, r0->index };
	}
	if (rc == 0) {
		qsort(g, ng, sizeof(*g), cmp_group_start);
		feed->qmap = sb_xmalloc(ng * sizeof(*feed->qmap));
		for (size_t k = 0; k < ng; k++) {
			const struct query_note *r0 = &v[g[k].a];
			uint64_t bytes = 0;
			for (size_t j = g[k].a; j < g[k].b; j++)
				bytes += v[j].size;
			struct sb_wl_world *w = feed->world;
			int32_t q = w->query_new(w->query_ctx, r0->dst, feed->start + sb_time_from_us(r0->start_us),
						 (uint16_t)(g[k].b - g[k].a), r0->src, bytes, ops_of(feed, r0->transport));
			feed->qmap[feed->nq++] = (struct query_map){ r0->query, q };
		}
		qsort(feed->qmap, feed->nq, sizeof(*feed->qmap), cmp_qmap);
	}
	free(g);
	free(feed->notes);
	feed->notes = NULL;
	feed->nnotes = feed->notes_cap = 0;
	return rc;
}

static int32_t query_of(const struct sb_filefeed *feed, int64_t query)
{
	if (query < 0)
		return -1;
	struct query_map key = { query, 0 };
	const struct query_map *m = bsearch(&key, feed->qmap, feed->nq, sizeof(key), cmp_qmap);
	return m ? m->q : -1;
}

/* --- the run --- */

/* A line that read well at build time does not any more: the file changed. */
_Noreturn static void changed(const struct sb_filefeed *feed, const char *why)
{
	fprintf(stderr, "sharebuf: %s changed during the run: %s\n", feed->path, why);
	abort();
}

/* The next record into feed->next (has_next false at the end). */
static void fetch(struct sb_filefeed *feed)
{
	feed->has_next = false;
	if (feed->in_memory) {
		if (feed->pos < feed->names.n) {
			feed->next = feed->names.flows[feed->pos++];
			feed->has_next = true;
		}
		return;
	}
	struct sb_error err = { "" };
	size_t ntransports = feed->names.ntransports;
	double prev = feed->next.start_us;
	int got = sb_flowfile_next(&feed->cur, &feed->next, &err);
	if (got < 0)
		changed(feed, err.msg);
	if (got == 0)
		return;
	if (feed->names.ntransports != ntransports || feed->read >= feed->n || feed->next.start_us < prev)
		changed(feed, "its records are not those it had when the run started");
	feed->has_next = true;
}

static void file_start(void *obj, uint64_t id);

static void push_pending(struct sb_filefeed *feed, sb_time at)
{
	if (feed->plen == feed->pcap) {
		size_t cap = feed->pcap ? 2 * feed->pcap : 64;
		sb_time *v = sb_xmalloc(cap * sizeof(*v));
		for (size_t i = 0; i < feed->plen; i++)
			v[i] = feed->pending[(feed->phead + i) % feed->pcap];
		free(feed->pending);
		feed->pending = v;
		feed->pcap = cap;
		feed->phead = 0;
	}
	feed->pending[(feed->phead + feed->plen++) % feed->pcap] = at;
}

/* Create and schedule feed->next, then read the one after it. */
static void schedule_next(struct sb_filefeed *feed)
{
	struct sb_flows *flows = feed->world->flows;
	const struct sb_flow_record *r = &feed->next;
	uint64_t i = feed->read++;
	uint32_t id = feed->first_id + (uint32_t)i;
	sb_time at = feed->start + sb_time_from_us(r->start_us);
	int32_t q = query_of(feed, r->query);
	struct sb_flow *f = sb_flow_create_reserved(flows, id, r->src, r->dst, r->size_bytes, at, ops_of(feed, r->transport));
	f->prio = (uint8_t)r->priority;
	f->lossless = r->klass == SB_CLASS_LOSSLESS;
	f->kind = (uint8_t)(q >= 0 ? SB_KIND_INCAST : SB_KIND_FILE);
	f->query_id = q;
	/* the first records go into the wheel at build time, as they always did; the others
	 * take the sequence number they would have had then */
	if (i < feed->n_near)
		sb_at(&flows->net->engine, at, file_start, feed, id);
	else
		sb_schedule_reserved(&flows->net->engine.eq, at, file_start, feed, id, feed->first_seq + (i - feed->n_near));
	push_pending(feed, at);
	fetch(feed);
}

/* Read while the first unread record starts within LOOKAHEAD of the next pending one, or
 * nothing is pending. Then every unread record starts at least LOOKAHEAD after the next file
 * flow to start, whose start event reads it in time. */
static void top_up(struct sb_filefeed *feed)
{
	while (feed->has_next) {
		sb_time at = feed->start + sb_time_from_us(feed->next.start_us);
		if (feed->plen && at >= feed->pending[feed->phead] + LOOKAHEAD)
			return;
		schedule_next(feed);
	}
}

static void file_start(void *obj, uint64_t id)
{
	struct sb_filefeed *feed = obj;
	feed->phead = (feed->phead + 1) % feed->pcap;
	feed->plen--;
	top_up(feed);
	struct sb_flows *flows = feed->world->flows;
	sb_flow_start(flows, sb_flow_get(flows, (uint32_t)id));
}

/* --- build --- */

int sb_filefeed_start(struct sb_wl_world *w, const struct sb_wl_env *env, const char *path, sb_time start,
		      struct sb_filefeed **out, struct sb_error *err)
{
	struct sb_filefeed *feed = sb_xcalloc(1, sizeof(*feed));
	struct sb_net *net = w->flows->net;
	*out = feed;
	feed->world = w;
	feed->start = start;
	char key[48], why[sizeof(err->msg)];
	snprintf(key, sizeof(key), "workloads.%zu.path", env->index);
	/* relative to the scenario file that set the key, as the scenario resolves it */
	feed->path = env->path(env->ctx, key, path ? path : "");
	uint8_t mask = net->lossless_prio_mask;
	int sorted = check_streaming(feed, err);
	if (sorted == 0) {
		/* not in start order: sort it in memory, and check that instead */
		net->lossless_prio_mask = mask;
		sb_flowfile_free(&feed->names);
		free(feed->ops);
		free(feed->notes);
		feed->ops = NULL;
		feed->notes = NULL;
		feed->nnotes = feed->notes_cap = feed->checked_transports = 0;
		feed->n = feed->n_near = 0;
		feed->unknown_line = 0;
		feed->unknown = NULL;
		feed->in_memory = true;
		if (sb_flowfile_load(feed->path, net->nhosts, &feed->names, err) == 0) {
			for (size_t i = 0; i < feed->names.n; i++)
				note(feed, &feed->names.flows[i], i);
			sorted = 1;
		} else {
			sorted = -1;
		}
	}
	if (sorted < 0) {
		snprintf(why, sizeof(why), "%s", err->msg);
		return sb_wl_fail(env, "path", err, "%s", why);
	}
	if (feed->unknown_line) {
		char known[256];
		sb_transport_names(known, sizeof(known));
		return sb_wl_fail(env, "path", err, "%s:%d: column transport: unknown transport \"%s\", expected one of %s",
				  feed->path, feed->unknown_line, feed->unknown, known);
	}
	if (feed->n >= UINT32_MAX - w->flows->table.next_id)
		return sb_wl_fail(env, "path", err, "%s: %llu flows, expected fewer than %u in one run", feed->path,
				  (unsigned long long)feed->n, UINT32_MAX - 1);
	if (make_queries(feed, err))
		return -1;
	feed->first_id = sb_flow_table_reserve(&w->flows->table, (uint32_t)feed->n);
	feed->first_seq = sb_eventq_reserve(&net->engine.eq, feed->n - feed->n_near);
	if (!feed->in_memory && sb_flowfile_open(&feed->cur, feed->path, net->nhosts, &feed->names, err)) {
		snprintf(why, sizeof(why), "%s", err->msg);
		return sb_wl_fail(env, "path", err, "%s", why);
	}
	feed->next.start_us = 0;
	fetch(feed);
	top_up(feed);
	return 0;
}

void sb_filefeed_free(struct sb_filefeed *feed)
{
	if (!feed)
		return;
	sb_flowfile_close(&feed->cur);
	sb_flowfile_free(&feed->names);
	free(feed->ops);
	free(feed->pending);
	free(feed->qmap);
	free(feed->notes);
	free(feed->path);
	free(feed);
}
