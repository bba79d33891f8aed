/*
 * tcp_board.c — the SACK scoreboard: what the sender knows of [snd_una, snd_max).
 *
 * RFC 6675 needs to know which segments are SACKed, which are lost and which were
 * retransmitted; RACK (RFC 8985) also needs when each was last sent. Real stacks keep that
 * per segment (Linux: per skb). Here it is split in two, each bounded and in the flow:
 *
 * - What the receiver holds: one bit per segment, a ring of SB_TCP_SACK_SEGS bits from the
 *   segment at snd_una. Exact for any pattern of holes; a SACK is one bit. A segment more than
 *   SB_TCP_SACK_SEGS segments above snd_una cannot be marked: its SACK is ignored, so it
 *   counts in flight and may be sent again once RACK or a timeout marks it lost (the receiver
 *   keeps as many, tcp_rx.c, so it would have discarded it anyway).
 * - How each byte was last sent: at most SB_TCP_RUNS runs, each a range of whole segments
 *   with one send state (in flight, lost, retransmitted after being lost, retransmitted while
 *   not lost) and one send time, in a ring in sequence order. A burst of new data sent at one
 *   instant is one run (a TSO skb's worth, as in Linux); a loss mark or a retransmission
 *   splits runs; SACKs never do. Without loss an ACK trims runs at the head and a send
 *   extends or appends one at the tail, in O(1), and no bit is touched.
 *
 * The byte counters (sacked, lost, extra) make pipe O(1). lost and extra count unSACKed bytes
 * only: a SACKed segment in a lost run is delivered, not lost.
 *
 * When the ring of runs is full (compact()): two neighbouring runs of the same state merge,
 * the closest send times first, keeping the LATER time. Segments then look sent later than
 * they were, so RACK marks them lost later than RFC 8985 would, never earlier: no spurious
 * retransmission comes from it, and DupThresh and RACK with reo_wnd = 0 (in recovery, or
 * with DupThresh segments SACKed) are unaffected, since they only compare order and new data
 * leaves in sequence order. Only if every pair of neighbours differs in state (lost,
 * retransmitted, lost, ... over all 32 runs) do two neighbours both become lost and go again.
 */
#include "transport/tcp_engine.h"

#include <string.h>

#define SEGS SB_TCP_SACK_SEGS

static inline struct sb_tcp_board *bd(struct sb_tcp *tcp) { return &tcp->board; }

/* --- the SACK bits, addressed by segment offset j above snd_una --- */

static inline uint32_t bitpos(const struct sb_tcp_board *b, uint64_t j)
{
	return (uint32_t)((b->base + j) & (SEGS - 1));
}

static inline bool is_sacked(const struct sb_tcp_board *b, uint64_t j)
{
	if (j >= SEGS)
		return false;
	uint32_t p = bitpos(b, j);
	return b->sack[p >> 6] >> (p & 63) & 1;
}

/* Offset of the segment holding seq (snd_una <= seq < snd_max). */
static inline uint64_t seg_of(const struct sb_tcp *tcp, uint64_t seq)
{
	return (seq - tcp->snd_una) / tcp->mss;
}

static inline uint64_t seq_of(const struct sb_tcp *tcp, uint64_t j)
{
	uint64_t seq = tcp->snd_una + j * tcp->mss;
	return seq < tcp->snd_max ? seq : tcp->snd_max;
}

/* Bits [j0, j1) within the window: the mask of the word holding j0, and how many bits. */
static inline uint64_t word_span(const struct sb_tcp_board *b, uint64_t j0, uint64_t j1, uint32_t *w,
				 uint64_t *take)
{
	uint32_t p = bitpos(b, j0), off = p & 63;
	uint64_t t = 64 - off;
	if (t > j1 - j0)
		t = j1 - j0;
	*w = p >> 6;
	*take = t;
	return (t == 64 ? ~0ull : ((1ull << t) - 1)) << off;
}

static uint64_t count_sacked(const struct sb_tcp_board *b, uint64_t j0, uint64_t j1)
{
	if (j1 > SEGS)
		j1 = SEGS;
	uint64_t n = 0;
	while (j0 < j1) {
		uint32_t w;
		uint64_t take, m = word_span(b, j0, j1, &w, &take);
		n += (uint64_t)__builtin_popcountll(b->sack[w] & m);
		j0 += take;
	}
	return n;
}

