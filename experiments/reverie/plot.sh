#!/bin/sh
# Plots of experiments/reverie/run.sh from the sweeps' OUT/<spec>/sweep-summary.csv: fig7.png
# (OUT/fig7), fig8.png (OUT/fig8) and fig10.png (OUT/fig10 and OUT/fig10-ref), each for the
# sweeps present.
#   sh experiments/reverie/plot.sh OUT "CAPTION"
# Called by run.sh; needs gnuplot (tools/install-deps.sh gnuplot-nox). Every mark is the mean
# over the seeds; with more than one seed, error bars give the 95 % confidence interval of the
# mean (the _ci95 columns, docs/sweep.md §4). The paper's colours and marks: DT red x, ABM blue
# triangle, Reverie green +; Reverie with pause_on_full_pool off grey.
set -e
[ $# -eq 2 ] || { echo "usage: sh plot.sh OUT CAPTION" >&2; exit 2; }
OUT=$1 CAPTION=$2

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

# dat SUMMARY SCHEME XCOL XSCALE METRICS... > file: one line per point of SCHEME, in the CSV's
# order: "i x mean ci mean ci ..." (i = the point's rank, for categorical axes; ci 0 with one
# seed; a metric "NAME/K" is divided by K). XCOL empty: x = "ref".
dat() {
	_f=$1 _s=$2 _xc=$3 _xk=$4   # sh has no local variables: names of their own
	shift 4
	awk -F, -v s="$_s" -v xc="$_xc" -v xk="$_xk" -v m="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; nm = split(m, M, " ")
			for (k = 1; k <= nm; k++) { D[k] = 1; if (split(M[k], p, "/") == 2) { M[k] = p[1]; D[k] = p[2] }
				if (!((M[k] "_mean") in c)) { print "plot.sh: no column " M[k] "_mean in " FILENAME > "/dev/stderr"; exit 1 } }
			next }
		$c["scheme"] == s { line = (n++) " " (xc == "" ? "ref" : $c[xc] * xk)
			for (k = 1; k <= nm; k++) line = line " " $c[M[k] "_mean"] / D[k] " " ($c[M[k] "_ci95"] == "" ? 0 : $c[M[k] "_ci95"] / D[k])
			print line }' "$_f"
}
# seeds: the smallest n of a summary (1 = no error bars)
seeds() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 || $c["n"] < n { n = $c["n"] } END { print n + 0 }' "$1"; }
schemes() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } !s[$c["scheme"]]++ { print $c["scheme"] }' "$1"; }

METRICS="pfc_pause_frames/1000 incast_slowdown_mean short_p99 rdma_occ_p99_pct tcp_occ_p99_pct pfc_paused_us/1000 qct_slowdown_mean qct_slowdown_p99"
panel_title() { # metric number (1-based) -> gnuplot title and ylabel
	case $1 in
	1) echo "set title '(a) # PFC pauses (x1000)'; set ylabel 'PAUSE frames / 1000'" ;;
	2) echo "set title '(b) avg FCT slowdown, RDMA incast flows'; set ylabel 'slowdown'" ;;
	3) echo "set title '(c) p99 FCT slowdown, $2 short flows (<100 KB)'; set ylabel 'slowdown'" ;;
	4) echo "set title '(d) p99 RDMA buffer occupancy (leaves)'; set ylabel '% of buffer'" ;;
	5) echo "set title '(e) p99 TCP buffer occupancy (leaves)'; set ylabel '% of buffer'" ;;
	6) echo "set title '(f) paused time, all queues'; set ylabel 'ms'" ;;
	7) echo "set title '(g) avg query completion slowdown'; set ylabel 'slowdown'" ;;
	8) echo "set title '(h) p99 query completion slowdown'; set ylabel 'slowdown'" ;;
	esac
}

# Figs. 7 and 8: one panel per metric, x = TCP load in % (7) or burst in MB (8)
sweep_plot() { # fig xcol xscale xlabel caption
	f=$1 sum="$OUT/fig$1/sweep-summary.csv"
	n=$(seeds "$sum")
	ss=$(schemes "$sum")
	# shellcheck disable=SC2086  # METRICS is a list of words
	for s in $ss; do dat "$sum" "$s" "$2" "$3" $METRICS > "$OUT/plot$f-$s.dat"; done
	{
		echo "set terminal pngcairo size 1900,1000 font 'sans,11'"
		echo "set output '$OUT/fig$f.png'"
		echo "set multiplot layout 2,4 title \"$5 ($([ "$n" -gt 1 ] && echo "means of $n seeds, 95 % CI" || echo "1 seed"))\""
		echo "set grid"
		echo "set termoption noenhanced"
		echo "set key below font ',9' maxrows 2"
		echo "set xlabel '$4'"
		echo "set offsets graph 0.05, graph 0.05, graph 0.05, 0"
		for k in 1 2 3 4 5 6 7 8; do
			panel_title $k TCP
			echo "set yrange [0:*]"
			m=$((2 * k + 1))
			printf "plot "
			sep=""
			for s in $ss; do
				if [ "$n" -gt 1 ]; then u="2:$m:$((m + 1))" w=yerrorlines; else u="2:$m" w=linespoints; fi
				printf "%s'%s' using %s with %s %s title '%s'" "$sep" "$OUT/plot$f-$s.dat" "$u" "$w" \
					"$(style "$s")" "$(title "$s")"
				sep=", "
			done
			echo
		done
		echo "unset multiplot"
	} > "$OUT/fig$f.gp"
	gnuplot "$OUT/fig$f.gp"
}

