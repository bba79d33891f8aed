#!/bin/sh
# DSH (Shan et al., ICDCS'23) Fig. 14, reduced: FCT of background (web search) and fan-in
# (16 x 64 KiB) flows on a 100G leaf-spine at total load 0.9, DSH normalised to SIH, under
# PowerTCP and DCQCN.
#
#   sh experiments/dsh/run-fig14.sh
#
# Environment overrides: LOADS="0.2 0.5" (background loads; fan-in = 0.9 - background)
# CCS="powertcp" SEED=2 LEAVES=8 SPINES=8 LINKS=2 (parallel links per leaf-spine pair; keep
# SPINES x LINKS = 16 for full bisection) ARRIVALS_MS=10 DRAIN_MS=10 JOBS=2 OUT=out/elsewhere
# EXTRA="--set switch.buffer_bytes=12582912" (extra sharebuf options, e.g. a buffer sweep).
# CLASSES=harness uses fig14-harness.cfg: background and fan-in both spread over classes 1..7, as
# the DSH harness draws them, instead of fan-in in class 1 and background in 2..7 (the paper's text).
# PLOT_ONLY=1 skips the simulations and re-extracts the tables and the plot from existing outputs.
# NOREPORT=1: do not rewrite REPORT.md.
# Results: out/experiments/dsh-fig14/{fig14.csv,results.md,diagnostics.md,fig14.png,meta.tsv};
# raw runs in <that directory>/<cc>/bg<load>/{sih,dsh}/. Then report.sh rewrites
# experiments/dsh/REPORT.md. See README.md.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
[ $# -eq 0 ] || { echo "usage: sh $EXP/run-fig14.sh (settings through the environment, see the header)" >&2; exit 2; }
OUT=${OUT:-out/experiments/dsh-fig14}
LOADS=${LOADS:-"0.2 0.4 0.6 0.8"}
CCS=${CCS:-"powertcp dcqcn"}
SEED=${SEED:-1}
LEAVES=${LEAVES:-4}
SPINES=${SPINES:-4}
LINKS=${LINKS:-4}
ARR=${ARRIVALS_MS:-6}
DRAIN=${DRAIN_MS:-8}
JOBS=${JOBS:-2}
TOTAL=0.9            # total offered load per host (the paper's)
FAN_BYTES=1048576    # one fan-in event: 16 x 65,536 B
case ${CLASSES:=spec} in
spec) CFG=$EXP/fig14.cfg NBG=6 NFAN=1 ;;            # background 2..7, fan-in class 1 (the paper's text, §V-B)
harness) CFG=$EXP/fig14-harness.cfg NBG=7 NFAN=7 ;; # both over classes 1..7
*) echo "run-fig14.sh: CLASSES must be spec or harness, got \"$CLASSES\"" >&2; exit 2 ;;
esac
DUR=$(awk -v a="$ARR" -v d="$DRAIN" 'BEGIN { print a + d }')

make -s
sh tools/install-deps.sh gnuplot-nox
mkdir -p "$OUT"

start=$(date +%s)
if [ -z "${PLOT_ONLY:-}" ]; then
echo "dsh fig14: classes $CLASSES, ${LEAVES}x16 hosts, $SPINES spines x $LINKS links, arrivals $ARR ms (+$DRAIN ms)," \
	"seed $SEED, background loads [$LOADS], transports [$CCS]${EXTRA:+, extra: $EXTRA}" >&2
# One `compare` (SIH and DSH, one run each) per point, at most JOBS runs at a time overall.
run_point() { # cc bg
	# background: NBG groups (one per class) of bg/NBG each; fan-in: per-host event rate
	# (0.9 - bg) C / 1 MiB, split over NFAN groups (one per class)
	bgl=$(awk -v b="$2" -v n=$NBG 'BEGIN { printf "%.9g", b / n }')
	qr=$(awk -v b="$2" -v t=$TOTAL -v s=$FAN_BYTES -v n=$NFAN 'BEGIN { printf "%.9g", (t - b) * 100e9 / 8 / s / n }')
	sets="" i=0
	while [ "$i" -lt $((NBG + NFAN)) ]; do
		if [ "$i" -lt "$NBG" ]; then v="load=$bgl"; else v="query_rate=$qr"; fi
		sets="$sets --set workloads.$i.transport=$1 --set workloads.$i.$v"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086  # sets and EXTRA are lists of words on purpose
	build/sharebuf compare "$CFG" --schemes sih,dsh --seed "$SEED" --jobs 1 \
		--set topology.leaves="$LEAVES" --set topology.spines="$SPINES" \
		--set topology.links_per_spine="$LINKS" \
		--set run.arrivals_ms="$ARR" --set run.duration_ms="$DUR" \
		$sets $EXTRA --out "$OUT/$1/bg$2" --quiet >/dev/null
}
# JOBS compares at once, each running its two schemes one after the other (--jobs 1).
pids="" n=0 fail=0
for cc in $CCS; do
	for bg in $LOADS; do
		run_point "$cc" "$bg" &
		pids="$pids $!"
		n=$((n + 1))
		if [ "$n" -ge "$JOBS" ]; then
			for p in $pids; do wait "$p" || fail=1; done
			pids="" n=0
		fi
	done