static void clear_bits(struct sb_tcp_board *b, uint64_t j0, uint64_t j1)
{
	if (j1 > SEGS)
		j1 = SEGS;
	while (j0 < j1) {
		uint32_t w;
		uint64_t take, m = word_span(b, j0, j1, &w, &take);
		b->sack[w] &= ~m;
		j0 += take;
	}
}

/* Lowest offset in [j0, j1) whose bit is clear (offsets beyond the window are), or j1. */
static uint64_t first_clear(const struct sb_tcp_board *b, uint64_t j0, uint64_t j1)
{
	while (j0 < j1 && j0 < SEGS) {
		uint32_t w;
		uint64_t take, m = word_span(b, j0, j1 < SEGS ? j1 : SEGS, &w, &take);
		uint64_t free_bits = ~b->sack[w] & m;
		if (free_bits)
			return j0 + (uint64_t)(__builtin_ctzll(free_bits) - __builtin_ctzll(m));
		j0 += take;
	}
	return j0 < j1 ? j0 : j1;
}

/* Highest offset in [0, j) whose bit equals `set` (offsets beyond the window are clear),
 * or -1. Scans down a word at a time. */
static int64_t last_with(const struct sb_tcp_board *b, int64_t j, bool set)
{
	if (j > SEGS) {
		if (!set)
			return j - 1;
		j = SEGS;
	}
	while (j > 0) {
		int64_t k = j - 1;
		uint32_t p = bitpos(b, (uint64_t)k), off = p & 63;
		/* positions off..0 of this word hold offsets k..k-off; none below offset 0 */
		uint64_t m = off == 63 ? ~0ull : (1ull << (off + 1)) - 1;
		if ((uint64_t)k < off)
			m &= ~((1ull << (off - (uint64_t)k)) - 1);
		uint64_t hits = (set ? b->sack[p >> 6] : ~b->sack[p >> 6]) & m;
		if (hits)
			return k - (int64_t)(off - (uint32_t)(63 - __builtin_clzll(hits)));
		j = k - (int64_t)off;
	}
	return -1;
}

/* SACKed bytes of [s, e): whole segments, the flow's last one possibly short. */
static uint64_t sacked_bytes(const struct sb_tcp *tcp, uint64_t s, uint64_t e)
{
	if (!tcp->board.sacked || s >= e)
		return 0;
	uint64_t j0 = seg_of(tcp, s), j1 = seg_of(tcp, e - 1) + 1;
	uint64_t bytes = count_sacked(&tcp->board, j0, j1) * tcp->mss;
	if (e == tcp->limit && is_sacked(&tcp->board, j1 - 1))
		bytes -= tcp->mss - (e - seq_of(tcp, j1 - 1)); /* the short last segment */
	return bytes;
}

/* --- runs --- */

/* Byte accounting of unSACKed bytes: every state with a counter. */
static void account(struct sb_tcp *tcp, uint8_t state, uint64_t bytes, bool add)
{
	uint64_t *c = state == RUN_LOST ? &tcp->board.lost : state == RUN_OUT_RETX ? &tcp->board.extra : NULL;
	if (c)
		*c = add ? *c + bytes : *c - bytes;
}

static uint64_t unsacked_bytes(const struct sb_tcp *tcp, unsigned i)
{
	uint64_t s = tcp_board_start(tcp, i), e = tcp_board_end(tcp, i);
	return e - s - sacked_bytes(tcp, s, e);
}

/* Run i takes `state`; returns its unSACKed bytes. */
static uint64_t set_state(struct sb_tcp *tcp, unsigned i, uint8_t state)
{
	struct sb_tcp_board *b = bd(tcp);
	unsigned k = tcp_board_ix(b, i);
	uint64_t u = unsacked_bytes(tcp, i);
	account(tcp, b->state[k], u, false);
	account(tcp, state, u, true);
	b->state[k] = state;
	return u;
}

/* Whether runs i and i + 1 can be one run without losing anything. */
static bool alike(const struct sb_tcp *tcp, unsigned i)
{
	uint8_t s = tcp_board_state(tcp, i);
	if (s != tcp_board_state(tcp, i + 1))
		return false;
	return s == RUN_LOST || tcp_board_xmit(tcp, i) == tcp_board_xmit(tcp, i + 1);
}

/* Remove run i + 1, so that run i extends over it (states and counters unchanged). */
static void absorb_next(struct sb_tcp *tcp, unsigned i)
{
	struct sb_tcp_board *b = bd(tcp);
	for (unsigned k = i + 1; k + 1 < b->n; k++) {
		b->run[tcp_board_ix(b, k)] = b->run[tcp_board_ix(b, k + 1)];
		b->state[tcp_board_ix(b, k)] = b->state[tcp_board_ix(b, k + 1)];
	}
	b->n--;
}

