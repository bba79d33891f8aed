/*
 * test_load_net.c — the load generator's sockets when things go wrong (src/load/server.c,
 * client.c; docs/testbed.md): the server at its descriptor limit (no spin, still serving,
 * silent connections closed after --idle-ms) and against bad peers (garbage, a request cut
 * short, a reset in the middle of a response: each closed and counted in its stats line), and
 * the client's failure when it lost flows or completed none, and a whole run over loopback.
 * Every socket is on 127.0.0.1; each test is bounded in time (a few seconds) and asserts
 * counts, not timings. Still, what a server has read when it is stopped depends on the
 * machine's scheduling: these are real-time tests (make test-realtime), not `make test`'s.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "load/proto.h"
#include "../load/load_harness.h"

/* A loopback port of this test program, k-th of its own (test_load's loopback run takes
 * 20000 + pid % 20000 of its own process). */
static int test_port(int k) { return 20000 + (int)((getpid() + 7919 * k) % 20000); }

/* `sharebuf-load server --listen PORT --idle-ms IDLE` (0: without the option) with at most
 * `nofile` descriptors (0: the test's limit), stderr into errpath; returns once it accepts
 * connections. */
static pid_t start_server(int port, int idle_ms, int nofile, const char *errpath)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* a test that fails half-way leaves no server behind */
		int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(127);
		close_range(3, ~0u, 0); /* nothing of the test's: the server's descriptors are its own */
		if (nofile) {
			struct rlimit rl = { .rlim_cur = (rlim_t)nofile, .rlim_max = (rlim_t)nofile };
			if (setrlimit(RLIMIT_NOFILE, &rl))
				_exit(127);
		}
		char p[16], idle[16];
		snprintf(p, sizeof(p), "%d", port);
		snprintf(idle, sizeof(idle), "%d", idle_ms);
		if (idle_ms)
			execl(load_prog, load_prog, "server", "--listen", p, "--idle-ms", idle, (char *)NULL);
		else
			execl(load_prog, load_prog, "server", "--listen", p, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 100; i++) { /* 10 s at most */
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		int ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
		close(fd);
		if (ok)
			return pid;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	fail_msg("the server did not listen on port %d", port);
	return -1;
}

