# results.awk: one seed's runs of a sweep of sweeps/*.cfg (its sweep.csv) as the table the
# report's values.awk reads (results.csv), rounded as the figures print them:
#
#   awk -F, -v seed=1 -f experiments/abm/results.awk OUT/fig7-fig9b/sweep.csv > results.csv
#
# Columns: cc,req_pct,scheme,incast_p99,incast_mean,short_p99,qct_p99,buffer_p99_pct,drops,
# queries,incast_flows,short_flows,unfinished,long_mean,incast_rto,slow_queries,spine_drops,
# overlap_queries. Rows in the sweep's order: transport, request size, scheme. sweep.csv's
# columns are found by name (docs/sweep.md §4; short_p99 and the others after long_mean come
# from metrics.sh), so a spec with more metrics or axes still converts.
BEGIN { B = 3932160 }   # the leaf buffer, 9.6 KiB x 40 ports x 10 Gb/s: buffer % is of B
NR == 1 {
	for (i = 1; i <= NF; i++) c[$i] = i
	split("cc request_pct switch.scheme seed incast_slowdown_p99 incast_slowdown_mean short_p99 qct_slowdown_p99 buffer_p99_bytes drops qct_count incast_count short_flows flows_unfinished long_slowdown_mean incast_rto slow_queries spine_drops overlap_queries", need, " ")
	for (k in need) if (!(need[k] in c)) { printf "results.awk: %s: no column %s\n", FILENAME, need[k] > "/dev/stderr"; bad = 1; exit 1 }
	print "cc,req_pct,scheme,incast_p99,incast_mean,short_p99,qct_p99,buffer_p99_pct,drops,queries,incast_flows,short_flows,unfinished,long_mean,incast_rto,slow_queries,spine_drops,overlap_queries"
	next
}
$c["seed"] == seed {
	printf "%s,%s,%s,%.2f,%.2f,%.2f,%.2f,%.1f,%d,%d,%d,%d,%d,%.2f,%d,%d,%d,%d\n", $c["cc"], $c["request_pct"], $c["switch.scheme"],
		$c["incast_slowdown_p99"], $c["incast_slowdown_mean"], $c["short_p99"], $c["qct_slowdown_p99"],
		100 * $c["buffer_p99_bytes"] / B, $c["drops"], $c["qct_count"], $c["incast_count"], $c["short_flows"],
		$c["flows_unfinished"], $c["long_slowdown_mean"], $c["incast_rto"], $c["slow_queries"], $c["spine_drops"],
		$c["overlap_queries"]
	n++
}
END { if (!bad && !n) { printf "results.awk: %s: no run with seed %s\n", FILENAME, seed > "/dev/stderr"; exit 1 } }
