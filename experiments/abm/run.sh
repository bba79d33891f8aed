#!/bin/sh
# ABM (SIGCOMM'22) Fig. 7 / Fig. 9b, reduced: incast p99 slowdown and short-flow p99 slowdown vs
# request size (% of the leaf buffer), schemes DT, FAB, CS, IB, ABM, under DCTCP and Cubic.
#
#   sh experiments/abm/run.sh          # reduced: 1 s of arrivals per point (~4 min on 2 cores)
#   sh experiments/abm/run.sh --full   # artifact scale: 3 s of arrivals per point (~12 min)
#
# Environment overrides: SIZES="12.5 25" CCS="dctcp" SCHEMES="dt,abm" SEED=2 ARRIVALS_MS=500
# DRAIN_MS=200 OUT=out/elsewhere EXTRA="--set switch.buffer_bytes=3932160" (extra sharebuf options)
# PLOT_ONLY=1 skips the simulations and re-extracts the tables and the plot from existing outputs.
# NOREPORT=1 leaves experiments/abm/REPORT.md alone (run-variants.sh sets it).
# Results: out/experiments/abm/{results.csv,results.md,abm.png,meta.tsv} (--full:
# out/experiments/abm-full/); raw runs in <that directory>/<cc>/req<pct>/<scheme>/. At the end
# report.sh rewrites experiments/abm/REPORT.md from out/experiments/abm* (see report.sh).
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/abm
# the command as run, with the environment overrides that change the outputs (meta.tsv)
CMD="sh $EXP/run.sh${1:+ $1}"
for v in EXTRA ARRIVALS_MS DRAIN_MS SEED CCS SCHEMES SIZES OUT; do
	eval "val=\${$v:-}"
	# shellcheck disable=SC2154  # val is set by eval
	[ -z "$val" ] || case $val in *' '*) CMD="$v=\"$val\" $CMD" ;; *) CMD="$v=$val $CMD" ;; esac
done
MODE=reduced
ARR=${ARRIVALS_MS:-1000}
DEFAULT_OUT=out/experiments/abm
if [ "${1:-}" = "--full" ]; then
	MODE=full
	ARR=${ARRIVALS_MS:-3000}
	DEFAULT_OUT=out/experiments/abm-full
elif [ -n "${1:-}" ]; then
	echo "usage: sh $EXP/run.sh [--full]" >&2
	exit 2
fi
OUT=${OUT:-$DEFAULT_OUT}
DRAIN=${DRAIN_MS:-200}   # after the last arrival: 20 minimum RTOs for flows to finish
DUR=$(awk -v a="$ARR" -v d="$DRAIN" 'BEGIN { print a + d }')
SIZES=${SIZES:-"12.5 25 37.5 50 75"}
CCS=${CCS:-"dctcp cubic"}
SCHEMES=${SCHEMES:-"dt,fab,cs,ib,abm"}
SEED=${SEED:-1}
B=3932160   # leaf buffer: 9.6 KiB x 40 ports x 10 Gb/s (the request size is a fraction of it)

make -s
sh tools/install-deps.sh gnuplot-nox
mkdir -p "$OUT"

start=$(date +%s)
if [ -z "${PLOT_ONLY:-}" ]; then
echo "abm: $MODE run, arrivals $ARR ms (+$DRAIN ms drain), seed $SEED, sizes [$SIZES] % of B," \
	"schemes $SCHEMES, transports [$CCS]${EXTRA:+, extra: $EXTRA}" >&2
# Every (transport, request size) point is one `compare`, all launched at once with one run at a
# time each: the OS keeps every core busy until the last run ends (a run needs ~5 MB).
pids=""
for pct in $SIZES; do
	size=$(awk -v p="$pct" -v b="$B" 'BEGIN { printf "%d", p / 100 * b + 0.5 }')
	for cc in $CCS; do
		# shellcheck disable=SC2086  # EXTRA is a list of words on purpose
		build/sharebuf compare "$EXP/abm.cfg" --schemes "$SCHEMES" --seed "$SEED" --jobs 1 \
			--set run.arrivals_ms="$ARR" --set run.duration_ms="$DUR" \
			--set workloads.1.size_bytes="$size" \
			--set workloads.0.transport="$cc" --set workloads.1.transport="$cc" \
			$EXTRA --out "$OUT/$cc/req$pct" --quiet &
		pids="$pids $!"
	done
done
fail=0
for p in $pids; do wait "$p" || fail=1; done
[ "$fail" = 0 ] || { echo "abm: a run failed (see the messages above)" >&2; exit 1; }
echo "abm: simulations done in $(( $(date +%s) - start )) s" >&2
fi

