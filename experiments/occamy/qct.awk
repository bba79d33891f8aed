# qct.awk: query completion times (microseconds), one per line, from a sharebuf flows.csv.
# A query counts when all its `fanin` responses have a row; QCT = last response's completion
# - query start (docs/outputs.md §3). Only queries whose querier (the responses' dst) is
# `dst` are kept (dst = -1: every query). Pipe into `sort -n | awk -f stats.awk`.
#   awk -F, -v dst=0 -v fanin=7 -f qct.awk flows.csv
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["kind"] != "incast" { next }
dst >= 0 && $col["dst"] != dst { next }
{
	q = $col["query_id"]; s = $col["start_ns"]; e = s + $col["fct_ns"]
	n[q]++; st[q] = s
	if (!(q in en) || e > en[q]) en[q] = e
}
END { for (q in n) if (n[q] >= fanin) printf "%.3f\n", (en[q] - st[q]) / 1000.0 }
