#!/bin/sh
# plot.sh SUMMARY PNG LABEL: the ABM figure from a sweep's sweep-summary.csv (sweeps/fig7-fig9b.cfg)
# with gnuplot: rows DCTCP (Fig. 9b), Cubic (Fig. 7); columns incast p99 slowdown (log), short
# web-search p99 slowdown (log), leaf-0 buffer p99 (% of B). Each point is the mean over the
# sweep's seeds; with more than one seed, error bars give the 95 % confidence interval of the
# mean (the _ci95 columns, docs/sweep.md §4). LABEL names the scale in the title.
#
#   sh experiments/abm/plot.sh out/experiments/abm/fig7-fig9b/sweep-summary.csv out/experiments/abm/abm.png "reduced (1 s of arrivals)"
set -e
SUM=${1:?usage: sh plot.sh SUMMARY PNG LABEL}
PNG=${2:?usage: sh plot.sh SUMMARY PNG LABEL}
LABEL=${3:-}
DIR=$(dirname "$PNG")/plot-data
mkdir -p "$DIR"
B=3932160   # the leaf buffer (bytes): the occupancy is plotted in % of it
SCHEMES="dt fab cs ib abm"
# one data file per (transport, scheme): request %, then mean and CI of the three metrics
# (CI 0 with one seed, where sweep-summary.csv leaves it empty)
n=$(awk -F, -v dir="$DIR" -v b="$B" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ f = dir "/" $c["cc"] "-" $c["switch.scheme"] ".dat"
	  printf "%s %s %s %s %s %s %s\n", $c["request_pct"], $c["incast_slowdown_p99_mean"], $c["incast_slowdown_p99_ci95"] + 0,
		$c["short_p99_mean"], $c["short_p99_ci95"] + 0, 100 * $c["buffer_p99_bytes_mean"] / b, 100 * $c["buffer_p99_bytes_ci95"] / b > f
	  if ($c["n"] > n) n = $c["n"] }
	END { print n + 0 }' "$SUM")
[ "$n" -gt 1 ] && with="yerrorlines" || with="linespoints"
{
	echo "set terminal pngcairo size 1650,860 font 'sans,11'"
	echo "set output '$PNG'"
	echo "set multiplot layout 2,3 title 'ABM vs DT/FAB/CS/IB: web-search 40% load + incast (fan-in 32), 2 leaves x 32 hosts, 10G, B = 3.93 MB, $LABEL, $n seed(s)$( [ "$n" -gt 1 ] && echo ', mean +- 95% CI')'"
	echo "set key outside right top vertical font ',9'"
	echo "set grid"
	echo "set xlabel 'request size (% of buffer)'"
	echo "set xrange [10:77]"
	echo "set xtics (12.5, 25, 37.5, 50, 75)"
	for cc in dctcp cubic; do
		for col in 2 4 6; do
			case $col in
			2) echo "set logscale y; set yrange [1:*]; set ylabel 'p99 FCT slowdown'"
			   echo "set title '$cc: incast flows, p99 slowdown (log)'" ;;
			4) echo "set logscale y; set yrange [1:*]; set ylabel 'p99 FCT slowdown'"
			   echo "set title '$cc: short web-search flows (<100 KB), p99 slowdown (log)'" ;;
			6) echo "unset logscale y; set yrange [0:105]; set ylabel '% of B'"
			   echo "set title '$cc: leaf 0 buffer occupancy, p99'" ;;
			esac
			using="1:$col"; [ "$with" = linespoints ] || using="1:$col:$((col + 1))"
			printf "plot "
			sep=""
			for s in $SCHEMES; do
				case $s in
				abm) st="lw 3 pt 7 lc rgb '#d62728'" ;; dt) st="lw 2 pt 5 lc rgb '#1f77b4'" ;;
				fab) st="lw 2 pt 9 lc rgb '#2ca02c'" ;; cs) st="lw 2 pt 13 lc rgb '#7f7f7f'" ;;
				*) st="lw 2 pt 11 lc rgb '#9467bd'" ;;
				esac
				printf "%s'%s' using %s with %s %s title '%s'" "$sep" "$DIR/$cc-$s.dat" "$using" "$with" "$st" \
					"$(echo "$s" | tr a-z A-Z)"
				sep=", "
			done
			echo
		done
	done
	echo "unset multiplot"
} > "$DIR/abm.gp"
gnuplot "$DIR/abm.gp"
