/*
 * fuzz_flowfile.c — the flow-list reader (src/workload/flowfile.c), from memory. See fuzz.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "workload/flowfile.h"

#define HOSTS 64

int sb_fuzz_flowfile(const uint8_t *data, size_t size, struct sb_error *why)
{
	if (size == 0)
		return 0; /* fmemopen wants a buffer */
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	struct sb_flowfile ff;
	struct sb_error err = { "" };
	int rc = sb_flowfile_read(f, "fuzz.csv", HOSTS, &ff, &err);
	fclose(f);
	if (rc) {
		SB_FUZZ_CHECK(ff.flows == NULL && ff.n == 0, "a failed read left %zu records", ff.n);
		SB_FUZZ_CHECK(!strchr(err.msg, '\n') && err.msg[0], "message: %s", err.msg);
		if (why)
			*why = err;
	} else {
		/* the reader's contract (flowfile.h): checked records, sorted by start, file order on ties */
		for (size_t i = 0; i < ff.n; i++) {
			const struct sb_flow_record *r = &ff.flows[i];
			SB_FUZZ_CHECK(r->src < HOSTS && r->dst < HOSTS && r->src != r->dst, "line %d: hosts %u, %u", r->line,
				      r->src, r->dst);
			SB_FUZZ_CHECK(r->size_bytes >= 1 && r->priority >= 0 && r->priority <= 7, "line %d", r->line);
			SB_FUZZ_CHECK(r->start_us >= 0 && r->start_us <= SB_FLOWFILE_MAX_START_US, "line %d: start %g", r->line,
				      r->start_us);
			SB_FUZZ_CHECK(r->transport && *r->transport, "line %d: no transport", r->line);
			if (i)
				SB_FUZZ_CHECK(ff.flows[i - 1].start_us < r->start_us ||
						      (ff.flows[i - 1].start_us == r->start_us && ff.flows[i - 1].line < r->line),
					      "records out of order at line %d", r->line);
		}
	}
	sb_flowfile_free(&ff);
	return rc ? 1 : 0;
}

#ifdef SB_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sb_fuzz_flowfile(data, size, NULL);
	return 0;
}
#endif
