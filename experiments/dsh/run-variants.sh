#!/bin/sh
# DSH (Shan et al., ICDCS'23): the sensitivity runs that REPORT.md discusses beside the main
# figures ("What else was checked"), as sweeps into the main run's OUT (out/experiments/dsh).
# Optional: run.sh does not need them, and report.sh leaves their rows out when they are missing.
#
#   sh experiments/dsh/run-variants.sh     # about 15 min on 2 idle cores (about 560 runs)
#
#   Fig. 11  sweeps/fig11.cfg with --set workloads.1.start_ms=0.3 (the burst at 0.3 ms)
#                                                                 -> OUT/fig11-start0.3/
#   Fig. 12  sweeps/fig12-seeds101.cfg  DCQCN, seeds 101 .. 200   -> OUT/fig12-seeds101/
#            sweeps/fig12-variants.cfg  seeds 1 .. 20: 300 ms (DCQCN, PowerTCP), no CC,
#                                       reserves for the cabled ports only, the harness's
#                                       60,000 B headroom, one ECN threshold
#                                                                 -> OUT/fig12-variants/
#            sweeps/fig12-cap300.cfg    DCQCN SIH, seeds 1 .. 100, 300 ms (the report reads
#                                       the seeds that reached the main run's 100 ms cap)
#                                                                 -> OUT/fig12-cap300/
#   Fig. 14  sweeps/fig14-harness.cfg   the harness's class mapping  -> OUT/fig14-harness/
#            sweeps/fig14-sp.cfg        strict-priority NICs, loads 0.2 and 0.4 -> OUT/fig14-sp/
# Resumable like run.sh. Environment: JOBS (2), OUT, ONLY="fig12 fig14" (a subset of fig11
# fig12 fig14), NOREPORT=1, DRY_RUN=1 (only the sweeps' --dry-run point lists, then exit:
# nothing built, run or written), SB (the program, build/sharebuf). Then tables.sh, plot.sh and
# report.sh.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
OUT=${OUT:-out/experiments/dsh}
JOBS=${JOBS:-2}
ONLY=${ONLY:-"fig11 fig12 fig14"}
T0=$(date +%s)
prepare_run "$OUT"
sweep() { # spec, output directory name, more options
	s=$1 d=$2; shift 2
	echo "variants: sweep $s -> $OUT/$d $*" >&2
	# shellcheck disable=SC2086  # DRY: no word, or --dry-run
	nice "$SB" sweep "$EXP/sweeps/$s.cfg" --out "$OUT/$d" --jobs "$JOBS" "$@" $DRY
}
case " $ONLY " in *" fig11 "*) sweep fig11 fig11-start0.3 --set workloads.1.start_ms=0.3 ;; esac
case " $ONLY " in *" fig12 "*)
	sweep fig12-seeds101 fig12-seeds101
	sweep fig12-variants fig12-variants
	sweep fig12-cap300 fig12-cap300 ;;
esac
case " $ONLY " in *" fig14 "*)
	sweep fig14-harness fig14-harness
	sweep fig14-sp fig14-sp ;;
esac
[ -z "$DRY" ] || exit 0   # DRY_RUN: the point lists are the whole output
echo "variants: done in $(( $(date +%s) - T0 )) s" >&2
run_meta "$OUT" "$( [ "$ONLY" = "fig11 fig12 fig14" ] || printf 'ONLY="%s" ' "$ONLY")sh $EXP/run-variants.sh" "$T0"
mv "$OUT/meta.tsv" "$OUT/meta-variants.tsv"
sh $EXP/tables.sh "$OUT"
sh $EXP/plot.sh "$OUT"
[ -n "${NOREPORT:-}" ] || OUT=$OUT sh $EXP/report.sh
