/*
 * tcp_hystart.c — leaving slow start before the first loss.
 *
 * HyStart++ (RFC 9406 §4.2). Rounds are delimited by the ACK of the round's last byte
 * (windowEnd = snd_nxt at the round's start). Each round keeps the minimum RTT of its ACKs;
 * once a round has N_RTT_SAMPLE samples and its minimum exceeds the previous round's by
 *     RttThresh = clamp(lastRoundMinRTT / MIN_RTT_DIVISOR, MIN_RTT_THRESH, MAX_RTT_THRESH),
 * the queue is taken to be building: slow start ends and Conservative Slow Start (CSS)
 * grows cwnd at 1/CSS_GROWTH_DIVISOR of the slow-start rate for at most CSS_ROUNDS rounds,
 * then congestion avoidance starts with ssthresh = cwnd. If the RTT minimum of a round begun
 * in CSS drops below the one that triggered the exit, the exit was spurious and slow start
 * resumes. Loss or ECN ends
 * it all through the usual congestion response (ssthresh is then finite, and, per §4.3,
 * HyStart++ only runs in the initial slow start, while ssthresh is still infinite).
 *
 * The RFC's thresholds are for Internet RTTs: MIN_RTT_THRESH = 4 ms and MAX_RTT_THRESH =
 * 16 ms bound RttThresh to the RTT / 8 of paths between 32 and 128 ms. In a datacenter the
 * base RTT is 5–100 µs, so 4 ms would never be reached (a 4 ms queue is 12.5 MB at 25 Gb/s).
 * The defaults scale both by 1/1000 (tcp.hystart_min_rtt_thresh_us = 4,
 * tcp.hystart_max_rtt_thresh_us = 16): RttThresh is then RTT / 8 for 32–128 µs paths and
 * 4 µs (12.5 KB of queue at 25 Gb/s, 12 packets) below, so a few packets of jitter do not end
 * slow start while a standing queue of a dozen packets does. The constants N_RTT_SAMPLE,
 * MIN_RTT_DIVISOR, CSS_GROWTH_DIVISOR and CSS_ROUNDS are the RFC's.
 *
 * Classic HyStart, as ns-3.39's TcpCubic has it on by default (attributes HyStart = true,
 * HyStartLowWindow = 16 segments, HyStartDetect = both, HyStartMinSamples = 8,
 * HyStartAckDelta = 2 ms, HyStartDelayMin = 4 ms, HyStartDelayMax = 1 s): in slow start with
 * cwnd >= 16 segments, (a) ACK train: while ACKs come at most 2 ms apart, a round whose ACKs
 * span more than the smallest RTT seen ends slow start; (b) delay: the minimum of a round's
 * first 8 RTT samples above delayMin + clamp(delayMin, 4 ms, 1 s). Either sets
 * ssthresh = cwnd. At datacenter RTTs (b) never fires and (a) fires once a round's ACKs take
 * longer than the base RTT, i.e. when cwnd reaches about one BDP beyond the round's start.
 * It runs once per connection (until a timeout).
 *
 * Linux's tcp_cubic HyStart (mode linux) has the same two tests with other thresholds: the ACK
 * train must outlast (delay_min + ack_delay) / 2 — halved because Cubic does not pace — where
 * ack_delay = min(1 ms, 4 GSO-size bursts at the pacing rate) allows for the bursts a GSO
 * sender emits: 4 × 64 KB at 2 cwnd / SRTT (Linux's slow-start pacing ratio of 200 %), i.e.
 * 131072 B × SRTT / cwnd. At datacenter RTTs ack_delay is near 1 ms while cwnd is small, so
 * the train must last about half a millisecond: slow start ends at several times the cwnd of
 * ns-3's rule (the testbed's senders' counters: testbed/REPORT.md). The delay test
 * needs delay_min / 8 clamped to [4, 16] ms more.
 *
 * Without pacing, slow start sends two segments per ACK in trains one round apart; until
 * cwnd is about twice the BDP the queue they build drains between trains, so a round's
 * minimum RTT (HyStart++'s signal) stays near the base RTT and the exit comes at 2-3 BDP
 * (tests/sim/test_tcp_start.c measures it). Linux paces with the fq qdisc; this engine does not.
 */
#include "transport/tcp_engine.h"

#include "transport/flows.h"

/* RFC 9406 §4.3 constants. */
#define N_RTT_SAMPLE 8
#define MIN_RTT_DIVISOR 8
#define CSS_GROWTH_DIVISOR 4
#define CSS_ROUNDS 5

