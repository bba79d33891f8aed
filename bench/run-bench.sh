#!/bin/sh
# make bench: run a benchmark scenario (default bench/reference.cfg) on one core and append the
# measured wall time, peak RSS, events/s and packet-hops/s, plus the scenario's headline
# metrics, to BENCHMARKS.md. A benchmark, not a test: it asserts nothing, it records.
# COMMIT=ID labels the row when the binary is not a build of HEAD.
set -e
BIN=${1:-build/sharebuf}
CFG=${2:-bench/reference.cfg}
OUT=$(mktemp -d /tmp/sharebuf-bench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
# pin to one core when taskset exists (util-linux): the target is single-core speed
PIN=""
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"
$PIN "$BIN" run "$CFG" --out "$OUT" > "$OUT/stdout.txt"
cat "$OUT/stdout.txt"
line=$(grep '^resources:' "$OUT/stdout.txt")
wall=$(echo "$line" | sed -n 's/^resources: \([0-9.]*\) s wall.*/\1/p')
rss=$(echo "$line" | sed -n 's/.*peak RSS \([0-9.]*\) MB.*/\1/p')
evs=$(echo "$line" | sed -n 's/.* events (\([0-9.]*\) M\/s).*/\1/p')
hops=$(echo "$line" | sed -n 's/.* packet-hops (\([0-9.]*\) M\/s).*/\1/p')
# headline metrics from the human summary (no JSON tool needed on a fresh machine)
row() { awk -v name="$1" -v col="$2" '$1 == name { print $col; exit }' "$OUT/stdout.txt"; }
events=$(echo "$line" | sed -n 's/.*peak RSS [0-9.]* MB, \([0-9]*\) events.*/\1/p')
phops=$(echo "$line" | sed -n 's/.*), \([0-9]*\) packet-hops.*/\1/p')
inc_mean=$(row incast 3); inc_p99=$(row incast 6); short_p99=$(row short 7)
drops=$(sed -n 's/^drops: \([0-9]*\).*/\1/p' "$OUT/stdout.txt")
ldrops=$(sed -n 's/^drops: .*lossless \([0-9]*\)).*/\1/p' "$OUT/stdout.txt")
pauses=$(sed -n 's/^PFC: \([0-9]*\) pause.*/\1/p' "$OUT/stdout.txt")
flows=$(sed -n 's/^flows: [0-9]* started, \([0-9]*\) completed.*/\1/p' "$OUT/stdout.txt")
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo "-")} # COMMIT=: the build measured, when not HEAD
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
bench_row=$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s | %s |' \
	"$(date -u +%Y-%m-%d)" "$commit" "$(basename "$CFG")" "$wall" "$rss" "$events" "$evs" "$phops" "$hops" \
	"$flows" "$inc_mean" "$inc_p99" "$short_p99" "$drops" "$ldrops" "$pauses" "$cpu")
rowfile=$(mktemp)
echo "$bench_row" > "$rowfile"
sh bench/table-append.sh BENCHMARKS.md 'Runs of `make bench` (appended)' \
	'| date | commit | scenario | wall s | peak RSS MB | events | M events/s | packet-hops | M packet-hops/s | flows done | incast slowdown mean/p99 | short p99 | drops | lossless drops | PFC pauses | CPU |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|' "$rowfile"
rm -f "$rowfile"
echo "appended to BENCHMARKS.md"
