#!/bin/sh
# plot.sh OUT: the DSH figures from the sweeps' tables (tables.sh, OUT/tables/) with gnuplot
# (run.sh installs it: tools/install-deps.sh gnuplot-nox), into OUT/: fig11.png (pause of the
# fan-in senders against the burst, every point of the sweep), fig12.png (CDFs of the deadlock
# onset over the seeds), fig13.png (F0's goodput around the burst), fig14.png and, after
# run-variants.sh, fig14-harness.png (DSH / SIH mean FCT: mean over the seeds with its 95 %
# confidence interval as error bars when there is more than one seed). A figure whose tables
# are missing is skipped.
set -e
OUT=${1:?usage: sh plot.sh OUT}
EXP=$(dirname "$0")
T=$OUT/tables
title() { case $1 in dcqcn) echo "DCQCN" ;; powertcp) echo "PowerTCP" ;; hpcc) echo "HPCC" ;; rdma) echo "no congestion control" ;; *) echo "$1" ;; esac; }

# ---- Fig. 11: every burst of the sweep (sweep-summary.csv), the knees from knees.txt
if [ -s "$OUT/fig11/sweep-summary.csv" ] && [ -s "$T/knees.txt" ]; then
	for s in sih dsh; do
		awk -F, -v s=$s 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["switch.scheme"] == s { print $c["burst_pct"], $c["fanin_paused_ms_mean"] }' "$OUT/fig11/sweep-summary.csv" > "$T/fig11_$s.dat"
	done
	KS=$(awk '$1 == "sih" { printf "%.1f", $2 / 10 }' "$T/knees.txt")
	KD=$(awk '$1 == "dsh" { printf "%.1f", $2 / 10 }' "$T/knees.txt")
	gnuplot <<GP
set terminal pngcairo size 900,560 font "Sans,11"
set output "$OUT/fig11.png"
set title "DSH Fig. 11: PFC avoidance (16:1 fan-in on a 32 x 100G switch, 16 MiB, 2 background flows)"
set xlabel "burst size (% of the buffer)"
set ylabel "total pause duration of the fan-in senders (ms)"
set key top left box opaque
set grid
set xrange [-2:102]
set xtics 10
set arrow from 10, graph 0 to 10, graph 1 nohead dt 3 lc rgb "#1f77b4"
set arrow from 40, graph 0 to 40, graph 1 nohead dt 3 lc rgb "#d62728"
set label "paper: SIH knee about 10 %\nours: no PAUSE up to $KS %" at 11, graph 0.62 tc rgb "#1f77b4"
set label "paper: DSH knee 40 %\nours: no PAUSE up to $KD %" at 41, graph 0.45 tc rgb "#d62728"
plot "$T/fig11_sih.dat" using 1:2 with linespoints pt 7 ps 0.6 lw 2 lc rgb "#1f77b4" title "SIH, sharebuf", \
     "$T/fig11_dsh.dat" using 1:2 with linespoints pt 5 ps 0.6 lw 2 lc rgb "#d62728" title "DSH, sharebuf"
GP
fi

# ---- Fig. 12: CDF of the onset per series; runs without deadlock sit at the cap
if [ -s "$T/fig12.csv" ]; then
	CAP=100
	RUNS=$(awk -F, 'NR > 1 && $1 == "dcqcn" && $2 == "sih" { n++ } END { print n + 0 }' "$T/fig12.csv")
	{
		echo 'set terminal pngcairo size 900,560 font "Sans,10"'
		echo "set output \"$OUT/fig12.png\""
		echo "set title \"DSH Fig. 12: CDF of deadlock onset, $RUNS runs (seeds) per series; runs without deadlock at the $CAP ms cap\""
		echo 'set xlabel "deadlock onset time (ms)"; set ylabel "CDF (fraction of runs)"'
		echo "set xrange [0:$CAP * 1.06]; set yrange [0:1.02]; set grid; set key top left box opaque"
		echo "set arrow 1 from $CAP, graph 0 to $CAP, graph 1 nohead dt 3 lc rgb \"gray\""
		echo "set label 1 \"cap\" at $CAP, graph 0.5 offset 0.5, 0"
		echo "set label 2 \"paper: SIH deadlocks in every run; DSH in 4 % (DCQCN), 0 % (PowerTCP)\" at graph 0.30, graph 0.2 font \",9\""
		printf 'plot '
		sep=""
		for cs in $(awk -F, 'NR > 1 { print $1 "_" $2 }' "$T/fig12.csv" | uniq); do
			cc=${cs%_*} s=${cs#*_}
			case $s in sih) col='#1f77b4' ;; *) col='#d62728' ;; esac
			case $cc in dcqcn) dt=1 ;; *) dt=2 ;; esac
			name=$(echo "$s" | tr '[:lower:]' '[:upper:]')
			dead=$(awk -F, -v cc="$cc" -v s="$s" 'NR > 1 && $1 == cc && $2 == s { n++; k += $4 }
				END { printf "%d of %d runs deadlock", k, n }' "$T/fig12.csv")
			printf '%s"%s" using 1:2 with steps lw 2 dt %s lc rgb "%s" title "%s, %s: %s"' "$sep" \
				"$T/cdf_$cs.dat" "$dt" "$col" "$name" "$(title "$cc")" "$dead"
			sep=", "
		done
		echo
	} | gnuplot
