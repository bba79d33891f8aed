#!/bin/sh
# plot.sh OUT: the EDT figures from the tables tables.sh wrote in OUT (gnuplot; run.sh installs
# it with tools/install-deps.sh gnuplot-nox): OUT/fig14.png (loss vs burst duration, with the
# fluid theories), fig12.png (queues around the 6 ms burst), fig17b.png and fig18.png (lossless
# fraction per 1 ms bin: mean over the ON/OFF trials with its 95 % confidence interval as error
# bars, from fig17b-ci.csv; the reference model's values from refmodel.tsv).
set -e
OUT=${1:?usage: sh plot.sh OUT}
EXP=$(dirname "$0")
[ -s "$OUT/fig17b-ci.csv" ] || { echo "edt plot: $OUT/fig17b-ci.csv missing: run tables.sh first" >&2; exit 1; }
TRIALS=$(awk -F, 'NR == 2 { print $2 }' "$OUT/fig17b-ci.csv")
# simulated seconds of bursts per trial: the runs' run.duration_ms, less the 30 ms of drain
SECS=$(sed -n 's/^ *duration_ms = \([0-9.]*\);$/\1/p' "$(ls -d "$OUT"/onoff/runs/*/seed-default | head -1)/scenario.cfg" | awk '{ print int($1 / 1000) }')
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
set title "EDT Fig. 17b: lognormal ON/OFF micro-bursts at 2 Gb/s (16 ports, 1 MB, 20 % load; $TRIALS x $SECS s)"
set xlabel "micro-burst duration (ms, 1 ms bins; 10 = 10 ms and longer)"
set ylabel "fraction of micro-bursts without loss"
set key bottom left
set grid
set xrange [-0.2:10.7]
set yrange [0:1.05]
set xtics 1
set arrow from 0, 0.85 to 5, 0.85 nohead lw 3 lc rgb "#ff7f0e"
set label "paper: EDT > 85 % lossless below 5 ms" at 0.2, 0.82 tc rgb "#ff7f0e"
plot "$OUT/fig17b-ci.csv" every ::1 using (\$1+0.5):3:(\$4) with yerrorlines pt 7 ps 1.1 lw 2 lc rgb "#1f77b4" title "DT, sharebuf (mean, 95 % CI over $TRIALS trials)", \
     "" every ::1 using (\$1+0.5):5:(\$6) with yerrorlines pt 5 ps 1.1 lw 2 lc rgb "#d62728" title "EDT, sharebuf", \
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
plot "$OUT/fig17b-ci.csv" every ::1::7 using (\$1+0.5):5:(\$6) with yerrorlines pt 5 ps 1.6 lw 6 lc rgb "#d62728" title "EDT d = 10 ms, cn1 = 3 (default)", \
     "" every ::1::7 using (\$1+0.5):7:(\$8) with yerrorlines pt 9 lw 2 lc rgb "#ff7f0e" title "EDT d = 1 ms", \
     "" every ::1::7 using (\$1+0.5):9:(\$10) with yerrorlines pt 11 lw 2 lc rgb "#9467bd" title "EDT d = 100 ms (same as default)", \
     "" every ::1::7 using (\$1+0.5):11:(\$12) with yerrorlines pt 13 lw 2 lc rgb "#2ca02c" title "EDT cn1 = 10", \
     "" every ::1::7 using (\$1+0.5):13:(\$14) with yerrorlines pt 3 lw 2 lc rgb "#8c564b" title "EDT cn1 = 100", \
     "" every ::1::7 using (\$1+0.5):3:(\$4) with yerrorlines pt 7 lw 2 dt 2 lc rgb "#1f77b4" title "DT (mean, 95 % CI over $TRIALS trials)"
EOF

