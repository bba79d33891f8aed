# metrics.awk — the Reverie artifact's headline metrics of one run, from either tool's files,
# computed by the same code so that both sides are measured alike (fidelity/README.md §Metrics).
#
#   awk -f metrics.awk -v fmt=ns3 RUN.fct RUN.pfc                 the artifact's files
#   awk -f metrics.awk -v fmt=sharebuf DIR/flows.csv DIR/pfc.csv  a sharebuf run
#
# Optional: -v base_rtt_ns=17280 -v gbps=25 -v mtu=1000 -v header=48 -v spine_first=272 (the
# artifact's scenario; spine_first = the node id of its first spine).
# Prints one "name value" line per metric; "nan" where a class has no flow.
#
# Definitions (the artifact's, reference/README.md):
#   slowdown   FCT / ideal FCT, ideal = base RTT + wire bytes × 8 / link rate, wire bytes =
#              size + ceil(size / mtu) × header for RDMA (priority 3), size alone for TCP
#              (priority 1). The artifact's FCT ends when the sender has the last ACK for RDMA
#              and when the receiver has the last byte for TCP (its ns-3 sink), so sharebuf's
#              fct_ns is used for RDMA and rx_fct_ns for TCP.
#   incast     response flows of queries (ns3: incastflow = 1; sharebuf: kind = incast)
#   short      other flows of < 100 KB; long: other flows of > 1 MB
#   pauses     PAUSE frames sent by switches (ns3: .pfc lines of type 2; sharebuf: pfc.csv rows
#              with event = pause); pauses_spine: those sent by spines
#   percentiles nearest rank: the ceil(p·n)-th smallest value
BEGIN {
	if (base_rtt_ns == "") base_rtt_ns = 17280
	if (gbps == "") gbps = 25
	if (mtu == "") mtu = 1000
	if (header == "") header = 48
	if (spine_first == "") spine_first = 272  # artifact node ids: 256 hosts, then 16 leaves, then the spines
	if (fmt != "ns3" && fmt != "sharebuf") { print "metrics.awk: -v fmt=ns3|sharebuf" > "/dev/stderr"; exit 2 }
	FS = (fmt == "sharebuf") ? "," : " "
	pauses = 0; pauses_spine = 0
}

function ceil(x) { return (x == int(x)) ? x : int(x) + 1 }

function ideal_ns(size, rdma) {
	return base_rtt_ns + (rdma ? size + ceil(size / mtu) * header : size) * 8 / gbps
}

function add(cls, v) { n[cls]++; val[cls, n[cls]] = v; sum[cls] += v }

# one completed flow
function flow(size, fct_ns, prio, incast,    rdma, s) {
	rdma = (prio == 3)
	s = fct_ns / ideal_ns(size, rdma)
	if (incast) add((rdma ? "rdma" : "tcp") "_incast", s)
	else if (size < 100000) add((rdma ? "rdma" : "tcp") "_short", s)
	else if (size > 1000000) add((rdma ? "rdma" : "tcp") "_long", s)
}

FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }

# --- the artifact: .fct (timestamp flowsize fctus basefctus slowdown baserttus priority incastflow;
#     the "us" columns hold ns) and .pfc (Time NodeId NodeType IfIndex type)
fmt == "ns3" && file == 1 { flow($2 + 0, $3 + 0, $7 + 0, $8 + 0) }
fmt == "ns3" && file == 2 && $5 == 2 && $3 == 1 { pauses++; if ($2 >= spine_first) pauses_spine++ }

# --- sharebuf: flows.csv and pfc.csv, columns by name
fmt == "sharebuf" && file == 1 {
	prio = $col[1, "priority"] + 0
	fct = (prio == 3) ? $col[1, "fct_ns"] : $col[1, "rx_fct_ns"]
	flow($col[1, "size_bytes"] + 0, fct + 0, prio, $col[1, "kind"] == "incast")
}
fmt == "sharebuf" && file == 2 && $col[2, "event"] == "pause" {
	pauses++
	if ($col[2, "switch"] ~ /^spine/) pauses_spine++
}

# quicksort of val[cls, lo..hi]
function qsort(cls, lo, hi,    i, last, t) {
	if (lo >= hi) return
	t = val[cls, lo]; val[cls, lo] = val[cls, int((lo + hi) / 2)]; val[cls, int((lo + hi) / 2)] = t
	last = lo
	for (i = lo + 1; i <= hi; i++)
		if (val[cls, i] < val[cls, lo]) { last++; t = val[cls, last]; val[cls, last] = val[cls, i]; val[cls, i] = t }
	t = val[cls, lo]; val[cls, lo] = val[cls, last]; val[cls, last] = t
	qsort(cls, lo, last - 1); qsort(cls, last + 1, hi)
}

function pct(cls, p,    k) {
	if (!n[cls]) return "nan"
	k = ceil(p * n[cls]); if (k < 1) k = 1
	return val[cls, k]
}

function mean(cls) { return n[cls] ? sum[cls] / n[cls] : "nan" }

END {
	if (file < 2) { print "metrics.awk: expected two files (flows and PFC events)" > "/dev/stderr"; exit 2 }
	split("rdma_incast rdma_short rdma_long tcp_incast tcp_short tcp_long", classes, " ")
	for (c in classes) qsort(classes[c], 1, n[classes[c]])
	printf "pauses %d\n", pauses
	printf "pauses_spine %d\n", pauses_spine
	printf "rdma_incast_n %d\nrdma_incast_mean %s\nrdma_incast_p99 %s\n", n["rdma_incast"], mean("rdma_incast"), pct("rdma_incast", 0.99)
	printf "rdma_short_n %d\nrdma_short_p50 %s\nrdma_short_p99 %s\n", n["rdma_short"], pct("rdma_short", 0.5), pct("rdma_short", 0.99)
	printf "rdma_long_n %d\nrdma_long_mean %s\n", n["rdma_long"], mean("rdma_long")
	printf "tcp_short_n %d\ntcp_short_p50 %s\ntcp_short_p99 %s\n", n["tcp_short"], pct("tcp_short", 0.5), pct("tcp_short", 0.99)
	printf "tcp_long_n %d\ntcp_long_mean %s\n", n["tcp_long"], mean("tcp_long")
}