fi

# ---- Fig. 13: one panel per transport, F0 vs time from 2.6 ms (the harness's 1 ms window)
if [ -s "$T/f0.csv" ]; then
	{
		echo 'set terminal pngcairo size 1200,820 font "Sans,10"'
		echo 'set datafile separator ","'
		echo "set output \"$OUT/fig13.png\""
		echo 'set multiplot layout 2,2 title "DSH Fig. 13 (reduced): throughput of the innocent flow F0 (H0 -> R0), 24 x 64 KiB burst to R1 at 2.8 ms"'
		echo 'set xlabel "time (ms)"; set ylabel "F0 goodput (Gb/s, 20 us bins)"'
		echo 'set xrange [2.6:3.6]; set yrange [0:105]; set grid; set key bottom right box opaque'
		echo 'set arrow 1 from 2.8, graph 0 to 2.8, graph 1 nohead dt 3 lc rgb "gray"'
		i=0
		for cc in $(head -1 "$T/f0.csv" | tr , '\n' | sed -n 's/_sih$//p'); do
			echo "set title \"$(title "$cc")\""
			echo "plot \"$T/f0.csv\" every ::1 using 1:$((2 + 2 * i)) with lines lw 2 lc rgb \"#1f77b4\" title \"SIH\", \\"
			echo "     \"\" every ::1 using 1:$((3 + 2 * i)) with lines lw 2 dt 2 lc rgb \"#d62728\" title \"DSH\""
			i=$((i + 1))
		done
		echo 'unset multiplot'
	} | gnuplot
fi

# ---- Fig. 14: DSH / SIH mean FCT, mean over seeds with 95 % CI bars, and the paper's best points
# (paper.tsv: "-31.1 %" -> 0.689)
paper() { awk -F'\t' -v k="$1" '$1 == k { v = $2; sub(/^−/, "-", v); sub(/ %$/, "", v); printf "%.3f", 1 + v / 100 }' $EXP/paper.tsv; }
fig14() { # table prefix, png, what to call the classes
	[ -s "$1-ci.csv" ] || return 0
	n=$(awk -F, 'NR == 2 { print $3 }' "$1-ci.csv")
	if [ "$n" -gt 1 ]; then w="yerrorlines"; u4="4:5"; u8="8:9"; seeds="mean and 95 % CI over $n seeds"
	else w="linespoints"; u4="4"; u8="8"; seeds="1 seed"; fi
	gnuplot <<GP
set terminal pngcairo size 1100,520 font "Sans,10"
set datafile separator ","
set output "$2"
set multiplot layout 1,2 title "DSH Fig. 14 (reduced: 4x16 hosts, 100G, 16 MiB, total load 0.9, classes $3): mean FCT, DSH / SIH ($seeds)"
set xlabel "background load (fan-in = 0.9 - background)"
set ylabel "mean FCT normalised to SIH"
set grid
set yrange [0:1.6]
set xrange [0.1:0.9]
set key bottom left box opaque
set title "background (web search) flows"
plot 1 with lines dt 2 lc rgb "gray" notitle, \
     "$1-ci.csv" every ::1 using (strcol(1) eq "powertcp" ? \$2 : 1/0):$u4 with $w pt 7 lw 2 lc rgb "#d62728" title "PowerTCP", \
     "" every ::1 using (strcol(1) eq "dcqcn" ? \$2 : 1/0):$u4 with $w pt 5 lw 2 lc rgb "#1f77b4" title "DCQCN", \
     $(paper f14.powertcp.bg) with lines dt 3 lw 1.5 lc rgb "#d62728" title "paper: PowerTCP, best point", \
     $(paper f14.dcqcn.bg) with lines dt 3 lw 1.5 lc rgb "#1f77b4" title "paper: DCQCN, best point"
set title "fan-in (16 x 64 KiB) flows"
plot 1 with lines dt 2 lc rgb "gray" notitle, \
     "$1-ci.csv" every ::1 using (strcol(1) eq "powertcp" ? \$2 : 1/0):$u8 with $w pt 7 lw 2 lc rgb "#d62728" title "PowerTCP", \
     "" every ::1 using (strcol(1) eq "dcqcn" ? \$2 : 1/0):$u8 with $w pt 5 lw 2 lc rgb "#1f77b4" title "DCQCN", \
     $(paper f14.powertcp.fan) with lines dt 3 lw 1.5 lc rgb "#d62728" title "paper: PowerTCP, best point", \
     $(paper f14.dcqcn.fan) with lines dt 3 lw 1.5 lc rgb "#1f77b4" title "paper: DCQCN, best point"
unset multiplot
GP
}
fig14 "$T/fig14" "$OUT/fig14.png" spec
fig14 "$T/fig14-harness" "$OUT/fig14-harness.png" harness
