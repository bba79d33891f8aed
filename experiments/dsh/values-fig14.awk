# values-fig14.awk: the Fig. 14 numbers of experiments/dsh/REPORT.md, from tables.sh's tables
# (default classes, and the harness-class and host.sched=sp runs of run-variants.sh when
# present). Run by report.sh after experiments/lib/values.awk and paper.tsv, with the inputs
#   what=paper paper.tsv m=f14 tables/fig14.csv m=f14d tables/fig14-diagnostics.csv
#   [m=f14h tables/fig14-harness.csv m=f14hd tables/fig14-harness-diagnostics.csv] [m=sp tables/fig14-sp.csv]
# fig14.csv: cc,bg_load,fanin_load,bg_mean_ratio,bg_p99_ratio,fan_mean_ratio,fan_p99_ratio,
#   sih_bg_mean_us,dsh_bg_mean_us,sih_bg_p99_us,dsh_bg_p99_us,bg_flows,sih_fan_mean_us,
#   dsh_fan_mean_us,sih_fan_p99_us,dsh_fan_p99_us,fan_flows,sih_pause_frames,dsh_pause_frames,
#   sih_port_pause_frames,dsh_port_pause_frames,sih_paused_ms,dsh_paused_ms,sih_lossless_drops,
#   dsh_lossless_drops,sih_done,dsh_done,started
# diagnostics.csv: cc,bg_load,r_lt100k,n_lt100k,r_100k_1m,n_100k_1m,r_1m_5m,n_1m_5m,r_ge5m,n_ge5m,
#   sih_cnps,dsh_cnps,sih_nic_fanin_ms,dsh_nic_fanin_ms,sih_nic_bg_ms,dsh_nic_bg_ms
what == "paper" { if ($0 ~ /^#/ || NF == 0) next; split($0, f, "\t"); P[f[1]] = f[2]; next }
FNR == 1 { nf = split($0, h, ","); next }
{
	nf = split($0, f, ","); k = m SUBSEP f[1] SUBSEP f[2]
	for (i = 1; i <= nf; i++) X[k, h[i]] = f[i]
	if (m == "f14" || m == "f14h" || m == "sp") if (!((m, f[2]) in hasl)) { hasl[m, f[2]] = 1; NL[m]++; L[m, NL[m]] = f[2] }
	seen[m] = 1
}
function x(mm, c, l, col) { return X[mm SUBSEP c SUBSEP l, col] }
function cname(c) { return c == "dcqcn" ? "DCQCN" : "PowerTCP" }
# "a / b / c / d" of a ratio column as signed changes, the best one in bold; best[] = the minimum
function row(mm, c, col,   i, l, s, b, bl) {
	for (i = 1; i <= NL[mm]; i++) { l = L[mm, i]; if (i == 1 || x(mm, c, l, col) < b) { b = x(mm, c, l, col); bl = l } }
	BEST[mm, c, col] = b; BESTL[mm, c, col] = bl
	for (i = 1; i <= NL[mm]; i++) { l = L[mm, i]; s = s (i > 1 ? " / " : "") (l == bl && b < 1 ? "**" pct(x(mm, c, l, col), 1) "**" : pct(x(mm, c, l, col), 1)) }
	return s
}
function rng(mm, c, col, l0, l1, scale,   i, l, v, lo, hi, n, b) {   # range of col over loads l0..l1
	b = mm; sub(/d$/, "", b)
	for (i = 1; i <= NL[b]; i++) { l = L[b, i]; if (l + 0 < l0 - 1e-9 || l + 0 > l1 + 1e-9) continue
		v = x(mm, c, l, col) * scale; if (!n++ || v < lo) lo = v; if (n == 1 || v > hi) hi = v }
	RLO = lo; RHI = hi
}
END {
	split("powertcp dcqcn", ccs, " ")
	for (t = 1; t <= 2; t++) {
		mm = t == 1 ? "f14" : "f14h"
		if (!seen[mm]) continue
		for (j = 1; j <= 2; j++) {
			c = ccs[j]
			put(mm "." c ".bg", row(mm, c, "bg_mean_ratio")); put(mm "." c ".fan", row(mm, c, "fan_mean_ratio"))
			put(mm "." c ".bg.best", pct(BEST[mm, c, "bg_mean_ratio"], 1)); put(mm "." c ".fan.best", pct(BEST[mm, c, "fan_mean_ratio"], 1))
			put(mm "." c ".fan.bestl", BESTL[mm, c, "fan_mean_ratio"]); put(mm "." c ".bg.bestl", BESTL[mm, c, "bg_mean_ratio"])
			for (i = 1; i <= NL[mm]; i++) {
				l = L[mm, i]; p = mm "." c "." l
				put(p ".bg_mean", fix(x(mm, c, l, "bg_mean_ratio"), 3)); put(p ".fan_mean", fix(x(mm, c, l, "fan_mean_ratio"), 3))
				put(p ".cnps_sih", x(mm "d", c, l, "sih_cnps")); put(p ".cnps_dsh", x(mm "d", c, l, "dsh_cnps"))
				port[mm] += x(mm, c, l, "sih_port_pause_frames") + x(mm, c, l, "dsh_port_pause_frames")
				dportl[mm] = dportl[mm] (x(mm, c, l, "dsh_port_pause_frames") > 0 ? (dportl[mm] == "" ? "" : ", ") num(x(mm, c, l, "dsh_port_pause_frames"), 0) " at " cname(c) " " l : "")
				drops[mm] += x(mm, c, l, "sih_lossless_drops") + x(mm, c, l, "dsh_lossless_drops"); runs[mm] += 2
			}
		}
		put(mm ".port", num(port[mm], 0)); put(mm ".drops", num(drops[mm], 0)); put(mm ".runs", runs[mm]); put(mm ".dportl", dportl[mm])
	}
	check(drops["f14"] == 0 && port["f14"] == 0, "Fig. 14: lossless drops or port-level PAUSE frames in the default runs")
	# fan-in: the points where DSH does not cut the mean, the p99s
	ex = ""; n = 0
	for (j = 1; j <= 2; j++) for (i = 1; i <= NL["f14"]; i++) {
		c = ccs[j]; l = L["f14", i]
		if (x("f14", c, l, "fan_mean_ratio") >= 1) { n++; ex = ex (ex == "" ? "" : "; ") cname(c) " at background " l " (fan-in load " x("f14", c, l, "fanin_load") "; " num(x("f14", c, l, "sih_pause_frames"), 0) " PAUSE frames under SIH, " num(x("f14", c, l, "dsh_pause_frames"), 0) " under DSH; ratio " fix(x("f14", c, l, "fan_mean_ratio"), 3) ")" }
		v = x("f14", c, l, "fan_p99_ratio")
		if (v > 1) { p99x = p99x (p99x == "" ? "" : "; ") cname(c) " at background " l ", where it rises to " fix(v, 2) " (DSH still sent " num(x("f14", c, l, "dsh_pause_frames"), 0) " PAUSE frames)" }
		else { if (!np++ || v < p99lo) p99lo = v; if (np == 1 || v > p99hi) p99hi = v }
	}
	put("f14.fan.except", n == 0 ? "at every point" : n == 1 ? "at every point but one: " ex : "at every point but " n ": " ex)
	put("f14.fan.p99", range(p99lo, p99hi, 2, "")); put("f14.fan.p99x", p99x == "" ? "none" : p99x)
	for (j = 1; j <= 2; j++) {
		c = ccs[j]; pb = P["f14." c ".fan"]; gsub(/−| %/, "", pb)
		put("f14." c ".fan.vs", -100 * (BEST["f14", c, "fan_mean_ratio"] - 1) > pb ? "exceeds" : "falls short of")
		if (-100 * (BEST["f14", c, "fan_mean_ratio"] - 1) <= pb) notlarger = 1
	}
	put("f14.fan.larger", notlarger ? "" : ", and larger than the paper's")
	# background: near 1 at 0.6-0.8, worse at 0.2-0.4
	a = 0; for (j = 1; j <= 2; j++) { rng("f14", ccs[j], "bg_mean_ratio", 0.6, 0.8, 100); if (RHI - 100 > a) a = RHI - 100; if (100 - RLO > a) a = 100 - RLO }
	put("f14.bg.hi", fix(a, 0))
	lo = 1e9; hi = -1e9; for (j = 1; j <= 2; j++) { rng("f14", ccs[j], "bg_mean_ratio", 0.2, 0.4, 100); if (RLO - 100 < lo) lo = RLO - 100; if (RHI - 100 > hi) hi = RHI - 100 }
	put("f14.bg.lo", sgn(lo, 0) " % to " sgn(hi, 0) " %")
	check(lo > 0, "Fig. 14: background is no longer worse under DSH at loads 0.2 and 0.4 for both transports")
	check(BEST["f14", "powertcp", "bg_mean_ratio"] > 0.95 && BEST["f14", "dcqcn", "bg_mean_ratio"] > 0.95, "Fig. 14: background now gains more than 5 % somewhere: 'not reproduced' is wrong")
	# why: NIC pause times, CNPs, size bins (diagnostics)
	m = 0; for (i = 1; i <= NL["f14"]; i++) { l = L["f14", i]; v = x("f14d", "powertcp", l, "sih_nic_bg_ms"); if (v > m) m = v; v = x("f14d", "powertcp", l, "dsh_nic_bg_ms"); if (v > m) m = v }
	put("d.ptcp.nicbg.max", fix(m, 1))
	rng("f14d", "powertcp", "sih_nic_fanin_ms", 0.2, 0.6, 1); put("d.ptcp.nicfan.sih", range(RLO, RHI, 0, "ms"))
	rng("f14d", "powertcp", "dsh_nic_fanin_ms", 0.2, 0.6, 1); put("d.ptcp.nicfan.dsh", range(RLO, RHI, 0, "ms"))
	rng("f14d", "dcqcn", "sih_nic_bg_ms", 0.2, 0.8, 1); put("d.dcqcn.nicbg.sih", range(RLO, RHI, 0, "ms"))
	rng("f14d", "dcqcn", "sih_cnps", 0.2, 0.8, 1); put("d.cnps.sih", range(RLO, RHI, 0, "")); clo = RLO; chi = RHI
	rng("f14d", "dcqcn", "dsh_cnps", 0.2, 0.8, 1); put("d.cnps.dsh", range(RLO, RHI, 0, ""))
	lo = 1e9; hi = 0; for (i = 1; i <= NL["f14"]; i++) { l = L["f14", i]; r = x("f14d", "dcqcn", l, "dsh_cnps") / x("f14d", "dcqcn", l, "sih_cnps"); if (r < lo) lo = r; if (r > hi) hi = r }
	put("d.cnps.ratio", range(lo, hi, 0, "") "×")
	check(lo > 3, "Fig. 14: DSH no longer gets several times SIH's CNPs under DCQCN")
	rng("f14d", "dcqcn", "r_lt100k", 0.2, 0.8, 1); put("d.dcqcn.small", range(RLO, RHI, 2, "") "×")
	check(RLO > 1, "Fig. 14: DCQCN's short background flows no longer take longer under DSH at every load")
	lo = 1e9; hi = 0; for (i = 1; i <= NL["f14"]; i++) { l = L["f14", i]; if (l + 0 > 0.4) continue
		for (b = 1; b <= 3; b++) { col = b == 1 ? "r_100k_1m" : b == 2 ? "r_1m_5m" : "r_ge5m"; v = x("f14d", "dcqcn", l, col); if (v < lo) lo = v; if (v > hi) hi = v } }
	put("d.dcqcn.large", range(lo, hi, 2, "") "×")
	put("d.ptcp.mid.0.2", fix(x("f14d", "powertcp", "0.2", "r_100k_1m"), 2)); put("d.ptcp.mid.0.4", fix(x("f14d", "powertcp", "0.4", "r_100k_1m"), 2))
	rng("f14d", "powertcp", "r_lt100k", 0.2, 0.8, 1); put("d.ptcp.small", range(RLO, RHI, 2, "") "×")
	rng("f14d", "powertcp", "r_ge5m", 0.2, 0.8, 1); put("d.ptcp.big", range(RLO, RHI, 2, "") "×")
	check(x("f14d", "powertcp", "0.4", "r_100k_1m") > 1.2, "Fig. 14: PowerTCP's 100 KB-1 MB background flows no longer pay most under DSH")
	a = x("f14", "powertcp", "0.2", "sih_bg_mean_us"); b = x("f14", "dcqcn", "0.2", "sih_bg_mean_us")
	put("ptcp.vs.dcqcn", fix(a / b, 1) "×"); put("ptcp.bg.0.2", num(a, 0)); put("dcqcn.bg.0.2", num(b, 0))
	# host.sched = sp (run-variants.sh)
	if (seen["sp"]) {
		put("sp.ptcp.bg", fix(x("sp", "powertcp", "0.2", "bg_mean_ratio"), 3) " / " fix(x("sp", "powertcp", "0.4", "bg_mean_ratio"), 3))
		put("sp.dcqcn.bg", fix(x("sp", "dcqcn", "0.2", "bg_mean_ratio"), 3) " / " fix(x("sp", "dcqcn", "0.4", "bg_mean_ratio"), 3))
		put("sp.ptcp.fan", fix(x("sp", "powertcp", "0.2", "fan_mean_ratio"), 3) " / " fix(x("sp", "powertcp", "0.4", "fan_mean_ratio"), 3))
		put("sp.dcqcn.fan", fix(x("sp", "dcqcn", "0.2", "fan_mean_ratio"), 3) " / " fix(x("sp", "dcqcn", "0.4", "fan_mean_ratio"), 3))
		check(x("sp", "powertcp", "0.2", "bg_mean_ratio") > 1 && x("sp", "powertcp", "0.4", "bg_mean_ratio") > 1 && x("sp", "dcqcn", "0.2", "bg_mean_ratio") > 1 && x("sp", "dcqcn", "0.4", "bg_mean_ratio") > 1,
			"Fig. 14: with strict-priority NICs background now gains: the NIC is not ruled out")
	}
	put("def.ptcp.bg", fix(x("f14", "powertcp", "0.2", "bg_mean_ratio"), 3) " / " fix(x("f14", "powertcp", "0.4", "bg_mean_ratio"), 3))
	put("def.dcqcn.bg", fix(x("f14", "dcqcn", "0.2", "bg_mean_ratio"), 3) " / " fix(x("f14", "dcqcn", "0.4", "bg_mean_ratio"), 3))
	# the harness's class mapping
	if (seen["f14h"]) {
		lo = 1e9; hi = -1e9
		for (j = 1; j <= 2; j++) { rng("f14h", ccs[j], "bg_mean_ratio", 0.2, 0.6, 100); if (RLO - 100 < lo) lo = RLO - 100; if (RHI - 100 > hi) hi = RHI - 100 }
		put("f14h.bg.gain", sgn(hi, 0) " % to " sgn(lo, 0) " %")
		check(hi < 0, "Fig. 14, harness classes: background no longer gains at every fan-in load >= 0.3")
		rng("f14hd", "dcqcn", "sih_nic_bg_ms", 0.2, 0.8, 1); put("h.dcqcn.nicbg.sih", range(RLO, RHI, 0, "ms"))
		lo = 1e9; hi = 0
		for (j = 1; j <= 2; j++) for (i = 1; i <= NL["f14h"]; i++) { l = L["f14h", i]; a = x("f14hd", ccs[j], l, "sih_nic_bg_ms"); if (a < 1) continue
			r = x("f14hd", ccs[j], l, "dsh_nic_bg_ms") / a; if (r < lo) lo = r; if (r > hi) hi = r }
		put("h.nicbg.kept", range(100 * lo, 100 * hi, 0, "%"))
		check(hi < 0.7, "Fig. 14, harness classes: DSH no longer cuts the background classes' pause time at the NICs by a third or more everywhere")
		put("h.ptcp.0.4.nicbg", num(x("f14hd", "powertcp", "0.4", "sih_nic_bg_ms"), 0) " → " fix(x("f14hd", "powertcp", "0.4", "dsh_nic_bg_ms"), 1) " ms")
		put("h.ptcp.0.4.small", fix(x("f14hd", "powertcp", "0.4", "r_lt100k"), 2))
		for (j = 1; j <= 2; j++) {
			c = ccs[j]; pb = P["f14." c ".bg"]; gsub(/−| %/, "", pb)
			put("f14h." c ".bg.vs", -100 * (BEST["f14h", c, "bg_mean_ratio"] - 1) > pb ? "exceeds" : "falls short of")
		}
		lo = 1e9; hi = -1e9
		for (j = 1; j <= 2; j++) { rng("f14h", ccs[j], "fan_mean_ratio", 0.6, 0.8, 100); if (RLO - 100 < lo) lo = RLO - 100; if (RHI - 100 > hi) hi = RHI - 100 }
		put("f14h.fan.low", sgn(lo, 0) " %…" sgn(hi, 0) " %")
	}
	# the sample
	rng("f14", "powertcp", "bg_flows", 0.2, 0.8, 1); a = RLO; b = RHI; rng("f14", "dcqcn", "bg_flows", 0.2, 0.8, 1)
	if (RLO < a) a = RLO; if (RHI > b) b = RHI
	put("bgflows", range(a, b, 0, "")); put("p99flows", range(int(0.01 * a) + (0.01 * a > int(0.01 * a)), int(0.01 * b) + (0.01 * b > int(0.01 * b)), 0, ""))
	m = 0; for (j = 1; j <= 2; j++) for (i = 1; i <= NL["f14"]; i++) { l = L["f14", i]; v = x("f14", ccs[j], l, "dsh_done") - x("f14", ccs[j], l, "sih_done"); if (v > m) { m = v; ml = cname(ccs[j]) " at " l } }
	put("unfinished", m ? "Under " ml ", SIH left " num(m, 0) " more flows unfinished than DSH; leaving them out favours SIH." : "")
	done()
}
