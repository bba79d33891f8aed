#!/bin/sh
# bench/dataplane-bench.sh: the speed of the software switch (build/sharebuf-switch, issue 13),
# appended to bench/results/dataplane.tsv (BENCHMARKS.md, "Software switch data plane", shows
# the latest). A benchmark: it asserts nothing, it
# records. Needs root (network namespaces). Two measurements:
#
#   forwarding  N hosts (default 4) in namespaces, each blasting 1514-byte UDP frames
#               (build/dp-udp blast) at the next host for SECONDS; every port is loaded in both
#               directions. The ports' shapers run at 100 Gb/s, far above what the hosts can
#               offer, so the switch's loop (and the CPU it shares with the hosts) is the
#               bottleneck. The blasters run at nice 10: on a machine of 2 cores, senders at
#               the switch's priority take most of the CPU (the switch then forwards half
#               as much, and the measure is of the load generator, not of the switch). Reported: frames delivered to the hosts' sockets per second (Mpps)
#               and as Gb/s of 1514-byte frames, and the switch's drops.
#   latency     idle RTT of a 64-byte UDP ping-pong (build/dp-udp ping, 2000 round trips, 1 ms
#               apart) through the switch, and through a direct veth pair between two
#               namespaces; the added latency is the difference of the medians (and of the
#               p99s). Measured with the switch's normal poll loop and with --busy-poll.
#
#   sudo sh bench/dataplane-bench.sh [BUILD] [SECONDS] [HOSTS]
set -e
BUILD=${1:-build}
SECONDS_=${2:-5}
N=${3:-4}
LABEL=$(git rev-parse --short HEAD 2>/dev/null || echo -)
[ "$(id -u)" = 0 ] || { echo "dataplane-bench: needs root (network namespaces)" >&2; exit 1; }
for c in ip ethtool; do command -v $c >/dev/null || { echo "dataplane-bench: $c missing (tools/install-deps.sh)" >&2; exit 1; }; done
[ -x "$BUILD/sharebuf-switch" ] && [ -x "$BUILD/dp-udp" ] || { echo "dataplane-bench: make all $BUILD/dp-udp first" >&2; exit 1; }
p="sbb$$"
OUT=$(mktemp -d /tmp/sharebuf-dpbench.XXXXXX)
swpid=""
cleanup() {
	set +e
	[ -n "$swpid" ] && kill "$swpid" 2>/dev/null && wait "$swpid" 2>/dev/null
	for i in $(seq 0 $((N - 1))); do
		ip netns pids "${p}h$i" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "${p}h$i" 2>/dev/null
		ip link del "${p}s$i" 2>/dev/null
	done
	rm -rf "$OUT"
}
trap 'st=$?; cleanup; exit $st' EXIT
trap 'exit 1' INT TERM
. "$(dirname "$0")/../testbed/hosts.sh"
ports=""
for i in $(seq 0 $((N - 1))); do
	sb_host_add "${p}h$i" "${p}s$i" "$i"
	ports="$ports --port ${p}s$i=$(sb_host_mac "$i")"
done
for i in $(seq 0 $((N - 1))); do for j in $(seq 0 $((N - 1))); do
	[ "$i" = "$j" ] || sb_host_arp "${p}h$i" "$j"
done; done
cat > "$OUT/bench.cfg" <<CFG
run: { seed = 1; duration_ms = 1.0; sample_interval_us = 0.0; };
topology: { type = "single"; hosts = $N; host_rate_gbps = 100.0; host_delay_us = 1.0; };
switch: { scheme = "dt"; buffer_bytes = 4000000; sched = "sp"; dt: { alpha = 8.0; }; };
workloads = ();
CFG

start_switch() { # $1: extra option
	# shellcheck disable=SC2086
	"$BUILD/sharebuf-switch" "$OUT/bench.cfg" $ports --out "$OUT/sw$2" $1 > "$OUT/sw$2.out" 2> "$OUT/sw$2.err" &
	swpid=$!
	for _ in $(seq 50); do grep -qs ready "$OUT/sw$2.out" && return 0; sleep 0.1; done
	echo "dataplane-bench: the switch did not start" >&2; cat "$OUT/sw$2.err" >&2; exit 1
}
stop_switch() { kill -TERM "$swpid"; wait "$swpid"; swpid=""; }