/* Make room for one run (see the file comment). Neighbours that are alike are never merged
 * here: outside tcp_board_tidy() they can only be the two halves of a split the caller is
 * about to use. */
static void compact(struct sb_tcp *tcp)
{
	struct sb_tcp_board *b = bd(tcp);
	int best = -1;
	sb_time best_gap = SB_TIME_NEVER;
	for (unsigned i = 0; i + 1 < b->n; i++) {
		if (tcp_board_state(tcp, i) != tcp_board_state(tcp, i + 1) || alike(tcp, i))
			continue;
		sb_time a = tcp_board_xmit(tcp, i), c = tcp_board_xmit(tcp, i + 1);
		sb_time gap = a > c ? a - c : c - a;
		if (gap < best_gap) {
			best_gap = gap;
			best = (int)i;
		}
	}
	if (best >= 0) {
		unsigned i = (unsigned)best, k = tcp_board_ix(b, i);
		sb_time later = tcp_board_xmit(tcp, i + 1);
		if (later > b->run[k].xmit)
			b->run[k].xmit = later;
		absorb_next(tcp, i);
		return;
	}
	for (unsigned i = 0; i + 1 < b->n; i++) {
		if (alike(tcp, i))
			continue;
		set_state(tcp, i, RUN_LOST);
		set_state(tcp, i + 1, RUN_LOST);
		absorb_next(tcp, i);
		return;
	}
}

/* Ensure a run starts at seq (snd_una <= seq < snd_max). Returns its index, or -1 when the
 * ring is full and nothing can merge. */
static int split(struct sb_tcp *tcp, uint64_t seq)
{
	struct sb_tcp_board *b = bd(tcp);
	unsigned i = 0;
	while (i + 1 < b->n && tcp_board_start(tcp, i + 1) <= seq)
		i++;
	if (tcp_board_start(tcp, i) == seq)
		return (int)i;
	if (b->n == SB_TCP_RUNS) {
		compact(tcp);
		if (b->n == SB_TCP_RUNS)
			return -1;
		return split(tcp, seq); /* indices moved */
	}
	for (unsigned k = b->n; k > i + 1; k--) {
		b->run[tcp_board_ix(b, k)] = b->run[tcp_board_ix(b, k - 1)];
		b->state[tcp_board_ix(b, k)] = b->state[tcp_board_ix(b, k - 1)];
	}
	unsigned k = tcp_board_ix(b, i + 1);
	b->run[k] = (struct sb_tcp_run){ .start = seq, .xmit = tcp_board_xmit(tcp, i) };
	b->state[k] = tcp_board_state(tcp, i);
	b->n++;
	return (int)(i + 1);
}

/* Runs [lo, hi) covering [seq, end), split at both ends; false when the ring is full. */
static bool isolate(struct sb_tcp *tcp, uint64_t seq, uint64_t end, unsigned *lo, unsigned *hi)
{
	int l = split(tcp, seq);
	int h = end < tcp->snd_max ? split(tcp, end) : (int)tcp->board.n;
	if (l < 0 || h < 0)
		return false;
	l = split(tcp, seq); /* the second split may have compacted */
	if (l < 0)
		return false;
	*lo = (unsigned)l;
	*hi = end < tcp->snd_max ? (unsigned)split(tcp, end) : tcp->board.n;
	return true;
}

void tcp_board_cut(struct sb_tcp *tcp, uint64_t seq)
{
	if (seq > tcp->snd_una && seq < tcp->snd_max)
		(void)split(tcp, seq);
}

/* Merge neighbours that are alike, and runs with nothing left to send (every segment SACKed,
 * so their state and time no longer matter) into a neighbour: otherwise retransmitting hole
 * after hole would leave such runs between the retransmitted ones and fill the ring. */
void tcp_board_tidy(struct sb_tcp *tcp)
{
	struct sb_tcp_board *b = bd(tcp);
	unsigned i = 0;
	while (i + 1 < b->n) {
		if (alike(tcp, i) || (b->sacked && !unsacked_bytes(tcp, i + 1))) {
			absorb_next(tcp, i);
		} else if (b->sacked && !unsacked_bytes(tcp, i)) {
			unsigned k = tcp_board_ix(b, i), next = tcp_board_ix(b, i + 1);
			b->state[k] = b->state[next]; /* counters unchanged: run i counts 0 bytes */
			b->run[k].xmit = b->run[next].xmit;
			absorb_next(tcp, i);
		} else {
			i++;
		}
	}
}

