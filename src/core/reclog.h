/*
 * reclog.h — a log of fixed-size records of any length in constant memory.
 *
 * A run logs things whose number grows with its simulated time, such as every PFC frame, to
 * write them out when it ends. Kept in memory, they made a long lossless run's memory grow
 * without bound. Here the records go through a buffer to an unlinked temporary file in
 * $TMPDIR (or /tmp), which disappears with the process however it ends, and are read back in
 * the order they were added. A log smaller than its buffer never touches a file (short runs
 * and tests).
 *
 * A file that cannot be created, written or read stops the program with the reason (a full
 * disk, say): an output written from a log with a hole in it would be wrong without a sign.
 */
#ifndef SB_RECLOG_H
#define SB_RECLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SB_RECLOG_BUFFER_BYTES 65536 /* held in memory before the first write to the file */

struct sb_reclog {
	size_t record_bytes;
	size_t buffered;      /* records in buf */
	size_t capacity;      /* records buf holds */
	unsigned char *buf;
	FILE *file;           /* the records written so far (NULL until the buffer first fills) */
	uint64_t n;           /* records added */
};

typedef void (*sb_reclog_fn)(void *ctx, const void *record);

/* A heap-allocated, empty log of records of `record_bytes` (at most SB_RECLOG_BUFFER_BYTES). */
struct sb_reclog *sb_reclog_new(size_t record_bytes);
void sb_reclog_add(struct sb_reclog *l, const void *record);
/* fn(ctx, record) for every record, in the order they were added; the log may grow again after. */
void sb_reclog_each(struct sb_reclog *l, sb_reclog_fn fn, void *ctx);
/* The i-th record added (0-based) into *record: for tests and the odd lookup, one read each. */
void sb_reclog_get(struct sb_reclog *l, uint64_t i, void *record);
void sb_reclog_free(struct sb_reclog *l);

/* An unlinked temporary file in $TMPDIR (or /tmp), open for reading and writing; exits with a
 * message naming `what` (whose temporary it is) if it cannot be made. Used by core/spill.c. */
FILE *sb_tmpfile(const char *what);
/* Exit with a message: `action` ("write", "read") on `what`'s temporary file failed. */
_Noreturn void sb_tmpfile_fail(const char *what, const char *action);

#endif
