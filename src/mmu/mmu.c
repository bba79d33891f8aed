/*
 * mmu.c — the scheme-independent half of the MMU: counters, units, invariants, dispatch.
 */
#include "mmu/mmu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"

const char *const sb_drop_cause_name[SB_DROP_NCAUSES] = {
	[SB_ADMIT] = "admitted",
	[SB_DROP_BUFFER_FULL] = "buffer_full",
	[SB_DROP_THRESHOLD] = "threshold",
	[SB_DROP_POOL_FULL] = "pool_full",
	[SB_DROP_HEADROOM] = "headroom",
	[SB_DROP_AQM] = "aqm",
	[SB_DROP_EXPELLED] = "expelled",
};

struct sb_mmu *sb_mmu_new(const struct sb_bm_ops *ops, const struct sb_mmu_config *cfg,
			  const struct sb_mmu_env *env)
{
	/* its hot first line (mmu.h), then the scheme's state at SB_MMU_STATE_OFFSET, so that an
	 * embedder may fetch both before it knows anything else of the MMU (sb_mmu_prefetch) */
	struct sb_mmu *m = sb_xcalloc_aligned(1, SB_MMU_STATE_OFFSET + (ops->state_size ? ops->state_size : 1), 64);
	m->ops = ops;
	if (env)
		m->env = *env;
	m->nports = cfg->nports;
	m->port_lo = cfg->port_hi ? cfg->port_lo : 0;
	m->port_hi = cfg->port_hi ? cfg->port_hi : cfg->nports;
	sb_rng_init(&m->rng, cfg->seed, SB_STREAM_MMU);
	m->cell_bytes = cfg->cell_bytes;
	m->lossless_prio_mask = cfg->lossless_prio_mask;
	m->buffer_bytes = cfg->buffer_bytes;
	m->buffer = cfg->cell_bytes ? cfg->buffer_bytes / cfg->cell_bytes : cfg->buffer_bytes;
	size_t nq = (size_t)cfg->nports * SB_MMU_NPRIO;
	/* q_egr, q_ing and n_egr in one block, in that order (sb_mmu_q_ing, sb_mmu_n_egr derive the
	 * last two from q_egr and nports, so the first line names only q_egr). A port's 8 queue
	 * counters are one line of q_egr and of q_ing (half one of n_egr) when the block starts on
	 * a line: a packet's admission and release read one line of each. */
	m->q_egr = sb_xcalloc_aligned(nq * (2 * sizeof(uint64_t) + sizeof(uint32_t)), 1, 64);
	m->q_ing = sb_mmu_q_ing(m);
	m->n_egr = sb_mmu_n_egr(m);
	m->port_rate_bps = sb_xcalloc(cfg->nports, sizeof(*m->port_rate_bps));
	m->port_delay_ps = sb_xcalloc(cfg->nports, sizeof(*m->port_delay_ps));
	for (uint16_t p = 0; p < cfg->nports; p++) {
		m->port_rate_bps[p] = cfg->port_rate_bps ? cfg->port_rate_bps[p] : 0;
		m->port_delay_ps[p] = cfg->port_delay_ps ? cfg->port_delay_ps[p] : 0;
	}
	m->max_frame_bytes = cfg->max_frame_bytes ? cfg->max_frame_bytes : 1500;
	sb_params_defaults(ops->params, sb_mmu_state(m));
	return m;
}

int sb_mmu_set_param(struct sb_mmu *mmu, const char *name, const char *value, struct sb_error *err)
{
	const struct sb_param *p = sb_param_find(mmu->ops->params, name);
	if (!p)
		return sb_fail(err, "scheme %s has no parameter '%s'", mmu->ops->name, name);
	return sb_param_set_text(p, sb_mmu_state(mmu), value, err);
}

int sb_mmu_start(struct sb_mmu *mmu, struct sb_error *err)
{
	if (mmu->port_lo >= mmu->port_hi || mmu->port_hi > mmu->nports)
		return sb_fail(err, "MMU port range [%u, %u) is empty or beyond its %u ports", mmu->port_lo,
			       mmu->port_hi, mmu->nports);
	if (mmu->buffer == 0)
		return sb_fail(err, "buffer of %llu bytes holds no %s", (unsigned long long)mmu->buffer_bytes,
			       mmu->cell_bytes ? "cell" : "byte");
	return mmu->ops->init ? mmu->ops->init(mmu, err) : 0;
}

void sb_mmu_free(struct sb_mmu *mmu)
{
	if (!mmu)
		return;
	if (mmu->ops->fini)
		mmu->ops->fini(mmu);
	sb_params_free(mmu->ops->params, sb_mmu_state(mmu)); /* the state itself is part of mmu's block */
	free(mmu->q_egr);
	free(mmu->port_rate_bps);
	free(mmu->port_delay_ps);
	free(mmu);
}

