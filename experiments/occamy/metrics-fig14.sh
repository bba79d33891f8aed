#!/bin/sh
# metrics-fig14.sh RUNDIR: the QCT statistics of Fig. 14 for one run, as NAME,VALUE lines: the
# `extract` script of sweeps/fig14-*.cfg (docs/sweep.md §2), run by `sharebuf sweep` on every
# run directory when it writes sweep.csv. Only the queries issued by host 0 count: host 0
# alone receives the low-priority background, so its queries are the choked ones.
#
#   queries, qct_mean_us, qct_p50_us, qct_p99_us, qct_max_us   over those queries (µs; p50 and
#       p99 nearest rank), from qct.awk and stats.awk
#   rto_pct    % of them with a QCT of at least the run's minimum RTO (tcp.min_rto_us)
set -e
LC_ALL=C; export LC_ALL   # numbers with a decimal point, whatever the user's locale
d=${1:?usage: sh metrics-fig14.sh RUNDIR}
here=$(dirname "$0")
rto_us=$(awk '/^ *min_rto_us *=/ { v = $0; sub(/^[^=]*= */, "", v); print v + 0 }' "$d/scenario.cfg")
awk -F, -v dst=0 -v fanin=7 -f "$here/qct.awk" "$d/flows.csv" | sort -n | awk -v rto_us="$rto_us" -f "$here/stats.awk" |
	awk '{ printf "queries,%s\nqct_mean_us,%s\nqct_p50_us,%s\nqct_p99_us,%s\nqct_max_us,%s\nrto_pct,%s\n", $1, $2, $3, $4, $5, $6 }'
