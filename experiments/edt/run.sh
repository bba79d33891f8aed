#!/bin/sh
# EDT (Shan, Jiang, Ren, TPDS'17): micro-burst absorption against burst length, DT vs EDT.
#
#   sh experiments/edt/run.sh           # the paper's scale for Figs 12/14/17b/18: about 15 s on 2 cores
#   sh experiments/edt/run.sh --full    # Fig. 14 in 0.25 ms steps; Figs 17b/18 over 60 s x 3 seeds
#
# Results go to out/experiments/edt/ (--full: out/experiments/edt-full/): results.md, *.csv,
# *.png, meta.tsv. Then report.sh writes experiments/edt/REPORT.md from them (and from a --full
# run's, if there is one) and copies the plots beside it. See experiments/edt/README.md.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/edt
OUT=out/experiments/edt
SB=build/sharebuf

FULL=0
case "${1:-}" in
--full) FULL=1 ;;
"") ;;
*) echo "usage: sh $EXP/run.sh [--full]" >&2; exit 2 ;;
esac

if [ "$FULL" = 1 ]; then
	OUT=out/experiments/edt-full
	STEP=0.25        # Fig. 14 burst-duration step (ms)
	ONOFF_S=60       # simulated seconds of ON/OFF traffic per seed (60 s for smoother curves)
	SEEDS="1 2 3"
else
	STEP=0.5         # 1-12 ms in 0.5 ms steps
	ONOFF_S=20       # the paper's length (§5.2.1: 20 s, ~5,400 bursts)
	SEEDS="1"
fi

make -s
sh tools/install-deps.sh gnuplot-nox
rm -rf "$OUT"
mkdir -p "$OUT"
T0=$(date +%s)

# ---------------------------------------------------------------------------------------------
# 1. Fig. 14 (and Fig. 12): N = 2 long-lived ports, M = 1 burst at 2 Gb/s, duration d.
#    Loss of the burst = its dropped packets (drops.lossless, the burst's label) / its packets.
# ---------------------------------------------------------------------------------------------
echo "Fig. 14: burst loss vs duration (step $STEP ms), dt and edt" >&2
F14="$OUT/fig14"
rm -rf "$F14"; mkdir -p "$F14"
echo "d_ms,packets,drops_dt,drops_edt,loss_dt,loss_edt,theory_dt,theory_edt" > "$OUT/fig14.csv"
for d in $(awk -v s="$STEP" 'BEGIN { for (x = 1; x <= 12 + 1e-9; x += s) printf "%g ", x }'); do
	n=$(awk -v d="$d" 'BEGIN { n = int(d / 0.012); if (n * 0.012 < d - 1e-9) n++; print n }')
	$SB compare "$EXP/fig14.cfg" --schemes dt,edt --jobs 2 --quiet --out "$F14/d$d" \
		--set workloads.2.size_bytes=$((n * 1452)) \
		--set run.duration_ms="$(awk -v d="$d" 'BEGIN { print 150 + d + 2 }')"
	ddt=$(sed -n 's/.*"lossless": \([0-9]*\).*/\1/p' "$F14/d$d/dt/summary.json" | head -1)
	dedt=$(sed -n 's/.*"lossless": \([0-9]*\).*/\1/p' "$F14/d$d/edt/summary.json" | head -1)
	awk -v d="$d" -v n="$n" -v a="$ddt" -v b="$dedt" 'BEGIN {
		p = 2 * n
		tdt = d > 2 ? (d - 2) / (2 * d) : 0       # Theorem 1a fluid: (R-C)(d-t1)/(R d), t1 = 2 ms
		tedt = d > 8 ? (d - 8) / d : 0            # Theorem 5: overflow at 8 ms, then the port is
		                                          # CONTROLLED above T1 = alpha F ~ 0 and drops all
		printf "%g,%d,%d,%d,%.4f,%.4f,%.4f,%.4f\n", d, p, a, b, a / p, b / p, tdt, tedt }' >> "$OUT/fig14.csv"
done

# Fig. 12: the 6 ms burst, queue lengths sampled every 10 us (lossless_bytes = the burst queue,
# lossy_bytes = the two long-lived queues).
$SB compare "$EXP/fig14.cfg" --schemes dt,edt --jobs 2 --quiet --out "$OUT/fig12" \
	--set run.sample_interval_us=10 --set run.duration_ms=200
