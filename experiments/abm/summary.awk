# summary.awk: the table of a sweep's means over seeds, with their 95 % confidence intervals,
# from its sweep-summary.csv (sweeps/fig7-fig9b.cfg; docs/sweep.md §4). Run after
# experiments/lib/values.awk, which gives put() and fix():
#
#   awk -F, -f experiments/lib/values.awk -f experiments/abm/summary.awk sweep-summary.csv
#
# prints the report values "ci.table" (markdown: per transport and request size, per scheme,
# "incast p99 / short p99" as mean ± half-width of the interval, ABM in bold), "ci.n" (the
# seeds per point), "ci.wide" (at how many points the incast p99's interval is wider than half
# its mean: the seeds disagree there) and "ci.points" (the points). With -v md=1 it prints the table itself instead.
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	cc = $c["cc"]; p = $c["request_pct"]; s = $c["switch.scheme"]
	if (!((cc, p) in seen)) { seen[cc, p] = 1; rows[++nr] = cc SUBSEP p }
	if (!(s in seens)) { seens[s] = 1; sc[++ns] = s }
	cell[cc, p, s] = mci($c["incast_slowdown_p99_mean"], $c["incast_slowdown_p99_ci95"]) " / " \
		mci($c["short_p99_mean"], $c["short_p99_ci95"])
	if (n == "" || $c["n"] < n) n = $c["n"]
	if (wide($c["incast_slowdown_p99_mean"], $c["incast_slowdown_p99_ci95"])) w++
	np++
}
# "12.3 ± 1.4"; the mean alone with one seed (sweep-summary.csv leaves the interval empty)
function mci(m, ci) { return ci == "" ? fix(m, 1) : fix(m, 1) " ± " fix(ci, 1) }
function wide(m, ci) { return ci != "" && ci > 0.5 * m }
function up(s) { return s == "cs" ? "CS" : toupper(s) }
END {
	t = "| request % of B |"; for (j = 1; j <= ns; j++) t = t " " (sc[j] == "abm" ? "**ABM**" : up(sc[j])) " |"
	t = t "\n|---|"; for (j = 1; j <= ns; j++) t = t "---|"
	for (i = 1; i <= nr; i++) {
		split(rows[i], a, SUBSEP)
		t = t "\n| " (a[1] != last ? "**" (a[1] == "dctcp" ? "DCTCP" : "Cubic") "** " : "") a[2] " |"; last = a[1]
		for (j = 1; j <= ns; j++) { x = cell[a[1], a[2], sc[j]]; t = t " " (sc[j] == "abm" ? "**" x "**" : x) " |" }
	}
	if (md) { print t; exit }
	put("ci.table", t); put("ci.n", n); put("ci.wide", w + 0); put("ci.points", np)
}
