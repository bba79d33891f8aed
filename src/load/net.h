/*
 * net.h — the load generator's two socket programs (docs/testbed.md §"Hosts and traffic").
 *
 * server  listens on a TCP port of its host's namespace and answers every request of
 *         proto.h on its connection: it sets the requested congestion control and DSCP on
 *         the connection, then sends the requested bytes (or streams until the peer closes).
 *         One thread, non-blocking sockets, epoll; connections are kept open for further
 *         requests, so a client may reuse them.
 * client  plays one host's flows of a plan (plan.h): at each flow's start, measured from the
 *         client's own time 0, it opens a connection to the flow's source and sends the
 *         request, and takes the flow's FCT, from connect() to the last byte at the
 *         application; the connection is closed after it. A fresh connection per flow is the
 *         simulator's flow: its own TCP state from slow start, as the simulator's flows have
 *         (a reused connection would carry its cwnd and ssthresh from flow to flow), at the
 *         price of a handshake (one RTT, tens of µs here, against FCTs of milliseconds).
 *         With `reuse`, flows go over idle connections to that host instead (opening one
 *         when none is idle), `preopen` per peer opened before time 0. Before time 0,
 *         `preopen` connections (at least one) to every peer show that its server answers. A query's QCT follows from its responses' (sim/report.c, as in a run).
 *         Long-lived flows stream until the run's end. Flows still running at the end of the
 *         run plus `grace` are not reported, as a run leaves unfinished flows out.
 * Both set TCP_NODELAY, and set the congestion control on a socket before it connects (the
 * client: its first flow's; the server: --cc on the listener), since Linux keeps pacing on
 * for the life of a connection that once ran bbr, and a namespace's default can be only one
 * the root namespace allows (net.ipv4.tcp_allowed_congestion_control). The time is CLOCK_MONOTONIC, in the simulator's picoseconds.
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

/* Serve on `port` until sb_load_stop, connections born with congestion control `cc` (NULL:
 * the namespace's default). -1 + err if the port cannot be bound or cc set. */
int sb_load_serve(uint16_t port, const char *cc, FILE *log, struct sb_error *err);

struct sb_load_client_opts {
	uint32_t host;          /* whose flows (plan.h: the flows whose dst is host) */
	uint16_t port;          /* the servers' port */
	const char *peers;      /* NULL: host i is 10.0.0.<i+1>; else a file of "INDEX ADDRESS" lines */
	unsigned preopen;       /* connections opened to each peer before time 0 */
	bool reuse;             /* flows over persistent connections (else one connection each) */
	sb_time grace;          /* time after the run's end for flows still running */
	FILE *measured;         /* measured.csv (plan.h) */
};

/* Play the flows; each completed one becomes a row of measured. Returns 0, or -1 + err
 * when a peer cannot be reached at all (connection refused before time 0). */
int sb_load_play(const struct sb_load_plan *p, const struct sb_load_client_opts *o, struct sb_error *err);

/* CLOCK_MONOTONIC in picoseconds. */
sb_time sb_load_now(void);

#endif