void tcp_board_reset(struct sb_tcp *tcp)
{
	memset(&tcp->board, 0, sizeof tcp->board);
}

void tcp_board_sent_slow(struct sb_tcp *tcp, uint64_t seq, sb_time now)
{
	struct sb_tcp_board *b = bd(tcp);
	if (b->n == SB_TCP_RUNS)
		compact(tcp);
	unsigned k = tcp_board_ix(b, b->n);
	b->run[k] = (struct sb_tcp_run){ .start = seq, .xmit = now };
	b->state[k] = RUN_OUT;
	b->n++;
}

void tcp_board_acked_slow(struct sb_tcp *tcp, uint64_t una)
{
	struct sb_tcp_board *b = bd(tcp);
	/* first the counters, while the bits still describe [snd_una, una) */
	while (b->n) {
		unsigned k = b->head;
		uint64_t start = b->run[k].start, end = tcp_board_end(tcp, 0);
		uint64_t cut = end <= una ? end : una;
		if (start < cut)
			account(tcp, b->state[k], cut - start - sacked_bytes(tcp, start, cut), false);
		if (end <= una) {
			b->head = (uint8_t)tcp_board_ix(b, 1);
			b->n--;
			continue;
		}
		b->run[k].start = una;
		break;
	}
	if (!b->n)
		b->head = 0;
	if (b->sacked) {
		b->sacked -= sacked_bytes(tcp, tcp->snd_una, una);
		uint64_t gone = una >= tcp->snd_max ? SEGS : (una - tcp->snd_una) / tcp->mss;
		clear_bits(b, 0, gone);
		b->base = (uint32_t)((b->base + gone) & (SEGS - 1));
	}
}

uint64_t tcp_board_sack(struct sb_tcp *tcp, uint64_t seq, uint64_t end, sb_time echo, bool echo_retx,
			sb_time now)
{
	struct sb_tcp_board *b = bd(tcp);
	(void)now;
	if (seq < tcp->snd_una || end > tcp->snd_max || seq >= end || !b->n)
		return 0;
	if (!b->sacked)
		b->base = 0; /* every bit is clear: any origin will do */
	uint64_t j = seg_of(tcp, seq);
	if (j >= SEGS || is_sacked(b, j))
		return 0;
	uint32_t p = bitpos(b, j);
	b->sack[p >> 6] |= 1ull << (p & 63);
	uint64_t len = end - seq;
	b->sacked += len;
	unsigned i = 0;
	while (i + 1 < b->n && tcp_board_start(tcp, i + 1) <= seq)
		i++;
	account(tcp, tcp_board_state(tcp, i), len, false); /* delivered, no longer lost or extra */
	/* New data leaves in sequence order, so data below a delivered original was sent no later
	 * than it: tighten the (never early) send times of what is still in flight below. */
	if (!echo_retx) {
		for (unsigned r = 0; r < i; r++) { /* runs wholly below: run i may hold later data */
			unsigned k = tcp_board_ix(b, r);
			if (b->state[k] == RUN_OUT && b->run[k].xmit > echo)
				b->run[k].xmit = echo;
		}
	}
	return len;
}

void tcp_board_retransmitted(struct sb_tcp *tcp, uint64_t seq, uint64_t end, sb_time now)
{
	unsigned lo, hi;
	if (!isolate(tcp, seq, end, &lo, &hi)) {
		/* no room to isolate the segment: its whole run counts as retransmitted now, so that
		 * NextSeg moves on (the rest of the run is judged again by RACK or a timeout) */
		lo = 0;
		while (lo + 1 < tcp->board.n && tcp_board_start(tcp, lo + 1) <= seq)
			lo++;
		hi = lo + 1;
	}
	for (unsigned i = lo; i < hi; i++) {
		uint8_t s = tcp_board_state(tcp, i);
		set_state(tcp, i, s == RUN_OUT ? RUN_OUT_RETX : s == RUN_LOST ? RUN_RETX : s);
		tcp->board.run[tcp_board_ix(&tcp->board, i)].xmit = now;
	}
	tcp_board_tidy(tcp);
}

