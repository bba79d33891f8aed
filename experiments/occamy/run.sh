#!/bin/sh
# Occamy (EuroSys'25) reduced reproduction: Fig. 14 (buffer choking) and Fig. 12 (burst
# absorption) on the DPDK software-switch setup. The runs are sweeps (docs/sweep.md), one spec
# per figure and condition in sweeps/, one seed per point (the specs' `seeds`):
#
#   sh experiments/occamy/run.sh          # reduced: fig14-bg, fig14-nobg, fig12
#   sh experiments/occamy/run.sh --full   # the paper's run lengths (120 s, 180 s) and sizes: the
#                                         # reduced specs and fig14-*-paper-sizes, fig12-more-sizes
#
# Stopped or killed, the same command goes on where it was: each sweep keeps its finished runs
# (OUT/<spec>/runs/) and runs only the missing ones.
#
# Writes out/experiments/occamy/{choking.csv,burst.csv,results.md,fig14_choking.png,
# fig12_burst.png,meta.tsv} (--full: out/experiments/occamy-full/) and each sweep's CSVs and runs
# in <that directory>/<spec>/, then report.sh writes out/experiments/occamy/report/REPORT.md (with
# --update-report: rewrites the committed experiments/occamy/REPORT.md; experiments/lib/report.sh).
# choking.csv and burst.csv hold seed 1 (the report's comparisons); with more seeds in the specs,
# results.md, REPORT.md and the plots also give the means over the seeds with 95 % CIs.
# Environment: MIN_RTO_US=5000 (tcp.min_rto_us and tcp.init_rto_us of every run; default the
# scenarios' 200 ms), FIGS="fig14-bg fig14-nobg" (the specs of sweeps/ to run), JOBS=2 (runs at
# a time; default one per CPU), OUT=out/elsewhere, PLOT_ONLY=1 (no simulation: the tables and
# plots from the existing sweeps), NOREPORT=1 (leave REPORT.md alone; run-variants.sh sets it),
# DRY_RUN=1 (only the sweeps' --dry-run point lists, then exit: nothing built, run or written),
# SB (the program, build/sharebuf).
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/occamy
CMD="sh $EXP/run.sh${1:+ $1}"
[ -z "${MIN_RTO_US:-}" ] || CMD="MIN_RTO_US=$MIN_RTO_US $CMD"
case ${FIGS:-} in "") ;; *' '*) CMD="FIGS=\"$FIGS\" $CMD" ;; *) CMD="FIGS=$FIGS $CMD" ;; esac
[ -z "${OUT:-}" ] || CMD="OUT=$OUT $CMD"
read_full_flag "$@"
if [ $FULL = 1 ]; then
	OUT=${OUT:-out/experiments/occamy-full}
	FIGS=${FIGS:-"fig14-bg fig14-nobg fig14-bg-paper-sizes fig14-nobg-paper-sizes fig12 fig12-more-sizes"}
	FIG14_SET="--set run.arrivals_ms=120000 --set run.duration_ms=120600"   # paper: 120 s
	FIG12_SET="--set run.arrivals_ms=180000 --set run.duration_ms=180600"   # paper: 180 s
else
	OUT=${OUT:-out/experiments/occamy}
	FIGS=${FIGS:-"fig14-bg fig14-nobg fig12"}
	FIG14_SET=""           # the scenario files' reduced run lengths
	FIG12_SET=""
fi
RTO_US=${MIN_RTO_US:-200000}   # tcp.min_rto_us of dpdk-testbed.cfg, or MIN_RTO_US
RTO_SET=""
[ -z "${MIN_RTO_US:-}" ] || RTO_SET="--set tcp.min_rto_us=$MIN_RTO_US --set tcp.init_rto_us=$MIN_RTO_US"

prepare_run "$OUT"

T0=$(date +%s)
if [ -z "${PLOT_ONLY:-}" ]; then
	for fig in $FIGS; do
		case $fig in fig14*) set_=$FIG14_SET ;; *) set_=$FIG12_SET ;; esac
		echo "occamy: sweep $EXP/sweeps/$fig.cfg into $OUT/$fig" >&2
		# shellcheck disable=SC2086  # lists of options on purpose
		"$SB" sweep "$EXP/sweeps/$fig.cfg" --out "$OUT/$fig" ${JOBS:+--jobs "$JOBS"} $set_ $RTO_SET --quiet $DRY
	done
