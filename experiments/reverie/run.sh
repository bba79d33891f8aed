#!/bin/sh
# Reverie (NSDI'24) Figs. 7, 8 and 10: PFC pauses, RDMA incast and TCP short-flow slowdowns for
# DT, ABM (both in the SONiC pool model) and Reverie, and Reverie's γ sweep, as `sharebuf sweep`
# specs (experiments/reverie/sweeps/, docs/sweep.md).
#
#   sh experiments/reverie/run.sh          # reduced: 4 leaves x 16 hosts, 200 ms of arrivals, 3 seeds
#   sh experiments/reverie/run.sh --full   # the paper's 16 leaves, 2 s of arrivals, 2 queries/s, 1 seed
#
# Each figure is a sweep: sweeps/fig7.cfg, fig8.cfg, and fig10.cfg + fig10-ref.cfg (DT and ABM,
# Fig. 10's reference lines); --full runs the *-paper.cfg specs (the paper's schemes, one seed)
# with the paper-scale --set overrides below. Each sweep writes OUT/<spec>/{sweep.csv,
# sweep-summary.csv} and its runs in OUT/<spec>/runs/POINT/seed-S/. A sweep skips the runs that
# are complete, so running this again after a kill (or after a change of one spec) continues
# where it stopped and redoes only what changed.
#
# Environment: FIGS="7 10" (default "7 8 10"), JOBS=2 (runs at a time; default: the cores),
# OUT=out/elsewhere, EXTRA="--set KEY=VALUE ..." (more overrides for every run, e.g. a shorter
# run: EXTRA="--set run.arrivals_ms=100 --set run.duration_ms=200"), PLOT_ONLY=1 (no sweeps:
# the tables and plots again from the CSVs in OUT), NOREPORT=1 (leave REPORT.md alone),
# DRY_RUN=1 (only the sweeps' --dry-run point lists, then exit: nothing built, run or written),
# SB (the program, build/sharebuf).
# Then: OUT/results.csv (means and 95 % CIs over the seeds, in the experiment's terms:
# results.awk), OUT/results-seed1.csv (seed 1's runs), OUT/results.md (tables.awk), the plots
# OUT/fig7.png, fig8.png, fig10.png (plot.sh), OUT/flag_same.txt and OUT/meta.tsv; report.sh
# writes out/experiments/reverie/report/REPORT.md (with --update-report: rewrites the committed
# experiments/reverie/REPORT.md) from a reduced run with every figure.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/reverie
# the command as run, with the environment overrides that change the outputs (meta.tsv)
read_full_flag "$@"   # --full, --update-report (experiments/lib/report.sh)
CMD="sh $EXP/run.sh"
[ "$FULL" = 0 ] || CMD="$CMD --full"
for v in EXTRA FIGS JOBS OUT; do
	eval "val=\${$v:-}"
	# shellcheck disable=SC2154  # val is set by eval
	[ -z "$val" ] || case $val in *' '*) CMD="$v=\"$val\" $CMD" ;; *) CMD="$v=$val $CMD" ;; esac
done
# The paper's scale (§4.1): 16 leaves, 2 s of arrivals (+100 ms for the web-search flows of up to
# 30 MB to finish), 2 queries/s per host. The specs' own scale is reverie.cfg's, the reduced one.
FULL_SETS="--set topology.leaves=16 --set run.arrivals_ms=2000 --set run.duration_ms=2100 --set workloads.1.query_rate=2"
MODE=reduced SETS="" SUFFIX="" DEFAULT_OUT=out/experiments/reverie
if [ "$FULL" = 1 ]; then
	MODE=full SETS=$FULL_SETS SUFFIX=-paper DEFAULT_OUT=out/experiments/reverie-full
