#!/bin/sh
# tables.sh OUT: the DSH figures' tables from the sweeps in OUT (as run.sh and run-variants.sh
# write them), into OUT/tables/, for plot.sh and report.sh. Cheap: awk over the sweep CSVs and,
# where a number needs a pair of runs (SIH and DSH) or a time series, over those runs' files.
# A figure whose sweep is missing is skipped (report.sh says which).
#
#   fig11.csv, knees.txt             Fig. 11: per burst, both schemes' fan-in pause; the knees
#   knees-start0.3.txt               the same knees with the burst at 0.3 ms (fig11-start0.3/)
#   fig12.csv                        Fig. 12: one row per run, with its deadlock cycle
#   fig12-NAME.csv                   the variants (fig12-variants/, fig12-seeds101/)
#   cap300.csv                       main DCQCN SIH seeds without deadlock, run for 300 ms
#   cdf_CC_SCHEME.dat                Fig. 12's CDFs of the onset
#   fig13.csv, f0.csv, phase.csv, oldfeedback.csv   Fig. 13 (probe_*.csv come from the probe step)
#   fig14.csv, diagnostics.csv, table-fct.md, table-pfc.md, diagnostics.md   Fig. 14, seed 1
#   fig14-ci.csv                     Fig. 14: DSH / SIH ratios, mean and 95 % CI over the seeds
#   fig14-harness*.{csv,md}, fig14-sp.csv   the Fig. 14 variants (seed 1)
set -e
OUT=${1:?usage: sh tables.sh OUT}
EXP=$(dirname "$0")
T=$OUT/tables
mkdir -p "$T"

