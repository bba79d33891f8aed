#!/bin/sh
# ABM (SIGCOMM'22) Fig. 7 / Fig. 9b, reduced: incast p99 slowdown and short-flow p99 slowdown vs
# request size (% of the leaf buffer), schemes DT, FAB, CS, IB, ABM, under DCTCP and Cubic.
# The runs are one sweep, sweeps/fig7-fig9b.cfg (docs/sweep.md), two seeds per point.
#
#   sh experiments/abm/run.sh          # reduced: 1 s of arrivals per point
#   sh experiments/abm/run.sh --full   # the paper's 3 s of arrivals per point
#
# Stopped or killed, the same command goes on where it was: the sweep keeps every finished run
# (out/.../fig7-fig9b/runs/) and runs only the missing ones.
#
# Environment: OUT=out/elsewhere, JOBS=2 (runs at a time; default: one per CPU),
# FIGS="fig7-fig9b" (the specs of sweeps/ to run), ARRIVALS_MS=500 DRAIN_MS=200 (the run length,
# as --set), EXTRA="--set KEY=VALUE ..." (more `sharebuf sweep` options for every run),
# PLOT_ONLY=1 (no simulation: the tables and the plot from the existing sweep), NOREPORT=1
# (leave experiments/abm/REPORT.md alone; run-variants.sh sets it), DRY_RUN=1 (only the sweeps'
# --dry-run point lists, then exit: nothing built, run or written), SB (the program,
# build/sharebuf).
# Results: out/experiments/abm/{results.csv,results-seed2.csv,results.md,abm.png,meta.tsv}
# (--full: out/experiments/abm-full/); the sweep's CSVs in <that directory>/fig7-fig9b/ and its
# runs in fig7-fig9b/runs/<point>/seed-<S>/. At the end report.sh writes out/experiments/abm/report/
# REPORT.md, or with --update-report rewrites the committed
# experiments/abm/REPORT.md from out/experiments/abm* (see report.sh).
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/abm
# the command as run, with the environment overrides that change the outputs (meta.tsv)
read_full_flag "$@"   # --full, --update-report (experiments/lib/report.sh)
CMD="sh $EXP/run.sh"
[ "$FULL" = 0 ] || CMD="$CMD --full"
for v in EXTRA ARRIVALS_MS DRAIN_MS FIGS OUT; do
	eval "val=\${$v:-}"
	# shellcheck disable=SC2154  # val is set by eval
	[ -z "$val" ] || case $val in *' '*) CMD="$v=\"$val\" $CMD" ;; *) CMD="$v=$val $CMD" ;; esac
done
MODE=reduced
ARR=1000                 # the spec's run.arrivals_ms
DEFAULT_OUT=out/experiments/abm
SETS=""
if [ "$FULL" = 1 ]; then
	MODE=full
	ARR=3000             # the paper's 3 s of arrivals, abm.cfg's own length
	DEFAULT_OUT=out/experiments/abm-full
fi
ARR=${ARRIVALS_MS:-$ARR}
DRAIN=${DRAIN_MS:-200}   # after the last arrival: 20 minimum RTOs for flows to finish
DUR=$(awk -v a="$ARR" -v d="$DRAIN" 'BEGIN { print a + d }')
# the spec's run length is the reduced one: any other goes to every run as --set
if [ "$ARR" != 1000 ] || [ "$DRAIN" != 200 ]; then
	SETS="--set run.arrivals_ms=$ARR --set run.duration_ms=$DUR"
fi
OUT=${OUT:-$DEFAULT_OUT}
FIGS=${FIGS:-fig7-fig9b}
CCS="dctcp cubic"

prepare_run "$OUT"

start=$(date +%s)
if [ -z "${PLOT_ONLY:-}" ]; then
	for fig in $FIGS; do
		echo "abm: $MODE sweep $EXP/sweeps/$fig.cfg into $OUT/$fig, arrivals $ARR ms (+$DRAIN ms drain)${EXTRA:+, extra: $EXTRA}" >&2
		# shellcheck disable=SC2086  # SETS and EXTRA are lists of words on purpose
		"$SB" sweep "$EXP/sweeps/$fig.cfg" --out "$OUT/$fig" ${JOBS:+--jobs "$JOBS"} $SETS $EXTRA --quiet $DRY
	done
	[ -z "$DRY" ] || exit 0   # DRY_RUN: the point lists are the whole output
	echo "abm: simulations done in $(( $(date +%s) - start )) s" >&2
fi
[ -z "$DRY" ] || exit 0   # (with PLOT_ONLY too: no sweep, nothing to check)

# ---- the report's tables: seed 1 (and seed 2) of the sweep in the columns of results.csv
SW="$OUT/fig7-fig9b"
RES="$OUT/results.csv"
awk -F, -v seed=1 -f $EXP/results.awk "$SW/sweep.csv" > "$RES"
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seed") k = i; next } $k == 2 { f = 1 } END { exit !f }' "$SW/sweep.csv"; then
	awk -F, -v seed=2 -f $EXP/results.awk "$SW/sweep.csv" > "$OUT/results-seed2.csv"
else
	rm -f "$OUT/results-seed2.csv"
fi

# ---- results table (markdown): the means over the seeds, then seed 1 in full, per transport
MD="$OUT/results.md"
NSEEDS=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "n") k = i; next } { print $k; exit }' "$SW/sweep-summary.csv")
{
	echo "# ABM reduced reproduction: $MODE run, arrivals $ARR ms + $DRAIN ms drain, $NSEEDS seed(s)${EXTRA:+, extra options: $EXTRA}"
	echo
	echo "p99 slowdowns (nearest rank); short = web-search flows < 100 KB; buffer = p99 of leaf 0's"
	echo "occupancy during the arrival window, % of B = 3,932,160 B; long mean = mean slowdown of flows"
	echo "> 1 MB (a throughput proxy); unfinished = flows still running at the end (not counted)."
	echo
	echo "## Mean over $NSEEDS seed(s) (± half-width of the 95 % confidence interval): incast p99 / short p99"
	echo
	awk -F, -v md=1 -f experiments/lib/values.awk -f $EXP/summary.awk "$SW/sweep-summary.csv"
	for cc in $CCS; do
		echo
		echo "## $cc, seed 1"
		echo
		echo "| request % of B | scheme | incast p99 | short p99 | QCT p99 | buffer p99 % | long mean | drops | queries | incast flows | short flows | unfinished |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
		awk -F, -v cc="$cc" 'NR > 1 && $1 == cc { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			$2, $3, $4, $6, $7, $8, $14, $9, $10, $11, $12, $13 }' "$RES"
		echo
		echo "ABM vs each scheme, seed 1 (negative = ABM lower), incast p99 / short p99:"
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

# ---- plot: from sweep-summary.csv, error bars with more than one seed
sh $EXP/plot.sh "$SW/sweep-summary.csv" "$OUT/abm.png" "$MODE ($ARR ms of arrivals)"

cat "$MD"
echo >&2
echo "abm: done in $(( $(date +%s) - start )) s; $RES, $MD, $OUT/abm.png" >&2
if [ -z "${PLOT_ONLY:-}" ]; then
	echo "$MODE" > "$OUT/mode.txt"
	run_meta "$OUT" "$CMD" "$start"
fi
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
