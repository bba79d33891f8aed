#!/bin/sh
# testbed/run.sh — one scenario on real packets: Linux TCP hosts in network namespaces, the
# MMU library deciding in build/sharebuf-switch (docs/testbed.md).
#
#   sh testbed/run.sh [SCENARIO] [--schemes A,B,...] [--out DIR] [--set KEY=VALUE]...
#                     [--switch sharebuf|bridge]
#
# For each scheme: build the hosts sbh<i> (namespaces, veths sbs<i>, offloads off, static
# ARP, the scenario's congestion control, ECN and minimum RTO), start the switch and wait for
# its ready line, start a sharebuf-load server on every host, then every host's client, wait
# for the clients, stop servers and switch, and merge everything into DIR/<scheme>/
# (flows.csv, summary.json, occupancy.csv, drops.csv from the load's report with the
# switch's counts and the hosts' kernel TCP counters (nstat); queues.csv and switch.json
# from the switch; hosts/ the raw per-host outputs). Then DIR/compare.csv and compare.json by `sharebuf compare --collect`.
# Everything it created is removed on exit, failure, Ctrl-C or kill; leftovers of a killed
# earlier run are removed first. --switch bridge: the kernel's own bridge with a tbf shaper
# per port instead of the software switch (a baseline; the scheme is then "bridge").
# Exit: 0 done; 1 a step failed or not root / no namespaces; 2 bad arguments.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ME=testbed/run.sh
PORT=5301

usage() {
	echo "usage: sh $ME [SCENARIO] [--schemes A,B,...] [--out DIR] [--set KEY=VALUE]... [--switch sharebuf|bridge]" >&2
}
bad() {
	echo "$ME: $*" >&2
	usage
	exit 2
}
# single-quote $1 for eval
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

SCEN=""
SCHEMES="dt,abm,occamy,cs"
OUT=out/testbed
SETS=""
SWITCH=sharebuf
while [ $# -gt 0 ]; do
	case "$1" in
	--schemes|--out|--set|--switch)
		[ $# -ge 2 ] || bad "$1 needs a value"
		case "$1" in
		--schemes) SCHEMES=$2 ;;
		--out) OUT=$2 ;;
		--switch) SWITCH=$2 ;;
		--set)
			case "$2" in
			*=*) ;;
			*) bad "--set $2: expected KEY=VALUE" ;;
			esac
			case "$2" in
			switch.scheme=*) bad "--set switch.scheme: list the schemes with --schemes A,B,..." ;;
			esac
			SETS="$SETS --set $(q "$2")" ;;
		esac
		shift 2 ;;
	--schemes=*|--out=*|--set=*|--switch=*)
		opt=${1%%=*}
		val=${1#*=}
		shift
		set -- "$opt" "$val" "$@" ;;
	-h|--help) usage; exit 0 ;;
	-*) bad "unknown option $1" ;;
	*)
		[ -z "$SCEN" ] || bad "more than one scenario ($SCEN, $1)"
		SCEN=$1
		shift ;;
	esac
done
case "$SWITCH" in
sharebuf|bridge) ;;
*) bad "--switch: expected sharebuf or bridge, got \"$SWITCH\"" ;;
esac
[ -n "$SCHEMES" ] || bad "--schemes: the list is empty"
[ -n "$SCEN" ] || SCEN=testbed/incast.cfg
[ -f "$SCEN" ] || bad "$SCEN: no such scenario file"
[ "$SWITCH" = bridge ] && SCHEMES=bridge

if [ "$(id -u)" != 0 ]; then
	echo "$ME: needs root: it creates network namespaces and veth pairs (run it with sudo; CI runs it as root)" >&2
	exit 1
fi
if ! ip netns list >/dev/null 2>&1 || ! command -v ethtool >/dev/null 2>&1; then
	echo "$ME: needs \`ip netns\` (iproute2) and ethtool: sh tools/install-deps.sh iproute2 ethtool iperf3" >&2
	exit 1
fi

cd "$ROOT" || exit 1
. testbed/hosts.sh
make -s build/sharebuf build/sharebuf-load build/sharebuf-switch >/dev/null || { echo "$ME: the build failed" >&2; exit 1; }
LOAD=$ROOT/build/sharebuf-load

# What the hosts need from the scenario (the simulator's reading of it), or its error.
INFO=$(eval "\"$LOAD\" info \"$SCEN\" $SETS") || exit 2
eval "$INFO"
if [ "$SWITCH" = sharebuf ]; then
	for s in $(echo "$SCHEMES" | tr ',' ' '); do
		eval "\"$LOAD\" info \"$SCEN\" $SETS --set switch.scheme=$(q "$s")" >/dev/null || exit 2
	done
fi

PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=""
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^sbh[0-9][0-9]*$'); do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p" 2>/dev/null; done
		ip netns del "$ns" 2>/dev/null
	done
	for l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep '^sbs[0-9][0-9]*$'); do
		ip link del "$l" 2>/dev/null
	done
	ip link del sbbr0 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	echo "$ME: $*" >&2
	exit 1
}

