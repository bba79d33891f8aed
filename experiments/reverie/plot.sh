#!/bin/sh
# Plots of experiments/reverie/run.sh from OUT/results.csv: fig7.png, fig8.png, fig10.png.
#   sh experiments/reverie/plot.sh OUT MODE LEAVES ARRIVALS_MS
# Called by run.sh; needs gnuplot (tools/install-deps.sh gnuplot-nox). The paper's colours and
# marks: DT red x, ABM blue triangle, Reverie green +; Reverie with pause_on_full_pool off grey.
set -e
[ $# -eq 4 ] || { echo "usage: sh plot.sh OUT MODE LEAVES ARRIVALS_MS" >&2; exit 2; }
OUT=$1 MODE=$2 NL=$3 ARR=$4
RES="$OUT/results.csv"
[ -f "$RES" ] || { echo "plot.sh: no $RES" >&2; exit 1; }
has_fig() { awk -F, -v f="$1" '$1 == f { found = 1 } END { exit !found }' "$RES"; }

style() { # scheme -> gnuplot style
	case $1 in
	dt) echo "lw 2 pt 2 ps 1.5 lc rgb '#d62728'" ;;
	abm) echo "lw 2 pt 9 ps 1.4 lc rgb '#1f77b4'" ;;
	reverie) echo "lw 3 pt 1 ps 2 lc rgb '#2ca02c'" ;;
	reverie-art) echo "lw 2 dt 2 pt 6 ps 1.2 lc rgb '#7f7f7f'" ;;
	esac
}
title() {
	case $1 in dt) echo DT ;; abm) echo ABM ;; reverie) echo Reverie ;;
	reverie-art) echo "Reverie, pause_on_full_pool off" ;; esac
}

# Figs. 7 and 8: one panel per metric, x = TCP load (7) or burst in MB (8).
sweep_plot() { # fig xlabel xscale caption
	f=$1
	schemes=$(awk -F, -v f="$f" '$1 == f && !s[$3]++ { print $3 }' "$RES")
	for s in $schemes; do
		awk -F, -v f="$f" -v s="$s" -v k="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == f && $3 == s { print $2 / k, $c["pauses"] / 1000, $c["incast_mean"], $c["short_p99"],
				$c["rdma_occ_p99_pct"], $c["tcp_occ_p99_pct"], $c["paused_ms"], $c["qct_mean"], $c["qct_p99"] }' \
			"$RES" > "$OUT/plot$f-$s.dat"
	done
	{
		echo "set terminal pngcairo size 1900,1000 font 'sans,11'"
		echo "set output '$OUT/fig$f.png'"
		echo "set multiplot layout 2,4 title \"$4\""
		echo "set grid"
		echo "set termoption noenhanced"
		echo "set key below font ',9' maxrows 2"
		echo "set xlabel '$2'"
		echo "set offsets graph 0.05, graph 0.05, graph 0.05, 0"
		for c in 2 3 4 5 6 7 8 9; do
			case $c in
			2) echo "set title '(a) # PFC pauses (x1000)'; set ylabel 'PAUSE frames / 1000'" ;;
			3) echo "set title '(b) avg FCT slowdown, RDMA incast flows'; set ylabel 'slowdown'" ;;
			4) echo "set title '(c) p99 FCT slowdown, TCP short flows (<100 KB)'; set ylabel 'slowdown'" ;;
			5) echo "set title '(d) p99 RDMA buffer occupancy (leaves)'; set ylabel '% of buffer'" ;;
			6) echo "set title '(e) p99 TCP buffer occupancy (leaves)'; set ylabel '% of buffer'" ;;
			7) echo "set title '(f) paused time, all queues'; set ylabel 'ms'" ;;
			8) echo "set title '(g) avg query completion slowdown'; set ylabel 'slowdown'" ;;
			9) echo "set title '(h) p99 query completion slowdown'; set ylabel 'slowdown'" ;;
			esac
			echo "set yrange [0:*]"
			printf "plot "
			sep=""
			for s in $schemes; do
				printf "%s'%s' using 1:%d with linespoints %s title '%s'" "$sep" "$OUT/plot$f-$s.dat" "$c" \
					"$(style "$s")" "$(title "$s")"
				sep=", "
			done
			echo
		done
		echo "unset multiplot"
	} > "$OUT/fig$f.gp"
	gnuplot "$OUT/fig$f.gp"
}

SCALE="$NL leaves x 16 hosts, 4 spines, 25G, $ARR ms of arrivals ($MODE)"
if has_fig 7; then
	sweep_plot 7 "TCP web-search load (%)" 1 \
		"Reverie Fig. 7: RDMA (DCQCN) 2 MB incast + TCP (Cubic) web-search; $SCALE"
fi
if has_fig 8; then
	sweep_plot 8 "RDMA burst size (MB)" 1000000 \
		"Reverie Fig. 8: RDMA (DCQCN) incast + TCP (Cubic) web-search at 80 %; $SCALE"
fi

# Fig. 10: x = gamma as categories; pause_on_full_pool on and off; DT and ABM as flat references.
if has_fig 10; then
	for s in reverie reverie-art; do
		awk -F, -v s="$s" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == 10 && $2 != "ref" && $3 == s { print n++, $2, $c["pauses"] / 1000, $c["incast_mean"],
				$c["paused_ms"], $c["qct_mean"] }' "$RES" > "$OUT/plot10-$s.dat"
	done
	n=$(wc -l < "$OUT/plot10-reverie.dat")
	for s in dt abm; do
		awk -F, -v s="$s" -v n="$n" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == 10 && $2 == "ref" && $3 == s { for (i = 0; i < n; i++) print i, "ref", $c["pauses"] / 1000,
				$c["incast_mean"], $c["paused_ms"], $c["qct_mean"] }' "$RES" > "$OUT/plot10-$s.dat"
	done
	{
		echo "set terminal pngcairo size 1800,620 font 'sans,11'"
		echo "set output '$OUT/fig10.png'"
		echo "set multiplot layout 1,4 title \"Reverie Fig. 10: gamma sweep, RDMA (DCQCN) web-search 80 % + 2 MB RDMA incast; $SCALE\""
		echo "set grid"
		echo "set termoption noenhanced"
		echo "set key below font ',9' maxrows 2"
		echo "set xlabel 'gamma'"
		echo "set xrange [-0.4:$n-0.6]"
		echo "set yrange [0:*]"
		for c in 3 4 5 6; do
			case $c in
			3) echo "set title '(a) # PFC pauses (x1000)'; set ylabel 'PAUSE frames / 1000'" ;;
			4) echo "set title '(b) avg FCT slowdown, RDMA incast flows'; set ylabel 'slowdown'" ;;
			5) echo "set title 'paused time, all queues'; set ylabel 'ms'" ;;
			6) echo "set title 'avg query completion slowdown'; set ylabel 'slowdown'" ;;
			esac
			printf "plot "
			sep=""
			for s in reverie reverie-art dt abm; do
				case $s in
				dt | abm) st="lw 1 dt 3 lc rgb '$( [ $s = dt ] && echo '#d62728' || echo '#1f77b4')'"
					w=lines; t="$(title $s) (reference)"; u="1:$c" ;;
				*) st=$(style $s); w=linespoints; t=$(title $s); u="1:$c:xtic(2)" ;;
				esac
				printf "%s'%s' using %s with %s %s title '%s'" "$sep" "$OUT/plot10-$s.dat" "$u" \
					"$w" "$st" "$t"
				sep=", "
			done
			echo
		done
		echo "unset multiplot"
	} > "$OUT/fig10.gp"
	gnuplot "$OUT/fig10.gp"
fi