fi
OUT=${OUT:-$DEFAULT_OUT}
FIGS=${FIGS:-"7 8 10"}
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
case $JOBS in '' | *[!0-9]* | 0) echo "run.sh: JOBS must be an integer >= 1, not '$JOBS'" >&2; exit 2 ;; esac
SPECS=""
for f in $FIGS; do
	case $f in
	7 | 8) SPECS="$SPECS fig$f" ;;
	10) SPECS="$SPECS fig10 fig10-ref" ;;
	*) echo "run.sh: FIGS: no figure '$f' (7, 8, 10)" >&2; exit 2 ;;
	esac
done
case "$EXTRA" in *[!\ ]*)
	# shellcheck disable=SC2086  # a list of words on purpose
	set -- $EXTRA
	while [ $# -gt 0 ]; do
		[ "$1" = --set ] && [ $# -ge 2 ] || { echo "run.sh: EXTRA: expected --set KEY=VALUE ..., got '$1'" >&2; exit 2; }
		shift 2
	done ;;
esac

prepare_run "$OUT"

start=$(date +%s)
if [ -z "${PLOT_ONLY:-}" ]; then
	echo "reverie: $MODE run of [$SPECS ] into $OUT, $JOBS at a time${SETS:+, $SETS}${EXTRA:+, $EXTRA}" >&2
	for s in $SPECS; do
		# shellcheck disable=SC2086  # SETS and EXTRA are lists of words on purpose
		set -- "$EXP/sweeps/$s$SUFFIX.cfg" --out "$OUT/$s" $SETS $EXTRA
		if [ -n "$DRY" ]; then "$SB" sweep "$@" --dry-run; continue; fi
		# "N of M runs complete, K to run": OUT/<spec>/wall.tsv keeps the wall time of the
		# invocation that ran the runs (a later one that finds them complete leaves it)
		todo=$("$SB" sweep "$@" --dry-run | awk 'END { print $1, $3, $6 }')
		t0=$(date +%s)
		"$SB" sweep "$@" --jobs "$JOBS"
		case $todo in *" 0") ;; *)
			# shellcheck disable=SC2086  # three numbers
			set -- $todo
			printf 'seconds\t%s\nruns\t%s\nof\t%s\njobs\t%s\ncommand\t%s\n' "$(( $(date +%s) - t0 ))" "$3" "$2" "$JOBS" \
				"build/sharebuf sweep $EXP/sweeps/$s$SUFFIX.cfg --out $OUT/$s --jobs $JOBS${SETS:+ $SETS}${EXTRA:+ $EXTRA}" \
				> "$OUT/$s/wall.tsv" ;;
		esac
	done
	echo "reverie: sweeps done in $(( $(date +%s) - start )) s" >&2
fi
[ -z "$DRY" ] || exit 0   # DRY_RUN: the point lists are the whole output

# ---- results.csv (means, CIs) and results-seed1.csv from the sweeps' CSVs
FIRST=${SPECS# }
FIRST=${FIRST%% *}
to_results_all() { # file seed
	for s in $SPECS; do
		[ -s "$OUT/$s/$1" ] || { echo "reverie: no $OUT/$s/$1 (run without PLOT_ONLY)" >&2; return 1; }
		case $s in
		fig7) a="fig=7 xcol=workloads.0.load xscale=100" ;;
		fig8) a="fig=8 xcol=workloads.1.size_bytes" ;;
		fig10) a="fig=10 xcol=switch.reverie.gamma" ;;
		fig10-ref) a="fig=10 xcol= x=ref" ;;
		esac
		# shellcheck disable=SC2086  # a list of awk assignments
		awk -F, -f $EXP/results.awk head="$([ "$s" = "$FIRST" ] && echo 1 || echo 0)" seed="$2" $a "$OUT/$s/$1" || return 1
	done
}
RES="$OUT/results.csv"
to_results_all sweep-summary.csv "" > "$RES.tmp" && mv "$RES.tmp" "$RES"
to_results_all sweep.csv 1 > "$OUT/results-seed1.csv.tmp" && mv "$OUT/results-seed1.csv.tmp" "$OUT/results-seed1.csv"

