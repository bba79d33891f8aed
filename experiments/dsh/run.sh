#!/bin/sh
# DSH (Shan et al., ICDCS'23) Fig. 11: PFC avoidance, SIH vs DSH.
#
#   sh experiments/dsh/run.sh
#
# A single 32 x 100 Gb/s switch with 16 MiB; two line-rate background flows into port 31, then
# a 16:1 fan-in burst of x % of the buffer into port 30 (line-rate CBR, no congestion control).
# The burst sweeps 0..100 % in 10 % steps; then each scheme's knee (largest burst without any
# PAUSE at a fan-in sender) is refined by bisection to 0.5 % of the buffer.
# Metric: total pause duration of the 16 fan-in senders (pfc_paused.csv, rows h2..h17).
# Results go to out/experiments/dsh/ (results.md, fig11.csv, fig11.png, meta.tsv); then
# report.sh rewrites experiments/dsh/REPORT.md from every DSH figure's outputs. See README.md.
# Environment (run-variants.sh): START_MS (0.5, the burst's start), OUT, NOREPORT=1.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
OUT=${OUT:-out/experiments/dsh}
START_MS=${START_MS:-0.5}
SB=build/sharebuf
B=16777216          # buffer (bytes)
PAYLOAD=1452        # payload bytes of every 1500-byte frame (tcp.mss; header 48 B)

make -s
sh tools/install-deps.sh gnuplot-nox
# only this script's files: other figures keep their outputs below $OUT (fig13/, ...)
rm -rf "$OUT"/x[0-9]* "$OUT/knee" "$OUT/knees.txt" "$OUT/fig11.csv" "$OUT/results.md" "$OUT/fig11.png" "$OUT/meta.tsv"
mkdir -p "$OUT"
T0=$(date +%s)

# Burst given in permille of B, counted in bytes on the wire (what the buffer holds); each of the
# 16 senders sends its share as 1500-byte frames of 1452 payload bytes. 0 % sends one byte per
# sender (a 49-byte frame: size_bytes = 0 would mean an unbounded flow).
run_point() { # permille outdir
	size=$(awk -v p="$1" -v b=$B -v pl=$PAYLOAD 'BEGIN { s = int(p / 1000 * b / 16 * pl / 1500 + 0.5); print s ? s : 1 }')
	$SB compare "$EXP/fig11.cfg" --schemes sih,dsh --jobs 2 --quiet --out "$2" \
		--set workloads.1.size_bytes="$size" --set workloads.1.start_ms="$START_MS" >/dev/null
}

# Per scheme: "fanin_paused_us senders_paused bg_paused_us pause_frames port_pause_frames drops done"
metrics() { # dir scheme
	d="$1/$2"
	awk -F, 'NR > 1 && $1 ~ /^h([2-9]|1[0-7])$/ { t += $6; n++ }
		 NR > 1 && $1 ~ /^h[01]$/ { bg += $6 }
		 END { printf "%.3f %d %.3f", t, n, bg }' "$d/pfc_paused.csv"
	for k in '"pause_frames"' '"port_pause_frames"' '"lossless"' '"flows_completed"'; do
		printf " %s" "$(sed -n "s/.*$k: \([0-9]*\).*/\1/p" "$d/summary.json" | head -1)"
	done
	echo
}

paused() { metrics "$1" "$2" | awk '{ print ($2 > 0) }'; }

echo "Fig. 11: burst 0..100 % of the buffer, SIH and DSH" >&2
echo "burst_pct,sih_pause_ms,dsh_pause_ms,sih_senders_paused,dsh_senders_paused,sih_bg_pause_ms,dsh_bg_pause_ms,sih_frames,dsh_frames,sih_port_frames,dsh_port_frames,sih_drops,dsh_drops,sih_done,dsh_done" \
	> "$OUT/fig11.csv"
for x in 0 10 20 30 40 50 60 70 80 90 100; do
	run_point $((x * 10)) "$OUT/x$x"
	s=$(metrics "$OUT/x$x" sih)
	d=$(metrics "$OUT/x$x" dsh)
	echo "$x $s $d" | awk '{ printf "%d,%.6f,%.6f,%d,%d,%.6f,%.6f,%d,%d,%d,%d,%d,%d,%d,%d\n",
		$1, $2 / 1000, $9 / 1000, $3, $10, $4 / 1000, $11 / 1000, $5, $12, $6, $13, $7, $14, $8, $15 }' \
		>> "$OUT/fig11.csv"
done

