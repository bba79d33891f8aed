#!/bin/sh
# DSH (Shan et al., ICDCS'23) Fig. 12: deadlock avoidance. A 2-spine x 4-leaf leaf-spine with the
# links S0-L3 and S1-L0 failed; four Poisson fan-in groups (L0 -> L3, L3 -> L0, L1 -> L2, L2 -> L1,
# Hadoop sizes, load 0.5) close the cyclic buffer dependency S0 -> L1 -> S1 -> L2 -> S0. Each run
# lasts 100 ms; its deadlock onset is the first cycle of paused queues the PFC deadlock detector
# finds (src/net/deadlock.c: every queue paused >= 1 ms). Paper: SIH deadlocks in every run, DSH
# avoids 96 % of deadlocks with DCQCN and 100 % with PowerTCP.
#
#   sh experiments/dsh/run-fig12.sh
#
# SIH and DSH under DCQCN and PowerTCP, RUNS seeds each (fig12.cfg has the scenario).
# Environment overrides: RUNS=100 (seeds per series; default 100, as the paper), SEED0=1 (first
# seed), CCS="dcqcn" (subset; rdma = no congestion control), JOBS=2 (runs at a time),
# DURATION_MS=100 (the cap), OUT=out/else, EXTRA="--set switch.sih.ports=0" (more sharebuf options,
# for the sensitivity runs of run-variants.sh), PLOT_ONLY=1 (re-extract the tables and the plot
# from existing runs), NOREPORT=1 (do not rewrite REPORT.md).
# Results: out/experiments/dsh/fig12/{results.md,fig12.csv,fig12.png}; raw runs in
# <that directory>/<cc>/<scheme>/s<seed>/ (summary.json, deadlocks.csv, pfc.csv, ...). Then
# report.sh rewrites experiments/dsh/REPORT.md. See README.md.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
[ $# -eq 0 ] || { echo "usage: sh $EXP/run-fig12.sh (settings through the environment, see the header)" >&2; exit 2; }
OUT=${OUT:-out/experiments/dsh/fig12}
RUNS=${RUNS:-100}
SEED0=${SEED0:-1}
CCS=${CCS:-"dcqcn powertcp"}
JOBS=${JOBS:-2}
CAP=${DURATION_MS:-100}
SCHEMES="sih dsh"
LAST=$((SEED0 + RUNS - 1))

make -s
sh tools/install-deps.sh gnuplot-nox
start=$(date +%s)
if [ -z "${PLOT_ONLY:-}" ]; then
	rm -rf "$OUT"
	mkdir -p "$OUT"
	echo "dsh fig12: $RUNS runs (seeds $SEED0..$LAST) x {$SCHEMES} x {$CCS}, $CAP ms each, $JOBS at a time${EXTRA:+, extra: $EXTRA}" >&2
	# One line per run, JOBS runs at a time. pfc.log off: a deadlocked SIH run logs every PAUSE of
	# a PFC storm, and the detector does not need the log.
	# shellcheck disable=SC2016  # the inner script expands its own arguments
	for cc in $CCS; do
		for s in $SCHEMES; do
			seed=$SEED0
			while [ "$seed" -le "$LAST" ]; do
				echo "$cc $s $seed"
				seed=$((seed + 1))
			done
		done
	done | xargs -n 3 -P "$JOBS" sh -c '
		# $1 scenario, $2 cap (ms), $3 output root, $4 extra options (split on purpose), then the
		# line: $5 transport, $6 scheme, $7 seed
		build/sharebuf run "$1" --quiet --set switch.scheme="$6" --set workloads.0.transport="$5" \
			--seed "$7" --set run.duration_ms="$2" --set run.arrivals_ms="$2" --set pfc.log=false \
			$4 --out "$3/$5/$6/s$7" >/dev/null' run "$EXP/fig12.cfg" "$CAP" "$OUT" "${EXTRA:-}"
fi

# ---- one row per run
# summary.json: first_deadlock_us (null without deadlock), deadlocks, pause_frames,
# port_pause_frames, paused_time_us.total, drops lossless, flows started / completed.
counters() { # run dir -> "onset_us deadlocks pauses port_pauses paused_ms lossless started completed"
	awk '
		/"first_deadlock_us"/ { v = $2; sub(/,$/, "", v); onset = v }
		/"deadlocks"/ && !dl { v = $2; sub(/,$/, "", v); dl = v }
		/"pause_frames"/ && !pf { v = $2; sub(/,$/, "", v); pf = v + 0; pfs = 1 }
		/"port_pause_frames"/ { v = $2; sub(/,$/, "", v); ppf = v }
		/"paused_time_us"/ { inpt = 1 }
		inpt && /"total"/ { v = $2; sub(/,$/, "", v); pt = v / 1000; inpt = 0 }
		/"lossless"/ && !ll { v = $2; sub(/,$/, "", v); ll = v + 0; lls = 1 }
		/"flows_started"/ { v = $2; sub(/,$/, "", v); st = v }
		/"flows_completed"/ { v = $2; sub(/,$/, "", v); co = v }
		END { printf "%s %d %d %d %.3f %d %d %d", onset, dl, pf, ppf, pt, ll, st, co }' "$1/summary.json"
}
# The cycle of the earliest deadlock as switch names in wait order (ports and priority left out),
# rotated to start at spine0 so that one cycle reads the same in every run: "spine0>leaf1>..."
cycle() {
	awk -F, 'NR > 1 && (best == "" || $1 + 0 < best + 0) { best = $1; c = $4 }
		END { n = split(c, m, " > "); r = 1
		      for (i = 1; i <= n; i++) { split(m[i], f, ":"); name[i] = f[1]; if (f[1] == "spine0") r = i }
		      for (i = 0; i < n; i++) printf "%s%s", i ? ">" : "", name[(r - 1 + i) % n + 1] }' "$1/deadlocks.csv"
}

CSV="$OUT/fig12.csv"
echo "cc,scheme,seed,deadlocked,onset_ms,deadlocks,cycle,pause_frames,port_pause_frames,paused_ms,lossless_drops,flows_started,flows_completed" > "$CSV"
for cc in $CCS; do
	for s in $SCHEMES; do
		seed=$SEED0
		while [ "$seed" -le "$LAST" ]; do
			d="$OUT/$cc/$s/s$seed"
			[ -f "$d/summary.json" ] || { echo "dsh fig12: $d has no summary.json" >&2; exit 1; }
			echo "$cc $s $seed $(counters "$d") $(cycle "$d")" | awk -v cap="$CAP" '{
				dead = $4 != "null"
				printf "%s,%s,%s,%d,%.3f,%d,%s,%d,%d,%.3f,%d,%d,%d\n", $1, $2, $3, dead,
					dead ? $4 / 1000 : cap, $5, dead ? $12 : "", $6, $7, $8, $9, $10, $11 }' >> "$CSV"
			seed=$((seed + 1))
		done
	done
