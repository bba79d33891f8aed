#!/bin/sh
# The runs of experiments/occamy/REPORT.md's checks, one after the other, then the report:
#
#   sh experiments/occamy/run-variants.sh   # JOBS=N runs N at a time (default: one per CPU)
#
#   out/experiments/occamy-rto5          the reduced sweeps with a 5 ms minimum (and initial)
#                                        RTO, the paper's ns-3 value, instead of Linux's 200 ms
#                                        (run.sh with MIN_RTO_US=5000: --set for every run)
#   out/experiments/occamy-paper-sizes   Fig. 14 at the paper's query sizes, 150-250 % of the
#                                        buffer: the sweeps fig14-{bg,nobg}-paper-sizes.cfg
#
# Like run.sh, it goes on where it was when started again after a stop. DRY_RUN=1 (inherited by
# run.sh) prints the sweeps' --dry-run point lists and exits: nothing built, run or written.
set -e
cd "$(dirname "$0")/../.."
# run.sh's tables go nowhere (the report reads its files), but a dry run's point lists are its output
if [ "${DRY_RUN:-0}" = 0 ]; then exec 3> /dev/null; else exec 3>&1; fi
MIN_RTO_US=5000 OUT=out/experiments/occamy-rto5 NOREPORT=1 sh experiments/occamy/run.sh >&3
FIGS="fig14-bg-paper-sizes fig14-nobg-paper-sizes" OUT=out/experiments/occamy-paper-sizes NOREPORT=1 \
	sh experiments/occamy/run.sh >&3
[ "${DRY_RUN:-0}" = 0 ] || exit 0
sh experiments/occamy/report.sh
