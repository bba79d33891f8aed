# fig14-ci.awk: DSH Fig. 14's DSH / SIH ratios per point, mean over the seeds and the half-width
# of the 95 % confidence interval (Student's t; empty with one seed). Run by tables.sh after
# experiments/lib/ci.awk on its PREFIX-ratios.txt ("cc bg seed bgm bgp fanm fanp", a header).
NR == 1 { next }
{
	k = $1 "," $2; if (!(k in seen)) { seen[k] = 1; K[++n] = k }
	for (i = 4; i <= 7; i++) ci_add(k SUBSEP i, $i)
}
END {
	print "cc,bg_load,seeds,bg_mean_ratio,bg_mean_ci95,bg_p99_ratio,bg_p99_ci95,fan_mean_ratio,fan_mean_ci95,fan_p99_ratio,fan_p99_ci95"
	for (j = 1; j <= n; j++) {
		k = K[j]; printf "%s,%d", k, ci_n(k SUBSEP 4)
		for (i = 4; i <= 7; i++) { h = ci_half(k SUBSEP i); printf ",%.3f,%s", ci_mean(k SUBSEP i), h == "" ? "" : sprintf("%.3f", h) }
		print ""
	}
}