static int connect_lo(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

/* Read from fd until `want` bytes or the peer's close, `ms` at most; the bytes read, or -1
 * when the time ran out first. */
static long long read_for(int fd, long long want, int ms)
{
	static char buf[1 << 16];
	long long got = 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < want) {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		long left = ms - (long)((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		if (left <= 0 || poll(&pf, 1, (int)left) != 1)
			return -1;
		ssize_t r = recv(fd, buf, sizeof(buf), 0);
		if (r <= 0)
			break;
		got += r;
	}
	return got;
}

static void send_request(int fd, uint64_t size)
{
	struct sb_load_req r = { .prio = 0, .size = size };
	uint8_t buf[SB_LOAD_REQ_BYTES];
	sb_load_req_encode(&r, buf);
	assert_int_equal(send(fd, buf, sizeof(buf), MSG_NOSIGNAL), (ssize_t)sizeof(buf));
}

/* SIGTERM the server; its CPU time, and its closing stats line's value of `key`. */
static double stop_server(pid_t pid, const char *errpath, const char *const *keys, long long *values, size_t n)
{
	kill(pid, SIGTERM);
	int st;
	struct rusage ru;
	assert_int_equal(wait4(pid, &st, 0, &ru), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char *t = tl_slurp(errpath), *line = strstr(t, "sharebuf-load server: stats ");
	if (!line)
		fail_msg("no stats line from the server: %s", t);
	for (size_t i = 0; i < n; i++) {
		char k[64];
		snprintf(k, sizeof(k), " %s=", keys[i]);
		char *at = strstr(line, k);
		if (!at)
			fail_msg("no %s in `%s`", keys[i], line);
		values[i] = strtoll(at + strlen(k), NULL, 10);
	}
	free(t);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* At its descriptor limit the server must neither spin nor stop serving: accept() fails with
 * EMFILE while the connection waits in the backlog, so a level-triggered listener would be
 * readable for ever (100 % CPU for as long as the descriptors are held), and connections that
 * never speak held them for ever. With 8 descriptors (3 for connections), 8 clients that
 * connect and say nothing, then at 2 s a ninth with a request: the server stops polling its
 * listener, closes the silent ones 1.5 s after it accepted them (3 at a time: at 1.5 s and
 * 3 s) and answers the ninth. Over the 3.5 s its loop wakes about 10 times a second (a spin:
 * millions) and its CPU time stays a small fraction of one core's. Loopback only. */
static void test_server_at_its_descriptor_limit(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *errpath = tl_path_in(dir, "server.err");
	int port = test_port(1);
	pid_t srv = start_server(port, 1500, 8, errpath);
	int held[8];
	for (int i = 0; i < 8; i++)
		held[i] = connect_lo(port); /* completes in the kernel's backlog, accepted or not */
	usleep(2000000);
	int fd = connect_lo(port);
	send_request(fd, 100000);
	long long got = read_for(fd, 100000, 10000);
	close(fd);
	for (int i = 0; i < 8; i++)
		close(held[i]);
	static const char *const keys[] = { "responses", "idle_closed", "fd_limit_pauses", "wakeups" };
	long long v[4];
	double cpu = stop_server(srv, errpath, keys, v, 4);
	print_message("server: %lld bytes served, CPU %.3f s, responses %lld, idle_closed %lld, fd_limit_pauses %lld, "
		      "wakeups %lld\n", got, cpu, v[0], v[1], v[2], v[3]);
	assert_int_equal(got, 100000);
	assert_int_equal(v[0], 1);
	/* the ninth was behind the eight in the backlog: it was accepted with the last two, after
	 * the first six had been closed idle */
	assert_true(v[1] >= 6);
	assert_true(v[2] >= 1);
	/* ~10 ticks a second and a few events; a spin wakes once per failed accept() */
	assert_true(v[3] < 500);
	assert_true(cpu < 0.25);
	free(errpath);
	tl_rmtree(dir);
	free(dir);
}

/* A client that sends garbage, one that closes in the middle of its request, and one that
 * resets its connection in the middle of a response: each connection is closed and counted in
 * the server's stats line, and the server goes on answering. */
static void test_server_closes_bad_peers(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *errpath = tl_path_in(dir, "server.err");
	int port = test_port(2);
	pid_t srv = start_server(port, 0, 0, errpath);
	/* garbage: 32 bytes that are not a request; the server closes (the read ends, no byte) */
	int g = connect_lo(port);
	char garbage[SB_LOAD_REQ_BYTES];
	memset(garbage, '.', sizeof(garbage));
	memcpy(garbage, "GET / HTTP/1.0\r\n\r\n", 18);
	assert_int_equal(send(g, garbage, sizeof(garbage), MSG_NOSIGNAL), (ssize_t)sizeof(garbage));
	assert_int_equal(read_for(g, 1, 5000), 0);
	close(g);
	/* half a request, then the close */
	int h = connect_lo(port);
	assert_int_equal(send(h, "SBL1", 4, MSG_NOSIGNAL), 4);
	close(h);
	/* 10^9 bytes asked for, 1000 read, then a reset (SO_LINGER 0): the server's send fails */
	int r = connect_lo(port);
	send_request(r, 1000000000ull);
	assert_int_equal(read_for(r, 1000, 5000) >= 1000, 1);
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	assert_int_equal(setsockopt(r, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)), 0);
	close(r);
	/* and a good client is still served */
	int ok = connect_lo(port);
	send_request(ok, 5000);
	assert_int_equal(read_for(ok, 5000, 5000), 5000);
	close(ok);
	usleep(300000); /* the server reads the last closes */
	static const char *const keys[] = { "requests", "responses", "protocol_errors", "peer_gone" };
	long long v[4];
	stop_server(srv, errpath, keys, v, 4);
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 1);
	assert_int_equal(v[2], 2);
	assert_int_equal(v[3], 1);
	free(errpath);
	tl_rmtree(dir);
	free(dir);
}

/* A fake server on 127.0.0.1: it accepts every connection, then closes it at once (`hold`
 * false) or keeps it and never answers. Returns its pid. */
static pid_t fake_server(int port, bool hold)
{
	int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(lfd, 64), 0);
	pid_t srv = fork();
	assert_true(srv >= 0);
	if (srv == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			int c = accept(lfd, NULL, NULL);
			if (c >= 0 && !hold)
				close(c);
		}
	}
	close(lfd);
	return srv;
}

