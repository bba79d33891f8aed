/*
 * fuzz.h — the entry points of the fuzzing harnesses (fuzz/README.md): one input in, the
 * reader under test run on it, and every invariant of its contract checked (abort() on a
 * violation, which libFuzzer reports as a finding). No harness writes a file, opens one (but
 * the built-in scenario and CDF tables), exits the process or keeps memory.
 *
 * The same functions are called by libFuzzer (LLVMFuzzerTestOneInput, `make fuzz`) and by
 * tests/cli/test_fuzz_regressions.c, which replays every input that ever found a defect
 * (fuzz/regressions/HARNESS/) with the normal compiler in `make test` and `make sanitize`.
 */
#ifndef SB_FUZZ_H
#define SB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include "core/util.h"

/* Each returns 0 when the reader accepted the input and 1 when it refused it, with its message
 * in *why (when not NULL): the regression test checks which inputs must be refused and how.
 * An input the harness does not try (a size or feature it skips) counts as accepted. */

/* A scenario text, then `--set KEY=VALUE` overrides: lines of the input that start with
 * "--set " (blanked in the text, so line numbers stay). Loaded, validated and, when it names
 * no file, its memory estimated. */
int sb_fuzz_scenario(const uint8_t *data, size_t size, struct sb_error *why);
/* A flow list, read from memory for a topology of 64 hosts. */
int sb_fuzz_flowfile(const uint8_t *data, size_t size, struct sb_error *why);
/* A CDF file, read from memory; when accepted, sampled and its quantiles checked. */
int sb_fuzz_cdf(const uint8_t *data, size_t size, struct sb_error *why);
/* An Ethernet frame, parsed by the software switch (src/dataplane/frame.c) and marked CE;
 * "refused" is a frame the switch does not read as IP (its control path), with why naming
 * its length and EtherType. */
int sb_fuzz_frame(const uint8_t *data, size_t size, struct sb_error *why);

/* A sweep spec (src/cli/sweep_spec.c), read from memory over the embedded default scenario,
 * with at most 64 runs; inputs that would open a file (base, extract, @include, a CDF or flow
 * list) are skipped. */
int sb_fuzz_sweep(const uint8_t *data, size_t size, struct sb_error *why);

/* Abort with a message when `cond` is false: a broken contract is a finding. */
#define SB_FUZZ_CHECK(cond, ...)                                     \
	do {                                                         \
		if (!(cond)) {                                       \
			fprintf(stderr, "fuzz: contract broken: " __VA_ARGS__); \
			fputc('\n', stderr);                         \
			abort();                                     \
		}                                                    \
	} while (0)

#endif
