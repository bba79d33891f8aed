#!/bin/sh
# Reverie (NSDI'24) Figs. 7, 8 and 10, reduced: PFC pauses, RDMA incast and TCP short-flow
# slowdowns for DT, ABM (both in the SONiC pool model) and Reverie, and Reverie's gamma sweep.
#
#   sh experiments/reverie/run.sh          # reduced: 4 leaves x 16 hosts, 200 ms of arrivals (about 3 min on 2 idle cores)
#   sh experiments/reverie/run.sh --full   # the paper's 16 leaves, 2 s of arrivals, 2 queries/s (hours; not run here)
#
# Fig. 7:  RDMA (DCQCN) 2 MB incast + TCP Cubic web-search, TCP load 20/40/60/80 %.
# Fig. 8:  the same at 80 % TCP load, RDMA burst 0.5/1/1.5/2 MB (2 MB = Fig. 7's 80 % point).
# Fig. 10: Reverie only, RDMA web-search 80 % + 2 MB RDMA incast, gamma swept, with
#          switch.reverie.pause_on_full_pool on (our default) and off (the artifact's rule);
#          DT and ABM once each as reference.
# Scheme names used here: dt, abm (switch.scheme = sonic, sonic.policy = dt / abm), reverie, and
# reverie-art (reverie with pause_on_full_pool = false).
#
# Environment overrides: LOADS="20 80" BURSTS="500000 2000000" GAMMAS="0.9 0.999"
# SCHEMES="dt abm reverie" FIGS="7 10" SEED=2 ARRIVALS_MS=100 DRAIN_MS=100 QUERY_RATE=10
# LEAVES=4 JOBS=2 OUT=out/elsewhere EXTRA="--set KEY=VALUE ..." (more sharebuf options, every run).
# PLOT_ONLY=1 skips the simulations and re-extracts the tables and plots from existing outputs.
# NOREPORT=1 leaves experiments/reverie/REPORT.md alone.
# Results: out/experiments/reverie/{results.csv,results.md,fig7.png,fig8.png,fig10.png,meta.tsv}
# (--full: out/experiments/reverie-full/); raw runs in <that directory>/fig*/<point>/<scheme>/.
# At the end report.sh rewrites experiments/reverie/REPORT.md from out/experiments/reverie.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/reverie
# the command as run, with the environment overrides that change the outputs (meta.tsv)
CMD="sh $EXP/run.sh${1:+ $1}"
for v in EXTRA ARRIVALS_MS DRAIN_MS QUERY_RATE LEAVES LOADS BURSTS GAMMAS SCHEMES FIGS SEED JOBS OUT; do
	eval "val=\${$v:-}"
	# shellcheck disable=SC2154  # val is set by eval
	[ -z "$val" ] || case $val in *' '*) CMD="$v=\"$val\" $CMD" ;; *) CMD="$v=$val $CMD" ;; esac
done
MODE=reduced
DEFAULT_OUT=out/experiments/reverie
ARR=${ARRIVALS_MS:-200}
QR=${QUERY_RATE:-10}
NL=${LEAVES:-4}
if [ "${1:-}" = "--full" ]; then
	MODE=full
	DEFAULT_OUT=out/experiments/reverie-full
	ARR=${ARRIVALS_MS:-2000}
	QR=${QUERY_RATE:-2}
	NL=${LEAVES:-16}
elif [ -n "${1:-}" ]; then
	echo "usage: sh $EXP/run.sh [--full]" >&2
	exit 2
fi
OUT=${OUT:-$DEFAULT_OUT}
DRAIN=${DRAIN_MS:-100}   # web-search flows of up to 30 MB need tens of ms after the last arrival
DUR=$(awk -v a="$ARR" -v d="$DRAIN" 'BEGIN { print a + d }')
LOADS=${LOADS:-"20 40 60 80"}
BURSTS=${BURSTS:-"500000 1000000 1500000 2000000"}
GAMMAS=${GAMMAS:-"0 0.8 0.9 0.99 0.999 0.999999"}
SCHEMES=${SCHEMES:-"dt abm reverie reverie-art"}
FIGS=${FIGS:-"7 8 10"}
SEED=${SEED:-1}
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
B=2560000   # buffer of every switch (bytes): occupancy is given in % of it

for v in "$ARR" "$DRAIN" "$QR" "$NL" "$SEED" "$JOBS"; do
	case $v in
	'' | *[!0-9.]*) echo "run.sh: not a non-negative number: '$v'" >&2; exit 2 ;;
	esac
