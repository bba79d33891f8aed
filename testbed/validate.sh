#!/bin/sh
# testbed/validate.sh — the testbed against theory and against the simulator; writes
# testbed/results/*.csv and testbed/REPORT.md from the runs' outputs (never by hand).
#
#   sh testbed/validate.sh [--out DIR] [--fanins "2 4 7"] [--ns "1 2 4"] [--schemes dt,abm,occamy,cs]
#
# (a) DT steady state (testbed/dt-steady.cfg): n ports overloaded by iperf3 UDP flows; the
#     per-queue occupancy (testbed/metrics.sh steady_queue) against αB/(1+nα), pass within 5 %;
#     the simulator's run of the same scenario beside it.
# (b) incast (testbed/incast.cfg: 8 hosts at 1 Gb/s, Linux's TCP defaults on both sides): a
#     fan-in sweep, each scheme on the testbed (testbed/run.sh) and in the simulator (sharebuf
#     compare, the same scenario and overrides); median and p99 QCT side by side, ±30 %, the
#     schemes' ranking by median and by mean QCT on each side, and what each side's TCP did
#     about its losses (summary.json's "tcp" counters; the testbed's from its kernels).
#     Then the simulator alone with one model each taken back (send jitter, ACKs and SYNs
#     in the buffer, the handshake, the initial window, Linux's HyStart, RACK's min-RTT test,
#     Linux's slow-start growth) or changed (responses
#     sent at once, as in the papers' incasts): which of them the agreement rests on; and with hosts
#     that send at 10 Gb/s (host.nic_rate_gbps), as the testbed's veth senders burst: the
#     flows' FCTs in bands on the three sides.
# (c) how fast bursts fill the buffer on each side (DT, 50 µs occupancy samples), the data
#     behind the drops' difference.
# Needs root (testbed/run.sh). About 8 minutes with the defaults.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
OUT=out/testbed-validate
FANINS="2 4 7"
NS="1 2 4"
SCHEMES="dt,abm,occamy,cs"
while [ $# -gt 0 ]; do
	case "$1" in
	--out) OUT=$2; shift 2 ;;
	--fanins) FANINS=$2; shift 2 ;;
	--ns) NS=$2; shift 2 ;;
	--schemes) SCHEMES=$2; shift 2 ;;
	*) echo "usage: sh testbed/validate.sh [--out DIR] [--fanins \"2 4 7\"] [--ns \"1 2 4\"] [--schemes A,B,...]" >&2; exit 2 ;;
	esac
done
. testbed/metrics.sh
make -s build/sharebuf build/sharebuf-load build/sharebuf-switch build/dp-udp || exit 1
RES=testbed/results
mkdir -p "$OUT" "$RES"

# the machine the testbed ran on: its kernel, and the idle RTT of a plain veth pair, the speed
# of the kernel networking every testbed number rides on (machines differ by 2x and more)
rtt=$(sh bench/veth-rtt.sh build) || exit 1
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo | tr -d ',')
echo "kernel,cpu,cores,veth_rtt_p50_us,veth_rtt_p99_us" >"$RES/machine.csv"
echo "$(uname -r),$cpu,$(nproc),$(echo "$rtt" | tr ' ' ',')" >>"$RES/machine.csv"
# the code that ran: the report is often written again later (testbed/report.sh), by a newer
# commit, and must name this one; "+changes" when the tree differed from it
tree=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && tree="$tree+changes"
echo "commit,date" >"$RES/run.csv"
echo "$tree,$(date -u +%Y-%m-%d)" >>"$RES/run.csv"

# --set arguments of the DT steady state with N overloaded ports: port i gets hosts 2i and
# 2i+1 to host 8+i (testbed/dt-steady.cfg has port 0)
steady_sets() {
	i=1
	while [ "$i" -lt "$1" ]; do
		printf ' --set workloads.%d.type=cbr --set workloads.%d.srcs=[%d,%d] --set workloads.%d.dst=%d' \
			"$i" "$i" $((2 * i)) $((2 * i + 1)) "$i" $((8 + i))
		printf ' --set workloads.%d.rate_gbps=0.1 --set workloads.%d.packet_bytes=1500 --set workloads.%d.transport=cbr' \
			"$i" "$i" "$i"
		i=$((i + 1))
	done
}

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0 || a == "nan" || b == "nan") print "nan"; else printf "%.1f\n", 100 * (a - b) / b }'; }
within() { awk -v d="$1" -v lim="$2" 'BEGIN { if (d == "nan") print "no"; else print (d <= lim && d >= -lim) ? "yes" : "no" }'; }

