#!/bin/sh
# metrics-fig14.sh RUNDIR: the extract script of sweeps/fig14*.cfg (docs/sweep.md §2). Per run:
#   bg_mean_us, bg_p99_us, bg_flows     FCT of the run's completed background flows (kind
#                                       "background" in flows.csv): mean, p99 (nearest rank),
#                                       how many
#   fan_mean_us, fan_p99_us, fan_flows  the same for the fan-in flows (kind "incast")
#   nic_fanin_paused_ms                 time the hosts' NICs had class 1 paused, summed over
#                                       hosts (pfc_paused.csv rows h*)
#   nic_bg_paused_ms                    the same for classes 2..7
# These are one run's own flows; the figure's DSH / SIH ratios use the flows completed under
# both schemes, which only a pair of runs gives (tables.sh).
set -e
run=$1
[ -s "$run/flows.csv" ] && [ -s "$run/pfc_paused.csv" ] || { echo "metrics-fig14.sh: $run has no flows.csv or pfc_paused.csv" >&2; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["fct_ns"] == "" { next }
	{ k = $c["kind"] == "incast" ? "f" : $c["kind"] == "background" ? "b" : ""; if (k == "") next
	  v[k, ++n[k]] = $c["fct_ns"] / 1000; s[k] += $c["fct_ns"] / 1000 }
	function p99(k,   m, a, g, i, j, t, r) {
		m = n[k]; if (!m) return 0
		for (i = 1; i <= m; i++) a[i] = v[k, i]
		for (g = int(m / 2); g > 0; g = int(g / 2))
			for (i = g + 1; i <= m; i++) { t = a[i]; for (j = i; j > g && a[j - g] > t; j -= g) a[j] = a[j - g]; a[j] = t }
		r = int(0.99 * m); if (r < 0.99 * m) r++
		return a[r]
	}
	END {
		printf "bg_mean_us,%.3f\nbg_p99_us,%.3f\nbg_flows,%d\n", n["b"] ? s["b"] / n["b"] : 0, p99("b"), n["b"]
		printf "fan_mean_us,%.3f\nfan_p99_us,%.3f\nfan_flows,%d\n", n["f"] ? s["f"] / n["f"] : 0, p99("f"), n["f"]
	}' "$run/flows.csv"
awk -F, 'NR > 1 && $1 ~ /^h/ { if ($4 == 1) f += $6; else b += $6 }
	END { printf "nic_fanin_paused_ms,%.1f\nnic_bg_paused_ms,%.1f\n", f / 1000, b / 1000 }' "$run/pfc_paused.csv"
