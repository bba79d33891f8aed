/*
 * reclog.c — fixed-size records through a buffer to an unlinked temporary file (reclog.h).
 */
#include "core/reclog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/util.h"

_Noreturn void sb_tmpfile_fail(const char *what, const char *action)
{
	fprintf(stderr, "sharebuf: cannot %s the temporary file of %s (TMPDIR or /tmp): %s\n", action, what,
		strerror(errno));
	exit(1);
}

FILE *sb_tmpfile(const char *what)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/sharebuf-tmp.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		sb_tmpfile_fail(what, "create");
	unlink(path); /* gone with the process, however it ends */
	FILE *f = fdopen(fd, "w+b");
	if (!f)
		sb_tmpfile_fail(what, "open");
	return f;
}

struct sb_reclog *sb_reclog_new(size_t record_bytes)
{
	struct sb_reclog *l = sb_xcalloc(1, sizeof(*l));
	l->record_bytes = record_bytes;
	l->capacity = SB_RECLOG_BUFFER_BYTES / record_bytes;
	l->buf = sb_xmalloc(l->capacity * record_bytes);
	return l;
}

static void flush_buffer(struct sb_reclog *l)
{
	if (!l->file)
		l->file = sb_tmpfile("a run's log");
	if (fwrite(l->buf, l->record_bytes, l->buffered, l->file) != l->buffered)
		sb_tmpfile_fail("a run's log", "write");
	l->buffered = 0;
}

void sb_reclog_add(struct sb_reclog *l, const void *record)
{
	if (l->buffered == l->capacity)
		flush_buffer(l);
	memcpy(l->buf + l->buffered * l->record_bytes, record, l->record_bytes);
	l->buffered++;
	l->n++;
}

void sb_reclog_each(struct sb_reclog *l, sb_reclog_fn fn, void *ctx)
{
	if (l->file) {
		/* the file's records first (they are the older ones), read back into a scratch buffer */
		unsigned char *chunk = sb_xmalloc(l->capacity * l->record_bytes);
		if (fflush(l->file) || fseek(l->file, 0, SEEK_SET))
			sb_tmpfile_fail("a run's log", "read");
		size_t got;
		while ((got = fread(chunk, l->record_bytes, l->capacity, l->file)) > 0)
			for (size_t i = 0; i < got; i++)
				fn(ctx, chunk + i * l->record_bytes);
		if (ferror(l->file) || fseek(l->file, 0, SEEK_END))
			sb_tmpfile_fail("a run's log", "read");
		free(chunk);
	}
	for (size_t i = 0; i < l->buffered; i++)
		fn(ctx, l->buf + i * l->record_bytes);
}

void sb_reclog_get(struct sb_reclog *l, uint64_t i, void *record)
{
	uint64_t in_file = l->n - l->buffered;
	if (i >= in_file) {
		memcpy(record, l->buf + (i - in_file) * l->record_bytes, l->record_bytes);
		return;
	}
	if (fflush(l->file) || fseek(l->file, (long)(i * l->record_bytes), SEEK_SET) ||
	    fread(record, l->record_bytes, 1, l->file) != 1 || fseek(l->file, 0, SEEK_END))
		sb_tmpfile_fail("a run's log", "read");
}

void sb_reclog_free(struct sb_reclog *l)
{
	if (!l)
		return;
	if (l->file)
		fclose(l->file);
	free(l->buf);
	free(l);
}
