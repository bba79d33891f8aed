/*
 * nstat.c — `nstat -az` outputs into summary.json's "tcp" counters (nstat.h).
 */
#include "load/nstat.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "core/lines.h"

/* Linux's counter -> the simulator's (docs/outputs.md lists the same pairs). */
static const struct {
	const char *name;
	size_t field;
} counters[] = {
	{ "TcpExtTCPTimeouts", offsetof(struct sb_tcp_counters, timeouts) },
	{ "TcpExtTCPSackRecoveryFail", offsetof(struct sb_tcp_counters, timeouts_in_recovery) },
	{ "TcpExtTCPSackFailures", offsetof(struct sb_tcp_counters, timeouts_sacked) },
	{ "TcpExtTCPLossFailures", offsetof(struct sb_tcp_counters, timeouts_repeated) },
	{ "TcpExtTCPSynRetrans", offsetof(struct sb_tcp_counters, syn_retransmits) },
	{ "TcpExtTCPSackRecovery", offsetof(struct sb_tcp_counters, recoveries) },
	{ "TcpExtTCPRenoRecovery", offsetof(struct sb_tcp_counters, recoveries) },
	{ "TcpExtTCPLossProbes", offsetof(struct sb_tcp_counters, loss_probes) },
	{ "TcpExtTCPLossProbeRecovery", offsetof(struct sb_tcp_counters, loss_probe_repairs) },
	{ "TcpRetransSegs", offsetof(struct sb_tcp_counters, retransmitted_segments) },
	{ "TcpExtTCPLostRetransmit", offsetof(struct sb_tcp_counters, lost_retransmits) },
};

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
		for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
			if (!strcmp(name, counters[i].name))
				*(uint64_t *)(void *)((char *)&p->sim.stats.tcp + counters[i].field) += v;
	}
	sb_lines_close(&r);
	return rc < 0 ? -1 : 0;
}
