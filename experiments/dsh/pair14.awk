# pair14.awk: the paired FCT comparison of DSH Fig. 14 (one point, one seed).
#
#   awk -F, -f pair14.awk SIH/flows.csv DSH/flows.csv
#
# Flows are matched by (flow_id, start_ns, size_bytes): the workload draws do not depend on the
# network, so the same seed gives both runs the same flows. Only flows completed in BOTH runs
# count (the DSH harness's convention). Prints one line:
#   bg_mean_sih bg_mean_dsh bg_p99_sih bg_p99_dsh bg_n fan_mean_sih fan_mean_dsh fan_p99_sih
#   fan_p99_dsh fan_n r_lt100k n_lt100k r_100k_1m n_100k_1m r_1m_5m n_1m_5m r_ge5m n_ge5m
# FCTs in us (3 decimals), p99 by nearest rank; background = kind "background", fan-in = kind
# "incast"; r_* = DSH / SIH mean background FCT per flow-size bin, with its flow count.
FNR == 1 { file++; for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["fct_ns"] == "" { next }
{
	key = $c["flow_id"] "," $c["start_ns"] "," $c["size_bytes"]
	if (file == 1) { s[key] = $c["fct_ns"]; k[key] = $c["kind"]; z[key] = $c["size_bytes"]; next }
	if (key in s) d[key] = $c["fct_ns"]
}
function p99(a, kk, m,   v, g, i, j, t, r) {
	for (i = 1; i <= m; i++) v[i] = a[kk, i] + 0
	for (g = int(m / 2); g > 0; g = int(g / 2))
		for (i = g + 1; i <= m; i++) { t = v[i]; for (j = i; j > g && v[j - g] > t; j -= g) v[j] = v[j - g]; v[j] = t }
	r = int(0.99 * m); if (r < 0.99 * m) r++
	return v[r]
}
END {
	for (key in d) {
		kk = (k[key] == "incast") ? "f" : "b"; n[kk]++
		ss[kk, n[kk]] = s[key]; dd[kk, n[kk]] = d[key]; ms[kk] += s[key]; md[kk] += d[key]
		if (k[key] == "background") {
			b = (z[key] < 100000) ? 1 : (z[key] < 1000000) ? 2 : (z[key] < 5000000) ? 3 : 4
			bs[b] += s[key]; bd[b] += d[key]; bn[b]++
		}
	}
	for (i = 1; i <= 2; i++) {
		kk = (i == 1) ? "b" : "f"
		printf "%.3f %.3f %.3f %.3f %d ", ms[kk] / n[kk] / 1000, md[kk] / n[kk] / 1000,
			p99(ss, kk, n[kk]) / 1000, p99(dd, kk, n[kk]) / 1000, n[kk]
	}
	for (b = 1; b <= 4; b++) printf "%.3f %d%s", bn[b] ? bd[b] / bs[b] : 0, bn[b], b < 4 ? " " : "\n"
}
