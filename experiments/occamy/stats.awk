# stats.awk: statistics of numbers sorted ascending, one per line (QCTs in us from qct.awk).
# Prints: count mean p50 p99 max rto_pct, where p50/p99 are nearest-rank percentiles and
# rto_pct the percentage of values >= rto_us (queries that waited for a retransmission timeout).
#   ... | sort -n | awk -v rto_us=200000 -f stats.awk
{ v[++m] = $1; sum += $1; if ($1 >= rto_us) slow++ }
function rank(p,   r) { r = int(p * m); if (r < p * m) r++; if (r < 1) r = 1; return r }
END {
	if (m == 0) { print 0, 0, 0, 0, 0, 0; exit }
	printf "%d %.1f %.1f %.1f %.1f %.2f\n", m, sum / m, v[rank(0.50)], v[rank(0.99)], v[m], 100.0 * slow / m
}
