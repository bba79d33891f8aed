#!/bin/sh
# DSH (Shan et al., ICDCS'23) Fig. 13: collateral damage. An innocent flow F0 (H0 -> R0) shares
# the S0 -> S1 link with F1 (H1 -> R1); at t = 2.8 ms 24 hosts of S1 send 64 KiB each to R1. Under
# SIH, S1 pauses its S0-facing ingress and F0 stalls with F1; under DSH it should not.
#
#   sh experiments/dsh/run-fig13.sh
#
# SIH and DSH under no congestion control (transport rdma), DCQCN, HPCC and PowerTCP; fig13.cfg
# has the scenario. Environment: CCS="rdma hpcc" (subset), OUT=out/elsewhere, NOREPORT=1 (do
# not rewrite REPORT.md).
# Besides the figure, three checks that REPORT.md discusses: DCQCN with the burst at 2.0 and
# 2.2 ms (phase.csv), the probe with the burst at 2.5..3.1 ms under HPCC and PowerTCP
# (probe_phase.csv), the probe with 1500 payload bytes per frame (probe_mtu.csv), and DCQCN with
# the RDMA feedback settings of the earlier runs (oldfeedback.csv).
# Results: out/experiments/dsh/fig13/{results.md,fig13.csv,f0.csv,fig13.png,meta.tsv,...}; raw
# runs in <that directory>/<cc>/{sih,dsh}/ (throughput.csv: h26 = F0's receiver R0, h27 = R1).
# Then report.sh rewrites experiments/dsh/REPORT.md. See README.md.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
[ $# -eq 0 ] || { echo "usage: sh $EXP/run-fig13.sh (settings through the environment, see the header)" >&2; exit 2; }
OUT=${OUT:-out/experiments/dsh/fig13}
CCS=${CCS:-"rdma dcqcn hpcc powertcp"}
BURST_NS=2800000     # burst start (fig13.cfg workloads.2.start_ms)
BIN_NS=20000         # throughput bins (run.sample_interval_us)

make -s
sh tools/install-deps.sh gnuplot-nox
cc -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc $EXP/fig13-probe.c build/libsharebuf.a \
	$(pkg-config --libs libconfig jansson) -lm -o build/fig13-probe
rm -rf "$OUT"
mkdir -p "$OUT"
start=$(date +%s)

for cc in $CCS; do
	build/sharebuf compare "$EXP/fig13.cfg" --schemes sih,dsh --jobs 2 --quiet --out "$OUT/$cc" \
		--set workloads.0.transport=$cc --set workloads.1.transport=$cc \
		--set workloads.2.transport=$cc >/dev/null
	for s in sih dsh; do
		build/fig13-probe "$EXP/fig13.cfg" 2.7 switch.scheme=$s workloads.0.transport=$cc \
			workloads.1.transport=$cc workloads.2.transport=$cc > "$OUT/$cc/$s/probe.txt"
	done
done

# F0 = h26's rows of throughput.csv (its only flow). One file for the plot: time_ms, then F0's
# Gb/s under SIH and DSH per transport, in $CCS order.
{
	printf "time_ms"
	for cc in $CCS; do printf ",%s_sih,%s_dsh" "$cc" "$cc"; done
	echo
	files=""
	for cc in $CCS; do files="$files $OUT/$cc/sih/throughput.csv $OUT/$cc/dsh/throughput.csv"; done
	# shellcheck disable=SC2086  # a list of files
	awk -F, 'FNR == 1 { f++; next } $2 == "h26" { v[$1, f] = $4; t[$1] = 1; n = f }
		END { for (x in t) k[++m] = x + 0
		      for (i = 2; i <= m; i++) { y = k[i]; for (j = i - 1; j > 0 && k[j] > y; j--) k[j + 1] = k[j]; k[j + 1] = y }
		      for (i = 1; i <= m; i++) { printf "%.3f", k[i] / 1e6
			      for (g = 1; g <= n; g++) printf ",%s", v[sprintf("%.3f", k[i]), g]
			      print "" } }' $files
} > "$OUT/f0.csv"

# Burst completion: the last of the 24 burst flows (kind burst) to complete, from 2.8 ms.
bct() { awk -F, -v b=$BURST_NS 'NR > 1 && $7 == "burst" { n++; e = $9 + $10; if (e > m) m = e }
	END { printf "%.1f %d", (m - b) / 1000, n }' "$1/flows.csv"; }
# PAUSE frames leaf1 sent to the spine from the burst on, how long it held the spine paused
# (PAUSE to RESUME as sent, episodes still open at the end counted to the run's end), and when
# the first came (us after the burst; -1 if none). $2: the burst (ns, default 2.8 ms), $3 the end.
pauses() { awk -F, -v b="${2:-$BURST_NS}" -v e="${3:-3600000}" '$2 == "leaf1" && $4 == "spine0" && $1 >= b {
		if ($6 == "pause") { n++; if (n == 1) f = $1 - b; if (!on) { on = 1; s = $1 } }
		if ($6 == "resume" && on) { on = 0; d += $1 - s } }
	END { if (on) d += e - s; printf "%d %.1f %.1f", n, d / 1000, n ? f / 1000 : -1 }' "$1/pfc.csv"; }
# Before the burst (2.6-2.8 ms): F1's goodput (h27), leaf0's PAUSE frames to its hosts, and the
# CNPs of the whole run
before() {
	awk -F, -v a=$((BURST_NS - 200000)) -v z=$BURST_NS '$2 == "h27" && $1 > a && $1 <= z + 0.001 { s += $4; n++ }
		END { printf "%.1f ", n ? s / n : 0 }' "$1/throughput.csv"
	awk -F, -v z=$BURST_NS '$2 == "leaf0" && $6 == "pause" && $1 < z { n++ } END { printf "%d ", n }' "$1/pfc.csv"
	sed -n 's/.*"cnps": \([0-9]*\).*/\1/p' "$1/summary.json" | head -1
}
# F0 over bins ending in (from, to]: min and mean Gb/s
f0() { awk -F, -v a="$2" -v z="$3" '$2 == "h26" && $1 > a && $1 <= z + 0.001 { s += $4; n++; if (!n0++ || $4 < m) m = $4 }
	END { printf "%.1f %.1f", m, n ? s / n : 0 }' "$1/throughput.csv"; }
drops() { sed -n 's/.*"lossless": \([0-9]*\).*/\1/p' "$1/summary.json" | head -1; }
probe() { sed 's/[a-zA-Z_]*=//g' "$1/probe.txt"; }

CSV="$OUT/fig13.csv"
echo "cc,scheme,window_end_ms,f0_before_gbps,f0_min_gbps,f0_mean_gbps,pauses_leaf1_to_spine,paused_us,first_pause_us,burst_done_us,burst_flows_done,lossless_drops,peak_q,peak_ws,T_at_peak,min_margin,probe_paused_us,peak_burst_q,peak_shared,min_T,f1_before_gbps,leaf0_pauses_before,cnps" > "$CSV"
for cc in $CCS; do
	# the same window for both schemes: from the burst to the later of their burst completions,
	# rounded up to a bin
	end=$(for s in sih dsh; do bct "$OUT/$cc/$s"; echo; done | awk -v b=$BURST_NS -v w=$BIN_NS '
		{ if ($1 > m) m = $1 } END { e = b + m * 1000; printf "%d", int((e + w - 1) / w) * w }')
	for s in sih dsh; do
		d="$OUT/$cc/$s"
		echo "$cc $s $end $(f0 "$d" $((BURST_NS - 200000)) $BURST_NS) $(f0 "$d" $BURST_NS "$end") $(pauses "$d") $(bct "$d") $(drops "$d") $(probe "$d") $(before "$d")" |
			awk '{ printf "%s,%s,%.3f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3 / 1e6,
				$5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24 }' >> "$CSV"
	done
done

# ---- plot: one panel per transport, F0 vs time from 2.6 ms (the harness's 1 ms window)
title() { case $1 in rdma) echo "no congestion control" ;; dcqcn) echo "DCQCN" ;; hpcc) echo "HPCC" ;; powertcp) echo "PowerTCP" ;; *) echo "$1" ;; esac; }
{
	echo 'set terminal pngcairo size 1200,820 font "Sans,10"'
	echo 'set datafile separator ","'
	echo "set output \"$OUT/fig13.png\""
	echo 'set multiplot layout 2,2 title "DSH Fig. 13 (reduced): throughput of the innocent flow F0 (H0 -> R0), 24 x 64 KiB burst to R1 at 2.8 ms"'
	echo 'set xlabel "time (ms)"; set ylabel "F0 goodput (Gb/s, 20 us bins)"'
	echo 'set xrange [2.6:3.6]; set yrange [0:105]; set grid; set key bottom right box opaque'
	echo 'set arrow 1 from 2.8, graph 0 to 2.8, graph 1 nohead dt 3 lc rgb "gray"'
	i=0
	for cc in $CCS; do
		echo "set title \"$(title "$cc")\""
		echo "plot \"$OUT/f0.csv\" every ::1 using 1:$((2 + 2 * i)) with lines lw 2 lc rgb \"#1f77b4\" title \"SIH\", \\"
		echo "     \"\" every ::1 using 1:$((3 + 2 * i)) with lines lw 2 dt 2 lc rgb \"#d62728\" title \"DSH\""
		i=$((i + 1))
	done
	echo 'unset multiplot'
} | gnuplot

