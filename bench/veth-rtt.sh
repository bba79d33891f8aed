#!/bin/sh
# bench/veth-rtt.sh [BUILD]: the idle round-trip time of a plain veth pair between two network
# namespaces, no switch between them: "p50 p99" in µs of a 64-byte UDP ping-pong (build/dp-udp,
# 2000 round trips 1 ms apart). The speed of the machine's own kernel networking, which every
# testbed number rides on: bench/dataplane-bench.sh subtracts it from the RTT through the
# switch, testbed/validate.sh records it beside its results. Needs root; removes what it made.
BUILD=${1:-build}
[ "$(id -u)" = 0 ] || { echo "veth-rtt: needs root (network namespaces)" >&2; exit 1; }
[ -x "$BUILD/dp-udp" ] || { echo "veth-rtt: make $BUILD/dp-udp first" >&2; exit 1; }
p="sbr$$"
cleanup() {
	for d in 0 1; do
		ip netns pids "${p}d$d" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "${p}d$d" 2>/dev/null
	done
}
trap 'st=$?; cleanup; exit $st' EXIT
trap 'exit 1' INT TERM
set -e
ip netns add "${p}d0"
ip netns add "${p}d1"
ip link add eth0 netns "${p}d0" type veth peer name eth0 netns "${p}d1"
for d in 0 1; do
	ip -n "${p}d$d" addr add "10.0.1.$((d + 1))/24" dev eth0
	ip -n "${p}d$d" link set eth0 up
	ip -n "${p}d$d" link set lo up
done
ip netns exec "${p}d1" "$BUILD/dp-udp" echo 7100 4 &
e=$!
sleep 0.3
ip netns exec "${p}d0" "$BUILD/dp-udp" ping 10.0.1.2 7100 2000 1000 | awk '{ print $2, $3 }'
wait $e
