# ci.awk: a mean and its 95 % confidence interval over a few values, for the experiments'
# scripts when the values to combine are not a sweep's seeds (sweep-summary.csv has those,
# docs/sweep.md §4) but, say, the points of a trial axis. POSIX awk; load it with -f before
# the program that uses it.
#
# t975(df)        Student's t quantile t(0.975, df), from the standard tables (df = 1 .. 30;
#                 beyond, 1.96): the same values sb_student_t975() computes, to 3 decimals
# ci_add(k, x)    adds the value x to the group k
# ci_n(k), ci_mean(k), ci_sd(k)   count, mean, sample standard deviation (n - 1)
# ci_half(k)      half-width of the 95 % interval of the mean, t975(n - 1) sd / sqrt(n);
#                 "" when n < 2 (no spread to estimate, as in sweep-summary.csv)
function t975(df) {
	if (!_t975[1]) split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", _t975, " ")
	return df >= 1 && df <= 30 ? _t975[df] + 0 : 1.96
}
function ci_add(k, x) { _cin[k]++; _cis[k] += x; _ciss[k] += x * x; _civ[k, _cin[k]] = x }
function ci_n(k) { return _cin[k] + 0 }
function ci_mean(k) { return _cin[k] ? _cis[k] / _cin[k] : 0 }
function ci_sd(k,   i, m, s) {
	if (_cin[k] < 2) return ""
	m = ci_mean(k)
	for (i = 1; i <= _cin[k]; i++) s += (_civ[k, i] - m) ^ 2
	return sqrt(s / (_cin[k] - 1))
}
function ci_half(k) { return _cin[k] < 2 ? "" : t975(_cin[k] - 1) * ci_sd(k) / sqrt(_cin[k]) }
