#!/bin/sh
# dataplane-veth.sh BUILD DIR [SCHEME] — the software switch end to end, on real Linux stacks: three
# network namespaces, each with a veth to the switch (build/sharebuf-switch) in the root
# namespace. A UDP ping and an iperf3 TCP transfer must get through; then two hosts blast UDP
# at the third's 1 Gb/s port, which must make the MMU drop; then host 0 blasts into the stopped
# switch, whose full receive ring must make the kernel drop; then SIGTERM must end the switch
# with status 0 and its outputs in DIR/switch. SCHEME: dt (default, α = 1) or occamy (its
# defaults). tests/dataplane/test_dataplane_veth.c runs it and checks the outputs. Exit 77: not root, or no network namespaces (the test is then skipped).
# Everything it creates is removed on exit, whatever the exit.
BUILD=${1:?usage: dataplane-veth.sh BUILD DIR}
DIR=${2:?usage: dataplane-veth.sh BUILD DIR}
SCHEME=${3:-dt}
case "$SCHEME" in
dt) SW='scheme = "dt"; buffer_bytes = 150000; sched = "drr"; dt: { alpha = 1.0; };' ;;
occamy) SW='scheme = "occamy"; buffer_bytes = 150000; sched = "drr";' ;;
*) echo "dataplane-veth: unknown scheme $SCHEME" >&2; exit 2 ;;
esac
p="sbv$$"   # namespace and interface prefix: unique per run, short enough for IFNAMSIZ
N=3
[ "$(id -u)" = 0 ] || { echo "dataplane-veth: not root: skipped"; exit 77; }
for c in ip ethtool; do
	command -v $c >/dev/null || { echo "dataplane-veth: no $c (tools/install-deps.sh installs it): skipped"; exit 77; }
done
swpid=""
cleanup() {
	set +e
	[ -n "$swpid" ] && kill "$swpid" 2>/dev/null
	for i in $(seq 0 $((N - 1))); do
		ip netns pids "${p}h$i" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "${p}h$i" 2>/dev/null
		ip link del "${p}s$i" 2>/dev/null
	done
}
trap 'st=$?; cleanup; exit $st' EXIT
trap 'exit 1' INT TERM
ip netns add "${p}h0" 2>/dev/null || { echo "dataplane-veth: cannot create network namespaces: skipped"; exit 77; }
set -e
. "$(dirname "$0")/../testbed/hosts.sh"
ports=""
for i in $(seq 0 $((N - 1))); do
	sb_host_add "${p}h$i" "${p}s$i" "$i"
	ports="$ports --port ${p}s$i=$(sb_host_mac "$i")"
done
# static ARP on two hosts; host 2 learns by ARP through the switch's flooding
for i in 0 1; do for j in $(seq 0 $((N - 1))); do
	[ "$i" = "$j" ] || sb_host_arp "${p}h$i" "$j"
done; done
mkdir -p "$DIR"
cat > "$DIR/scenario.cfg" <<CFG
run: { seed = 1; duration_ms = 1.0; sample_interval_us = 10000.0; };
topology: { type = "single"; hosts = $N; host_rate_gbps = 1.0; host_delay_us = 1.0; };
switch: { $SW };
workloads = ();
CFG
# shellcheck disable=SC2086
"$BUILD/sharebuf-switch" "$DIR/scenario.cfg" $ports --out "$DIR/switch" > "$DIR/switch.out" 2> "$DIR/switch.err" &
swpid=$!
for _ in $(seq 50); do grep -q "sharebuf-switch: ready" "$DIR/switch.out" && break; sleep 0.1; done
grep -q "sharebuf-switch: ready" "$DIR/switch.out" || { echo "dataplane-veth: the switch never got ready"; cat "$DIR/switch.err"; exit 1; }

# a server is started in the background: wait until its socket is bound (a fixed sleep was
# too short on a loaded machine: iperf3's client once found no server)
listening() { # namespace, t (TCP) or u (UDP), port: up to 10 s
	for _ in $(seq 100); do
		ip netns exec "$1" ss -H -ln$2 "sport = :$3" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	echo "dataplane-veth: nothing listens on port $3 in $1 after 10 s"
	exit 1
}
ip netns exec "${p}h1" "$BUILD/dp-udp" echo 7000 3 &
e1=$!
listening "${p}h1" u 7000
ip netns exec "${p}h0" "$BUILD/dp-udp" ping 10.0.0.2 7000 50 1000 > "$DIR/ping.txt"
echo "ping h0 -> h1 (rtt_us p50 p99 min lost): $(cat "$DIR/ping.txt")"
# host 2 has no static ARP entries: its first datagram is an ARP broadcast, flooded
ip netns exec "${p}h0" "$BUILD/dp-udp" echo 7001 3 &
e2=$!
listening "${p}h0" u 7001
ip netns exec "${p}h2" "$BUILD/dp-udp" ping 10.0.0.1 7001 20 1000 > "$DIR/ping-arp.txt"
echo "ping h2 -> h0 through ARP (rtt_us p50 p99 min lost): $(cat "$DIR/ping-arp.txt")"
wait $e1 $e2
if command -v iperf3 >/dev/null; then
	ip netns exec "${p}h1" iperf3 -s -1 -D -p 5299
	listening "${p}h1" t 5299
	ip netns exec "${p}h0" iperf3 -c 10.0.0.2 -p 5299 -t 1 > "$DIR/iperf3.txt"
	echo "tcp h0 -> h1: $(grep receiver "$DIR/iperf3.txt")"
else
	echo "dataplane-veth: iperf3 not installed: TCP transfer not tested (tools/install-deps.sh installs it)"
fi
# overload: 2 x line rate of UDP into host 2's 1 Gb/s port
ip netns exec "${p}h2" "$BUILD/dp-udp" sink 7002 1.5 > "$DIR/sink.txt" &
k=$!
listening "${p}h2" u 7002
ip netns exec "${p}h0" "$BUILD/dp-udp" blast 10.0.0.3 7002 1 > /dev/null &
b0=$!
ip netns exec "${p}h1" "$BUILD/dp-udp" blast 10.0.0.3 7002 1 > /dev/null &
b1=$!
wait $k $b0 $b1
echo "sink h2: $(cat "$DIR/sink.txt")"
# a stalled switch: stopped while host 0 blasts host 1, it leaves port 0's receive ring (512
# frames) full and the kernel drops the rest, which summary.json must report (rx_ring_dropped)
kill -STOP "$swpid"
ip netns exec "${p}h0" "$BUILD/dp-udp" blast 10.0.0.2 7003 0.2 > "$DIR/stalled.txt"
kill -CONT "$swpid"
sleep 0.3
echo "blast h0 -> h1 into the stopped switch: $(cat "$DIR/stalled.txt")"
kill -TERM "$swpid"
rc=0
wait "$swpid" || rc=$?
swpid=""
echo "switch exit status: $rc"
exit "$rc"
