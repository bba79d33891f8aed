#include "workload/flowfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lines.h"
#include "workload/class.h"

enum { COL_START, COL_SRC, COL_DST, COL_SIZE, COL_PRIO, COL_TRANSPORT, COL_CLASS, COL_QUERY, NCOLS };

static const char *const col_name[NCOLS] = {
	"start_us", "src", "dst", "size_bytes", "priority", "transport", "class", "query",
};

#define HEADER6 "start_us,src,dst,size_bytes,priority,transport"
#define HEADER7 HEADER6 ",class"
#define HEADER8 HEADER7 ",query"
#define OPTIONAL "(optionally followed by `,class` or `,class,query`)"

/* Fields longer than this are cut in messages; the message buffer is 512 bytes. */
#define SHOW 60

struct reader {
	const char *path;
	int line;
	uint32_t nhosts;
	struct sb_error *err;
};

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* Split s in place at commas into at most max fields (trimmed); returns the field count,
 * which may exceed max (the extra fields are counted, not stored). */
static size_t split(char *s, char **field, size_t max)
{
	size_t n = 0;
	for (;;) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (n < max)
			field[n] = trim(s);
		n++;
		if (!comma)
			return n;
		s = comma + 1;
	}
}

static int col_fail(const struct reader *r, int col, const char *expected, const char *got)
{
	return sb_fail(r->err, "%s:%d: column %s: expected %s, got `%.*s`", r->path, r->line,
		       col_name[col], expected, SHOW, got);
}

/* A plain decimal number; strtod would also accept "nan", "inf" and hex floats. */
static int parse_decimal(const char *s, double *out)
{
	if (*s == '\0' || strspn(s, "0123456789.eE+-") != strlen(s))
		return -1;
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	return *end == '\0' && errno != ERANGE && isfinite(*out) ? 0 : -1;
}

static int parse_host(const struct reader *r, int col, const char *s, uint32_t *out)
{
	uint64_t v;
	if (sb_parse_digits(s, &v) < 0 || v >= r->nhosts) {
		char what[64];
		snprintf(what, sizeof(what), "a host index 0..%u", r->nhosts - 1);
		return col_fail(r, col, what, s);
	}
	*out = (uint32_t)v;
	return 0;
}

/* Returns the interned copy of name, adding it if new. */
static const char *intern(struct sb_flowfile *ff, const char *name)
{
	for (size_t i = ff->ntransports; i-- > 0;)
		if (strcmp(ff->transports[i], name) == 0)
			return ff->transports[i];
	ff->transports = sb_xrealloc(ff->transports, (ff->ntransports + 1) * sizeof(char *));
	return ff->transports[ff->ntransports++] = sb_xstrdup(name);
}

static int parse_record(const struct reader *r, char *s, size_t ncols, struct sb_flowfile *ff,
			struct sb_flow_record *rec)
{
	char *f[NCOLS];
	size_t n = split(s, f, NCOLS);
	const char *header = ncols == NCOLS ? HEADER8 : ncols == COL_QUERY ? HEADER7 : HEADER6;
	if (n < ncols)
		return sb_fail(r->err, "%s:%d: column %s: missing, expected %zu comma-separated fields "
			       "(%s), found %zu", r->path, r->line, col_name[n], ncols, header, n);
	if (n > ncols)
		return sb_fail(r->err, "%s:%d: column %zu: unexpected extra field, expected %zu "
			       "comma-separated fields (%s), found %zu", r->path, r->line, ncols + 1,
			       ncols, header, n);

	memset(rec, 0, sizeof(*rec));
	rec->line = r->line;
	/* bounded so that the start in picoseconds fits sb_time: 1e20 us once wrapped to t = 0 */
	if (parse_decimal(f[COL_START], &rec->start_us) < 0 || rec->start_us < 0 ||
	    rec->start_us > SB_FLOWFILE_MAX_START_US)
		return col_fail(r, COL_START, "a number of microseconds in [0, 1e10] (10^4 s, the longest run)",
				f[COL_START]);
	if (parse_host(r, COL_SRC, f[COL_SRC], &rec->src) < 0 ||
	    parse_host(r, COL_DST, f[COL_DST], &rec->dst) < 0)
		return -1;
	if (rec->src == rec->dst)
		return sb_fail(r->err, "%s:%d: column dst: expected a host other than src, got %u for both",
			       r->path, r->line, rec->dst);
	if (sb_parse_digits(f[COL_SIZE], &rec->size_bytes) < 0 || rec->size_bytes == 0)
		return col_fail(r, COL_SIZE, "a whole number of bytes >= 1", f[COL_SIZE]);
	uint64_t prio;
	if (sb_parse_digits(f[COL_PRIO], &prio) < 0 || prio > 7)
		return col_fail(r, COL_PRIO, "an integer priority 0..7", f[COL_PRIO]);
	rec->priority = (int)prio;
	if (f[COL_TRANSPORT][0] == '\0')
		return col_fail(r, COL_TRANSPORT, "a transport name (dctcp, cubic, ...)", "");
	rec->transport = intern(ff, f[COL_TRANSPORT]);
	rec->klass = SB_CLASS_LOSSY;
	if (ncols > COL_CLASS) {
		const char *k = f[COL_CLASS];
		if (strcmp(k, "lossless") == 0)
			rec->klass = SB_CLASS_LOSSLESS;
		else if (k[0] != '\0' && strcmp(k, "lossy") != 0)
			return col_fail(r, COL_CLASS, "lossy or lossless", k);
	}
	rec->query = -1;
	if (ncols > COL_QUERY && f[COL_QUERY][0] != '\0') {
		uint64_t q;
		if (sb_parse_digits(f[COL_QUERY], &q) < 0 || q > INT32_MAX)
			return col_fail(r, COL_QUERY, "a query id 0..2147483647, or nothing", f[COL_QUERY]);
		rec->query = (int64_t)q;
	}
	return 0;
}

