/*
 * server.c — the load generator's server (net.h): answers requests of proto.h.
 *
 * What a server on a shared testbed must survive, each counted in its closing stats line:
 *  - the descriptor limit: accept() fails with EMFILE (or ENFILE) while the connection stays in
 *    the backlog, so a level-triggered listener is readable for ever and the loop would spin at
 *    100 % CPU without serving anyone. The listener leaves the epoll set instead, and comes
 *    back when a connection closes (or after a second, for a system-wide ENFILE);
 *  - idle connections: one with no byte read or written for `idle` is closed, so that clients
 *    that vanished (or never spoke) do not hold descriptors for ever;
 *  - bad peers: bytes that are not a request, a request cut short by a close, bytes sent while
 *    a response is under way (the client never does: it waits for the last byte), and a peer
 *    that resets or closes before the last byte of a response. Each closes the connection.
 *    Sends use MSG_NOSIGNAL: a peer gone mid-response is EPIPE, never SIGPIPE.
 */
#include "load/net.h"

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "load/proto.h"

volatile sig_atomic_t sb_load_stop;

struct conn {
	int fd;
	uint8_t req[SB_LOAD_REQ_BYTES];
	size_t have;       /* request bytes read so far */
	bool sending, endless;
	uint64_t left;     /* response bytes still to send */
	sb_time last;      /* the last byte read or written */
	struct conn *older, *newer; /* the server's list by `last`, oldest first */
};

struct server {
	const struct sb_load_server_opts *o;
	int ep, lfd;
	bool listening;     /* the listener is in the epoll set */
	sb_time paused_at;
	struct conn *oldest, *newest;
	struct sb_load_server_stats st;
};

/* The response's bytes: their value is irrelevant, only their number. */
static uint8_t payload[1 << 16];

static void unlink_conn(struct server *s, struct conn *c)
{
	*(c->older ? &c->older->newer : &s->oldest) = c->newer;
	*(c->newer ? &c->newer->older : &s->newest) = c->older;
	c->older = c->newer = NULL;
}

/* A byte moved: the connection is the newest active one. */
static void touch(struct server *s, struct conn *c)
{
	c->last = sb_load_now();
	if (s->newest == c)
		return;
	if (c->older || c->newer || s->oldest == c) /* a new connection is in no list yet */
		unlink_conn(s, c);
	c->older = s->newest;
	*(s->newest ? &s->newest->newer : &s->oldest) = c;
	s->newest = c;
}

static void listen_again(struct server *s)
{
	if (s->listening)
		return;
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
	if (epoll_ctl(s->ep, EPOLL_CTL_ADD, s->lfd, &ev) == 0)
		s->listening = true;
}

static void conn_close(struct server *s, struct conn *c)
{
	epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	unlink_conn(s, c);
	free(c);
	listen_again(s); /* a descriptor is free again */
}

/* What happens to a connection: KEEP it, or close it: END (a clean end), or badly (counted, the
 * first of each kind logged). */
enum why { KEEP, END, PROTOCOL, GONE };

static enum why fail(struct server *s, enum why w, const char *what)
{
	uint64_t *n = w == PROTOCOL ? &s->st.protocol_errors : &s->st.peer_gone;
	if (!(*n)++)
		fprintf(s->o->log, "sharebuf-load server: %s, closing the connection (the next ones are only counted)\n", what);
	return w;
}

/* Send what the socket takes; a peer that is gone (EPIPE, ECONNRESET) ends the connection. */
static enum why pump(struct server *s, struct conn *c)
{
	while (c->endless || c->left) {
		size_t n = c->endless || c->left > sizeof(payload) ? sizeof(payload) : (size_t)c->left;
		ssize_t w = send(c->fd, payload, n, MSG_NOSIGNAL);
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return KEEP;
		if (w < 0 && c->endless) {
			s->st.streams_ended++; /* a long-lived flow ends when its peer closes */
			return END;
		}
		if (w < 0)
			return fail(s, GONE, "the peer went away in the middle of a response");
		touch(s, c);
		if (!c->endless)
			c->left -= (uint64_t)w;
	}
	c->sending = false;
	s->st.responses++;
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
	epoll_ctl(s->ep, EPOLL_CTL_MOD, c->fd, &ev);
	return KEEP;
}

static enum why start_response(struct server *s, struct conn *c)
{
	struct sb_load_req r;
	if (sb_load_req_decode(c->req, &r))
		return fail(s, PROTOCOL, "not a request of sharebuf-load");
	int tos = sb_load_tos(r.prio);
	setsockopt(c->fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
	if (r.cc[0] && setsockopt(c->fd, IPPROTO_TCP, TCP_CONGESTION, r.cc, (socklen_t)strlen(r.cc)))
		fprintf(s->o->log, "sharebuf-load server: congestion control %s: %s (the namespace's default is used)\n",
			r.cc, strerror(errno));
	s->st.requests++;
	c->have = 0;
	c->left = r.size;
	c->endless = r.size == 0;
	c->sending = true;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.ptr = c };
	epoll_ctl(s->ep, EPOLL_CTL_MOD, c->fd, &ev);
	return pump(s, c);
}