done

# ---- CDF of the onset per series: runs without deadlock sit at the cap (the paper's convention)
for cc in $CCS; do
	for s in $SCHEMES; do
		awk -F, -v cc="$cc" -v s="$s" 'NR > 1 && $1 == cc && $2 == s { print $5 }' "$CSV" | sort -n |
			awk '{ x[NR] = $1 } END { print 0, 0; for (i = 1; i <= NR; i++) print x[i], i / NR }' \
			> "$OUT/cdf_${cc}_$s.dat"
	done
done

title() { case $1 in dcqcn) echo "DCQCN" ;; powertcp) echo "PowerTCP" ;; rdma) echo "no CC" ;; *) echo "$1" ;; esac; }
{
	echo 'set terminal pngcairo size 900,560 font "Sans,10"'
	echo "set output \"$OUT/fig12.png\""
	echo "set title \"DSH Fig. 12 (reduced): CDF of deadlock onset, $RUNS runs per series; runs without deadlock at the $CAP ms cap\""
	echo 'set xlabel "deadlock onset time (ms)"; set ylabel "CDF (fraction of runs)"'
	echo "set xrange [0:$CAP * 1.06]; set yrange [0:1.02]; set grid; set key top left box opaque"
	echo "set arrow 1 from $CAP, graph 0 to $CAP, graph 1 nohead dt 3 lc rgb \"gray\""
	echo "set label 1 \"cap\" at $CAP, graph 0.5 offset 0.5, 0"
	echo "set label 2 \"paper: SIH deadlocks in every run; DSH in 4 % (DCQCN), 0 % (PowerTCP)\" at graph 0.30, graph 0.2 font \",9\""
	printf 'plot '
	sep=""
	for cc in $CCS; do
		for s in $SCHEMES; do
			case $s in sih) col='#1f77b4' ;; *) col='#d62728' ;; esac
			case $cc in dcqcn) dt=1 ;; *) dt=2 ;; esac
			name=$(echo "$s" | tr '[:lower:]' '[:upper:]')
			dead=$(awk -F, -v cc="$cc" -v s="$s" 'NR > 1 && $1 == cc && $2 == s { n++; k += $4 }
				END { printf "%d of %d runs deadlock", k, n }' "$CSV")
			printf '%s"%s" using 1:2 with steps lw 2 dt %s lc rgb "%s" title "%s, %s: %s"' "$sep" \
				"$OUT/cdf_${cc}_$s.dat" "$dt" "$col" "$name" "$(title "$cc")" "$dead"
			sep=", "
		done
	done
	echo
} | gnuplot

