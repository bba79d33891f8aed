#!/bin/sh
# make bench-scaling (and, at 25 Gb/s only, make bench): the cost of a packet-hop as the
# network grows. Runs bench/scaling.cfg at 256, 1,024 and 4,096 hosts (leaf-spines of 16, 64
# and 256 leaves), 8,192 hosts (a k = 32 fat-tree) and 16,384 hosts (1,024 leaves), at each
# link rate given (Gb/s), and appends a row per run to bench/results/scaling.tsv (BENCHMARKS.md,
# "Scaling with the topology", shows the latest). A
# benchmark, not a test: it asserts nothing, it records.
#
# Every host offers the same traffic at every size, and the duration shrinks with the rate
# (3 ms at 25 Gb/s) so that it sends as many packets at every rate. Sizes below 4,096 hosts are
# run several times (seeds 1, 2, ...) for as many packets as 4,096 hosts send once, so that
# their times are long enough to measure. The cost is CPU time (user + system, from the
# shell's `times`: the machine is shared, and waiting for a core is not the simulator's cost)
# over packet-hops, everything of a run included (building the network, writing outputs).
# Beside the rows it records the machine's memory latency by working-set size (build/mem-latency,
# next to BINARY; skipped with a note when it is not built): the ratio to 256 hosts depends on
# what a cache line costs from memory as much as on the code.
#
# usage: sh bench/run-scaling.sh [BINARY] [RATES] [LABEL]
#   BINARY  default build/sharebuf
#   RATES   space-separated Gb/s, default "25 100 400"
#   LABEL   what the rows call the binary, default the short commit id
set -e
BIN=${1:-build/sharebuf}
RATES=${2:-25 100 400}
LABEL=${3:-$(git rev-parse --short HEAD 2>/dev/null || echo "-")}
CFG=bench/scaling.cfg
OUT=$(mktemp -d /tmp/sharebuf-scaling.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
PIN=""
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"

# CPU seconds used so far by this shell's finished children: the second line of `times`
# ("XmY.YYs XmY.YYs": user, system), which must run in this shell itself (a pipe or $(...)
# would ask a new process, whose children are none).
child_cpu() {
	times > "$OUT/times.txt"
	awk 'NR == 2 { split($0, f, /[ms ]+/); printf "%.6f\n", f[1] * 60 + f[2] + f[3] * 60 + f[4] }' "$OUT/times.txt" > "$OUT/cpu.txt"
}

# one size at one rate: NAME HOSTS HOPS_PER_PATH --set arguments...
measure() {
	name=$1 hosts=$2 rate=$3
	shift 3
	reps=$((4096 / hosts))
	[ "$reps" -ge 1 ] || reps=1
	dur=$(awk -v r="$rate" 'BEGIN { printf "%.6g", 3.0 * 25 / r }')
	kmin=$(awk -v r="$rate" 'BEGIN { printf "%.0f", 2600 * r }')
	hops=0 events=0 wall=0 rss=0 cpu=0
	i=1
	while [ "$i" -le "$reps" ]; do
		child_cpu
		before=$(cat "$OUT/cpu.txt")
		$PIN "$BIN" run "$CFG" "$@" --set topology.host_rate_gbps="$rate" --set topology.fabric_rate_gbps="$rate" \
			--set switch.ecn_kmin_bytes="$kmin" --set switch.ecn_kmax_bytes="$kmin" \
			--set run.duration_ms="$dur" --seed "$i" --out "$OUT/run" > "$OUT/stdout.txt"
		child_cpu
		after=$(cat "$OUT/cpu.txt")
		line=$(grep '^resources:' "$OUT/stdout.txt")
		w=$(echo "$line" | sed -n 's/^resources: \([0-9.]*\) s wall.*/\1/p')
		r=$(echo "$line" | sed -n 's/.*peak RSS \([0-9.]*\) MB.*/\1/p')
		e=$(echo "$line" | sed -n 's/.*peak RSS [0-9.]* MB, \([0-9]*\) events.*/\1/p')
		h=$(echo "$line" | sed -n 's/.*), \([0-9]*\) packet-hops.*/\1/p')
		eval "$(awk -v h="$hops" -v e="$events" -v w="$wall" -v c="$cpu" -v r="$rss" \
			-v dh="$h" -v de="$e" -v dw="$w" -v b="$before" -v a="$after" -v dr="$r" 'BEGIN {
			printf "hops=%.0f events=%.0f wall=%.6f cpu=%.6f rss=%s\n", h + dh, e + de, w + dw, c + a - b, (dr + 0 > r + 0 ? dr : r) }')"
		i=$((i + 1))
	done
	awk -v name="$name" -v hosts="$hosts" -v rate="$rate" -v reps="$reps" -v hops="$hops" -v events="$events" \
		-v wall="$wall" -v cpu="$cpu" -v rss="$rss" 'BEGIN {
		printf "%s %s %s %d %.0f %.0f %.3f %.3f %.1f %.1f %.2f %.1f\n", name, hosts, rate, reps, hops, events, cpu, wall,
			cpu / hops * 1e9, wall / hops * 1e9, events / cpu / 1e6, rss }' >> "$OUT/rows.txt"
	tail -n 1 "$OUT/rows.txt"
}