for s in dt edt; do
	awk -F, -v B=1000000 'NR > 1 && $1 >= 140e6 && $1 <= 185e6 {
		printf "%.3f %.1f %.1f %d\n", $1 / 1e6, $4 / 1e3, $3 / 2e3, $6 }' \
		"$OUT/fig12/$s/occupancy.csv" > "$OUT/fig12_$s.dat"
done

# ---------------------------------------------------------------------------------------------
# 2. Figs 17b and 18: 16 ports, 0.133 Gb/s background + lognormal ON/OFF bursts at 2 Gb/s.
#    A burst is lossless iff both of its CBR flows complete (they have a row in flows.csv).
# ---------------------------------------------------------------------------------------------
# variant name | scheme list | extra --set (EDT sensitivity, Fig. 18)
VARIANTS="base:dt,edt:
d1:edt:switch.edt.d_us=1000
d100:edt:switch.edt.d_us=100000
cn1_10:edt:switch.edt.cn1=10
cn1_100:edt:switch.edt.cn1=100"

ON="$OUT/onoff"
rm -rf "$ON"; mkdir -p "$ON"
: > "$ON/per_burst.txt"
for seed in $SEEDS; do
	echo "ON/OFF: seed $seed, $ONOFF_S s simulated" >&2
	dir="$ON/seed$seed"
	mkdir -p "$dir"
	awk -v seed="$seed" -v end_ms="$((ONOFF_S * 1000))" -v list="$dir/bursts.txt" \
		-f "$EXP/gen_bursts.awk" > "$dir/bursts.csv"
	echo "$VARIANTS" | while IFS=: read -r v schemes extra; do
		set -- --set workloads.16.path="$dir/bursts.csv" --set run.duration_ms=$((ONOFF_S * 1000 + 30)) \
			--set run.seed="$seed"
		[ -n "$extra" ] && set -- "$@" --set "$extra"
		$SB compare "$EXP/onoff.cfg" --schemes "$schemes" --jobs 2 --quiet --out "$dir/$v" "$@"
		for s in $(echo "$schemes" | tr , ' '); do
			name=$s; [ "$v" != base ] && name="edt_$v"
			# burst: port start_ns dur_ms packets srcA srcB -> "name seed dur_ms lossless port start_ns"
			awk -F, -v name="$name" -v seed="$seed" '
				FNR == 1 && NR == 1 { next }
				FNR == NR { if ($7 == "file") done[$2 "," sprintf("%.0f", $9)] = 1; next }
				{ split($0, b, " "); ok = (b[5] "," b[2] in done) && (b[6] "," b[2] in done)
				  print name, seed, b[3], ok, b[1], b[2] }' \
				"$dir/$v/$s/flows.csv" "$dir/bursts.txt" >> "$ON/per_burst.txt"
			bl=$(sed -n 's/.*"lossless": \([0-9]*\).*/\1/p' "$dir/$v/$s/summary.json" | head -1)
			echo "$name $seed $bl" >> "$ON/burst_drops.txt"
		done
	done
done

# Lossless ratio per 1 ms duration bin, per variant (bins [0,1) .. [9,10), then >= 10 ms).
awk '{ b = int($3); if (b > 10) b = 10; n[$1, b]++; ok[$1, b] += $4; tn[$1]++; tok[$1] += $4; if ($3 < 5) { cn[$1]++; cok[$1] += $4 } }
	END {
		split("dt edt edt_d1 edt_d100 edt_cn1_10 edt_cn1_100", order, " ")
		printf "bin_ms"; for (i = 1; i <= 6; i++) printf ",%s_bursts,%s_lossless", order[i], order[i]; print ""
		for (b = 0; b <= 10; b++) {
			printf "%d", b
			for (i = 1; i <= 6; i++) { k = order[i]; printf ",%d,%.4f", n[k, b], n[k, b] ? ok[k, b] / n[k, b] : 0 }
			print ""
		}
		for (i = 1; i <= 6; i++) { k = order[i]; printf "all_%s %d %d %d %d\n", k, tn[k], tok[k], cn[k], cok[k] > "/dev/stderr" }
	}' "$ON/per_burst.txt" > "$OUT/fig17b.csv" 2> "$ON/totals.txt"