/* ns-3.39 TcpCubic's classic HyStart defaults. */
#define CLASSIC_LOW_WINDOW 16
#define CLASSIC_MIN_SAMPLES 8
#define CLASSIC_ACK_DELTA (2 * SB_MS)
#define CLASSIC_DELAY_MIN (4 * SB_MS)
#define CLASSIC_DELAY_MAX (1000 * SB_MS)

/* Linux tcp_cubic.c: HYSTART_DELAY_MIN / MAX bound delay_min / 8; the ACK-train allowance is
 * 4 GSO bursts of sk_gso_max_size (64 KB) at the pacing rate, at most 1 ms. */
#define LINUX_DELAY_MIN (4 * SB_MS)
#define LINUX_DELAY_MAX (16 * SB_MS)
#define LINUX_GSO_BYTES 65536u
#define LINUX_ACK_DELAY_MAX SB_MS

enum { PHASE_SS, PHASE_CSS, PHASE_DONE };

void tcp_hystart_init(struct sb_flows *fl, struct sb_tcp *tcp)
{
	const struct sb_tcp_params *p = fl->tcp;
	struct sb_tcp_hystart *h = &tcp->hs;
	*h = (struct sb_tcp_hystart){
		.last_round_min = SB_TIME_NEVER, .cur_round_min = SB_TIME_NEVER,
		.css_baseline = SB_TIME_NEVER, .delay_min = SB_TIME_NEVER,
		.min_thresh = sb_time_from_us(p->hystart_min_rtt_thresh_us),
		.max_thresh = sb_time_from_us(p->hystart_max_rtt_thresh_us),
	};
	tcp->hystart_phase = PHASE_SS;
	switch (p->hystart) {
	case SB_TCP_HYSTART_AUTO: tcp->hystart_mode = tcp->cc == &sb_cc_cubic ? SB_HYSTART_PP : SB_HYSTART_OFF; break;
	case SB_TCP_HYSTART_PP: tcp->hystart_mode = SB_HYSTART_PP; break;
	case SB_TCP_HYSTART_CLASSIC: tcp->hystart_mode = SB_HYSTART_CLASSIC; break;
	case SB_TCP_HYSTART_LINUX: tcp->hystart_mode = SB_HYSTART_LINUX; break;
	default: tcp->hystart_mode = SB_HYSTART_OFF; break;
	}
}

unsigned tcp_hystart_divisor(const struct sb_tcp *tcp)
{
	return tcp->hystart_phase == PHASE_CSS ? CSS_GROWTH_DIVISOR : 1;
}

static void hystart_pp(struct sb_tcp *tcp, uint64_t ack, sb_time rtt)
{
	struct sb_tcp_hystart *h = &tcp->hs;
	if (ack >= h->window_end) {
		/* a new round */
		h->last_round_min = h->cur_round_min;
		h->cur_round_min = SB_TIME_NEVER;
		h->samples = 0;
		h->window_end = tcp->snd_nxt;
		if (tcp->hystart_phase == PHASE_CSS && ++h->css_rounds > CSS_ROUNDS) {
			tcp->ssthresh = tcp->cwnd; /* CSS is over: congestion avoidance */
			tcp->hystart_phase = PHASE_DONE;
			return;
		}
	}
	if (rtt < h->cur_round_min)
		h->cur_round_min = rtt;
	if (h->samples < UINT8_MAX)
		h->samples++;
	if (h->samples < N_RTT_SAMPLE || h->cur_round_min == SB_TIME_NEVER)
		return;
	if (tcp->hystart_phase == PHASE_SS) {
		if (h->last_round_min == SB_TIME_NEVER)
			return;
		sb_time thresh = h->last_round_min / MIN_RTT_DIVISOR;
		if (thresh > h->max_thresh)
			thresh = h->max_thresh;
		if (thresh < h->min_thresh)
			thresh = h->min_thresh;
		if (h->cur_round_min >= h->last_round_min + thresh) {
			h->css_baseline = h->cur_round_min;
			tcp->hystart_phase = PHASE_CSS;
			h->css_rounds = 1; /* the partial round counts (§4.2) */
			tcp->stats.hystart_exits++;
		}
	} else if (h->css_rounds > 1 && h->cur_round_min < h->css_baseline) {
		/* A round begun in CSS saw a lower minimum than the exit's: the delay increase was
		 * spurious, back to slow start. Not in the exit's own round, whose minimum is the
		 * baseline: a later, lower sample there would flip slow start back and forth. */
		h->css_baseline = SB_TIME_NEVER;
		tcp->hystart_phase = PHASE_SS;
	}
}