done
[ "$JOBS" -ge 1 ] 2>/dev/null || { echo "run.sh: JOBS must be an integer >= 1" >&2; exit 2; }
for s in $SCHEMES; do
	case $s in dt | abm | reverie | reverie-art) ;;
	*) echo "run.sh: unknown scheme '$s' (dt, abm, reverie, reverie-art)" >&2; exit 2 ;;
	esac
done

make -s
sh tools/install-deps.sh gnuplot-nox
mkdir -p "$OUT"

has_fig() { case " $FIGS " in *" $1 "*) return 0 ;; esac; return 1; }

scheme_args() { # scheme -> sharebuf options
	case $1 in
	dt) echo "--set switch.scheme=sonic --set switch.sonic.policy=dt" ;;
	abm) echo "--set switch.scheme=sonic --set switch.sonic.policy=abm" ;;
	reverie) echo "--set switch.scheme=reverie" ;;
	reverie-art) echo "--set switch.scheme=reverie --set switch.reverie.pause_on_full_pool=false" ;;
	esac
}
RDMA_WEB="--set workloads.0.transport=dcqcn --set workloads.0.prio=3 --set workloads.0.class=lossless"

# ---- job list: one line per run, "outdir options..."; Fig. 8's 2 MB point is Fig. 7's 80 % one
JOBLIST="$OUT/jobs.txt"
: > "$JOBLIST"
job() { echo "$*" >> "$JOBLIST"; }
if has_fig 7 || has_fig 8; then
	pts=""
	has_fig 7 && for l in $LOADS; do pts="$pts $l:2000000"; done
	has_fig 8 && for b in $BURSTS; do
		case " $pts " in *" 80:$b "*) ;; *) pts="$pts 80:$b" ;; esac
	done
	for p in $pts; do
		l=${p%:*}; b=${p#*:}
		load=$(awk -v l="$l" 'BEGIN { print l / 100 }')
		for s in $SCHEMES; do
			job "$OUT/mixed/load$l-burst$b/$s $(scheme_args "$s") --set workloads.0.load=$load" \
				"--set workloads.1.size_bytes=$b"
		done
	done
fi
if has_fig 10; then
	for g in $GAMMAS; do
		for s in reverie reverie-art; do
			job "$OUT/fig10/gamma$g/$s $(scheme_args $s) --set switch.reverie.gamma=$g $RDMA_WEB"
		done
	done
	for s in dt abm; do
		job "$OUT/fig10/ref/$s $(scheme_args $s) $RDMA_WEB"
	done
fi

start=$(date +%s)
if [ -z "${PLOT_ONLY:-}" ]; then
	n=$(wc -l < "$JOBLIST")
	echo "reverie: $MODE run, $n runs on $JOBS lanes: $NL leaves x 16 hosts, arrivals $ARR ms" \
		"(+$DRAIN ms drain), $QR queries/s/host, seed $SEED, figs [$FIGS]${EXTRA:+, extra: $EXTRA}" >&2
	# JOBS lanes, each running every JOBS-th run one after the other (POSIX sh has no job pool).
	rm -f "$OUT"/.lane*.failed
	lane=0
	while [ "$lane" -lt "$JOBS" ]; do
		(
			awk -v j="$JOBS" -v l="$lane" '(NR - 1) % j == l' "$JOBLIST" | while read -r dir args; do
				# shellcheck disable=SC2086  # args and EXTRA are lists of words on purpose
				build/sharebuf run "$EXP/reverie.cfg" --seed "$SEED" --quiet --out "$dir" \
					--set run.arrivals_ms="$ARR" --set run.duration_ms="$DUR" \
					--set topology.leaves="$NL" --set workloads.1.query_rate="$QR" \
					$args $EXTRA || { echo "reverie: run failed: $dir" >&2; touch "$OUT/.lane$lane.failed"; }
			done
		) &
		lane=$((lane + 1))
	done
	wait
	if ls "$OUT"/.lane*.failed >/dev/null 2>&1; then
		echo "reverie: a run failed (see the messages above)" >&2
		exit 1
	fi
	echo "reverie: simulations done in $(( $(date +%s) - start )) s" >&2
	echo "$(( $(date +%s) - start ))" > "$OUT/sim_seconds.txt"
fi

# ---- extract one row per run into results.csv
p99() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print 0; exit }
	k = int(0.99 * NR); if (k < 0.99 * NR) k++; print v[k] }'; }