{
	echo "# DSH Fig. 13 (reduced): measured results"
	echo
	echo "Run: \`sh $EXP/run-fig13.sh\` ($EXP/fig13.cfg), $(date -u '+%Y-%m-%d %H:%M UTC'), $(( $(date +%s) - start )) s."
	echo "F0 = goodput received by R0 (h26; 1500-byte frames carry 1452 payload bytes, so 50 Gb/s on"
	echo "the wire reads 48.4). Burst window = from 2.8 ms to the later of the two schemes' burst"
	echo "completions, rounded up to a 20 us bin (the same window for SIH and DSH). \"before\" = mean"
	echo "over 2.6-2.8 ms. PAUSE = frames leaf1 (S1) sent to the spine from 2.8 ms on; paused = time"
	echo "from such a PAUSE to its RESUME. Burst done = last of the 24 flows complete (ACKed), from 2.8 ms."
	echo
	echo "| CC | scheme | F0 before (Gb/s) | F0 min in burst window | F0 mean in burst window | window (ms) | PAUSE S1 -> spine | paused (us) | burst done (us) | lossless drops |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | 2.8-%s | %s | %s | %s (%s flows) | %s |\n",
		$1, toupper($2), $4, $5, $6, $3, $7, $8, $10, $11, $12 }' "$CSV"
	echo
	echo "Probe (build/fig13-probe, every 0.1 us from 2.7 ms): leaf1's ingress queue from the spine,"
	echo "priority 2. SIH pauses it when its shared part omega_s reaches T = alpha (B_s - shared_used);"
	echo "DSH at T - eta. Bytes."
	echo
	echo "| CC | scheme | peak queue | peak omega_s | T at that peak | min (T - omega_s) | PAUSE held (us) | largest burst-sender ingress queue | peak shared_used | min T |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
		$1, toupper($2), $13, $14, $15, $16, $17, $18, $19, $20 }' "$CSV"
} > "$OUT/results.md"

