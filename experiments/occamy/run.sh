#!/bin/sh
# Occamy (EuroSys'25) reduced reproduction: Fig. 14 (buffer choking) and Fig. 12 (burst
# absorption) on the DPDK software-switch setup. One command:
#   sh experiments/occamy/run.sh          # reduced scale, about 3 minutes on 2 cores
#   sh experiments/occamy/run.sh --full   # the paper's run lengths and size grids (hours)
# Writes out/experiments/occamy/{choking.csv,burst.csv,results.md,fig14_choking.png,
# fig12_burst.png,meta.tsv}, then report.sh rewrites experiments/occamy/REPORT.md.
# Environment: MIN_RTO_US=5000 (tcp.min_rto_us and tcp.init_rto_us of every run; default the
# scenarios' 200 ms), CHOKE_SIZES="1.5 2.0" and BURST_SIZES="0.3" (query sizes, fractions of the
# buffer), OUT=out/elsewhere, NOREPORT=1 (leave REPORT.md alone; run-variants.sh sets it).
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/occamy
CMD="sh $EXP/run.sh${1:+ $1}"
[ -z "${MIN_RTO_US:-}" ] || CMD="MIN_RTO_US=$MIN_RTO_US $CMD"
[ -z "${CHOKE_SIZES:-}" ] || CMD="CHOKE_SIZES=\"$CHOKE_SIZES\" $CMD"
[ -z "${BURST_SIZES:-}" ] || CMD="BURST_SIZES=\"$BURST_SIZES\" $CMD"
CHOKE_ENV=${CHOKE_SIZES:-} BURST_ENV=${BURST_SIZES:-}
[ -z "${OUT:-}" ] || CMD="OUT=$OUT $CMD"
OUT=${OUT:-out/experiments/occamy}
FULL=0
case "$1" in
--full) FULL=1 ;;
"") ;;
*) echo "usage: sh $EXP/run.sh [--full]" >&2; exit 2 ;;
esac

sh tools/install-deps.sh gnuplot-nox
make -s
mkdir -p "$OUT"

BUF=419430                 # 5.12 KB x 1024 per port per Gb/s x 80 Gb/s
SCHEMES="dt abm occamy pushout"
RTO_US=${MIN_RTO_US:-200000}   # tcp.min_rto_us of dpdk-testbed.cfg, or MIN_RTO_US
RTO_SET=""
[ -z "${MIN_RTO_US:-}" ] || RTO_SET="--set tcp.min_rto_us=$MIN_RTO_US --set tcp.init_rto_us=$MIN_RTO_US"
QLOAD_BPS=100000000        # query load: 1% of 10 Gb/s per host (100 Mb/s)
if [ $FULL = 1 ]; then
	CHOKE_SIZES="0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0 1.5 2.0 2.5"
	BURST_SIZES="0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0 1.1 1.2 1.3 1.4"
	CHOKE_RUN="--set run.duration_ms=120600 --set run.arrivals_ms=120000"   # paper: 120 s
	BURST_RUN="--set run.duration_ms=180600 --set run.arrivals_ms=180000"   # paper: 180 s
else
	CHOKE_SIZES="0.3 0.4 0.5 0.6 0.7"
	BURST_SIZES="0.3 0.5 0.7 0.9 1.1 1.4"
	CHOKE_RUN=""           # the scenario files' reduced run lengths
	BURST_RUN=""
fi
[ -z "$CHOKE_ENV" ] || CHOKE_SIZES=$CHOKE_ENV
[ -z "$BURST_ENV" ] || BURST_SIZES=$BURST_ENV
schemes_csv=$(echo $SCHEMES | tr ' ' ',')

# query size and per-host query rate (queries/s) for 1% load at fraction f of the buffer
qsize() { awk -v f="$1" -v b=$BUF 'BEGIN { printf "%d", f * b }'; }
qrate() { awk -v s="$1" -v l=$QLOAD_BPS 'BEGIN { printf "%.6f", l / (8 * s) }'; }
# count mean p50 p99 max rto_pct of the QCTs (us) of the queries issued by host $2 (-1: all)
qct() { awk -F, -v dst="$2" -v fanin=7 -f $EXP/qct.awk "$1" | sort -n | awk -v rto_us=$RTO_US -f $EXP/stats.awk; }
# mean FCT of background flows and p99 FCT of background flows < 100 KB (us)
bgfct() {
	m=$(awk -F, 'NR > 1 && $7 == "background" { s += $10; n++ } END { printf "%.1f", n ? s / n / 1000 : 0 }' "$1")
	p=$(awk -F, 'NR > 1 && $7 == "background" && $4 < 100000 { printf "%.3f\n", $10 / 1000 }' "$1" | sort -n |
		awk -v rto_us=$RTO_US -f $EXP/stats.awk | awk '{ print $4 }')
	echo "$m $p"
}

