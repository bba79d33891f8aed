/*
 * sched.c — the port scheduler's and marking's tables from the configuration (sched.h).
 */
#include "net/sched.h"

#include "core/util.h"

uint32_t sb_sched_quantum(double weight, double quantum_bytes)
{
	double qb = weight * quantum_bytes;
	return qb < 1 ? 1 : (uint32_t)qb;
}

double sb_sched_ecn_scale(uint64_t rate_bps, double ref_gbps)
{
	/* a queue drains in proportion to its port's rate, so a marking threshold in bytes
	 * stands for a delay only at the rate it was chosen for */
	return ref_gbps > 0 ? (double)rate_bps / (ref_gbps * 1e9) : 1;
}

void sb_sched_ecn_set(struct sb_ecn_cfg *e, int mode, double kmin_bytes, double kmax_bytes, double pmax, double scale)
{
	e->mode = (uint8_t)mode;
	/* saturated: 1e12 bytes at ecn_ref_gbps = 1e-6 on a 25 Gb/s port is 2.5e19, beyond
	 * uint64_t (undefined); a threshold no queue reaches is what it means */
	e->kmin = sb_u64_saturate(kmin_bytes * scale);
	e->kmax = sb_u64_saturate(kmax_bytes * scale);
	if (e->kmax < e->kmin)
		e->kmax = e->kmin;
	if (e->kmax == e->kmin && e->mode == SB_ECN_RED)
		e->mode = SB_ECN_STEP;
	double pm = pmax < 0 ? 0 : pmax > 1 ? 1 : pmax;
	e->pmax_q32 = (uint32_t)(pm * 4294967295.0);
}
