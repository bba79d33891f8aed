# Markdown tables of experiments/reverie/run.sh from results.csv (awk -F, -f tables.awk results.csv).
# Variables: mode, scale (leaves, arrivals, query rate), extra. Deterministic: nothing but
# results.csv goes in. Its values are means over the seeds (column n); the 95 % CIs are in
# REPORT.md and the plots.
# Changes are (scheme - baseline) / baseline, so negative = lower than the baseline (the paper's
# "reduction" with the sign flipped); "avg" is the mean of the per-point changes (what the paper's
# "on average" is read as; the paper does not say) and "total" compares the sums over the sweep.
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	f = $1; x = $2; s = $3
	if (!((f, x) in seenx)) { seenx[f, x] = 1; xs[f, ++nx[f]] = x }
	if (!((f, s) in seens)) { seens[f, s] = 1; ss[f, ++ns[f]] = s }
	for (k in col) v[f, x, s, k] = $col[k]
	has[f] = 1
	if (nseeds == "" || $col["n"] < nseeds) nseeds = $col["n"]
}
function pct(a, b) { return b == 0 ? "n/a" : sprintf("%+.1f %%", 100 * (a - b) / b) }
function xlabel(f, x) { return f == 8 ? sprintf("%.1f MB", x / 1e6) : (f == 7 ? x " %" : x) }
function name(s) { return s == "dt" ? "DT" : s == "abm" ? "ABM" : s == "reverie" ? "Reverie" : \
	s == "reverie-art" ? "Reverie, pause_on_full_pool off" : s }
