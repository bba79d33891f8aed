#include "core/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n)
{
	fprintf(stderr, "sharebuf: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void *sb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *sb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

char *sb_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = 0;
	return s;
}

int sb_parse_digits(const char *s, uint64_t *out)
{
	if (*s == '\0')
		return -1;
	uint64_t v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

void *sb_xcalloc_aligned(size_t n, size_t size, size_t align)
{
	size_t bytes = (n ? n : 1) * (size ? size : 1);
	bytes = (bytes + align - 1) & ~(align - 1); /* aligned_alloc wants a multiple */
	void *p = aligned_alloc(align, bytes);
	if (!p)
		oom(bytes);
	memset(p, 0, bytes);
	return p;
}

void *sb_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *sb_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = sb_xmalloc(n);
	memcpy(d, s, n);
	return d;
}

int sb_fail(struct sb_error *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		/* A message is one line: a value quoted from the input (a string with a line break,
		 * a key with a control character) must not break it, or forge a line of its own. */
		for (char *c = err->msg; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = *c == '\t' ? ' ' : '?';
	}
	return -1;
}
