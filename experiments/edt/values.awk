# values.awk: the numbers of experiments/edt/REPORT.md, from the tables tables.sh writes.
# Run by report.sh after experiments/lib/values.awk, with each input tagged:
#   what=paper paper.tsv what=ref refmodel.tsv what=f14 fig14.csv what=f12dt fig12_dt.dat
#   what=f12edt fig12_edt.dat what=f17 fig17b.csv what=ci fig17b-ci.csv what=tot onoff/totals.txt
#   what=drops onoff/burst_drops.txt what=pb onoff/per_burst.txt [what=full17 FULL/fig17b.csv]
# fig17b.csv and totals.txt pool the ON/OFF trials; per_burst.txt lists every burst of every
# run ("policy trial dur_ms ok port start_ns"), in the same order for every policy.
# Prints "key<TAB>value" lines for experiments/lib/fill.awk.
what == "paper" || what == "ref" { if ($0 ~ /^#/ || NF == 0) next; split($0, f, "\t"); R[what "." f[1]] = f[2]; next }
what == "f14" {
	if (FNR == 1) next
	split($0, f, ",")
	k = ++n14[what]; D[what, k] = f[1] + 0; P[what, k] = f[2]; DD[what, k] = f[3]; DE[what, k] = f[4]
	LD[what, k] = f[5]; LE[what, k] = f[6]; TD[what, k] = f[7]; TE[what, k] = f[8]
	next
}
what == "f12dt" || what == "f12edt" { s = (what == "f12dt") ? "dt" : "edt"; k = ++n12[s]; T[s, k] = $1; QB[s, k] = $2; QL[s, k] = $3; next }
what == "f17" || what == "full17" {
	if (FNR == 1) next
	split($0, f, ","); b = f[1] + 0
	for (v = 1; v <= 6; v++) { NB[what, v, b] = f[2 * v]; LL[what, v, b] = f[2 * v + 1] }
	nbins[what] = b
	next
}
what == "tot" { k = substr($1, 5); TN[k] = $2; TOK[k] = $3; CN[k] = $4; COK[k] = $5; next }
what == "drops" { BD[$1] += $3; next }
what == "ci" { if (FNR > 1) { split($0, f, ","); CIT = f[2]; for (v = 1; v <= 6; v++) { CM[v, f[1]] = f[2 * v + 1]; CH[v, f[1]] = f[2 * v + 2] } } next }
what == "pb" {
	i = ++npb[$1]; OK[$1, i] = $4
	# the bursts themselves, once (from DT's lines), and each trial's bursts as a list
	if ($1 == "dt") { nb++; BT[nb] = $2; BP[nb] = $5; BS[nb] = $6 / 1e6; BL[nb] = $3; TB[$2, ++ntb[$2]] = nb }
	next
}

function row17(w, v, b) { return LL[w, v, b] + 0 }
# lossless fraction over the bins b0..b1 of variant v
function pool17(w, v, b0, b1,   b, n, ok) { for (b = b0; b <= b1; b++) { n += NB[w, v, b]; ok += NB[w, v, b] * LL[w, v, b] } return n ? ok / n : 0 }
function count17(w, v, b0, b1,   b, n) { for (b = b0; b <= b1; b++) n += NB[w, v, b]; return n }
function onset(w, col,   k) { for (k = 1; k <= n14[w]; k++) if ((col == "dt" ? DD[w, k] : DE[w, k]) > 0) return k; return 0 }
function ref(k) { return ("ref." k) in R ? R["ref." k] : "–" }
function at(w, d,   k) { for (k = 1; k <= n14[w]; k++) if (D[w, k] == d) return k; return 0 }

END {
	# ---- Fig. 14 -------------------------------------------------------------------------
	w = "f14"
	for (s = 1; s <= 2; s++) {
		sc = s == 1 ? "dt" : "edt"
		k = onset(w, sc)
		check(k > 1, "Fig. 14: " sc " has a lossless grid point below its first lossy burst")
		put("f14.onset." sc, num(D[w, k], 1))
		put("f14.lastok." sc, D[w, k - 1])
		put("f14.onset." sc ".drops", num(sc == "dt" ? DD[w, k] : DE[w, k], 0))
		put("f14.onset." sc ".packets", num(P[w, k], 0))
		on[sc] = D[w, k]
	}
	put("f14.gain", times(on["edt"] / on["dt"], 1))
	put("f14.gain.pct", pct(on["edt"] / on["dt"], 0))
	check(on["dt"] == R["paper.f14.onset.dt"] && on["edt"] == R["paper.f14.onset.edt"],
		"Fig. 14: the onsets (" on["dt"] " and " on["edt"] " ms) are no longer the paper's 2 and 8 ms")
	# transposed table at the paper's and the reference model's durations
	nd = split("1.5 2 2.5 3 4 6 7.5 8 8.5 9 10 12", ds, " ")
	hdr = "| d (ms) |"; sep = "|---|"
	r1 = "| DT, ours |"; r2 = "| DT, fluid theory |"; r3 = "| DT, ref. model |"
	r4 = "| EDT, ours |"; r5 = "| EDT, fluid theory |"; r6 = "| EDT, ref. model |"
	for (i = 1; i <= nd; i++) {
		k = at(w, ds[i] + 0)
		check(k > 0, "Fig. 14: no run at d = " ds[i] " ms")
		hdr = hdr " " ds[i] " |"; sep = sep "---|"
		r1 = r1 " " f3(LD[w, k]) " |"; r2 = r2 " " f3(TD[w, k]) " |"; r3 = r3 " " ref("f14.dt." ds[i]) " |"
		r4 = r4 " " f3(LE[w, k]) " |"; r5 = r5 " " f3(TE[w, k]) " |"; r6 = r6 " " ref("f14.edt." ds[i]) " |"
	}
	put("f14.table", hdr "\n" sep "\n" r1 "\n" r2 "\n" r3 "\n" r4 "\n" r5 "\n" r6)
	# DT against Theorem 1 above the onset; EDT against the reference model and the fluid line
	dev = 0; lo = 1; hi = 0; above = 1; okto = 0
	for (k = 1; k <= n14[w]; k++) {
		if (D[w, k] > on["dt"]) { x = LD[w, k] - TD[w, k]; if (x < 0) x = -x; if (x > dev) dev = x }
		if (DE[w, k] == 0) okto = D[w, k]
		if (D[w, k] > on["edt"]) {
			if (LE[w, k] <= TE[w, k]) above = 0
			if (("ref.f14.edt." D[w, k]) in R) { x = R["ref.f14.edt." D[w, k]] - LE[w, k]; if (x < lo) lo = x; if (x > hi) hi = x }
		}
	}
	put("f14.dt.dev", fix(dev, 3))
	put("f14.edt.okto", okto)
	put("f14.edt.below_ref", range(lo, hi, 3, ""))
	check(lo > 0, "Fig. 14: EDT's loss above 8 ms is no longer below the reference model's everywhere")
	check(above, "Fig. 14: EDT's loss above 8 ms is no longer above the fluid line everywhere")
	# ---- Fig. 12: the 6 ms burst (its loss from the Fig. 14 run at d = 6) -----------------
	k = at(w, 6)
	put("f12.dt.lost", num(DD[w, k], 0)); put("f12.packets", num(P[w, k], 0))
	put("f12.dt.loss", fix(LD[w, k], 3)); put("f12.dt.loss.pct", fix(100 * LD[w, k], 1)); put("f12.dt.fluid", fix(TD[w, k], 3))
	put("f12.edt.lost", num(DE[w, k], 0))
	check(DE[w, k] == 0, "Fig. 12: EDT loses packets of the 6 ms burst")
	plateau = 0; llpre = 0; lldur = 1e9; treach = 0
	for (k = 1; k <= n12["dt"]; k++) {
		t = T["dt", k]
		if (t < 150) llpre = QL["dt", k]
		if (t >= 150 && t <= 156 && QB["dt", k] > plateau) plateau = QB["dt", k]
		if (t >= 153 && t <= 156 && QL["dt", k] < lldur) lldur = QL["dt", k]
	}
	for (k = 1; k <= n12["dt"]; k++) if (T["dt", k] >= 150 && QB["dt", k] >= plateau - 1.5) { treach = T["dt", k] - 150; break }
	put("f12.dt.plateau", num(plateau, 0)); put("f12.dt.treach", fix(treach, 1))
	put("f12.dt.llpre", num(llpre, 0)); put("f12.dt.lldur", num(lldur, 0))
	peak = 0; llmin = 1e9; reconv = 0
	for (k = 1; k <= n12["edt"]; k++) {
		t = T["edt", k]
		if (t < 150) llpre_e = QL["edt", k]
		if (QB["edt", k] > peak) peak = QB["edt", k]
		if (t >= 150 && t <= 157 && QL["edt", k] < llmin) llmin = QL["edt", k]
	}
	for (k = 1; k <= n12["edt"]; k++) if (T["edt", k] > 157 && QL["edt", k] >= 0.99 * llpre_e) { reconv = T["edt", k]; break }
	put("f12.edt.peak", num(peak, 0)); put("f12.edt.llmin", num(llmin, 1))
	put("f12.edt.fair", num((1000 - peak) / 3, 1))
	put("f12.edt.reconv", num(reconv, 0)); put("f12.edt.reconv.after", num(reconv - 156, 0))
	check(reconv > 0, "Fig. 12: EDT's long-lived queues did not return to their level before the burst")
	# ---- Fig. 17b ------------------------------------------------------------------------
	w = "f17"
	tb = "| duration bin (ms) | bursts | DT ours | DT ref. model | EDT ours | EDT ref. model |\n|---|---|---|---|---|---|"
	for (b = 0; b <= 7; b++)
		tb = tb sprintf("\n| [%d,%d) | %s | %s | %s | %s | %s |", b, b + 1, num(NB[w, 1, b], 0), f3(LL[w, 1, b]), ref("f17.dt." b),
			f3(LL[w, 2, b]), ref("f17.edt." b))
	tb = tb sprintf("\n| ≥ 8 | %s | %s | – | %s | – |", num(count17(w, 1, 8, 10), 0), f3(pool17(w, 1, 8, 10)), f3(pool17(w, 2, 8, 10)))
	put("f17.table", tb)
	tb = "| duration bin (ms) | DT | EDT | EDT d = 1 ms | EDT cn1 = 100 |\n|---|---|---|---|---|"
	for (b = 0; b <= 7; b++)
		tb = tb sprintf("\n| [%d,%d) | %s | %s | %s | %s |", b, b + 1, pm(CM[1, b], CH[1, b]), pm(CM[2, b], CH[2, b]), pm(CM[3, b], CH[3, b]), pm(CM[6, b], CH[6, b]))
	put("f17.ci.table", tb)
	put("f17.trials", CIT)
	put("f17.bursts", num(TN["dt"], 0))
	put("f17.dt.b3", fix(100 * LL[w, 1, 3], 1))
	zero = 10; while (zero > 0 && LL[w, 1, zero - 1] == 0) zero--
	put("f17.dt.zero_from", zero)
	check(zero <= 5, "Fig. 17b: DT keeps bursts of 5 ms or more lossless")
	s = ""; for (b = 0; b <= 4; b++) s = s (b ? " / " : "") (b >= 3 ? "**" : "") fix(100 * LL[w, 2, b], 1) (b >= 3 ? "**" : "")
	put("f17.edt.bins", s)
	for (b = 0; b <= 4; b++) { put("f17.edt.b" b, fix(100 * LL[w, 2, b], 1)); put("f17.dt.b" b ".pct", fix(100 * LL[w, 1, b], 1)) }
	for (b = 0; b <= 6; b++) { put("f17.edt.f" b, f3(LL[w, 2, b])); put("f17.n" b, num(NB[w, 1, b], 0)) }
	put("f17.edt.short", fix(100 * COK["edt"] / CN["edt"], 1)); put("f17.dt.short", fix(100 * COK["dt"] / CN["dt"], 1))
	paper85 = R["paper.f17.edt"]; sub(/^> */, "", paper85)
	pershort = 1; for (b = 0; b <= 4; b++) if (100 * LL[w, 2, b] <= paper85 + 0) pershort = 0
	put("f17.edt.meets85.perbin", pershort)
	check(!pershort, "Fig. 17b: EDT now keeps > 85 % lossless in every bin below 5 ms: the text says it falls short")
	check(100 * COK["edt"] / CN["edt"] > paper85 && 100 * COK["dt"] / CN["dt"] > paper85 - 5,
		"Fig. 17b: the pooled reading (all bursts < 5 ms) no longer puts EDT above 85 % with DT close")
	put("f17.edt.lossless", num(TOK["edt"], 0)); put("f17.edt.lossless.pct", fix(100 * TOK["edt"] / TN["edt"], 1))
	put("f17.dt.lossless", num(TOK["dt"], 0)); put("f17.dt.lossless.pct", fix(100 * TOK["dt"] / TN["dt"], 1))
	put("f17.edt.drops", num(BD["edt"], 0)); put("f17.dt.drops", num(BD["dt"], 0))
	put("f17.fewer", fix(100 * (1 - BD["edt"] / BD["dt"]), 1))
	check(BD["edt"] < BD["dt"] && TOK["edt"] > TOK["dt"], "Fig. 17b: EDT no longer beats DT over all bursts")
	lo = 1; hi = 0; dlo = 1; dhi = 0
	for (b = 3; b <= 6; b++) {
		if (LL[w, 2, b] < lo) lo = LL[w, 2, b]; if (LL[w, 2, b] > hi) hi = LL[w, 2, b]
		if (LL[w, 1, b] < dlo) dlo = LL[w, 1, b]; if (LL[w, 1, b] > dhi) dhi = LL[w, 1, b]
	}
	put("f17.mid.edt", range(100 * lo, 100 * hi, 0, "%")); put("f17.mid.dt", range(100 * dlo, 100 * dhi, 0, "%"))
	check(lo > dhi, "Fig. 17b: EDT's worst 3–7 ms bin is no longer above DT's best")
	# where EDT is below DT
	below = ""; for (b = 0; b <= 10; b++) if (LL[w, 2, b] < LL[w, 1, b]) below = below (below == "" ? "" : ", ") (b == 10 ? "≥ 10" : "[" b "," b + 1 ")")
	put("f17.edt_below_dt", below == "" ? "none" : below)
	check(below == "[0,1)", "Fig. 17b: EDT is below DT in the bins {" below "}, the text discusses [0,1) only")
	put("f17.edt.pct0", fix(100 * LL[w, 2, 0], 1))
	# the short bursts EDT lost: the longest burst on another port within 8 ms before or during
	# them (per_burst.txt lists the bursts of a variant in bursts.txt's order)
	nl = 0; minlong = 1e9; nok = 0; okwith = 0
	for (i = 1; i <= nb; i++) {
		if (BL[i] >= 1) continue
		m = 0
		for (jj = 1; jj <= ntb[BT[i]]; jj++) {
			j = TB[BT[i], jj]
			if (BP[j] != BP[i] && BS[j] < BS[i] + BL[i] && BS[j] + BL[j] > BS[i] - 8 && BL[j] > m) m = BL[j]
		}
		if (!OK["edt", i]) { nl++; if (m < minlong) minlong = m }
		else { nok++; longer[nok] = m }
	}
	for (i = 1; i <= nok; i++) if (longer[i] >= minlong) okwith++
	dl = 0; for (i = 1; i <= nb; i++) if (BL[i] < 1 && !OK["dt", i]) dl++
	put("f17.edt.lost0", num(nl, 0)); put("f17.dt.lost0", num(dl, 0))
	put("f17.short_lost", num(nl, 0)); put("f17.short_lost.longest", nl ? fix(int(minlong * 10) / 10, 1) : "–")
	put("f17.short_ok.with", fix(nok ? 100 * okwith / nok : 0, 0))
	check(nl == 0 || minlong >= 1, "Fig. 17b: a short burst EDT lost had no burst of 1 ms or more on another port nearby: the explanation fails")
	# ---- --full -----------------------------------------------------------------------------
	if (nbins["full17"]) {
		w = "full17"; s1 = ""; s2 = ""
		for (b = 0; b <= 4; b++) s1 = s1 f3(LL[w, 1, b]) ", "
		for (b = 0; b <= 7; b++) s2 = s2 f3(LL[w, 2, b]) ", "
		put("full.f17.dt", s1 "…"); put("full.f17.edt", s2 "…")
		put("full.f17.bursts", num(count17(w, 1, 0, 10), 0))
	}
	# ---- Fig. 18 -------------------------------------------------------------------------
	w = "f17"
	t = "| bin (ms) | EDT default | d = 1 ms | d = 100 ms | cn1 = 10 | cn1 = 100 | DT |\n|---|---|---|---|---|---|---|"
	for (b = 2; b <= 4; b++)
		t = t sprintf("\n| [%d,%d) | %s | %s | %s | %s | %s | %s |", b, b + 1, f3(LL[w, 2, b]), f3(LL[w, 3, b]), f3(LL[w, 4, b]),
			f3(LL[w, 5, b]), f3(LL[w, 6, b]), f3(LL[w, 1, b]))
	t = t sprintf("\n| lossless of %s | %s | %s | %s | %s | %s | %s |", num(TN["dt"], 0), num(TOK["edt"], 0), num(TOK["edt_d1"], 0),
		num(TOK["edt_d100"], 0), num(TOK["edt_cn1_10"], 0), num(TOK["edt_cn1_100"], 0), num(TOK["dt"], 0))
	put("f18.table", t)
	for (b = 2; b <= 4; b++) for (v = 2; v <= 6; v++) put("f18." v "." b, fix(100 * LL[w, v, b], 1))
	put("f18.lossless.cn10", num(TOK["edt_cn1_10"], 0)); put("f18.lossless.cn100", num(TOK["edt_cn1_100"], 0))
	check(LL[w, 3, 3] < LL[w, 2, 3] && LL[w, 3, 4] < LL[w, 2, 4], "Fig. 18a: d = 1 ms is no longer below the default in [3,5) ms")
	check(TOK["edt_cn1_100"] < TOK["dt"], "Fig. 18b: cn1 = 100 is no longer below DT overall")
	diff = 0; for (i = 1; i <= npb["edt"]; i++) if (OK["edt", i] != OK["edt_d100", i]) diff++
	put("f18.d100.diff", diff)
	put("f18.d100.same", diff == 0 ? "the same outcome for every burst" : "a different outcome for " diff " bursts")
	check(diff == 0, "Fig. 18a: d = 100 ms no longer gives the default's outcome for every burst")
	better = (LL[w, 3, 0] >= LL[w, 2, 0] && LL[w, 3, 1] >= LL[w, 2, 1] && (LL[w, 3, 0] > LL[w, 2, 0] || LL[w, 3, 1] > LL[w, 2, 1]))
	check(better, "Fig. 18a: d = 1 ms is no longer better than the default below 2 ms")
	put("f18.d1.b0", f3(LL[w, 3, 0])); put("f18.d1.b1", f3(LL[w, 3, 1])); put("f18.def.b0", f3(LL[w, 2, 0])); put("f18.def.b1", f3(LL[w, 2, 1]))
	worse = 1; for (b = 0; b <= 2; b++) if (LL[w, 6, b] >= LL[w, 1, b]) worse = 0
	bet = 1; for (b = 4; b <= 6; b++) if (LL[w, 6, b] <= LL[w, 1, b]) bet = 0
	check(worse && bet, "Fig. 18b: cn1 = 100 is no longer worse than DT below 3 ms and better from 4 to 7 ms")
	lessbad = 1; for (b = 2; b <= 4; b++) if (LL[w, 6, b] <= R["ref.f18.cn100." b] + 0) lessbad = 0
	check(lessbad, "Fig. 18b: our cn1 = 100 is no longer above the reference model's in [2,5) ms")
	done()
}
function f3(x) { return sprintf("%.3f", x) }
function pm(m, h) { return h == "" ? f3(m) : f3(m) " ± " f3(h) }
