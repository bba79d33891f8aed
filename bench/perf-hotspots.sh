#!/bin/sh
# Where a large network's CPU time goes: `perf record` of bench/scaling.cfg at one size, and the
# functions with the largest shares of samples (after inlining: link_arrive holds the switch's
# receive path, cmd_run the event loop) appended to bench/results/hotspots.tsv, one row per
# function (BENCHMARKS.md, "Hot spots", shows the latest binary's). Needs perf
# (Debian: linux-perf, `sh tools/install-deps.sh linux-perf`). A benchmark, not a test.
#
# usage: sh bench/perf-hotspots.sh [BINARY] [LEAVES] [DURATION_MS] [TOP] [LABEL]
#   defaults: build/sharebuf, 1024 leaves (16,384 hosts), 1 ms, 10 functions, the short commit id
set -e
BIN=${1:-build/sharebuf} LEAVES=${2:-1024} DUR=${3:-1} TOP=${4:-10}
LABEL=${5:-$(git rev-parse --short HEAD 2>/dev/null || echo "-")}
command -v perf >/dev/null 2>&1 || { echo "perf-hotspots.sh: perf is not installed (linux-perf)" >&2; exit 1; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
OUT=$(mktemp -d /tmp/sharebuf-perf.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
perf record -q -o "$OUT/perf.data" "$BIN" run bench/scaling.cfg --set topology.leaves="$LEAVES" \
	--set run.duration_ms="$DUR" --out "$OUT/run" --quiet > /dev/null 2>&1
perf report -i "$OUT/perf.data" --stdio --no-children --sort symbol 2>/dev/null |
	awk -v d="$(date -u +%Y-%m-%d)" -v l="$LABEL" -v hosts=$((LEAVES * 16)) -v dur="$DUR" -v top="$TOP" -v cpu="$cpu" '
	/^ *[0-9.]+%/ && n < top { pct = $1; sym = $NF; for (i = 1; i <= NF; i++) if ($i == "[.]" || $i == "[k]") sym = $(i + 1)
		sub(/\.lto_priv\.[0-9]+/, "", sym); sub(/\.lto_priv\.[0-9]+/, "", sym); sub(/\.isra\.[0-9]+/, "", sym)
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d, l, hosts, dur, sym, pct, cpu; n++ }' > "$OUT/rows.txt"
cat "$OUT/rows.txt"
sh bench/results-append.sh hotspots \
	"$(printf 'date\tbinary\thosts\tms simulated\tfunction\tshare of CPU samples\tCPU')" "$OUT/rows.txt"
