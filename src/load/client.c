/*
 * client.c — the load generator's client (net.h): plays one host's flows of a plan.
 */
#include "load/net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "core/lines.h"
#include "load/proto.h"

sb_time sb_load_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (sb_time)ts.tv_sec * SB_SEC + (sb_time)ts.tv_nsec * SB_NS;
}

struct conn {
	int fd;
	uint32_t peer;
	bool connected;
	const struct sb_load_flow *flow; /* the flow it carries, NULL when idle */
	bool request_sent;
	uint64_t left;                   /* response bytes still to come (flow->size 0: endless) */
	sb_time issued;                  /* when the flow was issued (its FCT's start) */
};

struct client {
	const struct sb_load_client_opts *o;
	int ep;
	struct sockaddr_in *addr;        /* per host */
	uint32_t nhosts;
	struct conn **conns;             /* every connection ever opened */
	size_t nconns, cap;
	size_t busy;                     /* connections carrying a finite flow */
	sb_time t0, run_end;             /* run_end: the run's length */
	size_t issued, completed, lost;  /* this host's flows, finite and long-lived */
	const char *lost_why;            /* how the first lost flow was lost */
	uint32_t lost_flow, lost_peer;
};

/* Flow k->flow (if any) failed on its connection: counted, the first one's cause kept for the
 * message (net.h: a client that lost a flow fails). */
static void lose_flow(struct client *c, struct conn *k, const char *why)
{
	if (!k->flow)
		return;
	if (!c->lost++) {
		c->lost_why = why;
		c->lost_flow = k->flow->id;
		c->lost_peer = k->peer;
	}
}

static int read_peers(struct client *c, const char *path, struct sb_error *err)
{
	struct sb_lines in;
	if (sb_lines_open(&in, path, "peers file", err))
		return -1;
	char *line;
	int rc;
	while ((rc = sb_lines_next(&in, &line, err)) == 1) {
		unsigned idx;
		char ip[64];
		int end = 0;
		if (*line == '#' || *line == '\0')
			continue;
		if (sscanf(line, "%u %63s%n", &idx, ip, &end) != 2 || line[end] != '\0' || idx >= c->nhosts ||
		    inet_pton(AF_INET, ip, &c->addr[idx].sin_addr) != 1) {
			rc = sb_fail(err, "%s:%d: expected `HOST_INDEX IPV4_ADDRESS` with a host index below %u, got `%s`",
				     path, in.line, c->nhosts, line);
			break;
		}
	}
	sb_lines_close(&in);
	return rc < 0 ? -1 : 0;
}

static struct conn *open_conn(struct client *c, uint32_t peer, const char *cc)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
	if (fd < 0)
		return NULL;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (cc[0])
		setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc));
	struct sockaddr_in a = c->addr[peer];
	a.sin_port = htons(c->o->port);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) && errno != EINPROGRESS) {
		close(fd);
		return NULL;
	}
	/* a closed connection's slot, else a new one: fresh connections come and go */
	struct conn *k = NULL;
	for (size_t i = 0; i < c->nconns && !k; i++)
		if (c->conns[i]->fd < 0)
			k = c->conns[i];
	if (!k) {
		if (c->nconns == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 64;
			c->conns = sb_xrealloc(c->conns, c->cap * sizeof(*c->conns));
		}
		k = c->conns[c->nconns++] = sb_xmalloc(sizeof(*k));
	}
	*k = (struct conn){ .fd = fd, .peer = peer };
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.ptr = k };
	epoll_ctl(c->ep, EPOLL_CTL_ADD, fd, &ev);
	return k;
}

static void drop_conn(struct client *c, struct conn *k)
{
	if (k->flow && k->flow->size)
		c->busy--;
	epoll_ctl(c->ep, EPOLL_CTL_DEL, k->fd, NULL);
	close(k->fd);
	k->fd = -1;
	k->flow = NULL;
}