done
for p in $pids; do wait "$p" || fail=1; done
[ "$fail" = 0 ] || { echo "dsh fig14: a run failed (see the messages above)" >&2; exit 1; }
echo "dsh fig14: simulations done in $(( $(date +%s) - start )) s" >&2
fi

# ---- extract. FCT = fct_ns of flows.csv; fan-in = kind incast, background = kind background.
# Averages are over the flows that completed in BOTH runs (matched by flow id, start, size),
# as the paper's harness does; p99 = nearest rank over the same set.
stats() { # dir -> "bg_mean bg_p99 fan_mean fan_p99 bg_n fan_n unmatched" for sih then dsh
	awk -F, '
	FNR == 1 { file++; for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["fct_ns"] == "" { next }
	{ key = $c["flow_id"] "," $c["start_ns"] "," $c["size_bytes"]
	  if (file == 1) { s[key] = $c["fct_ns"]; k[key] = $c["kind"] } else if (key in s) { d[key] = $c["fct_ns"] } }
	END {
		for (key in d) { kk = (k[key] == "incast") ? "f" : "b"; n[kk]++
			ss[kk, n[kk]] = s[key]; dd[kk, n[kk]] = d[key]; ms[kk] += s[key]; md[kk] += d[key] }
		for (i = 1; i <= 2; i++) { kk = (i == 1) ? "b" : "f"
			printf "%.3f %.3f %.3f %.3f %d ", ms[kk] / n[kk] / 1000, md[kk] / n[kk] / 1000,
				p99(ss, kk, n[kk]) / 1000, p99(dd, kk, n[kk]) / 1000, n[kk] }
		print ""
	}
	function p99(a, kk, m,   v, i, j, t, r) {
		for (i = 1; i <= m; i++) v[i] = a[kk, i] + 0
		# insertion sort is too slow for 10^4 values: use a simple heap-free shell sort
		for (g = int(m / 2); g > 0; g = int(g / 2))
			for (i = g + 1; i <= m; i++) { t = v[i]; for (j = i; j > g && v[j - g] > t; j -= g) v[j] = v[j - g]; v[j] = t }
		r = int(0.99 * m); if (r < 0.99 * m) r++
		return v[r]
	}' "$1/sih/flows.csv" "$1/dsh/flows.csv"
}
# Counters of one run: pause frames (queue-level), port-level pause frames, total paused time of
# upstream (port, class) pairs in ms, lossless drops, flows completed, flows started.
counters() { # run dir
	for k in '"pause_frames"' '"port_pause_frames"' '"total"' '"lossless"' '"flows_completed"' '"flows_started"'; do
		case $k in
		'"total"') # the first "total" after "paused_time_us", in us
			v=$(sed -n '/"paused_time_us"/,/"total"/s/.*"total": \([0-9.]*\).*/\1/p' "$1/summary.json" | head -1)
			v=$(awk -v u="$v" 'BEGIN { printf "%.3f", u / 1000 }') ;;
		*) v=$(sed -n "s/.*$k: \([0-9]*\).*/\1/p" "$1/summary.json" | head -1) ;;
		esac
		printf "%s " "${v:-0}"
	done
}

