/*
 * registry.c — every transport by name. Adding a transport: write its file exporting a
 * struct sb_transport_ops and add one line to the list below.
 */
#include <stdio.h>
#include <string.h>
#include "transport/transport.h"

extern const struct sb_transport_ops sb_transport_dctcp, sb_transport_cubic, sb_transport_newreno,
	sb_transport_cbr, sb_transport_rdma, sb_transport_dcqcn, sb_transport_hpcc, sb_transport_powertcp,
	sb_transport_thetapowertcp, sb_transport_timely;

static const struct sb_transport_ops *const transports[] = {
	&sb_transport_dctcp,
	&sb_transport_cubic,
	&sb_transport_newreno,
	&sb_transport_cbr,
	&sb_transport_rdma,
	&sb_transport_dcqcn,
	&sb_transport_hpcc,
	&sb_transport_powertcp,
	&sb_transport_thetapowertcp,
	&sb_transport_timely,
	NULL,
};

const struct sb_transport_ops *sb_transport_find(const char *name)
{
	for (size_t i = 0; transports[i]; i++)
		if (strcmp(transports[i]->name, name) == 0)
			return transports[i];
	return NULL;
}

const struct sb_transport_ops *const *sb_transport_all(void) { return transports; }

void sb_transport_names(char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; transports[i] && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? "|" : "", transports[i]->name);
}