static void send_request(struct client *c, struct conn *k)
{
	const struct sb_load_flow *f = k->flow;
	struct sb_load_req r = { .prio = f->prio, .size = f->size };
	snprintf(r.cc, sizeof(r.cc), "%s", f->cc);
	uint8_t buf[SB_LOAD_REQ_BYTES];
	sb_load_req_encode(&r, buf);
	int tos = sb_load_tos(f->prio);
	setsockopt(k->fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
	if (f->cc[0])
		setsockopt(k->fd, IPPROTO_TCP, TCP_CONGESTION, f->cc, (socklen_t)strlen(f->cc));
	/* 32 bytes into an idle connection's empty send buffer: all of it or a broken connection */
	if (send(k->fd, buf, sizeof(buf), MSG_NOSIGNAL) != (ssize_t)sizeof(buf)) {
		lose_flow(c, k, "the request could not be sent");
		drop_conn(c, k);
		return;
	}
	k->request_sent = true;
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = k };
	epoll_ctl(c->ep, EPOLL_CTL_MOD, k->fd, &ev);
}

/* Flow f is due: on an idle connection to its source, or on a new one. */
static void issue(struct client *c, const struct sb_load_flow *f)
{
	struct conn *k = NULL;
	for (size_t i = 0; c->o->reuse && i < c->nconns && !k; i++)
		if (c->conns[i]->fd >= 0 && c->conns[i]->peer == f->src && !c->conns[i]->flow && c->conns[i]->connected)
			k = c->conns[i];
	sb_time now = sb_load_now();
	c->issued++;
	if (!k && !(k = open_conn(c, f->src, f->cc))) {
		struct conn none = { .flow = f, .peer = f->src };
		lose_flow(c, &none, "no connection could be opened");
		return;
	}
	k->flow = f;
	k->left = f->size;
	k->issued = now;
	k->request_sent = false;
	if (f->size)
		c->busy++;
	if (k->connected)
		send_request(c, k);
}

static void on_event(struct client *c, struct conn *k, uint32_t events)
{
	if (!k->connected && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
		int e = 0;
		socklen_t len = sizeof(e);
		getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &e, &len);
		if (e) {
			lose_flow(c, k, e == ECONNREFUSED ? "connection refused" : "the connection failed");
			drop_conn(c, k);
			return;
		}
		k->connected = true;
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = k };
		epoll_ctl(c->ep, EPOLL_CTL_MOD, k->fd, &ev);
		if (k->flow)
			send_request(c, k);
		return;
	}
	if (!(events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
		return;
	static uint8_t sink[1 << 16];
	for (;;) {
		ssize_t r = recv(k->fd, sink, sizeof(sink), 0);
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
			/* a long-lived flow the server ends after the run's end is not lost */
			if (k->flow && (k->flow->size || sb_load_now() < c->t0 + c->run_end))
				lose_flow(c, k, r == 0 ? "the server closed the connection before the last byte"
						       : "the connection was reset before the last byte");
			drop_conn(c, k);
			return;
		}
		if (r < 0)
			return;
		if (!k->flow || !k->flow->size)
			continue;
		k->left -= (uint64_t)r < k->left ? (uint64_t)r : k->left;
		if (k->left == 0) {
			sb_load_measured_row(c->o->measured, k->flow, sb_load_now() - k->issued);
			c->completed++;
			k->flow = NULL;
			c->busy--;
			if (!c->o->reuse) {
				drop_conn(c, k);
				return;
			}
		}
	}
}

static void poll_once(struct client *c, sb_time until)
{
	sb_time now = sb_load_now();
	sb_time wait = until > now ? until - now : 0;
	if (wait > 100 * SB_MS)
		wait = 100 * SB_MS;
	struct timespec ts = { .tv_sec = (time_t)(wait / SB_SEC), .tv_nsec = (long)(wait % SB_SEC / SB_NS) };
	struct epoll_event evs[64];
	int n = epoll_pwait2(c->ep, evs, 64, &ts, NULL);
	for (int i = 0; i < n; i++) {
		struct conn *k = evs[i].data.ptr;
		if (k->fd >= 0)
			on_event(c, k, evs[i].events);
	}
}

/* Open `preopen` connections to every host this one requests from, and wait (2 s at most)
 * until they are up: a server that is not there is an error before time 0. */