CSV="$OUT/fig14.csv"
echo "cc,bg_load,fanin_load,bg_mean_ratio,bg_p99_ratio,fan_mean_ratio,fan_p99_ratio,sih_bg_mean_us,dsh_bg_mean_us,sih_bg_p99_us,dsh_bg_p99_us,bg_flows,sih_fan_mean_us,dsh_fan_mean_us,sih_fan_p99_us,dsh_fan_p99_us,fan_flows,sih_pause_frames,dsh_pause_frames,sih_port_pause_frames,dsh_port_pause_frames,sih_paused_ms,dsh_paused_ms,sih_lossless_drops,dsh_lossless_drops,sih_done,dsh_done,started" > "$CSV"
for cc in $CCS; do
	for bg in $LOADS; do
		d="$OUT/$cc/bg$bg"
		[ -f "$d/sih/summary.json" ] && [ -f "$d/dsh/summary.json" ] || { echo "dsh fig14: $d incomplete" >&2; exit 1; }
		echo "$cc $bg $(stats "$d") $(counters "$d/sih") $(counters "$d/dsh")" | awk -v t=$TOTAL '{
			printf "%s,%s,%.1f,%.3f,%.3f,%.3f,%.3f,%s,%s,%s,%s,%d,%s,%s,%s,%s,%d,%d,%d,%d,%d,%.3f,%.3f,%d,%d,%d,%d,%d\n",
				$1, $2, t - $2, $4 / $3, $6 / $5, $9 / $8, $11 / $10, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
				$13, $19, $14, $20, $15, $21, $16, $22, $17, $23, $18 }' >> "$CSV"
	done
done

# ---- diagnostics (REPORT.md, "why background does not improve"): background mean FCT ratio per
# size bin, CNPs, and how long sender NICs had the fan-in class (1) and the background classes
# (2..7) paused (pfc_paused.csv rows h*).
bins() { # dir -> ratio per bin: < 100 KB, 100 KB - 1 MB, 1 - 5 MB, >= 5 MB
	awk -F, '
	FNR == 1 { file++; for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kind"] != "background" || $c["fct_ns"] == "" { next }
	{ key = $c["flow_id"] "," $c["start_ns"] "," $c["size_bytes"]
	  if (file == 1) { s[key] = $c["fct_ns"]; next }
	  if (!(key in s)) next
	  z = $c["size_bytes"]; b = (z < 100000) ? 1 : (z < 1000000) ? 2 : (z < 5000000) ? 3 : 4
	  ms[b] += s[key]; md[b] += $c["fct_ns"]; n[b]++ }
	END { for (b = 1; b <= 4; b++) printf "%.3f (%d) ", n[b] ? md[b] / ms[b] : 0, n[b] }' "$1/sih/flows.csv" "$1/dsh/flows.csv"
}
nicpause() { # run dir -> "fan-in_ms background_ms" paused at the hosts' NICs
	awk -F, 'NR > 1 && $1 ~ /^h/ { if ($4 == 1) f += $6; else b += $6 } END { printf "%.1f %.1f", f / 1000, b / 1000 }' "$1/pfc_paused.csv"
}
cnps() { sed -n 's/.*"cnps": \([0-9]*\).*/\1/p' "$1/summary.json" | head -1; }
DIAG="$OUT/diagnostics.md"
echo "cc,bg_load,r_lt100k,n_lt100k,r_100k_1m,n_100k_1m,r_1m_5m,n_1m_5m,r_ge5m,n_ge5m,sih_cnps,dsh_cnps,sih_nic_fanin_ms,dsh_nic_fanin_ms,sih_nic_bg_ms,dsh_nic_bg_ms" > "$OUT/diagnostics.csv"
for cc in $CCS; do
	for bg in $LOADS; do
		d="$OUT/$cc/bg$bg"
		echo "$cc $bg $(bins "$d") $(cnps "$d/sih") $(cnps "$d/dsh") $(nicpause "$d/sih") $(nicpause "$d/dsh")" |
			awk '{ gsub(/[()]/, ""); printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%d,%.1f,%.1f,%.1f,%.1f\n",
				$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $15, $14, $16 }'
	done
done >> "$OUT/diagnostics.csv"
{
	echo "| transport | bg load | bg mean DSH/SIH by size (flows): < 100 KB | 100 KB-1 MB | 1-5 MB | >= 5 MB | CNPs SIH / DSH | NIC fan-in class paused, ms SIH / DSH | NIC background classes paused, ms SIH / DSH |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %d / %d | %.1f / %.1f | %.1f / %.1f |\n",
		$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16 }' "$OUT/diagnostics.csv"
} > "$DIAG"

