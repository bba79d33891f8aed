#!/bin/sh
# testbed/report.sh RESULTS_DIR — testbed/REPORT.md on stdout, every number read from the
# CSVs that testbed/validate.sh wrote (dt_steady.csv, incast.csv, incast_ranking.csv);
# nothing in it is typed by hand. The prose states only what the numbers show: where a
# statement depends on them, the script decides it from them.
R=${1:-testbed/results}
# the commit that produced the results (testbed/validate.sh records it), not the one writing
# the report
commit=$(awk -F, 'NR == 2 { print $1 }' "$R/run.csv" 2>/dev/null)
run_date=$(awk -F, 'NR == 2 { print $2 }' "$R/run.csv" 2>/dev/null)
[ -n "$commit" ] || { commit="unknown (no $R/run.csv)"; run_date="an unknown date"; }
nq=$(awk -F, 'NR == 2 { print $19 }' "$R/incast.csv")
machine=$(awk -F, 'NR == 2 { printf "Linux %s on %s (%s cores); the idle RTT of a plain veth pair between two namespaces there (bench/veth-rtt.sh): %s µs median, %s µs p99", $1, $2, $3, $4, $5 }' "$R/machine.csv")

cat <<EOF
# Testbed validation: real Linux TCP and the MMU library on real packets, against theory and the simulator

