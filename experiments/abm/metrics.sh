#!/bin/sh
# metrics.sh RUNDIR: the per-run numbers of the ABM figures that summary.json does not hold, as
# NAME,VALUE lines: the `extract` script of sweeps/*.cfg (docs/sweep.md §2), run by
# `sharebuf sweep` on every run directory when it writes sweep.csv. One awk pass over each of
# the run's scenario.cfg, flows.csv, occupancy.csv and drops.csv; deterministic (the same files
# give the same lines).
#
#   short_flows      web-search (background) flows < 100 KB: what short_p99 rests on
#   short_p99        their p99 FCT slowdown (nearest rank, as summary.json's): the paper's
#                    short flows exclude incast responses, which summary.json's "short" includes
#   buffer_p99_bytes p99 of leaf 0's occupancy (lossy + lossless) sampled during the arrival
#                    window (run.arrivals_ms), the paper's Fig. 7c; after it the buffer drains
#   incast_rto       incast flows whose FCT reached the minimum RTO (tcp.min_rto_us): timeouts
#   slow_queries     queries with a response slower than 20x its ideal FCT
#   overlap_queries  queries with another query into the same leaf within +-3 ms (the same
#                    arrivals for every scheme: how often two incasts meet)
#   spine_drops      packets dropped at the spines
set -e
LC_ALL=C; export LC_ALL   # numbers with a decimal point, whatever the user's locale
d=${1:?usage: sh metrics.sh RUNDIR}
awk -F, '
# scenario.cfg (the resolved scenario of the run: "  key = value;" lines): the run length, the
# minimum RTO and the rack size the numbers depend on
FILENAME ~ /scenario\.cfg$/ {
	if ($0 ~ /^ *arrivals_ms *=/) { v = $0; sub(/^[^=]*= */, "", v); arr_ns = v * 1e6 }
	if ($0 ~ /^ *min_rto_us *=/) { v = $0; sub(/^[^=]*= */, "", v); rto_ns = v * 1000 }
	if ($0 ~ /^ *hosts_per_leaf *=/) { v = $0; sub(/^[^=]*= */, "", v); hpl = v + 0 }
	next
}
FNR == 1 { next }   # the CSV headers
# flows.csv: flow_id,src,dst,size_bytes,priority,class,kind,query_id,start_ns,fct_ns,ideal_fct_ns,slowdown,...
FILENAME ~ /flows\.csv$/ {
	if ($7 == "background" && $4 < 100000) sh[++nsh] = $12
	if ($7 == "incast") {
		if ($10 >= rto_ns) rto++
		if ($12 > 20) slow[$8] = 1
		if (!($8 in st) || $9 < st[$8]) st[$8] = $9
		leaf[$8] = int($3 / hpl)
	}
	next
}
# occupancy.csv: time_ns,switch,lossy_bytes,lossless_bytes,...
FILENAME ~ /occupancy\.csv$/ { if ($2 == "leaf0" && $1 < arr_ns) occ[++nocc] = $3 + $4; next }
# drops.csv: node,cause,packets
FILENAME ~ /drops\.csv$/ { if ($1 ~ /^spine/) sd += $3; next }
function sortn(a, n,   g, i, j, t) {
	for (g = int(n / 2); g > 0; g = int(g / 2))
		for (i = g + 1; i <= n; i++) { t = a[i]; for (j = i; j > g && a[j - g] + 0 > t + 0; j -= g) a[j] = a[j - g]; a[j] = t }
}
# nearest rank: sorted[ceil(0.99 n)], 0 without values
function p99(a, n,   k) { if (n == 0) return 0; sortn(a, n); k = int(0.99 * n); if (k < 0.99 * n) k++; return a[k] }
END {
	for (q in slow) nslow++
	for (a in st) for (b in st)
		if (a != b && leaf[a] == leaf[b] && st[a] - st[b] < 3e6 && st[b] - st[a] < 3e6) { ov++; break }
	printf "short_flows,%d\nshort_p99,%s\nbuffer_p99_bytes,%s\n", nsh, p99(sh, nsh), p99(occ, nocc)
	printf "incast_rto,%d\nslow_queries,%d\noverlap_queries,%d\nspine_drops,%d\n", rto, nslow, ov, sd
}' "$d/scenario.cfg" "$d/flows.csv" "$d/occupancy.csv" "$d/drops.csv"