# ---- tables
{
	echo "# DSH Fig. 12 (reduced): measured results"
	echo
	if [ -n "${PLOT_ONLY:-}" ]; then took="tables re-extracted from earlier runs"; else took="$(( $(date +%s) - start )) s"; fi
	echo "Run: \`sh $EXP/run-fig12.sh\` ($EXP/fig12.cfg), seeds $SEED0..$LAST, $CAP ms per run, $took.${EXTRA:+ Extra options: \`$EXTRA\`.}"
	echo "Deadlock = a cycle of PFC-paused, backlogged egress queues, each paused for >= 1 ms (pfc.deadlock_persist_us);"
	echo "onset = when the last queue of the cycle paused. Runs without deadlock count at the $CAP ms cap."
	echo
	echo "| CC | scheme | runs | deadlocked | avoided | paper: avoided | onset min / median / max (ms, deadlocked runs) | PAUSE frames per run (mean) | port-level PAUSE | lossless drops |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for cc in $CCS; do
		for s in $SCHEMES; do
			case $cc$s in dcqcnsih | powertcpsih) paper="0 %" ;; dcqcndsh) paper="96 %" ;; powertcpdsh) paper="100 %" ;; *) paper="-" ;; esac
			awk -F, -v cc="$cc" -v ccname="$(title "$cc")" -v s="$s" -v paper="$paper" 'NR > 1 && $1 == cc && $2 == s {
					n++; pf += $8; ppf += $9; ll += $11
					if ($4) { k++; o[k] = $5 + 0 } }
				END {
					for (i = 2; i <= k; i++) { v = o[i]; for (j = i - 1; j > 0 && o[j] > v; j--) o[j + 1] = o[j]; o[j + 1] = v }
					med = k ? (k % 2 ? o[(k + 1) / 2] : (o[k / 2] + o[k / 2 + 1]) / 2) : 0
					printf "| %s | %s | %d | %d | %.0f %% | %s | %s | %.0f | %d | %d |\n", ccname, toupper(s), n, k,
						100 * (n - k) / n, paper, k ? sprintf("%.1f / %.1f / %.1f", o[1], med, o[k]) : "-",
						pf / n, ppf, ll }' "$CSV"
		done
	done
	echo
	echo "Cycles of the first deadlock of each deadlocked run (switches in wait order, from spine0):"
	echo
	echo "| CC | scheme | cycle | runs |"
	echo "|---|---|---|---|"
	awk -F, 'NR > 1 && $4 { c[($1 == "dcqcn" ? "DCQCN" : $1 == "powertcp" ? "PowerTCP" : $1 == "rdma" ? "no CC" : $1) " | " toupper($2) " | " $7]++ }
		END { for (k in c) printf "| %s | %d |\n", k, c[k] }' "$CSV" | sort
} > "$OUT/results.md"

cat "$OUT/results.md"
echo "plot: $OUT/fig12.png (total $(( $(date +%s) - start )) s)" >&2
[ -n "${PLOT_ONLY:-}" ] || run_meta "$OUT" "sh $EXP/run-fig12.sh" "$start"
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