[ ! -s "$OUT/fig7/sweep-summary.csv" ] || sweep_plot 7 workloads.0.load 100 "TCP web-search load (%)" \
	"Reverie Fig. 7: RDMA (DCQCN) 2 MB incast + TCP (Cubic) web-search; $CAPTION"
[ ! -s "$OUT/fig8/sweep-summary.csv" ] || sweep_plot 8 workloads.1.size_bytes 0.000001 "RDMA burst size (MB)" \
	"Reverie Fig. 8: RDMA (DCQCN) incast + TCP (Cubic) web-search at 80 %; $CAPTION"

# Fig. 10: x = γ as categories; pause_on_full_pool on and off; DT and ABM (fig10-ref) as flat lines
if [ -s "$OUT/fig10/sweep-summary.csv" ] && [ -s "$OUT/fig10-ref/sweep-summary.csv" ]; then
	sum="$OUT/fig10/sweep-summary.csv" ref="$OUT/fig10-ref/sweep-summary.csv"
	n=$(seeds "$sum")
	M10="pfc_pause_frames/1000 incast_slowdown_mean pfc_paused_us/1000 qct_slowdown_mean"
	# the γ values as written in the spec, for the tics (a number column would print 1e-06 etc.)
	for s in reverie reverie-art; do
		# shellcheck disable=SC2086  # M10 is a list of words
		dat "$sum" "$s" "" 1 $M10 | awk -v s="$s" 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next }
			if ($c["scheme"] == s) g[k++] = $c["switch.reverie.gamma"]; next } { $2 = g[$1]; print }' \
			FS=, "$sum" FS=' ' - > "$OUT/plot10-$s.dat"
	done
	np=$(wc -l < "$OUT/plot10-reverie.dat")
	for s in dt abm; do
		# shellcheck disable=SC2086
		dat "$ref" "$s" "" 1 $M10 | awk -v n="$np" '{ for (i = 0; i < n; i++) { $1 = i; print } }' > "$OUT/plot10-$s.dat"
	done
	{
		echo "set terminal pngcairo size 1800,620 font 'sans,11'"
		echo "set output '$OUT/fig10.png'"
		echo "set multiplot layout 1,4 title \"Reverie Fig. 10: gamma sweep, RDMA (DCQCN) web-search 80 % + 2 MB RDMA incast; $CAPTION ($([ "$n" -gt 1 ] && echo "means of $n seeds, 95 % CI" || echo "1 seed"))\""
		echo "set grid"
		echo "set termoption noenhanced"
		echo "set key below font ',9' maxrows 2"
		echo "set xlabel 'gamma'"
		echo "set xrange [-0.4:$np-0.6]"
		echo "set yrange [0:*]"
		for k in 1 2 3 4; do
			case $k in
			1) echo "set title '(a) # PFC pauses (x1000)'; set ylabel 'PAUSE frames / 1000'" ;;
			2) echo "set title '(b) avg FCT slowdown, RDMA incast flows'; set ylabel 'slowdown'" ;;
			3) echo "set title 'paused time, all queues'; set ylabel 'ms'" ;;
			4) echo "set title 'avg query completion slowdown'; set ylabel 'slowdown'" ;;
			esac
			m=$((2 * k + 1))
			printf "plot "
			sep=""
			for s in reverie reverie-art dt abm; do
				case $s in
				dt | abm) st="lw 1 dt 3 lc rgb '$([ $s = dt ] && echo '#d62728' || echo '#1f77b4')'"
					w=lines t="$(title $s) (reference, mean)" u="1:$m" ;;
				*) st=$(style $s) t=$(title $s)
					if [ "$n" -gt 1 ]; then u="1:$m:$((m + 1)):xtic(2)" w=yerrorlines; else u="1:$m:xtic(2)" w=linespoints; fi ;;
				esac
				printf "%s'%s' using %s with %s %s title '%s'" "$sep" "$OUT/plot10-$s.dat" "$u" "$w" "$st" "$t"
				sep=", "
			done
			echo
		done
		echo "unset multiplot"
	} > "$OUT/fig10.gp"
	gnuplot "$OUT/fig10.gp"
fi
