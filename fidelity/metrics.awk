# metrics.awk — the Reverie artifact's headline metrics of one run, from either tool's files,
# computed by the same code so that both sides are measured alike (fidelity/README.md §Metrics).
#
#   awk -f metrics.awk -v fmt=ns3 RUN.fct RUN.pfc                 the artifact's files
#   awk -f metrics.awk -v fmt=sharebuf DIR/flows.csv DIR/pfc.csv  a sharebuf run
#
# Optional: -v base_rtt_ns=17280 -v gbps=25 -v mtu=1000 -v header=48 -v spine_first=272 (the
# artifact's scenario; spine_first = the node id of its first spine).
# Prints one "name value" line per metric; "nan" where a class has no flow. With -v ci=1 it adds,
# for every flow metric, NAME_lo and NAME_hi: the 95 % bootstrap interval of that metric over
# the run's own flows (how much it would move if the same workload drew other flows): exact for
# the percentiles (the k-th of n resampled values lies at or below the j-th smallest with the
# probability that Binomial(n, j/n) reaches k) and the normal approximation for means; incast
# metrics resample whole queries (below).
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

# one completed flow; `query` names the incast query it answers (its cluster in the bootstrap)
function flow(size, fct_ns, prio, incast, query,    rdma, s, cls) {
	rdma = (prio == 3)
	s = fct_ns / ideal_ns(size, rdma)
	if (incast) {
		cls = (rdma ? "rdma" : "tcp") "_incast"
		add(cls, s)
		if (!((cls, query) in qid)) { qid[cls, query] = ++nq[cls] }
		q = qid[cls, query]
		qmem[cls, q, ++qn[cls, q]] = s
	}
	else if (size < 100000) add((rdma ? "rdma" : "tcp") "_short", s)
	else if (size > 1000000) add((rdma ? "rdma" : "tcp") "_long", s)
}

FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }

# --- the artifact: .fct (timestamp flowsize fctus basefctus slowdown baserttus priority incastflow;
#     the "us" columns hold ns; the timestamp is the completion time in s) and .pfc (Time NodeId
#     NodeType IfIndex type)
# (the first column is when the flow completed, to the µs; the responses of one query started
# together, so completion − FCT, to 10 µs, names the query)
fmt == "ns3" && file == 1 { flow($2 + 0, $3 + 0, $7 + 0, $8 + 0, int(($1 - $3 / 1e9) * 1e5 + 0.5)) }
fmt == "ns3" && file == 2 && $5 == 2 && $3 == 1 { pauses++; if ($2 >= spine_first) pauses_spine++ }

# --- sharebuf: flows.csv and pfc.csv, columns by name
fmt == "sharebuf" && file == 1 {
	prio = $col[1, "priority"] + 0
	fct = (prio == 3) ? $col[1, "fct_ns"] : $col[1, "rx_fct_ns"]
	flow($col[1, "size_bytes"] + 0, fct + 0, prio, $col[1, "kind"] == "incast", $col[1, "query_id"])
}
fmt == "sharebuf" && file == 2 && $col[2, "event"] == "pause" {
	pauses++
	if ($col[2, "switch"] ~ /^spine/) pauses_spine++
}

# heapsort of val[cls, lo..hi], in place and without recursion (awk's stacks are small)
function sift(cls, lo, root, end,    child, t) {
	for (;;) {
		child = 2 * (root - lo) + 1 + lo
		if (child > end) return
		if (child + 1 <= end && val[cls, child] < val[cls, child + 1]) child++
		if (val[cls, root] >= val[cls, child]) return
		t = val[cls, root]; val[cls, root] = val[cls, child]; val[cls, child] = t
		root = child
	}
}

function hsort(cls, lo, hi,    i, t) {
	if (lo >= hi) return
	for (i = lo + int((hi - lo - 1) / 2); i >= lo; i--) sift(cls, lo, i, hi)
	for (i = hi; i > lo; i--) {
		t = val[cls, lo]; val[cls, lo] = val[cls, i]; val[cls, i] = t
		sift(cls, lo, lo, i - 1)
	}
}

function pct(cls, p,    k) {
	if (!n[cls]) return "nan"
	k = ceil(p * n[cls]); if (k < 1) k = 1
	return val[cls, k]
}

function mean(cls) { return n[cls] ? sum[cls] / n[cls] : "nan" }

# P(Binomial(nn, q) >= k): by the failures' exact tail when few failures may occur, else normal
function binom_ge(nn, q, k,    m, i, lp, acc, mu, sd) {
	if (q >= 1) return 1
	if (q <= 0) return k <= 0
	m = nn - k   # P(B >= k) = P(failures <= m), failures ~ Binomial(nn, 1 - q)
	if (m < 0) return 0
	if (m <= 50) {
		lp = nn * log(q); acc = exp(lp)
		for (i = 0; i < m; i++) { lp += log((nn - i) / (i + 1)) + log((1 - q) / q); acc += exp(lp) }
		return acc > 1 ? 1 : acc
	}
	mu = nn * q; sd = sqrt(nn * q * (1 - q))
	return 1 - normal_cdf((k - 0.5 - mu) / sd)
}

