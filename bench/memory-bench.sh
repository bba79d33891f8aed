#!/bin/sh
# bench/memory-bench.sh: the peak RSS of the paper-scale Reverie run (Reverie NSDI'24 §4.1,
# Fig. 7's 80 % point with the DT baseline: sonic + policy dt, as experiments/reverie/run.sh
# --full sets it: 16 leaves, 2 queries/s per host, ARRIVALS_MS of arrivals + DRAIN_MS), with
# the binary given, appended to bench/results/memory.tsv (BENCHMARKS.md, "Memory at paper
# scale", shows the latest). A benchmark: it
# asserts nothing, it records. ARRIVALS_MS=200 makes a shorter run (about 30 s).
#   sh bench/memory-bench.sh [BINARY] [LABEL]
set -e
BIN=${1:-build/sharebuf}
LABEL=${2:-$(git rev-parse --short HEAD 2>/dev/null || echo -)}
ARR=${ARRIVALS_MS:-2000}
DRAIN=${DRAIN_MS:-100}
DUR=$(awk -v a="$ARR" -v d="$DRAIN" 'BEGIN { print a + d }')
OUT=$(mktemp -d /tmp/sharebuf-membench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
"$BIN" run experiments/reverie/reverie.cfg --seed 1 --out "$OUT" \
	--set switch.scheme=sonic --set switch.sonic.policy=dt --set workloads.0.load=0.8 \
	--set topology.leaves=16 --set workloads.1.query_rate=2 \
	--set run.arrivals_ms="$ARR" --set run.duration_ms="$DUR" > "$OUT/stdout.txt"
cat "$OUT/stdout.txt"
line=$(grep '^resources:' "$OUT/stdout.txt")
wall=$(echo "$line" | sed -n 's/^resources: \([0-9.]*\) s wall.*/\1/p')
rss=$(echo "$line" | sed -n 's/.*peak RSS \([0-9.]*\) MB.*/\1/p')
started=$(sed -n 's/^flows: \([0-9]*\) started.*/\1/p' "$OUT/stdout.txt")
done_=$(sed -n 's/^flows: [0-9]* started, \([0-9]*\) completed.*/\1/p' "$OUT/stdout.txt")
csv=$(du -k "$OUT/flows.csv" | cut -f1)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
row=$(printf '%s\t%s\t%s + %s\t%s\t%s\t%s\t%s\t%s\t%s' "$(date -u +%Y-%m-%d)" "$LABEL" "$ARR" "$DRAIN" "$wall" \
	"$rss" "$started" "$done_" "$csv" "$cpu")
echo "$row" > "$OUT/row.txt"
sh bench/results-append.sh memory \
	"$(printf 'date\tbuild\tarrivals + drain ms\twall s\tpeak RSS MB\tflows started\tflows completed\tflows.csv KB\tCPU')" \
	"$OUT/row.txt"
