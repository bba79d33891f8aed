/*
 * net.h — the load generator's two socket programs (docs/testbed.md §"Hosts and traffic").
 *
 * server  listens on a TCP port of its host's namespace and answers every request of
 *         proto.h on its connection: it sets the requested congestion control and DSCP on
 *         the connection, then sends the requested bytes (or streams until the peer closes).
 *         One thread, non-blocking sockets, epoll; connections are kept open for further
 *         requests, so a client may reuse them.
 * client  plays one host's flows of a plan (plan.h): at each flow's start, measured from the
 *         client's own time 0, it sends the request to the flow's source over an idle
 *         connection to that host (opening one when none is idle; `preopen` per peer are
 *         opened before time 0, so most flows pay no handshake, as the simulator's TCP has
 *         none by default), and takes the flow's FCT when the last byte arrives at the
 *         application. A query's QCT follows from its responses' (sim/report.c, as in a run).
 *         Long-lived flows stream until the run's end. Flows still running at the end of the
 *         run plus `grace` are not reported, as a run leaves unfinished flows out.
 * Both set TCP_NODELAY. The time is CLOCK_MONOTONIC, in the simulator's picoseconds.
 */
#ifndef SB_LOAD_NET_H
#define SB_LOAD_NET_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include "core/time.h"
#include "core/util.h"
#include "load/plan.h"

/* Set by a signal handler: both loops stop at their next wake-up (at most 100 ms). */
extern volatile sig_atomic_t sb_load_stop;

/* Serve on `port` until sb_load_stop. -1 + err if the port cannot be bound. */
int sb_load_serve(uint16_t port, FILE *log, struct sb_error *err);

struct sb_load_client_opts {
	uint32_t host;          /* whose flows (plan.h: the flows whose dst is host) */
	uint16_t port;          /* the servers' port */
	const char *peers;      /* NULL: host i is 10.0.0.<i+1>; else a file of "INDEX ADDRESS" lines */
	unsigned preopen;       /* connections opened to each peer before time 0 */
	sb_time grace;          /* time after the run's end for flows still running */
	FILE *measured;         /* measured.csv (plan.h) */
};

/* Play the flows; each completed one becomes a row of measured. Returns 0, or -1 + err
 * when a peer cannot be reached at all (connection refused before time 0). */
int sb_load_play(const struct sb_load_plan *p, const struct sb_load_client_opts *o, struct sb_error *err);

/* CLOCK_MONOTONIC in picoseconds. */
sb_time sb_load_now(void);

#endif
