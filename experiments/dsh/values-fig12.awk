# values-fig12.awk: the Fig. 12 numbers of experiments/dsh/REPORT.md, from tables.sh's tables
# fig12.csv and, when run-variants.sh has been run, its variants. Run by report.sh after
# experiments/lib/values.awk with -v prefix=f12. and the inputs
#   v=main tables/fig12.csv [v=NAME tables/fig12-NAME.csv ...] [v=cap300 tables/cap300.csv]
# fig12.csv: cc,scheme,seed,deadlocked,onset_ms,deadlocks,cycle,pause_frames,port_pause_frames,
#   paused_ms,lossless_drops,flows_started,flows_completed
# cap300.csv (the main run's DCQCN SIH seeds that did not deadlock, run again for 300 ms):
#   seed,deadlocked,onset_ms
BEGIN { FS = "," }
FNR == 1 { next }
v == "cap300" { nc++; CS[nc] = $1; CD[nc] = $2; CO[nc] = $3; next }
{
	k = v SUBSEP $1 SUBSEP $2
	N[k]++; seen[v] = 1
	if ($4) { D[k]++; O[k, D[k]] = $5 + 0 } else { PFA[k] += $8; NA[k]++ }
	PF[k] += $8; PPF[k] += $9; LL[k] += $11
	ONS[v, $1, $2, $3] = $4 ? $5 : ""
	if ($4) CYC[k, $7]++
	if ($3 + 0 <= 20) { N20[k]++; if ($4) D20[k]++ }
}
function dead(k) { return D[k] + 0 }
function ons(k,   i, a) { for (i = 1; i <= D[k]; i++) a[i] = O[k, i]; return D[k] ? minmax(a, D[k], 1, "ms") : "" }
function cell(k,   s) {
	s = dead(k) " of " N[k]
	if (D[k] && v_range) s = s " (" ons(k) ")"
	if (LL[k]) s = s ", **" num(LL[k] / 1e6, 1) " million lossless drops**"
	else if (v_drops) s = s ", 0 drops"
	return s
}
END {
	split("dcqcn powertcp", ccs, " "); split("sih dsh", ss, " ")
	for (i = 1; i <= 2; i++) for (j = 1; j <= 2; j++) {
		c = ccs[i]; s = ss[j]; k = "main" SUBSEP c SUBSEP s; p = c "." s
		put(p ".runs", N[k]); put(p ".dead", dead(k)); put(p ".avoided", fix(100 * (N[k] - dead(k)) / N[k], 0))
		for (x = 1; x <= D[k]; x++) a[x] = O[k, x]
		if (D[k]) { sortn(a, D[k]); put(p ".onset", fix(a[1], 1) " / " fix(median(a, D[k]), 1) " / " fix(a[D[k]], 1)); put(p ".onsets", range(a[1], a[D[k]], 1, "ms")); put(p ".median", fix(median(a, D[k]), 1)) }
		else { put(p ".onset", "–"); put(p ".onsets", "–"); put(p ".median", "–") }
		put(p ".pf_mean", fix(PF[k] / N[k], 0)); put(p ".pf", num(PF[k] / N[k], 0))
		put(p ".pf_alive", num(NA[k] ? PFA[k] / NA[k] : 0, 0)); put(p ".alive", NA[k] + 0)
		put(p ".cyc1", CYC[k, "spine0>leaf1>spine1>leaf2"] + 0); put(p ".cyc2", CYC[k, "spine0>leaf2>spine1>leaf1"] + 0)
		other = D[k] - CYC[k, "spine0>leaf1>spine1>leaf2"] - CYC[k, "spine0>leaf2>spine1>leaf1"]
		check(other == 0, c " " s ": " other " deadlocks are not one of the two cycles of the failed links")
		port += PPF[k]; drops += LL[k]
	}
	put("port", num(port, 0)); put("drops", num(drops, 0))
	check(port == 0 && drops == 0, "port-level PAUSE frames or lossless drops in the main runs")
	ks = "main" SUBSEP "dcqcn" SUBSEP "sih"; kd = "main" SUBSEP "dcqcn" SUBSEP "dsh"
	kps = "main" SUBSEP "powertcp" SUBSEP "sih"; kpd = "main" SUBSEP "powertcp" SUBSEP "dsh"
	check(D[ks] >= 0.85 * N[ks], "DCQCN: SIH deadlocks in fewer than 85 % of the runs: not 'nearly every run'")
	check(100 * (N[kd] - D[kd]) / N[kd] >= 93 && 100 * (N[kd] - D[kd]) / N[kd] <= 99, "DCQCN: DSH's avoidance is no longer within 3 % of the paper's 96 %")
	check(D[kps] <= 0.2 * N[kps], "PowerTCP: SIH deadlocks in more than 20 % of the runs: the text says it rarely does")
	check(D[kpd] == 0, "PowerTCP: DSH deadlocks")
	put("pf_ratio", fix(PFA[ks] / NA[ks] / (PFA[kd] / NA[kd]), 0))
	put("pf_cc_ratio", fix((PF[ks] / N[ks]) / (PF[kps] / N[kps]), 0))
	check(PFA[ks] / NA[ks] > 5 * PFA[kd] / NA[kd], "DCQCN: SIH no longer sends several times DSH's PAUSE frames")
	# the main run's DCQCN SIH seeds that reached the cap, run again for 300 ms
	if (nc) {
		m = 0; late = ""
		for (i = 1; i <= nc; i++) if (CD[i]) { m++; b[m] = CO[i] + 0; if (CO[i] + 0 < 100) late = late (late == "" ? "seed " : ", ") CS[i] " (" fix(CO[i], 2) " ms)" }
		put("cap.n", nc); put("cap.dead", m); put("cap.all", m == nc ? "all " nc : m " of " nc)
		put("cap.onsets", m ? minmax(b, m, 1, "ms") : "–"); put("cap.late", late); put("cap.alldead", m == nc)
		check(nc == NA[ks], "the 300 ms reruns are not the main run's " NA[ks] " DCQCN SIH runs without deadlock: rerun run-variants.sh")
	}
	# variants (run-variants.sh): one row each, cells "k of n (onsets)"
	if (seen["seeds101"]) {
		k1 = "seeds101" SUBSEP "dcqcn" SUBSEP "sih"; k2 = "seeds101" SUBSEP "dcqcn" SUBSEP "dsh"
		v_range = 0; put("v.seeds101.sih", cell(k1)); v_range = 1; put("v.seeds101.dsh", cell(k2))
		put("v.seeds101.dsh_avoid", fix(100 * (N[kd] + N[k2] - D[kd] - D[k2]) / (N[kd] + N[k2]), 0))
		put("v.seeds101.sih_dead", fix(100 * (D[ks] + D[k1]) / (N[ks] + N[k1]), 0))
		put("v.seeds101.n", N[kd] + N[k2])
	}
	if (seen["long"]) {
		k1 = "long" SUBSEP "dcqcn" SUBSEP "sih"; k2 = "long" SUBSEP "dcqcn" SUBSEP "dsh"
		v_range = 0; put("v.long.dcqcn.sih", cell(k1)); v_range = 1; put("v.long.dcqcn.dsh", cell(k2))
		early = 1; for (x = 1; x <= D[k1]; x++) if (O[k1, x] >= 100) early = 0
		put("v.long.dcqcn.sih.early", early ? " (all before 100 ms)" : "")
		late = 0; for (x = 1; x <= D[k2]; x++) if (O[k2, x] >= 100) late++
		check(late > 0, "300 ms, DCQCN: no DSH deadlock after 100 ms: 'postpones' is not shown")
		k1 = "long" SUBSEP "powertcp" SUBSEP "sih"; k2 = "long" SUBSEP "powertcp" SUBSEP "dsh"
		v_range = 1; put("v.long.powertcp.sih", cell(k1)); put("v.long.powertcp.dsh", cell(k2))
		check(D[k1] <= 0.3 * N[k1] && D[k2] == 0, "300 ms, PowerTCP: SIH deadlocks are no longer rare, or DSH deadlocks")
	}
	v_range = 0
	if (seen["rdma"]) {
		k1 = "rdma" SUBSEP "rdma" SUBSEP "sih"; k2 = "rdma" SUBSEP "rdma" SUBSEP "dsh"
		put("v.rdma.sih", cell(k1)); put("v.rdma.dsh", cell(k2))
		check(D[k2] >= 0.25 * N[k2], "no CC: DSH deadlocks in fewer than a quarter of the runs: 'deadlock DSH too' is weak")
	}
	if (seen["ports0"]) {
		k1 = "ports0" SUBSEP "dcqcn" SUBSEP "sih"; k2 = "ports0" SUBSEP "dcqcn" SUBSEP "dsh"
		put("v.ports0.sih", cell(k1)); put("v.ports0.dsh", cell(k2))
		check(D[k1] <= 0.5 * N[k1], "reserves for cabled ports only: SIH still deadlocks in most runs")
	}
	if (seen["hdrm60k"]) {
		k1 = "hdrm60k" SUBSEP "dcqcn" SUBSEP "sih"; k2 = "hdrm60k" SUBSEP "dcqcn" SUBSEP "dsh"
		v_drops = 1; put("v.hdrm60k.sih", cell(k1)); put("v.hdrm60k.dsh", cell(k2)); v_drops = 0
		check(LL[k1] > 0, "the harness's 60,000 B headroom no longer loses lossless packets under SIH")
	}
	if (seen["ecnflat"]) {
		k1 = "ecnflat" SUBSEP "dcqcn" SUBSEP "sih"; k2 = "ecnflat" SUBSEP "dcqcn" SUBSEP "dsh"
		put("v.ecnflat.sih", cell(k1)); put("v.ecnflat.dsh", cell(k2))
	}
	put("main20.sih", D20[ks] + 0); put("main20.dsh", D20[kd] + 0)
	# the same seed deadlocking at the same moment under other settings (seeds 1..20, SIH)
	nv = split("rdma:rdma:no CC,ecnflat:dcqcn:flat ECN thresholds,hdrm60k:dcqcn:the harness's headroom,ports0:dcqcn:reserves for the cabled ports", vs, ",")
	best = 0
	for (sd = 1; sd <= 20; sd++) {
		o = ONS["main", "dcqcn", "sih", sd]; if (o == "") continue
		cnt = 0; lst = ""
		for (i = 1; i <= nv; i++) {
			split(vs[i], f, ":")
			if (!seen[f[1]]) continue
			o2 = ONS[f[1], f[2], "sih", sd]
			if (o2 != "" && (o2 - o < 0.01 && o - o2 < 0.01)) { cnt++; lst = lst ", " f[3] }
		}
		if (cnt > best) { best = cnt; bs = sd; bo = o; bl = lst }
	}
	put("same", best >= 2 ? "seed " bs " under SIH at " fix(bo, 2) " ms with DCQCN" bl : "")
	done()
}