LAT=$(dirname "$BIN")/mem-latency
[ -x "$LAT" ] && $PIN "$LAT" 1 4 16 64 256 > "$OUT/latency-before.txt"

echo "topology hosts Gb/s runs packet-hops events cpu_s wall_s ns/hop(cpu) ns/hop(wall) Mevents/cpu-s RSS_MB"
for rate in $RATES; do
	measure leafspine-16x16 256 "$rate" --set topology.leaves=16
	measure leafspine-64x16 1024 "$rate" --set topology.leaves=64
	measure leafspine-256x16 4096 "$rate" --set topology.leaves=256
	measure fattree-k32 8192 "$rate" --set topology.type=fattree --set topology.k=32
	measure leafspine-1024x16 16384 "$rate" --set topology.leaves=1024
done

commit=$(git rev-parse --short HEAD 2>/dev/null || echo "-")
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
# the ratio to the 256-host row of the same rate
awk -v date="$(date -u +%Y-%m-%d)" -v label="$LABEL" -v cpu_model="$cpu_model" '
	{ rows[NR] = $0; if ($2 == 256) base[$3] = $9 }
	END { for (i = 1; i <= NR; i++) { split(rows[i], f, " ")
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\n", date, label, f[1], f[2], f[3], f[4],
			f[5], f[9], base[f[3]] ? f[9] / base[f[3]] : 0, f[10], f[11], f[12], cpu_model } }' "$OUT/rows.txt" > "$OUT/table.txt"
sh bench/results-append.sh scaling \
	"$(printf 'date\tbinary\ttopology\thosts\tGb/s\truns\tpacket-hops\tns per packet-hop (CPU)\t× 256 hosts\tns per packet-hop (wall)\tM events per CPU-s\tpeak RSS MB\tCPU')" \
	"$OUT/table.txt"
echo "binary $LABEL, tree at $commit"

# What one dependent load costs on this machine from working sets around the runs' sizes (the
# 256-host run holds about 10 MB, the 16,384-host one about 100 MB), before the runs and after
# them: on a shared machine it moves by several times within minutes, and the runs between the
# two rows paid whatever it was.
if [ -x "$LAT" ]; then
	$PIN "$LAT" 1 4 16 64 256 > "$OUT/latency.txt"
	awk -v date="$(date -u +%Y-%m-%d)" -v label="$LABEL" -v cpu_model="$cpu_model" '
		FNR == 1 { f++ } { ns[f, FNR] = $2 }
		END { for (i = 1; i <= 2; i++)
			printf "%s\t%s (%s the runs)\t%s\t%s\t%s\t%s\t%s\t%s\n", date, label, i == 1 ? "before" : "after",
				ns[i, 1], ns[i, 2], ns[i, 3], ns[i, 4], ns[i, 5], cpu_model }' \
		"$OUT/latency-before.txt" "$OUT/latency.txt" > "$OUT/latency-row.txt"
	cat "$OUT/latency-row.txt"
	sh bench/results-append.sh mem-latency \
		"$(printf 'date\tbinary\tns per load, 1 MB set\t4 MB\t16 MB\t64 MB\t256 MB\tCPU')" "$OUT/latency-row.txt"
else
	echo "bench/run-scaling.sh: no $LAT (make $LAT): the machine's memory latency is not recorded" >&2
fi