hosts_up() {
	cleanup
	i=0
	while [ "$i" -lt "$hosts" ]; do
		ns=sbh$i
		sb_host_add "$ns" "sbs$i" "$i" || return 1
		# no ssthresh or RTT cached from an earlier connection (tcp_no_metrics_save): each
		# flow's connection starts as the simulator's flows do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv4.tcp_ecn="$ecn" \
			net.ipv4.tcp_no_metrics_save=1 >/dev/null || return 1
		# The namespace's default congestion control must be one the root namespace allows
		# (net.ipv4.tcp_allowed_congestion_control); when it is not, the load generator sets
		# it on every socket before it connects or listens (TCP_CONGESTION).
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control="$cc" >/dev/null 2>&1
		sysctl -qw "net.ipv6.conf.sbs$i.disable_ipv6=1" >/dev/null 2>&1
		# the scenario's minimum RTO on the hosts' one route (Linux: 200 ms by default)
		ip -n "$ns" route replace 10.0.0.0/24 dev eth0 src "10.0.0.$((i + 1))" rto_min "${min_rto_ms}ms" || return 1
		j=0
		while [ "$j" -lt "$hosts" ]; do
			[ "$j" = "$i" ] || sb_host_arp "$ns" "$j" || return 1
			j=$((j + 1))
		done
		i=$((i + 1))
	done
}

# Start the switch of scheme $1 into $2; its pid in SWPID.
switch_up() {
	if [ "$SWITCH" = bridge ]; then
		ip link add sbbr0 type bridge && ip link set sbbr0 up || return 1
		i=0
		while [ "$i" -lt "$hosts" ]; do
			ip link set "sbs$i" master sbbr0 || return 1
			tc qdisc replace dev "sbs$i" root tbf rate "${rate_gbps}gbit" burst 16kb latency 50ms || return 1
			i=$((i + 1))
		done
		SWPID=""
		return 0
	fi
	ports=""
	i=0
	while [ "$i" -lt "$hosts" ]; do
		ports="$ports --port sbs$i=$(sb_host_mac $i)"
		i=$((i + 1))
	done
	eval "exec \"$ROOT/build/sharebuf-switch\" \"$SCEN\" $ports --out \"$2/switch\" $SETS --set switch.scheme=$1" \
		>"$2/switch.out" 2>"$2/switch.err" &
	SWPID=$!
	PIDS="$PIDS $SWPID"
	n=0
	until grep -q '^sharebuf-switch: ready$' "$2/switch.out" 2>/dev/null; do
		kill -0 "$SWPID" 2>/dev/null || { cat "$2/switch.err" >&2; return 1; }
		n=$((n + 1))
		[ "$n" -lt 100 ] || { echo "$ME: the switch was not ready after 10 s" >&2; return 1; }
		sleep 0.1
	done
}

servers_up() {
	SRVPIDS=""
	i=0
	while [ "$i" -lt "$hosts" ]; do
		ip netns exec "sbh$i" "$LOAD" server --listen $PORT --cc "$cc" 2>"$1/hosts/server$i.err" &
		SRVPIDS="$SRVPIDS $!"
		i=$((i + 1))
	done
	PIDS="$PIDS $SRVPIDS"
	i=0
	while [ "$i" -lt "$hosts" ]; do
		listening "sbh$i" $PORT || { echo "$ME: the server of host $i does not listen" >&2; return 1; }
		i=$((i + 1))
	done
}

listening() { # NETNS PORT: wait (5 s at most) until a TCP socket listens on PORT in NETNS
	n=0
	until ip netns exec "$1" ss -Hltn "sport = :$2" | grep -q .; do
		n=$((n + 1))
		[ "$n" -lt 50 ] || return 1
		sleep 0.1
	done
}

# The scenario's constant-bit-rate flows (sharebuf-load info's cbr list) as iperf3 UDP flows
# at the same rate and frame size, DSCP from their priority, sending until they are stopped
# after the switch (so that the switch stops with its queues in their steady state). iperf3
# paces by a timer, 1 ms by default: at 0.1 Gb/s a burst of 8 frames per flow each ms, and a
# DT queue drains that far below its threshold between bursts, by how much depending on how
# the flows' bursts fall (-3 % to -15 % of the fixed point from run to run). A 100 us timer
# sends about a frame at a time, as the simulator's CBR does.
cbr_up() { # DIR
	IPERFPIDS=""
	k=0
	for c in $cbr; do
		IFS=: read -r src dst bps bytes prio start <<EOF2
$c
EOF2
		port=$((PORT + 100 + k))
		ip netns exec "sbh$dst" iperf3 -s -1 -p "$port" >"$1/hosts/iperf3-server$k.log" 2>&1 &
		IPERFPIDS="$IPERFPIDS $!"
		listening "sbh$dst" "$port" || { echo "$ME: iperf3 server of cbr flow $k does not listen" >&2; return 1; }
		# a frame of `bytes` on the wire: 14 (Ethernet) + 20 (IPv4) + 8 (UDP) bytes of headers
		ip netns exec "sbh$src" iperf3 -c "10.0.0.$((dst + 1))" -p "$port" -u -b "$bps" -l $((bytes - 42)) \
			--pacing-timer 100 -S $((prio << 5)) -t $((${duration_s%.*} + 30)) >"$1/hosts/iperf3-client$k.log" 2>&1 &
		IPERFPIDS="$IPERFPIDS $!"
		k=$((k + 1))
	done
	PIDS="$PIDS $IPERFPIDS"
}

