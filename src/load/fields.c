/*
 * fields.c — strict reading of the load generator's input fields (fields.h).
 */
#include "load/fields.h"
#include "core/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int sb_load_field_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v;
	if (sb_parse_digits(s, &v))
		return -1;
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int sb_load_field_real(const char *s, double lo, double hi, double *out)
{
	/* a leading '-' only: "-0.5" is a number (out of range, not garbage); strtod alone would
	 * take "nan", "inf" and "0x1p3" */
	const char *body = *s == '-' ? s + 1 : s;
	if (*body < '0' || *body > '9' || strspn(body, "0123456789.eE+-") != strlen(body))
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(v) || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

int sb_load_fields_split(char *line, char **field, int max)
{
	int n = 0;
	for (char *s = line;; s++) {
		if (n < max)
			field[n] = s;
		n++;
		s = strchr(s, ',');
		if (!s)
			return n;
		*s = '\0';
	}
}