static int preopen(struct client *c, const struct sb_load_plan *p, struct sb_error *err)
{
	/* per peer, the congestion control of the first flow from it (NULL: none) */
	const char **first = sb_xcalloc(c->nhosts, sizeof(*first));
	for (size_t i = 0; i < p->n; i++)
		if (p->flows[i].dst == c->o->host && !first[p->flows[i].src])
			first[p->flows[i].src] = p->flows[i].cc;
	for (uint32_t h = 0; h < c->nhosts; h++)
		for (unsigned j = 0; first[h] && j < c->o->preopen; j++)
			open_conn(c, h, first[h]);
	free(first);
	sb_time deadline = sb_load_now() + 2 * SB_SEC;
	for (;;) {
		size_t up = 0, dead = 0;
		for (size_t i = 0; i < c->nconns; i++) {
			up += c->conns[i]->fd >= 0 && c->conns[i]->connected;
			dead += c->conns[i]->fd < 0;
		}
		if (dead)
			return sb_fail(err, "host %u: a server does not answer (connection refused or unreachable); is `sharebuf-load server --listen %u` running on every host?",
				       c->o->host, c->o->port);
		if (up == c->nconns) {
			/* fresh connections: these only showed that every server answers */
			for (size_t i = 0; !c->o->reuse && i < c->nconns; i++)
				drop_conn(c, c->conns[i]);
			return 0;
		}
		if (sb_load_now() > deadline || sb_load_stop)
			return sb_fail(err, "host %u: %zu of %zu connections to the servers not up after 2 s", c->o->host,
				       c->nconns - up, c->nconns);
		poll_once(c, deadline);
	}
}

int sb_load_play(const struct sb_load_plan *p, const struct sb_load_client_opts *o, struct sb_error *err)
{
	struct client c = { .o = o, .nhosts = p->sim.net.nhosts, .run_end = p->sim.stop_at };
	c.addr = sb_xcalloc(c.nhosts, sizeof(*c.addr));
	for (uint32_t h = 0; h < c.nhosts; h++) {
		c.addr[h].sin_family = AF_INET;
		c.addr[h].sin_addr.s_addr = htonl(0x0a000000u | (h + 1)); /* 10.0.0.<h+1> (docs/testbed.md) */
	}
	int rc = o->peers ? read_peers(&c, o->peers, err) : 0;
	c.ep = epoll_create1(EPOLL_CLOEXEC);
	if (rc == 0)
		rc = preopen(&c, p, err);
	if (rc == 0) {
		c.t0 = sb_load_now();
		sb_time end = c.t0 + p->sim.stop_at, give_up = end + o->grace;
		size_t next = 0;
		for (;;) {
			while (next < p->n && (p->flows[next].dst != o->host || c.t0 + p->flows[next].start <= sb_load_now())) {
				if (p->flows[next].dst == o->host)
					issue(&c, &p->flows[next]);
				next++;
			}
			sb_time now = sb_load_now();
			bool issued_all = next == p->n;
			if (sb_load_stop || now >= give_up || (issued_all && c.busy == 0 && now >= end))
				break;
			if (issued_all && c.busy == 0) {
				/* only long-lived flows left: they run to the end of the run */
				poll_once(&c, end);
				continue;
			}
			poll_once(&c, issued_all ? give_up : c.t0 + p->flows[next].start);
		}
	}
	/* finite flows still running now are unfinished, left out as a run leaves them out */
	size_t finite = 0;
	for (size_t i = 0; i < p->n; i++)
		finite += p->flows[i].dst == o->host && p->flows[i].size;
	if (rc == 0 && !sb_load_stop && c.lost)
		rc = sb_fail(err, "host %u: %zu of its %zu flows lost (flow %u from host %u: %s); a lost flow is the "
			     "testbed failing, not the network: no output is written", o->host, c.lost, c.issued,
			     c.lost_flow, c.lost_peer, c.lost_why);
	else if (rc == 0 && !sb_load_stop && finite && !c.completed)
		rc = sb_fail(err, "host %u: none of its %zu flows completed before the run's end plus %.17g ms of grace; "
			     "no output is written", o->host, finite, (double)o->grace / (double)SB_MS);
	for (size_t i = 0; i < c.nconns; i++) {
		if (c.conns[i]->fd >= 0)
			close(c.conns[i]->fd);
		free(c.conns[i]);
	}
	free(c.conns);
	free(c.addr);
	close(c.ep);
	return rc;
}
