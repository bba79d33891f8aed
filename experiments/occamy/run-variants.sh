#!/bin/sh
# The runs of experiments/occamy/REPORT.md's checks, one after the other, then the report:
#
#   sh experiments/occamy/run-variants.sh   # about 4 minutes on 2 idle cores
#
#   out/experiments/occamy-rto5          the reduced run with a 5 ms minimum (and initial) RTO,
#                                        the paper's ns-3 value, instead of Linux's 200 ms
#   out/experiments/occamy-paper-sizes   Fig. 14 at the paper's query sizes, 150-250 % of the
#                                        buffer (and one Fig. 12 point, which the report ignores)
set -e
cd "$(dirname "$0")/../.."
MIN_RTO_US=5000 OUT=out/experiments/occamy-rto5 NOREPORT=1 sh experiments/occamy/run.sh > /dev/null
CHOKE_SIZES="1.5 2.0 2.5" BURST_SIZES="0.3" OUT=out/experiments/occamy-paper-sizes NOREPORT=1 \
	sh experiments/occamy/run.sh > /dev/null
sh experiments/occamy/report.sh
