# values.awk: the numbers of experiments/reverie/REPORT.md, from run.sh's results.csv.
# Run by report.sh after experiments/lib/values.awk:
#   awk -f experiments/lib/values.awk -f experiments/reverie/values.awk what=paper paper.tsv \
#       what=prev previous.tsv what=same same.txt what=res results.csv
# results.csv: fig,x,scheme,pauses,paused_ms,incast_mean,incast_p99,qct_mean,qct_p99,short_p99,
#   short_n,rdma_occ_p99_pct,tcp_occ_p99_pct,lossy_drops,lossless_drops,queries,queries_done,unfinished
# same.txt: "gamma same|differ" per Fig. 10 gamma (flows.csv of the flag on and off identical or not).
# Changes are (Reverie − baseline) / baseline in %, negative = Reverie lower; "avg" is the mean of
# the per-point changes, "total" the change of the sums over the sweep.
what == "paper" || what == "prev" {
	if ($0 ~ /^#/ || $0 == "") next
	split($0, f, "\t")
	if (what == "paper") { P[f[1]] = f[2]; if (f[2] ~ /^-?[0-9.]+$/) put("pp." f[1], fmtp(f[2])) }
	else { PV[f[1]] = f[2]; put("pv." f[1], f[1] ~ /\.avg\./ ? fmtp(f[2]) : f[2]) }
	next
}
what == "same" { SAME[$1] = $2; next }
what == "res" && FNR == 1 { n = split($0, H, ","); next }
what == "res" {
	split($0, f, ",")
	fg = f[1]; x = f[2]; s = f[3]
	if (!((fg, x) in seenx)) { seenx[fg, x] = 1; nx[fg]++; X[fg, nx[fg]] = x }
	for (i = 4; i <= n; i++) V[fg, x, s, H[i]] = f[i]
	has[fg, s] = 1
	# seeds: the runs behind the means (results.csv's n)
	NRUNS += f[4]; if (NSEEDS == "" || f[4] < NSEEDS) NSEEDS = f[4]
	next
}
function fmtp(v) { return (index(v, ".") ? sgn(v, 1) : sgn(v, 0)) " %" }
function v(fg, x, s, c) { return V[fg, x, s, c] + 0 }
function chg(fg, x, s, b, c) { return v(fg, x, b, c) == 0 ? "" : 100 * (v(fg, x, s, c) / v(fg, x, b, c) - 1) }
function p1(x) { return x == "" ? "n/a" : sgn(x, 1) " %" }
function name(s) { return s == "dt" ? "DT" : s == "abm" ? "ABM" : s == "reverie" ? "Reverie" : "Reverie, flag off" }
function xl(fg, x) { return fg == 7 ? x " %" : fg == 8 ? (x / 1e6) " MB" : x }
# mean over the points of a figure of Reverie's change against b (points where b is 0 left out)
function avg(fg, s, b, c,   i, t, k, y) {
	for (i = 1; i <= nx[fg]; i++) { y = chg(fg, X[fg, i], s, b, c); if (y != "") { t += y; k++ } }
	return k ? t / k : ""
}
function total(fg, s, b, c,   i, a, d) {
	for (i = 1; i <= nx[fg]; i++) { a += v(fg, X[fg, i], s, c); d += v(fg, X[fg, i], b, c) }
	return d ? 100 * (a / d - 1) : ""
}
# a mean with its 95 % CI half-width, "12.34 ± 0.56" (just the mean with one seed)
function fmtci(fg, x, s, c,   ci) {
	ci = V[fg, x, s, c "_ci95"]
	return fmt(c, v(fg, x, s, c)) (ci == "" ? "" : " ± " fmt(c, ci))
}
function fmt(c, x) {
	if (c == "pauses") return num(x, 0)
	if (c == "paused_ms") return num(x, 1)
	if (c == "incast_mean" || c == "short_p99") return fix(x, 2)
	if (c == "qct_mean" || c == "qct_p99") return fix(x, 3)
	return fix(x, 1)
}
# the runs of Fig. 7 or 8: one row per (x, scheme)
function runs(fg, skip,   t, i, j, x, s, k, c, nc, C) {
	nc = split("pauses paused_ms incast_mean qct_mean qct_p99 short_p99 rdma_occ_p99_pct tcp_occ_p99_pct", C, " ")
	t = "| " (fg == 7 ? "TCP load" : "burst") " | scheme | PFC pauses | paused (ms) | incast avg | QCT avg | QCT p99 | TCP short p99 | RDMA buf p99 % | TCP buf p99 % |\n|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= nx[fg]; i++) {
		x = X[fg, i]; if (x == skip) continue
		for (j = 1; j <= 3; j++) {
			s = j == 1 ? "dt" : j == 2 ? "abm" : "reverie"
			t = t "\n| " xl(fg, x) " | " (s == "reverie" ? "**Reverie**" : name(s)) " |"
			for (k = 1; k <= nc; k++) { c = fmtci(fg, x, s, C[k]); t = t " " (s == "reverie" && k == 1 ? "**" c "**" : c) " |" }
		}
	}
	return t
}
# Reverie's change against DT / ABM per point, the mean of the points and the sweep total
function changes(fg,   t, i, x, k, nc, C, a, b) {
	nc = split("pauses paused_ms incast_mean qct_mean qct_p99 short_p99", C, " ")
	t = "| " (fg == 7 ? "TCP load" : "burst") " | PFC pauses | paused time | incast avg | QCT avg | QCT p99 | TCP short p99 |\n|---|---|---|---|---|---|---|"
	for (i = 1; i <= nx[fg]; i++) {
		x = X[fg, i]; t = t "\n| " xl(fg, x) " |"
		for (k = 1; k <= nc; k++) {
			a = chg(fg, x, "reverie", "dt", C[k]); b = chg(fg, x, "reverie", "abm", C[k])
			t = t " " (a == "" && b == "" && v(fg, x, "reverie", C[k]) == 0 ? "0 / 0 (none)" : p1(a) " / " p1(b)) " |"
		}
	}
	t = t "\n| **avg of points** |"
	for (k = 1; k <= nc; k++) t = t " " (k == 1 || k == 3 || k == 6 ? "**" p1(avg(fg, "reverie", "dt", C[k])) " / " p1(avg(fg, "reverie", "abm", C[k])) "**" : p1(avg(fg, "reverie", "dt", C[k])) " / " p1(avg(fg, "reverie", "abm", C[k]))) " |"
	t = t "\n| sweep total |"
	for (k = 1; k <= nc; k++) t = t " " p1(total(fg, "reverie", "dt", C[k])) " / " p1(total(fg, "reverie", "abm", C[k])) " |"
	return t
}
function mm(fg, s, c, d,   i, lo, hi, y) {
	lo = 1e18; hi = -1e18
	for (i = 1; i <= nx[fg]; i++) { y = v(fg, X[fg, i], s, c); if (y < lo) lo = y; if (y > hi) hi = y }
	return range(lo, hi, d)
}
function firstlast(fg, s, c, d) { return fix(v(fg, X[fg, 1], s, c), d) " → " fix(v(fg, X[fg, nx[fg]], s, c), d) }
function verdict(o, p) {
	if (o == "") return "n/a"
	if (p < 0 && o >= 0) return "**not reproduced**: Reverie is not lower"
	if (o - p <= 5 + 0.1 * (p < 0 ? -p : p) && p - o <= 5 + 0.1 * (p < 0 ? -p : p)) return "reproduced"
	return (o < 0 ? -o : o) > (p < 0 ? -p : p) ? "same direction, larger" : "same direction, smaller"
}
function main_report() {
	check(nx[7] && nx[8] && nx[10], "results.csv lacks a figure (7, 8 or 10)")
	put("f7.runs", runs(7, "")); put("f7.changes", changes(7))
	put("f8.runs", runs(8, "2000000")); put("f8.changes", changes(8))
	# the numbers "What moved" compares, rounded as the earlier report printed them
	nc = split("pauses paused_ms incast_mean qct_mean qct_p99 short_p99 rdma_occ_p99_pct tcp_occ_p99_pct", C, " ")
	split("pauses paused_ms incast qct qct99 short99 rdmabuf tcpbuf", K, " ")
	split("0 1 2 3 3 2 1 1", D, " ")
	for (fg = 7; fg <= 8; fg++) for (i = 1; i <= nx[fg]; i++) for (j = 1; j <= 3; j++) {
		s = j == 1 ? "dt" : j == 2 ? "abm" : "reverie"
		for (k = 1; k <= nc; k++) put("f" fg "." X[fg, i] "." s "." K[k], fix(v(fg, X[fg, i], s, C[k]), D[k]))
	}
	averages(7); averages(8)
	# Fig. 10
	t = "| γ | PFC pauses on / off | paused (ms) on / off | incast avg on / off | QCT avg on / off | QCT p99 on / off | RDMA short p99 on / off |\n|---|---|---|---|---|---|---|"
	same = ""; differ = ""
	for (i = 1; i <= nx[10]; i++) {
		g = X[10, i]; if (g == "ref") continue
		t = t "\n| " (g == "0.999" ? "**" g "**" : g) " |"
		for (k = 1; k <= 6; k++) {
			a = fmtci(10, g, "reverie", C[k]); o = fmtci(10, g, "reverie-art", C[k])
			t = t " " ((g == "0.999" && (k == 1 || k == 3)) ? "**" a " / " o "**" : a " / " o) " |"
			put("f10." g ".reverie." K[k], fix(v(10, g, "reverie", C[k]), D[k])); put("f10." g ".reverie-art." K[k], fix(v(10, g, "reverie-art", C[k]), D[k]))
		}
		if (SAME[g] == "same") same = same (same == "" ? "" : ", ") g; else differ = differ (differ == "" ? "" : ", ") g
		G[++ng] = g
	}
	for (j = 1; j <= 2; j++) {
		s = j == 1 ? "dt" : "abm"; t = t "\n| " name(s) " (reference) |"
		for (k = 1; k <= 6; k++) { t = t " " fmtci(10, "ref", s, C[k]) " |"; put("f10.ref." s "." K[k], fix(v(10, "ref", s, C[k]), D[k])) }
	}
	put("f10.table", t); put("f10.same", same); put("f10.differ", differ)
	g1 = "0.999"; g2 = G[ng]
	put("f10.g1", g1); put("f10.g2", g2)
	put("f10.flag.pauses.g1", p1(100 * (v(10, g1, "reverie", "pauses") / v(10, g1, "reverie-art", "pauses") - 1)))
	put("f10.flag.qct.g1", p1(100 * (v(10, g1, "reverie", "qct_mean") / v(10, g1, "reverie-art", "qct_mean") - 1)))
	put("f10.flag.qct99.g1", p1(100 * (v(10, g1, "reverie", "qct_p99") / v(10, g1, "reverie-art", "qct_p99") - 1)))
	put("f10.flag.incast.g1", p1(100 * (v(10, g1, "reverie", "incast_mean") / v(10, g1, "reverie-art", "incast_mean") - 1)))
	put("f10.flag.pauses.g2", p1(100 * (v(10, g2, "reverie", "pauses") / v(10, g2, "reverie-art", "pauses") - 1)))
	# pauses and paused time over γ
	mono = 1; for (i = 2; i <= ng; i++) if (v(10, G[i], "reverie", "pauses") > v(10, G[i - 1], "reverie", "pauses")) { mono = 0; up_at = G[i] }
	put("f10.pauses.mono", mono)
	put("f10.pauses.path", num(v(10, G[1], "reverie", "pauses"), 0) " (γ " G[1] ") → " num(v(10, g1, "reverie", "pauses"), 0) " (" g1 ") → " num(v(10, g2, "reverie", "pauses"), 0) " (" g2 "; " num(v(10, g2, "reverie-art", "pauses"), 0) " with the flag off)")
	monot = 1; for (i = 2; i <= ng; i++) if (v(10, G[i], "reverie", "paused_ms") > v(10, G[i - 1], "reverie", "paused_ms")) monot = 0
	put("f10.paused.mono", monot)
	put("f10.paused.path", num(v(10, G[1], "reverie", "paused_ms"), 0) " → " num(v(10, g1, "reverie", "paused_ms"), 0) " → " num(v(10, g2, "reverie", "paused_ms"), 0) " ms")
	put("f10.pauses.v", mono ? "reproduced" : "up to " g1 " only; see below")
	# incast over γ, and the rise at the last γ against 0.999
	put("f10.incast.path", fix(v(10, G[1], "reverie", "incast_mean"), 2) " (γ " G[1] ") → " fix(v(10, g1, "reverie", "incast_mean"), 2) " (" g1 ")")
	mi = 0; for (i = 1; i <= ng; i++) if (v(10, G[i], "reverie", "incast_mean") > mi) { mi = v(10, G[i], "reverie", "incast_mean"); mg = G[i] }
	put("f10.incast.max", fix(mi, 2) " at γ " mg)
	rise = 100 * (v(10, g2, "reverie", "incast_mean") / v(10, g1, "reverie", "incast_mean") - 1)
	risea = 100 * (v(10, g2, "reverie-art", "incast_mean") / v(10, g1, "reverie-art", "incast_mean") - 1)
	put("f10.rise", p1(rise)); put("f10.rise.art", p1(risea))
	put("f10.rise.v", rise > 0 ? (rise >= P["f10.incast.rise"] / 2 ? "reproduced" : "shape reproduced, rise much smaller") : "**not reproduced**: no rise")
	put("f10.fall.v", v(10, g1, "reverie", "incast_mean") < v(10, G[1], "reverie", "incast_mean") ? (mg == G[1] ? "falls" : "falls overall (highest at γ " mg ")") : "does not fall")
	# chattering at the last γ: mean pause episode
	put("f10.episode.g2", fix(1000 * v(10, g2, "reverie", "paused_ms") / v(10, g2, "reverie", "pauses"), 1)); put("f10.episode.g1", fix(1000 * v(10, g1, "reverie", "paused_ms") / v(10, g1, "reverie", "pauses"), 0))
	put("f10.abm.vs.dt", times(v(10, "ref", "abm", "pauses") / v(10, "ref", "dt", "pauses"), 0))
	put("f10.ref.pauses", num(v(10, "ref", "abm", "pauses"), 0) " vs " num(v(10, "ref", "dt", "pauses"), 0))
	# the flag in Figs. 7/8: Reverie pauses with the flag off / on
	t = ""; for (i = 1; i <= nx[7]; i++) t = t (i > 1 ? ", " : "") num(v(7, X[7, i], "reverie-art", "pauses"), 0) "/" num(v(7, X[7, i], "reverie", "pauses"), 0)
	put("flag.f7", t)
	flip = 0
	for (fg = 7; fg <= 8; fg++) for (i = 1; i <= nx[fg]; i++) for (b = 1; b <= 2; b++) { bs = b == 1 ? "dt" : "abm"
		for (k = 1; k <= 6; k++) { a1 = chg(fg, X[fg, i], "reverie", bs, C[k]); a2 = chg(fg, X[fg, i], "reverie-art", bs, C[k])
			if (a1 != "" && a2 != "" && ((a1 < -0.5 && a2 > 0.5) || (a1 > 0.5 && a2 < -0.5))) flip++ } }
	put("flag.flips", flip)

	# ---------------- Paper vs ours
	f7_claims()
	np8 = 0; for (i = 1; i <= nx[8]; i++) if (v(8, X[8, i], "dt", "pauses") > 0) np8++
	put("c.f8.pauses.dt", p1(AVG[8, "dt", "pauses"]) " (" np8 " points with DT pauses; totals " p1(TOT[8, "dt", "pauses"]) ")"); put("c.f8.pauses.dt.v", verdict(AVG[8, "dt", "pauses"], P["f8.pauses.dt"]))
	put("c.f8.pauses.abm", p1(AVG[8, "abm", "pauses"]) " (totals " p1(TOT[8, "abm", "pauses"]) ")"); put("c.f8.pauses.abm.v", verdict(AVG[8, "abm", "pauses"], P["f8.pauses.abm"]))
	k = 0; for (i = 1; i <= nx[8]; i++) if (v(8, X[8, i], "abm", "pauses") > v(8, X[8, i], "dt", "pauses")) k++
	check(k > nx[8] / 2, "ABM no longer pauses more than DT at most bursts of Fig. 8 (item 2)")
	put("c.f8.abmdt", k == nx[8] ? "no: ABM > DT at every burst" : "ABM > DT at " k " of " nx[8] " bursts"); put("c.f8.abmdt.v", k > nx[8] / 2 ? "**not reproduced**" : "reproduced")
	for (fg = 8; fg <= 8; fg++) for (b = 1; b <= 2; b++) { bs = b == 1 ? "dt" : "abm"
		put("c.f" fg ".incast." bs, p1(AVG[fg, bs, "incast"])); put("c.f" fg ".incast." bs ".v", verdict(AVG[fg, bs, "incast"], P["f" fg ".incast." bs])) }
	# "up to": the best point over Figs. 7 and 8
	for (b = 1; b <= 2; b++) { bs = b == 1 ? "dt" : "abm"; best = 0; where = ""
		for (fg = 7; fg <= 8; fg++) for (i = 1; i <= nx[fg]; i++) { y = chg(fg, X[fg, i], "reverie", bs, "incast_mean"); if (y != "" && y < best) { best = y; where = (fg == 7 ? X[fg, i] " % load" : xl(fg, X[fg, i])) } }
		put("c.incast." bs ".max", p1(best) " at best (" where ")"); put("c.incast." bs ".max.v", verdict(best, P["incast." bs ".max"])); BEST[bs] = best }
	put("c.f8.short", mm(8, "reverie", "short_p99", 0) " vs " mm(8, "abm", "short_p99", 0) " vs " mm(8, "dt", "short_p99", 0))
	ok = 1; for (i = 1; i <= nx[8]; i++) if (v(8, X[8, i], "dt", "short_p99") < 1.5 * v(8, X[8, i], "reverie", "short_p99")) ok = 0
	y = 100 * (1 - 1 / (1 + AVG[8, "abm", "short99"] / 100))
	put("c.f8.short.v", ok ? "DT ≫ both reproduced; " (y > 0 ? "ABM about " fix(y, 0) " % below Reverie" : "Reverie about " fix(-y, 0) " % below ABM") : "**not reproduced**")
	# buffers
	put("c.f8d", "Reverie " firstlast(8, "reverie", "rdma_occ_p99_pct", 1) " %, DT " firstlast(8, "dt", "rdma_occ_p99_pct", 1) " %, ABM " firstlast(8, "abm", "rdma_occ_p99_pct", 1) " %")
	put("c.f8d.v", v(8, X[8, nx[8]], "reverie", "rdma_occ_p99_pct") - v(8, X[8, 1], "reverie", "rdma_occ_p99_pct") > v(8, X[8, nx[8]], "dt", "rdma_occ_p99_pct") - v(8, X[8, 1], "dt", "rdma_occ_p99_pct") ? "reproduced" : "**not reproduced**")
	put("c.f8e", "DT " mm(8, "dt", "tcp_occ_p99_pct", 1) " %, Reverie " mm(8, "reverie", "tcp_occ_p99_pct", 1) " %, ABM " mm(8, "abm", "tcp_occ_p99_pct", 1) " %")
	most = 1; for (i = 1; i <= nx[8]; i++) if (v(8, X[8, i], "dt", "tcp_occ_p99_pct") < v(8, X[8, i], "reverie", "tcp_occ_p99_pct") || v(8, X[8, i], "dt", "tcp_occ_p99_pct") < v(8, X[8, i], "abm", "tcp_occ_p99_pct")) most = 0
	wid = (v(8, X[8, nx[8]], "dt", "tcp_occ_p99_pct") - v(8, X[8, nx[8]], "reverie", "tcp_occ_p99_pct")) > (v(8, X[8, 1], "dt", "tcp_occ_p99_pct") - v(8, X[8, 1], "reverie", "tcp_occ_p99_pct")) + 2
	put("c.f8e.v", (most ? "DT most: yes" : "DT most: no") "; widening: " (wid ? "yes" : "no"))
	put("c.abs", "pauses " p1(AVG[7, "dt", "pauses"]) " / " p1(AVG[7, "abm", "pauses"]) " (Fig. 7), " p1(AVG[8, "dt", "pauses"]) " / " p1(AVG[8, "abm", "pauses"]) " (Fig. 8); incast FCT up to " p1(BEST["dt"]) " vs DT, " p1(BEST["abm"]) " vs ABM")
	put("c.abs.v", (AVG[7, "dt", "pauses"] < -40 ? "pauses yes" : "pauses smaller") ", " (BEST["dt"] <= -28 ? "FCT yes" : "FCT gains smaller"))
	put("c.f10.pauses", put10())

	# ---------------- Where we differ
	lo = 1e9; hi = -1e9; for (i = 1; i <= nx[7]; i++) { y = -chg(7, X[7, i], "reverie", "dt", "pauses"); if (y < lo) lo = y; if (y > hi) hi = y }
	put("d.f7.pauses.dt", range(lo, hi, 0, "%"))
	lo = 1e9; hi = -1e9; for (i = 1; i <= nx[7]; i++) { y = -chg(7, X[7, i], "reverie", "dt", "incast_mean"); if (y < lo) lo = y; if (y > hi) hi = y }
	put("d.f7.incast.dt", range(lo, hi, 0, "%"))
	put("d.f7.incast.all", mm(7, "dt", "incast_mean", 1) " (DT), " mm(7, "reverie", "incast_mean", 1) " (Reverie)")
	put("d.f7.qct.dt", mm(7, "dt", "qct_mean", 2))
	put("d.abm.more", range(mnr(7) < mnr(8) ? mnr(7) : mnr(8), mxr(7) > mxr(8) ? mxr(7) : mxr(8), 1) "×")
	put("d.lossy.ratio", range(lr_lo(), lr_hi(), 1) "×")
	put("d.lossy.80", num(v(7, X[7, nx[7]], "reverie", "lossy_drops"), 0) " vs " num(v(7, X[7, nx[7]], "dt", "lossy_drops"), 0))
	put("d.abm.tcpbuf", mm(7, "abm", "tcp_occ_p99_pct", 0))
	for (fg = 7; fg <= 8; fg++) for (i = 1; i <= nx[fg]; i++) { a1 = v(fg, X[fg, i], "abm", "short_p99"); a2 = v(fg, X[fg, i], "reverie", "short_p99"); a3 = v(fg, X[fg, i], "dt", "short_p99")
		check(a1 <= a2 && a2 <= a3 && a2 - a1 < a3 - a2, "Reverie's TCP short-flow p99 is not between ABM's and DT's, nearer ABM's, at Fig. " fg ", " xl(fg, X[fg, i]) " (item 3)") }
	check(v(10, G[ng], "reverie", "pauses") > v(10, "0.999", "reverie", "pauses"), "the last γ no longer pauses more than γ = 0.999 (item 4)")
	lo = 1e9; hi = 0; for (fg = 7; fg <= 8; fg++) for (i = 1; i <= nx[fg]; i++) { y = v(fg, X[fg, i], "dt", "lossless_drops") + v(fg, X[fg, i], "abm", "lossless_drops") + v(fg, X[fg, i], "reverie", "lossless_drops") + v(fg, X[fg, i], "reverie-art", "lossless_drops"); hi += y
		for (j = 1; j <= 4; j++) { s = j == 1 ? "dt" : j == 2 ? "abm" : j == 3 ? "reverie" : "reverie-art"; if (v(fg, X[fg, i], s, "queries_done") != v(fg, X[fg, i], s, "queries")) nd++ } }
	for (i = 1; i <= nx[10]; i++) for (j = 1; j <= 4; j++) { s = j == 1 ? "dt" : j == 2 ? "abm" : j == 3 ? "reverie" : "reverie-art"; hi += v(10, X[10, i], s, "lossless_drops") }
	put("d.lossless", num(hi, 0)); put("d.notdone", nd + 0); lossless_n = hi
	put("f10.paused.txt", monot ? "monotonically (" num(v(10, G[1], "reverie", "paused_ms"), 0) " → " num(v(10, g1, "reverie", "paused_ms"), 0) " → " num(v(10, g2, "reverie", "paused_ms"), 0) " ms), which is the substance of Fig. 10a." : "overall, not monotonically.")
	put("pv.f10.rise", p1(100 * (PV["f10." g2 ".reverie.incast"] / PV["f10." g1 ".reverie.incast"] - 1)))
	# TCP short-flow p99 in Fig. 7, before and now
	fell = 0; tot = 0
	for (i = 1; i <= nx[7]; i++) for (j = 1; j <= 3; j++) { s = j == 1 ? "dt" : j == 2 ? "abm" : "reverie"; tot++
		if (v(7, X[7, i], s, "short_p99") < PV["f7." X[7, i] "." s ".short99"]) fell++ }
	put("d.short.fell", fell == tot ? "fell at every point for every scheme" : "fell at " fell " of " tot " (load, scheme) points")
	for (j = 1; j <= 2; j++) { s = j == 1 ? "dt" : "reverie"; lo = 1e9; hi = 0
		for (i = 1; i <= nx[7]; i++) { y = PV["f7." X[7, i] "." s ".short99"]; if (y < lo) lo = y; if (y > hi) hi = y }
		put("pv.d.short." s, range(lo, hi, 0)); put("d.short." s, mm(7, s, "short_p99", 0)) }
	check(lossless_n == 0, "lossless packets were dropped (" lossless_n ")")
	check(nd + 0 == 0, "queries did not complete in " nd " runs")
	put("d.queries", num(v(7, X[7, 1], "dt", "queries"), 0))
	put("nruns", NRUNS); put("nseeds", NSEEDS)
	lo = 1e9; hi = 0; for (fg = 7; fg <= 10; fg++) for (i = 1; i <= nx[fg]; i++) for (j = 1; j <= 4; j++) { s = j == 1 ? "dt" : j == 2 ? "abm" : j == 3 ? "reverie" : "reverie-art"
		if (!((fg, X[fg, i], s, "unfinished") in V)) continue; y = v(fg, X[fg, i], s, "unfinished"); if (y < lo) lo = y; if (y > hi) hi = y }
	put("d.unfinished", range(lo, hi, 0))
	done()
}
function mnr(fg,   i, y, m) { m = 1e9; for (i = 1; i <= nx[fg]; i++) if (v(fg, X[fg, i], "dt", "pauses") > 0) { y = v(fg, X[fg, i], "abm", "pauses") / v(fg, X[fg, i], "dt", "pauses"); if (y < m) m = y } return m }
function mxr(fg,   i, y, m) { m = 0; for (i = 1; i <= nx[fg]; i++) if (v(fg, X[fg, i], "dt", "pauses") > 0) { y = v(fg, X[fg, i], "abm", "pauses") / v(fg, X[fg, i], "dt", "pauses"); if (y > m) m = y } return m }
function lr_lo(   i, y, m) { m = 1e9; for (i = 1; i <= nx[7]; i++) { y = v(7, X[7, i], "reverie", "lossy_drops") / v(7, X[7, i], "dt", "lossy_drops"); if (y < m) m = y } return m }
function lr_hi(   i, y, m) { m = 0; for (i = 1; i <= nx[7]; i++) { y = v(7, X[7, i], "reverie", "lossy_drops") / v(7, X[7, i], "dt", "lossy_drops"); if (y > m) m = y } return m }
function put10() { return "" }

