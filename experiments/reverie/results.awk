# results.awk: the sweeps' CSVs as one table in the experiment's own terms, results.csv, which
# tables.awk (results.md) and values.awk (REPORT.md) read. run.sh calls it once per sweep:
#
#   awk -F, -f results.awk fig=7 xcol=workloads.0.load xscale=100 OUT/fig7/sweep-summary.csv
#   awk -F, -f results.awk fig=10 xcol= x=ref OUT/fig10-ref/sweep-summary.csv
#   awk -F, -f results.awk seed=1 fig=7 ... OUT/fig7/sweep.csv
#
# Each row of the input (a point of sweep-summary.csv, or with seed=S the run of seed S in
# sweep.csv) becomes "fig,x,scheme,n,METRICS...,METRICS_ci95..." (header with head=1): x is the
# value of the axis column `xcol` times `xscale` (Fig. 7's load in %), or `x` itself when xcol
# is empty; scheme is the `scheme` variant axis. The metrics keep run.sh's earlier names (the
# same summary.json keys and metrics.sh columns), means over the seeds with their 95 % CI
# half-widths (empty with one seed: sweep-summary.csv's _ci95). With seed=S the row is one run's,
# printed with the formats the experiment's results.csv had before the sweeps (n and CIs left
# out), so that it can be compared byte for byte with a results.csv of that time.
BEGIN {
	OFS = ","
	# name here, column in the sweeps' CSVs, scale, format of a single run (seed=S)
	nm = split("pauses pfc_pause_frames 1 %d;paused_ms pfc_paused_us 0.001 %.3f;" \
		"incast_mean incast_slowdown_mean 1 %.3f;incast_p99 incast_slowdown_p99 1 %.3f;" \
		"qct_mean qct_slowdown_mean 1 %.4f;qct_p99 qct_slowdown_p99 1 %.4f;short_p99 short_p99 1 %.3f;" \
		"short_n short_n 1 %d;rdma_occ_p99_pct rdma_occ_p99_pct 1 %.1f;tcp_occ_p99_pct tcp_occ_p99_pct 1 %.1f;" \
		"lossy_drops drops.lossy 1 %d;lossless_drops drops_lossless 1 %d;queries queries_started 1 %d;" \
		"queries_done queries_completed 1 %d;unfinished flows_unfinished 1 %d", M, ";")
	for (i = 1; i <= nm; i++) { split(M[i], f, " "); NAME[i] = f[1]; SRC[i] = f[2]; SCALE[i] = f[3]; FMT[i] = f[4] }
}
FNR == 1 {
	if (head && NR == 1) {
		h = "fig,x,scheme"
		if (!seed) h = h ",n"
		for (i = 1; i <= nm; i++) h = h "," NAME[i]
		if (!seed) for (i = 1; i <= nm; i++) h = h "," NAME[i] "_ci95"
		print h
	}
	for (i = 1; i <= NF; i++) C[$i] = i
	need = "scheme" (xcol == "" ? "" : " " xcol) (seed ? " seed" : " n")
	for (i = 1; i <= nm; i++) need = need " " (seed ? SRC[i] : SRC[i] "_mean " SRC[i] "_ci95")
	k = split(need, N, " ")
	for (i = 1; i <= k; i++) if (!(N[i] in C)) { printf "results.awk: %s: no column %s\n", FILENAME, N[i] > "/dev/stderr"; bad = 1; exit 1 }
	next
}
seed && $C["seed"] != seed { next }
{
	xv = xcol == "" ? x : (xscale == "" ? $C[xcol] : sprintf("%.10g", $C[xcol] * xscale))
	line = fig "," xv "," $C["scheme"]
	if (seed) {
		for (i = 1; i <= nm; i++) line = line "," sprintf(FMT[i], $C[SRC[i]] * SCALE[i])
	} else {
		line = line "," $C["n"]
		for (i = 1; i <= nm; i++) line = line "," sprintf("%.10g", $C[SRC[i] "_mean"] * SCALE[i])
		for (i = 1; i <= nm; i++) line = line "," ($C[SRC[i] "_ci95"] == "" ? "" : sprintf("%.10g", $C[SRC[i] "_ci95"] * SCALE[i]))
	}
	print line
}
END { if (bad) exit 1 }
