/*
 * dp_udp.c — build/dp-udp: the UDP traffic of the software switch's end-to-end test and
 * benchmark (tests/dataplane/test_dataplane_veth.c, bench/dataplane-bench.sh), run inside the hosts'
 * network namespaces.
 *
 *   dp-udp echo PORT [SECONDS]            answer every datagram to its sender (until SECONDS)
 *   dp-udp ping ADDR PORT COUNT [GAP_US]  COUNT round trips of a 64-byte datagram, one at a
 *                                         time, GAP_US apart; prints "rtt_us p50 p99 min lost"
 *   dp-udp blast ADDR PORT SECONDS [SIZE] send SIZE-byte datagrams (default 1472: 1514-byte
 *                                         frames) as fast as the socket takes them; prints
 *                                         "sent PACKETS"
 *   dp-udp sink PORT SECONDS              count what arrives; prints "received PACKETS BYTES"
 *
 * Exit 0 on success, 1 on a socket error, 2 on bad arguments.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int udp_socket(int port, double timeout_s)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("dp-udp: socket");
		exit(1);
	}
	if (port >= 0) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
		if (bind(fd, (struct sockaddr *)&a, sizeof(a))) {
			perror("dp-udp: bind");
			exit(1);
		}
	}
	if (timeout_s > 0) {
		struct timeval tv = { (time_t)timeout_s, (suseconds_t)((timeout_s - (double)(time_t)timeout_s) * 1e6) };
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	return fd;
}

static struct sockaddr_in peer(const char *addr, const char *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port)) };
	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "dp-udp: %s: expected an IPv4 address\n", addr);
		exit(2);
	}
	return a;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	char buf[65536];
	if (argc >= 3 && !strcmp(argv[1], "echo")) {
		double until = argc > 3 ? now_s() + atof(argv[3]) : 0;
		int fd = udp_socket(atoi(argv[2]), 0.2);
		while (!until || now_s() < until) {
			struct sockaddr_in from;
			socklen_t fl = sizeof(from);
			ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
			if (n >= 0)
				sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&from, fl);
		}
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "ping")) {
		struct sockaddr_in to = peer(argv[2], argv[3]);
		int count = atoi(argv[4]);
		double gap = argc > 5 ? atof(argv[5]) * 1e-6 : 0.001;
		if (count <= 0)
			return 2;
		int fd = udp_socket(-1, 0.2);
		double *rtt = calloc((size_t)count, sizeof(*rtt));
		int got = 0;
		for (int i = 0; i < count; i++) {
			memset(buf, 0, 64);
			memcpy(buf, &i, sizeof(i));
			double t0 = now_s();
			if (sendto(fd, buf, 64, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
				perror("dp-udp: sendto");
				return 1;
			}
			for (;;) {
				ssize_t n = recv(fd, buf, sizeof(buf), 0);
				if (n < 0)
					break; /* timeout: lost */
				int seq;
				memcpy(&seq, buf, sizeof(seq));
				if (seq == i) {
					rtt[got++] = (now_s() - t0) * 1e6;
					break;
				}
			}
			/* sleep, not spin: on a small machine a spinning client would take the CPU
			 * the echo server and the switch need */
			double left = t0 + gap - now_s();
			if (left > 0) {
				struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
				nanosleep(&ts, NULL);
			}
		}
		if (!got) {
			printf("rtt_us nan nan nan %d\n", count);
			return 1;
		}
		qsort(rtt, (size_t)got, sizeof(*rtt), cmp_double);
		printf("rtt_us %.2f %.2f %.2f %d\n", rtt[(got - 1) / 2], rtt[(int)((got - 1) * 0.99)], rtt[0], count - got);
		free(rtt);
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "blast")) {
		struct sockaddr_in to = peer(argv[2], argv[3]);
		double until = now_s() + atof(argv[4]);
		size_t size = argc > 5 ? (size_t)atoi(argv[5]) : 1472;
		if (size < 8 || size > 1472)
			return 2;
		int fd = udp_socket(-1, 0);
		if (connect(fd, (struct sockaddr *)&to, sizeof(to))) {
			perror("dp-udp: connect");
			return 1;
		}
		memset(buf, 0, size);
		uint64_t sent = 0;
		while (now_s() < until) {
			for (int i = 0; i < 64; i++)
				if (send(fd, buf, size, 0) == (ssize_t)size)
					sent++;
		}
		printf("sent %llu\n", (unsigned long long)sent);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "sink")) {
		double until = now_s() + atof(argv[3]);
		int fd = udp_socket(atoi(argv[2]), 0.1);
		int big = 8 << 20;
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
		uint64_t pkts = 0, bytes = 0;
		while (now_s() < until) {
			ssize_t n = recv(fd, buf, sizeof(buf), 0);
			if (n > 0) {
				pkts++;
				bytes += (uint64_t)n;
			}
		}
		printf("received %llu %llu\n", (unsigned long long)pkts, (unsigned long long)bytes);
		return 0;
	}
	fprintf(stderr, "usage: dp-udp echo PORT [S] | ping ADDR PORT COUNT [GAP_US] | blast ADDR PORT S [SIZE] | sink PORT S\n");
	return 2;
}