uint64_t tcp_board_mark_dupthresh(struct sb_tcp *tcp)
{
	struct sb_tcp_board *b = bd(tcp);
	if (!b->sacked)
		return 0;
	/* From the top down, block by block: an unSACKed segment is lost (IsLost) once more than
	 * (DupThresh - 1) MSS, or DupThresh discontiguous blocks, are SACKed above it. The
	 * condition only changes below a block, and once true it holds for everything lower. */
	const uint64_t bytes_thresh = (uint64_t)(SB_TCP_DUPTHRESH - 1) * tcp->mss;
	uint64_t sacked_above = 0;
	unsigned blocks_above = 0;
	int64_t j = (int64_t)seg_of(tcp, tcp->snd_max - 1) + 1; /* one past the top segment */
	int64_t lost_top = -1; /* the highest lost offset */
	for (;;) {
		int64_t hi = last_with(b, j, true); /* top of the next block down */
		if (hi < 0)
			break;
		int64_t below = last_with(b, hi, false); /* the first unSACKed segment under it */
		sacked_above += sacked_bytes(tcp, seq_of(tcp, (uint64_t)(below + 1)), seq_of(tcp, (uint64_t)hi + 1));
		blocks_above++;
		if (below < 0)
			break;
		if (blocks_above >= SB_TCP_DUPTHRESH || sacked_above > bytes_thresh) {
			lost_top = below;
			break;
		}
		j = below;
	}
	if (lost_top < 0)
		return 0;
	/* every unSACKed segment at or below lost_top: OUT is lost; a retransmitted one stays
	 * retransmitted (RFC 6675 never resends below HighRxt) but counts once in pipe now */
	uint64_t edge = seq_of(tcp, (uint64_t)lost_top + 1);
	if (edge < tcp->snd_max && split(tcp, edge) < 0)
		return 0;
	uint64_t newly = 0;
	for (unsigned i = 0; i < b->n && tcp_board_start(tcp, i) < edge; i++) {
		uint8_t s = tcp_board_state(tcp, i);
		if (s == RUN_OUT)
			newly += set_state(tcp, i, RUN_LOST);
		else if (s == RUN_OUT_RETX)
			set_state(tcp, i, RUN_RETX);
	}
	tcp_board_tidy(tcp);
	return newly;
}

void tcp_board_mark_all_lost(struct sb_tcp *tcp)
{
	struct sb_tcp_board *b = bd(tcp);
	if (!b->n)
		return;
	/* one lost run: send times no longer matter */
	b->lost = tcp->snd_max - tcp->snd_una - b->sacked;
	b->extra = 0;
	b->run[b->head].start = tcp->snd_una;
	b->state[b->head] = RUN_LOST;
	b->n = 1;
}

uint64_t tcp_board_set_lost(struct sb_tcp *tcp, unsigned i)
{
	uint8_t s = tcp_board_state(tcp, i);
	uint64_t u = set_state(tcp, i, RUN_LOST);
	return s == RUN_OUT || s == RUN_OUT_RETX || s == RUN_RETX ? u : 0;
}

uint64_t tcp_board_high_sacked(const struct sb_tcp *tcp)
{
	if (!tcp->board.sacked)
		return 0;
	int64_t top = last_with(&tcp->board, (int64_t)seg_of(tcp, tcp->snd_max - 1) + 1, true);
	return top < 0 ? 0 : seq_of(tcp, (uint64_t)top + 1);
}

uint64_t tcp_board_first_unsacked(const struct sb_tcp *tcp, uint8_t state, uint64_t below)
{
	for (unsigned i = 0; i < tcp->board.n; i++) {
		uint64_t s = tcp_board_start(tcp, i);
		if (s >= below)
			break;
		if (tcp_board_state(tcp, i) != state)
			continue;
		uint64_t e = tcp_board_end(tcp, i);
		uint64_t j0 = seg_of(tcp, s), j1 = seg_of(tcp, e - 1) + 1;
		uint64_t j = tcp->board.sacked ? first_clear(&tcp->board, j0, j1) : j0;
		if (j < j1 && seq_of(tcp, j) < below)
			return seq_of(tcp, j);
	}
	return UINT64_MAX;
}

uint64_t tcp_board_last_unsacked(const struct sb_tcp *tcp)
{
	if (tcp->snd_una >= tcp->snd_max)
		return UINT64_MAX;
	int64_t j = last_with(&tcp->board, (int64_t)seg_of(tcp, tcp->snd_max - 1) + 1, false);
	return j < 0 ? UINT64_MAX : seq_of(tcp, (uint64_t)j);
}