T0=$(date +%s)
# ---------------------------------------------------------------- Fig. 14: buffer choking
echo "size_pct,scheme,background,queries,qct_mean_us,qct_p50_us,qct_p99_us,qct_max_us,rto_pct" > "$OUT/choking.csv"
for f in $CHOKE_SIZES; do
	size=$(qsize $f); rate=$(qrate $size)
	for bg in 0 1; do
		cfg=$EXP/choking.cfg; [ $bg = 0 ] && cfg=$EXP/choking-nobg.cfg
		dir=$OUT/choking/bg$bg-$f
		echo "fig14: query size $f x buffer ($size B), background $bg" >&2
		# shellcheck disable=SC2086  # lists of options on purpose
		build/sharebuf compare $cfg --schemes $schemes_csv --out $dir -q $CHOKE_RUN $RTO_SET \
			--set workloads.0.size_bytes=$size --set workloads.0.query_rate=$rate
		for s in $SCHEMES; do
			pct=$(awk -v f=$f 'BEGIN { printf "%g", 100 * f }')
			echo "$pct $s $bg $(qct $dir/$s/flows.csv 0)" | tr ' ' ','
		done >> "$OUT/choking.csv"
	done
done

# ---------------------------------------------------------------- Fig. 12: burst absorption
echo "size_pct,scheme,queries,qct_mean_us,qct_p50_us,qct_p99_us,qct_max_us,rto_pct,bg_fct_mean_us,bg_short_fct_p99_us" > "$OUT/burst.csv"
for f in $BURST_SIZES; do
	size=$(qsize $f); rate=$(qrate $size)
	dir=$OUT/burst/$f
	echo "fig12: query size $f x buffer ($size B)" >&2
	# shellcheck disable=SC2086  # lists of options on purpose
	build/sharebuf compare $EXP/burst.cfg --schemes $schemes_csv --out $dir -q $BURST_RUN $RTO_SET \
		--set workloads.0.size_bytes=$size --set workloads.0.query_rate=$rate
	for s in $SCHEMES; do
		pct=$(awk -v f=$f 'BEGIN { printf "%g", 100 * f }')
		echo "$pct $s $(qct $dir/$s/flows.csv -1) $(bgfct $dir/$s/flows.csv)" | tr ' ' ','
	done >> "$OUT/burst.csv"
done
T1=$(date +%s)

# ---------------------------------------------------------------- tables
{
	echo "# Occamy reduced reproduction: results ($( [ $FULL = 1 ] && echo full || echo reduced ) scale, $((T1 - T0)) s of simulation)"
	echo
	echo "## Fig. 14: buffer choking (queries into host 0; QCT in ms; x = with / without background)"
	echo
	echo "| query size | scheme | mean w/o bg | mean with bg | mean x | p99 w/o bg | p99 with bg | p99 x | RTO % w/o | RTO % with |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { k = $1 "," $2; m[k, $3] = $5; p[k, $3] = $7; r[k, $3] = $9; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
		END { for (i = 1; i <= n; i++) { k = order[i]; split(k, a, ",")
			printf "| %s%% | %s | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f | %.1f | %.1f |\n", a[1], a[2],
				m[k, 0] / 1000, m[k, 1] / 1000, m[k, 1] / m[k, 0], p[k, 0] / 1000, p[k, 1] / 1000, p[k, 1] / p[k, 0], r[k, 0], r[k, 1] } }' "$OUT/choking.csv"
	echo
	echo "Largest inflation by background over the query sizes (paper: DT 6.6x mean, 60x p99; ABM 5.7x mean; Occamy ~ Pushout ~ 1x):"
	echo
	awk -F, 'NR > 1 { k = $1 "," $2; v[k, $3] = $5; w[k, $3] = $7 }
		END { for (kk in v) { split(kk, b, SUBSEP); k = b[1]; if (b[2] != 1) continue; split(k, a, ","); s = a[2]
			x = v[k, 1] / v[k, 0]; y = w[k, 1] / w[k, 0]
			if (x > mx[s]) mx[s] = x; if (y > py[s]) py[s] = y }
			n = split("dt abm occamy pushout", o, " ")
			for (i = 1; i <= n; i++) printf "- %s: mean QCT up to %.1fx, p99 QCT up to %.1fx\n", o[i], mx[o[i]], py[o[i]] }' "$OUT/choking.csv"
	echo
	echo "## Fig. 12: burst absorption (all queries; QCT in ms; RTO % = queries with QCT >= min RTO)"
	echo
	echo "| query size | scheme | queries | mean QCT | p99 QCT | RTO % | bg mean FCT | bg < 100 KB p99 FCT |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s%% | %s | %d | %.2f | %.2f | %.1f | %.2f | %.2f |\n", $1, $2, $3, $4 / 1000, $6 / 1000, $8, $9 / 1000, $10 / 1000 }' "$OUT/burst.csv"
	echo
	echo "Mean-QCT reduction by Occamy (paper: up to ~55% vs DT, ~42% vs ABM):"
	echo
	awk -F, 'NR > 1 { m[$1, $2] = $4; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
		END { for (i = 1; i <= n; i++) { f = order[i]
			printf "- %s%%: %.0f%% vs DT, %.0f%% vs ABM\n", f, 100 * (m[f, "dt"] - m[f, "occamy"]) / m[f, "dt"], 100 * (m[f, "abm"] - m[f, "occamy"]) / m[f, "abm"] } }' "$OUT/burst.csv"
} > "$OUT/results.md"