Written by \`sh testbed/validate.sh\` (testbed/report.sh) from the CSVs in testbed/results/,
measured at commit $commit on $run_date on a 2-core machine: hosts are network namespaces joined by veth pairs to
\`build/sharebuf-switch\` (docs/testbed.md). Software timing (the switch shares 2 cores with
every host's stack) is the testbed's main limit; see docs/testbed.md §Limits. The machine:
$machine. The kernel's speed moves every testbed number (docs/testbed.md, §Limits, on
machines).

## (a) DT steady state

testbed/dt-steady.cfg: B = 200,000 bytes, α = 1, n egress ports of 0.1 Gb/s each overloaded
by two iperf3 UDP flows of 0.1 Gb/s. Dynamic Thresholds' fixed point (Choudhury & Hahne):
every one of the n queues holds T = αB/(1 + nα). Testbed: the median buffer occupancy
(build/sharebuf-switch's occupancy.csv, 1 ms samples) over the run's second half divided by
n; simulator: the same scenario, the same statistic. Pass: the testbed within 5 % of T.
(testbed/results/dt_steady.csv also has the mean queue the switch held when it stopped, from
queues.csv; it depends on which senders were still sending at that instant, so it is not
used.)

| n | T = αB/(1+nα) (B) | testbed (B) | testbed vs T | simulator (B) | simulator vs T | pass |
|---|---|---|---|---|---|---|
EOF
awk -F, 'NR > 1 { printf "| %s | %s | %.0f | %+.1f %% | %.0f | %+.1f %% | %s |\n", $1, $2, $3, $4, $6, $7, $8 }' "$R/dt_steady.csv"
npass=$(awk -F, 'NR > 1 && $8 == "yes"' "$R/dt_steady.csv" | wc -l)
nall=$(awk -F, 'NR > 1' "$R/dt_steady.csv" | wc -l)
cat <<EOF

$npass of $nall pass. A queue takes whole frames, so it stops within one frame (1,514 bytes)
below its threshold: the simulator sits there; the testbed's software timing adds the rest
(see the end of this report).

## (b) Incast: the same scenario on the testbed and in the simulator

testbed/incast.cfg: 8 hosts at 1 Gb/s on one switch with 200 KB of buffer; every host sends
10 queries/s (Poisson, 10 s: $nq queries per run) of 400 KB split over \`fanin\` responders.
TCP is Linux's defaults on both sides: Cubic with HyStart's ACK-train and delay tests and a
slow start that grows by every segment an ACK covers, SACK, RACK (which ignores a
retransmission delivered sooner than the minimum RTT) and the tail-loss probe (its timeout
2 SRTT + 8 ms, Linux's two jiffies at HZ = 250), a 200 ms minimum RTO, a 1 s initial RTO and
SYN timeout, an ACK for each of a connection's first 16 segments, then per two segments or
after 40 ms, and an initial window of 10 segments (a response is not sent at once, as in the
papers' incasts: \`full_window = false\`). Each flow opens its own connection on both sides, and its ACKs and SYNs share the switch's
buffer with the data (the testbed's switch classifies by DSCP alone; the simulator's
\`tcp.ack_path = "data"\`). The simulator's hosts send with 20 µs of timing noise
(\`host.send_jitter_us\`; see "phase lock" below). The testbed's flows are the simulator's (the
same generator, seed and sizes: sharebuf-load plays them). QCT = the slowest response's FCT
of a query, in ms, nearest-rank percentiles; "RTO share" = queries of QCT ≥ 200 ms, i.e.
that waited for a retransmission or SYN timeout; "≥ 1 s" = those that waited for a SYN
timeout (or backed off twice). Pass: median and p99 within ±30 %.

| fan-in | scheme | testbed p50 | sim p50 | diff | testbed p99 | sim p99 | diff | testbed mean | sim mean | testbed drops | sim drops | testbed RTO share / ≥ 1 s | sim RTO share / ≥ 1 s | within ±30 % |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
EOF
awk -F, 'NR > 1 { printf "| %s | %s | %.2f | %.2f | %+.0f %% | %.1f | %.1f | %+.0f %% | %.1f | %.1f | %s | %s | %s / %s %% | %s / %s %% | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $16, $17, $9, $10, $11, $14, $12, $15, $13 }' "$R/incast.csv"
ok=$(awk -F, 'NR > 1 && $13 == "yes"' "$R/incast.csv" | wc -l)
all=$(awk -F, 'NR > 1' "$R/incast.csv" | wc -l)
cat <<EOF

$ok of $all (fan-in, scheme) pairs agree within ±30 % on both the median and the p99.

Ranking of the schemes by median QCT and by mean QCT (best first). The mean counts every
timeout's wait, so it ranks the schemes by how many queries they make wait and how long:

| fan-in | by | testbed | simulator | same order |
|---|---|---|---|---|
EOF
awk -F, 'NR > 1 { r[$1, $2] = $3; m[$1, $2] = $4; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	END { for (i = 1; i <= n; i++) { f = order[i]
		printf "| %s | median | %s | %s | %s |\n", f, r[f, "testbed"], r[f, "sim"], r[f, "testbed"] == r[f, "sim"] ? "yes" : "no"
		printf "| %s | mean | %s | %s | %s |\n", f, m[f, "testbed"], m[f, "sim"], m[f, "testbed"] == m[f, "sim"] ? "yes" : "no" } }' "$R/incast_ranking.csv"
td=$(awk -F, 'NR > 1 { s += $9 } END { print s + 0 }' "$R/incast.csv")
sd=$(awk -F, 'NR > 1 { s += $10 } END { print s + 0 }' "$R/incast.csv")
more=$(awk -v a="$sd" -v b="$td" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "inf" }')
# medians off by more than 30 % with the timeout share on opposite sides of 50 % (bimodal QCT)
p50off=$(awk -F, 'NR > 1 && ($5 > 30 || $5 < -30)' "$R/incast.csv" | wc -l)
p50cross=$(awk -F, 'NR > 1 && ($5 > 30 || $5 < -30) && (($11 >= 50) != ($12 >= 50))' "$R/incast.csv" | wc -l)
p50gap=$(awk -F, 'NR > 1 && ($5 > 30 || $5 < -30) && (($11 >= 50) == ($12 >= 50)) { d = $3 - $4; if (d < 0) d = -d; if (d > m) m = d }
	END { printf "%.1f", m }' "$R/incast.csv")
# per fan-in and side, the spread (max - min, ms) of the medians below 200 ms (no timeout)
spread=$(awk -F, 'NR > 1 { for (c = 3; c <= 4; c++) if ($c < 200) { k = $1 SUBSEP c; if (!(k in lo) || $c < lo[k]) lo[k] = $c; if ($c > hi[k]) hi[k] = $c } }
	END { for (k in lo) if (hi[k] - lo[k] > m) m = hi[k] - lo[k]; printf "%.1f", m }' "$R/incast.csv")
p99off=$(awk -F, 'NR > 1 && ($8 > 30 || $8 < -30)' "$R/incast.csv" | wc -l)
# p99s off by more than 30 % that are of a second or more on one side only, with both sides'
# shares of queries that waited 1 s or more
p99split=$(awk -F, 'NR > 1 && ($8 > 30 || $8 < -30) && (($6 >= 1000) != ($7 >= 1000))' "$R/incast.csv" | wc -l)
p99list=$(awk -F, 'NR > 1 && ($8 > 30 || $8 < -30) && (($6 >= 1000) != ($7 >= 1000)) {
	printf "%s%s at fan-in %s: %s %% on the testbed, %s %% in the simulator", (n++ ? "; " : ""), $2, $1, $14, $15 }' "$R/incast.csv")
# the other p99s off by more than 30 %: the share of queries that waited for any timeout is
# at least 1 % on one side only (testbed side first)
p99rto=$(awk -F, 'NR > 1 && ($8 > 30 || $8 < -30) && (($6 >= 1000) == ($7 >= 1000)) && (($11 >= 1) != ($12 >= 1))' "$R/incast.csv" | wc -l)
p99rtotb=$(awk -F, 'NR > 1 && ($8 > 30 || $8 < -30) && (($6 >= 1000) == ($7 >= 1000)) && $11 >= 1 && $12 < 1' "$R/incast.csv" | wc -l)
tb1s=$(awk -F, 'NR > 1 { s += $14; n++ } END { printf "%.1f", n ? s / n : 0 }' "$R/incast.csv")
sim1s=$(awk -F, 'NR > 1 { s += $15; n++ } END { printf "%.1f", n ? s / n : 0 }' "$R/incast.csv")
# ablation.csv: mean |sim - testbed| of the RTO share (odd columns from 5 against 3) and of
# the >= 1 s share (even columns from 6 against 4), over the rows
gap() { awk -F, -v c="$1" -v t="$2" 'NR > 1 { d = $c - $t; if (d < 0) d = -d; s += d; n++ } END { printf "%.1f", n ? s / n : 0 }' "$R/ablation.csv"; }
mean_col() { awk -F, -v c="$1" 'NR > 1 { s += $c; n++ } END { printf "%.1f", n ? s / n : 0 }' "$R/ablation.csv"; }
cat <<EOF

### Where the two differ, and what the data say about it

A query's QCT is bimodal: a few ms, or 200 ms and more when a response waited for a
timeout. So a median differs by a whole timeout when the share of queries that waited ("RTO
share") is above 50 % on one side and below it on the other, and a p99 when that share
crosses 1 %. Of the $p50off rows whose median is off by more than 30 %, $p50cross cross 50 % so;
in the others both medians are of a few ms, at most $p50gap ms apart. Of the
$p99off rows whose p99 is off by more than 30 %, $p99split have a p99 of a second or more on
one side only: one wait of 1 s, which in this configuration is Linux's SYN timeout
(TCP_TIMEOUT_INIT; data timeouts start at 200 ms and double to 400 and 800 ms), so the share
of queries that waited 1 s or more is above 1 % on one side and below it on the other
($p99list). In $p99rto of the others the share of queries that waited for any timeout
(≥ 200 ms) is 1 % or more on one side and less on the other, in $p99rtotb of them on the testbed's:
its Linux senders wait for a timeout after losses the simulator's TCP repairs without one (the
mean RTO shares below). On average $tb1s % of the testbed's queries wait 1 s or more,
and $sim1s % of the simulator's: on both, a connection's handshake crosses the incast's
congested port (the testbed's client connects, so there its SYN-ACK does; in the simulator
the sender's SYN) and is lost there with the data.

### How Linux left slow start

The testbed's kernels count, per host, the connections they opened and the times HyStart's
ACK train ended slow start, with the cwnd then (nstat: TcpActiveOpens,
TcpExtTCPHystartTrainDetect, TcpExtTCPHystartTrainCwnd, saved by testbed/run.sh in
hosts/nstat*.txt). The simulator runs Linux's thresholds (\`tcp.hystart = "linux"\`,
docs/transports.md); ns-3's rule needs only a train longer than the smallest RTT (the
ablation below shows what that changes).

| fan-in | scheme | connections | ACK-train exits | mean cwnd at the exit (segments) |
|---|---|---|---|---|
EOF
awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$R/linux_hystart.csv"
# tcp_counters.csv: per fan-in, scheme and side (testbed, sim, sim_rfc_rack, sim_no_compress) the summary.json
# "tcp" counters; ctot SIDE COLUMN sums a column over the rows of one side
ctot() { awk -F, -v side="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$3 == side { s += $col[c] } END { printf "%d", s }' "$R/tcp_counters.csv"; }
pct_of() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b ? 100 * a / b : 0 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b ? a / b : 0 }'; }
to_tb=$(ctot testbed timeouts); sk_tb=$(ctot testbed timeouts_sacked); rec_tb=$(ctot testbed timeouts_in_recovery)
to_sim=$(ctot sim timeouts); sk_sim=$(ctot sim timeouts_sacked); rec_sim=$(ctot sim timeouts_in_recovery)
sk_rfc=$(ctot sim_rfc_rack timeouts_sacked); to_rfc=$(ctot sim_rfc_rack timeouts)
lp_tb=$(ctot testbed loss_probes); lp_sim=$(ctot sim loss_probes)
syn_tb=$(ctot testbed syn_retransmits); syn_sim=$(ctot sim syn_retransmits)
rx_tb=$(ctot testbed retransmitted_segments); rx_sim=$(ctot sim retransmitted_segments)
lr_tb=$(ctot testbed lost_retransmits); lr_sim=$(ctot sim lost_retransmits)
cat <<EOF

### What each side's TCP did about its losses

Both sides count their senders' loss events in summary.json's "tcp" block: the simulator its
own, the testbed the sum of its hosts' kernel counters (nstat, which testbed/run.sh saves and
\`sharebuf-load report --nstat\` adds up; docs/outputs.md pairs each key with its Linux
counter). Timeouts are all retransmission timeouts, SYN ones included; "after SACKs" are those
that came outside fast recovery with data SACKed (TCPSackFailures), "in recovery" those that
came in fast recovery (TCPSackRecoveryFail). Testbed / simulator:

| fan-in | scheme | timeouts | after SACKs | in recovery | SYN retransmissions | loss probes | lost retransmissions | retransmitted segments |
|---|---|---|---|---|---|---|---|---|
EOF
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ k = $1 SUBSEP $2; if (!(k in seen)) { seen[k] = 1; keys[++n] = k; f[n] = $1; sc[n] = $2 }
	  for (i = 4; i <= NF; i++) v[k, $3, i] = $i }
	END { split("timeouts timeouts_sacked timeouts_in_recovery syn_retransmits loss_probes lost_retransmits retransmitted_segments", want, " ")
		for (r = 1; r <= n; r++) { k = keys[r]; printf "| %s | %s |", f[r], sc[r]
			for (j = 1; j <= 7; j++) printf " %s / %s |", v[k, "testbed", col[want[j]]], v[k, "sim", col[want[j]]]
			printf "\n" } }' "$R/tcp_counters.csv"
cat <<EOF

Over these rows the testbed's senders took $to_tb timeouts, $sk_tb of them ($(pct_of "$sk_tb" "$to_tb") %)
after SACKs and $rec_tb in recovery; the simulator's $to_sim, $sk_sim after SACKs and $rec_sim in recovery.
A timeout after SACKs means the sender knew what had arrived and still waited. Packet traces
of such testbed connections (tcpdump in a host's namespace) show one pattern: a response's
last segments are all lost, the tail-loss probe sends the last one again 2 SRTT + 8 ms later,
its ACK SACKs it, and nothing is retransmitted before the RTO. The probe came back through a
queue that had drained, sooner than any RTT the connection had measured, and Linux's RACK
does not use a retransmission delivered sooner than the minimum RTT (it might be the original
arriving late: RFC 8985 §6.2 step 2, tcp_rack_advance), so the probe's SACK marked nothing
lost. The simulator has that rule as \`tcp.rack_retx_min_rtt\` (on in incast.cfg; the
handshake's RTT then counts in the minimum, as in Linux): with it $sk_sim of its timeouts come
after SACKs, without it $sk_rfc (of $to_rfc).
EOF
if [ "$(awk -v a="$lp_tb" -v b="$lp_sim" 'BEGIN { print (a > 1.5 * b) }')" = 1 ]; then
	cat <<EOF
What the simulator does not reproduce is how often a response loses its whole tail, the case
the probe is for: the testbed's hosts sent $lp_tb loss probes, the simulator's $lp_sim ($(ratio "$lp_tb" "$lp_sim")×
fewer). That is where the RTO shares part: the testbed's senders lose whole tails because
their segments leave in bursts (the next section), and a burst that meets a full queue is
dropped to its end, which the simulator's 1 Gb/s NICs, spacing each sender's segments,
rarely produce.
EOF
else
	echo "Both sides sent about as many loss probes: the testbed $lp_tb, the simulator $lp_sim."
fi
size() { awk -v a="$1" -v b="$2" 'BEGIN { r = b ? a / b : 0; print (r >= 2 / 3 && r <= 1.5 ? "agree in size" : "differ") }'; }
more() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? "more" : "less") }'; }
cat <<EOF
Retransmitted segments $(size "$rx_tb" "$rx_sim"): $rx_tb on the testbed, $rx_sim in the simulator; SYN
retransmissions $(size "$syn_tb" "$syn_sim"): $syn_tb and $syn_sim. The simulator's retransmissions are lost
$(more "$lr_sim" "$lr_tb") often: $lr_sim lost retransmissions against $lr_tb, $(pct_of "$lr_sim" "$rx_sim") % of its
retransmissions against $(pct_of "$lr_tb" "$rx_tb") % of the testbed's. A retransmission is lost when it meets a
queue still full, in the middle of an incast; the testbed's repairs come mostly after its
queue drained (after a probe or a timeout), which fits losses that hit whole bursts at the
end of a flight rather than a segment here and there while the queue is full.
EOF
# testbed_segments.csv: per fan-in and scheme, the testbed's segments at the hosts and the switch
stot() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { s += $col[c] } END { printf "%d", s }' "$R/testbed_segments.csv"; }
hs=$(stot hosts_sent); sr=$(stot switch_received); sf=$(stot switch_forwarded); swd=$(stot switch_dropped)
hr=$(stot hosts_received); conns=$(stot connections); ring=$(stot ring_dropped); vtx=$(stot hosts_veth_tx)
comp_tb=$(ctot testbed acks_compressed); comp_sim=$(ctot sim acks_compressed)
lp_nc=$(ctot sim_no_compress loss_probes); lr_nc=$(ctot sim_no_compress lost_retransmits)
rx_nc=$(ctot sim_no_compress retransmitted_segments); to_nc=$(ctot sim_no_compress timeouts)
pa_tb=$(ctot testbed pure_acks); dl_tb=$(ctot testbed delivered); ofo_tb=$(ctot testbed ofo_segments)
pa_sim=$(ctot sim pure_acks); dl_sim=$(ctot sim delivered); ofo_sim=$(ctot sim ofo_segments)
spa_tb=$(ratio "$dl_tb" "$pa_tb"); spa_sim=$(ratio "$dl_sim" "$pa_sim")
if [ "$vtx" = "$((sr + ring))" ] && [ "$sf" = "$hr" ]; then
	where="While the switch ran their veths sent $vtx packets (the kernel's interface counters, saved by testbed/run.sh), every one of which the switch received or, its receive ring full, the kernel dropped before it read them ($ring; switch.json's rx_ring_dropped): no segment was lost outside the MMU's decisions, and the losses the two sides compare are the buffer's."
	[ "$hs" = "$vtx" ] || where="$where TCP counted $((hs - vtx)) segments more than the veths sent: they never left the hosts' kernels."
else
	where="The counts do not add up (the hosts' veths sent $vtx packets, the switch received $sr, its rings dropped $ring): packets were lost where nothing counts them."
fi
stretch=$(awk -v a="$spa_tb" -v b="$spa_sim" 'BEGIN {
	if (a > 1.5 * b) print "The testbed'"'"'s ACKs cover more segments each: its receivers stretch their ACKs."
	else print "Linux'"'"'s receivers ACK about as often as the simulator'"'"'s or less, so stretch ACKs are not what makes the testbed'"'"'s senders lose whole tails (packet traces show a few ACKs of many segments, too few to matter)."
}')
behind=$(awk -v a="$ofo_tb" -v ra="$rx_tb" -v b="$ofo_sim" -v rb="$rx_sim" 'BEGIN {
	x = ra ? a / ra : 0; y = rb ? b / rb : 0
	if (y > 1.25 * x) print "The simulator'"'"'s losses leave more of the flight behind them, to be SACKed and repaired in fast recovery; the testbed'"'"'s more often take the flight'"'"'s end, where only a probe or the RTO finds them (the loss probes above)."
	else print "Both sides'"'"' losses leave about as much of the flight behind them."
}')
cat <<EOF

### Where the segments went, and how the receivers acknowledged them

Where the testbed's segments went: the hosts' kernels sent $hs segments (TcpOutSegs, plus
TcpRetransSegs for the retransmissions), the switch received $sr; it forwarded $sf and
dropped $swd, and the hosts took in $hr (TcpInSegs). $where

Do the testbed's receivers acknowledge in stretches, so that one ACK releases a long burst?
Both sides count the ACKs without data their senders took in (\`pure_acks\`: TCPPureAcks +
TCPHPAcks on Linux) and the data segments delivered (\`delivered\`: TCPDelivered, which on
Linux also counts the handshake, the request and the close, about 4 per connection of
$conns): the testbed's senders got one ACK per $spa_tb delivered segments, the simulator's
one per $spa_sim. $stretch Linux acknowledges a connection's first 16 segments one by one and
then every second, as the simulator does (incast.cfg's \`tcp.quickack_segs\` and
\`delack_count\`). It also compresses its SACKs: above a hole, after 3 ACKs at once, the
ACKs of further out-of-order segments are withheld and replaced by one after 5 % of the RTT
plus up to 100 µs (TCPAckCompressed: the testbed's receivers withheld $comp_tb ACKs). The
simulator models it (incast.cfg's \`tcp.sack_compress_nr = 44\`, docs/transports.md) and
withheld $comp_sim. Without it (every out-of-order segment acknowledged at once, as in ns-3)
its senders sent $lp_nc loss probes instead of $lp_sim, took $to_nc timeouts instead of $to_sim, and lost
$(pct_of "$lr_nc" "$rx_nc") % of their retransmissions instead of $(pct_of "$lr_sim" "$rx_sim") %$(awk -v a="$lr_nc" -v ra="$rx_nc" -v b="$lr_sim" -v rb="$rx_sim" 'BEGIN {
	if (ra && rb && a / ra > 1.2 * b / rb) print ": SACKs that come later repair later, into a queue that had time to drain"
}') (the RTO shares with and without it are in the table below).

Where a loss leaves the rest of the flight: a segment that arrives above a hole is held out
of order (\`ofo_segments\`, TCPOFOQueue). The testbed's receivers held $ofo_tb, $(ratio "$ofo_tb" "$rx_tb") per
retransmitted segment; the simulator's $ofo_sim, $(ratio "$ofo_sim" "$rx_sim") per retransmitted segment.
$behind
EOF
cat <<EOF

### Which models the agreement rests on

The simulator alone, incast.cfg with one model taken back each time: without the hosts'
send jitter; with ACKs and SYNs in the control queue, outside the buffer (the ns-3
artifacts' choice and the simulator's default); with flows that start established (no
handshake); and with each response sent at once, its initial window covering it (the
papers' incasts, the simulator's default: \`workloads.N.full_window = true\`) instead of
Linux's 10 segments; with ns-3's HyStart instead of Linux's; with RACK using every
delivery (RFC 8985 without its §6.2 step 2 minimum-RTT test, \`tcp.rack_retx_min_rtt = false\`);
and with ns-3's slow-start growth (RFC 3465's limit of 2 segments per ACK, delayed ACKs from
the first segment) instead of Linux's; and with every out-of-order segment acknowledged at
once (\`tcp.sack_compress_nr = 0\`, RFC 5681 and ns-3) instead of Linux's SACK compression.
RTO share / share of ≥ 1 s, in %:

| fan-in | scheme | testbed | simulator | without send jitter | ACKs and SYNs outside the buffer | no handshake | responses at once | ns-3's HyStart | RACK without the min-RTT test | ns-3's slow-start growth | no SACK compression |
|---|---|---|---|---|---|---|---|---|---|---|---|
EOF
awk -F, 'NR > 1 { printf "| %s | %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22 }' "$R/ablation.csv"
cat <<EOF

Mean distance to the testbed over these rows (percentage points), RTO share / ≥ 1 s share:
the simulator as configured $(gap 5 3) / $(gap 6 4); without send jitter $(gap 7 3) / $(gap 8 4); with
ACKs and SYNs outside the buffer $(gap 9 3) / $(gap 10 4); without the handshake $(gap 11 3) / $(gap 12 4);
responses at once $(gap 13 3) / $(gap 14 4); ns-3's HyStart $(gap 15 3) / $(gap 16 4); RACK without the min-RTT
test $(gap 17 3) / $(gap 18 4); ns-3's slow-start growth $(gap 19 3) / $(gap 20 4); without SACK compression
$(gap 21 3) / $(gap 22 4). Mean RTO share:
testbed $(mean_col 3) %, simulator $(mean_col 5) %, with responses at once $(mean_col 13) %, with ns-3's
HyStart $(mean_col 15) %.
The testbed's mean ≥ 1 s share is $(mean_col 4) %; the simulator's is $(mean_col 6) % as configured and
$(mean_col 10) % with ACKs and SYNs outside the buffer, where no SYN can be lost.

*Phase lock.* Without send jitter the mean RTO share is $(mean_col 7) % (as configured: $(mean_col 5) %,
testbed: $(mean_col 3) %). It matters with the simulator's defaults for TCP and incasts
(HyStart++, an ACK per segment, ACKs outside the buffer, responses sent at once) and the
handshake: DT at fan-in 4, $(awk -F, '$1 == 20 { print $2 }' "$R/phase_lock.csv") % with 20 µs of jitter and $(awk -F, '$1 == 0 { print $2 }' "$R/phase_lock.csv") % without
(testbed/results/phase_lock.csv). Without it every responder of a query starts at the same instant, and
after the handshake their windows can reach the switch at the same picosecond, round after
round; when the port's queue is full, tail drop then takes the tails of the same flows, and
their tail-loss probes, every time, and those flows wait for the RTO. Real hosts do not keep such step: their
packets leave with tens of µs of software noise. host.send_jitter_us (src/net/port.c) gives
each packet a host sends U[0, J] of extra delay on its link, in order, from a random stream
per host (tests/sim/test_send_jitter.c).

EOF
band() { awk -F, -v side="$1" -v c="$2" 'NR > 1 && $3 == side { s += $c; n++ } END { printf "%.1f", n ? s / n : 0 }' "$R/fct_bands.csv"; }
fastnic=$(awk -v t="$(band testbed 5)" -v s="$(band sim 5)" -v f="$(band sim_fast_nic 5)" 'BEGIN {
	if (f > t) print "has the testbed'"'"'s band, and more of it"
	else if (f > s) print "has more of the testbed'"'"'s band, not all of it"
	else print "does not have the testbed'"'"'s band either" }')
cat <<EOF
### The testbed's extra milliseconds: its senders burst

Where neither side's median query waited for a timeout, the testbed's median is still a few
ms above the simulator's in most rows of the table. The flows' FCTs show where that comes
from (flows.csv of the same runs; in % of the flows, and the median QCT in ms), beside the
simulator with hosts whose NICs send at 10 Gb/s (\`host.nic_rate_gbps = 10\`) instead of 1:

| fan-in | scheme | FCT < 8 ms: testbed / sim / sim, 10 Gb/s NICs | 8–20 ms | 20–200 ms | ≥ 200 ms | QCT p50 |
|---|---|---|---|---|---|---|
EOF
awk -F, 'NR > 1 { k = $1 SUBSEP $2; if (!(k in seen)) { seen[k] = 1; keys[++n] = k; f[n] = $1; sc[n] = $2 }
		for (c = 4; c <= 8; c++) v[k, $3, c] = $c }
	END { for (i = 1; i <= n; i++) { k = keys[i]; printf "| %s | %s |", f[i], sc[i]
		for (c = 4; c <= 8; c++) printf (c < 8 ? " %.1f / %.1f / %.1f |" : " %.2f / %.2f / %.2f |"), v[k, "testbed", c], v[k, "sim", c], v[k, "sim_fast_nic", c]
		printf "\n" } }' "$R/fct_bands.csv"
cat <<EOF

Over these rows, $(band testbed 5) % of the testbed's flows take 8 to 20 ms, $(band sim 5) % of the
simulator's, and $(band sim_fast_nic 5) % with 10 Gb/s NICs. 8 ms is what Linux adds to its
tail-loss probe and to RACK's reordering timer (TCP_TIMEOUT_MIN, two jiffies at HZ = 250),
and such timers are needed when segments sent close together are lost together. On the
testbed nothing spaces a sender's segments (veth has no rate; the buffer fills faster than
the port drains, the fill rates below); in the simulator a 1 Gb/s NIC spaces them as far as
the port toward the receiver does, and ACKs find the losses. With faster NICs the simulator
$fastnic: on the testbed the switch's receive loop, which
forwards about 3 Gb/s over all its ports (BENCHMARKS.md, data plane), is what limits a burst,
and no NIC rate of the simulator models that loop; testbed/incast.cfg keeps the symmetric
1 Gb/s links.

EOF
cat <<EOF
Drops: over all rows of the table the simulator drops $sd packets and the testbed $td (the
simulator $more× as many) for the same flows. A likely cause: on the testbed a response's
packets reach the switch through the senders' kernels, veth and the switch's receive rings,
all on 2 shared cores, not at several line rates at once as from the simulator's NICs, so a
burst would fill the buffer more slowly and slow start overshoot less. Measured (DT, the same
scenario for 1.5 s with occupancy sampled every 50 µs): the rate at which the buffer grows,
over the sampling intervals in which it grows (arrivals minus the port's 1 Gb/s drain, Gb/s):

| fan-in | side | p50 | p90 | p99 |
|---|---|---|---|---|
EOF
awk -F, 'NR > 1 { printf "| %s | %s | %.2f | %.2f | %.2f |\n", $1, $2 == "sim" ? "simulator" : "testbed", $3, $4, $5 }' "$R/fill_rate.csv"
cat <<EOF

EOF
awk -F, 'NR > 1 { p[$1, $2] = $4; if (!($1 in seen)) { seen[$1] = 1; f[++n] = $1 } }
	END { for (i = 1; i <= n; i++) { k = f[i]; t = p[k, "testbed"]; m = p[k, "sim"]
		printf "At fan-in %s the testbed'"'"'s p90 fill rate is %.2f Gb/s, the simulator'"'"'s %.2f: %s.\n", k, t, m,
			t < m ? "bursts arrive more slowly on the testbed, as the drops say" : "faster on the testbed, whose senders no NIC holds to 1 Gb/s (veth has no rate) and whose switch takes frames from its rings in batches; here the arrival rate does not explain the testbed'"'"'s fewer drops" } }' "$R/fill_rate.csv"
meansame=$(awk -F, 'NR > 1 { m[$1, $2] = $4; f[$1] = 1 } END { for (k in f) n += m[k, "testbed"] == m[k, "sim"]; print n + 0 }' "$R/incast_ranking.csv")
nfan=$(awk -F, 'NR > 1 { f[$1] = 1 } END { for (k in f) n++; print n + 0 }' "$R/incast_ranking.csv")
cat <<EOF

The rankings follow
from the bimodality above: the medians without a timeout (below 200 ms) of one fan-in and
side lie at most $spread ms apart, so their order is decided by differences of the size of
the two sides' disagreement, and is not a result; an order is a result only where a scheme's
median includes a timeout on both sides. The mean QCT counts every query's wait, and by it the
two sides rank the schemes in the same order at $meansame of $nfan fan-ins.
EOF
rlo=$(awk -F, 'NR > 1 { if (!n++ || $3 < lo) lo = $3 } END { printf "%+.1f", lo }' "$R/dt_repeat.csv")
rhi=$(awk -F, 'NR > 1 { if (!n++ || $3 > hi) hi = $3 } END { printf "%+.1f", hi }' "$R/dt_repeat.csv")
rn=$(awk -F, 'NR > 1' "$R/dt_repeat.csv" | wc -l)
cat <<EOF

How much the DT steady state's level moves between runs: $rn more runs of n = 2 settled at
$rlo % to $rhi % of T (testbed/results/dt_repeat.csv). The senders are iperf3 UDP flows paced by a 100 µs timer
(testbed/run.sh); with iperf3's default of 1 ms each flow sends 8 frames at once every
millisecond, the queue drains that far below its threshold between bursts, and the level
moved from run to run by several per cent of T, as the flows' bursts fell.
EOF