# ---- checks (REPORT.md). DCQCN with the burst earlier, when DSH's flows were near 50G: F0
# before (200 us), min and mean over the 160 us from the burst, PAUSE frames S1 -> spine.
echo "start_ms,scheme,f0_before_gbps,f0_min_gbps,f0_mean_gbps,pauses_leaf1_to_spine" > "$OUT/phase.csv"
for t in 2.0 2.2; do
	b=$(awk -v t=$t 'BEGIN { printf "%d", t * 1e6 }')
	build/sharebuf compare "$EXP/fig13.cfg" --schemes sih,dsh --jobs 2 --quiet --out "$OUT/phase$t" \
		--set workloads.0.transport=dcqcn --set workloads.1.transport=dcqcn \
		--set workloads.2.transport=dcqcn --set workloads.2.start_ms=$t >/dev/null
	for s in sih dsh; do
		echo "$t $s $(f0 "$OUT/phase$t/$s" $((b - 200000)) $b) $(f0 "$OUT/phase$t/$s" $b $((b + 160000))) $(pauses "$OUT/phase$t/$s" $b)" |
			awk '{ printf "%s,%s,%s,%s,%s,%s\n", $1, $2, $4, $5, $6, $7 }' >> "$OUT/phase.csv"
	done
done
# HPCC and PowerTCP under SIH with the burst at other times: the probe's smallest margin T - omega_s
echo "cc,start_ms,min_margin,paused_us" > "$OUT/probe_phase.csv"
for cc in hpcc powertcp; do
	for t in 2.5 2.6 2.7 2.9 3.0 3.1; do
		build/fig13-probe "$EXP/fig13.cfg" "$(awk -v t=$t 'BEGIN { print t - 0.05 }')" switch.scheme=sih \
			workloads.0.transport=$cc workloads.1.transport=$cc workloads.2.transport=$cc \
			workloads.2.start_ms=$t run.duration_ms="$(awk -v t=$t 'BEGIN { print t + 0.8 }')" |
			sed 's/[a-zA-Z_]*=//g' | awk -v c=$cc -v t=$t '{ printf "%s,%s,%s,%s\n", c, t, $4, $5 }' >> "$OUT/probe_phase.csv"
	done