# ---- (a) DT steady state ----
B=200000
ALPHA=1
echo "n,fixed_point_bytes,testbed_queue_bytes,testbed_diff_pct,testbed_exit_queue_bytes,sim_queue_bytes,sim_diff_pct,pass" >"$RES/dt_steady.csv"
for n in $NS; do
	sets=$(steady_sets "$n")
	# shellcheck disable=SC2086  # a list of --set arguments
	sh testbed/run.sh testbed/dt-steady.cfg --schemes dt --out "$OUT/steady-n$n" $sets || exit 1
	# shellcheck disable=SC2086
	build/sharebuf run testbed/dt-steady.cfg $sets --out "$OUT/steady-n$n-sim" --quiet || exit 1
	fp=$(dt_fixed_point $B $ALPHA "$n")
	tq=$(steady_queue "$OUT/steady-n$n/dt" "$n")
	sq=$(steady_queue "$OUT/steady-n$n-sim" "$n")
	eq=$(exit_queue "$OUT/steady-n$n/dt" 8 "$n")
	td=$(pct "$tq" "$fp")
	sd=$(pct "$sq" "$fp")
	echo "$n,$fp,$tq,$td,$eq,$sq,$sd,$(within "$td" 5)" >>"$RES/dt_steady.csv"
done

# the same n = 2 run three more times: how much the steady level moves between runs
echo "run,testbed_queue_bytes,testbed_diff_pct" >"$RES/dt_repeat.csv"
fp=$(dt_fixed_point $B $ALPHA 2)
for r in 1 2 3; do
	# shellcheck disable=SC2086
	sh testbed/run.sh testbed/dt-steady.cfg --schemes dt --out "$OUT/steady-repeat$r" $(steady_sets 2) || exit 1
	tq=$(steady_queue "$OUT/steady-repeat$r/dt" 2)
	echo "$r,$tq,$(pct "$tq" "$fp")" >>"$RES/dt_repeat.csv"
done

