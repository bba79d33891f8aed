# fig17b-ci.awk: per 1 ms bin of burst duration and per policy, the mean over the ON/OFF
# trials of the lossless fraction (metrics-onoff.sh's frac_B) and the half-width of its 95 %
# confidence interval. Run by tables.sh after experiments/lib/ci.awk on OUT/onoff/sweep.csv,
# with -v pol="dt edt ..." (the column order).
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ for (b = 0; b <= 10; b++) ci_add($c["policy"] SUBSEP b, $c["frac_" b]) }
END {
	np = split(pol, order, " ")
	printf "bin_ms,trials"; for (i = 1; i <= np; i++) printf ",%s_mean,%s_ci95", order[i], order[i]; print ""
	for (b = 0; b <= 10; b++) {
		printf "%d,%d", b, ci_n(order[1] SUBSEP b)
		for (i = 1; i <= np; i++) { k = order[i] SUBSEP b; h = ci_half(k); printf ",%.4f,%s", ci_mean(k), h == "" ? "" : sprintf("%.4f", h) }
		print ""
	} }
