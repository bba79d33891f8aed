# burst_outcomes.awk: which ON/OFF micro-bursts of a run were lossless (paper §5.2.1, Fig. 17b).
#
#   awk -F, -f burst_outcomes.awk BURSTS.csv RUN/flows.csv
#
# BURSTS.csv is the flow list gen_bursts.awk wrote (the run's workload of type file): each burst
# is two lines in a row, the two 1 Gb/s CBR flows of one ON period, same start, same size. A
# burst is lossless iff both of its flows completed, i.e. both have a row of kind "file" in
# flows.csv (an unresponsive CBR flow that lost a packet never completes). Flows are matched by
# source host and start time in whole nanoseconds.
#
# stdout: one line per burst, in the flow list's order: "port start_ns dur_ms ok" with dur_ms
# the ON period (packets x 12 us, six decimals, as gen_bursts.awk's burst list writes it) and
# ok 1 or 0.
FNR == 1 { file++; if (file == 2) for (i = 1; i <= NF; i++) c[$i] = i; next }
file == 1 {
	start = sprintf("%.0f", $1 * 1000)
	if (!pending) { pending = 1; src0 = $2; start0 = start; dst0 = $3; size0 = $4; next }
	if (start != start0 || $4 != size0 || $3 != dst0) {
		printf "burst_outcomes: %s:%d: not the second flow of the burst on line %d\n", FILENAME, FNR, FNR - 1 > "/dev/stderr"
		bad = 1; exit 1
	}
	nb++; P[nb] = dst0; S[nb] = start0; A[nb] = src0; B[nb] = $2
	D[nb] = sprintf("%.6f", size0 / 1452 * (1500 * 8 / 1e9 * 1e3))
	pending = 0
	next
}
$c["kind"] == "file" { done[$c["src"] "," sprintf("%.0f", $c["start_ns"])] = 1 }
END {
	if (bad) exit 1
	if (pending) { printf "burst_outcomes: %s: a burst with one flow at its end\n", ARGV[1] > "/dev/stderr"; exit 1 }
	for (i = 1; i <= nb; i++)
		printf "%d %s %s %d\n", P[i], S[i], D[i], ((A[i] "," S[i]) in done) && ((B[i] "," S[i]) in done)
}
