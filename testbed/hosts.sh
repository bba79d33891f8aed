# testbed/hosts.sh — sourced, not run: a host of the testbed contract (docs/testbed.md) in a
# network namespace, for testbed/run.sh, tests/dataplane-veth.sh and bench/dataplane-bench.sh.
# Host i has MAC 02:00:00:00:00:<i+1>, IPv4 10.0.0.<i+1>/24 on `eth0`, and the other end of its
# veth in the root namespace, where the switch binds it.

# The MAC of host $1.
sb_host_mac() { printf '02:00:00:00:00:%02x' $(($1 + 1)); }

# No segmentation, aggregation or checksum offload on device $2 of namespace $1 (empty: the
# root namespace): a packet socket forwards a frame as it is, so the switch must see
# wire-size frames with complete checksums. A feature the device lacks is not an error.
sb_offloads_off() {
	for f in tso gso gro lro tx rx sg; do
		if [ -n "$1" ]; then
			ip netns exec "$1" ethtool -K "$2" "$f" off >/dev/null 2>&1 || :
		else
			ethtool -K "$2" "$f" off >/dev/null 2>&1 || :
		fi
	done
	return 0
}

# Host $3 as namespace $1 (created unless it exists) with `eth0`, joined by a veth to
# interface $2 of the root namespace; both ends up, offloads off. Non-zero when a step fails.
sb_host_add() {
	ip netns pids "$1" >/dev/null 2>&1 || ip netns add "$1" || return 1
	ip link add "$2" type veth peer name eth0 netns "$1" || return 1
	ip -n "$1" link set eth0 address "$(sb_host_mac "$3")" || return 1
	ip -n "$1" addr add "10.0.0.$(($3 + 1))/24" dev eth0 || return 1
	sb_offloads_off "$1" eth0
	sb_offloads_off "" "$2"
	ip -n "$1" link set lo up && ip -n "$1" link set eth0 up && ip link set "$2" up
}

# Host $2's static ARP entry in namespace $1.
sb_host_arp() {
	ip -n "$1" neigh replace "10.0.0.$(($2 + 1))" lladdr "$(sb_host_mac "$2")" dev eth0 nud permanent
}