# the run directory of a sweep's point whose name ends in PATTERN, seed S (default: the only one)
rundir() { # sweepdir pattern [seed]
	if [ -n "${3:-}" ]; then set -- "$1"/runs/*-"$2"/seed-"$3"; else set -- "$1"/runs/*-"$2"/seed-*; fi
	[ $# -eq 1 ] && [ -d "$1" ] || { echo "dsh tables: no single run $1" >&2; exit 1; }
	echo "$1"
}
# sweep.csv's rows as "name=value" words, one line per run (values have no spaces or commas)
rows() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
	{ s = ""; for (i = 1; i <= NF; i++) s = s (i > 1 ? " " : "") h[i] "=" $i; print s }' "$1"; }
col() { # sweep.csv column... -> those columns, comma-separated, one line per run
	f=$1; shift
	awk -F, -v want="$*" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) c[$i] = i
		for (j = 1; j <= n; j++) if (!(w[j] in c)) { printf "dsh tables: %s has no column %s\n", FILENAME, w[j] > "/dev/stderr"; exit 1 }
		next }
		{ s = ""; for (j = 1; j <= n; j++) s = s (j > 1 ? "," : "") $c[w[j]]; print s }' "$f"
}

# ---- Fig. 11 ---------------------------------------------------------------------------------
fig11() { # sweepdir fig11.csv knees.txt
	[ -s "$1/sweep.csv" ] || return 0
	col "$1/sweep.csv" burst_pct switch.scheme fanin_paused_ms fanin_paused bg_paused_ms pfc_pause_frames \
		pfc.port_pause_frames drops_lossless flows_completed | awk -F, -v knees="$3" '
		{ x = $1; if (!(x in seen)) { seen[x] = 1; X[++n] = x }; for (i = 3; i <= 9; i++) v[x, $2, i] = $i }
		END {
			print "burst_pct,sih_pause_ms,dsh_pause_ms,sih_senders_paused,dsh_senders_paused,sih_bg_pause_ms,dsh_bg_pause_ms,sih_frames,dsh_frames,sih_port_frames,dsh_port_frames,sih_drops,dsh_drops,sih_done,dsh_done"
			for (k = 1; k <= n; k++) { x = X[k]
				# the table keeps the 10 % grid; the 0.5 % points only locate the knees
				if (x % 10 == 0) printf "%d,%.6f,%.6f,%d,%d,%.6f,%.6f,%d,%d,%d,%d,%d,%d,%d,%d\n", x,
					v[x, "sih", 3], v[x, "dsh", 3], v[x, "sih", 4], v[x, "dsh", 4], v[x, "sih", 5], v[x, "dsh", 5],
					v[x, "sih", 6], v[x, "dsh", 6], v[x, "sih", 7], v[x, "dsh", 7], v[x, "sih", 8], v[x, "dsh", 8],
					v[x, "sih", 9], v[x, "dsh", 9] }
			# knee: the last burst before the first one with a paused fan-in sender (permille)
			for (s = 1; s <= 2; s++) { sc = s == 1 ? "sih" : "dsh"; lo = 0; hi = ""
				for (k = 1; k <= n; k++) { if (v[X[k], sc, 4] > 0) { hi = X[k]; break } lo = X[k] }
				printf "%s %d %s\n", sc, lo * 10 + 0.5, hi == "" ? "-" : sprintf("%d", hi * 10 + 0.5) > knees }
		}' > "$2"
}
fig11 "$OUT/fig11" "$T/fig11.csv" "$T/knees.txt"
fig11 "$OUT/fig11-start0.3" /dev/null "$T/knees-start0.3.txt"

# ---- Fig. 12 ---------------------------------------------------------------------------------
# The cycle of the earliest deadlock as switch names in wait order, rotated to start at spine0 so
# that one cycle reads the same in every run: "spine0>leaf1>..."
cycle() {
	awk -F, 'NR > 1 && (best == "" || $1 + 0 < best + 0) { best = $1; c = $4 }
		END { n = split(c, m, " > "); r = 1
		      for (i = 1; i <= n; i++) { split(m[i], f, ":"); name[i] = f[1]; if (f[1] == "spine0") r = i }
		      for (i = 0; i < n; i++) printf "%s%s", i ? ">" : "", name[(r - 1 + i) % n + 1] }' "$1/deadlocks.csv"
}
fig12() { # sweepdir axis-column out.csv [variant: only the points whose axis value is it or starts with it-]
	[ -s "$1/sweep.csv" ] || return 0
	echo "cc,scheme,seed,deadlocked,onset_ms,deadlocks,cycle,pause_frames,port_pause_frames,paused_ms,lossless_drops,flows_started,flows_completed" > "$3"
	col "$1/sweep.csv" point "$2" switch.scheme seed deadlocked onset_ms pfc.deadlocks pfc_pause_frames \
		pfc.port_pause_frames pfc_paused_us drops_lossless flows_started flows_completed |
	while IFS=, read -r point v s seed dead onset dl pf ppf pt ll st co; do
		if [ -n "${4:-}" ]; then
			case $v in "$4" | "$4"-*) ;; *) continue ;; esac
		fi
		# the transport: the axis value, or what a variant sets (long-CC: CC; the others DCQCN but rdma)
		case $v in long-*) cc=${v#long-} ;; dcqcn | powertcp | rdma) cc=$v ;; *) cc=dcqcn ;; esac
		c=""; [ "$dead" = 0 ] || c=$(cycle "$1/runs/$point/seed-$seed")
		printf '%s,%s,%s,%d,%s,%d,%s,%d,%d,%s,%d,%d,%d\n' "$cc" "$s" "$seed" "$dead" "$onset" "$dl" "$c" "$pf" "$ppf" \
			"$(awk -v u="$pt" 'BEGIN { printf "%.3f", u / 1000 }')" "$ll" "$st" "$co"
	done >> "$3"
}
fig12 "$OUT/fig12" cc "$T/fig12.csv"
fig12 "$OUT/fig12-seeds101" cc "$T/fig12-seeds101.csv"
# one file per variant, named as before the sweeps (long = long-dcqcn and long-powertcp)
for n in long rdma ports0 hdrm60k ecnflat; do
	fig12 "$OUT/fig12-variants" variant "$T/fig12-$n.csv" "$n"
done
if [ -s "$OUT/fig12-cap300/sweep.csv" ] && [ -s "$T/fig12.csv" ]; then
	echo "seed,deadlocked,onset_ms" > "$T/cap300.csv"
	col "$OUT/fig12-cap300/sweep.csv" seed deadlocked onset_ms | awk -F, 'NR == FNR { if ($1 == "dcqcn" && $2 == "sih" && $4 == 0) want[$3] = 1; next }
		$1 in want { if ($2 == 1) printf "%s,1,%s\n", $1, $3; else printf "%s,0,\n", $1 }' "$T/fig12.csv" - >> "$T/cap300.csv"
fi
if [ -s "$T/fig12.csv" ]; then
	for cs in $(awk -F, 'NR > 1 { print $1 "_" $2 }' "$T/fig12.csv" | uniq); do
		awk -F, -v k="$cs" 'NR > 1 && $1 "_" $2 == k { print $5 }' "$T/fig12.csv" | sort -n |
			awk '{ x[NR] = $1 } END { print 0, 0; for (i = 1; i <= NR; i++) print x[i], i / NR }' > "$T/cdf_$cs.dat"
	done
fi

# ---- Fig. 13 ---------------------------------------------------------------------------------
BURST_NS=2800000     # the burst's start in fig13.cfg (workloads.2.start_ms)
BIN_NS=20000         # throughput bins (run.sample_interval_us)
# F0 over the bins ending in (from, to]: "min mean" (Gb/s)
f0() { awk -F, -v a="$2" -v z="$3" '$2 == "h26" && $1 > a && $1 <= z + 0.001 { s += $4; n++; if (!n0++ || $4 < m) m = $4 }
	END { printf "%.1f %.1f", m, n ? s / n : 0 }' "$1/throughput.csv"; }
if [ -s "$OUT/fig13/sweep.csv" ]; then
	S13=$OUT/fig13
	CCS13=$(col "$S13/sweep.csv" cc | uniq)
	# F0 = h26's rows of throughput.csv (its only flow): time_ms, then SIH and DSH per transport
	{
		printf "time_ms"
		for cc in $CCS13; do printf ",%s_sih,%s_dsh" "$cc" "$cc"; done
		echo
		files=""
		for cc in $CCS13; do files="$files $(rundir "$S13" "cc=$cc-scheme=sih")/throughput.csv $(rundir "$S13" "cc=$cc-scheme=dsh")/throughput.csv"; done
		# shellcheck disable=SC2086  # a list of files
		awk -F, 'FNR == 1 { f++; next } $2 == "h26" { v[$1, f] = $4; t[$1] = 1; n = f }
			END { for (x in t) k[++m] = x + 0
			      for (i = 2; i <= m; i++) { y = k[i]; for (j = i - 1; j > 0 && k[j] > y; j--) k[j + 1] = k[j]; k[j + 1] = y }
			      for (i = 1; i <= m; i++) { printf "%.3f", k[i] / 1e6
				      for (g = 1; g <= n; g++) printf ",%s", v[sprintf("%.3f", k[i]), g]
				      print "" } }' $files
	} > "$T/f0.csv"
	echo "cc,scheme,window_end_ms,f0_before_gbps,f0_min_gbps,f0_mean_gbps,pauses_leaf1_to_spine,paused_us,first_pause_us,burst_done_us,burst_flows_done,lossless_drops,peak_q,peak_ws,T_at_peak,min_margin,probe_paused_us,peak_burst_q,peak_shared,min_T,f1_before_gbps,leaf0_pauses_before,cnps" > "$T/fig13.csv"
	for cc in $CCS13; do
		# the same window for both schemes: from the burst to the later of their burst
		# completions, rounded up to a bin
		end=$(col "$S13/sweep.csv" cc burst_done_us | awk -F, -v cc="$cc" -v b=$BURST_NS -v w=$BIN_NS '
			$1 == cc { if ($2 > m) m = $2 } END { e = b + m * 1000; printf "%d", int((e + w - 1) / w) * w }')
		for s in sih dsh; do
			d=$(rundir "$S13" "cc=$cc-scheme=$s")
			probe=$OUT/fig13-probe/$cc-$s.txt
			[ -s "$probe" ] || { echo "dsh tables: $probe missing (the probe step of run.sh)" >&2; exit 1; }
			m=$(col "$S13/sweep.csv" cc switch.scheme f0_before_gbps pauses_leaf1_to_spine paused_us first_pause_us burst_done_us \
				burst_flows_done drops_lossless f1_before_gbps leaf0_pauses_before rdma.cnps | awk -F, -v cc="$cc" -v s="$s" '
				$1 == cc && $2 == s { print $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }')
			echo "$cc $s $end $m $(f0 "$d" $BURST_NS "$end") $(sed 's/[a-zA-Z_]*=//g' "$probe")" | awk '{
				printf "%s,%s,%.3f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3 / 1e6,
					$4, $14, $15, $5, $6, $7, $8, $9, $10, $16, $17, $18, $19, $20, $21, $22, $23, $11, $12, $13 }'
		done
	done >> "$T/fig13.csv"
fi
if [ -s "$OUT/fig13-checks/sweep.csv" ] && [ -s "$T/fig13.csv" ]; then
	C13=$OUT/fig13-checks
	# DCQCN with the burst earlier: F0 before (200 us), min and mean over the 160 us from the
	# burst, PAUSE frames S1 -> spine
	echo "start_ms,scheme,f0_before_gbps,f0_min_gbps,f0_mean_gbps,pauses_leaf1_to_spine" > "$T/phase.csv"
	for t in 2.0 2.2; do
		b=$(awk -v t=$t 'BEGIN { printf "%d", t * 1e6 }')
		for s in sih dsh; do
			m=$(col "$C13/sweep.csv" check switch.scheme f0_before_gbps pauses_leaf1_to_spine |
				awk -F, -v c="start$t" -v s="$s" '$1 == c && $2 == s { print $3, $4 }')
			echo "$t $s $m $(f0 "$(rundir "$C13" "check=start$t-scheme=$s")" "$b" $((b + 160000)))" |
				awk '{ printf "%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $5, $6, $4 }'
		done
	done >> "$T/phase.csv"
	# the RDMA feedback settings of the earlier runs, over the main DCQCN burst window
	echo "scheme,f0_min_gbps,f0_mean_gbps,pauses_leaf1_to_spine,paused_us,cnps" > "$T/oldfeedback.csv"
	end=$(awk -F, 'NR > 1 && $1 == "dcqcn" { printf "%d", $3 * 1e6; exit }' "$T/fig13.csv")
	for s in sih dsh; do
		m=$(col "$C13/sweep.csv" check switch.scheme pauses_leaf1_to_spine paused_us rdma.cnps |
			awk -F, -v s="$s" '$1 == "oldfeedback" && $2 == s { print $3, $4, $5 }')
		echo "$s $(f0 "$(rundir "$C13" "check=oldfeedback-scheme=$s")" $BURST_NS "$end") $m" |
			awk '{ printf "%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $5, $6 }'
	done >> "$T/oldfeedback.csv"
fi

# ---- Fig. 14 ---------------------------------------------------------------------------------
TOTAL=0.9            # total offered load per host (the paper's)
# fig14 SWEEPDIR PREFIX: PREFIX.csv (as the earlier fig14.csv: one row per point of seed 1),
# PREFIX-diagnostics.csv, PREFIX-table-{fct,pfc}.md, PREFIX-diagnostics.md, and PREFIX-ci.csv:
# the DSH / SIH ratios per point, mean and 95 % CI over the sweep's seeds
fig14() {
	[ -s "$1/sweep.csv" ] || return 0
	p=$2
	seed1=$(col "$1/sweep.csv" seed | head -1)
	echo "cc,bg_load,fanin_load,bg_mean_ratio,bg_p99_ratio,fan_mean_ratio,fan_p99_ratio,sih_bg_mean_us,dsh_bg_mean_us,sih_bg_p99_us,dsh_bg_p99_us,bg_flows,sih_fan_mean_us,dsh_fan_mean_us,sih_fan_p99_us,dsh_fan_p99_us,fan_flows,sih_pause_frames,dsh_pause_frames,sih_port_pause_frames,dsh_port_pause_frames,sih_paused_ms,dsh_paused_ms,sih_lossless_drops,dsh_lossless_drops,sih_done,dsh_done,started" > "$p.csv"
	echo "cc,bg_load,r_lt100k,n_lt100k,r_100k_1m,n_100k_1m,r_1m_5m,n_1m_5m,r_ge5m,n_ge5m,sih_cnps,dsh_cnps,sih_nic_fanin_ms,dsh_nic_fanin_ms,sih_nic_bg_ms,dsh_nic_bg_ms" > "$p-diagnostics.csv"
	echo "cc bg seed bgm bgp fanm fanp" > "$p-ratios.txt"
	for cb in $(col "$1/sweep.csv" cc bg | awk '!seen[$0]++'); do
		cc=${cb%,*} bg=${cb#*,}
		for seed in $(col "$1/sweep.csv" cc bg seed | awk -F, -v k="$cb" '$1 "," $2 == k && !seen[$3]++ { print $3 }'); do
			pair=$(awk -F, -f "$EXP/pair14.awk" "$(rundir "$1" "cc=$cc-bg=$bg-scheme=sih" "$seed")/flows.csv" \
				"$(rundir "$1" "cc=$cc-bg=$bg-scheme=dsh" "$seed")/flows.csv")
			echo "$cc $bg $seed $pair" | awk '{ printf "%s %s %s %.4f %.4f %.4f %.4f\n", $1, $2, $3, $5 / $4, $7 / $6, $10 / $9, $12 / $11 }' >> "$p-ratios.txt"
			[ "$seed" = "$seed1" ] || continue
			# the counters of both runs: pause frames, port-level, paused ms, lossless drops,
			# completed, started; CNPs and NIC paused time
			cnt=$(col "$1/sweep.csv" cc bg seed switch.scheme pfc_pause_frames pfc.port_pause_frames pfc_paused_us drops_lossless \
				flows_completed flows_started rdma.cnps nic_fanin_paused_ms nic_bg_paused_ms | awk -F, -v k="$cc,$bg,$seed" '
				$1 "," $2 "," $3 == k { v[$4] = sprintf("%s %s %.3f %s %s %s", $5, $6, $7 / 1000, $8, $9, $10); w[$4] = $11 " " $12 " " $13 }
				END { print v["sih"], v["dsh"], w["sih"], w["dsh"] }')
			echo "$cc $bg $pair $cnt" | awk -v t=$TOTAL '{
				printf "%s,%s,%.1f,%.3f,%.3f,%.3f,%.3f,%s,%s,%s,%s,%d,%s,%s,%s,%s,%d,%d,%d,%d,%d,%.3f,%.3f,%d,%d,%d,%d,%d\n",
					$1, $2, t - $2, $4 / $3, $6 / $5, $9 / $8, $11 / $10, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
					$21, $27, $22, $28, $23, $29, $24, $30, $25, $31, $26 }' >> "$p.csv"
			echo "$cc $bg $pair $cnt" | awk '{ printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%d,%.1f,%.1f,%.1f,%.1f\n",
				$1, $2, $13, $14, $15, $16, $17, $18, $19, $20, $33, $36, $34, $37, $35, $38 }' >> "$p-diagnostics.csv"
		done
	done
	awk -f "$EXP/../lib/ci.awk" -f "$EXP/fig14-ci.awk" "$p-ratios.txt" > "$p-ci.csv"
	{
		echo "| transport | bg load | fan-in load | bg mean | bg p99 | fan-in mean | fan-in p99 | bg mean SIH / DSH (us) | fan-in mean SIH / DSH (us) | flows bg / fan-in |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		awk -F, 'NR > 1 { printf "| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %.1f / %.1f | %.1f / %.1f | %d / %d |\n",
			$1, $2, $3, $4, $5, $6, $7, $8, $9, $13, $14, $12, $17 }' "$p.csv"
	} > "$p-table-fct.md"
	{
		echo "| transport | bg load | PAUSE frames | port-level | paused (ms) | lossless drops | completed / started |"
		echo "|---|---|---|---|---|---|---|"
		awk -F, 'NR > 1 { printf "| %s | %s | %d / %d | %d / %d | %.1f / %.1f | %d / %d | %d / %d of %d |\n",
			$1, $2, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28 }' "$p.csv"
	} > "$p-table-pfc.md"
	{
		echo "| transport | bg load | bg mean DSH/SIH by size (flows): < 100 KB | 100 KB-1 MB | 1-5 MB | >= 5 MB | CNPs SIH / DSH | NIC fan-in class paused, ms SIH / DSH | NIC background classes paused, ms SIH / DSH |"
		echo "|---|---|---|---|---|---|---|---|---|"
		awk -F, 'NR > 1 { printf "| %s | %s | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %d / %d | %.1f / %.1f | %.1f / %.1f |\n",
			$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16 }' "$p-diagnostics.csv"
	} > "$p-diagnostics.md"
	{
		echo "| transport | bg load | seeds | bg mean | bg p99 | fan-in mean | fan-in p99 |"
		echo "|---|---|---|---|---|---|---|"
		awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3,
			pm($4, $5), pm($6, $7), pm($8, $9), pm($10, $11) }
			function pm(m, h) { return h == "" ? m : m " ± " h }' "$p-ci.csv"
	} > "$p-table-ci.md"
}
fig14 "$OUT/fig14" "$T/fig14"
fig14 "$OUT/fig14-harness" "$T/fig14-harness"
fig14 "$OUT/fig14-sp" "$T/fig14-sp"
