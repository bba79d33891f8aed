#!/bin/sh
# Paired A/B runs for a change meant to lower the cost per packet-hop on large networks
# (BENCHMARKS.md, "Scaling with the topology"). On a shared machine the CPU time of one run
# moves by tens of percent with the load of the other processes (their caches are ours), so
# two runs measured minutes apart say little about a change of a few percent. Here the two
# binaries run at the same time, one on each of cores 0 and 1 (swapped every pair), so both
# see the same load; each pair gives the ratio of their CPU time per packet-hop. A benchmark,
# not a test: it asserts nothing, it records, one row per pair, in bench/results/pairs.tsv
# (BENCHMARKS.md, "Paired runs", shows the latest).
#
# usage: sh bench/run-pairs.sh BASE_BIN BASE_LABEL NEW_BIN NEW_LABEL [LEAVES] [DURATION_MS] [PAIRS] [SCENARIO]
#   LEAVES       leaves of bench/scaling.cfg (16 hosts each), default 1024 (16,384 hosts);
#                "-" runs SCENARIO as it is
#   DURATION_MS  simulated time, default 1; "-" keeps SCENARIO's
#   PAIRS        default 4
#   SCENARIO     default bench/scaling.cfg
set -e
[ $# -ge 4 ] || { echo "usage: sh bench/run-pairs.sh BASE_BIN BASE_LABEL NEW_BIN NEW_LABEL [LEAVES] [DURATION_MS] [PAIRS] [SCENARIO]" >&2; exit 2; }
BASE=$1 BLABEL=$2 NEW=$3 NLABEL=$4 LEAVES=${5:-1024} DUR=${6:-1} PAIRS=${7:-4} CFG=${8:-bench/scaling.cfg}
SETS=""
[ "$LEAVES" = - ] || SETS="--set topology.leaves=$LEAVES"
[ "$DUR" = - ] || SETS="$SETS --set run.duration_ms=$DUR"
OUT=$(mktemp -d /tmp/sharebuf-pairs.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

# one run: BIN NAME CORE; leaves NAME.ns (CPU ns per packet-hop, from /usr/bin/time's user + system)
one() {
	# shellcheck disable=SC2086 # SETS is a list of words
	/usr/bin/time -f "%U %S" -o "$OUT/$2.time" taskset -c "$3" "$1" run "$CFG" $SETS --out "$OUT/$2.run" > "$OUT/$2.stdout"
	h=$(sed -n 's/.*), \([0-9]*\) packet-hops.*/\1/p' "$OUT/$2.stdout")
	awk -v h="$h" '{ printf "%.1f\n", ($1 + $2) / h * 1e9 }' "$OUT/$2.time" > "$OUT/$2.ns"
}

if [ "$LEAVES" = - ]; then HOSTS=$(basename "$CFG"); else HOSTS=$((LEAVES * 16)); fi
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
: > "$OUT/rows.txt"
i=1
while [ "$i" -le "$PAIRS" ]; do
	if [ $((i % 2)) = 1 ]; then cb=0 cn=1; else cb=1 cn=0; fi
	one "$BASE" base "$cb" & pb=$!
	one "$NEW" new "$cn" & pn=$!
	wait "$pb"; wait "$pn"
	b=$(cat "$OUT/base.ns") n=$(cat "$OUT/new.ns")
	load=$(cut -d ' ' -f 1 /proc/loadavg)
	awk -v d="$(date -u +%Y-%m-%d)" -v bl="$BLABEL" -v nl="$NLABEL" -v hosts="$HOSTS" -v dur="$DUR" \
		-v b="$b" -v n="$n" -v load="$load" -v cpu="$cpu_model" 'BEGIN {
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t%s\t%s\n", d, bl, nl, hosts, dur, b, n, n / b, load, cpu }' \
		| tee -a "$OUT/rows.txt"
	i=$((i + 1))
done
sh bench/results-append.sh pairs \
	"$(printf 'date\tbase\tnew\thosts (or scenario)\tms simulated\tbase ns per packet-hop (CPU)\tnew ns per packet-hop (CPU)\tnew / base\tload average\tCPU')" \
	"$OUT/rows.txt"