/* Readable: a request (or part of one), or the peer closed. */
static enum why on_readable(struct server *s, struct conn *c)
{
	for (;;) {
		uint8_t *to = c->req + c->have;
		size_t want = SB_LOAD_REQ_BYTES - c->have;
		uint8_t sink[1];
		ssize_t r = recv(c->fd, c->sending ? sink : to, c->sending ? sizeof(sink) : want, 0);
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return KEEP;
		bool mid = c->sending && !c->endless;
		if (r <= 0) {
			if (mid)
				return fail(s, GONE, "the peer went away in the middle of a response");
			if (c->endless && c->sending) {
				s->st.streams_ended++; /* the peer's close ends a long-lived flow */
				return END;
			}
			if (c->have)
				return fail(s, PROTOCOL, "the peer closed in the middle of a request");
			return r < 0 ? fail(s, GONE, "the peer reset an idle connection") : END;
		}
		touch(s, c);
		if (c->sending)
			return fail(s, PROTOCOL, "bytes received while a response was under way");
		c->have += (size_t)r;
		if (c->have == SB_LOAD_REQ_BYTES) {
			enum why w = start_response(s, c);
			if (w != KEEP)
				return w;
		}
	}
}

static void on_accept(struct server *s)
{
	for (;;) {
		int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				/* EMFILE, ENFILE, ENOBUFS, ENOMEM: the connection waits in the backlog
				 * until a descriptor is free; polling the listener meanwhile would spin */
				if (!s->st.fd_limit_pauses++)
					fprintf(s->o->log, "sharebuf-load server: accept: %s; not accepting until a connection closes\n",
						strerror(errno));
				epoll_ctl(s->ep, EPOLL_CTL_DEL, s->lfd, NULL);
				s->listening = false;
				s->paused_at = sb_load_now();
			}
			return;
		}
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		struct conn *c = sb_xcalloc(1, sizeof(*c));
		c->fd = fd;
		touch(s, c);
		s->st.connections++;
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
		epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev);
	}
}

/* Close the connections idle for o->idle or longer; returns how long until the next one
 * would be (at most 100 ms: the loop's tick for sb_load_stop). */
static int expire_idle(struct server *s)
{
	sb_time now = sb_load_now(), tick = 100 * SB_MS;
	if (!s->o->idle)
		return 100;
	while (s->oldest && now - s->oldest->last >= s->o->idle) {
		s->st.idle_closed++;
		conn_close(s, s->oldest);
	}
	if (s->oldest && s->oldest->last + s->o->idle - now < tick)
		tick = s->oldest->last + s->o->idle - now;
	return (int)((tick + SB_MS - 1) / SB_MS);
}

int sb_load_serve(const struct sb_load_server_opts *o, struct sb_error *err)
{
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
	/* accepted connections are born with the listener's congestion control: one that paces
	 * (bbr) would leave pacing on after the request switches it (docs/testbed.md) */
	if (lfd >= 0 && o->cc && setsockopt(lfd, IPPROTO_TCP, TCP_CONGESTION, o->cc, (socklen_t)strlen(o->cc))) {
		int e = errno;
		close(lfd);
		return sb_fail(err, "--cc %s: %s (is the kernel module loaded?)", o->cc, strerror(e));
	}
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(o->port), .sin_addr.s_addr = htonl(INADDR_ANY) };
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 1024)) {
		int e = errno;
		if (lfd >= 0)
			close(lfd);
		return sb_fail(err, "--listen %u: cannot listen: %s", o->port, strerror(e));
	}
	struct server s = { .o = o, .lfd = lfd, .ep = epoll_create1(EPOLL_CLOEXEC) };
	if (s.ep < 0) {
		int e = errno;
		close(lfd);
		return sb_fail(err, "--listen %u: epoll: %s", o->port, strerror(e));
	}
	listen_again(&s);
	struct epoll_event evs[64];
	while (!sb_load_stop) {
		/* ENFILE is the system's limit: a descriptor may come free elsewhere, so try again
		 * each second even when none of ours closes */
		if (!s.listening && sb_load_now() - s.paused_at >= SB_SEC)
			listen_again(&s);
		int n = epoll_wait(s.ep, evs, 64, expire_idle(&s));
		s.st.wakeups++;
		for (int i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;
			if (!c) {
				on_accept(&s);
				continue;
			}
			enum why w = KEEP;
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				w = on_readable(&s, c);
			if (w == KEEP && c->sending && (evs[i].events & EPOLLOUT))
				w = pump(&s, c);
			/* closed here, it is never seen again in this batch: each descriptor appears
			 * once per epoll_wait */
			if (w != KEEP)
				conn_close(&s, c);
		}
	}
	while (s.oldest)
		conn_close(&s, s.oldest);
	close(s.ep);
	close(lfd);
	fprintf(o->log,
		"sharebuf-load server: stats connections=%" PRIu64 " requests=%" PRIu64 " responses=%" PRIu64
		" streams_ended=%" PRIu64 " protocol_errors=%" PRIu64 " peer_gone=%" PRIu64 " idle_closed=%" PRIu64
		" fd_limit_pauses=%" PRIu64 " wakeups=%" PRIu64 "\n",
		s.st.connections, s.st.requests, s.st.responses, s.st.streams_ended, s.st.protocol_errors,
		s.st.peer_gone, s.st.idle_closed, s.st.fd_limit_pauses, s.st.wakeups);
	return 0;
}
