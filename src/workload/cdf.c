#include "workload/cdf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lines.h"

/* Sizes are kept as doubles for interpolation; above 2^53 they would stop being exact. */
#define CDF_MAX_SIZE 9007199254740992.0

#define EXPECT_LINE "expected two numbers `size_bytes cumulative_probability`"

/* Where a point came from: "FILE:LINE" for files, "NAME: point K" for sb_cdf_from_points. */
struct where {
	const char *name;
	int line;     /* > 0 for files */
	size_t index; /* 1-based, for point lists */
};

static void where_text(const struct where *w, char *buf, size_t n)
{
	if (w->line > 0)
		snprintf(buf, n, "%s:%d", w->name, w->line);
	else
		snprintf(buf, n, "%s: point %zu", w->name, w->index);
}

/* Sizes print as integers when they are whole, so "size 30000000" rather than "3e+07". */
static void size_text(double s, char *buf, size_t n)
{
	if (s == floor(s) && fabs(s) <= 1e300)
		snprintf(buf, n, "%.0f", s);
	else
		snprintf(buf, n, "%.15g", s);
}

/* Check one point on its own and against its predecessor (NULL for the first). */
static int check_point(const struct where *w, const struct sb_cdf_point *prev,
		       const struct sb_cdf_point *cur, struct sb_error *err)
{
	char at[300], a[64], b[64];
	where_text(w, at, sizeof(at));
	size_text(cur->size, a, sizeof(a));
	if (!isfinite(cur->size) || !isfinite(cur->prob))
		return sb_fail(err, "%s: " EXPECT_LINE ", got a value that is not a finite number", at);
	if (cur->size < 0)
		return sb_fail(err, "%s: size %s is negative, expected a byte count >= 0", at, a);
	if (cur->size != floor(cur->size))
		return sb_fail(err, "%s: size %s is not a whole number of bytes", at, a);
	if (cur->size > CDF_MAX_SIZE)
		return sb_fail(err, "%s: size %s is too large, expected at most 2^53 bytes", at, a);
	if (cur->prob < 0 || cur->prob > 1)
		return sb_fail(err, "%s: cumulative probability %.15g is outside [0,1]%s", at, cur->prob,
			       cur->prob > 1 && cur->prob <= 100 ? " (a percentile? divide by 100)" : "");
	if (prev && cur->size < prev->size) {
		size_text(prev->size, b, sizeof(b));
		return sb_fail(err, "%s: CDF is not monotone: size %s is smaller than the previous size %s",
			       at, a, b);
	}
	if (prev && cur->prob < prev->prob)
		return sb_fail(err,
			       "%s: CDF is not monotone: cumulative probability %.15g is smaller than the "
			       "previous %.15g",
			       at, cur->prob, prev->prob);
	return 0;
}

/*
 * P(a draw rounds to 0 bytes) = F(0.5) of the piecewise-linear curve through pts (whole sizes,
 * starting at probability 0), the share of draws sb_cdf_sample throws away; *sized gets the
 * rest, 1 - F(0.5), as (the part of the segment across 0.5 above it) + (1 - F at its end).
 * Both differences are of nearby probabilities, so exact or nearly: 1 - F(0.5) itself loses
 * all but a few digits when F(0.5) is within 1e-14 of 1, and the flow mean divides by it.
 */
static double zero_share(const struct sb_cdf_point *pts, size_t n, double *sized)
{
	if (pts[0].size > 0.5) {
		*sized = 1;
		return 0; /* nothing below the first point, whose probability is 0 */
	}
	size_t k = 0;
	while (k + 1 < n && pts[k + 1].size <= 0.5)
		k++;
	if (k + 1 == n) {
		*sized = 1 - pts[k].prob;
		return pts[k].prob;
	}
	double frac = (0.5 - pts[k].size) / (pts[k + 1].size - pts[k].size);
	double rise = pts[k + 1].prob - pts[k].prob;
	*sized = rise * (1 - frac) + (1 - pts[k + 1].prob);
	return pts[k].prob + rise * frac;
}

/* Checks that need the whole list, then take ownership of pts (grown by one if needed).
 * `sized` is the first point of at least 1 byte (line 0 / index 0: none). */
