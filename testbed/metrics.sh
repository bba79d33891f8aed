#!/bin/sh
# testbed/metrics.sh — the numbers of the testbed's validation (testbed/validate.sh,
# docs/testbed.md §Validation), read from run outputs, one function per number, each printing
# one value. Sourced; needs only awk and sort.
#
#   steady_queue DIR N   the per-queue occupancy of a DT steady-state run: the median of the
#                        buffer occupancy (occupancy.csv's lossy + lossless bytes) over the run's
#                        second half, divided by the N overloaded queues (the samples of the
#                        first half include the start)
#   exit_queue DIR FIRST N  the mean bytes queued at the switch's exit in priority 0 of ports
#                        FIRST .. FIRST+N-1 (queues.csv; the testbed only)
#   qcts DIR             every query's QCT in ms, one per line: per query of flows.csv, the
#                        largest FCT of its responses (they start together)
#   qct_ms DIR P         the P-th percentile (nearest rank) of the QCT in ms
#   qct_mean_ms DIR      the mean QCT in ms (a timeout's wait counts in full)
#   nqueries DIR         the number of queries in flows.csv
#   fct_share DIR LO HI  the share (%) of the flows of flows.csv whose FCT is in [LO, HI) ms
#   slow_share DIR MS    the share (%) of queries whose QCT is at least MS ms: those that
#                        waited for a retransmission timeout when MS is the minimum RTO
#   fill_rate DIR P      the P-th percentile of the rate (Gb/s) at which the buffer grew between
#                        consecutive samples of occupancy.csv, over the intervals in which it
#                        grew from a non-empty buffer: arrivals minus departures (the port's
#                        drain) minus drops, so how fast bursts arrive at the switch
#   dt_fixed_point B ALPHA N   αB / (1 + Nα)
#   switch_pkts DIR WHAT packets the testbed's switch received, forwarded or dropped (switch.json)
#   ring_drops DIR      frames the kernel dropped because a receive ring of the switch was full
#   veth_tx DIR         packets the hosts sent on their veths while the switch ran (interface counters)
#   tcp_counter DIR KEY  summary.json's tcp.KEY: the simulator's TCP counter, or on the testbed
#                        the sum of the hosts' kernel counter it stands for (docs/outputs.md)

# nearest-rank percentile P of the numbers on stdin
percentile() {
	sort -g | awk -v p="$1" '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		k = int(p / 100 * NR); if (k < p / 100 * NR) k++; if (k < 1) k = 1
		print v[k] }'
}

steady_queue() {
	awk -F, -v n="$2" 'NR == 1 { next } { t[NR] = $1; b[NR] = $3 + $4; last = $1 }
		END { for (i in t) if (t[i] >= last / 2) print b[i] / n }' "$1/occupancy.csv" | percentile 50
}

exit_queue() {
	awk -F, -v first="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$2 == 0 && $1 >= first && $1 < first + n { s += $col["queued_bytes"]; k++ }
		END { printf "%.0f\n", k ? s / k : 0 }' "$1/queues.csv"
}

# each query's QCT in ms, one per line: the largest FCT of its responses (exact digits)
qcts() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["query_id"] >= 0 { q = $col["query_id"]; f = $col["fct_ns"] + 0; if (f > m[q]) m[q] = f }
		END { for (q in m) printf "%.17g\n", m[q] / 1e6 }' "$1/flows.csv"
}

qct_ms() {
	qcts "$1" | awk '{ print $1 + 0 }' | percentile "$2"
}

qct_mean_ms() {
	qcts "$1" | awk '{ n++; s += $1 } END { if (n) printf "%.3f\n", s / n; else print "nan" }'
}

nqueries() {
	qcts "$1" | awk 'END { print NR }'
}

fct_share() {
	awk -F, -v lo="$2" -v hi="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ n++; f = $col["fct_ns"] / 1e6; s += f >= lo && f < hi }
		END { printf "%.1f\n", n ? 100 * s / n : 0 }' "$1/flows.csv"
}

slow_share() {
	qcts "$1" | awk -v ms="$2" '{ n++; s += $1 >= ms } END { printf "%.1f\n", n ? 100 * s / n : 0 }'
}

fill_rate() {
	awk -F, 'NR == 1 { next } { b = $3 + $4 }
		NR > 2 && $1 > pt && pb > 0 && b > pb { print (b - pb) * 8 / ($1 - pt) } { pt = $1; pb = b }' \
		"$1/occupancy.csv" | percentile "$2"
}

dt_fixed_point() {
	awk -v b="$1" -v a="$2" -v n="$3" 'BEGIN { printf "%.0f\n", a * b / (1 + n * a) }'
}

switch_pkts() { # $1 a testbed run directory, $2 received|forwarded|dropped: switch.json's packets
	awk -v key="\"$2\": {" 'index($0, key) { want = 1; next }
		want && /"pkts":/ { v = $2; sub(/,$/, "", v); print v; found = 1; exit }
		END { if (!found) print "nan" }' "$1/switch.json"
}

ring_drops() { # $1 a testbed run directory: frames the kernel dropped before the switch read them
	awk '/^  "rx_ring_dropped":/ { v = $2; sub(/,$/, "", v); print v; found = 1 } END { if (!found) print "nan" }' "$1/switch.json"
}

veth_tx() { # $1 a testbed run directory: packets the hosts' veths sent while the switch ran
	# (testbed/run.sh's hosts/link-end*.txt less hosts/link-start*.txt)
	awk '/^[0-9]+: eth0/ { host = 1 } /^[0-9]+: sbs/ { host = 0 }
		/TX:/ { getline; if (host) s += (FILENAME ~ /link-end/ ? $2 : -$2) } END { print s + 0 }' \
		"$1"/hosts/link-end*.txt "$1"/hosts/link-start*.txt
}

tcp_counter() {
	awk -v key="\"$2\":" '/^ *"tcp": \{/ { in_tcp = 1; next }
		in_tcp && /\}/ { in_tcp = 0 }
		in_tcp && $1 == key { v = $2; sub(/,$/, "", v); print v; found = 1 }
		END { if (!found) print "nan" }' "$1/summary.json"
}
