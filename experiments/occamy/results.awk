# results.awk: one seed's runs of a sweep of sweeps/*.cfg (its sweep.csv) as the rows of the
# tables the report's values.awk reads, choking.csv (Fig. 14) or burst.csv (Fig. 12):
#
#   awk -F, -v seed=1 -v fig=14 -v bg=1 -f experiments/occamy/results.awk OUT/fig14-bg/sweep.csv
#   awk -F, -v seed=1 -v fig=12 -f experiments/occamy/results.awk OUT/fig12/sweep.csv
#
# Rows only (-v header=1: the header alone), in the sweep's order (size, scheme):
#   choking.csv: size_pct,scheme,background,queries,qct_mean_us,qct_p50_us,qct_p99_us,qct_max_us,rto_pct
#   burst.csv:   size_pct,scheme,queries,qct_mean_us,qct_p50_us,qct_p99_us,qct_max_us,rto_pct,
#                bg_fct_mean_us,bg_short_fct_p99_us
# The numbers are the extract scripts' (metrics-fig14.sh, metrics-fig12.sh) as they printed them.
# sweep.csv's columns are found by name (docs/sweep.md §4).
BEGIN {
	if (fig == 14) { cols = "queries qct_mean_us qct_p50_us qct_p99_us qct_max_us rto_pct"
		head = "size_pct,scheme,background,queries,qct_mean_us,qct_p50_us,qct_p99_us,qct_max_us,rto_pct" }
	else if (fig == 12) { cols = "queries qct_mean_us qct_p50_us qct_p99_us qct_max_us rto_pct bg_fct_mean_us bg_short_fct_p99_us"
		head = "size_pct,scheme,queries,qct_mean_us,qct_p50_us,qct_p99_us,qct_max_us,rto_pct,bg_fct_mean_us,bg_short_fct_p99_us" }
	else { print "results.awk: -v fig=14 or -v fig=12" > "/dev/stderr"; bad = 1; exit 1 }
	if (header) { print head; exit 0 }
	nc = split(cols, col, " ")
}
NR == 1 {
	for (i = 1; i <= NF; i++) c[$i] = i
	for (k = 0; k <= nc; k++) { x = k ? col[k] : "size_pct"
		if (!(x in c)) { printf "results.awk: %s: no column %s\n", FILENAME, x > "/dev/stderr"; bad = 1; exit 1 } }
	next
}
$c["seed"] == seed {
	printf "%s,%s", $c["size_pct"], $c["switch.scheme"]
	if (fig == 14) printf ",%s", bg
	for (k = 1; k <= nc; k++) printf ",%s", $c[col[k]]
	printf "\n"
	n++
}
END { if (!bad && !header && !n) { printf "results.awk: %s: no run with seed %s\n", FILENAME, seed > "/dev/stderr"; exit 1 } }
