#!/bin/sh
# metrics-fig13.sh RUNDIR: the extract script of sweeps/fig13.cfg and fig13-checks.cfg
# (docs/sweep.md §2). Per run, with b = the burst's start (the first start of a flow of kind
# "burst" in flows.csv) and the run's end from scenario.cfg:
#   f0_before_gbps        F0's mean goodput (h26's rows of throughput.csv) over the 200 us
#                         before the burst
#   f1_before_gbps        the same for F1 (h27)
#   burst_done_us         when the last of the burst's flows completed, from b
#   burst_flows_done      how many of them completed
#   pauses_leaf1_to_spine PAUSE frames leaf1 (S1) sent to the spine from b on (pfc.csv)
#   paused_us             how long they held it paused, PAUSE to RESUME as sent, an episode
#                         still open at the end counted to the run's end
#   first_pause_us        when the first came, from b (-1 if none)
#   leaf0_pauses_before   PAUSE frames leaf0 (S0) sent before b
# F0 over the burst window needs the pair of runs (SIH, DSH) and is computed by tables.sh.
set -e
run=$1
for f in flows.csv throughput.csv pfc.csv scenario.cfg; do
	[ -s "$run/$f" ] || { echo "metrics-fig13.sh: $run/$f missing" >&2; exit 1; }
done
b=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kind"] == "burst" && (b == "" || $c["start_ns"] + 0 < b) { b = $c["start_ns"] + 0 } END { printf "%d", b }' "$run/flows.csv")
[ "$b" -gt 0 ] || { echo "metrics-fig13.sh: $run/flows.csv has no burst flow" >&2; exit 1; }
end=$(sed -n 's/^  duration_ms = \([0-9.]*\);$/\1/p' "$run/scenario.cfg" | head -1 | awk '{ printf "%d", $1 * 1e6 }')
# goodput of host H over the bins ending in (from, to]: the mean (Gb/s)
mean() { awk -F, -v h="$1" -v a="$2" -v z="$3" '$2 == h && $1 > a && $1 <= z + 0.001 { s += $4; n++ }
	END { printf "%.1f", n ? s / n : 0 }' "$run/throughput.csv"; }
echo "f0_before_gbps,$(mean h26 $((b - 200000)) "$b")"
echo "f1_before_gbps,$(mean h27 $((b - 200000)) "$b")"
awk -F, -v b="$b" 'NR > 1 && $7 == "burst" { n++; e = $9 + $10; if (e > m) m = e }
	END { printf "burst_done_us,%.1f\nburst_flows_done,%d\n", (m - b) / 1000, n }' "$run/flows.csv"
awk -F, -v b="$b" -v e="$end" '$2 == "leaf1" && $4 == "spine0" && $1 >= b {
		if ($6 == "pause") { n++; if (n == 1) f = $1 - b; if (!on) { on = 1; s = $1 } }
		if ($6 == "resume" && on) { on = 0; d += $1 - s } }
	END { if (on) d += e - s
	      printf "pauses_leaf1_to_spine,%d\npaused_us,%.1f\nfirst_pause_us,%.1f\n", n, d / 1000, n ? f / 1000 : -1 }' "$run/pfc.csv"
awk -F, -v z="$b" '$2 == "leaf0" && $6 == "pause" && $1 < z { n++ } END { printf "leaf0_pauses_before,%d\n", n }' "$run/pfc.csv"