function normal_cdf(z,    t, y) { # Abramowitz and Stegun 26.2.17, |error| < 7.5e-8
	t = 1 / (1 + 0.2316419 * (z < 0 ? -z : z))
	y = 0.3989422804014327 * exp(-z * z / 2) * t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
	return z < 0 ? y : 1 - y
}

# the smallest value x_j with P(k-th of a resample <= x_j) >= level (binary search on j)
function pct_bound(cls, p, level,    k, lo, hi, mid) {
	k = ceil(p * n[cls]); if (k < 1) k = 1
	lo = 1; hi = n[cls]
	while (lo < hi) {
		mid = int((lo + hi) / 2)
		if (binom_ge(n[cls], mid / n[cls], k) >= level) hi = mid; else lo = mid + 1
	}
	return val[cls, lo]
}

function sd(cls,    i, mu, ss) {
	mu = sum[cls] / n[cls]; ss = 0
	for (i = 1; i <= n[cls]; i++) ss += (val[cls, i] - mu) ^ 2
	return n[cls] > 1 ? sqrt(ss / (n[cls] - 1)) : 0
}

# Incast responses come in queries whose flows share one fate, so their interval resamples whole
# queries (a cluster bootstrap, 2000 draws) with a fixed Park-Miller generator: the same
# interval on every machine and awk.
function rnd() { seed = (16807 * seed) % 2147483647; return seed / 2147483647 }

function incast_intervals(cls,    b, i, j, q, m, t, B) {
	if (!ci || !nq[cls]) return
	B = 2000; seed = 1
	for (b = 1; b <= B; b++) {
		m = 0; t = 0
		for (i = 1; i <= nq[cls]; i++) {
			q = int(rnd() * nq[cls]) + 1
			for (j = 1; j <= qn[cls, q]; j++) { val["boot", ++m] = qmem[cls, q, j]; t += qmem[cls, q, j] }
		}
		n["boot"] = m
		hsort("boot", 1, m)
		val["bmean", b] = t / m
		val["bp99", b] = pct("boot", 0.99)
	}
	n["bmean"] = n["bp99"] = B
	hsort("bmean", 1, B); hsort("bp99", 1, B)
	printf "%s_mean_lo %s\n%s_mean_hi %s\n", cls, pct("bmean", 0.025), cls, pct("bmean", 0.975)
	printf "%s_p99_lo %s\n%s_p99_hi %s\n", cls, pct("bp99", 0.025), cls, pct("bp99", 0.975)
}

function interval_pct(name, cls, p) {
	if (!ci || !n[cls]) return
	printf "%s_lo %s\n%s_hi %s\n", name, pct_bound(cls, p, 0.025), name, pct_bound(cls, p, 0.975)
}

function interval_mean(name, cls,    h) {
	if (!ci || !n[cls]) return
	h = 1.96 * sd(cls) / sqrt(n[cls])
	printf "%s_lo %s\n%s_hi %s\n", name, mean(cls) - h, name, mean(cls) + h
}

END {
	if (file < 2) { print "metrics.awk: expected two files (flows and PFC events)" > "/dev/stderr"; exit 2 }
	split("rdma_incast rdma_short rdma_long tcp_incast tcp_short tcp_long", classes, " ")
	for (c in classes) hsort(classes[c], 1, n[classes[c]])
	printf "pauses %d\n", pauses
	printf "pauses_spine %d\n", pauses_spine
	printf "rdma_incast_n %d\nrdma_incast_mean %s\nrdma_incast_p99 %s\n", n["rdma_incast"], mean("rdma_incast"), pct("rdma_incast", 0.99)
	printf "rdma_short_n %d\nrdma_short_p50 %s\nrdma_short_p99 %s\n", n["rdma_short"], pct("rdma_short", 0.5), pct("rdma_short", 0.99)
	printf "rdma_long_n %d\nrdma_long_mean %s\n", n["rdma_long"], mean("rdma_long")
	printf "tcp_short_n %d\ntcp_short_p50 %s\ntcp_short_p99 %s\n", n["tcp_short"], pct("tcp_short", 0.5), pct("tcp_short", 0.99)
	printf "tcp_long_n %d\ntcp_long_mean %s\n", n["tcp_long"], mean("tcp_long")
	incast_intervals("rdma_incast")
	interval_pct("rdma_short_p50", "rdma_short", 0.5); interval_pct("rdma_short_p99", "rdma_short", 0.99)
	interval_mean("rdma_long_mean", "rdma_long")
	interval_pct("tcp_short_p50", "tcp_short", 0.5); interval_pct("tcp_short_p99", "tcp_short", 0.99)
	interval_mean("tcp_long_mean", "tcp_long")
}
