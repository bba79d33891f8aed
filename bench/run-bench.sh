#!/bin/sh
# make bench: run a benchmark scenario (default bench/reference.cfg) on one core and append the
# measured wall time, peak RSS, events/s and packet-hops/s, plus the scenario's headline
# metrics, to bench/results/bench.tsv (BENCHMARKS.md shows the latest: `make docs`). A benchmark,
# not a test: it asserts nothing, it records.
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
bench_row=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s / %s\t%s\t%s\t%s\t%s\t%s' \
	"$(date -u +%Y-%m-%d)" "$commit" "$(basename "$CFG")" "$wall" "$rss" "$events" "$evs" "$phops" "$hops" \
	"$flows" "$inc_mean" "$inc_p99" "$short_p99" "$drops" "$ldrops" "$pauses" "$cpu")
rowfile=$(mktemp)
echo "$bench_row" > "$rowfile"
sh bench/results-append.sh bench \
	"$(printf 'date\tcommit\tscenario\twall s\tpeak RSS MB\tevents\tM events/s\tpacket-hops\tM packet-hops/s\tflows done\tincast slowdown mean/p99\tshort p99\tdrops\tlossless drops\tPFC pauses\tCPU')" \
	"$rowfile"
rm -f "$rowfile"