# ---- (b) incast ----
# 10 s of queries (about 800): a p99 is then the 8th slowest query, not the 2nd
LONG="--set run.arrivals_ms=10000 --set run.duration_ms=11000"
echo "fanin,scheme,testbed_qct_p50_ms,sim_qct_p50_ms,p50_diff_pct,testbed_qct_p99_ms,sim_qct_p99_ms,p99_diff_pct,testbed_drops,sim_drops,testbed_rto_share_pct,sim_rto_share_pct,within_30pct,testbed_1s_share_pct,sim_1s_share_pct,testbed_qct_mean_ms,sim_qct_mean_ms,testbed_queries,sim_queries" >"$RES/incast.csv"
echo "fanin,side,ranking_by_median_qct,ranking_by_mean_qct" >"$RES/incast_ranking.csv"
echo "fanin,scheme,connections,hystart_train_exits,mean_cwnd_at_exit_segments" >"$RES/linux_hystart.csv"
# what each side's TCP did about its losses: summary.json's "tcp" counters (on the testbed the
# hosts' kernel counters, summed by sharebuf-load report; docs/outputs.md names the pairs)
COUNTERS="timeouts timeouts_sacked timeouts_in_recovery timeouts_repeated syn_retransmits recoveries loss_probes lost_retransmits retransmitted_segments pure_acks delivered ofo_segments acks_compressed"
echo "fanin,scheme,side,$(echo "$COUNTERS" | tr ' ' ',')" >"$RES/tcp_counters.csv"
# where the testbed's segments went: sent by the hosts' kernels (TcpOutSegs counts each segment
# once, TcpRetransSegs its retransmissions), received and forwarded by the switch
# (switch.json), taken in by the hosts (TcpInSegs); and the ACKs Linux's receivers compressed
echo "fanin,scheme,hosts_sent,switch_received,switch_forwarded,switch_dropped,hosts_received,connections,acks_compressed,ring_dropped,hosts_veth_tx" >"$RES/testbed_segments.csv"
counters() { # $1 fan-in, $2 scheme, $3 side, $4 run directory
	line="$1,$2,$3"
	for k in $COUNTERS; do
		line="$line,$(tcp_counter "$4" "$k")"
	done
	echo "$line" >>"$RES/tcp_counters.csv"
}
drops() { awk -F, -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } $1 == s { print $col["drops"] }' "$1/compare.csv"; }
rank_by() { # $1 fan-in, $2 column of incast.csv -> "a < b < c"
	awk -F, -v f="$1" -v c="$2" '$1 == f { print $c, $2 }' "$RES/incast.csv" | sort -g -k1,1 -k2,2 |
		awk '{ printf "%s%s", (NR > 1 ? " < " : ""), $2 }'
}
for f in $FANINS; do
	# shellcheck disable=SC2086  # a list of --set arguments
	sh testbed/run.sh testbed/incast.cfg --schemes "$SCHEMES" --out "$OUT/incast-f$f" --set workloads.0.fanin="$f" $LONG || exit 1
	# shellcheck disable=SC2086
	build/sharebuf compare testbed/incast.cfg --schemes "$SCHEMES" --out "$OUT/incast-f$f-sim" --set workloads.0.fanin="$f" $LONG --quiet || exit 1
	for s in $(echo "$SCHEMES" | tr ',' ' '); do
		# the testbed's kernels: connections opened, HyStart's ACK-train exits and their cwnd
		cat "$OUT/incast-f$f/$s"/hosts/nstat*.txt 2>/dev/null | awk -v f="$f" -v s="$s" '
			{ v[$1] += $2 }
			END { n = v["TcpExtTCPHystartTrainDetect"]; printf "%s,%s,%d,%d,%.1f\n", f, s, v["TcpActiveOpens"], n,
				n ? v["TcpExtTCPHystartTrainCwnd"] / n : 0 }' >>"$RES/linux_hystart.csv"
		t=$OUT/incast-f$f/$s
		m=$OUT/incast-f$f-sim/$s
		echo "$f,$s,$(switch_pkts "$t" received),$(switch_pkts "$t" forwarded),$(switch_pkts "$t" dropped)" | awk -v f="$f" -v s="$s" '
			FILENAME == "-" { split($0, a, ","); sw = a[3] "," a[4] "," a[5]; next }
			{ v[$1] += $2 }
			END { printf "%s,%s,%d,%s,%d,%d,%d,%s,%s\n", f, s, v["TcpOutSegs"] + v["TcpRetransSegs"], sw, v["TcpInSegs"],
				v["TcpActiveOpens"], v["TcpExtTCPAckCompressed"], ring, veth }' ring="$(ring_drops "$t")" veth="$(veth_tx "$t")" - "$t"/hosts/nstat*.txt >>"$RES/testbed_segments.csv"
		t50=$(qct_ms "$t" 50)
		s50=$(qct_ms "$m" 50)
		t99=$(qct_ms "$t" 99)
		s99=$(qct_ms "$m" 99)
		d50=$(pct "$t50" "$s50")
		d99=$(pct "$t99" "$s99")
		ok=no
		[ "$(within "$d50" 30)" = yes ] && [ "$(within "$d99" 30)" = yes ] && ok=yes
		counters "$f" "$s" testbed "$t"
		counters "$f" "$s" sim "$m"
		echo "$f,$s,$t50,$s50,$d50,$t99,$s99,$d99,$(drops "$OUT/incast-f$f" "$s"),$(drops "$OUT/incast-f$f-sim" "$s"),$(slow_share "$t" 200),$(slow_share "$m" 200),$ok,$(slow_share "$t" 1000),$(slow_share "$m" 1000),$(qct_mean_ms "$t"),$(qct_mean_ms "$m"),$(nqueries "$t"),$(nqueries "$m")" >>"$RES/incast.csv"
	done
	echo "$f,testbed,$(rank_by "$f" 3),$(rank_by "$f" 16)" >>"$RES/incast_ranking.csv"
	echo "$f,sim,$(rank_by "$f" 4),$(rank_by "$f" 17)" >>"$RES/incast_ranking.csv"
done