# Reverie's mean change against DT and ABM over the points of a figure (AVG) and of the sums (TOT)
function averages(fg,   b, k, bs, y) {
	for (b = 1; b <= 2; b++) for (k = 1; k <= 6; k++) {
		bs = b == 1 ? "dt" : "abm"; y = avg(fg, "reverie", bs, C[k])
		if (y != "") put("f" fg ".avg.vs" bs "." K[k], fix(y, 1))
		AVG[fg, bs, K[k]] = y; TOT[fg, bs, K[k]] = total(fg, "reverie", bs, C[k])
	}
}
# the paper's Fig. 7 claims against our Fig. 7 (after averages(7)): both scales use it
function f7_claims(   x1, y, k, i, gd, gr, b, bs) {
	put("c.f7.pauses.dt", p1(AVG[7, "dt", "pauses"]) " (totals " p1(TOT[7, "dt", "pauses"]) ")"); put("c.f7.pauses.dt.v", verdict(AVG[7, "dt", "pauses"], P["f7.pauses.dt"]))
	put("c.f7.pauses.abm", p1(AVG[7, "abm", "pauses"]) " (totals " p1(TOT[7, "abm", "pauses"]) ")"); put("c.f7.pauses.abm.v", verdict(AVG[7, "abm", "pauses"], P["f7.pauses.abm"]))
	x1 = X[7, 1]
	y = chg(7, x1, "reverie", "dt", "pauses"); put("c.f7.pauses.dt.20", p1(y)); put("c.f7.pauses.dt.20.v", verdict(y, P["f7.pauses.dt.20"]))
	y = chg(7, x1, "reverie", "abm", "pauses"); put("c.f7.pauses.abm.20", p1(y)); put("c.f7.pauses.abm.20.v", verdict(y, P["f7.pauses.abm.20"]))
	put("c.f7.load1", x1)
	k = 0; for (i = 1; i <= nx[7]; i++) if (v(7, X[7, i], "abm", "pauses") > v(7, X[7, i], "dt", "pauses")) k++
	put("c.f7.abmdt", k == nx[7] ? "yes, at every load" : k " of " nx[7] " loads"); put("c.f7.abmdt.v", k == nx[7] ? "reproduced" : k > nx[7] / 2 ? "mostly" : "**not reproduced**")
	put("c.f7.short", p1(AVG[7, "dt", "short99"]) "; " p1(AVG[7, "abm", "short99"]) " vs ABM (Reverie " mm(7, "reverie", "short_p99", 1) ", ABM " mm(7, "abm", "short_p99", 1) ", DT " mm(7, "dt", "short_p99", 1) ")")
	put("c.f7.short.v", verdict(AVG[7, "dt", "short99"], P["f7.short.dt"]) (AVG[7, "abm", "short99"] > 10 ? "; above ABM" : "; ≈ ABM"))
	put("c.f7d", "DT " firstlast(7, "dt", "rdma_occ_p99_pct", 1) " %; Reverie " mm(7, "reverie", "rdma_occ_p99_pct", 1) " %; ABM " mm(7, "abm", "rdma_occ_p99_pct", 0) " %")
	put("c.f7d.v", v(7, X[7, nx[7]], "dt", "rdma_occ_p99_pct") < v(7, X[7, 1], "dt", "rdma_occ_p99_pct") && v(7, X[7, nx[7]], "reverie", "rdma_occ_p99_pct") >= v(7, X[7, 1], "reverie", "rdma_occ_p99_pct") - 2 ? "reproduced" : "**not reproduced**")
	put("c.f7e", "DT " firstlast(7, "dt", "tcp_occ_p99_pct", 1) " %, Reverie " firstlast(7, "reverie", "tcp_occ_p99_pct", 1) " %")
	gd = v(7, X[7, nx[7]], "dt", "tcp_occ_p99_pct") - v(7, X[7, 1], "dt", "tcp_occ_p99_pct"); gr = v(7, X[7, nx[7]], "reverie", "tcp_occ_p99_pct") - v(7, X[7, 1], "reverie", "tcp_occ_p99_pct")
	put("c.f7e.v", gd > 0 && v(7, X[7, nx[7]], "dt", "tcp_occ_p99_pct") > v(7, X[7, nx[7]], "reverie", "tcp_occ_p99_pct") ? (gd > gr ? "reproduced" : "DT above Reverie, but Reverie's grows as much") : "**not reproduced**")
	for (b = 1; b <= 2; b++) { bs = b == 1 ? "dt" : "abm"
		put("c.f7.incast." bs, p1(AVG[7, bs, "incast"])); put("c.f7.incast." bs ".v", verdict(AVG[7, bs, "incast"], P["f7.incast." bs])) }
}
# the paper-scale run of Fig. 7 alone (report.sh: full=1, prefix full.)
function full_report(   k, lo, hi, y, i, j, s) {
	check(nx[7] == 4 && has[7, "dt"] && has[7, "abm"] && has[7, "reverie"], "the paper-scale results lack a load or a scheme of Fig. 7")
	put("f7.runs", runs(7, "")); put("f7.changes", changes(7))
	nc = split("pauses paused_ms incast_mean qct_mean qct_p99 short_p99 rdma_occ_p99_pct tcp_occ_p99_pct", C, " ")
	split("pauses paused_ms incast qct qct99 short99 rdmabuf tcpbuf", K, " ")
	averages(7); f7_claims()
	lo = 1e18; hi = 0; nd = 0; y = 0
	for (i = 1; i <= nx[7]; i++) for (j = 1; j <= 3; j++) { s = j == 1 ? "dt" : j == 2 ? "abm" : "reverie"
		y += v(7, X[7, i], s, "lossless_drops"); if (v(7, X[7, i], s, "queries_done") != v(7, X[7, i], s, "queries")) nd++
		if (v(7, X[7, i], s, "unfinished") < lo) lo = v(7, X[7, i], s, "unfinished"); if (v(7, X[7, i], s, "unfinished") > hi) hi = v(7, X[7, i], s, "unfinished") }
	put("lossless", num(y, 0)); put("notdone", nd); put("unfinished", range(lo, hi, 0))
	put("queries", num(v(7, X[7, 1], "dt", "queries"), 0)); put("nruns", NRUNS); put("nseeds", NSEEDS)
	check(y == 0, "lossless packets were dropped at the paper's scale (" y ")")
	done()
}
END { if (full) full_report(); else main_report() }
