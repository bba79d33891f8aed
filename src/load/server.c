/*
 * server.c — the load generator's server (net.h): answers requests of proto.h.
 */
#include "load/net.h"

#include <errno.h>
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
};

/* The response's bytes: their value is irrelevant, only their number. */
static uint8_t payload[1 << 16];

static void conn_close(int ep, struct conn *c)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	free(c);
}

/* Send what the socket takes; false when the connection is gone. */
static bool pump(int ep, struct conn *c)
{
	while (c->endless || c->left) {
		size_t n = c->endless || c->left > sizeof(payload) ? sizeof(payload) : (size_t)c->left;
		ssize_t w = send(c->fd, payload, n, MSG_NOSIGNAL);
		if (w < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK;
		if (!c->endless)
			c->left -= (uint64_t)w;
	}
	c->sending = false;
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
	epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
	return true;
}

static bool start_response(int ep, struct conn *c, FILE *log)
{
	struct sb_load_req r;
	if (sb_load_req_decode(c->req, &r)) {
		fprintf(log, "sharebuf-load server: not a request of sharebuf-load, closing the connection\n");
		return false;
	}
	int tos = sb_load_tos(r.prio);
	setsockopt(c->fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
	if (r.cc[0] && setsockopt(c->fd, IPPROTO_TCP, TCP_CONGESTION, r.cc, (socklen_t)strlen(r.cc)))
		fprintf(log, "sharebuf-load server: congestion control %s: %s (the namespace's default is used)\n", r.cc,
			strerror(errno));
	c->have = 0;
	c->left = r.size;
	c->endless = r.size == 0;
	c->sending = true;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.ptr = c };
	epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
	return pump(ep, c);
}

/* Readable: a request (or part of one), or the peer closed. */
static bool on_readable(int ep, struct conn *c, FILE *log)
{
	for (;;) {
		uint8_t sink[512];
		/* while sending, anything read is the peer's close or a protocol error */
		uint8_t *to = c->sending ? sink : c->req + c->have;
		size_t want = c->sending ? sizeof(sink) : SB_LOAD_REQ_BYTES - c->have;
		ssize_t r = recv(c->fd, to, want, 0);
		if (r == 0)
			return false;
		if (r < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK;
		if (c->sending)
			continue;
		c->have += (size_t)r;
		if (c->have == SB_LOAD_REQ_BYTES && !start_response(ep, c, log))
			return false;
	}
}

static void on_accept(int ep, int lfd)
{
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		struct conn *c = sb_xcalloc(1, sizeof(*c));
		c->fd = fd;
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
		epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	}
}

int sb_load_serve(uint16_t port, const char *cc, FILE *log, struct sb_error *err)
{
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
	/* accepted connections are born with the listener's congestion control: one that paces
	 * (bbr) would leave pacing on after the request switches it (docs/testbed.md) */
	if (lfd >= 0 && cc && setsockopt(lfd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc))) {
		int e = errno;
		close(lfd);
		return sb_fail(err, "--cc %s: %s (is the kernel module loaded?)", cc, strerror(e));
	}
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY) };
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 1024)) {
		int e = errno;
		if (lfd >= 0)
			close(lfd);
		return sb_fail(err, "--listen %u: cannot listen: %s", port, strerror(e));
	}
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
	epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
	struct epoll_event evs[64];
	while (!sb_load_stop) {
		int n = epoll_wait(ep, evs, 64, 100);
		for (int i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;
			if (!c) {
				on_accept(ep, lfd);
				continue;
			}
			bool ok = true;
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				ok = on_readable(ep, c, log);
			if (ok && c->sending && (evs[i].events & EPOLLOUT))
				ok = pump(ep, c);
			if (!ok)
				conn_close(ep, c);
		}
	}
	/* connections still open are closed with the process */
	close(ep);
	close(lfd);
	return 0;
}