# Fig. 10: whether pause_on_full_pool changed anything: per γ, "same" if the flag on and off
# gave byte-identical flows.csv for every seed
if [ -s "$OUT/fig10/sweep.csv" ]; then
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ g = $c["switch.reverie.gamma"]; k = g SUBSEP $c["seed"]; if (!(g in seen)) { seen[g] = 1; G[++ng] = g }
		  if (!(k in on)) K[g, ++nk[g]] = k; d = "runs/" $c["point"] "/seed-" $c["seed"]
		  if ($c["scheme"] == "reverie") on[k] = d; else if ($c["scheme"] == "reverie-art") off[k] = d }
		END { for (i = 1; i <= ng; i++) for (j = 1; j <= nk[G[i]]; j++) print G[i], on[K[G[i], j]], off[K[G[i], j]] }' \
		"$OUT/fig10/sweep.csv" | while read -r g on off; do
			if cmp -s "$OUT/fig10/$on/flows.csv" "$OUT/fig10/$off/flows.csv"; then echo "$g same"; else echo "$g differ"; fi
		done | awk '{ if (!($1 in r)) { o[++n] = $1; r[$1] = $2 } else if ($2 == "differ") r[$1] = "differ" }
			END { for (i = 1; i <= n; i++) print o[i], r[o[i]] }' > "$OUT/flag_same.txt"
fi

# ---- tables and plots
SCALE=$(awk '$2 == "=" && ($3 == "{" || $3 == "(") { g = $1 } g == "run" && $1 == "arrivals_ms" { a = $3 + 0 }
	g == "topology" && $1 == "leaves" { l = $3 + 0 } g == "workloads" && $1 == "query_rate" { q = $3 + 0 }
	END { printf "%d leaves x 16 hosts, %g ms of arrivals, %g queries/s per host", l, a, q }' \
	"$(ls -d "$OUT/$FIRST"/runs/*/seed-* | head -n 1)/scenario.cfg")
awk -F, -v mode="$MODE" -v scale="$SCALE" -v extra="$EXTRA" -f "$EXP/tables.awk" "$RES" > "$OUT/results.md"
sh "$EXP/plot.sh" "$OUT" "$MODE, $SCALE"

cat "$OUT/results.md"
echo >&2
echo "reverie: done in $(( $(date +%s) - start )) s; $RES, $OUT/results.md, plots $OUT/fig*.png" >&2
if [ -z "${PLOT_ONLY:-}" ]; then
	echo "$MODE" > "$OUT/mode.txt"
	run_meta "$OUT" "$CMD" "$start"
fi
# --full with Fig. 7: its CSVs, plot and how it was run go into the repository (experiments/
# reverie/full/; not the runs, which are large), from which report.sh writes its section; that
# only with --update-report, else beside the run's outputs (OUT/report/full/)
if [ "$MODE" = full ] && [ -s "$OUT/fig7/wall.tsv" ] && [ -s "$OUT/fig7/sweep-summary.csv" ] && [ -z "${NOREPORT:-}" ]; then
	F=$OUT/report/full
	[ "${UPDATE_REPORT:-0}" != 1 ] || F=$EXP/full
	mkdir -p "$F"
	cp "$OUT/fig7/sweep.csv" "$OUT/fig7/sweep-summary.csv" "$F"/
	cp "$OUT/fig7.png" "$F"/fig7-full.png
	{
		printf 'command\t%s\n' "$CMD"
		awk -F'\t' '$1 == "command" { print "sweep\t" $2 } $1 == "seconds" || $1 == "runs" || $1 == "jobs" { print }' "$OUT/fig7/wall.tsv"
		printf 'simulator_commit\t%s\n' "$(awk -F'"' '/"commit"/ { print substr($4, 1, 7); exit }' "$(ls -d "$OUT"/fig7/runs/*/seed-* | head -n 1)/summary.json")"
		printf 'nproc\t%s\ncpu\t%s\n' "$(nproc)" "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
		printf 'scale\t%s\n' "$SCALE"
	} > "$F"/meta.tsv
	echo "reverie: paper-scale Fig. 7 written to $F/" >&2
fi
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