fi
[ -z "$DRY" ] || exit 0   # DRY_RUN: the point lists are the whole output
T1=$(date +%s)

# ---- seed 1 of every sweep in the columns of choking.csv and burst.csv, sizes in increasing
# order (a stable sort keeps the schemes' order), Fig. 14 without the background first
R=$EXP/results.awk
{
	awk -v fig=14 -v header=1 -f $R
	for fig in $FIGS; do
		case $fig in
		fig14-nobg*) awk -F, -v seed=1 -v fig=14 -v bg=0 -f $R "$OUT/$fig/sweep.csv" ;;
		fig14-bg*) awk -F, -v seed=1 -v fig=14 -v bg=1 -f $R "$OUT/$fig/sweep.csv" ;;
		esac
	done | sort -s -t, -k1,1n -k3,3n
} > "$OUT/choking.csv"
{
	awk -v fig=12 -v header=1 -f $R
	for fig in $FIGS; do
		case $fig in fig12*) awk -F, -v seed=1 -v fig=12 -f $R "$OUT/$fig/sweep.csv" ;; esac
	done | sort -s -t, -k1,1n
} > "$OUT/burst.csv"
# the means over the seeds (± 95 % CI), Fig. 14 and Fig. 12, for results.md and REPORT.md
for fig in $FIGS; do
	case $fig in
	fig14-nobg*) printf 'fig=14\nbg=0\n%s\n' "$OUT/$fig/sweep-summary.csv" ;;
	fig14-bg*) printf 'fig=14\nbg=1\n%s\n' "$OUT/$fig/sweep-summary.csv" ;;
	fig12*) printf 'fig=12\n%s\n' "$OUT/$fig/sweep-summary.csv" ;;
	esac
done > "$OUT/summaries.args"
IFS='
'
# shellcheck disable=SC2046  # one awk argument per line
awk -F, -f experiments/lib/values.awk -f $EXP/summary.awk $(cat "$OUT/summaries.args") > "$OUT/ci.tsv"
unset IFS
NSEEDS=$(awk -F'\t' '$1 == "ci.n" { print $2 }' "$OUT/ci.tsv")

# ---- tables: seed 1 in full, then the means over the seeds
{
	echo "# Occamy reduced reproduction: results ($( [ $FULL = 1 ] && echo full || echo reduced ) scale, $NSEEDS seed(s), $((T1 - T0)) s of simulation)"
	echo
	echo "## Fig. 14: buffer choking, seed 1 (queries into host 0; QCT in ms; x = with / without background)"
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
	echo "## Fig. 12: burst absorption, seed 1 (all queries; QCT in ms; RTO % = queries with QCT >= min RTO)"
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
	for f in 14 12; do
		t=$(awk -F'\t' -v k="ci$f.table" '$1 == k { print $2 }' "$OUT/ci.tsv")
		[ -n "$t" ] && [ "$NSEEDS" -gt 1 ] || continue   # one seed: the tables above
		echo
		echo "## Fig. $f, mean over $NSEEDS seed(s) ± half-width of the 95 % confidence interval (QCT in ms)"
		echo
		printf '%b\n' "$t"
	done
} > "$OUT/results.md"

# ---- plots: from the sweeps' sweep-summary.csv, error bars with more than one seed
# shellcheck disable=SC2086  # FIGS is a list of spec names
sh $EXP/plot.sh "$OUT" "$( [ $FULL = 1 ] && echo full || echo reduced )" $FIGS
cat "$OUT/results.md"
echo "outputs: $OUT/{choking.csv,burst.csv,results.md,fig14_choking.png,fig12_burst.png} ($(( $(date +%s) - T0 )) s)"
if [ -z "${PLOT_ONLY:-}" ]; then
	{ [ $FULL = 1 ] && echo full || echo reduced; } > "$OUT/mode.txt"
	echo "$RTO_US" > "$OUT/rto_us.txt"
	echo "$FIGS" > "$OUT/figs.txt"
	run_meta "$OUT" "$CMD" "$T0"
fi
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