# ---------------------------------------------------------------- plots
for s in $SCHEMES; do
	for bg in 0 1; do
		awk -F, -v s=$s -v bg=$bg 'NR > 1 && $2 == s && $3 == bg { print $1, $5 / 1000, $7 / 1000 }' "$OUT/choking.csv" > "$OUT/choking-$s-bg$bg.dat"
	done
	awk -F, -v s=$s 'NR > 1 && $2 == s { print $1, $4 / 1000, $6 / 1000, $8 }' "$OUT/burst.csv" > "$OUT/burst-$s.dat"
done
gnuplot <<GP
set terminal pngcairo size 1100,430 font "Sans,10"
set output "$OUT/fig14_choking.png"
set multiplot layout 1,2 title "Fig. 14 (reduced): QCT of high-priority queries into one port, solid = without, dashed = with low-priority background"
set logscale y
set grid
set xlabel "query size (% of the 410 KB buffer)"
set key top left
names = "dt abm occamy pushout"
labels = "DT ABM Occamy Pushout"
colors = "#d62728 #ff7f0e #1f77b4 #2ca02c"
set ylabel "mean QCT (ms)"
plot for [i=1:4] "$OUT/choking-".word(names,i)."-bg0.dat" u 1:2 w lp lw 2 pt 7 lc rgb word(colors,i) dt 1 t word(labels,i), \
     for [i=1:4] "$OUT/choking-".word(names,i)."-bg1.dat" u 1:2 w lp lw 2 pt 5 lc rgb word(colors,i) dt 2 t word(labels,i)." + bg"
set ylabel "p99 QCT (ms)"
plot for [i=1:4] "$OUT/choking-".word(names,i)."-bg0.dat" u 1:3 w lp lw 2 pt 7 lc rgb word(colors,i) dt 1 notitle, \
     for [i=1:4] "$OUT/choking-".word(names,i)."-bg1.dat" u 1:3 w lp lw 2 pt 5 lc rgb word(colors,i) dt 2 notitle
unset multiplot

set output "$OUT/fig12_burst.png"
set multiplot layout 1,2 title "Fig. 12 (reduced): queries at 1% load over 50% web-search background, one queue per port"
set ylabel "mean QCT (ms)"
plot for [i=1:4] "$OUT/burst-".word(names,i).".dat" u 1:2 w lp lw 2 pt 7 lc rgb word(colors,i) t word(labels,i)
unset logscale y
set ylabel "queries hitting an RTO (%)"
set yrange [0:*]
plot for [i=1:4] "$OUT/burst-".word(names,i).".dat" u 1:4 w lp lw 2 pt 7 lc rgb word(colors,i) t word(labels,i)
unset multiplot
GP
cat "$OUT/results.md"
echo "outputs: $OUT/{choking.csv,burst.csv,results.md,fig14_choking.png,fig12_burst.png} ($(( $(date +%s) - T0 )) s)"
{ [ $FULL = 1 ] && echo full || echo reduced; } > "$OUT/mode.txt"
echo "$RTO_US" > "$OUT/rto_us.txt"
run_meta "$OUT" "$CMD" "$T0"
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
