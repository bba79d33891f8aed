/*
 * tcp_board.c — the SACK scoreboard: what the sender knows of [snd_una, snd_max).
 *
 * RFC 6675 needs to know which bytes are SACKed, which are lost and which were retransmitted;
 * RACK (RFC 8985) also needs when each byte was last sent. Real stacks keep that per segment
 * (Linux: per skb). Here the flight is cut into at most SB_TCP_RUNS runs, each a range of
 * whole segments with one state and one send time, kept in a ring in sequence order. A burst
 * of new data sent at one instant is one run (a TSO skb's worth, as in Linux); a SACK, a loss
 * mark or a retransmission splits runs; neighbours that become alike merge again.
 *
 * Why runs and not a bitmap or a per-segment array: a flight can be thousands of segments
 * (a full-window incast response), the state must stay in the flow (no allocation), and
 * the no-loss case, which is almost every ACK, must cost O(1): an ACK trims runs at the head,
 * a send appends or extends one at the tail.
 *
 * When the ring is full: first, the two neighbouring runs of the same state with the closest
 * send times merge and keep the LATER time (compact()). Segments then look sent later
 * than they were, so RACK marks them lost later than RFC 8985 would, never earlier: no
 * spurious retransmission comes from the approximation, and DupThresh and reo_wnd = 0 (RACK
 * in recovery, or with DupThresh segments SACKed) are unaffected because they only compare
 * order, and new data is sent in sequence order. Sending new data into a full ring instead
 * gives the last run the new time (the same rule). Only when no two neighbours share a state
 * (more than 16 holes, each with several states) is information dropped: the highest SACKed
 * run is forgotten, i.e. merged into the run below it, and its bytes count as in flight (or
 * lost) until the cumulative ACK covers them; failing that, two neighbours in flight both
 * count as lost. The receiver keeps at most SB_OOO_RANGES = 16 out-of-order ranges, so the
 * SACKed runs alone never exceed 16, and no test or benchmark reaches step 2.
 */
#include "transport/tcp_engine.h"

#include <string.h>

static inline struct sb_tcp_board *bd(struct sb_tcp *tcp) { return &tcp->board; }

/* Byte accounting: every state with a counter. */
static void account(struct sb_tcp *tcp, uint8_t state, uint64_t bytes, bool add)
{
	uint64_t *c = state == RUN_SACKED ? &tcp->board.sacked
		    : state == RUN_LOST ? &tcp->board.lost
		    : state == RUN_OUT_RETX ? &tcp->board.extra : NULL;
	if (c)
		*c = add ? *c + bytes : *c - bytes;
}

static void set_state(struct sb_tcp *tcp, unsigned i, uint8_t state)
{
	struct sb_tcp_board *b = bd(tcp);
	unsigned k = tcp_board_ix(b, i);
	uint64_t len = tcp_board_end(tcp, i) - b->run[k].start;
	account(tcp, b->state[k], len, false);
	account(tcp, state, len, true);
	b->state[k] = state;
}

/* Whether runs i and i + 1 can be one run without losing anything. */
static bool alike(const struct sb_tcp *tcp, unsigned i)
{
	uint8_t s = tcp_board_state(tcp, i);
	if (s != tcp_board_state(tcp, i + 1))
		return false;
	return s == RUN_SACKED || s == RUN_LOST || tcp_board_xmit(tcp, i) == tcp_board_xmit(tcp, i + 1);
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

/* Make room for one run; with SB_TCP_RUNS >= 2 one of the three steps always applies.
 * Neighbours that are alike are never merged here: outside tidy() they can only be the two
 * halves of a split the caller is about to use. */
static void compact(struct sb_tcp *tcp)
{
	struct sb_tcp_board *b = bd(tcp);
	/* 1. Same state, different send times: the closest pair merges, keeping the later time. */
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
	/* 2. Forget the highest SACK block: its bytes take the state of the run below. */
	for (int i = (int)b->n - 1; i >= 1; i--) {
		if (tcp_board_state(tcp, (unsigned)i) != RUN_SACKED)
			continue;
		unsigned below = (unsigned)i - 1;
		uint64_t len = tcp_board_end(tcp, (unsigned)i) - tcp_board_start(tcp, (unsigned)i);
		account(tcp, RUN_SACKED, len, false);
		account(tcp, tcp_board_state(tcp, below), len, true);
		absorb_next(tcp, below);
		return;
	}
	/* 3. Two neighbours in flight in different states: both count as lost (retransmitted
	 * once more rather than never). */
	for (unsigned i = 0; i + 1 < b->n; i++) {
		if (alike(tcp, i))
			continue;
		set_state(tcp, i, RUN_LOST);
		set_state(tcp, i + 1, RUN_LOST);
		absorb_next(tcp, i);
		return;
	}
}

/* Ensure a run starts at seq (snd_una < seq < snd_max). Returns its index, or -1 when the
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

void tcp_board_tidy(struct sb_tcp *tcp)
{
	unsigned i = 0;
	while (i + 1 < tcp->board.n) {
		if (alike(tcp, i))
			absorb_next(tcp, i);
		else
			i++;
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
	while (b->n) {
		unsigned k = b->head;
		uint64_t start = b->run[k].start, end = tcp_board_end(tcp, 0);
		if (end <= una) {
			account(tcp, b->state[k], end - start, false);
			b->head = (uint8_t)tcp_board_ix(b, 1);
			b->n--;
			continue;
		}
		if (start < una) {
			account(tcp, b->state[k], una - start, false);
			b->run[k].start = una;
		}
		break;
	}
	if (!b->n)
		b->head = 0;
}

uint64_t tcp_board_sack(struct sb_tcp *tcp, uint64_t seq, uint64_t end, sb_time echo, bool echo_retx,
			sb_time now)
{
	(void)now;
	if (seq < tcp->snd_una)
		seq = tcp->snd_una;
	if (end > tcp->snd_max)
		end = tcp->snd_max;
	if (seq >= end || !tcp->board.n)
		return 0;
	int lo = split(tcp, seq);
	int hi = end < tcp->snd_max ? split(tcp, end) : (int)tcp->board.n;
	if (lo < 0 || hi < 0)
		return 0;
	lo = split(tcp, seq); /* the second split may have compacted */
	if (lo < 0)
		return 0;
	uint64_t newly = 0;
	for (unsigned i = (unsigned)lo; i < tcp->board.n && tcp_board_start(tcp, i) < end; i++) {
		if (tcp_board_state(tcp, i) == RUN_SACKED)
			continue;
		newly += tcp_board_end(tcp, i) - tcp_board_start(tcp, i);
		set_state(tcp, i, RUN_SACKED);
	}
	/* New data leaves in sequence order, so data below a delivered original was sent no later
	 * than it: tighten the (never early) send times of what is still in flight below. */
	if (!echo_retx) {
		for (unsigned i = 0; i < (unsigned)lo; i++) {
			unsigned k = tcp_board_ix(&tcp->board, i);
			if (tcp->board.state[k] == RUN_OUT && tcp->board.run[k].xmit > echo)
				tcp->board.run[k].xmit = echo;
		}
	}
	tcp_board_tidy(tcp);
	return newly;
}

