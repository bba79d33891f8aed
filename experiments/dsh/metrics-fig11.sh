#!/bin/sh
# metrics-fig11.sh RUNDIR: the extract script of sweeps/fig11.cfg (docs/sweep.md §2). From the
# run's pfc_paused.csv (one row per paused (node, port, priority): episodes, paused_us):
#   fanin_paused_ms   total time the 16 fan-in senders (h2 .. h17) were paused: Fig. 11's y axis
#   fanin_paused      how many of them received a PAUSE at all (the knee is the largest burst
#                     with 0)
#   bg_paused_ms      the same total for the two background senders (h0, h1)
set -e
[ -s "$1/pfc_paused.csv" ] || { echo "metrics-fig11.sh: $1/pfc_paused.csv missing" >&2; exit 1; }
awk -F, 'NR > 1 && $1 ~ /^h([2-9]|1[0-7])$/ { t += $6; n++ }
	 NR > 1 && $1 ~ /^h[01]$/ { bg += $6 }
	 END { # to 3 decimals in microseconds first, as the earlier tables rounded them
	       printf "fanin_paused_ms,%.6f\nfanin_paused,%d\nbg_paused_ms,%.6f\n", sprintf("%.3f", t) / 1000, n, sprintf("%.3f", bg) / 1000 }' "$1/pfc_paused.csv"
