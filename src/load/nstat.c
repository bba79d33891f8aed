/*
 * nstat.c — `nstat -az` outputs into summary.json's "tcp" counters (nstat.h).
 */
#include "load/nstat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/lines.h"
#include "sim/report.h"

int sb_load_nstat(struct sb_load_plan *p, const char *path, struct sb_error *err)
{
	struct sb_lines r;
	if (sb_lines_open(&r, path, "nstat output", err))
		return -1;
	char *line;
	int rc;
	while ((rc = sb_lines_next(&r, &line, err)) == 1) {
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		char *name = strtok(line, " \t");
		char *value = strtok(NULL, " \t");
		char *end = NULL;
		errno = 0;
		uint64_t v = value ? strtoull(value, &end, 10) : 0;
		if (!value || value[0] == '-' || errno || end == value || *end) {
			rc = -1;
			sb_fail(err, "%s:%d: %s: expected a counter's name and a whole number (nstat -az's \"NAME VALUE RATE\")",
				path, r.line, name);
			break;
		}
		for (size_t i = 0; i < sb_tcp_ncounter_keys; i++) {
			const struct sb_tcp_counter_key *k = &sb_tcp_counter_keys[i];
			if (!strcmp(name, k->linux_name) || (k->linux_also && !strcmp(name, k->linux_also)))
				*(uint64_t *)(void *)((char *)&p->sim.flows.stats.tcp + k->offset) += v;
		}
	}
	sb_lines_close(&r);
	return rc < 0 ? -1 : 0;
}
