/*
 * test_fuzz_regressions.c — every input that ever found a defect in a reader, replayed through
 * its fuzzing harness (fuzz/README.md) with the normal compiler in `make test` and under the
 * sanitizers in `make sanitize`: the harness checks the reader's contract (abort() on a broken
 * one), and this test checks what the reader must answer — each defect was an input accepted
 * in silence or never answered, so each must now be refused with the message below, or (the
 * ones whose defect was in what an accepted input did) accepted.
 *
 * A file in fuzz/regressions/HARNESS/ without a line in the table fails the test: a new
 * regression input comes with its expected answer. The seed corpora (fuzz/seeds/) are replayed
 * too, under the contract checks only.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../fuzz/fuzz.h"
#include "testlib.h"

typedef int (*harness_fn)(const uint8_t *data, size_t size, struct sb_error *why);

struct regression {
	const char *file;    /* in fuzz/regressions/ */
	const char *refused; /* a part of the reader's message, or NULL: accepted */
};

static const struct regression regressions[] = {
	/* sampling looped for ever on a curve with no mass above 0 bytes */
	{ "cdf/all-mass-at-zero.cdf", "fuzz.cdf:3: all of the probability is on sizes below 1 byte" },
	/* flow rates came from the curve's mean, 0 bytes included: 10^4 times too many flows. The
	 * curve is legal (a flow is at least 1 byte); the harness checks the mean it now uses. */
	{ "cdf/mass-at-zero.cdf", NULL },
	/* a defect of the harness: its check of that mean had no room for rounding */
	{ "cdf/mean-rounding.cdf", NULL },
	/* 1 - p0 with p0 = 1 - 9e-15 kept two digits: a flow mean of 1.0125 on a curve ending at 1 */
	{ "cdf/mean-cancellation.cdf", NULL },
	/* the NUL byte ended the line: "1000 0.5" was read and the rest of the line ignored */
	{ "cdf/nul-byte.cdf", "fuzz.cdf:2: " },
	{ "flowfile/nul-byte.csv", "fuzz.csv:2: " },
	/* 1e20 µs wrapped in picoseconds and the flow started at t = 0 */
	{ "flowfile/start-us-wraps.csv", "fuzz.csv:2: column start_us: " },
	/* drr_weight × drr_quantum_bytes wrapped (a zero quantum looped for ever at a host) */
	{ "scenario/drr-quantum-wraps.txt", "host.drr_quantum_bytes" },
	/* K_min·rate/ref overflowed the threshold's integer */
	{ "scenario/ecn-threshold-overflow.txt", NULL },
	/* a k = 64 fat-tree allocated until the machine killed the run; then refused by the
	 * estimate (36 GB of per-host tables), now accepted: its tables by rack take 13 MB */
	{ "scenario/fattree-64.txt", NULL },
	/* a line break quoted from the input made a message of two lines */
	{ "scenario/newline-in-message.txt", "unknown scheme \"a?b\"" },
	/* a missing "]" was accepted, and "alpha=[]" ignored */
	{ "scenario/set-list-brackets.txt", "run.sample_hosts" },
	/* "srcs=1,,2" added host 0 */
	{ "scenario/set-list-hole.txt", "workloads.0.srcs" },
	/* 0.1 ps rounded to 0 and turned sampling off */
	{ "scenario/time-rounds-to-zero.txt", "run.sample_interval_us" },
	/* a defect of the harness: an empty spec (one run of the default scenario, no base) has
	 * run arguments of three words, which its check took for too few */
	{ "sweep/empty-spec.cfg", NULL },
	/* the frame parser (the harness checks every field against the bytes): ports were read
	 * from the second fragment of a datagram, from Ethernet padding after a header-only
	 * packet, and TCP's fields from a header cut short of its data offset; each is still IP */
	{ "frame/later-fragment.bin", NULL },
	{ "frame/ports-in-padding.bin", NULL },
	{ "frame/tcp-header-cut.bin", NULL },
	/* an IPv4 total length (8) below its header's 20 bytes was read as IP */
	{ "frame/total-below-header.bin", "not IP: 54 bytes, EtherType 0x800" },
};

static harness_fn harness_of(const char *dir)
{
	if (!strcmp(dir, "scenario"))
		return sb_fuzz_scenario;
	if (!strcmp(dir, "flowfile"))
		return sb_fuzz_flowfile;
	if (!strcmp(dir, "cdf"))
		return sb_fuzz_cdf;
	if (!strcmp(dir, "sweep"))
		return sb_fuzz_sweep;
	if (!strcmp(dir, "frame"))
		return sb_fuzz_frame;
	return NULL;
}

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	*size = n;
	return buf;
}