done
# 1500 payload bytes per frame (the harness's PACKET_PAYLOAD_SIZE) under SIH
echo "cc,min_margin,paused_us" > "$OUT/probe_mtu.csv"
for cc in $CCS; do
	build/fig13-probe "$EXP/fig13.cfg" 2.7 switch.scheme=sih rdma.mtu=1500 \
		workloads.0.transport=$cc workloads.1.transport=$cc workloads.2.transport=$cc |
		sed 's/[a-zA-Z_]*=//g' | awk -v c=$cc '{ printf "%s,%s,%s\n", c, $4, $5 }' >> "$OUT/probe_mtu.csv"
done

# DCQCN with the feedback settings of the runs before rdma.cnp and rdma.dcqcn_first_cut existed
# (a CNP packet, the first cut at once): REPORT.md's "What moved" compares it with previous.tsv
echo "scheme,f0_min_gbps,f0_mean_gbps,pauses_leaf1_to_spine,paused_us,cnps" > "$OUT/oldfeedback.csv"
build/sharebuf compare "$EXP/fig13.cfg" --schemes sih,dsh --jobs 2 --quiet --out "$OUT/oldfeedback" \
	--set workloads.0.transport=dcqcn --set workloads.1.transport=dcqcn --set workloads.2.transport=dcqcn \
	--set rdma.cnp=packet --set rdma.dcqcn_first_cut=cnp >/dev/null
end=$(awk -F, 'NR > 1 && $1 == "dcqcn" { printf "%d", $3 * 1e6; exit }' "$CSV")
for s in sih dsh; do
	d="$OUT/oldfeedback/$s"
	echo "$s $(f0 "$d" $BURST_NS "$end") $(pauses "$d") $(sed -n 's/.*"cnps": \([0-9]*\).*/\1/p' "$d/summary.json" | head -1)" |
		awk '{ printf "%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $5, $7 }' >> "$OUT/oldfeedback.csv"
done

cat "$OUT/results.md"
echo "plot: $OUT/fig13.png (total $(( $(date +%s) - start )) s)" >&2
run_meta "$OUT" "sh $EXP/run-fig13.sh" "$start"
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