function runs_table(f, xname,    i, j, x, s) {
	printf "| %s | scheme | PFC pauses | paused (ms) | incast avg | incast p99 | QCT avg | QCT p99 | short p99 | RDMA buf p99 %% | TCP buf p99 %% | lossy drops | lossless drops | queries done |\n", xname
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= nx[f]; i++) {
		x = xs[f, i]
		for (j = 1; j <= ns[f]; j++) {
			s = ss[f, j]
			if (!((f, x, s, "pauses") in v)) continue
			printf "| %s | %s | %.0f | %.1f | %.2f | %.2f | %.3f | %.3f | %.2f | %.1f | %.1f | %.0f | %.0f | %.0f/%.0f |\n",
				xlabel(f, x), name(s), v[f, x, s, "pauses"], v[f, x, s, "paused_ms"],
				v[f, x, s, "incast_mean"], v[f, x, s, "incast_p99"], v[f, x, s, "qct_mean"],
				v[f, x, s, "qct_p99"], v[f, x, s, "short_p99"], v[f, x, s, "rdma_occ_p99_pct"],
				v[f, x, s, "tcp_occ_p99_pct"], v[f, x, s, "lossy_drops"], v[f, x, s, "lossless_drops"],
				v[f, x, s, "queries_done"], v[f, x, s, "queries"]
		}
	}
}
function change_table(f, r, xname,    i, b, x, base, m, k, cnt, sum, tr, tb, line) {
	nm = split("pauses paused_ms incast_mean qct_mean qct_p99 short_p99", met, " ")
	printf "\n%s against DT and ABM (negative = %s lower):\n\n", name(r), name(r)
	printf "| %s | vs | PFC pauses | paused time | incast avg | QCT avg | QCT p99 | short p99 |\n", xname
	print "|---|---|---|---|---|---|---|---|"
	for (b = 1; b <= 2; b++) {
		base = b == 1 ? "dt" : "abm"
		if (!((f, base) in seens) || !((f, r) in seens)) continue
		for (k = 1; k <= nm; k++) { sum[k] = 0; cnt[k] = 0; tr[k] = 0; tb[k] = 0 }
		for (i = 1; i <= nx[f]; i++) {
			x = xs[f, i]
			line = sprintf("| %s | %s |", xlabel(f, x), name(base))
			for (k = 1; k <= nm; k++) {
				m = met[k]
				line = line " " pct(v[f, x, r, m], v[f, x, base, m]) " |"
				if (v[f, x, base, m] != 0) { sum[k] += 100 * (v[f, x, r, m] - v[f, x, base, m]) / v[f, x, base, m]; cnt[k]++ }
				tr[k] += v[f, x, r, m]; tb[k] += v[f, x, base, m]
			}
			print line
		}
		line = sprintf("| **avg of points** | %s |", name(base))
		for (k = 1; k <= nm; k++) line = line (cnt[k] ? sprintf(" **%+.1f %%** |", sum[k] / cnt[k]) : " n/a |")
		print line
		line = sprintf("| sweep total | %s |", name(base))
		for (k = 1; k <= nm; k++) line = line " " pct(tr[k], tb[k]) " |"
		print line
	}
}
END {
	printf "# Reverie reproduction: %s run, %s, means over %s%s\n",
		mode, scale, nseeds == 1 ? "1 seed" : nseeds " seeds", extra != "" ? ", extra options: " extra : ""
	print ""
	print "PFC pauses = PAUSE frames sent by switches; paused = time paused summed over every paused"
	print "(port, priority); incast = FCT slowdown of the RDMA incast responses (the paper's metric);"
	print "QCT = query completion slowdown (last response of a query); short = p99 FCT slowdown of"
	print "web-search flows < 100 KB (TCP in Figs. 7/8, RDMA in Fig. 10); buffer = p99 of the leaves'"
	print "lossless (RDMA) and lossy (TCP) bytes during the arrival window, pooled over the leaves, % of"
	print "b = 2,560,000 B. Percentiles are nearest rank."
	if (has[7]) {
		print "\n## Fig. 7: TCP web-search load sweep, 2 MB RDMA incast\n"
		runs_table(7, "TCP load")
		change_table(7, "reverie", "TCP load")
		if ((7, "reverie-art") in seens) change_table(7, "reverie-art", "TCP load")
	}
	if (has[8]) {
		print "\n## Fig. 8: RDMA burst-size sweep, TCP web-search 80 %\n"
		runs_table(8, "burst")
		change_table(8, "reverie", "burst")
		if ((8, "reverie-art") in seens) change_table(8, "reverie-art", "burst")
	}
	if (has[10]) {
		print "\n## Fig. 10: Reverie's gamma, RDMA web-search 80 % + 2 MB RDMA incast\n"
		print "pause_on_full_pool on (our default) / off (the artifact's rule):\n"
		print "| gamma | PFC pauses on / off | paused ms on / off | incast avg on / off | QCT avg on / off | QCT p99 on / off | short p99 on / off | lossless drops on / off |"
		print "|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= nx[10]; i++) {
			x = xs[10, i]
			if (x == "ref") continue
			a = "reverie"; o = "reverie-art"
			printf "| %s | %.0f / %.0f | %.1f / %.1f | %.2f / %.2f | %.3f / %.3f | %.3f / %.3f | %.2f / %.2f | %.0f / %.0f |\n", x,
				v[10, x, a, "pauses"], v[10, x, o, "pauses"], v[10, x, a, "paused_ms"], v[10, x, o, "paused_ms"],
				v[10, x, a, "incast_mean"], v[10, x, o, "incast_mean"], v[10, x, a, "qct_mean"], v[10, x, o, "qct_mean"],
				v[10, x, a, "qct_p99"], v[10, x, o, "qct_p99"], v[10, x, a, "short_p99"], v[10, x, o, "short_p99"],
				v[10, x, a, "lossless_drops"], v[10, x, o, "lossless_drops"]
		}
		if ((10, "ref", "dt", "pauses") in v) {
			print "\nReference, same traffic (gamma does not apply):\n"
			runs_table_ref()
		}
		if ((10, "0.999", "reverie", "incast_mean") in v) {
			print "\nAgainst gamma = 0.999 (the paper's Fig. 10b claim: +9 % incast avg at 0.999999):\n"
			print "| gamma | incast avg on | incast avg off | PFC pauses on | PFC pauses off |"
			print "|---|---|---|---|---|"
			for (i = 1; i <= nx[10]; i++) {
				x = xs[10, i]
				if (x == "ref") continue
				printf "| %s | %s | %s | %s | %s |\n", x,
					pct(v[10, x, "reverie", "incast_mean"], v[10, "0.999", "reverie", "incast_mean"]),
					pct(v[10, x, "reverie-art", "incast_mean"], v[10, "0.999", "reverie-art", "incast_mean"]),
					pct(v[10, x, "reverie", "pauses"], v[10, "0.999", "reverie", "pauses"]),
					pct(v[10, x, "reverie-art", "pauses"], v[10, "0.999", "reverie-art", "pauses"])
			}
		}
	}
}
function runs_table_ref(    s, k) {
	print "| scheme | PFC pauses | paused (ms) | incast avg | QCT avg | QCT p99 | short p99 | lossless drops |"
	print "|---|---|---|---|---|---|---|---|"
	for (k = 1; k <= 2; k++) {
		s = k == 1 ? "dt" : "abm"
		printf "| %s | %.0f | %.1f | %.2f | %.3f | %.3f | %.2f | %.0f |\n", name(s), v[10, "ref", s, "pauses"],
			v[10, "ref", s, "paused_ms"], v[10, "ref", s, "incast_mean"], v[10, "ref", s, "qct_mean"],
			v[10, "ref", s, "qct_p99"], v[10, "ref", s, "short_p99"], v[10, "ref", s, "lossless_drops"]
	}
}