# the paper's best points (paper.tsv: "-31.1 %" -> 0.689)
paper() { awk -F'\t' -v k="$1" '$1 == k { v = $2; sub(/^−/, "-", v); sub(/ %$/, "", v); printf "%.3f", 1 + v / 100 }' $EXP/paper.tsv; }
gnuplot <<EOF
set terminal pngcairo size 1100,520 font "Sans,10"
set datafile separator ","
set output "$OUT/fig14.png"
set multiplot layout 1,2 title "DSH Fig. 14 (reduced: ${LEAVES}x16 hosts, 100G, 16 MiB, total load 0.9, classes $CLASSES): mean FCT, DSH / SIH"
set xlabel "background load (fan-in = 0.9 - background)"
set ylabel "mean FCT normalised to SIH"
set grid
set yrange [0:1.6]
set xrange [0.1:0.9]
set key bottom left box opaque
set title "background (web search) flows"
plot 1 with lines dt 2 lc rgb "gray" notitle, \
     "$CSV" using (strcol(1) eq "powertcp" ? \$2 : 1/0):4 with linespoints pt 7 lw 2 lc rgb "#d62728" title "PowerTCP", \
     "" using (strcol(1) eq "dcqcn" ? \$2 : 1/0):4 with linespoints pt 5 lw 2 lc rgb "#1f77b4" title "DCQCN", \
     $(paper f14.powertcp.bg) with lines dt 3 lw 1.5 lc rgb "#d62728" title "paper: PowerTCP, best point", \
     $(paper f14.dcqcn.bg) with lines dt 3 lw 1.5 lc rgb "#1f77b4" title "paper: DCQCN, best point"
set title "fan-in (16 x 64 KiB) flows"
plot 1 with lines dt 2 lc rgb "gray" notitle, \
     "$CSV" using (strcol(1) eq "powertcp" ? \$2 : 1/0):6 with linespoints pt 7 lw 2 lc rgb "#d62728" title "PowerTCP", \
     "" using (strcol(1) eq "dcqcn" ? \$2 : 1/0):6 with linespoints pt 5 lw 2 lc rgb "#1f77b4" title "DCQCN", \
     $(paper f14.powertcp.fan) with lines dt 3 lw 1.5 lc rgb "#d62728" title "paper: PowerTCP, best point", \
     $(paper f14.dcqcn.fan) with lines dt 3 lw 1.5 lc rgb "#1f77b4" title "paper: DCQCN, best point"
unset multiplot
EOF

# the tables: results.md, and each table alone for REPORT.md
{
	echo "| transport | bg load | fan-in load | bg mean | bg p99 | fan-in mean | fan-in p99 | bg mean SIH / DSH (us) | fan-in mean SIH / DSH (us) | flows bg / fan-in |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %.1f / %.1f | %.1f / %.1f | %d / %d |\n",
		$1, $2, $3, $4, $5, $6, $7, $8, $9, $13, $14, $12, $17 }' "$CSV"
} > "$OUT/table-fct.md"
{
	echo "| transport | bg load | PAUSE frames | port-level | paused (ms) | lossless drops | completed / started |"
	echo "|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %d / %d | %d / %d | %.1f / %.1f | %d / %d | %d / %d of %d |\n",
		$1, $2, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28 }' "$CSV"
} > "$OUT/table-pfc.md"
{
	echo "# DSH Fig. 14 (reduced): measured results"
	echo
	echo "Run: \`sh $EXP/run-fig14.sh\`; ${LEAVES} leaves x 16 hosts, $SPINES spines x $LINKS links, 100 Gb/s, 2 us links,"
	echo "16 MiB per switch; arrivals $ARR ms, run $DUR ms; seed $SEED; classes $CLASSES ($CFG)${EXTRA:+; extra: $EXTRA}."
	echo
	echo "FCT over the flows completed under both schemes. Ratio = DSH / SIH (< 1: DSH better)."
	echo
	cat "$OUT/table-fct.md"
	echo
	echo "PFC and losses (SIH / DSH): queue-level PAUSE frames, port-level PAUSE frames, total paused time"
	echo "of upstream (port, class) pairs, lossless drops, flows completed of started."
	echo
	cat "$OUT/table-pfc.md"
	echo
	echo "Diagnostics (see REPORT.md): background mean FCT ratio per flow size, DCQCN CNPs, and the time"
	echo "sender NICs had the fan-in class and the background classes paused (sum over hosts)."
	echo
	cat "$DIAG"
} > "$OUT/results.md"

cat "$OUT/results.md"
echo "plot: $OUT/fig14.png (total $(( $(date +%s) - start )) s)" >&2
[ -n "${PLOT_ONLY:-}" ] || run_meta "$OUT" "$( [ "$CLASSES" = harness ] && printf 'CLASSES=harness ')sh $EXP/run-fig14.sh" "$start"
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
