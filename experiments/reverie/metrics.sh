#!/bin/sh
# The Reverie figures' metrics that summary.json does not hold, for one run: the sweep specs in
# sweeps/ name this script as their `extract` (docs/sweep.md §2), so `sharebuf sweep` runs
#
#   sh experiments/reverie/metrics.sh RUNDIR
#
# for every run when it writes its CSVs, and each NAME,VALUE line below becomes a column of
# sweep.csv and sweep-summary.csv:
#
#   short_p99         p99 FCT slowdown of the web-search ("background") flows < 100 KB (Fig. 7c).
#                     summary.json's fct_slowdown.short is not it: at Fig. 8's 0.5 MB burst an
#                     incast response (31 KB) is also a flow < 100 KB.
#   short_n           how many such flows finished
#   rdma_occ_p99_pct  p99 of the leaves' lossless bytes, pooled over the leaves' samples during the
#   tcp_occ_p99_pct   arrival window (time < run.arrivals_ms), in % of switch.buffer_bytes (Figs.
#                     7d/7e): the lossless (RDMA) and lossy (TCP) columns of occupancy.csv
#
# The p99 is the nearest-rank percentile, the ceil(0.99 n)-th smallest value (0 without values),
# as the experiment has always computed it. The window and the buffer are read from the run's
# resolved scenario.cfg, so one script serves the reduced and the paper-scale runs.
# Deterministic (LC_ALL=C, numeric sort); one pass over flows.csv and one per occupancy column.
set -e
[ $# -eq 1 ] || { echo "usage: sh metrics.sh RUNDIR" >&2; exit 2; }
d=$1
for f in flows.csv occupancy.csv scenario.cfg; do
	[ -r "$d/$f" ] || { echo "metrics.sh: cannot read $d/$f" >&2; exit 1; }
done
LC_ALL=C
export LC_ALL

# key of a group of the resolved scenario, e.g. scenario_key run arrivals_ms
scenario_key() {
	awk -v g="$1" -v k="$2" '
		$2 == "=" && $3 == "{" { group = $1; next }
		group == g && $1 == k && $2 == "=" { v = $3; sub(/;$/, "", v); print v; found = 1; exit }
		END { if (!found) exit 1 }' "$d/scenario.cfg" ||
		{ echo "metrics.sh: $d/scenario.cfg has no $1.$2" >&2; exit 1; }
}
arr_ms=$(scenario_key run arrivals_ms)
buf=$(scenario_key switch buffer_bytes)

# header checks: the columns below are those of docs/outputs.md
head -n 1 "$d/flows.csv" | awk -F, '$4 != "size_bytes" || $7 != "kind" || $12 != "slowdown" { exit 1 }' ||
	{ echo "metrics.sh: $d/flows.csv: unexpected header" >&2; exit 1; }
head -n 1 "$d/occupancy.csv" | awk -F, '$1 != "time_ns" || $3 != "lossy_bytes" || $4 != "lossless_bytes" { exit 1 }' ||
	{ echo "metrics.sh: $d/occupancy.csv: unexpected header" >&2; exit 1; }

# "P99 N": the nearest-rank p99 and the count of the numbers on stdin, one per line
p99() {
	sort -g | awk '{ v[NR] = $1 } END { k = int(0.99 * NR); if (k < 0.99 * NR) k++
		print (NR ? v[k] : 0), NR }'
}

# flows.csv: 4 size_bytes, 7 kind, 12 slowdown
short=$(awk -F, 'NR > 1 && $7 == "background" && $4 < 100000 { print $12 }' "$d/flows.csv" | p99)
# occupancy.csv: 1 time_ns, 3 lossy_bytes, 4 lossless_bytes; samples of the arrival window
occ_p99() {
	awk -F, -v col="$1" -v ms="$arr_ms" 'BEGIN { t = sprintf("%.0f", ms * 1e6) + 0 }
		NR > 1 && $1 < t { print $col }' "$d/occupancy.csv" | p99
}
rdma=$(occ_p99 4)
tcp=$(occ_p99 3)

echo "$short $rdma $tcp" | awk -v b="$buf" '{
	printf "short_p99,%s\nshort_n,%d\n", $1, $2
	printf "rdma_occ_p99_pct,%.4f\ntcp_occ_p99_pct,%.4f\n", 100 * $3 / b, 100 * $5 / b }'