/* The client against fake_server(hold): its exit status, and its stderr in *msg. */
static int client_against(const char *dir, const char *path, int port, bool hold, char **msg)
{
	pid_t srv = fake_server(port, hold);
	int rc = sh("timeout 60 '%s' client '%s' --host 0 --port %d --peers '%s/peers' --out '%s/h0' --grace-ms 200 2>'%s/err'",
		    load_prog, path, port, dir, dir, dir);
	kill(srv, SIGKILL);
	waitpid(srv, NULL, 0);
	char *e = tl_path_in(dir, "err");
	*msg = tl_slurp(e);
	free(e);
	return rc;
}

/* A client whose flows were lost fails (net.h, docs/testbed.md): a server that accepts each
 * connection and closes it at once answers the client's check before time 0, then loses every
 * flow. A server that never answers loses none, but the client completes none of its flows
 * before the run's end plus grace. Either way the client exits 1 saying so, and writes
 * nothing. */
static void test_client_fails_when_flows_are_lost(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small), *h0 = tl_path_in(dir, "h0");
	free(write_file(dir, "peers", "0 127.0.0.1\n1 127.0.0.1\n2 127.0.0.1\n3 127.0.0.1\n"));
	char *t;
	int rc = client_against(dir, path, test_port(3), false, &t);
	if (rc != 1 || !strstr(t, "host 0: ") || !strstr(t, "flows lost") ||
	    !strstr(t, "before the last byte")) /* closed, or reset: the request was never read */
		fail_msg("client: exit %d: %s", rc, t);
	assert_false(tl_exists(h0));
	free(t);
	rc = client_against(dir, path, test_port(4), true, &t);
	if (rc != 1 || !strstr(t, "host 0: none of its ") || !strstr(t, "flows completed before the run's end plus 200 ms"))
		fail_msg("client against a silent server: exit %d: %s", rc, t);
	assert_false(tl_exists(h0));
	free(t);
	free(h0);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

/* Real sockets over loopback, every host at 127.0.0.1 (moved here from test_load.c: a server
 * started, then a fixed 0.3 s sleep before the client, was a race on a loaded machine): the server answers, the client plays
 * host 0's flows and reports each one of them, and the report of its measured.csv is the
 * simulator's files. No root and no namespace needed. */
static void test_loopback_run(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), *path = write_file(dir, "s.cfg", small);
	free(write_file(dir, "peers", "0 127.0.0.1\n1 127.0.0.1\n2 127.0.0.1\n3 127.0.0.1\n"));
	int port = test_port(3);
	char *errpath = tl_path_in(dir, "server.err");
	pid_t srv = start_server(port, 0, 0, errpath); /* returns once it accepts connections */
	int rc = sh("timeout 60 '%s' client '%s' --host 0 --port %d --peers '%s/peers' --out '%s/h0' --grace-ms 500 2>'%s/err'",
		    load_prog, path, port, dir, dir, dir);
	kill(srv, SIGTERM);
	int st;
	waitpid(srv, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(errpath);
	if (rc != 0) {
		char *e = tl_path_in(dir, "err"), *t = tl_slurp(e);
		fail_msg("client: %d: %s", rc, t ? t : "");
	}
	struct sb_load_plan p;
	open_plan(&p, path, NULL, 0);
	size_t mine = 0;
	for (size_t k = 0; k < p.n; k++)
		mine += p.flows[k].dst == 0;
	assert_true(mine > 0);
	char *h0 = tl_path_in(dir, "h0");
	json_t *s = load_json(h0, "summary.json");
	assert_int_equal(json_integer_value(json_object_get(s, "flows_completed")), mine);
	json_decref(s);
	char *m = tl_path_in(h0, "measured.csv"), *rows = tl_slurp(m);
	size_t lines = 0;
	for (const char *c = rows; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, mine + 1);
	free(rows);
	free(m);
	free(h0);
	sb_load_plan_free(&p);
	tl_rmtree(dir);
	free(path);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	load_harness_init(argv[0]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_at_its_descriptor_limit),
		cmocka_unit_test(test_server_closes_bad_peers),
		cmocka_unit_test(test_client_fails_when_flows_are_lost),
		cmocka_unit_test(test_loopback_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
