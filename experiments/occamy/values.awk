# values.awk: the numbers of experiments/occamy/REPORT.md, from run.sh's choking.csv and burst.csv.
# Run by report.sh after experiments/lib/values.awk:
#   awk -f experiments/lib/values.awk -f experiments/occamy/values.awk what=paper paper.tsv \
#       what=prev previous.tsv run=main what=c14 choking.csv what=b12 burst.csv \
#       [run=rto5 what=c14 ... what=b12 ...] [run=big what=c14 ...]
# choking.csv: size_pct,scheme,background,queries,qct_mean_us,qct_p50_us,qct_p99_us,qct_max_us,rto_pct
# burst.csv: size_pct,scheme,queries,qct_mean_us,qct_p50_us,qct_p99_us,qct_max_us,rto_pct,
#   bg_fct_mean_us,bg_short_fct_p99_us
# QCTs are printed in ms. "x" = with / without background. Reductions are Occamy's, in %.
what == "paper" || what == "prev" {
	if ($0 ~ /^#/ || $0 == "") next
	split($0, f, "\t")
	if (what == "paper") P[f[1]] = f[2]
	else { PV[f[1]] = f[2]; put("pv." f[1], f[1] ~ /red/ ? sgn(f[2], 0) " %" : f[2]) }
	next
}
FNR == 1 { next }
{ split($0, f, ","); r = run }
what == "c14" {
	x = f[1]; s = f[2]; b = f[3]
	if (!((r, x) in sx)) { sx[r, x] = 1; nx[r]++; X[r, nx[r]] = x }
	Q14[r, x, s, b] = f[4]; M14[r, x, s, b] = f[5] / 1000; T14[r, x, s, b] = f[7] / 1000; R14[r, x, s, b] = f[9]
	has14[r] = 1
	next
}
what == "b12" {
	x = f[1]; s = f[2]
	if (!((r, x) in sb)) { sb[r, x] = 1; nb[r]++; B[r, nb[r]] = x }
	Q12[r, x, s] = f[3]; M12[r, x, s] = f[4] / 1000; T12[r, x, s] = f[6] / 1000; R12[r, x, s] = f[8]
	BG[r, x, s] = f[9] / 1000; SM[r, x, s] = f[10] / 1000
	has12[r] = 1
	next
}
function name(s) { return s == "dt" ? "DT" : s == "abm" ? "ABM" : s == "occamy" ? "Occamy" : "Pushout" }
function sch(i) { return i == 1 ? "dt" : i == 2 ? "abm" : i == 3 ? "occamy" : "pushout" }
function red(r, x, b) { return 100 * (M12[r, x, "occamy"] / M12[r, x, b] - 1) }
function pc(x) { return sgn(x, 0) " %" }
function xm(r, x, s) { return M14[r, x, s, 0] ? M14[r, x, s, 1] / M14[r, x, s, 0] : 0 }
function xp(r, x, s) { return T14[r, x, s, 0] ? T14[r, x, s, 1] / T14[r, x, s, 0] : 0 }
# largest inflation over the sizes, and where
function maxm(r, s,   i, y, m) { m = 0; for (i = 1; i <= nx[r]; i++) { y = xm(r, X[r, i], s); if (y > m) { m = y; AT = X[r, i] } } return m }
function maxp(r, s,   i, y, m) { m = 0; for (i = 1; i <= nx[r]; i++) { y = xp(r, X[r, i], s); if (y > m) { m = y; AT = X[r, i] } } return m }
function rratio(o, p) { return o >= p / 1.5 && o <= p * 1.5 ? "reproduced" : (o > p ? "same direction, larger" : "same direction, smaller") }
function t14(r,   t, i, j, x, s) {
	t = "| size (% of buffer) | scheme | mean w/o | mean with | mean x | p99 w/o | p99 with | p99 x | % queries with RTO, w/o → with |\n|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= nx[r]; i++) for (j = 1; j <= 4; j++) {
		x = X[r, i]; s = sch(j)
		t = t "\n| " x " | " name(s) " | " fix(M14[r, x, s, 0], 2) " | " fix(M14[r, x, s, 1], 2) " | " fix(xm(r, x, s), 1) " | " fix(T14[r, x, s, 0], 2) " | " \
			fix(T14[r, x, s, 1], 2) " | " fix(xp(r, x, s), 1) " | " fix(R14[r, x, s, 0], 1) " → " fix(R14[r, x, s, 1], 1) " |"
	}
	return t
}
function t12(r,   t, i, j, x, s) {
	t = "| size (% of buffer) | DT mean / RTO % | ABM mean / RTO % | Occamy mean / RTO % | Pushout mean / RTO % | Occamy vs DT | Occamy vs ABM |\n|---|---|---|---|---|---|---|"
	for (i = 1; i <= nb[r]; i++) {
		x = B[r, i]; t = t "\n| " x " |"
		for (j = 1; j <= 4; j++) { s = sch(j); t = t " " fix(M12[r, x, s], (r == "main" ? 1 : 2)) " / " fix(R12[r, x, s], 1) " |" }
		t = t " " pc(red(r, x, "dt")) " | " pc(red(r, x, "abm")) " |"
	}
	return t
}
function redrange(r, b,   i, y, lo, hi) {
	lo = 1e9; hi = -1e9
	for (i = 1; i <= nb[r]; i++) { y = -red(r, B[r, i], b); if (y < lo) lo = y; if (y > hi) hi = y }
	RLO = lo; RHI = hi
	return lo < 0 ? sgn(lo, 0) " to " sgn(hi, 0) " %" : range(lo, hi, 0, "%")
}
END {
	r = "main"
	check(has14[r] && has12[r], "no choking.csv or burst.csv of the main run")
	# ---------------- Fig. 14
	put("f14.table", t14(r))
	qlo = 1e9; qhi = 0; r0 = 0
	for (i = 1; i <= nx[r]; i++) for (j = 1; j <= 4; j++) {
		x = X[r, i]; s = sch(j)
		put("f14." x "." s ".mean0", fix(M14[r, x, s, 0], 2)); put("f14." x "." s ".mean1", fix(M14[r, x, s, 1], 2))
		put("f14." x "." s ".p99_0", fix(T14[r, x, s, 0], 2)); put("f14." x "." s ".p99_1", fix(T14[r, x, s, 1], 2))
		put("f14." x "." s ".rto0", fix(R14[r, x, s, 0], 1)); put("f14." x "." s ".rto1", fix(R14[r, x, s, 1], 1))
		for (b = 0; b <= 1; b++) { if (Q14[r, x, s, b] < qlo) qlo = Q14[r, x, s, b]; if (Q14[r, x, s, b] > qhi) qhi = Q14[r, x, s, b] }
		if (R14[r, x, s, 0] > r0) r0 = R14[r, x, s, 0]
	}
	put("f14.queries", range(qlo, qhi, 0)); put("f14.sizes", X[r, 1] "–" X[r, nx[r]] " %")
	put("f14.rto0.none", r0 == 0 ? 1 : 0); put("f14.rto0.max", fix(r0, 1))
	for (j = 1; j <= 4; j++) {
		s = sch(j)
		m = maxm(r, s); put("f14.max." s ".mean", fix(m, 1)); put("f14.max." s ".mean.at", AT); MX[s] = m
		m = maxp(r, s); put("f14.max." s ".p99", fix(m, 1)); put("f14.max." s ".p99.at", AT); PX[s] = m
		# the first size where the background at least doubles the p99 QCT
		on = ""; for (i = 1; i <= nx[r]; i++) if (on == "" && xp(r, X[r, i], s) >= 2) on = X[r, i]
		put("f14.onset." s, on == "" ? "none" : on " %")
		# RTOs with the background against without
		more = 0; for (i = 1; i <= nx[r]; i++) if (R14[r, X[r, i], s, 1] > R14[r, X[r, i], s, 0]) more++
		put("f14.morerto." s, more)
		lo = 1e9; hi = 0; for (i = 1; i <= nx[r]; i++) { y = R14[r, X[r, i], s, 1]; if (y < lo) lo = y; if (y > hi) hi = y }
		put("f14.rto1." s, range(lo, hi, 1, "%")); put("f14.rto1max." s, fix(hi, 1) " %")
	}
	put("f14.dt.mean.v", rratio(MX["dt"], P["f14.dt.mean"])); put("f14.dt.p99.v", rratio(PX["dt"], P["f14.dt.p99"]))
	put("f14.abm.mean.v", rratio(MX["abm"], P["f14.abm.mean"]))
	put("f14.occamy.v", MX["occamy"] <= 1.3 && PX["occamy"] <= 1.3 ? "reproduced" : (MX["occamy"] < MX["dt"] && MX["occamy"] < MX["abm"] ? "mostly: less than DT and ABM, but not ≈ 1× everywhere" : "**not reproduced**"))
	put("f14.pushout.v", MX["pushout"] <= 1.3 && PX["pushout"] <= 1.3 ? "reproduced" : "**not reproduced**: Pushout is affected")
	put("f14.occ.vs.push", MX["occamy"] < MX["pushout"] ? "less" : "more")
	check(MX["dt"] > 1.5 && MX["abm"] > 1.5, "the background no longer inflates DT's and ABM's mean QCT by more than 1.5×: no choking")
	check(MX["occamy"] < MX["dt"] && MX["occamy"] < MX["abm"], "Occamy's largest mean-QCT inflation is no longer below DT's and ABM's")
	# ---------------- Fig. 12
	put("f12.table", t12(r))
	qlo = 1e9; qhi = 0
	for (i = 1; i <= nb[r]; i++) {
		x = B[r, i]
		for (j = 1; j <= 4; j++) {
			s = sch(j); put("f12." x "." s ".mean", fix(M12[r, x, s], 1)); put("f12." x "." s ".rto", fix(R12[r, x, s], 1))
			if (Q12[r, x, s] < qlo) qlo = Q12[r, x, s]; if (Q12[r, x, s] > qhi) qhi = Q12[r, x, s]
		}
		put("f12." x ".red.dt", fix(red(r, x, "dt"), 0)); put("f12." x ".red.abm", fix(red(r, x, "abm"), 0))
	}
	put("f12.queries", range(qlo, qhi, 0)); put("f12.sizes", B[r, 1] "–" B[r, nb[r]] " %")
	put("f12.red.dt", redrange(r, "dt")); dlo = RLO; dhi = RHI
	put("f12.red.abm", redrange(r, "abm")); alo = RLO; ahi = RHI
	put("f12.red.dt.v", dhi >= P["f12.red.dt"] - 10 && dhi <= P["f12.red.dt"] + 10 ? "reproduced" : (dhi > P["f12.red.dt"] ? "same direction, larger" : "same direction, smaller"))
	put("f12.red.abm.v", ahi >= P["f12.red.abm"] - 10 && ahi <= P["f12.red.abm"] + 10 ? "reproduced" : (ahi > P["f12.red.abm"] ? "same direction, larger" : "same direction, smaller"))
	# Occamy against Pushout
	lo = 1e9; hi = 0; plo = 1e9; phi = -1e9
	for (i = 1; i <= nb[r]; i++) { x = B[r, i]; y = M12[r, x, "occamy"] / M12[r, x, "pushout"]; if (y < lo) lo = y; if (y > hi) hi = y
		d = R12[r, x, "occamy"] - R12[r, x, "pushout"]; if (d < plo) plo = d; if (d > phi) phi = d }
	put("f12.vs.push", range(lo, hi, 1) "×"); put("f12.vs.push.rto", range(plo, phi, 1))
	put("f12.push.v", hi <= 2 ? "yes" : "no")
	# the RTO-free region: the smallest size with an RTO, per scheme
	for (j = 1; j <= 4; j++) { s = sch(j); first = ""; for (i = 1; i <= nb[r]; i++) if (first == "" && R12[r, B[r, i], s] > 0) first = B[r, i]
		put("f12.rto.first." s, first == "" ? "none" : first " %"); put("f12.rto." s, fix(R12[r, B[r, 1], s], 1)) ; FIRST[s] = first }
	allrto = FIRST["dt"] == B[r, 1] && FIRST["abm"] == B[r, 1] && FIRST["occamy"] == B[r, 1] && FIRST["pushout"] == B[r, 1]
	put("f12.rto.all", allrto)
	put("f12.nrto.v", FIRST["occamy"] == "" || FIRST["occamy"] + 0 >= P["f12.nrto.occamy"] ? "reproduced" : "**not reproduced**: every scheme has RTOs from " B[r, 1] " % on")
	# background and small flows
	for (j = 1; j <= 4; j++) { s = sch(j); lo = 1e9; hi = 0; slo = 1e9; shi = 0
		for (i = 1; i <= nb[r]; i++) { x = B[r, i]; if (BG[r, x, s] < lo) lo = BG[r, x, s]; if (BG[r, x, s] > hi) hi = BG[r, x, s]
			if (SM[r, x, s] < slo) slo = SM[r, x, s]; if (SM[r, x, s] > shi) shi = SM[r, x, s] }
		put("f12.bg." s, range(lo, hi, 1)); BGLO[s] = lo; BGHI[s] = hi; put("f12.small." s, range(slo, shi, 1)); SLO[s] = slo; SHI[s] = shi }
	for (j = 1; j <= 2; j++) { s = sch(j); lo = 1e9; hi = -1e9
		for (i = 1; i <= nb[r]; i++) { x = B[r, i]; y = 100 * (BG[r, x, s] / BG[r, x, "occamy"] - 1); if (y < lo) lo = y; if (y > hi) hi = y }
		put("f12.bg." s ".above", sgn(lo, 0) " to " sgn(hi, 0) " %") }
	# small flows: how many sizes have DT's p99 at a timeout, and Occamy's against ABM's
	dto = 0; for (i = 1; i <= nb[r]; i++) if (SM[r, B[r, i], "dt"] * 1000 >= RTO) dto++
	put("f12.small.dt.rto", dto); put("f12.nsizes", nb[r])
	lo = 1e9; hi = -1e9; for (i = 1; i <= nb[r]; i++) { x = B[r, i]; y = 100 * (SM[r, x, "occamy"] / SM[r, x, "dt"] - 1); if (y < lo) lo = y; if (y > hi) hi = y }
	put("f12.small.vsdt", sgn(lo, 0) " to " sgn(hi, 0) " %")
	lo = 1e9; hi = -1e9; for (i = 1; i <= nb[r]; i++) { x = B[r, i]; y = 100 * (SM[r, x, "occamy"] / SM[r, x, "abm"] - 1); if (y < lo) lo = y; if (y > hi) hi = y }
	put("f12.small.vsabm", sgn(lo, 0) " to " sgn(hi, 0) " %")
	alo = lo; ahi = hi; lo = 1e9; for (i = 1; i <= nb[r]; i++) { x = B[r, i]; y = 100 * (SM[r, x, "occamy"] / SM[r, x, "dt"] - 1); if (y < lo) lo = y }
	put("f12.small.v", (alo > -30 && ahi < 30 ? "Occamy ≈ ABM" : "Occamy not ≈ ABM") "; " (-lo > P["f12.small.dt"] + 10 ? "up to " fix(-lo, 0) " % below DT, more than the paper's" : (-lo >= P["f12.small.dt"] - 10 ? "up to " fix(-lo, 0) " % below DT, as the paper" : "less below DT than the paper")))
	# the ranking, the RTO shares' growth, and the p99s
	rk = 1; for (i = 1; i <= nb[r]; i++) { x = B[r, i]; if (!(M12[r, x, "occamy"] < M12[r, x, "abm"] && M12[r, x, "abm"] < M12[r, x, "dt"] && M12[r, x, "pushout"] <= 1.35 * M12[r, x, "occamy"])) rk = 0 }
	check(rk, "the Fig. 12 ranking Occamy ≈ Pushout < ABM < DT (mean QCT) does not hold at every size")
	check(R12[r, B[r, nb[r]], "occamy"] - R12[r, B[r, 1], "occamy"] < R12[r, B[r, nb[r]], "dt"] - R12[r, B[r, 1], "dt"], "Occamy's RTO share no longer grows more slowly than DT's")
	p99rto = 1; for (i = 1; i <= nb[r]; i++) for (j = 1; j <= 4; j++) if (T12[r, B[r, i], sch(j)] * 1000 < RTO) p99rto = 0
	check(p99rto, "some Fig. 12 p99 QCT is below one RTO: \"the p99 of every scheme is an RTO\" no longer holds")
	put("f12.rto.ms", num(RTO / 1000, 0))
	# the earlier report's Fig. 12 numbers
	lo = 1e9; hi = -1e9; alo = 1e9; ahi = -1e9
	for (i = 1; i <= nb[r]; i++) { y = -PV["f12." B[r, i] ".red.dt"]; if (y < lo) lo = y; if (y > hi) hi = y
		y = -PV["f12." B[r, i] ".red.abm"]; if (y < alo) alo = y; if (y > ahi) ahi = y }
	put("pv.f12.red.dt.range", range(lo, hi, 0, "%")); put("pv.f12.red.abm.range", range(alo, ahi, 0, "%"))
	put("pv.f12.first", B[r, 1]); put("pv.f12.first.dt.rto", PV["f12." B[r, 1] ".dt.rto"]); put("pv.f12.first.occamy.rto", PV["f12." B[r, 1] ".occamy.rto"])
	# Pushout in Fig. 14
	put("f14.push.affected", MX["pushout"] > 1.3 ? 1 : 0)
	lo = 1e9; hi = 0; for (i = 1; i <= nx[r]; i++) { y = M14[r, X[r, i], "pushout", 0]; if (y < lo) lo = y; if (y > hi) hi = y }
	put("f14.push.mean0", range(lo, hi, 2))
	# ---------------- 5 ms minimum RTO
	if (has12["rto5"]) {
		r = "rto5"
		put("r5.f12.table", t12(r))
		put("r5.red.dt", redrange(r, "dt")); h1 = RHI; put("r5.red.abm", redrange(r, "abm")); h2 = RHI
		put("r5.vs.paper", h1 < P["f12.red.dt"] - 10 && h2 < P["f12.red.abm"] - 10 ? "below the paper's up to ~" P["f12.red.dt"] " % and ~" P["f12.red.abm"] " %: with a short RTO the timeouts that separate the schemes cost little" : \
			"up to " fix(h1, 0) " % and " fix(h2, 0) " % (paper ~" P["f12.red.dt"] " % and ~" P["f12.red.abm"] " %)")
		for (i = 1; i <= nb[r]; i++) { put("rto5.f12." B[r, i] ".red.dt", fix(red(r, B[r, i], "dt"), 0)); put("rto5.f12." B[r, i] ".red.abm", fix(red(r, B[r, i], "abm"), 0)) }
	}
	if (has14["rto5"]) {
		r = "rto5"
		for (j = 1; j <= 4; j++) { s = sch(j); put("r5.f14.max." s ".mean", fix(maxm(r, s), 1)); put("r5.f14.max." s ".p99", fix(maxp(r, s), 1)) }
	}
	# ---------------- the paper's Fig. 14 query sizes
	if (has14["big"]) {
		r = "big"
		put("big.table", t14(r)); put("big.sizes", X[r, 1] "–" X[r, nx[r]] " %")
		for (j = 1; j <= 4; j++) { s = sch(j); put("big.max." s ".mean", fix(maxm(r, s), 1)); put("big.max." s ".p99", fix(maxp(r, s), 1))
			lo = 1e9; hi = 0; for (i = 1; i <= nx[r]; i++) { y = R14[r, X[r, i], s, 0]; if (y < lo) lo = y; if (y > hi) hi = y }
			put("big.rto0." s, range(lo, hi, 1, "%"))
			lo = 1e9; hi = 0; for (i = 1; i <= nx[r]; i++) { y = M14[r, X[r, i], s, 0]; if (y < lo) lo = y; if (y > hi) hi = y }
			put("big.mean0." s, range(lo, hi, 2, "ms")); BM[s] = maxm(r, s) }
		put("big.dt.mean.v", rratio(BM["dt"], P["f14.dt.mean"])); put("big.abm.mean.v", rratio(BM["abm"], P["f14.abm.mean"]))
		put("big.dt.p99.v", rratio(maxp(r, "dt"), P["f14.dt.p99"]))
		put("big.occ.least", BM["occamy"] < BM["dt"] && BM["occamy"] < BM["abm"] && BM["occamy"] < BM["pushout"] ? "the smallest of the four" : (BM["occamy"] < BM["dt"] && BM["occamy"] < BM["abm"] ? "below DT's and ABM's" : "not below DT's and ABM's"))
		put("big.occ.one", BM["occamy"] <= 1.3 ? "≈ 1× as in the paper" : "not ≈ 1× as in the paper")
	}
	done()
}
