# values.awk: the numbers of experiments/abm/REPORT.md, from the runs' results.csv.
# Run by report.sh after experiments/lib/values.awk:
#   awk -f experiments/lib/values.awk -f experiments/abm/values.awk what=paper paper.tsv \
#       what=main results.csv [what=seed2 ...] [what=spine ...] [what=full ...]
# results.csv (run.sh): cc,req_pct,scheme,incast_p99,incast_mean,short_p99,qct_p99,buffer_p99_pct,
#   drops,queries,incast_flows,short_flows,unfinished,long_mean,incast_rto,slow_queries,
#   spine_drops,overlap_queries
# Changes are (ABM / other − 1) in %, negative = ABM lower, as the paper's. Every statement of the
# report that depends on the numbers is either written here from them or checked with check().
what == "paper" || what == "prev" {
	if ($0 ~ /^#/ || $0 == "") next
	split($0, f, "\t")
	if (what == "paper") { P[f[1]] = f[2]; if (f[2] ~ /^-?[0-9.]+$/) put("pp." f[1], fmtp(f[2])) }
	else { put("pv." f[1], f[1] ~ /^(c|spine|seed2|full)\./ ? fmtp(f[2]) : f[2]); PV[f[1]] = f[2] }
	next
}
function fmtp(v) { return (index(v, ".") ? sgn(v, 1) : sgn(v, 0)) " %" }
FNR == 1 { for (i = 1; i <= NF; i++) split($0, H, ","); has[what] = 1; next }
{
	n = split($0, f, ",")
	r = what; cc = f[1]; p = f[2]; s = f[3]
	if (!((r, p) in seenp)) { seenp[r, p] = 1; np[r]++; PS[r, np[r]] = p }
	if (!((r, s) in seens)) { seens[r, s] = 1; ns[r]++; SC[r, ns[r]] = s }
	for (i = 4; i <= n; i++) V[r, cc, p, s, H[i]] = f[i]
	ccs[r, cc] = 1
}
function val(r, cc, p, s, c) { return V[r, cc, p, s, c] + 0 }
function ch(r, cc, p, s, b, c) { return 100 * (val(r, cc, p, s, c) / val(r, cc, p, b, c) - 1) }
function pc(x) { return sgn(x, 0) " %" }           # "−49 %"
function pc1(x) { return sgn(x, 1) " %" }
function up(s) { return s == "cs" ? "CS" : toupper(s) }
# mean change of ABM against the four other schemes at one point
function vsall(r, cc, p, c,   j, t, k) {
	for (j = 1; j <= ns[r]; j++) if (SC[r, j] != "abm") { t += ch(r, cc, p, "abm", SC[r, j], c); k++ }
	return k ? t / k : 0
}
# mean over the sizes of vsall
function vsall_sizes(r, cc, c,   i, t) { for (i = 1; i <= np[r]; i++) t += vsall(r, cc, PS[r, i], c); return t / np[r] }
# "−14 % / −14 % / −47 % / −43 % / +57 %" over the sizes, ABM vs b
function list(r, cc, b, c,   i, s) {
	for (i = 1; i <= np[r]; i++) s = s (i > 1 ? ", " : "") pc(ch(r, cc, PS[r, i], "abm", b, c))
	return s
}
# min–max over the sizes of ABM vs b (optionally only the first k sizes)
function rng(r, cc, b, c, k,   i, x, lo, hi) {
	if (!k) k = np[r]
	lo = 1e9; hi = -1e9
	for (i = 1; i <= k; i++) { x = ch(r, cc, PS[r, i], "abm", b, c); x = sprintf("%.0f", x) + 0; if (x < lo) lo = x; if (x > hi) hi = x }
	return lo == hi ? pc(lo) : sgn(lo, 0) " to " sgn(hi, 0) " %"
}
# the reproduction verdict of a change o against the paper's p (both in %, negative = ABM lower)
function verdict(o, p) {
	if (p < 0 && o >= 0) return "**not reproduced**: ABM is not lower"
	if (o - p <= 5 + 0.1 * (p < 0 ? -p : p) && p - o <= 5 + 0.1 * (p < 0 ? -p : p)) return "reproduced"
	return (o < 0 ? -o : o) > (p < 0 ? -p : p) ? "same direction, larger" : "same direction, smaller"
}
# the sweep's table: incast p99 / short p99 per scheme, ABM in bold
function table(r, d,   t, k, cc, i, j, p, s, c) {
	t = "| request % of B |"; for (j = 1; j <= ns[r]; j++) t = t " " (SC[r, j] == "abm" ? "**ABM**" : up(SC[r, j])) " |"
	t = t "\n|---|"; for (j = 1; j <= ns[r]; j++) t = t "---|"
	for (k = 1; k <= 2; k++) {
		cc = k == 1 ? "dctcp" : "cubic"
		if (!((r, cc) in ccs)) continue
		for (i = 1; i <= np[r]; i++) {
			p = PS[r, i]
			t = t "\n| " (i == 1 ? "**" (cc == "dctcp" ? "DCTCP" : "Cubic") "** " : "") p " |"
			for (j = 1; j <= ns[r]; j++) {
				s = SC[r, j]; c = fix(val(r, cc, p, s, "incast_p99"), d) " / " fix(val(r, cc, p, s, "short_p99"), d)
				t = t " " (s == "abm" ? "**" c "**" : c) " |"
			}
		}
	}
	return t
}
# the sizes at which ABM's incast p99 is below (sign -1) or not below (+1) b's, as a list
function where(r, cc, b, sign,   i, s, x) {
	for (i = 1; i <= np[r]; i++) { x = ch(r, cc, PS[r, i], "abm", b, "incast_p99"); if ((sign < 0) == (x < 0)) s = s (s == "" ? "" : ", ") PS[r, i] " %" }
	return s
}
END {
	r = "main"
	check(has["main"], "no results.csv of the main run")
	put("main.table", table("main", 1))
	# the numbers "What moved" compares (rounded as the earlier report printed them)
	for (k = 1; k <= 2; k++) {
		cc = k == 1 ? "dctcp" : "cubic"
		for (i = 1; i <= np[r]; i++) for (j = 1; j <= ns[r]; j++) {
			p = PS[r, i]; s = SC[r, j]
			put("red." cc "." p "." s ".inc", fix(val(r, cc, p, s, "incast_p99"), 1))
			put("red." cc "." p "." s ".short", fix(val(r, cc, p, s, "short_p99"), 1))
		}
		for (i = 1; i <= np[r]; i++) put("c." cc ".vsdt." PS[r, i], fix(ch(r, cc, PS[r, i], "abm", "dt", "incast_p99"), 0))
	}
	# scale: every run has the same queries and flows (the same arrivals)
	p = PS[r, 1]; s = SC[r, 1]
	put("n.queries", num(val(r, "dctcp", p, s, "queries"), 0)); put("n.incast", num(32 * val(r, "dctcp", p, s, "queries"), 0))
	put("n.short", num(val(r, "dctcp", p, s, "short_flows"), 0))
	put("n.rank", num(32 * val(r, "dctcp", p, s, "queries") - int(0.99 * 32 * val(r, "dctcp", p, s, "queries")), 0))
	same = 1; um = 0
	for (k in V) {
		split(k, a, SUBSEP); if (a[1] != "main") continue
		if (a[5] == "queries" && V[k] != val(r, "dctcp", p, s, "queries")) same = 0
		if (a[5] == "short_flows" && V[k] != val(r, "dctcp", p, s, "short_flows")) same = 0
		if (a[5] == "incast_flows") { u = 32 * V[a[1], a[2], a[3], a[4], "queries"] - V[k]; if (u > um) um = u }
	}
	check(same, "the runs of the main sweep do not all have the same queries and short flows")
	put("unf.txt", um == 0 ? "No incast flow is unfinished in any run." : "At most " um " incast flows of " num(32 * val(r, "dctcp", p, s, "queries"), 0) " are unfinished in any run, which cannot move a p99 resting on the " (32 * val(r, "dctcp", p, s, "queries") - int(0.99 * 32 * val(r, "dctcp", p, s, "queries"))) "th-worst flow.")
	check(um <= 2, "more than 2 incast flows of a run are unfinished (" um "): that can move a p99")

	# ---- Paper vs ours
	# Fig. 9b, DCTCP
	o = ch(r, "dctcp", "12.5", "abm", "dt", "incast_p99"); put("dctcp.vsdt.12.5", pc(o)); put("dctcp.vsdt.12.5.v", verdict(o, P["dctcp.vsdt.12.5"]))
	o = ch(r, "dctcp", "37.5", "abm", "dt", "incast_p99"); put("dctcp.vsdt.37.5", pc(o)); put("dctcp.vsdt.37.5.v", verdict(o, P["dctcp.vsdt.37.5"]))
	put("dctcp.vsdt.list", list(r, "dctcp", "dt", "incast_p99"))
	put("cubic.vsdt.list", list(r, "cubic", "dt", "incast_p99"))
	# where ABM's DCTCP gain over DT is largest, and what follows
	best = 0; bi = 0
	for (i = 1; i <= np[r]; i++) { x = ch(r, "dctcp", PS[r, i], "abm", "dt", "incast_p99"); if (x < best) { best = x; bi = i } }
	mono = 1; for (i = 2; i <= bi; i++) if (ch(r, "dctcp", PS[r, i], "abm", "dt", "incast_p99") > ch(r, "dctcp", PS[r, i - 1], "abm", "dt", "incast_p99") + 5) mono = 0
	last = ch(r, "dctcp", PS[r, np[r]], "abm", "dt", "incast_p99")
	put("dctcp.grow.v", (bi ? (mono ? "grows" : "roughly grows") " up to " PS[r, bi] " %" : "no gain") \
		(bi < np[r] ? (last >= 0 ? "; at " PS[r, np[r]] " % ABM is **worse** than DT" : ", then shrinks") : ""))
	# Fig. 7a, Cubic
	a1 = ch(r, "cubic", "12.5", "abm", "dt", "incast_p99"); a2 = ch(r, "cubic", "12.5", "abm", "ib", "incast_p99")
	put("cubic.vsdtib.12.5", pc((a1 + a2) / 2) " (DT " pc(a1) ", IB " pc(a2) ")"); put("cubic.vsdtib.12.5.v", verdict((a1 + a2) / 2, P["cubic.vsdtib.12.5"]))
	put("c.cubic.vsdtib.12.5", fix((a1 + a2) / 2, 0))
	o = ch(r, "cubic", "12.5", "abm", "fab", "incast_p99"); put("cubic.vsfab.12.5", pc(o)); put("cubic.vsfab.12.5.v", verdict(o, P["cubic.vsfab.12.5"])); put("c.cubic.vsfab.12.5", fix(o, 0))
	put("cubic.fab.abm.12.5", fix(val(r, "cubic", "12.5", "abm", "incast_p99"), 1) " vs " fix(val(r, "cubic", "12.5", "fab", "incast_p99"), 1))
	o = ch(r, "cubic", "12.5", "abm", "cs", "incast_p99"); put("cubic.vscs.12.5", pc(o)); put("cubic.vscs.12.5.v", verdict(o, P["cubic.vscs.12.5"])); put("c.cubic.vscs.12.5", fix(o, 0))
	o = vsall(r, "cubic", "50", "incast_p99"); put("c.cubic.vsall.50", fix(o, 0))
	put("cubic.vsall.50", pc(o) " on average (" pc(ch(r, "cubic", "50", "abm", "dt", "incast_p99")) " / " pc(ch(r, "cubic", "50", "abm", "fab", "incast_p99")) " / " \
		pc(ch(r, "cubic", "50", "abm", "cs", "incast_p99")) " / " pc(ch(r, "cubic", "50", "abm", "ib", "incast_p99")) ")")
	put("cubic.vsall.50.v", o <= P["cubic.vsall.50"] ? "reproduced" : verdict(o, P["cubic.vsall.50"]))
	# ABM's advantage over the request sizes (Cubic, mean over the four others)
	t = ""; best = 0; bi = 0
	for (i = 1; i <= np[r]; i++) { x = vsall(r, "cubic", PS[r, i], "incast_p99"); t = t (i > 1 ? ", " : "") pc(x) " at " PS[r, i] " %"; if (x < best) { best = x; bi = i } }
	put("cubic.grow", t)
	put("cubic.grow.v", bi == np[r] ? "reproduced" : bi == 1 ? "**not reproduced**: largest at the smallest request, shrinking after" : "grows up to " PS[r, bi] " %, then shrinks")
	# Fig. 7b, Cubic short flows
	o = vsall_sizes(r, "cubic", "short_p99"); put("cubic.short.vsall", pc(o)); put("cubic.short.vsall.v", verdict(o, P["cubic.short.vsall"])); put("c.cubic.short.vsall", fix(o, 0))
	lo = 1e9; hi = -1e9
	for (i = 1; i <= np[r]; i++) for (j = 1; j <= ns[r]; j++) if (SC[r, j] != "abm") { x = ch(r, "cubic", PS[r, i], "abm", SC[r, j], "short_p99"); if (x < lo) lo = x; if (x > hi) hi = x }
	put("cubic.short.range", sgn(lo, 0) " % and " sgn(hi, 0) " %")
	# DCTCP short flows (no paper number)
	o = vsall_sizes(r, "dctcp", "short_p99"); put("dctcp.short.vsall", pc(o)); put("c.dctcp.short.vsall", fix(o, 0))
	put("dctcp.short.vsdt", rng(r, "dctcp", "dt", "short_p99")); put("dctcp.short.vscs", rng(r, "dctcp", "cs", "short_p99"))
	put("dctcp.short.vsfab", rng(r, "dctcp", "fab", "short_p99")); put("dctcp.short.vsib", rng(r, "dctcp", "ib", "short_p99"))
	worse = ""
	for (j = 1; j <= ns[r]; j++) if (SC[r, j] != "abm") for (i = 1; i <= np[r]; i++) {
		x = ch(r, "dctcp", PS[r, i], "abm", SC[r, j], "short_p99")
		if (sprintf("%.0f", x) + 0 > 0) worse = worse (worse == "" ? "" : ", ") up(SC[r, j]) " at " PS[r, i] " % (" pc(x) ")"
	}
	put("dctcp.short.worse", worse)
	put("hl.short.tail", worse == "" ? ", and under DCTCP not worse than any scheme's, CS included (" rng(r, "dctcp", "cs", "short_p99") ")." : ", the one exception being " worse " under DCTCP.")
	for (j = 1; j <= ns[r]; j++) if (SC[r, j] == "dt" || SC[r, j] == "ib" || SC[r, j] == "fab") for (i = 1; i <= np[r]; i++) {
		check(ch(r, "cubic", PS[r, i], "abm", SC[r, j], "short_p99") < 0, "under Cubic ABM's short-flow p99 is not below " up(SC[r, j]) "'s at " PS[r, i] " %")
		if (SC[r, j] == "dt") check(sprintf("%.0f", ch(r, "dctcp", PS[r, i], "abm", "dt", "short_p99")) + 0 <= 0, "under DCTCP ABM's short-flow p99 is above DT's at " PS[r, i] " %")
	}
	put("dctcp.short.v", worse == "" ? "\"not worse\": true against every scheme" : "\"not worse\": true except against " worse)
	# Fig. 7c, buffer
	b1 = val(r, "cubic", PS[r, 1], "abm", "buffer_p99_pct"); b2 = val(r, "cubic", PS[r, np[r]], "abm", "buffer_p99_pct")
	d1 = val(r, "dctcp", PS[r, 1], "abm", "buffer_p99_pct"); d2 = val(r, "dctcp", PS[r, np[r]], "abm", "buffer_p99_pct")
	put("buf.cubic", fix(b1, 1) " → " fix(b2, 1) " % of B"); put("buf.dctcp", fix(d1, 1) " → " fix(d2, 1) " %")
	put("c.cubic.buf.abm.12.5", fix(b1, 1)); put("c.cubic.buf.abm.75", fix(b2, 1))
	put("buf.v", b2 > b1 && d2 > d1 ? "reproduced" : "**not reproduced**")
	ob = (val(r, "cubic", "75", "dt", "buffer_p99_pct") + val(r, "cubic", "75", "fab", "buffer_p99_pct") + val(r, "cubic", "75", "ib", "buffer_p99_pct")) / 3
	ab = val(r, "cubic", "75", "abm", "buffer_p99_pct")
	put("c.cubic.buf.others.75", fix(ob, 1))
	put("buf.more", fix(ab, 1) " % of B vs " fix(ob, 1) " % average (" sgn(ab - ob, 1) " points, " pc(100 * (ab / ob - 1)) ")")
	x = 100 * (ab / ob - 1)
	put("buf.more.v", x <= 0 ? "**not reproduced**: ABM uses less" : (x < 2 * P["cubic.buf.more"] && x > P["cubic.buf.more"] / 2 ? "reproduced" : (x > P["cubic.buf.more"] ? "same direction, larger" : "same direction, smaller")))
	# Fig. 7d proxy: long flows' mean slowdown, ABM vs DT
	lo = 1e9; hi = -1e9
	for (k = 1; k <= 2; k++) { cc = k == 1 ? "dctcp" : "cubic"; for (i = 1; i <= np[r]; i++) { x = ch(r, cc, PS[r, i], "abm", "dt", "long_mean"); if (x < lo) lo = x; if (x > hi) hi = x } }
	put("long.range", sgn(lo, 0) " % and " sgn(hi, 0) " %")
	for (k = 1; k <= 2; k++) {
		cc = k == 1 ? "dctcp" : "cubic"
		for (j = 1; j <= 2; j++) {
			s = j == 1 ? "abm" : "dt"; lo = 1e9; hi = -1e9
			for (i = 1; i <= np[r]; i++) { x = val(r, cc, PS[r, i], s, "long_mean"); if (x < lo) lo = x; if (x > hi) hi = x }
			put("long." cc "." s, range(lo, hi, 1))
		}
	}
	check(hi_all_ok(), "ABM's long-flow mean slowdown is more than 25 % from DT's somewhere: \"roughly on par\" no longer holds")

	# ---- the headline, from the signs
	put("hl.dctcp.below", where(r, "dctcp", "dt", -1)); put("hl.dctcp.above", where(r, "dctcp", "dt", 1))
	put("hl.cubic.below", where(r, "cubic", "dt", -1)); put("hl.cubic.above", where(r, "cubic", "dt", 1))
	k1 = 0; for (i = 1; i <= np[r]; i++) if (ch(r, "dctcp", PS[r, i], "abm", "dt", "incast_p99") < 0) k1 = i; else break
	put("hl.dctcp.range", rng(r, "dctcp", "dt", "incast_p99", k1)); put("hl.dctcp.upto", PS[r, k1])
	put("hl.cubic.range", rng(r, "cubic", "dt", "incast_p99"))
	put("hl.short.dctcp.vsdt", rng(r, "dctcp", "dt", "short_p99")); put("hl.short.cubic.vsdt", rng(r, "cubic", "dt", "short_p99"))
	put("hl.short.cubic.vsib", rng(r, "cubic", "ib", "short_p99")); put("hl.short.cubic.vsfab", rng(r, "cubic", "fab", "short_p99"))
	check(k1 >= 1, "ABM's DCTCP incast p99 is not below DT's at the smallest request")
	t = where(r, "dctcp", "dt", 1); put("hl.dctcp.above.txt", t == "" ? "," : ", but **above** it at " t " (see 5 below),")
	t = where(r, "cubic", "dt", 1); check(t == "", "under Cubic ABM's incast p99 is not below DT's at " t)
	check(where(r, "cubic", "ib", 1) == "" && where(r, "cubic", "fab", 1) == "", "under Cubic ABM's incast p99 is not below IB's or FAB's everywhere")

	# ---- Where and why we differ
	# 1. DT's drops at 12.5 % under DCTCP
	put("dt.drops.12.5", num(val(r, "dctcp", "12.5", "dt", "drops"), 0)); put("dt.spine.12.5", num(val(r, "dctcp", "12.5", "dt", "spine_drops"), 0))
	check(val(r, "dctcp", "12.5", "dt", "spine_drops") > 0.8 * val(r, "dctcp", "12.5", "dt", "drops"), "most of DT's drops at 12.5 % (DCTCP) are no longer at the spines")
	put("dt.p99.12.5", fix(val(r, "dctcp", "12.5", "dt", "incast_p99"), 2)); put("abm.p99.12.5", fix(val(r, "dctcp", "12.5", "abm", "incast_p99"), 2))
	# 2. Cubic: timeouts behind DT's p99
	lo = 1e9; hi = 0; alo = 1e9; ahi = 0
	for (i = 1; i <= np[r]; i++) {
		x = 100 * val(r, "cubic", PS[r, i], "dt", "incast_rto") / val(r, "cubic", PS[r, i], "dt", "incast_flows"); if (x < lo) lo = x; if (x > hi) hi = x
		y = val(r, "cubic", PS[r, i], "abm", "incast_rto"); if (y < alo) alo = y; if (y > ahi) ahi = y
	}
	put("cubic.dt.rto", range(lo, hi, 1, "%")); put("cubic.abm.rto", range(alo, ahi, 0))
	check(lo > 1, "under Cubic fewer than 1 % of DT's incast flows took a minimum RTO at some size: its p99 is no longer a timeout")
	lo = 1e9; hi = 0
	for (i = 1; i <= np[r]; i++) { x = val(r, "cubic", PS[r, i], "dt", "buffer_p99_pct"); if (x < lo) lo = x; if (x > hi) hi = x }
	put("cubic.dt.buf", range(lo, hi, 0, "%"))
	lo = 1e9; hi = 0
	for (i = 1; i <= np[r]; i++) { x = val(r, "cubic", PS[r, i], "cs", "buffer_p99_pct"); if (x < lo) lo = x; if (x > hi) hi = x }
	put("cubic.cs.buf", range(lo, hi, 0, "%"))
	lo = 1e9; hi = 0
	for (i = 1; i <= np[r]; i++) for (j = 1; j <= ns[r]; j++) if (SC[r, j] != "abm" && SC[r, j] != "fab") { x = val(r, "cubic", PS[r, i], SC[r, j], "short_p99"); if (x < lo) lo = x; if (x > hi) hi = x }
	lo = 1e9; hi = 0
	for (i = 1; i <= np[r]; i++) for (j = 1; j <= ns[r]; j++) if (SC[r, j] == "cs" || SC[r, j] == "ib") { x = val(r, "cubic", PS[r, i], SC[r, j], "short_p99"); if (x < lo) lo = x; if (x > hi) hi = x }
	put("cubic.csib.short", range(lo, hi, 0)); check(lo > 50, "CS's or IB's Cubic short-flow p99 is below 50: no longer a timeout")
	for (j = 1; j <= 2; j++) { s = j == 1 ? "dt" : "fab"; lo = 1e9; hi = 0
		for (i = 1; i <= np[r]; i++) { x = val(r, "cubic", PS[r, i], s, "short_p99"); if (x < lo) lo = x; if (x > hi) hi = x }
		put("cubic." s ".short", range(lo, hi, 0)); check(hi < 80, up(s) "'s Cubic short-flow p99 reaches " hi ": about one timeout") }
	# the earlier report's DT incast p99 ranges
	for (k = 1; k <= 2; k++) { cc = k == 1 ? "dctcp" : "cubic"; lo = 1e9; hi = 0
		for (i = 1; i <= np[r]; i++) { x = PV["red." cc "." PS[r, i] ".dt.inc"] + 0; if (x < lo) lo = x; if (x > hi) hi = x }
		put("pv.dt." cc ".range", range(lo, hi, 0)) }
	# 3. FAB at 12.5 %
	x = ch(r, "cubic", "12.5", "abm", "fab", "incast_p99")
	put("fab.ties", (x > -15 && x < 15) ? 1 : 0)
	put("fab.vs.25", pc(ch(r, "cubic", "25", "abm", "fab", "incast_p99")))
	# 4. CS vs ABM under DCTCP
	t = 1; lo = 1e9; hi = -1e9
	for (i = 1; i <= np[r]; i++) { x = ch(r, "dctcp", PS[r, i], "abm", "cs", "incast_p99"); if (x > 10 || x < -10) t = 0; if (x < lo) lo = x; if (x > hi) hi = x }
	put("cs.ties", t); put("cs.range", sgn(lo, 0) " to " sgn(hi, 0) " %")
	lo = 1e9; hi = 0; alo = 1e9; ahi = 0; blo = 1e9; bhi = 0
	for (i = 1; i < np[r]; i++) {
		x = val(r, "dctcp", PS[r, i], "cs", "drops"); if (x < lo) lo = x; if (x > hi) hi = x
		y = val(r, "dctcp", PS[r, i], "abm", "drops"); if (y < alo) alo = y; if (y > ahi) ahi = y
		z = val(r, "dctcp", PS[r, i], "cs", "buffer_p99_pct"); if (z < blo) blo = z; if (z > bhi) bhi = z
	}
	put("cs.drops", range(lo, hi, 0)); put("abm.drops", range(alo / 1000, ahi / 1000, 1) " k"); put("cs.buf", range(blo, bhi, 0, "%"))
	put("cs.sizes", PS[r, 1] "–" PS[r, np[r] - 1] " %")
	lo = 1e9; hi = 0; for (i = 1; i <= np[r]; i++) { x = val(r, "cubic", PS[r, i], "cs", "buffer_p99_pct"); if (x < lo) lo = x; if (x > hi) hi = x }
	put("cs.cubic.buf", range(lo, hi, 0, "%"))
	csworst = 1; for (i = 1; i <= np[r]; i++) for (j = 1; j <= ns[r]; j++) if (SC[r, j] != "cs" && val(r, "cubic", PS[r, i], "cs", "short_p99") < val(r, "cubic", PS[r, i], SC[r, j], "short_p99") && SC[r, j] != "ib") csworst = 0
	check(csworst, "CS is no longer the worst scheme for Cubic's short flows (IB aside)")
	# 5. the largest request, DCTCP
	L = PS[r, np[r]]
	put("big", L); put("big.abm.vsdt", pc(ch(r, "dctcp", L, "abm", "dt", "incast_p99")))
	put("big.all", fix(val(r, "dctcp", L, "dt", "incast_p99"), 1) " (DT), " fix(val(r, "dctcp", L, "fab", "incast_p99"), 1) " (FAB), " \
		fix(val(r, "dctcp", L, "cs", "incast_p99"), 1) " (CS), " fix(val(r, "dctcp", L, "ib", "incast_p99"), 1) " (IB), " fix(val(r, "dctcp", L, "abm", "incast_p99"), 1) " (ABM)")
	put("big.overlap", val(r, "dctcp", L, "abm", "overlap_queries"))
	put("big.slow.abm", val(r, "dctcp", L, "abm", "slow_queries")); put("big.slow.cs", val(r, "dctcp", L, "cs", "slow_queries")); put("big.slow.dt", val(r, "dctcp", L, "dt", "slow_queries"))
	check(val(r, "dctcp", L, "abm", "slow_queries") < val(r, "dctcp", L, "dt", "slow_queries"), "at the largest request (DCTCP) ABM no longer has fewer slow queries than DT")
	put("big.mean.abm", fix(val(r, "dctcp", L, "abm", "incast_mean"), 1)); put("big.mean.cs", fix(val(r, "dctcp", L, "cs", "incast_mean"), 1)); put("big.mean.dt", fix(val(r, "dctcp", L, "dt", "incast_mean"), 1))
	put("big.qct.abm", fix(val(r, "dctcp", L, "abm", "qct_p99"), 1)); put("big.qct.cs", fix(val(r, "dctcp", L, "cs", "qct_p99"), 1)); put("big.qct.dt", fix(val(r, "dctcp", L, "dt", "qct_p99"), 1))
	put("big.buf.abm", fix(val(r, "dctcp", L, "abm", "buffer_p99_pct"), 0)); put("big.buf.dt", fix(val(r, "dctcp", L, "dt", "buffer_p99_pct"), 0))
	put("big.worse", ch(r, "dctcp", L, "abm", "dt", "incast_p99") > 0 ? 1 : 0)
	put("big.full.note", has["full"] ? " At full scale ABM vs DT is " pc(ch("full", "dctcp", L, "abm", "dt", "incast_p99")) " here, so this is not a reduced-run artefact." : "")
	# 6. IB against DT
	t = ""
	for (k = 1; k <= 2; k++) { cc = k == 1 ? "dctcp" : "cubic"; for (i = 1; i <= np[r]; i++) {
		x = ch(r, cc, PS[r, i], "ib", "dt", "incast_p99")
		if (x > 25 || x < -25) t = t (t == "" ? "" : "; ") (cc == "dctcp" ? "DCTCP" : "Cubic") " at " PS[r, i] " %: " fix(val(r, cc, PS[r, i], "ib", "incast_p99"), 1) " vs DT's " fix(val(r, cc, PS[r, i], "dt", "incast_p99"), 1) \
			" (queries with a response slower than 20: IB " val(r, cc, PS[r, i], "ib", "slow_queries") ", DT " val(r, cc, PS[r, i], "dt", "slow_queries") \
			(has["full"] ? "; at full scale IB " fix(val("full", cc, PS[r, i], "ib", "incast_p99"), 1) ", DT " fix(val("full", cc, PS[r, i], "dt", "incast_p99"), 1) : "") ")"
	} }
	put("ib.off.txt", t == "" ? "" : " except " t)

	# ---- the optional runs: seed 2, the spines with the leaf's buffer, the full scale
	if (!has["seed2"]) { put("s2.note.12.5", ""); put("s2.note.37.5", "") }
	if (!has["spine"]) { put("sp.note.12.5", ""); put("sp.note.37.5", "") }
	if (has["seed2"]) {
		r = "seed2"
		put("s2.dctcp.vsdt", list(r, "dctcp", "dt", "incast_p99")); put("s2.cubic.vsdt", list(r, "cubic", "dt", "incast_p99"))
		put("s2.short.dctcp.vsdt", rng(r, "dctcp", "dt", "short_p99")); put("s2.short.cubic.vsdt", rng(r, "cubic", "dt", "short_p99"))
		put("s2.cubic.short.vsall", pc1(vsall_sizes(r, "cubic", "short_p99"))); put("s2.dctcp.short.vsall", pc1(vsall_sizes(r, "dctcp", "short_p99")))
		put("m1.cubic.short.vsall", pc1(vsall_sizes("main", "cubic", "short_p99"))); put("m1.dctcp.short.vsall", pc1(vsall_sizes("main", "dctcp", "short_p99")))
		put("s2.note.12.5", " (seed 2: " pc(ch(r, "dctcp", "12.5", "abm", "dt", "incast_p99")) ")"); put("s2.note.37.5", " (seed 2: " pc(ch(r, "dctcp", "37.5", "abm", "dt", "incast_p99")) ")")
		for (i = 1; i <= np[r]; i++) put("seed2.dctcp.vsdt." PS[r, i], fix(ch(r, "dctcp", PS[r, i], "abm", "dt", "incast_p99"), 0))
		put("s2.queries", num(val(r, "dctcp", "12.5", "dt", "queries"), 0))
		# the same signs as seed 1?
		t = 1; for (k = 1; k <= 2; k++) { cc = k == 1 ? "dctcp" : "cubic"; for (i = 1; i <= np[r]; i++) if ((ch(r, cc, PS[r, i], "abm", "dt", "incast_p99") < 0) != (ch("main", cc, PS[r, i], "abm", "dt", "incast_p99") < 0)) t = 0 }
		put("s2.samesign", t)
		t = ""; for (k = 1; k <= 2; k++) { cc = k == 1 ? "dctcp" : "cubic"; for (i = 1; i <= np[r]; i++) if ((ch(r, cc, PS[r, i], "abm", "dt", "incast_p99") < 0) != (ch("main", cc, PS[r, i], "abm", "dt", "incast_p99") < 0)) t = t (t == "" ? "" : ", ") (cc == "dctcp" ? "DCTCP" : "Cubic") " at " PS[r, i] " %" }
		put("s2.flips", t)
	}
	if (has["spine"]) {
		r = "spine"
		put("sp.dctcp.vsdt", list(r, "dctcp", "dt", "incast_p99")); put("sp.cubic.vsdt", list(r, "cubic", "dt", "incast_p99"))
		put("sp.dt.12.5", fix(val(r, "dctcp", "12.5", "dt", "incast_p99"), 2)); put("sp.abm.12.5", fix(val(r, "dctcp", "12.5", "abm", "incast_p99"), 2))
		put("sp.note.12.5", "; spines with the leaf's buffer: " pc(ch(r, "dctcp", "12.5", "abm", "dt", "incast_p99"))); put("sp.note.37.5", "; spines with the leaf's buffer: " pc(ch(r, "dctcp", "37.5", "abm", "dt", "incast_p99")))
		put("spine.dctcp.vsdt.12.5", fix(ch(r, "dctcp", "12.5", "abm", "dt", "incast_p99"), 0)); put("spine.dctcp.vsdt.37.5", fix(ch(r, "dctcp", "37.5", "abm", "dt", "incast_p99"), 0))
		put("sp.spinedrops", num(val(r, "dctcp", "12.5", "dt", "spine_drops"), 0))
		a1 = ch(r, "dctcp", "37.5", "abm", "dt", "incast_p99"); a2 = ch("main", "dctcp", "37.5", "abm", "dt", "incast_p99"); a3 = ch(r, "dctcp", "12.5", "abm", "dt", "incast_p99")
		put("sp.vs.paper", "this run gives " pc(a3) " at 12.5 % (the default run " pc(ch("main", "dctcp", "12.5", "abm", "dt", "incast_p99")) ", the paper " fmtp(P["dctcp.vsdt.12.5"]) ")" \
			(a1 - P["dctcp.vsdt.37.5"] > 15 && a2 - P["dctcp.vsdt.37.5"] > 15 ? ", and both stop well short of its " fmtp(P["dctcp.vsdt.37.5"]) " at 37.5 % (" pc(a1) " here, " pc(a2) " in the default run)" : \
			", and at 37.5 % " pc(a1) " here, " pc(a2) " in the default run, against the paper's " fmtp(P["dctcp.vsdt.37.5"])))
	}
	if (has["full"]) {
		r = "full"
		put("full.table", table(r, 2))
		put("full.queries", num(val(r, "dctcp", "12.5", "dt", "queries"), 0)); put("full.incast", num(32 * val(r, "dctcp", "12.5", "dt", "queries"), 0))
		put("full.short", num(val(r, "dctcp", "12.5", "dt", "short_flows"), 0))
		put("full.dctcp.vsdt", list(r, "dctcp", "dt", "incast_p99"))
		for (i = 1; i <= np[r]; i++) put("full.dctcp.vsdt." PS[r, i], fix(ch(r, "dctcp", PS[r, i], "abm", "dt", "incast_p99"), 0))
		a1 = ch(r, "cubic", "12.5", "abm", "dt", "incast_p99"); a2 = ch(r, "cubic", "12.5", "abm", "ib", "incast_p99")
		put("full.cubic.vsdtib.12.5", pc((a1 + a2) / 2)); put("full.cubic.vsfab.12.5", pc(ch(r, "cubic", "12.5", "abm", "fab", "incast_p99")))
		put("full.cubic.vscs.12.5", pc(ch(r, "cubic", "12.5", "abm", "cs", "incast_p99")))
		put("full.cubic.vsall.50", pc(vsall(r, "cubic", "50", "incast_p99"))); put("full.cubic.vsall.50.n", fix(vsall(r, "cubic", "50", "incast_p99"), 0))
		put("full.cubic.short.vsall", pc(vsall_sizes(r, "cubic", "short_p99"))); put("full.cubic.short.vsall.n", fix(vsall_sizes(r, "cubic", "short_p99"), 0))
		put("full.dctcp.short.vsall", pc(vsall_sizes(r, "dctcp", "short_p99")))
		put("full.dctcp.short.vsdt", rng(r, "dctcp", "dt", "short_p99"))
		put("full.buf.cubic", fix(val(r, "cubic", PS[r, 1], "abm", "buffer_p99_pct"), 1) " to " fix(val(r, "cubic", PS[r, np[r]], "abm", "buffer_p99_pct"), 1) " % of B")
		ob = (val(r, "cubic", "75", "dt", "buffer_p99_pct") + val(r, "cubic", "75", "fab", "buffer_p99_pct") + val(r, "cubic", "75", "ib", "buffer_p99_pct")) / 3
		put("full.buf.more", fix(val(r, "cubic", "75", "abm", "buffer_p99_pct"), 1) " % against " fix(ob, 1) " %")
		# the points where the reduced run's ABM-vs-DT sign differs from the full scale's
		t = ""; for (k = 1; k <= 2; k++) { cc = k == 1 ? "dctcp" : "cubic"; for (i = 1; i <= np[r]; i++) if ((ch(r, cc, PS[r, i], "abm", "dt", "incast_p99") < 0) != (ch("main", cc, PS[r, i], "abm", "dt", "incast_p99") < 0)) t = t (t == "" ? "" : ", ") (cc == "dctcp" ? "DCTCP" : "Cubic") " at " PS[r, i] " %" }
		put("full.flips", t)
		# the reduced run's points farthest from the full scale's (incast p99, ratio)
		bx = 0; bt = ""
		for (k = 1; k <= 2; k++) { cc = k == 1 ? "dctcp" : "cubic"; for (i = 1; i <= np[r]; i++) for (j = 1; j <= ns[r]; j++) {
			s = SC[r, j]; x = val("main", cc, PS[r, i], s, "incast_p99") / val(r, cc, PS[r, i], s, "incast_p99"); if (x < 1) x = 1 / x
			if (x > bx) { bx = x; bt = up(s) " at " PS[r, i] " % under " (cc == "dctcp" ? "DCTCP" : "Cubic") ": " fix(val("main", cc, PS[r, i], s, "incast_p99"), 1) " reduced, " fix(val(r, cc, PS[r, i], s, "incast_p99"), 1) " at full scale" }
		} }
		put("full.farthest", bt); put("full.farthest.x", times(bx, 1))
	}
	done()
}
function hi_all_ok(   k, cc, i, x) {
	for (k = 1; k <= 2; k++) { cc = k == 1 ? "dctcp" : "cubic"; for (i = 1; i <= np["main"]; i++) { x = ch("main", cc, PS["main", i], "abm", "dt", "long_mean"); if (x > 25 || x < -25) return 0 } }
	return 1
}