# Knees: bisection between the last pause-free and the first paused grid point, to 5 permille.
knee() { # scheme
	lo=$(awk -F, -v c="$2" 'NR > 1 && $c == 0 { x = $1 } END { print x * 10 }' "$OUT/fig11.csv")
	hi=$(awk -F, -v c="$2" 'NR > 1 && $c > 0 && !h { h = $1 } END { print h * 10 }' "$OUT/fig11.csv")
	while [ $((hi - lo)) -gt 5 ]; do
		mid=$(((lo + hi) / 2))
		run_point "$mid" "$OUT/knee/$1$mid"
		if [ "$(paused "$OUT/knee/$1$mid" "$1")" = 0 ]; then lo=$mid; else hi=$mid; fi
	done
	echo "$1 $lo $hi"
}
mkdir -p "$OUT/knee"
knee sih 4 > "$OUT/knees.txt"
knee dsh 5 >> "$OUT/knees.txt"

# -------------------------------------------------------------------------------------------
KS=$(awk '$1 == "sih" { printf "%.1f", $2 / 10 }' "$OUT/knees.txt")
KD=$(awk '$1 == "dsh" { printf "%.1f", $2 / 10 }' "$OUT/knees.txt")
gnuplot <<EOF
set terminal pngcairo size 900,560 font "Sans,11"
set datafile separator ","
set output "$OUT/fig11.png"
set title "DSH Fig. 11: PFC avoidance (16:1 fan-in on a 32 x 100G switch, 16 MiB, 2 background flows)"
set xlabel "burst size (% of the buffer)"
set ylabel "total pause duration of the fan-in senders (ms)"
set key top left box opaque
set grid
set xrange [-2:102]
set xtics 10
set arrow from 10, graph 0 to 10, graph 1 nohead dt 3 lc rgb "#1f77b4"
set arrow from 40, graph 0 to 40, graph 1 nohead dt 3 lc rgb "#d62728"
set label "paper: SIH knee about 10 %\nours: no PAUSE up to $KS %" at 11, graph 0.62 tc rgb "#1f77b4"
set label "paper: DSH knee 40 %\nours: no PAUSE up to $KD %" at 41, graph 0.45 tc rgb "#d62728"
plot "$OUT/fig11.csv" every ::1 using 1:2 with linespoints pt 7 ps 1.2 lw 2 lc rgb "#1f77b4" title "SIH, sharebuf", \
     "" every ::1 using 1:3 with linespoints pt 5 ps 1.2 lw 2 lc rgb "#d62728" title "DSH, sharebuf"
EOF

{
	echo "# DSH Fig. 11: measured results"
	echo
	echo "Run: \`sh $EXP/run.sh\` (burst at $START_MS ms), $(date -u '+%Y-%m-%d %H:%M UTC'), $(( $(date +%s) - T0 )) s."
	echo
	echo "Burst = % of the 16 MiB buffer in bytes on the wire, split over 16 senders (1500-byte frames)."
	echo "Pause = total time the 16 fan-in senders were paused (sum over pfc_paused.csv rows h2..h17)."
	echo
	echo "| burst (% of B) | SIH pause (ms) | DSH pause (ms) | SIH senders paused | DSH senders paused | SIH / DSH PAUSE frames | port-level frames (SIH / DSH) | lossless drops (SIH / DSH) | fan-in flows done (SIH / DSH) |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %d | %.3f | %.3f | %d | %d | %d / %d | %d / %d | %d / %d | %d / %d |\n",
		$1, $2, $3, $4, $5, $8, $9, $10, $11, $12, $13, $14, $15 }' "$OUT/fig11.csv"
	echo
	echo "Background senders' pause (ms), SIH / DSH:"
	awk -F, 'NR > 1 { printf "%s%d %%: %.3f / %.3f", (NR > 2 ? "; " : ""), $1, $6, $7 } END { print "" }' "$OUT/fig11.csv"
	echo
	echo "## Knee: largest burst without any PAUSE at a fan-in sender (bisection to 0.5 %)"
	echo
	echo "| scheme | no PAUSE up to | first PAUSE at | paper | fluid model (README.md) |"
	echo "|---|---|---|---|---|"
	awk '{ printf "| %s | %.1f %% | %.1f %% | %s | %s |\n", toupper($1), $2 / 10, $3 / 10,
		($1 == "sih" ? "~10 %" : "40 %"), ($1 == "sih" ? "9.8-10.0 %" : "39.0-40.0 %") }' "$OUT/knees.txt"
	awk 'NR == 1 { s = $2 } NR == 2 { d = $2 } END { printf "\nDSH / SIH pause-free burst: %.2fx (paper: over 4x; fluid 4.0x)\n", d / s }' \
		"$OUT/knees.txt"
} > "$OUT/results.md"

cat "$OUT/results.md"
echo "plot: $OUT/fig11.png" >&2
run_meta "$OUT" "sh $EXP/run.sh" "$T0"
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
