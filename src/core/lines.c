#include "core/lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Room for a whole line, its end and one block read ahead. */
#define BUF_SIZE (2 * SB_LINE_MAX + 2)

FILE *sb_fopen_regular(const char *path)
{
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	/* a regular file never blocks; clear the flag all the same */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	FILE *f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

int sb_lines_open(struct sb_lines *r, const char *path, const char *what, struct sb_error *err)
{
	memset(r, 0, sizeof(*r));
	FILE *f = sb_fopen_regular(path);
	if (!f && errno != EINVAL) {
		int e = errno;
		sb_fail(err, "%s: cannot read %s: %s", path, what, strerror(e));
		return e ? e : EIO;
	}
	if (!f) {
		struct stat st = { 0 };
		stat(path, &st);
		if (S_ISDIR(st.st_mode))
			sb_fail(err, "%s: cannot read %s: it is a directory", path, what);
		else
			sb_fail(err, "%s: cannot read %s: not a regular file (a device, pipe or socket might never end)",
				path, what);
		return EINVAL;
	}
	sb_lines_init(r, f, path);
	r->own = true;
	return 0;
}

void sb_lines_init(struct sb_lines *r, FILE *f, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->name = name;
	r->buf = sb_xmalloc(BUF_SIZE);
}

int sb_lines_next(struct sb_lines *r, char **line, struct sb_error *err)
{
	char *s, *nl;
	size_t len;
	for (;;) {
		s = r->buf + r->start;
		nl = memchr(s, '\n', r->end - r->start);
		if (nl) {
			len = (size_t)(nl - s);
			r->start += len + 1;
			break;
		}
		if (r->end - r->start > SB_LINE_MAX)
			return sb_fail(err, "%s:%d: line longer than %d bytes (is this a text file?)", r->name,
				       r->line + 1, SB_LINE_MAX);
		if (r->eof) {
			if (r->start == r->end)
				return 0;
			len = r->end - r->start; /* the last line, without a line break */
			r->start = r->end;
			break;
		}
		memmove(r->buf, s, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
		size_t got = fread(r->buf + r->end, 1, BUF_SIZE - 1 - r->end, r->f);
		if (got == 0) {
			if (ferror(r->f))
				return sb_fail(err, "%s:%d: read error: %s", r->name, r->line + 1,
					       strerror(errno ? errno : EIO));
			r->eof = true;
		}
		r->end += got;
	}
	r->line++;
	/* s + len is the '\n' or, for a last line, inside the buffer's spare byte */
	if (memchr(s, '\0', len))
		return sb_fail(err, "%s:%d: unexpected NUL byte (is this a text file?)", r->name, r->line);
	if (len && s[len - 1] == '\r')
		len--;
	s[len] = '\0';
	*line = s;
	return 1;
}

void sb_lines_close(struct sb_lines *r)
{
	if (r->own && r->f)
		fclose(r->f);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