ping_rtt() { # $1 namespace, $2 address -> "p50 p99"
	ip netns exec "$3" "$BUILD/dp-udp" echo 7100 4 &
	e=$!
	sleep 0.3
	ip netns exec "$1" "$BUILD/dp-udp" ping "$2" 7100 2000 1000 | awk '{ print $2, $3 }'
	wait $e
}

# --- latency: direct veth pair, then through the switch (poll, busy poll) ---
direct=$(sh "$(dirname "$0")/veth-rtt.sh" "$BUILD")
start_switch "" lat
via=$(ping_rtt "${p}h0" 10.0.0.2 "${p}h1")
stop_switch
start_switch --busy-poll latbusy
via_busy=$(ping_rtt "${p}h0" 10.0.0.2 "${p}h1")
stop_switch
echo "idle RTT p50 p99 (us): direct $direct, via the switch $via, via the busy-polling switch $via_busy"

# --- forwarding: every host blasts at the next one ---
forward() { # $1: extra switch option, $2: tag -> "mpps gbps drop_pct"
	start_switch "$1" "fwd$2"
	sinks=""
	for i in $(seq 0 $((N - 1))); do
		ip netns exec "${p}h$i" "$BUILD/dp-udp" sink 7200 "$(awk -v s="$SECONDS_" 'BEGIN { print s + 1 }')" > "$OUT/sink$2.$i" &
		sinks="$sinks $!"
	done
	sleep 0.3
	for i in $(seq 0 $((N - 1))); do
		ip netns exec "${p}h$i" nice -n 10 "$BUILD/dp-udp" blast "10.0.0.$(((i + 1) % N + 1))" 7200 "$SECONDS_" > "$OUT/blast$2.$i" &
	done
	# shellcheck disable=SC2086
	wait $sinks
	stop_switch
	rx=$(cat "$OUT"/sink"$2".* | awk '{ s += $2 } END { print s }')
	fwd=$(sed -n '/"forwarded"/,/}/s/.*"pkts": \([0-9]*\).*/\1/p' "$OUT/swfwd$2/summary.json")
	dropped=$(sed -n '/"dropped"/,/}/s/.*"pkts": \([0-9]*\).*/\1/p' "$OUT/swfwd$2/summary.json" | head -1)
	awk -v rx="$rx" -v s="$SECONDS_" -v f="$fwd" -v d="$dropped" \
		'BEGIN { printf "%.3f %.2f %.2f\n", rx / s / 1e6, rx * 1514 * 8 / s / 1e9, (f + d) ? 100 * d / (f + d) : 0 }'
}
fw=$(forward "" "")
fw_busy=$(forward --busy-poll busy)
echo "forwarding (Mpps, Gb/s of 1514 B frames, % dropped): poll $fw, busy poll $fw_busy"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1 | sed 's/|/-/g')
ncpu=$(nproc)
row() { # mode fwd via
	set -- "$1" $2 $3
	mode=$1 mpps=$2 gbps=$3 drop=$4 vp50=$5 vp99=$6
	set -- $direct
	dp50=$1 dp99=$2
	printf '%s\t%s\t%s (%s cores)\t%s\t%s\t%s\t%s\t%s\t%s / %s\t%s / %s\t%s / %s\n' "$(date -u +%Y-%m-%d)" \
		"$LABEL" "$cpu" "$ncpu" "$mode" "$N" "$mpps" "$gbps" "$drop" "$vp50" "$vp99" "$dp50" "$dp99" \
		"$(awk -v a="$vp50" -v b="$dp50" 'BEGIN { printf "%.1f", a - b }')" \
		"$(awk -v a="$vp99" -v b="$dp99" 'BEGIN { printf "%.1f", a - b }')"
}
{ row poll "$fw" "$via"; row busy-poll "$fw_busy" "$via_busy"; } > "$OUT/rows.txt"
cat "$OUT/rows.txt"
sh bench/results-append.sh dataplane \
	"$(printf 'date\tbuild\tCPU\tloop\tports loaded\tMpps\tGb/s (1514 B frames)\t%% dropped\tRTT via switch p50 / p99 µs\tRTT direct veth p50 / p99 µs\tadded p50 / p99 µs')" \
	"$OUT/rows.txt"
