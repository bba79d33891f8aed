/*
 * lines.h — reading a text input file (CDF, flow list) line by line, with the limits every such
 * file shares, so that no file can make a reader hang, allocate without bound or ignore part
 * of what it holds:
 *   - the file must be a regular file: /dev/zero, a FIFO or a directory would never end or
 *     never start (sb_lines_open);
 *   - a line is at most SB_LINE_MAX bytes: a file with no line breaks (a binary file) is
 *     refused at its first line instead of being read into memory whole;
 *   - a NUL byte is an error: C strings would end there and the rest of the line would be
 *     silently ignored.
 * Lines are handed out without their end ("\n" or "\r\n"). Errors read "NAME:LINE: what".
 */
#ifndef SB_LINES_H
#define SB_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/util.h"

#define SB_LINE_MAX 65536

struct sb_lines {
	FILE *f;
	const char *name; /* for messages; not owned */
	int line;         /* number of the line last returned, from 1 */
	char *buf;
	size_t start, end;
	bool eof, own;
};

/* fopen(path, "r") for a regular file only, without blocking on a FIFO: NULL with errno
 * EINVAL for a file that is not regular, or the errno of open(). */
FILE *sb_fopen_regular(const char *path);

/*
 * Open `path` for reading; `what` names the file in messages ("CDF file"). Returns 0, or the
 * errno of the failure (a non-regular file gives EINVAL) with err set to
 * "PATH: cannot read WHAT: reason".
 */
int sb_lines_open(struct sb_lines *r, const char *path, const char *what, struct sb_error *err);
/* Read from an open stream (tests, fuzzing harnesses: fmemopen); `f` stays the caller's. */
void sb_lines_init(struct sb_lines *r, FILE *f, const char *name);
/* 1 and the next line in *line (NUL-terminated, writable, valid until the next call), 0 at the
 * end of the file, -1 with err set. */
int sb_lines_next(struct sb_lines *r, char **line, struct sb_error *err);
void sb_lines_close(struct sb_lines *r);

#endif
