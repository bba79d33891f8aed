#!/bin/sh
# bench/flowlist-bench.sh: a flow list of LINES lines (default 2·10^7, the length the scale
# issue asked to run) through the default scenario's network, with the binary given; its wall
# time, peak RSS and flow counts are appended to bench/results/flowlist.tsv (BENCHMARKS.md, "Long
# flow lists", shows the latest). The list is
# read as the run goes (docs/workloads.md §2), so the peak RSS should not depend on LINES: run
# it with LINES=2000000 too to see that. A benchmark: it asserts nothing, it records.
#
# The list: one 1000-byte DCTCP flow every STEP_US (default 0.25) microseconds, in start order,
# from host i mod 32 to host (i + 8) mod 32 (another rack of the default 4 × 8 leaf-spine), so
# about 32 Gb/s offered to a network of 32 hosts at 25 Gb/s: every flow finishes.
#   sh bench/flowlist-bench.sh [BINARY] [LABEL]
set -e
BIN=${1:-build/sharebuf}
LABEL=${2:-$(git rev-parse --short HEAD 2>/dev/null || echo -)}
LINES=${LINES:-20000000}
STEP_US=${STEP_US:-0.25}
OUT=$(mktemp -d /tmp/sharebuf-flowlist.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
awk -v n="$LINES" -v step="$STEP_US" 'BEGIN {
	print "start_us,src,dst,size_bytes,priority,transport"
	for (i = 0; i < n; i++) printf "%.2f,%d,%d,1000,1,dctcp\n", i * step, i % 32, (i + 8) % 32 }' > "$OUT/list.csv"
list_mb=$(du -m "$OUT/list.csv" | cut -f1)
dur_ms=$(awk -v n="$LINES" -v step="$STEP_US" 'BEGIN { printf "%.3f", n * step / 1000 + 5 }')
printf 'workloads = ( { type = "file"; path = "list.csv"; } );\nrun = { duration_ms = %s; sample_interval_us = 0.0; };\n' \
	"$dur_ms" > "$OUT/list.cfg"
"$BIN" run "$OUT/list.cfg" --out "$OUT/run" > "$OUT/stdout.txt"
cat "$OUT/stdout.txt"
line=$(grep '^resources:' "$OUT/stdout.txt")
wall=$(echo "$line" | sed -n 's/^resources: \([0-9.]*\) s wall.*/\1/p')
rss=$(echo "$line" | sed -n 's/.*peak RSS \([0-9.]*\) MB.*/\1/p')
started=$(sed -n 's/^flows: \([0-9]*\) started.*/\1/p' "$OUT/stdout.txt")
done_=$(sed -n 's/^flows: [0-9]* started, \([0-9]*\) completed.*/\1/p' "$OUT/stdout.txt")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%d)" "$LABEL" "$LINES" "$list_mb" "$wall" "$rss" \
	"$started" "$done_" "$cpu" > "$OUT/row.txt"
cat "$OUT/row.txt"
sh bench/results-append.sh flowlist \
	"$(printf 'date\tbuild\tlines\tlist MB\twall s\tpeak RSS MB\tflows started\tflows completed\tCPU')" "$OUT/row.txt"
