#!/bin/sh
# make bench-misses: second-level cache misses per packet-hop, counted by cachegrind's cache
# simulation, so that a change to the hot structs can be judged by a number that does not move
# with the machine's load (CPU time on this shared machine moves by 10-20 % from one run to the
# next; a miss count is the same for the same binary and scenario). The last level is set to
# one core's L2 of this machine (1 MB, 8-way): at 16,384 hosts the simulation's state outlives
# it, and an L2 miss per touched line is what makes a packet-hop cost more than at 256 hosts.
# Cachegrind ignores prefetch instructions, so the count is of lines touched, not of stalls: a
# prefetch is judged by CPU time, a smaller footprint by this. A benchmark, not a test: it
# asserts nothing, it records.
#
# Appends a row per size to bench/results/misses.tsv (BENCHMARKS.md, "Cache misses per
# packet-hop", shows the latest).
#
# usage: sh bench/cache-misses.sh [BINARY] [HOSTS...] [-- LABEL]
#   BINARY  default build/sharebuf
#   HOSTS   leaf-spine sizes of bench/scaling.cfg (16 hosts per leaf), default "256 16384"
#   LABEL   what the rows call the binary, default the short commit id
# Each size runs 1 ms of simulated time at 25 Gb/s: about 2 minutes at 256 hosts and 10 at
# 16,384 under cachegrind.
set -e
BIN=${1:-build/sharebuf}
[ $# -gt 0 ] && shift
SIZES=""
LABEL=$(git rev-parse --short HEAD 2>/dev/null || echo "-")
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; LABEL=${1:-$LABEL}; break ;;
	*) SIZES="$SIZES $1" ;;
	esac
	shift
done
[ -n "$SIZES" ] || SIZES="256 16384"
command -v valgrind >/dev/null 2>&1 || { echo "cache-misses.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
OUT=$(mktemp -d /tmp/sharebuf-misses.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
for hosts in $SIZES; do
	case $hosts in
	*[!0-9]* | "") echo "cache-misses.sh: a size is a number of hosts, not '$hosts'" >&2; exit 2 ;;
	esac
	if [ $((hosts % 16)) -ne 0 ] || [ "$hosts" -lt 32 ]; then
		echo "cache-misses.sh: $hosts hosts is not a leaf-spine of 16 hosts per leaf (at least 2 leaves)" >&2
		exit 2
	fi
	leaves=$((hosts / 16))
	valgrind --tool=cachegrind --cache-sim=yes --LL=1048576,8,64 --cachegrind-out-file="$OUT/cg.out" \
		"$BIN" run bench/scaling.cfg --set topology.leaves="$leaves" --set run.duration_ms=1 \
		--out "$OUT/run" --quiet > "$OUT/log.txt" 2>&1
	hops=$(sed -n 's/.*"packet_hops": *\([0-9]*\).*/\1/p' "$OUT/run/summary.json")
	# the totals line of cg_annotate: the counts in the order of its "Events shown" line
	misses=$(cg_annotate --show=DLmr,DLmw "$OUT/cg.out" 2>/dev/null |
		awk '/PROGRAM TOTALS/ { gsub(",", ""); gsub(/\([^)]*\)/, ""); print $1 + $2; exit }')
	reads=$(cg_annotate --show=D1mr,D1mw "$OUT/cg.out" 2>/dev/null |
		awk '/PROGRAM TOTALS/ { gsub(",", ""); gsub(/\([^)]*\)/, ""); print $1 + $2; exit }')
	awk -v d="$(date -u +%Y-%m-%d)" -v l="$LABEL" -v h="$hosts" -v p="$hops" -v m="$misses" -v r="$reads" -v c="$cpu" 'BEGIN {
		printf "%s\t%s\t%s\t1\t%s\t%s\t%.2f\t%.2f\t%s\n", d, l, h, p, m, m / p, r / p, c }' >> "$OUT/rows.txt"
	tail -n 1 "$OUT/rows.txt"
done
sh bench/results-append.sh misses \
	"$(printf 'date\tbinary\thosts\tms simulated\tpacket-hops\tL2 misses (1 MB)\tL2 misses per packet-hop\tL1 misses per packet-hop\tCPU')" \
	"$OUT/rows.txt"
echo "binary $LABEL"
