# summary.awk: REPORT.md's tables of the means over seeds, with their 95 % confidence
# intervals, from sweeps' sweep-summary.csv (docs/sweep.md §4). Run after
# experiments/lib/values.awk, which gives put() and fix():
#
#   awk -F, -f experiments/lib/values.awk -f experiments/occamy/summary.awk \
#       fig=14 bg=0 OUT/fig14-nobg/sweep-summary.csv bg=1 OUT/fig14-bg/sweep-summary.csv \
#       fig=12 OUT/fig12/sweep-summary.csv
#
# prints the report values "ci14.table" (Fig. 14: per size and scheme, the mean and p99 QCT of
# host 0's queries in ms and the % of them with an RTO, without and with the background),
# "ci12.table" (Fig. 12: per size, each scheme's mean QCT in ms and % of queries with an RTO)
# "ci.n" (the seeds per point, the smallest over the points) and "ci.multi" (1 if ci.n > 1:
# the report shows these tables only then, as with one seed they repeat seed 1's). Each number is
# "mean ± half-width of the interval", the mean alone with one seed. QCTs are in µs in the CSVs.
FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	x = $c["size_pct"]; s = $c["switch.scheme"]
	if (n == "" || $c["n"] < n) n = $c["n"]
	if (fig == 14) {
		if (!(x in s14)) { s14[x] = 1; X14[++n14] = x }
		M14[x, s, bg] = mci($c["qct_mean_us_mean"] / 1000, $c["qct_mean_us_ci95"] / 1000, 2)
		P14[x, s, bg] = mci($c["qct_p99_us_mean"] / 1000, $c["qct_p99_us_ci95"] / 1000, 2)
		R14[x, s, bg] = mci($c["rto_pct_mean"], $c["rto_pct_ci95"], 1)
	} else {
		if (!(x in s12)) { s12[x] = 1; X12[++n12] = x }
		M12[x, s] = mci($c["qct_mean_us_mean"] / 1000, $c["qct_mean_us_ci95"] / 1000, 1)
		R12[x, s] = mci($c["rto_pct_mean"], $c["rto_pct_ci95"], 1)
	}
}
# "12.3 ± 1.4" with d decimals; the mean alone where sweep-summary.csv leaves the interval empty
function mci(m, ci, d) { return ci == "" ? fix(m, d) : fix(m, d) " ± " fix(ci, d) }
function name(s) { return s == "dt" ? "DT" : s == "abm" ? "ABM" : s == "occamy" ? "Occamy" : "Pushout" }
function sch(i) { return i == 1 ? "dt" : i == 2 ? "abm" : i == 3 ? "occamy" : "pushout" }
# the sizes in increasing order (several specs may each hold some of them)
function order(X, k,   i, j, t) { for (i = 2; i <= k; i++) { t = X[i]; for (j = i; j > 1 && X[j - 1] + 0 > t + 0; j--) X[j] = X[j - 1]; X[j] = t } }
END {
	order(X14, n14); order(X12, n12)
	t = "| size (% of buffer) | scheme | mean w/o | mean with | p99 w/o | p99 with | % queries with RTO, w/o → with |\n|---|---|---|---|---|---|---|"
	for (i = 1; i <= n14; i++) for (j = 1; j <= 4; j++) { x = X14[i]; s = sch(j)
		t = t "\n| " x " | " name(s) " | " M14[x, s, 0] " | " M14[x, s, 1] " | " P14[x, s, 0] " | " P14[x, s, 1] " | " R14[x, s, 0] " → " R14[x, s, 1] " |" }
	put("ci14.table", n14 ? t : "")
	t = "| size (% of buffer) | DT mean / RTO % | ABM mean / RTO % | Occamy mean / RTO % | Pushout mean / RTO % |\n|---|---|---|---|---|"
	for (i = 1; i <= n12; i++) { x = X12[i]; t = t "\n| " x " |"
		for (j = 1; j <= 4; j++) t = t " " M12[x, sch(j)] " / " R12[x, sch(j)] " |" }
	put("ci12.table", n12 ? t : "")
	put("ci.n", n); put("ci.multi", n > 1 ? 1 : 0)
}
