#!/bin/sh
# metrics-onoff.sh RUNDIR: the sweep's extract script for sweeps/onoff.cfg (docs/sweep.md §2).
# Prints, for one ON/OFF run (paper §5.2.1, Figs 17b and 18), "NAME,VALUE" lines:
#   bursts_B, lossless_B  bursts whose ON period falls in the 1 ms bin B = 0 .. 9 ([B, B+1) ms;
#                         B = 10: 10 ms or more), and how many of them lost no packet
#   frac_B                lossless_B / bursts_B (0 for an empty bin): what Fig. 17b plots
#   bursts, lossless      over all bursts; bursts_lt5, lossless_lt5: over those below 5 ms
# A burst is lossless iff both its CBR flows completed (burst_outcomes.awk). The flow list is
# the one the run replayed, named (absolute) in the run's resolved scenario.cfg.
set -e
run=$1
[ -d "$run" ] || { echo "metrics-onoff.sh: usage: sh metrics-onoff.sh RUNDIR" >&2; exit 2; }
here=$(dirname "$0")
list=$(sed -n 's/^ *path = "\(.*\)";$/\1/p' "$run/scenario.cfg")
[ -n "$list" ] && [ -s "$list" ] || { echo "metrics-onoff.sh: $run/scenario.cfg names no flow list that exists" >&2; exit 1; }
awk -F, -f "$here/burst_outcomes.awk" "$list" "$run/flows.csv" | awk '
	{ b = int($3 + 0); if (b > 10) b = 10; n[b]++; ok[b] += $4; tn++; tok += $4; if ($3 < 5) { cn++; cok += $4 } }
	END {
		for (b = 0; b <= 10; b++) printf "bursts_%d,%d\n", b, n[b]
		for (b = 0; b <= 10; b++) printf "lossless_%d,%d\n", b, ok[b]
		for (b = 0; b <= 10; b++) printf "frac_%d,%.6f\n", b, n[b] ? ok[b] / n[b] : 0
		printf "bursts,%d\nlossless,%d\nbursts_lt5,%d\nlossless_lt5,%d\n", tn, tok, cn, cok }'
