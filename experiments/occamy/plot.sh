#!/bin/sh
# plot.sh OUT LABEL SPEC...: the two Occamy figures from the sweep-summary.csv files of the
# sweeps SPEC... in OUT (OUT/SPEC/, as run.sh writes them: fig14-bg*, fig14-nobg*, fig12*),
# with gnuplot:
#   OUT/fig14_choking.png  mean and p99 QCT of host 0's queries, without (solid) and with
#                          (dashed) the low-priority background
#   OUT/fig12_burst.png    mean QCT, and the % of queries that waited for an RTO
# Each point is the mean over the sweep's seeds; with more than one seed, error bars give the
# 95 % confidence interval of the mean (the _ci95 columns, docs/sweep.md §4). A figure whose
# sweeps are not among SPEC... is not drawn. LABEL names the scale in the titles.
#
#   sh experiments/occamy/plot.sh out/experiments/occamy reduced fig14-bg fig14-nobg fig12
set -e
OUT=${1:?usage: sh plot.sh OUT LABEL SPEC...}
LABEL=${2:?usage: sh plot.sh OUT LABEL SPEC...}
shift 2
# the summaries of each figure (and condition), as the lists of files dat() takes
NOBG="" BG="" F12=""
for fig in "$@"; do
	case $fig in
	fig14-nobg*) NOBG="$NOBG $OUT/$fig/sweep-summary.csv" ;;
	fig14-bg*) BG="$BG $OUT/$fig/sweep-summary.csv" ;;
	fig12*) F12="$F12 $OUT/$fig/sweep-summary.csv" ;;
	esac
done
DIR=$OUT/plot-data
mkdir -p "$DIR"
# data: one file per (scheme[, background]), sizes in increasing order; CI 0 with one seed
# (sweep-summary.csv leaves it empty). Prints the smallest number of seeds of a point.
# usage: dat FILE-PREFIX SUMMARY... ; columns: size, then mean and CI of the three metrics
dat() {
	pre=$1; shift
	awk -F, -v pre="$pre" 'FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s %s %s %s %s %s %s\n", $c["size_pct"], $c["qct_mean_us_mean"] / 1000, $c["qct_mean_us_ci95"] / 1000,
			$c["qct_p99_us_mean"] / 1000, $c["qct_p99_us_ci95"] / 1000, $c["rto_pct_mean"], $c["rto_pct_ci95"] + 0 \
			| "sort -n -k1,1 > \"" pre "-" $c["switch.scheme"] ".dat\""
		  if (n == "" || $c["n"] < n) n = $c["n"] }
		END { print n + 0 }' "$@"
}
style() { [ "$1" -gt 1 ] && echo yerrorlines || echo linespoints; }
# gnuplot "using" for column $1 (+ its CI in the next column with error bars)
use() { [ "$2" = yerrorlines ] && echo "1:$1:$(($1 + 1))" || echo "1:$1"; }
COMMON='set terminal pngcairo size 1100,430 font "Sans,10"
set logscale y
set grid
set xlabel "query size (% of the 410 KB buffer)"
set key top left
names = "dt abm occamy pushout"
labels = "DT ABM Occamy Pushout"
colors = "#d62728 #ff7f0e #1f77b4 #2ca02c"'

# shellcheck disable=SC2086  # lists of file names without blanks
if [ -n "$NOBG" ] && [ -n "$BG" ]; then
	n0=$(dat "$DIR/choking-bg0" $NOBG)
	n1=$(dat "$DIR/choking-bg1" $BG)
	n=$n0; [ "$n1" -lt "$n" ] && n=$n1
	w=$(style "$n")
	gnuplot <<GP
$COMMON
set output "$OUT/fig14_choking.png"
set multiplot layout 1,2 title "Fig. 14 ($LABEL, $n seed(s)$([ "$n" -gt 1 ] && echo ', mean +- 95% CI')): QCT of high-priority queries into one port, solid = without, dashed = with low-priority background"
set ylabel "mean QCT (ms)"
plot for [i=1:4] "$DIR/choking-bg0-".word(names,i).".dat" u $(use 2 "$w") w $w lw 2 pt 7 lc rgb word(colors,i) dt 1 t word(labels,i), \
     for [i=1:4] "$DIR/choking-bg1-".word(names,i).".dat" u $(use 2 "$w") w $w lw 2 pt 5 lc rgb word(colors,i) dt 2 t word(labels,i)." + bg"
set ylabel "p99 QCT (ms)"
plot for [i=1:4] "$DIR/choking-bg0-".word(names,i).".dat" u $(use 4 "$w") w $w lw 2 pt 7 lc rgb word(colors,i) dt 1 notitle, \
     for [i=1:4] "$DIR/choking-bg1-".word(names,i).".dat" u $(use 4 "$w") w $w lw 2 pt 5 lc rgb word(colors,i) dt 2 notitle
unset multiplot
GP
fi

# shellcheck disable=SC2086  # a list of file names without blanks
if [ -n "$F12" ]; then
	n=$(dat "$DIR/burst" $F12)
	w=$(style "$n")
	gnuplot <<GP
$COMMON
set output "$OUT/fig12_burst.png"
set multiplot layout 1,2 title "Fig. 12 ($LABEL, $n seed(s)$([ "$n" -gt 1 ] && echo ', mean +- 95% CI')): queries at 1% load over 50% web-search background, one queue per port"
set ylabel "mean QCT (ms)"
plot for [i=1:4] "$DIR/burst-".word(names,i).".dat" u $(use 2 "$w") w $w lw 2 pt 7 lc rgb word(colors,i) t word(labels,i)
unset logscale y
set ylabel "queries hitting an RTO (%)"
set yrange [0:*]
plot for [i=1:4] "$DIR/burst-".word(names,i).".dat" u $(use 6 "$w") w $w lw 2 pt 7 lc rgb word(colors,i) t word(labels,i)
unset multiplot
GP
fi