/* Returns the column count the header declares (6, 7 or 8), or -1. */
static int parse_header(const struct reader *r, char *s)
{
	char shown[SHOW + 1];
	snprintf(shown, sizeof(shown), "%s", s);
	char *f[NCOLS];
	size_t n = split(s, f, NCOLS);
	int ok = n >= COL_CLASS && n <= NCOLS;
	for (size_t i = 0; ok && i < n; i++)
		ok = strcmp(f[i], col_name[i]) == 0;
	if (!ok)
		return sb_fail(r->err, "%s:%d: expected the header line `%s` " OPTIONAL ", got `%s`", r->path, r->line,
			       HEADER6, shown);
	return (int)n;
}

static int cmp_start(const void *a, const void *b)
{
	const struct sb_flow_record *x = a, *y = b;
	if (x->start_us != y->start_us)
		return x->start_us < y->start_us ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line); /* file order: qsort is not stable */
}

int sb_flowfile_next(struct sb_flowfile_cursor *c, struct sb_flow_record *rec, struct sb_error *err)
{
	struct reader r = { c->in.name, 0, c->nhosts, err };
	char *line = NULL;
	int got;
	while ((got = sb_lines_next(&c->in, &line, err)) > 0) {
		r.line = c->in.line;
		char *s = line;
		if (r.line == 1 && strncmp(s, "\xEF\xBB\xBF", 3) == 0)
			s += 3; /* UTF-8 byte-order mark, as spreadsheet exports write */
		s = trim(s);
		if (*s == '\0' || *s == '#')
			continue;
		if (c->ncols == 0) {
			if ((c->ncols = parse_header(&r, s)) < 0)
				return -1;
			continue;
		}
		return parse_record(&r, s, (size_t)c->ncols, c->names, rec) < 0 ? -1 : 1;
	}
	if (got < 0)
		return -1;
	if (c->ncols == 0)
		return sb_fail(err, "%s: expected the header line `%s` " OPTIONAL ", found no line", c->in.name, HEADER6);
	return 0;
}

int sb_flowfile_open(struct sb_flowfile_cursor *c, const char *path, uint32_t nhosts, struct sb_flowfile *names,
		     struct sb_error *err)
{
	memset(c, 0, sizeof(*c));
	if (nhosts == 0)
		return sb_fail(err, "%s: the topology has no hosts to send flows between", path);
	if (sb_lines_open(&c->in, path, "flow file", err))
		return -1;
	c->nhosts = nhosts;
	c->names = names;
	c->open = true;
	return 0;
}

void sb_flowfile_close(struct sb_flowfile_cursor *c)
{
	if (c->open)
		sb_lines_close(&c->in);
	c->open = false;
}

/* Every record, sorted by start (file order among equal starts). */
static int read_all(struct sb_flowfile_cursor *c, const char *path, struct sb_flowfile *out, struct sb_error *err)
{
	struct sb_flowfile ff = {0};
	c->names = &ff;
	size_t cap = 0;
	int got;
	for (;;) {
		if (ff.n == cap) {
			cap = cap ? 2 * cap : 256;
			ff.flows = sb_xrealloc(ff.flows, cap * sizeof(*ff.flows));
		}
		if ((got = sb_flowfile_next(c, &ff.flows[ff.n], err)) <= 0)
			break;
		ff.n++;
	}
	ff.path = sb_xstrdup(path);
	if (got < 0) {
		sb_flowfile_free(&ff);
		return -1;
	}
	if (ff.n > 1)
		qsort(ff.flows, ff.n, sizeof(*ff.flows), cmp_start);
	*out = ff;
	return 0;
}

int sb_flowfile_read(FILE *f, const char *name, uint32_t nhosts, struct sb_flowfile *out,
		     struct sb_error *err)
{
	memset(out, 0, sizeof(*out));
	if (nhosts == 0)
		return sb_fail(err, "%s: the topology has no hosts to send flows between", name);
	struct sb_flowfile_cursor c = { .nhosts = nhosts, .open = true };
	sb_lines_init(&c.in, f, name);
	int rc = read_all(&c, name, out, err);
	sb_flowfile_close(&c);
	return rc;
}

int sb_flowfile_load(const char *path, uint32_t nhosts, struct sb_flowfile *out,
		     struct sb_error *err)
{
	memset(out, 0, sizeof(*out));
	struct sb_flowfile_cursor c;
	if (sb_flowfile_open(&c, path, nhosts, NULL, err))
		return -1;
	int rc = read_all(&c, path, out, err);
	sb_flowfile_close(&c);
	return rc;
}

void sb_flowfile_free(struct sb_flowfile *ff)
{
	for (size_t i = 0; i < ff->ntransports; i++)
		free(ff->transports[i]);
	free(ff->transports);
	free(ff->flows);
	free(ff->path);
	memset(ff, 0, sizeof(*ff));
}
