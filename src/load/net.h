/*
 * net.h — the load generator's two socket programs (docs/testbed.md §"Hosts and traffic").
 *
 * server  listens on a TCP port of its host's namespace and answers every request of
 *         proto.h on its connection: it sets the requested congestion control and DSCP on
 *         the connection, then sends the requested bytes (or streams until the peer closes).
 *         One thread, non-blocking sockets, epoll; connections are kept open for further
 *         requests, so a client may reuse them, until idle for `idle` (server.c says what
 *         else closes one).
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

/* The server's default idle timeout (--idle-ms): far above any gap between the flows of a
 * connection, which are microseconds to the run's length (a --reuse client keeps idle
 * connections between its flows; a run lasts seconds), short enough that descriptors held by
 * vanished clients come back within a minute. */
#define SB_LOAD_IDLE_MS_DEFAULT 60000

struct sb_load_server_opts {
	uint16_t port;
	const char *cc;         /* congestion control connections are born with; NULL: the default */
	sb_time idle;           /* close a connection with no byte read or written for this long; 0: never */
	FILE *log;              /* messages, and the closing stats line */
};

/* What the server did, printed when it stops as one line on its log:
 *   sharebuf-load server: stats connections=N requests=N responses=N streams_ended=N
 *   protocol_errors=N peer_gone=N idle_closed=N fd_limit_pauses=N wakeups=N
 * responses: finite responses sent whole; streams_ended: long-lived ones ended by their peer;
 * protocol_errors: connections closed for bytes that are not a request, a request cut short,
 * or bytes during a response; peer_gone: closed because the peer reset or closed before the
 * last byte of a response (or reset an idle one); idle_closed: closed by the idle timeout;
 * fd_limit_pauses: times accept() found no descriptor (EMFILE/ENFILE) and the server stopped
 * accepting until a connection closed; wakeups: returns from epoll_wait, about 10 a second when
 * idle (the loop's 100 ms tick) — a server that spins shows millions. */
struct sb_load_server_stats {
	uint64_t connections, requests, responses, streams_ended, protocol_errors, peer_gone, idle_closed,
		fd_limit_pauses, wakeups;
};

/* Serve until sb_load_stop. -1 + err if the port cannot be bound or cc set. */
int sb_load_serve(const struct sb_load_server_opts *o, struct sb_error *err);

struct sb_load_client_opts {
	uint32_t host;          /* whose flows (plan.h: the flows whose dst is host) */
	uint16_t port;          /* the servers' port */
	const char *peers;      /* NULL: host i is 10.0.0.<i+1>; else a file of "INDEX ADDRESS" lines */
	unsigned preopen;       /* connections opened to each peer before time 0 */
	bool reuse;             /* flows over persistent connections (else one connection each) */
	sb_time grace;          /* time after the run's end for flows still running */
	FILE *measured;         /* measured.csv (plan.h) */
};

/* Play the flows; each completed one becomes a row of measured. Returns 0, or -1 + err when a
 * peer cannot be reached at all (connection refused before time 0), when a flow was lost (its
 * connection refused, reset or closed before its last byte: on the testbed that is a host or
 * server failing, never the network, whose drops TCP repairs), or when none of the host's
 * finite flows completed. Flows still running at the end plus grace are not lost: they are
 * left out, as a run leaves its unfinished flows out. Stopped by a signal: 0. */
int sb_load_play(const struct sb_load_plan *p, const struct sb_load_client_opts *o, struct sb_error *err);

/* CLOCK_MONOTONIC in picoseconds. */
sb_time sb_load_now(void);

#endif
