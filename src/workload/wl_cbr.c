/*
 * wl_cbr.c — constant-bit-rate senders without congestion control (transport cbr), from each
 * host of `srcs` to `dst`.
 */
#include <string.h>
#include "transport/cbr.h"
#include "workload/endpoints.h"
#include "workload/wl_params.h"

#define P(f) offsetof(struct sb_wl_cbr, f)

/* A CBR source is a transport of its own (no congestion control), hence the default. */
static const struct sb_param cbr_params[] = {
	SB_WORKLOAD_COMMON_PARAMS(struct sb_wl_cbr, "cbr", "must be cbr: the constant-rate transport (no congestion control, no ACKs, no retransmissions)"),
	SB_WORKLOAD_ENDPOINT_PARAMS(struct sb_wl_cbr),
	{ "size_bytes", SB_P_INT, P(ep.size_bytes), "0", 0, 1e15, "bytes", NULL,
	  "bytes each source sends; 0 = unlimited, the source sends until the end of the run" },
	{ "rate_gbps", SB_P_DOUBLE, P(rate_gbps), "10", 0.001, 10000, "Gb/s", NULL,
	  "constant sending rate of each source, on the wire, without congestion control" },
	{ "packet_bytes", SB_P_INT, P(packet_bytes), "1048", 64, 65535, "bytes", NULL, "size on the wire of every packet" },
	SB_PARAM_END
};

static int validate(const void *params, const struct sb_wl_shape *s, const struct sb_wl_env *env, struct sb_error *err)
{
	const struct sb_wl_cbr *p = params;
	if (sb_wl_endpoints_check_dst("cbr", &p->ep, s, env, err))
		return -1;
	if (strcmp(p->c.transport, "cbr") != 0)
		return sb_wl_fail(env, "transport", err, "a cbr workload sends with transport \"cbr\", got \"%s\"",
				  p->c.transport);
	return sb_wl_endpoints_check_srcs(&p->ep, s, env, err);
}

static void estimate(const void *params, const struct sb_wl_estimate_in *in, const struct sb_wl_env *env,
		     struct sb_wl_estimate *out)
{
	const struct sb_wl_cbr *p = params;
	double srcs = (double)p->ep.srcs.n;
	(void)sb_wl_endpoints_estimate(&p->ep, in, env, out);
	out->first_bytes = 0; /* no window: the source sends at its rate */
	double rate = p->rate_gbps * 1e9, active = (in->duration_ms - p->c.start_ms) / 1e3;
	if (rate > in->host_bps && in->nic_buffer_bytes == 0 && active > 0) {
		/* the NIC sends at host_bps what arrives at `rate`: the rest waits there */
		double sent = rate / 8 * active;
		if (p->ep.size_bytes > 0 && (double)p->ep.size_bytes < sent)
			sent = (double)p->ep.size_bytes;
		out->nic_bytes = srcs * sent * (1 - in->host_bps / rate) / (double)p->packet_bytes * in->packet_bytes;
		out->nic_key = "rate_gbps";
	}
}

static void configure(const struct sb_wl_run *r, struct sb_flow *f)
{
	const struct sb_wl_cbr *p = r->cfg->params;
	sb_cbr_configure(f, (uint64_t)(p->rate_gbps * 1e9), (uint32_t)p->packet_bytes);
}

static int start(struct sb_wl_run *r, struct sb_error *err)
{
	const struct sb_wl_cbr *p = r->cfg->params;
	return sb_wl_endpoints_start(r, &p->ep, SB_KIND_CBR, configure, err);
}

const struct sb_workload_ops sb_workload_cbr = {
	.name = "cbr",
	.summary = "Constant-bit-rate senders without congestion control, from each host of `srcs` to `dst`.",
	.params = cbr_params,
	.params_size = sizeof(struct sb_wl_cbr),
	.validate = validate,
	.estimate = estimate,
	.start = start,
};