void tcp_board_retransmitted(struct sb_tcp *tcp, uint64_t seq, uint64_t end, sb_time now)
{
	int lo = split(tcp, seq);
	int hi = end < tcp->snd_max ? split(tcp, end) : (int)tcp->board.n;
	if (lo < 0 || hi < 0)
		return;
	lo = split(tcp, seq);
	if (lo < 0)
		return;
	for (unsigned i = (unsigned)lo; i < tcp->board.n && tcp_board_start(tcp, i) < end; i++) {
		uint8_t s = tcp_board_state(tcp, i);
		if (s == RUN_SACKED)
			continue;
		set_state(tcp, i, s == RUN_OUT ? RUN_OUT_RETX : s == RUN_LOST ? RUN_RETX : s);
		tcp->board.run[tcp_board_ix(&tcp->board, i)].xmit = now;
	}
	tcp_board_tidy(tcp);
}

uint64_t tcp_board_mark_dupthresh(struct sb_tcp *tcp)
{
	uint64_t sacked_above = 0, newly = 0;
	unsigned blocks_above = 0;
	const uint64_t bytes_thresh = (uint64_t)(SB_TCP_DUPTHRESH - 1) * tcp->mss;
	for (int i = (int)tcp->board.n - 1; i >= 0; i--) {
		unsigned u = (unsigned)i;
		uint8_t s = tcp_board_state(tcp, u);
		if (s == RUN_SACKED) {
			sacked_above += tcp_board_end(tcp, u) - tcp_board_start(tcp, u);
			blocks_above++;
			continue;
		}
		if (blocks_above < SB_TCP_DUPTHRESH && sacked_above <= bytes_thresh)
			continue;
		/* IsLost: an OUT run waits for retransmission; a retransmitted one stays retransmitted
		 * (RFC 6675 never resends below HighRxt) but counts once in pipe from now on. */
		if (s == RUN_OUT) {
			newly += tcp_board_end(tcp, u) - tcp_board_start(tcp, u);
			set_state(tcp, u, RUN_LOST);
		} else if (s == RUN_OUT_RETX) {
			set_state(tcp, u, RUN_RETX);
		}
	}
	tcp_board_tidy(tcp);
	return newly;
}

void tcp_board_mark_all_lost(struct sb_tcp *tcp)
{
	for (unsigned i = 0; i < tcp->board.n; i++)
		if (tcp_board_state(tcp, i) != RUN_SACKED)
			set_state(tcp, i, RUN_LOST);
	tcp_board_tidy(tcp);
}

void tcp_board_set_lost(struct sb_tcp *tcp, unsigned i)
{
	set_state(tcp, i, RUN_LOST);
}

uint64_t tcp_board_high_sacked(const struct sb_tcp *tcp)
{
	for (int i = (int)tcp->board.n - 1; i >= 0; i--)
		if (tcp_board_state(tcp, (unsigned)i) == RUN_SACKED)
			return tcp_board_end(tcp, (unsigned)i);
	return 0;
}

int tcp_board_find(const struct sb_tcp *tcp, uint8_t state, uint64_t below)
{
	for (unsigned i = 0; i < tcp->board.n; i++) {
		if (tcp_board_start(tcp, i) >= below)
			break;
		if (tcp_board_state(tcp, i) == state)
			return (int)i;
	}
	return -1;
}
