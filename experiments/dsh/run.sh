#!/bin/sh
# DSH (Shan et al., ICDCS'23): PFC avoidance (Fig. 11), deadlocks (Fig. 12), collateral damage
# (Fig. 13) and FCT on a leaf-spine (Fig. 14, reduced), SIH vs DSH, as sweeps
# (build/sharebuf sweep, docs/sweep.md), one spec per figure in sweeps/:
#
#   fig11.cfg          the burst 0 .. 100 % of the buffer, SIH and DSH        212 runs
#   fig12.cfg          DCQCN and PowerTCP, SIH and DSH, seeds 1 .. 100        400 runs
#   fig13.cfg          four transports, SIH and DSH                             8 runs
#   fig13-checks.cfg   DCQCN: the burst at 2.0 / 2.2 ms, the earlier feedback   6 runs
#   fig14.cfg          PowerTCP and DCQCN x 4 loads, SIH and DSH, seeds 1, 2   32 runs
# plus the Fig. 13 probe (probe.sh: a program embedding the library, not a sweep).
#
#   sh experiments/dsh/run.sh            # about 8 min on 2 idle cores
#   sh experiments/dsh/run.sh --full     # Fig. 14 at the paper's scale (256 servers, 20 ms of
#                                        # arrivals): hours per run, for a cluster (docs/sweep.md §5)
#
# Each sweep writes OUT/<spec>/{sweep.csv,sweep-summary.csv,runs/} (OUT: out/experiments/dsh;
# --full: out/experiments/dsh-full, Fig. 14 only: Figs 11-13 are at the paper's scale already).
# Then tables.sh OUT/tables/, plot.sh the PNGs, report.sh OUT/report/REPORT.md (with --update-report:
# the committed experiments/dsh/REPORT.md and plots; experiments/lib/report.sh).
# Resumable: started again after a kill, each sweep runs only its missing runs (docs/sweep.md §3).
# Environment: JOBS (2, runs at a time), OUT, FIGS (a subset of "fig11 fig12 fig13 fig14"),
# PLOT_ONLY=1 (no sweep: tables, plots, report from the existing outputs), NOREPORT=1,
# DRY_RUN=1 (only the sweeps' --dry-run point lists, then exit: nothing built, run or written),
# SB (the program, build/sharebuf).
# The sensitivity runs of REPORT.md are run-variants.sh's.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
JOBS=${JOBS:-2}
read_full_flag "$@"
if [ "$FULL" = 1 ]; then
	OUT=${OUT:-out/experiments/dsh-full}
	FIGS=${FIGS:-fig14}
	# the paper's Fig. 14 (§V-B): 16 leaves x 16 hosts, 16 spines, 20 ms of arrivals (+ 8 ms)
	set -- --set topology.leaves=16 --set topology.spines=16 --set topology.links_per_spine=1 \
		--set run.arrivals_ms=20 --set run.duration_ms=28
else
	OUT=${OUT:-out/experiments/dsh}
	FIGS=${FIGS:-"fig11 fig12 fig13 fig14"}
	set --
fi

prepare_run "$OUT"
sweep() { # spec (under sweeps/), then more options
	s=$1; shift
	echo "dsh: sweep $s" >&2
	# shellcheck disable=SC2086  # DRY: no word, or --dry-run
	nice "$SB" sweep "$EXP/sweeps/$s.cfg" --out "$OUT/$s" --jobs "$JOBS" "$@" $DRY
}
if [ -z "${PLOT_ONLY:-}" ]; then
	for fig in $FIGS; do
		t0=$(date +%s)
		case $fig in
		fig11 | fig12) sweep $fig ;;
		fig13) sweep fig13; sweep fig13-checks; [ -n "$DRY" ] || sh $EXP/probe.sh "$OUT" ;;
		fig14) sweep fig14 "$@" ;;
		*) echo "run.sh: FIGS: unknown figure \"$fig\" (fig11, fig12, fig13, fig14)" >&2; exit 2 ;;
		esac
		[ -z "$DRY" ] || continue   # DRY_RUN: the point lists are the whole output
		run_meta "$OUT" "$( [ "$FIGS" = "fig11 fig12 fig13 fig14" ] || [ "$FULL" = 1 ] || printf 'FIGS="%s" ' "$FIGS")sh $EXP/run.sh$( [ "$FULL" = 1 ] && echo " --full")" "$t0"
		mv "$OUT/meta.tsv" "$OUT/meta-$fig.tsv"
	done
fi
[ -z "$DRY" ] || exit 0
sh $EXP/tables.sh "$OUT"
sh $EXP/plot.sh "$OUT"
[ -n "${NOREPORT:-}" ] || [ "$FULL" = 1 ] || OUT=$OUT sh $EXP/report.sh