# ---- extract: compare.csv (incast p99, QCT p99, drops, counts), flows.csv (short web-search
# flows: background, < 100 KB = BDP, as the paper), occupancy.csv (leaf 0 during arrivals)
# p99 = nearest rank, sorted[ceil(0.99 n) - 1], as summary.json
p99() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print 0; exit }
	k = int(0.99 * NR); if (k < 0.99 * NR) k++; print v[k] }'; }

# per run: incast flows that took at least the minimum RTO (10 ms), queries with a response
# slower than 20x its ideal, drops at the spines, and queries with another query into the same
# leaf within +-3 ms (the same arrivals for every scheme)
RTO_NS=$(sed -n 's/^ *min_rto_us *= *\([0-9.]*\).*/\1/p' "$EXP/abm.cfg" | awk '{ printf "%d", $1 * 1000 }')
extra() { # rundir -> incast_rto,slow_queries,spine_drops,overlap_queries
	awk -F, -v rto="$RTO_NS" 'NR > 1 && $7 == "incast" { if ($10 >= rto) r++; if ($12 > 20) q[$8] = 1
			if (!($8 in st) || $9 < st[$8]) st[$8] = $9; leaf[$8] = int($3 / 32) }
		END { for (k in q) nq++
			for (a in st) for (b in st) if (a != b && leaf[a] == leaf[b] && st[a] - st[b] < 3e6 && st[b] - st[a] < 3e6) { ov++; break }
			printf "%d,%d,", r, nq; printf "%d", ov }' "$1/flows.csv" > "$1/.extra"
	sd=$(awk -F, '$1 ~ /^spine/ { s += $3 } END { print s + 0 }' "$1/drops.csv")
	awk -F, -v sd="$sd" '{ printf "%s,%s,%s,%s", $1, $2, sd, $3 }' "$1/.extra"
	rm -f "$1/.extra"
}

RES="$OUT/results.csv"
echo "cc,req_pct,scheme,incast_p99,incast_mean,short_p99,qct_p99,buffer_p99_pct,drops,queries,incast_flows,short_flows,unfinished,long_mean,incast_rto,slow_queries,spine_drops,overlap_queries" > "$RES"
for cc in $CCS; do
	for pct in $SIZES; do
		d="$OUT/$cc/req$pct"
		for s in $(echo "$SCHEMES" | tr ',' ' '); do
			cmp=$(awk -F, -v s="$s" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				$1 == s { printf "%.2f,%.2f,%.2f,%d,%d,%d,%d,%.2f", $c["incast_slowdown_p99"],
					$c["incast_slowdown_mean"], $c["qct_slowdown_p99"], $c["drops"],
					$c["qct_count"], $c["incast_count"], $c["flows_unfinished"],
					$c["long_slowdown_mean"] }' "$d/compare.csv")
			sh_n=$(awk -F, 'NR > 1 && $7 == "background" && $4 < 100000' "$d/$s/flows.csv" | wc -l)
			sh_p=$(awk -F, 'NR > 1 && $7 == "background" && $4 < 100000 { print $12 }' "$d/$s/flows.csv" | p99)
			buf=$(awk -F, -v t="$ARR" 'NR > 1 && $2 == "leaf0" && $1 < t * 1e6 { print $3 + $4 }' \
				"$d/$s/occupancy.csv" | p99)
			ex=$(extra "$d/$s")
			echo "$cmp" | awk -F, -v cc="$cc" -v pct="$pct" -v s="$s" -v sp="$sh_p" -v sn="$sh_n" \
				-v buf="$buf" -v b="$B" -v ex="$ex" '{ printf "%s,%s,%s,%s,%s,%.2f,%s,%.1f,%s,%s,%s,%d,%s,%s,%s\n",
				cc, pct, s, $1, $2, sp, $3, 100 * buf / b, $4, $5, $6, sn, $7, $8, ex }' >> "$RES"
		done
	done
done