static int finish(struct sb_cdf *c, const char *name, struct sb_cdf_point *pts, size_t n,
		  const struct where *last, const struct where *sized, struct sb_error *err)
{
	char at[300];
	memset(c, 0, sizeof(*c));
	if (n < 2) {
		free(pts);
		return sb_fail(err, "%s: expected at least 2 points (`size_bytes cumulative_probability`), "
			       "found %zu", name, n);
	}
	where_text(last, at, sizeof(at));
	if (pts[n - 1].prob != 1.0) {
		double last_p = pts[n - 1].prob;
		free(pts);
		return sb_fail(err, "%s: last cumulative probability is %.15g, expected exactly 1", at,
			       last_p);
	}
	if (pts[n - 1].size < 1) {
		free(pts);
		/* Would make the redraw-zero loop in sb_cdf_sample spin forever. */
		return sb_fail(err, "%s: largest size is 0, expected at least 1 byte", at);
	}
	if (pts[0].prob > 0) {
		/* The ns3-datacenter convention: mass below the first point is spread from 0 bytes. */
		pts = sb_xrealloc(pts, (n + 1) * sizeof(*pts));
		memmove(pts + 1, pts, n * sizeof(*pts));
		pts[0] = (struct sb_cdf_point){0, 0};
		n++;
	}
	/* Sizes that round to 0 bytes are never drawn (see cdf.h). A curve with nothing else
	 * has no flow to give: its sampling once looped for ever. */
	double sized_share;
	double zero = zero_share(pts, n, &sized_share);
	if (!(zero < 1 && sized_share > 0)) {
		where_text(sized->line || sized->index ? sized : last, at, sizeof(at));
		free(pts);
		return sb_fail(err, "%s: all of the probability is on sizes below 1 byte (a flow of 0 bytes "
			       "is not a flow), expected some probability on sizes of at least 1 byte", at);
	}
	c->name = sb_xstrdup(name);
	c->points = pts;
	c->n = n;
	c->mean = sb_cdf_mean(c);
	c->zero_share = zero;
	c->sized_share = sized_share;
	return 0;
}

int sb_cdf_from_points(struct sb_cdf *c, const char *name, const struct sb_cdf_point *pts,
		       size_t n, struct sb_error *err)
{
	struct where w = {name, 0, 0}, sized = {name, 0, 0};
	for (size_t i = 0; i < n; i++) {
		w.index = i + 1;
		if (check_point(&w, i ? &pts[i - 1] : NULL, &pts[i], err) < 0) {
			memset(c, 0, sizeof(*c));
			return -1;
		}
		if (pts[i].size >= 1 && !sized.index)
			sized = w;
	}
	struct sb_cdf_point *copy = sb_xmalloc((n ? n : 1) * sizeof(*copy));
	if (n)
		memcpy(copy, pts, n * sizeof(*copy));
	return finish(c, name, copy, n, &w, &sized, err);
}

/*
 * One number in plain decimal notation. strtod alone would also take "nan", "inf" and hex
 * floats, none of which belongs in a CDF, so the token's characters are checked first.
 */