stop() { # PIDS...: SIGTERM, then wait for each
	for p in "$@"; do kill -TERM "$p" 2>/dev/null; done
	for p in "$@"; do wait "$p" 2>/dev/null; done
	return 0
}

links() { # DIR start|end: both ends of every host's veth, packets and drops as the kernel counts
	# them, into DIR/hosts/link-<start|end><i>.txt (the run's are the difference)
	i=0
	while [ "$i" -lt "$hosts" ]; do
		{ ip -n "sbh$i" -s link show eth0; ip -s link show "sbs$i"; } >"$1/hosts/link-$2$i.txt" 2>/dev/null
		i=$((i + 1))
	done
}

run_scheme() { # SCHEME
	d=$OUT/$1
	rm -rf "$d"
	mkdir -p "$d/hosts" || return 1
	hosts_up || { echo "$ME: setting up the hosts failed" >&2; return 1; }
	switch_up "$1" "$d" || return 1
	links "$d" start
	servers_up "$d" || return 1
	cbr_up "$d" || return 1
	# the bridge has no scheme: its outputs name the scenario's own
	sset="--set switch.scheme=$(q "$1")"
	[ "$SWITCH" = bridge ] && sset=""
	CLIPIDS=""
	i=0
	while [ "$i" -lt "$hosts" ]; do
		eval "exec ip netns exec sbh$i \"$LOAD\" client \"$SCEN\" --host $i --port $PORT --out \"$d/hosts/h$i\" $SETS $sset" \
			2>"$d/hosts/client$i.err" &
		CLIPIDS="$CLIPIDS $!"
		i=$((i + 1))
	done
	PIDS="$PIDS $CLIPIDS"
	ok=0
	i=0
	for p in $CLIPIDS; do
		wait "$p" || { ok=1; echo "$ME: $1: the client of host $i failed:" >&2; cat "$d/hosts/client$i.err" >&2; }
		i=$((i + 1))
	done
	# every host's kernel TCP counters (retransmissions, timeouts, probes, HyStart's exits...):
	# what Linux did, beside what the simulator's TCP did
	i=0
	while [ "$i" -lt "$hosts" ]; do
		ip netns exec "sbh$i" nstat -az >"$d/hosts/nstat$i.txt" 2>/dev/null || rm -f "$d/hosts/nstat$i.txt"
		i=$((i + 1))
	done
	links "$d" end
	stop $SRVPIDS
	[ -z "$SWPID" ] || stop "$SWPID"
	stop $IPERFPIDS
	PIDS=""
	[ "$ok" = 0 ] || return 1
	swarg=""
	if [ -n "$SWPID" ]; then
		[ -f "$d/switch/summary.json" ] || { cat "$d/switch.err" >&2; echo "$ME: $1: the switch wrote no summary" >&2; return 1; }
		swarg="--switch $(q "$d/switch")"
	fi
	# the kernels' counters become summary.json's "tcp" block, as the simulator's own
	nsarg=""
	for n in "$d"/hosts/nstat*.txt; do
		[ -f "$n" ] && nsarg="$nsarg --nstat $(q "$n")"
	done
	eval "\"$LOAD\" report \"$SCEN\" --out \"$d\" $SETS $sset $swarg $nsarg \"$d\"/hosts/h*/measured.csv" || return 1
	if [ -n "$SWPID" ]; then
		mv "$d/switch/queues.csv" "$d/queues.csv" && mv "$d/switch/summary.json" "$d/switch.json" &&
			rm -rf "$d/switch" || return 1
	fi
	echo "$1: $(grep -c . "$d/flows.csv") flows.csv lines" >&2
}

for s in $(echo "$SCHEMES" | tr ',' ' '); do
	echo "$ME: $s" >&2
	run_scheme "$s" || fail "$s failed; its partial outputs are in $OUT/$s"
done
cleanup
if [ "$SWITCH" = sharebuf ]; then
	eval "\"$ROOT/build/sharebuf\" compare \"$SCEN\" --collect --schemes $(q "$SCHEMES") --out \"$OUT\" $SETS" || exit 1
fi
