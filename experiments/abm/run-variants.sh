#!/bin/sh
# The runs of experiments/abm/REPORT.md's checks, one after the other, then the report:
#
#   sh experiments/abm/run-variants.sh      # about 10 minutes on 2 idle cores
#
#   out/experiments/abm-seed2   the reduced run with seed 2
#   out/experiments/abm-spine   DT and ABM with every switch given the leaf's buffer (the spines
#                               get 3,932,160 B instead of their own 786,432 B)
#   out/experiments/abm-full    run.sh --full: 3 s of arrivals, the paper's length
set -e
cd "$(dirname "$0")/../.."
SEED=2 OUT=out/experiments/abm-seed2 NOREPORT=1 sh experiments/abm/run.sh > /dev/null
OUT=out/experiments/abm-spine SCHEMES=dt,abm EXTRA="--set switch.buffer_bytes=3932160" NOREPORT=1 \
	sh experiments/abm/run.sh > /dev/null
NOREPORT=1 sh experiments/abm/run.sh --full > /dev/null
sh experiments/abm/report.sh
