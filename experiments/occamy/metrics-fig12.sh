#!/bin/sh
# metrics-fig12.sh RUNDIR: the numbers of Fig. 12 for one run, as NAME,VALUE lines: the
# `extract` script of sweeps/fig12*.cfg (docs/sweep.md §2), run by `sharebuf sweep` on every
# run directory when it writes sweep.csv.
#
#   queries, qct_mean_us, qct_p50_us, qct_p99_us, qct_max_us   over every query (µs; p50 and
#       p99 nearest rank), from qct.awk and stats.awk
#   rto_pct              % of them with a QCT of at least the run's minimum RTO (tcp.min_rto_us)
#   bg_fct_mean_us       mean FCT of the web-search background flows (µs)
#   bg_short_fct_p99_us  p99 FCT of the background flows < 100 KB (µs, nearest rank)
set -e
LC_ALL=C; export LC_ALL   # numbers with a decimal point, whatever the user's locale
d=${1:?usage: sh metrics-fig12.sh RUNDIR}
here=$(dirname "$0")
rto_us=$(awk '/^ *min_rto_us *=/ { v = $0; sub(/^[^=]*= */, "", v); print v + 0 }' "$d/scenario.cfg")
awk -F, -v dst=-1 -v fanin=7 -f "$here/qct.awk" "$d/flows.csv" | sort -n | awk -v rto_us="$rto_us" -f "$here/stats.awk" |
	awk '{ printf "queries,%s\nqct_mean_us,%s\nqct_p50_us,%s\nqct_p99_us,%s\nqct_max_us,%s\nrto_pct,%s\n", $1, $2, $3, $4, $5, $6 }'
# one pass over the background flows; flows.csv: ...,size_bytes ($4),...,kind ($7),...,fct_ns ($10).
# The short flows' p99 as stats.awk takes it from FCTs printed in µs with 3 decimals.
awk -F, 'NR > 1 && $7 == "background" { s += $10; n++; if ($4 < 100000) v[++m] = sprintf("%.3f", $10 / 1000) + 0 }
	function rank(p,   r) { r = int(p * m); if (r < p * m) r++; if (r < 1) r = 1; return r }
	END {
		for (g = int(m / 2); g > 0; g = int(g / 2))   # shell sort, ascending
			for (i = g + 1; i <= m; i++) { t = v[i]; for (j = i; j > g && v[j - g] > t; j -= g) v[j] = v[j - g]; v[j] = t }
		printf "bg_fct_mean_us,%.1f\nbg_short_fct_p99_us,%.1f\n", n ? s / n / 1000 : 0, m ? v[rank(0.99)] : 0
	}' "$d/flows.csv"