void sb_mmu_invariant_abort(const struct sb_mmu *m)
{
	struct sb_error err;
	if (sb_mmu_check(m, &err)) {
		fprintf(stderr, "sharebuf: MMU %u (%s) invariant violated: %s\n", m->id, m->ops->name, err.msg);
		abort();
	}
}

_Noreturn void sb_mmu_underflow(const struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	size_t qe = sb_mmu_qi(pkt->out_port, pkt->prio), qi = sb_mmu_qi(pkt->in_port, pkt->prio);
	fprintf(stderr,
		"sharebuf: MMU %u: release of %u units from egress (%u,%u) ingress (%u,%u) "
		"that holds %llu/%llu (used %llu): counter would go negative\n",
		m->id, pkt->units, pkt->out_port, pkt->prio, pkt->in_port, pkt->prio,
		(unsigned long long)m->q_egr[qe], (unsigned long long)m->q_ing[qi],
		(unsigned long long)m->used);
	abort();
}

void sb_mmu_count_drop(struct sb_mmu *m, const struct sb_mmu_pkt *pkt, enum sb_drop_cause why)
{
	m->drops[why]++;
	if (sb_mmu_pkt_lossless(pkt))
		m->drops_lossless++;
	if (m->ops->on_drop)
		m->ops->on_drop(m, pkt, why);
}

void sb_mmu_count_expelled(struct sb_mmu *m, const struct sb_mmu_pkt *pkt)
{
	m->expelled++;
	m->drops[SB_DROP_EXPELLED]++;
	if (sb_mmu_pkt_lossless(pkt))
		m->drops_lossless++;
}

void sb_mmu_timer(struct sb_mmu *m, unsigned timer_id)
{
	if (m->ops->on_timer)
		m->ops->on_timer(m, timer_id);
}

void sb_mmu_arm_timer(struct sb_mmu *m, sb_time at, unsigned timer_id)
{
	if (m->env.arm_timer)
		m->env.arm_timer(m->env.ctx, m, at, timer_id);
}

void sb_mmu_send_pfc(struct sb_mmu *m, uint16_t port, uint8_t prio_mask, bool pause)
{
	if (pause)
		m->pfc_pauses_sent++;
	else
		m->pfc_resumes_sent++;
	if (m->env.send_pfc)
		m->env.send_pfc(m->env.ctx, m, port, prio_mask, pause, false);
}

void sb_mmu_send_port_pfc(struct sb_mmu *m, uint16_t port, bool pause)
{
	if (pause)
		m->pfc_port_pauses_sent++;
	else
		m->pfc_port_resumes_sent++;
	if (m->env.send_pfc)
		m->env.send_pfc(m->env.ctx, m, port, 0xFF, pause, true);
}

bool sb_mmu_expel_head(struct sb_mmu *m, uint16_t port, uint8_t prio)
{
	return m->env.expel_head ? m->env.expel_head(m->env.ctx, m, port, prio) : false;
}

int sb_mmu_check(const struct sb_mmu *m, struct sb_error *err)
{
	uint64_t sum_egr = 0, sum_ing = 0, queued = 0;
	size_t nq = (size_t)m->nports * SB_MMU_NPRIO;
	for (size_t i = 0; i < nq; i++) {
		sum_egr += m->q_egr[i];
		sum_ing += m->q_ing[i];
		queued += m->n_egr[i];
		if (m->check_invariants && m->n_egr[i] == 0 && m->q_egr[i] != 0)
			return sb_fail(err, "egress queue %zu holds %llu units but no packet", i,
				       (unsigned long long)m->q_egr[i]);
	}
	if (m->used > m->buffer)
		return sb_fail(err, "occupancy %llu exceeds the buffer %llu", (unsigned long long)m->used,
			       (unsigned long long)m->buffer);
	if (sum_egr != m->used)
		return sb_fail(err, "egress queues sum to %llu but occupancy is %llu",
			       (unsigned long long)sum_egr, (unsigned long long)m->used);
	if (sum_ing != m->used)
		return sb_fail(err, "ingress counters sum to %llu but occupancy is %llu",
			       (unsigned long long)sum_ing, (unsigned long long)m->used);
	/* n_egr is kept only with check_invariants (mmu.h): without it, no packet count to check */
	if (m->check_invariants && m->admitted != m->released + m->expelled + queued)
		return sb_fail(err, "packet conservation: %llu admitted != %llu sent + %llu expelled + %llu queued",
			       (unsigned long long)m->admitted, (unsigned long long)m->released,
			       (unsigned long long)m->expelled, (unsigned long long)queued);
	return 0;
}
