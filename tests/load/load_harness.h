/*
 * load_harness.h — what the load generator's test programs share (test_load.c,
 * realtime/test_load_net.c): a small scenario the testbed can play, the path of build/sharebuf-load
 * next to the test program, a file writer and a shell runner.
 */
#ifndef LOAD_HARNESS_H
#define LOAD_HARNESS_H

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <jansson.h>
#include "core/util.h"
#include "load/plan.h"
#include "testlib.h"

/* 4 hosts at 1 Gb/s, incast of fan-in 2 and Poisson background flows, 200 ms. */
static const char small[] =
	"run: { seed = 3; duration_ms = 200.0; arrivals_ms = 150.0; sample_interval_us = 1000.0; };\n"
	"topology: { type = \"single\"; hosts = 4; host_rate_gbps = 1.0; host_delay_us = 10.0; };\n"
	"switch: { scheme = \"dt\"; buffer_bytes = 200000; };\n"
	"tcp: { mss = 1448; header_bytes = 66; min_rto_us = 200000.0; };\n"
	"workloads = (\n"
	"  { type = \"incast\"; query_rate = 20.0; fanin = 2; size_bytes = 40000; responders = \"any\"; transport = \"cubic\"; prio = 2; },\n"
	"  { type = \"poisson\"; cdf = \"websearch\"; load = 0.05; dest = \"any\"; transport = \"newreno\"; prio = 1; }\n"
	");\n";

static char load_prog[4096];

static inline int sh(const char *fmt, ...) SB_PRINTF(1, 2);
static inline int sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	int rc = system(cmd);
	return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static inline char *write_file(const char *dir, const char *name, const char *text)
{
	char *p = tl_path_in(dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}


/* load_prog from the test program's argv[0]: BUILD/tests/NAME -> BUILD/sharebuf-load, or
 * BUILD/tests/realtime/NAME -> BUILD/sharebuf-load */
static inline void load_harness_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	snprintf(load_prog, sizeof(load_prog), "%.*s/../sharebuf-load", slash ? (int)(slash - argv0) : 1,
		 slash ? argv0 : ".");
	if (access(load_prog, X_OK))
		snprintf(load_prog, sizeof(load_prog), "%.*s/../../sharebuf-load", slash ? (int)(slash - argv0) : 1,
			 slash ? argv0 : ".");
}

/* The testbed's plan of the scenario at `path`, or the test fails. */
static inline void open_plan(struct sb_load_plan *p, const char *path, const char *const *sets, size_t n)
{
	struct sb_error err = { "" };
	if (sb_load_plan_open(p, path, sets, n, &err))
		fail_msg("plan: %s", err.msg);
}

/* DIR/NAME as JSON, or the test fails. */
static inline json_t *load_json(const char *dir, const char *name)
{
	char *p = tl_path_in(dir, name);
	json_error_t e;
	json_t *j = json_load_file(p, 0, &e);
	if (!j)
		fail_msg("%s: %s", p, e.text);
	free(p);
	return j;
}

#endif