# ---- results table (markdown): one block per transport
MD="$OUT/results.md"
{
	echo "# ABM reduced reproduction: $MODE run, arrivals $ARR ms + $DRAIN ms drain, seed $SEED${EXTRA:+, extra options: $EXTRA}"
	echo
	echo "p99 slowdowns (nearest rank); short = web-search flows < 100 KB; buffer = p99 of leaf 0's"
	echo "occupancy during the arrival window, % of B = 3,932,160 B; long mean = mean slowdown of flows"
	echo "> 1 MB (a throughput proxy); unfinished = flows still running at the end (not counted)."
	for cc in $CCS; do
		echo
		echo "## $cc"
		echo
		echo "| request % of B | scheme | incast p99 | short p99 | QCT p99 | buffer p99 % | long mean | drops | queries | incast flows | short flows | unfinished |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
		awk -F, -v cc="$cc" 'NR > 1 && $1 == cc { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			$2, $3, $4, $6, $7, $8, $14, $9, $10, $11, $12, $13 }' "$RES"
		echo
		echo "ABM vs each scheme (negative = ABM lower), incast p99 / short p99:"
		echo
		awk -F, -v cc="$cc" 'NR > 1 && $1 == cc { k = $2; inc[k, $3] = $4; sh[k, $3] = $6
				if (!(k in seen)) { seen[k] = 1; order[++n] = k }
				if (!($3 in sc)) { sc[$3] = 1; sl[++m] = $3 } }
			END { printf "| request %% |"; for (j = 1; j <= m; j++) if (sl[j] != "abm") printf " vs %s |", sl[j]
				printf "\n|---|"; for (j = 1; j <= m; j++) if (sl[j] != "abm") printf "---|"; printf "\n"
				for (i = 1; i <= n; i++) { k = order[i]; printf "| %s |", k
					for (j = 1; j <= m; j++) { s = sl[j]; if (s == "abm") continue
						printf " %+.0f%% / %+.0f%% |", 100 * (inc[k, "abm"] / inc[k, s] - 1),
							100 * (sh[k, "abm"] / sh[k, s] - 1) }
					printf "\n" } }' "$RES"
	done
} > "$MD"

# ---- plot: rows = transports, columns = incast p99, short p99, leaf-0 buffer p99
for cc in $CCS; do
	for s in $(echo "$SCHEMES" | tr ',' ' '); do
		awk -F, -v cc="$cc" -v s="$s" 'NR > 1 && $1 == cc && $3 == s { print $2, $4, $6, $8 }' "$RES" \
			> "$OUT/plot_${cc}_$s.dat"
	done
done
ncc=$(echo $CCS | wc -w)
{
	echo "set terminal pngcairo size 1650,$((430 * ncc)) font 'sans,11'"
	echo "set output '$OUT/abm.png'"
	echo "set multiplot layout $ncc,3 title 'ABM vs DT/FAB/CS/IB: web-search 40% load + incast (fan-in 32), 2 leaves x 32 hosts, 10G, B = 3.93 MB, $MODE ($ARR ms of arrivals)'"
	echo "set key outside right top vertical font ',9'"
	echo "set grid"
	echo "set xlabel 'request size (% of buffer)'"
	echo "set xrange [10:77]"
	echo "set xtics (12.5, 25, 37.5, 50, 75)"
	for cc in $CCS; do
		for col in 2 3 4; do
			case $col in
			2) echo "set logscale y; set yrange [1:*]; set ylabel 'p99 FCT slowdown'"
			   echo "set title '$cc: incast flows, p99 slowdown (log)'" ;;
			3) echo "set logscale y; set yrange [1:*]; set ylabel 'p99 FCT slowdown'"
			   echo "set title '$cc: short web-search flows (<100 KB), p99 slowdown (log)'" ;;
			4) echo "unset logscale y; set yrange [0:105]; set ylabel '% of B'"
			   echo "set title '$cc: leaf 0 buffer occupancy, p99'" ;;
			esac
			printf "plot "
			sep=""
			for s in $(echo "$SCHEMES" | tr ',' ' '); do
				case $s in
				abm) st="lw 3 pt 7 lc rgb '#d62728'" ;; dt) st="lw 2 pt 5 lc rgb '#1f77b4'" ;;
				fab) st="lw 2 pt 9 lc rgb '#2ca02c'" ;; cs) st="lw 2 pt 13 lc rgb '#7f7f7f'" ;;
				ib) st="lw 2 pt 11 lc rgb '#9467bd'" ;; *) st="lw 2" ;;
				esac
				printf "%s'%s' using 1:%d with linespoints %s title '%s'" "$sep" \
					"$OUT/plot_${cc}_$s.dat" "$col" "$st" "$(echo "$s" | tr a-z A-Z)"
				sep=", "
			done
			echo
		done
	done
	echo "unset multiplot"
} > "$OUT/abm.gp"
gnuplot "$OUT/abm.gp"

cat "$MD"
echo >&2
echo "abm: done in $(( $(date +%s) - start )) s; $RES, $MD, $OUT/abm.png" >&2
if [ -z "${PLOT_ONLY:-}" ]; then
	echo "$MODE" > "$OUT/mode.txt"
	run_meta "$OUT" "$CMD" "$start"
fi
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
