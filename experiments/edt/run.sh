#!/bin/sh
# EDT (Shan, Jiang, Ren, TPDS'17): micro-burst absorption against burst length, DT vs EDT, as
# three sweeps (build/sharebuf sweep, docs/sweep.md), one per group of figures:
#
#   sweeps/fig14.cfg  Fig. 14: the burst's loss for d = 1 .. 12 ms (0.25 ms steps), DT and EDT
#   sweeps/fig12.cfg  Fig. 12: the 6 ms burst with the queues sampled every 10 us
#   sweeps/onoff.cfg  Figs 17b / 18: lognormal ON/OFF bursts, 3 trials x 6 policies
#
#   sh experiments/edt/run.sh           # 20 s of ON/OFF bursts per trial (the paper's length)
#   sh experiments/edt/run.sh --full     # 60 s per trial (--set run.duration_ms=60030)
#   sh experiments/edt/run.sh --update-report   # and rewrite the committed REPORT.md and plots
#
# Each sweep writes OUT/<sweep>/{sweep.csv,sweep-summary.csv,runs/} (OUT: out/experiments/edt,
# --full: out/experiments/edt-full). Before the ON/OFF sweep, gen_bursts.awk writes each trial's
# flow list to OUT/bursts/seedN.csv, and the sweep runs with OUT as its working directory, where
# the spec's relative paths bursts/seedN.csv point. Then tables.sh turns the sweeps' CSVs into
# the figures' tables, plot.sh draws them, and report.sh writes the report: OUT/report/REPORT.md,
# or with --update-report the committed experiments/edt/REPORT.md (experiments/lib/report.sh).
#
# Resumable: a sweep killed at any moment continues where it was when run.sh is started again
# (complete runs are kept, docs/sweep.md §3).
# Environment: JOBS (2, runs at a time), OUT (another output directory), FIGS (a subset of
# "fig14 fig12 onoff": only those sweeps run; the tables need all three), PLOT_ONLY=1 (no
# sweep: tables, plots and report from the existing outputs), NOREPORT=1 (leave REPORT.md),
# DRY_RUN=1 (only the sweeps' --dry-run point lists, then exit: nothing built, run or written;
# the burst lists go to a temporary directory, removed at exit), SB (the program, build/sharebuf).
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
ROOT=$(pwd)
EXP=experiments/edt
case $SB in /*) ;; *) SB=$ROOT/$SB ;; esac   # absolute: the ON/OFF sweep runs in OUT
JOBS=${JOBS:-2}
FIGS=${FIGS:-"fig14 fig12 onoff"}

read_full_flag "$@"
if [ "$FULL" = 1 ]; then
	OUT=${OUT:-out/experiments/edt-full}
	ONOFF_S=60                                  # simulated seconds of bursts per trial
	set -- --set run.duration_ms=60030          # the paper-scale overrides (+30 ms to drain)
else
	OUT=${OUT:-out/experiments/edt}
	ONOFF_S=20                                  # the paper's length (§5.2.1: 20 s)
	set --
fi

prepare_run "$OUT"
T0=$(date +%s)
if [ -z "${PLOT_ONLY:-}" ]; then
	for fig in $FIGS; do
		case $fig in
		fig14 | fig12)
			echo "edt: sweep $fig" >&2
			# shellcheck disable=SC2086  # DRY: no word, or --dry-run
			nice "$SB" sweep "$EXP/sweeps/$fig.cfg" --out "$OUT/$fig" --jobs "$JOBS" "$@" $DRY ;;
		onoff)
			# the trials' flow lists (deterministic: the same file for the same seed and length),
			# in OUT, or with DRY_RUN in a temporary directory that stands for it
			W=$OUT
			if [ -n "$DRY" ]; then
				W=$(mktemp -d)
				trap 'rm -rf "$W"' EXIT
				trap 'exit 1' HUP INT TERM
			fi
			mkdir -p "$W/bursts"
			for seed in 1 2 3; do
				awk -v seed="$seed" -v end_ms="$((ONOFF_S * 1000))" -v list=/dev/null \
					-f "$EXP/gen_bursts.awk" > "$W/bursts/seed$seed.csv.tmp"
				mv "$W/bursts/seed$seed.csv.tmp" "$W/bursts/seed$seed.csv"
			done
			echo "edt: sweep onoff ($ONOFF_S s per trial)" >&2
			# shellcheck disable=SC2086  # DRY: no word, or --dry-run
			(cd "$W" && nice "$SB" sweep "$ROOT/$EXP/sweeps/onoff.cfg" --out onoff --jobs "$JOBS" "$@" $DRY) ;;
		*) echo "run.sh: FIGS: unknown sweep \"$fig\" (fig14, fig12, onoff)" >&2; exit 2 ;;
		esac
	done
fi
[ -z "$DRY" ] || exit 0   # DRY_RUN: the point lists are the whole output
sh $EXP/tables.sh "$OUT"
sh $EXP/plot.sh "$OUT"
echo "plots: $OUT/fig14.png $OUT/fig12.png $OUT/fig17b.png $OUT/fig18.png" >&2
[ -n "${PLOT_ONLY:-}" ] || run_meta "$OUT" "sh $EXP/run.sh$( [ "$FULL" = 1 ] && echo " --full")" "$T0"
# the report is of the default run, with a --full run's numbers where there is one
if [ -z "${NOREPORT:-}" ]; then
	if [ "$FULL" = 0 ]; then OUT=$OUT sh $EXP/report.sh
	elif [ -s out/experiments/edt/meta.tsv ]; then sh $EXP/report.sh
	else echo "edt: no default run in out/experiments/edt/ yet: REPORT.md left as it was" >&2
	fi
fi
