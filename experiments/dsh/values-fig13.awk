# values-fig13.awk: the Fig. 13 numbers of experiments/dsh/REPORT.md, from tables.sh's tables. Run by report.sh after experiments/lib/values.awk with -v prefix=f13. and the inputs
#   what=csv fig13.csv what=f0 f0.csv what=phase phase.csv what=pphase probe_phase.csv what=pmtu probe_mtu.csv
#   what=oldfb oldfeedback.csv what=prev previous.tsv
# fig13.csv: cc,scheme,window_end_ms,f0_before_gbps,f0_min_gbps,f0_mean_gbps,pauses_leaf1_to_spine,
#   paused_us,first_pause_us,burst_done_us,burst_flows_done,lossless_drops,peak_q,peak_ws,T_at_peak,
#   min_margin,probe_paused_us,peak_burst_q,peak_shared,min_T,f1_before_gbps,leaf0_pauses_before,cnps
BEGIN { FS = ","; RTT_US = 16.5 }   # F1's base RTT across the spine, 1500-byte frames (README.md)
FNR == 1 { if (what == "f0") for (i = 2; i <= NF; i++) COL[$i] = i; next }
what == "csv" {
	k = $1 "." $2; ROW[k] = $0; for (i = 3; i <= NF; i++) V[k, i] = $i; WEND = $3 + 0
	if (!(($1) in hascc)) { hascc[$1] = 1; ncc++; CC[ncc] = $1 }
	next
}
what == "f0" { nt++; TT[nt] = $1 + 0; for (c in COL) F0[c, nt] = $(COL[c]) + 0; next }
what == "phase" { k = $1 "." $2; PH[k, 1] = $3; PH[k, 2] = $4; PH[k, 3] = $5; PH[k, 4] = $6; next }
what == "pphase" { n = ++NPP[$1]; PPM[$1, n] = $3 + 0; PPP[$1] += $4; next }
what == "pmtu" { PM[$1] = $2 + 0; PMP[$1] = $3 + 0; next }
what == "oldfb" { OF[$1, 1] = $2; OF[$1, 2] = $3; OF[$1, 3] = $5; OF[$1, 4] = $6; nof++; next }
what == "prev" { split($0, f, "\t"); PREV[f[1]] = f[2]; next }
function name(c) { return c == "rdma" ? "no CC" : c == "dcqcn" ? "DCQCN" : c == "hpcc" ? "HPCC" : c == "powertcp" ? "PowerTCP" : c }
# F0 = 0 in the burst window: how many 20 us bins, and F0's largest value there
function zeros(col,   i, n) { for (i = 1; i <= nt; i++) if (TT[i] > 2.8 + 1e-9 && TT[i] <= WEND + 1e-9 && F0[col, i] == 0) n++; return n + 0 }
function peak(col,   i, m) { for (i = 1; i <= nt; i++) if (TT[i] > 2.8 + 1e-9 && TT[i] <= WEND + 1e-9 && F0[col, i] > m) m = F0[col, i]; return m }
function mg(x) { return (x > 0 ? "+" : x < 0 ? "−" : "") num(x < 0 ? -x : x, 0) }
END {
	put("window", fix(WEND, 2))
	allsame = 1; drops = 0
	for (i = 1; i <= ncc; i++) for (j = 1; j <= 2; j++) {
		c = CC[i]; s = j == 1 ? "sih" : "dsh"; k = c "." s
		put(k ".before", fix(V[k, 4], 1)); put(k ".min", fix(V[k, 5], 1)); put(k ".mean", fix(V[k, 6], 1))
		put(k ".pauses", V[k, 7]); put(k ".paused", fix(V[k, 8], 1)); put(k ".first", fix(V[k, 9], 1))
		put(k ".done", fix(V[k, 10], 1)); put(k ".zero", 20 * zeros(c "_" s)); put(k ".zerobins", zeros(c "_" s))
		put(k ".peak", fix(peak(c "_" s), 1)); put(k ".f1", fix(V[k, 21], 1)); put(k ".f1wire", fix(V[k, 21] * 1500 / 1452, 1))
		put(k ".cnps", num(V[k, 23], 0)); put(k ".leaf0", num(V[k, 22], 0))
		put(k ".inflight", num(V[k, 21] * 1500 / 1452 * 1e3 * RTT_US / 8 / 1000, 0))
		put(k ".peakq", num(V[k, 13], 0)); put(k ".ws", num(V[k, 14], 0)); put(k ".T", num(V[k, 15], 0))
		put(k ".margin", mg(V[k, 16])); put(k ".gap", num(V[k, 16] < 0 ? -V[k, 16] : V[k, 16], 0))
		put(k ".held", fix(V[k, 17], 1)); put(k ".burstq", num(V[k, 18], 0)); put(k ".shared", fix(V[k, 19] / 1e6, 1))
		put(k ".minT", num(V[k, 20], 0))
		drops += V[k, 12]; if (V[k, 11] != 24) notdone++
		done_lo = (done_lo == "" || V[k, 10] < done_lo) ? V[k, 10] : done_lo; if (V[k, 10] > done_hi) done_hi = V[k, 10]
		bq[V[k, 18]] = 1
	}
	for (x in bq) nbq++
	put("burstq.same", nbq == 1 ? "in every run" : "at most")
	put("done", range(done_lo, done_hi, 1, "µs")); put("drops", drops); put("runs", 2 * ncc)
	check(drops == 0 && !notdone, "lossless drops, or burst flows that did not complete")
	# SIH and DSH identical under the window-based transports; no PAUSE there
	for (i = 3; i <= 12; i++) { if (V["hpcc.sih", i] != V["hpcc.dsh", i]) allsame = 0; if (V["powertcp.sih", i] != V["powertcp.dsh", i]) allsame = 0 }
	check(allsame, "HPCC or PowerTCP: SIH and DSH differ in the figure's numbers")
	check(V["hpcc.sih", 7] == 0 && V["powertcp.sih", 7] == 0 && V["hpcc.sih", 22] == 0 && V["powertcp.sih", 22] == 0,
		"HPCC or PowerTCP: under SIH, S1 pauses the spine or S0 its hosts")
	check(V["rdma.sih", 5] == 0 && V["dcqcn.sih", 5] == 0, "no CC or DCQCN: F0 no longer stops under SIH")
	check(V["rdma.dsh", 5] > 0.8 * V["rdma.dsh", 4], "no CC: F0 under DSH falls below 80 % of its rate")
	check(V["dcqcn.dsh", 5] >= V["dcqcn.dsh", 4] - 1 && V["dcqcn.dsh", 7] == 0, "DCQCN: F0 under DSH falls below its rate before the burst, or S1 pauses the spine")
	put("first.sih", range(V["rdma.sih", 9] < V["dcqcn.sih", 9] ? V["rdma.sih", 9] : V["dcqcn.sih", 9], V["rdma.sih", 9] < V["dcqcn.sih", 9] ? V["dcqcn.sih", 9] : V["rdma.sih", 9], 0, "µs"))
	put("held.sih", range(V["rdma.sih", 8] < V["dcqcn.sih", 8] ? V["rdma.sih", 8] : V["dcqcn.sih", 8], V["rdma.sih", 8] < V["dcqcn.sih", 8] ? V["dcqcn.sih", 8] : V["rdma.sih", 8], 0, "µs"))
	m = V["rdma.sih", 20]; for (i = 1; i <= ncc; i++) if (V[CC[i] ".sih", 20] < m) m = V[CC[i] ".sih", 20]
	put("minT.sih", num(m / 1000, 0))
	check(V["hpcc.sih", 16] > 0 && V["powertcp.sih", 16] > 0, "HPCC or PowerTCP: the probe's margin under SIH is no longer positive")
	put("hpcc.margin.frames", fix(V["hpcc.sih", 16] / 1500, 1))
	# a window-limited F1: its backlog at S1 is what it has in flight, rate x base RTT
	for (i = 1; i <= 2; i++) {
		c = i == 1 ? "hpcc.sih" : "powertcp.sih"; fl = V[c, 21] * 1500 / 1452 * 1e3 * RTT_US / 8; q = V[c, 13]
		check(fl > 0.9 * q && fl < 1.1 * q, c ": F1's rate x base RTT (" int(fl) " B) is no longer within 10 % of the peak queue (" q " B)")
	}
	# DCQCN under DSH before the burst: troughs of F0 (below 10 Gb/s after being above 30)
	col = "dcqcn_dsh"; hi = 0; nz = 0
	for (i = 1; i <= nt; i++) {
		if (F0[col, i] > 30) hi = 1
		if (hi && F0[col, i] < 10 && TT[i] <= 2.8) { nz++; Z[nz] = TT[i]; hi = 0 }
	}
	put("dcqcn.troughs", nz); put("dcqcn.period", nz > 1 ? fix((Z[nz] - Z[1]) / (nz - 1), 1) : "–")
	for (i = 1; i <= nt; i++) if (TT[i] > 2.6 + 1e-9 && TT[i] <= 2.8 + 1e-9) { if (lo == "" || F0[col, i] < lo) lo = F0[col, i]; last = F0[col, i] }
	put("dcqcn.dsh.low", fix(lo, 1)); put("dcqcn.dsh.at", fix(last, 1))
	check(V["dcqcn.dsh", 23] > 3 * V["dcqcn.sih", 23], "DCQCN: DSH no longer gets several times SIH's CNPs before the burst")
	check(V["dcqcn.sih", 22] > V["dcqcn.sih", 23], "DCQCN: under SIH, S0's PAUSE frames no longer outnumber the CNPs")
	# the burst moved earlier under DCQCN
	for (t = 1; t <= 2; t++) {
		st = t == 1 ? "2.0" : "2.2"
		put("phase." st, sprintf("| %s ms | %s / **%s** / %s | %s / %s / %s | %s / %s |", st, PH[st ".sih", 1], PH[st ".sih", 2], PH[st ".sih", 3],
			PH[st ".dsh", 1], PH[st ".dsh", 2], PH[st ".dsh", 3], PH[st ".sih", 4], PH[st ".dsh", 4]))
		g = PH[st ".dsh", 1] - PH[st ".dsh", 2]; if (t == 1 || g < glo) glo = g; if (t == 1 || g > ghi) ghi = g
		check(PH[st ".sih", 2] == 0, "DCQCN, burst at " st " ms: F0 no longer stops under SIH")
	}
	put("phase.gap", range(glo < 0 ? 0 : glo, ghi, 0, "Gb/s"))
	# the probe with the burst at other times, and with 1500 payload bytes
	for (c in NPP) {
		lo = 1e12; hi = -1e12
		for (i = 1; i <= NPP[c]; i++) { if (PPM[c, i] < lo) lo = PPM[c, i]; if (PPM[c, i] > hi) hi = PPM[c, i] }
		put("pphase." c, range(lo / 1000, hi / 1000, 1, "KB"))
		check(lo > 0 && PPP[c] == 0, c ": with the burst at another time SIH pauses")
	}
	put("pmtu.hpcc", num(PM["hpcc"] / 1000, 0)); put("pmtu.powertcp", num(PM["powertcp"] / 1000, 0))
	check(PMP["rdma"] > 0 && PMP["dcqcn"] > 0 && PMP["hpcc"] == 0 && PMP["powertcp"] == 0,
		"with 1500 payload bytes, it is no longer no CC and DCQCN that pause under SIH, and only they")
	# DCQCN with the earlier feedback settings against the earlier report's numbers
	if (nof) {
		same = 1
		for (j = 1; j <= 2; j++) {
			s = j == 1 ? "sih" : "dsh"
			put("oldfb." s, fix(OF[s, 1], 1) " / " fix(OF[s, 2], 1) " Gb/s, " fix(OF[s, 3], 1) " µs")
			if (fix(OF[s, 1], 1) != PREV["f13.dcqcn." s ".min"] || fix(OF[s, 2], 1) != PREV["f13.dcqcn." s ".mean"] || fix(OF[s, 3], 1) != PREV["f13.dcqcn." s ".paused"]) same = 0
			put("oldfb.prev." s, PREV["f13.dcqcn." s ".min"] " / " PREV["f13.dcqcn." s ".mean"] " Gb/s, " PREV["f13.dcqcn." s ".paused"] " µs")
		}
		put("oldfb.same", same ? "the same numbers" : "**other numbers**")
		check(same, "Fig. 13, DCQCN with the earlier feedback settings no longer gives the earlier report's numbers: something else moved too")
	}
	done()
}