# ---------------------------------------------------------------------------------------------
# 3. Plots and the results table
# ---------------------------------------------------------------------------------------------
GP=gnuplot
$GP <<EOF
set terminal pngcairo size 900,560 font "Sans,11"
set datafile separator ","
set output "$OUT/fig14.png"
set title "EDT Fig. 14: loss of a 2 Gb/s micro-burst vs its duration (N = 2 long-lived ports, M = 1, B = 1 MB, 1 Gb/s)"
set xlabel "micro-burst duration (ms)"
set ylabel "packet loss ratio of the micro-burst"
set key at 7.8, 0.2 right top box opaque
set grid
set xrange [0.5:12.5]
set yrange [-0.02:0.5]
set arrow from 2, graph 0 to 2, graph 1 nohead dt 3 lc rgb "#1f77b4"
set arrow from 8, graph 0 to 8, graph 1 nohead dt 3 lc rgb "#d62728"
set label "paper: DT drops from 2 ms" at 2.1, 0.47 tc rgb "#1f77b4"
set label "paper: EDT drops from 8 ms" at 8.1, 0.47 tc rgb "#d62728"
plot "$OUT/fig14.csv" every ::1 using 1:7 with lines dt 2 lw 2 lc rgb "#7fb2dc" title "DT fluid theory, Thm 1", \
     "" every ::1 using 1:8 with lines dt 2 lw 2 lc rgb "#ea9293" title "EDT fluid theory, Thm 5", \
     "" every ::1 using 1:5 with linespoints pt 7 ps 1.1 lw 2 lc rgb "#1f77b4" title "DT, sharebuf", \
     "" every ::1 using 1:6 with linespoints pt 5 ps 1.1 lw 2 lc rgb "#d62728" title "EDT, sharebuf"
EOF

$GP <<EOF
set terminal pngcairo size 900,620 font "Sans,11"
set output "$OUT/fig12.png"
set multiplot layout 2,1 title "EDT Fig. 12: a 6 ms, 2 Gb/s micro-burst at t = 150 ms (N = 2 long-lived ports)"
set xlabel "time (ms)"
set ylabel "queue length (KB)"
set grid
set key top right
set xrange [145:180]
set yrange [0:800]
set title "DT"
plot "$OUT/fig12_dt.dat" using 1:2 with lines lw 2 lc rgb "#d62728" title "burst port", \
     "" using 1:3 with lines lw 2 lc rgb "#1f77b4" title "each long-lived port (mean of 2)"
set title "EDT"
plot "$OUT/fig12_edt.dat" using 1:2 with lines lw 2 lc rgb "#d62728" title "burst port", \
     "" using 1:3 with lines lw 2 lc rgb "#1f77b4" title "each long-lived port (mean of 2)"
unset multiplot
EOF

# The reference model's values for Fig. 17b (refmodel.tsv), bins [0,1)..[6,7).
awk -F'\t' '$1 ~ /^f17\.(dt|edt)\.[0-9]$/ { split($1, k, "."); v[k[3], k[2]] = $2; if (k[3] > n) n = k[3] }
	END { print "# bin,dt_ref,edt_ref"; for (b = 0; b <= n; b++) printf "%d,%s,%s\n", b, v[b, "dt"], v[b, "edt"] }' \
	"$EXP/refmodel.tsv" > "$OUT/fig17b_ref.dat"
$GP <<EOF
set terminal pngcairo size 900,560 font "Sans,11"
set datafile separator ","
set output "$OUT/fig17b.png"
set title "EDT Fig. 17b: lognormal ON/OFF micro-bursts at 2 Gb/s (16 ports, 1 MB, 20 % load)"
set xlabel "micro-burst duration (ms, 1 ms bins; 10 = 10 ms and longer)"
set ylabel "fraction of micro-bursts without loss"
set key bottom left
set grid
set xrange [-0.2:10.7]
set yrange [0:1.05]
set xtics 1
set arrow from 0, 0.85 to 5, 0.85 nohead lw 3 lc rgb "#ff7f0e"
set label "paper: EDT > 85 % lossless below 5 ms" at 0.2, 0.82 tc rgb "#ff7f0e"
plot "$OUT/fig17b.csv" every ::1 using (\$1+0.5):3 with linespoints pt 7 ps 1.1 lw 2 lc rgb "#1f77b4" title "DT, sharebuf", \
     "" every ::1 using (\$1+0.5):5 with linespoints pt 5 ps 1.1 lw 2 lc rgb "#d62728" title "EDT, sharebuf", \
     "$OUT/fig17b_ref.dat" using (\$1+0.5):2 with points pt 6 ps 1.6 lw 2 lc rgb "#1f77b4" title "DT, reference model", \
     "$OUT/fig17b_ref.dat" using (\$1+0.5):3 with points pt 4 ps 1.6 lw 2 lc rgb "#d62728" title "EDT, reference model"
