#!/bin/sh
# The runs of experiments/abm/REPORT.md's checks, one after the other, then the report
# (seed 2 is no longer a run of its own: the main sweep has seeds 1 and 2):
#
#   sh experiments/abm/run-variants.sh      # JOBS=N runs N at a time (default: one per CPU)
#
#   out/experiments/abm-spine   the sweep sweeps/spine-buffer.cfg: DT and ABM with every switch
#                               given the leaf's buffer (the spines get 3,932,160 B instead of
#                               their own 786,432 B), seed 1
#   out/experiments/abm-full    run.sh --full: 3 s of arrivals, the paper's length
#
# Like run.sh, it goes on where it was when started again after a stop. DRY_RUN=1 (inherited by
# run.sh) prints both sweeps' --dry-run point lists and exits: nothing built, run or written.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/abm
S=out/experiments/abm-spine
cmd="${SB:-build/sharebuf} sweep $EXP/sweeps/spine-buffer.cfg --out $S/spine-buffer${JOBS:+ --jobs $JOBS}"
if [ "${DRY_RUN:-0}" != 0 ]; then
	$cmd --dry-run
	NOREPORT=1 sh $EXP/run.sh --full
	exit 0
fi
make -s
mkdir -p $S
t0=$(date +%s)
$cmd --quiet
awk -F, -v seed=1 -f $EXP/results.awk $S/spine-buffer/sweep.csv > $S/results.csv
run_meta $S "$cmd" "$t0"
NOREPORT=1 sh $EXP/run.sh --full > /dev/null
sh $EXP/report.sh