/* Run `fn` on every regular file of `dir`; call `check` with each answer. Returns the count. */
static size_t replay(const char *root, const char *sub, void (*check)(const char *, int, const struct sb_error *))
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/%s", root, sub);
	harness_fn fn = harness_of(sub);
	assert_non_null(fn);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t count = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[1024], name[600];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(name, sizeof(name), "%s/%s", sub, e->d_name);
		size_t size;
		uint8_t *data = slurp(path, &size);
		struct sb_error why = { "" };
		int refused = fn(data, size, &why);
		free(data);
		if (check)
			check(name, refused, &why);
		count++;
	}
	closedir(d);
	return count;
}

static void check_regression(const char *name, int refused, const struct sb_error *why)
{
	const struct regression *r = NULL;
	for (size_t i = 0; i < sizeof(regressions) / sizeof(regressions[0]); i++)
		if (!strcmp(regressions[i].file, name))
			r = &regressions[i];
	if (!r)
		fail_msg("fuzz/regressions/%s has no expected answer in tests/cli/test_fuzz_regressions.c", name);
	print_message("%-40s %s%s\n", name, refused ? "refused: " : "accepted", refused ? why->msg : "");
	if (r->refused) {
		if (!refused)
			fail_msg("%s: accepted, expected refused with \"%s\"", name, r->refused);
		if (!strstr(why->msg, r->refused))
			fail_msg("%s: refused with \"%s\", expected \"%s\" in it", name, why->msg, r->refused);
	} else if (refused) {
		fail_msg("%s: refused with \"%s\", expected accepted", name, why->msg);
	}
}

static void test_regressions(void **state)
{
	(void)state;
	size_t n = 0;
	n += replay("fuzz/regressions", "scenario", check_regression);
	n += replay("fuzz/regressions", "flowfile", check_regression);
	n += replay("fuzz/regressions", "cdf", check_regression);
	n += replay("fuzz/regressions", "sweep", check_regression);
	n += replay("fuzz/regressions", "frame", check_regression);
	/* every line of the table has its file (a renamed file would otherwise go untested) */
	assert_int_equal(n, sizeof(regressions) / sizeof(regressions[0]));
}

/* The seeds are the repo's own example inputs; each must pass the contract checks, and the
 * documented example flow list must be accepted. */
static void check_seed(const char *name, int refused, const struct sb_error *why)
{
	if ((!strcmp(name, "flowfile/docs-example.csv") || !strncmp(name, "sweep/", 6)) && refused)
		fail_msg("%s: refused: %s", name, why->msg);
	bool not_ip = strstr(name, "frame/arp") || strstr(name, "frame/runt") || strstr(name, "frame/vlan");
	if (!strncmp(name, "frame/", 6) && refused != not_ip)
		fail_msg("%s: %s", name, refused ? why->msg : "read as IP");
}

static void test_seeds(void **state)
{
	(void)state;
	assert_true(replay("fuzz/seeds", "flowfile", check_seed) >= 3);
	/* the sweep specs of the seed corpus: each is a spec of docs/sweep.md, accepted */
	assert_true(replay("fuzz/seeds", "sweep", check_seed) >= 3);
	/* a frame of each kind the switch meets; the IP ones are read as IP */
	assert_true(replay("fuzz/seeds", "frame", check_seed) >= 10);
	/* the CDFs shipped in data/ are the CDF harness's seeds: every one is accepted */
	size_t n = 0;
	DIR *d = opendir("data/cdf");
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".cdf"))
			continue;
		char path[600];
		snprintf(path, sizeof(path), "data/cdf/%s", e->d_name);
		size_t size;
		uint8_t *data = slurp(path, &size);
		struct sb_error why = { "" };
		if (sb_fuzz_cdf(data, size, &why))
			fail_msg("%s: refused: %s", path, why.msg);
		free(data);
		n++;
	}
	closedir(d);
	assert_true(n >= 5);
	/* and a scenario that only shortens the built-in defaults is accepted */
	struct sb_error why = { "" };
	const char *text = "run: { duration_ms = 1.0; };\n";
	assert_int_equal(sb_fuzz_scenario((const uint8_t *)text, strlen(text), &why), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regressions),
		cmocka_unit_test(test_seeds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
