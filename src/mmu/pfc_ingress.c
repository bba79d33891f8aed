/*
 * pfc_ingress.c — PFC headroom, pause and resume per lossless ingress queue (see pfc_ingress.h).
 */
#include "mmu/pfc_ingress.h"

#include <stdlib.h>
#include "core/util.h"

static inline uint64_t units_floor(const struct sb_mmu *m, uint64_t bytes)
{
	return m->cell_bytes ? bytes / m->cell_bytes : bytes;
}

int sb_pfc_init(struct sb_pfc_ingress *pi, const struct sb_pfc_ingress_params *p, const struct sb_mmu *m,
		const char *scheme, struct sb_error *err)
{
	unsigned lossless_prios = (unsigned)__builtin_popcount(m->lossless_prio_mask);
	if (lossless_prios > (unsigned)p->headroom_prios)
		return sb_fail(err,
			       "%s: headroom_prios = %lld reserves headroom for %lld lossless priorities per port, "
			       "but the traffic has %u (mask 0x%02x); expected headroom_prios >= %u",
			       scheme, (long long)p->headroom_prios, (long long)p->headroom_prios, lossless_prios,
			       m->lossless_prio_mask, lossless_prios);
	if (m->lossless_prio_mask && (m->port_lo != 0 || m->port_hi != m->nports))
		return sb_fail(err,
			       "%s: lossless traffic needs one MMU per switch (switch.mmu_ports = 0): the MMUs of "
			       "a split buffer would pause and resume the same ingress queues independently "
			       "(docs/mmu.md §4)",
			       scheme);
	pi->nports = m->nports;
	pi->xon = units_floor(m, (uint64_t)p->xon_bytes);
	pi->xon_offset = units_floor(m, (uint64_t)p->xon_offset_bytes);
	pi->reserve = units_floor(m, (uint64_t)p->reserved_bytes);
	pi->xoff = sb_xcalloc(m->nports, sizeof(*pi->xoff));
	pi->q = sb_xcalloc((size_t)m->nports * SB_MMU_NPRIO, sizeof(*pi->q));
	pi->paused = sb_xcalloc(m->nports, sizeof(*pi->paused));
	pi->pool = 0;
	for (uint16_t i = 0; i < m->nports; i++) {
		pi->xoff[i] = sb_headroom_units(m, i, p->headroom, (uint64_t)p->headroom_bytes);
		pi->pool += pi->xoff[i] * (uint64_t)p->headroom_prios;
	}
	pi->reserve_total = pi->reserve * m->nports * (uint64_t)p->headroom_prios;
	return 0;
}

void sb_pfc_fini(struct sb_pfc_ingress *pi)
{
	free(pi->xoff);
	free(pi->q);
	free(pi->paused);
	pi->xoff = NULL;
	pi->q = NULL;
	pi->paused = NULL;
}

void sb_pfc_resume(struct sb_pfc_ingress *pi, struct sb_mmu *m, uint16_t port, uint8_t prio)
{
	pi->paused[port] &= (uint8_t)~(1u << prio);
	pi->npaused--;
	sb_mmu_send_pfc(m, port, (uint8_t)(1u << prio), false);
}

int sb_pfc_check(const struct sb_pfc_ingress *pi, const struct sb_mmu *m, struct sb_error *err)
{
	uint64_t sum = 0, reserved = 0, held = 0;
	uint32_t npaused = 0;
	for (uint16_t s = 0; s < m->nports; s++) {
		npaused += (uint32_t)__builtin_popcount(pi->paused[s]);
		for (uint8_t p = 0; p < SB_MMU_NPRIO; p++) {
			size_t qi = sb_mmu_qi(s, p);
			if (pi->q[qi].hdrm > pi->q[qi].held || pi->q[qi].held > m->q_ing[qi])
				return sb_fail(err, "ingress queue (%u,%u): headroom %llu, lossless %llu, all %llu units "
						    "(expected headroom <= lossless <= all)",
					       s, p, (unsigned long long)pi->q[qi].hdrm, (unsigned long long)pi->q[qi].held,
					       (unsigned long long)m->q_ing[qi]);
			if (pi->q[qi].hdrm && !(pi->paused[s] >> p & 1))
				return sb_fail(err, "ingress queue (%u,%u) holds %llu headroom units but is not paused",
					       s, p, (unsigned long long)pi->q[qi].hdrm);
			sum += pi->q[qi].hdrm;
			held += pi->q[qi].held;
			reserved += sb_pfc_reserved_of(pi, qi);
		}
	}
	if (sum != pi->used)
		return sb_fail(err, "headroom queues hold %llu units, the headroom pool counts %llu",
			       (unsigned long long)sum, (unsigned long long)pi->used);
	if (held != pi->held_total)
		return sb_fail(err, "ingress queues hold %llu lossless units, counted %llu", (unsigned long long)held,
			       (unsigned long long)pi->held_total);
	if (reserved != pi->reserved_used)
		return sb_fail(err, "reserves hold %llu units, counted %llu", (unsigned long long)reserved,
			       (unsigned long long)pi->reserved_used);
	if (npaused != pi->npaused)
		return sb_fail(err, "%u queues paused, counted %u", npaused, pi->npaused);
	return 0;
}