/* How long a round's ACK train must last to end slow start. */
static sb_time train_threshold(const struct sb_tcp *tcp)
{
	const struct sb_tcp_hystart *h = &tcp->hs;
	if (tcp->hystart_mode != SB_HYSTART_LINUX)
		return h->delay_min;
	/* 4 GSO bursts at the pacing rate 2 cwnd / SRTT (none before an RTT sample) */
	sb_time ack_delay = 0;
	if (tcp->srtt) {
		unsigned __int128 d = (unsigned __int128)(4u * LINUX_GSO_BYTES) * tcp->srtt / (2 * tcp->cwnd);
		ack_delay = d < LINUX_ACK_DELAY_MAX ? (sb_time)d : LINUX_ACK_DELAY_MAX;
	}
	return (h->delay_min + ack_delay) / 2;
}

/* How much a round's RTT must exceed the smallest for the delay test. */
static sb_time delay_threshold(const struct sb_tcp *tcp)
{
	const struct sb_tcp_hystart *h = &tcp->hs;
	if (tcp->hystart_mode == SB_HYSTART_LINUX) {
		sb_time t = h->delay_min / 8;
		return t < LINUX_DELAY_MIN ? LINUX_DELAY_MIN : t > LINUX_DELAY_MAX ? LINUX_DELAY_MAX : t;
	}
	return h->delay_min < CLASSIC_DELAY_MIN ? CLASSIC_DELAY_MIN
	       : h->delay_min > CLASSIC_DELAY_MAX ? CLASSIC_DELAY_MAX : h->delay_min;
}

static void hystart_classic(struct sb_tcp *tcp, uint64_t ack, sb_time rtt, sb_time now)
{
	struct sb_tcp_hystart *h = &tcp->hs;
	if (rtt < h->delay_min)
		h->delay_min = rtt;
	if (!h->found && tcp->cwnd >= (uint64_t)CLASSIC_LOW_WINDOW * tcp->mss) {
		/* (a) ACK train, from the first round on (ns-3 starts lastAck at -infinity) */
		if (h->window_end && now - h->last_ack <= CLASSIC_ACK_DELTA) {
			h->last_ack = now;
			if (now - h->round_start > train_threshold(tcp))
				h->found = true;
		}
		/* (b) delay increase over the round's first samples */
		if (h->samples < CLASSIC_MIN_SAMPLES) {
			if (rtt < h->cur_round_min)
				h->cur_round_min = rtt;
			h->samples++;
		} else {
			if (h->cur_round_min > h->delay_min + delay_threshold(tcp))
				h->found = true;
		}
		if (h->found) {
			tcp->ssthresh = tcp->cwnd; /* ns-3's exit: congestion avoidance from here */
			tcp->stats.hystart_exits++;
			return;
		}
	}
	if (ack > h->window_end) {
		/* a new round (ns-3's HystartReset, done before the window grows) */
		h->round_start = h->last_ack = now;
		h->window_end = tcp->snd_max;
		h->cur_round_min = SB_TIME_NEVER;
		h->samples = 0;
	}
}

void tcp_hystart_on_ack(struct sb_tcp *tcp, uint64_t ack, sb_time rtt, sb_time now)
{
	if (tcp->hystart_mode == SB_HYSTART_PP) {
		/* only the initial slow start (§4.3), until CSS hands over */
		if (tcp->ssthresh == UINT64_MAX && tcp->hystart_phase != PHASE_DONE)
			hystart_pp(tcp, ack, rtt);
	} else if (tcp->hystart_mode == SB_HYSTART_CLASSIC || tcp->hystart_mode == SB_HYSTART_LINUX) {
		if (tcp->cwnd <= tcp->ssthresh)
			hystart_classic(tcp, ack, rtt, now);
	}
}

void tcp_hystart_on_timeout(struct sb_tcp *tcp)
{
	struct sb_tcp_hystart *h = &tcp->hs;
	/* HyStart++ is over (ssthresh is now finite); ns-3 resets classic HyStart on a timeout */
	tcp->hystart_phase = PHASE_DONE;
	if (tcp->hystart_mode == SB_HYSTART_CLASSIC || tcp->hystart_mode == SB_HYSTART_LINUX) {
		h->found = false;
		h->delay_min = SB_TIME_NEVER;
		h->window_end = 0;
	}
}
