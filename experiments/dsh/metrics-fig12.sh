#!/bin/sh
# metrics-fig12.sh RUNDIR: the extract script of the Fig. 12 sweeps (sweeps/fig12*.cfg,
# docs/sweep.md §2). From the run's summary.json and scenario.cfg:
#   deadlocked   1 if the PFC deadlock detector found a cycle (pfc.first_deadlock_us is a
#                number), 0 if not (it is null)
#   onset_ms     when the first deadlock's last queue paused; a run without deadlock counts at
#                its cap, run.duration_ms (the paper's CDF convention)
# The other Fig. 12 columns are summary.json keys the specs list as metrics.
set -e
run=$1
[ -s "$run/summary.json" ] || { echo "metrics-fig12.sh: $run/summary.json missing" >&2; exit 1; }
# run.duration_ms: the first duration_ms of the resolved scenario (the run group comes first)
cap=$(sed -n 's/^  duration_ms = \([0-9.]*\);$/\1/p' "$run/scenario.cfg" | head -1)
[ -n "$cap" ] || { echo "metrics-fig12.sh: no run.duration_ms in $run/scenario.cfg" >&2; exit 1; }
awk -v cap="$cap" '/"first_deadlock_us"/ { v = $2; sub(/,$/, "", v); onset = v; found = 1 }
	END { if (!found) { print "metrics-fig12.sh: no pfc.first_deadlock_us in summary.json" > "/dev/stderr"; exit 1 }
	      dead = onset != "null"
	      printf "deadlocked,%d\nonset_ms,%.3f\n", dead, dead ? onset / 1000 : cap }' "$run/summary.json"