EOF

$GP <<EOF
set terminal pngcairo size 900,560 font "Sans,11"
set datafile separator ","
set output "$OUT/fig18.png"
set title "EDT Fig. 18: sensitivity of the lossless ratio to d (= TM2) and cn1"
set xlabel "micro-burst duration (ms, 1 ms bins)"
set ylabel "fraction of micro-bursts without loss"
set key bottom left
set grid
set xrange [-0.2:7.2]
set yrange [0:1.05]
set xtics 1
plot "$OUT/fig17b.csv" every ::1::7 using (\$1+0.5):5 with linespoints pt 5 ps 1.6 lw 6 lc rgb "#d62728" title "EDT d = 10 ms, cn1 = 3 (default)", \
     "" every ::1::7 using (\$1+0.5):7 with linespoints pt 9 lw 2 lc rgb "#ff7f0e" title "EDT d = 1 ms", \
     "" every ::1::7 using (\$1+0.5):9 with linespoints pt 11 lw 2 lc rgb "#9467bd" title "EDT d = 100 ms (same as default)", \
     "" every ::1::7 using (\$1+0.5):11 with linespoints pt 13 lw 2 lc rgb "#2ca02c" title "EDT cn1 = 10", \
     "" every ::1::7 using (\$1+0.5):13 with linespoints pt 3 lw 2 lc rgb "#8c564b" title "EDT cn1 = 100", \
     "" every ::1::7 using (\$1+0.5):3 with linespoints pt 7 lw 2 dt 2 lc rgb "#1f77b4" title "DT"
EOF

# results.md
{
	echo "# EDT micro-burst absorption: measured results"
	echo
	echo "Run: \`sh $EXP/run.sh$( [ "$FULL" = 1 ] && echo " --full")\`, $(date -u '+%Y-%m-%d %H:%M UTC'), $(( $(date +%s) - T0 )) s."
	echo
	echo "## Fig. 14: loss ratio of the micro-burst vs its duration (N = 2, M = 1, R = 2 Gb/s)"
	echo
	echo "| d (ms) | burst packets | DT loss | DT theory | EDT loss | EDT theory |"
	echo "|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %g | %d | %.3f | %.3f | %.3f | %.3f |\n", $1, $2, $5, $7, $6, $8 }' "$OUT/fig14.csv"
	echo
	awk -F, 'NR > 1 { if (!a && $3 > 0) { a = 1; printf "Shortest lossy burst: DT %g ms", $1 } }
		 NR > 1 { if (!b && $4 > 0) { b = 1; e = $1 } } END { printf ", EDT %g ms (paper: 2 ms and 8 ms).\n", e }' "$OUT/fig14.csv"
	echo
	echo "## Fig. 17b / 18: fraction of ON/OFF micro-bursts without loss, per 1 ms duration bin"
	echo
	echo "Seeds: $SEEDS; $ONOFF_S s simulated per seed."
	echo
	echo "| bin (ms) | bursts | DT | EDT | EDT d=1 ms | EDT d=100 ms | EDT cn1=10 | EDT cn1=100 |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { lab = ($1 == 10) ? ">= 10" : sprintf("[%d,%d)", $1, $1 + 1)
		printf "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", lab, $2, $3, $5, $7, $9, $11, $13 }' "$OUT/fig17b.csv"
	echo
	echo "| variant | bursts | lossless | bursts < 5 ms | of those lossless | burst packets dropped |"
	echo "|---|---|---|---|---|---|"
	awk 'FNR == NR { d[$1] += $3; next } { k = substr($1, 5)
		printf "| %s | %d | %d (%.3f) | %d | %d (%.3f) | %d |\n", k, $2, $3, $3 / $2, $4, $5, $5 / $4, d[k] }' \
		"$ON/burst_drops.txt" "$ON/totals.txt"
} > "$OUT/results.md"

cat "$OUT/results.md"
echo "plots: $OUT/fig14.png $OUT/fig12.png $OUT/fig17b.png $OUT/fig18.png" >&2
run_meta "$OUT" "sh $EXP/run.sh$( [ "$FULL" = 1 ] && echo " --full")" "$T0"
sh $EXP/report.sh
