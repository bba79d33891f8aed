/*
 * flowfile.h — a user-supplied list of flows (the `file` workload).
 *
 * CSV, one flow per line, after a header line that names the columns:
 *
 *     # comments and blank lines are allowed anywhere
 *     start_us,src,dst,size_bytes,priority,transport[,class[,query]]
 *     0,0,5,100000,1,dctcp
 *     12.5,3,5,2000000,3,dcqcn,lossless
 *
 * start_us   flow start in microseconds from the beginning of the run (0 .. 1e10, may be
 *            fractional; 1e10 us is the longest run, and larger values would not fit sb_time)
 * src, dst   host indices in 0..nhosts-1, different from each other
 * size_bytes bytes to transfer, >= 1
 * priority   0..7 (the switch queue the flow's data uses)
 * transport  a transport name; kept as text, the simulator checks that it exists
 * class      lossy | lossless (PFC-protected); only if the header has the column; an empty
 *            field means lossy
 * query      the id of the query this flow answers (flows with one id are the responses of
 *            one incast query: the workload gives them QCTs like generated incasts); only if
 *            the header has the column; an empty field means none
 *
 * The header fixes the column order and count; every line must have exactly as many fields.
 * Records come back sorted by start time, flows that start together in file order, so a file
 * always replays the same way. Errors read "FILE:LINE: column NAME: expected ...".
 */
#ifndef SB_FLOWFILE_H
#define SB_FLOWFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/lines.h"
#include "core/util.h"

struct sb_flow_record {
	double start_us;
	uint32_t src, dst;
	uint64_t size_bytes;
	int priority;          /* 0..7 */
	int klass;             /* SB_CLASS_LOSSY or SB_CLASS_LOSSLESS (workload/class.h) */
	const char *transport; /* points into sb_flowfile.transports */
	int64_t query;         /* the file's query id, or -1 */
	int line;              /* line in the file, for the simulator's own messages */
};

struct sb_flowfile {
	char *path;
	struct sb_flow_record *flows;
	size_t n;
	/* Distinct transport names, shared by the records: a million-flow file names a handful. */
	char **transports;
	size_t ntransports;
};

#define SB_FLOWFILE_MAX_START_US 1e10

/* Read and check `path` for a topology with `nhosts` hosts. On error fills err and returns -1
 * with *out left empty (safe to sb_flowfile_free). The file is read as src/core/lines.h says:
 * a regular file, lines of at most 64 KiB, no NUL byte. */
int sb_flowfile_load(const char *path, uint32_t nhosts, struct sb_flowfile *out,
		     struct sb_error *err);
/* The same from an open stream named `name` in messages (fuzzing harnesses: fmemopen). */
int sb_flowfile_read(FILE *f, const char *name, uint32_t nhosts, struct sb_flowfile *out,
		     struct sb_error *err);

void sb_flowfile_free(struct sb_flowfile *ff);

/* Reading a flow list one record at a time, in file order, with the same checks and messages
 * (the file workload streams a list that is in start order; workload/filefeed.h). */
struct sb_flowfile_cursor {
	struct sb_lines in;
	uint32_t nhosts;
	int ncols;                 /* of the header, once read */
	struct sb_flowfile *names; /* records' transport names are interned in names->transports */
	bool open;
};
/* Open `path` for a topology of `nhosts` hosts; -1 with err set. */
int sb_flowfile_open(struct sb_flowfile_cursor *c, const char *path, uint32_t nhosts, struct sb_flowfile *names,
		     struct sb_error *err);
/* 1 and the next record in *rec, 0 at the end of the file, -1 with err set ("FILE:LINE: ..."). */
int sb_flowfile_next(struct sb_flowfile_cursor *c, struct sb_flow_record *rec, struct sb_error *err);
void sb_flowfile_close(struct sb_flowfile_cursor *c);

#endif
