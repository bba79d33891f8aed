/*
 * cc_hpcc.c — HPCC (Li et al., SIGCOMM 2019, Algorithm 1): a window and a rate computed from
 * the in-band telemetry of every link on the path.
 *
 * Each ACK echoes the INT of the packet it acknowledges. Against the previous ACK's INT, each
 * hop i gives its utilisation over the interval between the two samples,
 *
 *   u_i = min(qlen_i, qlen_i') · 8 / (B_i · T) + txRate_i / B_i,  txRate_i = Δtx_bytes · 8 / Δts,
 *
 * (T = the flow's base RTT, B_i the link rate). The most loaded hop, u with its interval τ,
 * feeds an EWMA over one base RTT: U ← (1 − τ/T) U + (τ/T) u, τ ≤ T. The window follows
 *
 *   U ≥ η or incStage ≥ maxStage:  W = Wc / (U/η) + W_AI   (multiplicative)
 *   otherwise:                     W = Wc + W_AI            (additive, incStage + 1)
 *
 * per ACK, while the reference Wc (and incStage) is updated only once per RTT, by the first
 * ACK beyond the snd_nxt of the previous update (FAST_REACT). The QP then sends at R = W / T
 * and keeps at most W bytes in flight. W_AI = rdma.hpcc_ai_mbps × T; W lies between
 * rdma.min_rate_mbps × T and line rate × T.
 *
 * Choices: maxStage = rdma.hpcc_mi_thresh, default 5 as in ns3-datacenter (the artifact of
 * the Reverie and DSH evaluations; HPCC's own run.py uses 0, i.e. always multiplicative).
 * T is the flow's own base RTT, not a network-wide maximum. U starts at 0, so a new flow keeps
 * its line-rate window until the INT says otherwise. The previous sample keeps the low 32 bits
 * of each hop's byte counter: differences stay exact as long as a link sends less than 4 GB
 * between two ACKs of a flow.
 */
#include "transport/flows.h"
#include "transport/rdma.h"
#include "transport/transport.h"

struct hpcc {
	struct { sb_time ts; uint32_t tx; uint32_t qlen; } hop[SB_INT_MAX_HOPS]; /* previous INT */
	double u;                 /* U, the smoothed utilisation of the most loaded hop */
	double wc;                /* reference window Wc, bytes */
	uint64_t last_update_seq; /* Wc changes when an ACK passes this */
	uint32_t inc_stage;
	uint8_t nhops;            /* hops of the previous INT; 0 = none yet */
};
_Static_assert(sizeof(struct hpcc) <= SB_RDMA_CC_STATE, "HPCC state must fit");

static inline struct hpcc *hpcc_of(struct sb_rdma_qp *qp) { return (struct hpcc *)(void *)qp->cc_state; }

static void hpcc_init(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp)
{
	struct hpcc *h = hpcc_of(qp);
	h->u = 0;
	h->wc = (double)qp->line_bps * sb_time_to_sec(qp->base_rtt) / 8.0;
	h->last_update_seq = 0;
	h->inc_stage = 0;
	h->nhops = 0;
	sb_rdma_set_window(fl, f, qp, (uint64_t)(h->wc + 0.5));
}

static void remember(struct hpcc *h, const struct sb_int_rec *rec)
{
	for (uint8_t i = 0; i < rec->nhops; i++) {
		h->hop[i].ts = rec->hop[i].ts;
		h->hop[i].tx = (uint32_t)rec->hop[i].tx_bytes;
		h->hop[i].qlen = rec->hop[i].qlen;
	}
	h->nhops = rec->nhops;
}

static void hpcc_on_ack(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp,
			const struct sb_rdma_feedback *fb)
{
	const struct sb_rdma_params *r = fl->rdma;
	struct hpcc *h = hpcc_of(qp);
	const struct sb_int_rec *rec = fb->hops;
	if (!rec || !rec->nhops)
		return;
	if (h->nhops != rec->nhops) { /* first ACK: nothing to compare with yet */
		remember(h, rec);
		h->last_update_seq = qp->snd_nxt;
		return;
	}
	double T = sb_time_to_sec(qp->base_rtt);
	double u = -1, tau = 0;
	for (uint8_t i = 0; i < rec->nhops; i++) {
		const struct sb_int_hop *now = &rec->hop[i];
		if (now->ts <= h->hop[i].ts)
			continue; /* no time passed at this hop: no rate to measure */
		double dt = sb_time_to_sec(now->ts - h->hop[i].ts);
		double B = (double)now->rate_bps;
		double tx_rate = (double)(uint32_t)((uint32_t)now->tx_bytes - h->hop[i].tx) * 8.0 / dt;
		double qlen = now->qlen < h->hop[i].qlen ? now->qlen : h->hop[i].qlen;
		double ui = qlen * 8.0 / (B * T) + tx_rate / B;
		if (ui > u) {
			u = ui;
			tau = dt;
		}
	}
	remember(h, rec);
	if (u < 0)
		return;
	if (tau > T)
		tau = T;
	h->u = (1.0 - tau / T) * h->u + (tau / T) * u;

	double eta = r->hpcc_eta;
	double ai_bps = r->hpcc_ai_mbps > 0 ? r->hpcc_ai_mbps * 1e6 : 10e6 * (double)qp->line_bps / 25e9;
	double w_ai = ai_bps * T / 8.0;
	double w_min = sb_rdma_min_bps(fl) * T / 8.0, w_max = (double)qp->line_bps * T / 8.0;
	bool update = fb->ack > h->last_update_seq;
	double w;
	if (h->u >= eta || h->inc_stage >= (uint64_t)r->hpcc_mi_thresh) {
		w = (h->u > 1e-9 ? h->wc / (h->u / eta) : w_max) + w_ai;
		if (update)
			h->inc_stage = 0;
	} else {
		w = h->wc + w_ai;
		if (update)
			h->inc_stage++;
	}
	if (w > w_max)
		w = w_max;
	if (w < w_min)
		w = w_min;
	if (update) {
		h->wc = w;
		h->last_update_seq = qp->snd_nxt;
	}
	sb_rdma_set_window(fl, f, qp, (uint64_t)(w + 0.5));
	sb_rdma_set_rate(fl, f, qp, w * 8.0 / T);
}

const struct sb_rdma_cc_ops sb_rdma_cc_hpcc = {
	.name = "hpcc",
	.telemetry = true,
	.init = hpcc_init,
	.on_ack = hpcc_on_ack,
};

static void hpcc_start(struct sb_flows *fl, struct sb_flow *f) { sb_rdma_start(fl, f, &sb_rdma_cc_hpcc); }

const struct sb_transport_ops sb_transport_hpcc = {
	.name = "hpcc",
	.summary = "RDMA with HPCC: INT-measured link utilisation drives a window and rate towards eta = 95%",
	SB_RDMA_TRANSPORT(hpcc_start),
};