static int parse_number(const char **pp, double *out)
{
	const char *p = *pp;
	size_t len = strspn(p, "0123456789.eE+-");
	char buf[64];
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	char *end;
	errno = 0;
	*out = strtod(buf, &end);
	if (*end != '\0' || errno == ERANGE)
		return -1;
	*pp = p + len;
	return 0;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Parse "SIZE PROB" (blank- or comma-separated) from a line already stripped of comments. */
static int parse_pair(const char *s, struct sb_cdf_point *pt)
{
	const char *p = skip_blanks(s);
	if (parse_number(&p, &pt->size) < 0)
		return -1;
	const char *q = skip_blanks(p);
	if (*q == ',')
		q = skip_blanks(q + 1);
	else if (q == p)
		return -1; /* "12abc": no separator */
	if (parse_number(&q, &pt->prob) < 0)
		return -1;
	q = skip_blanks(q);
	return *q == '\0' ? 0 : -1;
}

static void append_builtin_names(char *buf, size_t n)
{
	size_t len = strlen(buf);
	for (size_t i = 0; i < sb_cdf_nbuiltins && len < n; i++) {
		snprintf(buf + len, n - len, "%s%s", i ? ", " : "", sb_cdf_builtins[i].name);
		len = strlen(buf);
	}
}

/* The points of an open file, checked one by one, then as a whole (finish). */
static int read_lines(struct sb_cdf *c, struct sb_lines *in, struct sb_error *err)
{
	const char *path = in->name;
	struct sb_cdf_point *pts = NULL;
	size_t n = 0, cap = 0;
	char *line = NULL;
	struct where w = {path, 0, 0}, last = {path, 0, 0}, sized = {path, 0, 0};
	int rc = 0, got;
	while ((got = sb_lines_next(in, &line, err)) > 0) {
		w.line = in->line;
		line[strcspn(line, "#")] = '\0';
		const char *s = skip_blanks(line);
		if (*s == '\0')
			continue;
		struct sb_cdf_point pt;
		if (parse_pair(s, &pt) < 0) {
			size_t len = strlen(s);
			while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
				len--;
			rc = sb_fail(err, "%s:%d: " EXPECT_LINE ", got `%.*s`", path, w.line,
				     (int)SB_MIN(len, 80), s);
			break;
		}
		if (check_point(&w, n ? &pts[n - 1] : NULL, &pt, err) < 0) {
			rc = -1;
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			pts = sb_xrealloc(pts, cap * sizeof(*pts));
		}
		pts[n++] = pt;
		last = w;
		if (pt.size >= 1 && !sized.line)
			sized = w;
	}
	if (got < 0)
		rc = -1;
	if (rc < 0) {
		free(pts);
		memset(c, 0, sizeof(*c));
		return -1;
	}
	return finish(c, path, pts, n, &last, &sized, err);
}

int sb_cdf_read(struct sb_cdf *c, FILE *f, const char *name, struct sb_error *err)
{
	struct sb_lines in;
	sb_lines_init(&in, f, name);
	int rc = read_lines(c, &in, err);
	sb_lines_close(&in);
	return rc;
}

static int load_file(struct sb_cdf *c, const char *path, struct sb_error *err)
{
	memset(c, 0, sizeof(*c));
	struct sb_lines in;
	int e = sb_lines_open(&in, path, "CDF file", err);
	if (e == ENOENT && !strchr(path, '/')) {
		char names[256] = "";
		append_builtin_names(names, sizeof(names));
		return sb_fail(err, "%s: cannot read CDF file: %s (and it is not a built-in "
			       "distribution: %s)", path, strerror(e), names);
	}
	if (e)
		return -1;
	int rc = read_lines(c, &in, err);
	sb_lines_close(&in);
	return rc;
}

int sb_cdf_load(struct sb_cdf *c, const char *name_or_path, struct sb_error *err)
{
	const struct sb_cdf_builtin *b = sb_cdf_builtin_find(name_or_path);
	if (b)
		return sb_cdf_from_points(c, b->name, b->points, b->n, err);
	return load_file(c, name_or_path, err);
}

double sb_cdf_quantile(const struct sb_cdf *c, double u)
{
	const struct sb_cdf_point *p = c->points;
	/* First k with p[k].prob > u: p[k-1].prob <= u < p[k].prob, so the segment has mass and
	 * zero-mass stretches (websearch's 0..2000 B) are skipped. p[0].prob == 0 <= u. */
	size_t lo = 1, hi = c->n - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid].prob > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (p[lo].prob <= u)
		return p[lo].size; /* u >= 1: only reachable by direct callers */
	double t = (u - p[lo - 1].prob) / (p[lo].prob - p[lo - 1].prob);
	return p[lo - 1].size + t * (p[lo].size - p[lo - 1].size);
}

uint64_t sb_cdf_sample(const struct sb_cdf *c, struct sb_rng *r)
{
	double u = sb_rng_uniform(r);
	/* u in [p0, 1): exactly the draws that round to 1 byte or more, each as likely as before
	 * (no change at all for the curves with p0 = 0, every built-in but three) */
	if (c->zero_share > 0)
		u = c->zero_share + u * c->sized_share;
	/* Round to nearest: unbiased, and stays in [min, max] because the points are whole. */
	uint64_t s = (uint64_t)floor(sb_cdf_quantile(c, u) + 0.5);
	return s ? s : 1; /* only a rounding error of u = p0 lands below 0.5 bytes */
}

double sb_cdf_flow_mean(const struct sb_cdf *c)
{
	/* Rounding to whole bytes keeps the mean of every segment (its ends are whole), and the
	 * sizes that round to 0 contribute 0 to it: leaving them out divides it by 1 - p0. */
	return c->mean / c->sized_share;
}

double sb_cdf_mean(const struct sb_cdf *c)
{
	double m = 0;
	for (size_t k = 1; k < c->n; k++)
		m += (c->points[k].prob - c->points[k - 1].prob) *
		     (c->points[k - 1].size + c->points[k].size) / 2;
	return m;
}

double sb_cdf_min(const struct sb_cdf *c)
{
	size_t k = 0;
	while (k + 1 < c->n && c->points[k + 1].prob == 0)
		k++;
	return c->points[k].size;
}

double sb_cdf_max(const struct sb_cdf *c) { return c->points[c->n - 1].size; }

void sb_cdf_free(struct sb_cdf *c)
{
	free(c->name);
	free(c->points);
	memset(c, 0, sizeof(*c));
}