ARR_NS=$(awk -v a="$ARR" 'BEGIN { printf "%.0f", a * 1e6 }')

metrics() { # rundir -> pauses,paused_ms,incast_mean,incast_p99,qct_mean,qct_p99,short_p99,short_n,
	#              rdma_occ_p99_pct,tcp_occ_p99_pct,lossy_drops,lossless_drops,queries,queries_done,unfinished
	d=$1
	[ -f "$d/summary.json" ] || { echo "reverie: missing $d/summary.json (run without PLOT_ONLY)" >&2; exit 1; }
	sp=$(awk -F, 'NR > 1 && $7 == "background" && $4 < 100000 { print $12 }' "$d/flows.csv" | p99)
	sn=$(awk -F, 'NR > 1 && $7 == "background" && $4 < 100000' "$d/flows.csv" | wc -l)
	ro=$(awk -F, -v t="$ARR_NS" 'NR > 1 && $1 < t { print $4 }' "$d/occupancy.csv" | p99)
	to=$(awk -F, -v t="$ARR_NS" 'NR > 1 && $1 < t { print $3 }' "$d/occupancy.csv" | p99)
	awk -f "$EXP/summary.awk" "$d/summary.json" | awk -v sp="$sp" -v sn="$sn" -v ro="$ro" -v to="$to" -v b="$B" '
		{ v[$1] = $2 }
		END { printf "%d,%.3f,%.3f,%.3f,%.4f,%.4f,%.3f,%d,%.1f,%.1f,%d,%d,%d,%d,%d\n",
			v["pfc.pause_frames"], v["pfc.paused_time_us.total"] / 1000,
			v["fct_slowdown.incast.mean"], v["fct_slowdown.incast.p99"],
			v["qct_slowdown.mean"], v["qct_slowdown.p99"], sp, sn, 100 * ro / b, 100 * to / b,
			v["drops.lossy"], v["drops.lossless"], v["queries_started"], v["queries_completed"],
			v["flows_unfinished"] }'
}

RES="$OUT/results.csv"
echo "fig,x,scheme,pauses,paused_ms,incast_mean,incast_p99,qct_mean,qct_p99,short_p99,short_n,rdma_occ_p99_pct,tcp_occ_p99_pct,lossy_drops,lossless_drops,queries,queries_done,unfinished" > "$RES"
if has_fig 7; then
	for l in $LOADS; do for s in $SCHEMES; do
		echo "7,$l,$s,$(metrics "$OUT/mixed/load$l-burst2000000/$s")" >> "$RES"
	done; done
fi
if has_fig 8; then
	for b in $BURSTS; do for s in $SCHEMES; do
		echo "8,$b,$s,$(metrics "$OUT/mixed/load80-burst$b/$s")" >> "$RES"
	done; done
fi
if has_fig 10; then
	for g in $GAMMAS; do for s in reverie reverie-art; do
		echo "10,$g,$s,$(metrics "$OUT/fig10/gamma$g/$s")" >> "$RES"
	done; done
	for s in dt abm; do echo "10,ref,$s,$(metrics "$OUT/fig10/ref/$s")" >> "$RES"; done
fi

# Fig. 10: whether pause_on_full_pool changed anything (flows.csv of the flag on and off identical)
if has_fig 10; then
	for g in $GAMMAS; do
		if cmp -s "$OUT/fig10/gamma$g/reverie/flows.csv" "$OUT/fig10/gamma$g/reverie-art/flows.csv"; then
			echo "$g same"
		else
			echo "$g differ"
		fi
	done > "$OUT/flag_same.txt"
fi

# ---- tables
MD="$OUT/results.md"
awk -F, -v mode="$MODE" -v arr="$ARR" -v drain="$DRAIN" -v qr="$QR" -v nl="$NL" -v seed="$SEED" \
	-v extra="$EXTRA" -f "$EXP/tables.awk" "$RES" > "$MD"

# ---- plots
sh "$EXP/plot.sh" "$OUT" "$MODE" "$NL" "$ARR"

cat "$MD"
echo >&2
echo "reverie: done in $(( $(date +%s) - start )) s; $RES, $MD, plots $OUT/fig*.png" >&2
if [ -z "${PLOT_ONLY:-}" ]; then
	echo "$MODE" > "$OUT/mode.txt"
	run_meta "$OUT" "$CMD" "$start"
fi
[ -n "${NOREPORT:-}" ] || sh $EXP/report.sh