# ---- which of the simulator's host and TCP models the agreement rests on: incast.cfg with one
# of them taken back, in the simulator only ----
echo "fanin,scheme,testbed_rto_share_pct,testbed_1s_share_pct,sim_rto_share_pct,sim_1s_share_pct,no_jitter_rto_share_pct,no_jitter_1s_share_pct,control_acks_rto_share_pct,control_acks_1s_share_pct,no_handshake_rto_share_pct,no_handshake_1s_share_pct,at_once_rto_share_pct,at_once_1s_share_pct,ns3_hystart_rto_share_pct,ns3_hystart_1s_share_pct,rfc_rack_rto_share_pct,rfc_rack_1s_share_pct,ns3_growth_rto_share_pct,ns3_growth_1s_share_pct,no_compress_rto_share_pct,no_compress_1s_share_pct" >"$RES/ablation.csv"
echo "fanin,scheme,side,fct_below_8ms_pct,fct_8_to_20ms_pct,fct_20_to_200ms_pct,fct_200ms_or_more_pct,qct_p50_ms" >"$RES/fct_bands.csv"
for f in $FANINS; do
	for v in "no-jitter --set host.send_jitter_us=0" "control-acks --set tcp.ack_path=control" "no-handshake --set tcp.handshake=false" \
		"fast-nic --set host.nic_rate_gbps=10" "at-once --set workloads.0.full_window=true" \
		"ns3-hystart --set tcp.hystart=classic" "rfc-rack --set tcp.rack_retx_min_rtt=false" \
		"ns3-growth --set tcp.abc_limit_segs=2 --set tcp.quickack_segs=0" "no-compress --set tcp.sack_compress_nr=0"; do
		name=${v%% *}
		# shellcheck disable=SC2086  # a list of --set arguments
		build/sharebuf compare testbed/incast.cfg --schemes "$SCHEMES" --out "$OUT/incast-f$f-sim-$name" \
			--set workloads.0.fanin="$f" $LONG ${v#* } --quiet || exit 1
	done
	for s in $(echo "$SCHEMES" | tr ',' ' '); do
		line="$f,$s,$(slow_share "$OUT/incast-f$f/$s" 200),$(slow_share "$OUT/incast-f$f/$s" 1000)"
		for d in sim sim-no-jitter sim-control-acks sim-no-handshake sim-at-once sim-ns3-hystart sim-rfc-rack sim-ns3-growth sim-no-compress; do
			line="$line,$(slow_share "$OUT/incast-f$f-$d/$s" 200),$(slow_share "$OUT/incast-f$f-$d/$s" 1000)"
		done
		echo "$line" >>"$RES/ablation.csv"
		counters "$f" "$s" sim_rfc_rack "$OUT/incast-f$f-sim-rfc-rack/$s"
		counters "$f" "$s" sim_no_compress "$OUT/incast-f$f-sim-no-compress/$s"
		# the flows' FCTs in bands: a few ms (no loss, or one repaired by ACKs), 8 to 20 ms
		# (what Linux's probe and reorder timers take: 2 jiffies and more), 200 ms and more
		for d in "$OUT/incast-f$f/$s:testbed" "$OUT/incast-f$f-sim/$s:sim" "$OUT/incast-f$f-sim-fast-nic/$s:sim_fast_nic"; do
			echo "$f,$s,${d##*:},$(fct_share "${d%:*}" 0 8),$(fct_share "${d%:*}" 8 20),$(fct_share "${d%:*}" 20 200),$(fct_share "${d%:*}" 200 1e9),$(qct_ms "${d%:*}" 50)" >>"$RES/fct_bands.csv"
		done
	done
done

# ---- the phase lock: DT at fan-in 4 with the handshake but otherwise the simulator's defaults
# for TCP and incasts (HyStart++, an ACK per segment, no probe floor, ACKs in the control
# queue, responses sent at once), with and without send jitter ----
echo "jitter_us,rto_share_pct" >"$RES/phase_lock.csv"
for j in 20 0; do
	# shellcheck disable=SC2086
	build/sharebuf run testbed/incast.cfg --out "$OUT/phase-lock-j$j" --set workloads.0.fanin=4 $LONG \
		--set workloads.0.full_window=true --set tcp.hystart=auto --set tcp.delack_count=1 --set tcp.tlp_extra_us=0 \
		--set tcp.ack_path=control --set tcp.quickack_segs=0 --set tcp.abc_limit_segs=2 \
		--set tcp.rack_retx_min_rtt=false --set host.send_jitter_us="$j" --quiet || exit 1
	echo "$j,$(slow_share "$OUT/phase-lock-j$j" 200)" >>"$RES/phase_lock.csv"
done

# ---- how fast a burst fills the buffer: DT, 50 µs samples, on both sides ----
echo "fanin,side,fill_gbps_p50,fill_gbps_p90,fill_gbps_p99" >"$RES/fill_rate.csv"
fine="--set run.sample_interval_us=50 --set run.duration_ms=1500 --set run.arrivals_ms=1000"
for f in $FANINS; do
	# shellcheck disable=SC2086  # a list of --set arguments
	sh testbed/run.sh testbed/incast.cfg --schemes dt --out "$OUT/fill-f$f" --set workloads.0.fanin="$f" $fine || exit 1
	# shellcheck disable=SC2086
	build/sharebuf run testbed/incast.cfg --out "$OUT/fill-f$f-sim" --set workloads.0.fanin="$f" $fine --quiet || exit 1
	for side in testbed sim; do
		d=$OUT/fill-f$f/dt
		[ "$side" = sim ] && d=$OUT/fill-f$f-sim
		echo "$f,$side,$(fill_rate "$d" 50),$(fill_rate "$d" 90),$(fill_rate "$d" 99)" >>"$RES/fill_rate.csv"
	done
done

sh testbed/report.sh "$RES" >testbed/REPORT.md
echo "testbed/REPORT.md written from $RES/"
