/*
 * flowtag.c — the first-window flow table.
 */
#include "dataplane/flowtag.h"

#include <stdlib.h>
#include <string.h>

bool sb_dp_flowtag_init(struct sb_dp_flowtag *ft, uint32_t entries_pow2, uint64_t budget)
{
	memset(ft, 0, sizeof(*ft));
	ft->t = calloc(entries_pow2, sizeof(*ft->t));
	ft->mask = entries_pow2 - 1;
	ft->budget = budget;
	return ft->t != NULL;
}

void sb_dp_flowtag_fini(struct sb_dp_flowtag *ft)
{
	free(ft->t);
	ft->t = NULL;
}

static void flow_key(const uint8_t *f, const struct sb_frame_info *fi, uint8_t key[40])
{
	memset(key, 0, 40);
	const uint8_t *ip = f + SB_ETH_HLEN;
	if (fi->ip_version == 4)
		memcpy(key, ip + 12, 8);
	else
		memcpy(key, ip + 8, 32);
	key[32] = fi->proto;
	key[33] = (uint8_t)(fi->sport >> 8);
	key[34] = (uint8_t)fi->sport;
	key[35] = (uint8_t)(fi->dport >> 8);
	key[36] = (uint8_t)fi->dport;
}

bool sb_dp_flowtag_first(struct sb_dp_flowtag *ft, const uint8_t *frame, const struct sb_frame_info *fi)
{
	if (!fi->ip || !ft->budget)
		return false;
	uint8_t key[40];
	flow_key(frame, fi, key);
	struct sb_dp_flow *e = &ft->t[fi->hash & ft->mask];
	bool syn = fi->tcp && (fi->tcp_flags & SB_TCP_SYN);
	if (!e->used || memcmp(e->key, key, sizeof(key)) || syn) {
		if (e->used && memcmp(e->key, key, sizeof(key)))
			ft->evictions++;
		memcpy(e->key, key, sizeof(key));
		e->used = true;
		e->seen = 0;
		e->start = fi->tcp ? fi->tcp_seq + (syn ? 1u : 0u) : 0;
	}
	bool first;
	if (fi->tcp) {
		first = fi->l4_payload > 0 && (uint64_t)(uint32_t)(fi->tcp_seq - e->start) < ft->budget;
		if (fi->tcp_flags & (SB_TCP_FIN | SB_TCP_RST))
			e->used = false;
	} else {
		first = e->seen < ft->budget;
		e->seen += fi->l4_payload;
	}
	ft->tagged += first;
	return first;
}
