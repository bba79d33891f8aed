# values.awk: functions for the awk programs that turn an experiment's outputs into the values
# of its report (experiments/lib/fill.awk). POSIX awk, mawk-compatible. Load it first:
#
#   awk -f experiments/lib/values.awk -f experiments/EXP/values-FIG.awk FILES... > values.tsv
#
# put(k, v)        one "key<TAB>value" line (newlines in v written as \n)
# check(ok, msg)   a statement of the report that the numbers must bear out: if ok is false,
#                  msg goes to standard error and into the value "<PREFIX>warnings" (PREFIX set
#                  with -v prefix=..., written by done()), which the report prints
# done()           call last in END: writes the warnings value ("" when every check held)
# num(x, d)        x with d decimals and thousands separators: num(14403.2, 0) = "14,403"
# sgn(x, d)        signed with a real minus sign: "+8.0", "−2.1"
# pct(r, d)        a ratio as a signed change in percent: pct(0.333, 1) = "−66.7 %"
# times(r, d)      a ratio as a factor: times(3.94, 1) = "3.9×"
# fix(x, d)        x with d decimals (no separators)
# sortn(a, n)      sorts a[1..n] numerically in place (shell sort)
# median(a, n)     median of a[1..n] (sorts a)
# minmax(a, n)     "min–max" of a[1..n] (sorts a), en dash
# range(lo, hi, d, unit)  "lo–hi unit", or "lo unit" if equal at d decimals
function put(k, v) { gsub(/\n/, "\\n", v); printf "%s%s\t%s\n", prefix, k, v }
function check(ok, msg) {
	if (ok) return
	printf "%s: check failed: %s\n", (prefix == "" ? "report" : prefix), msg > "/dev/stderr"
	_warn = _warn "- **Check failed**: " msg "\n"
}
function done() { put("warnings", _warn) }
function fix(x, d) { return sprintf("%." d "f", x) }
function num(x, d,   s, neg, ip, fp, i, out) {
	s = sprintf("%." d "f", x < 0 ? -x : x)
	neg = (x < 0 && s + 0 != 0)
	i = index(s, ".")
	if (i) { ip = substr(s, 1, i - 1); fp = substr(s, i) } else { ip = s; fp = "" }
	out = ""
	while (length(ip) > 3) { out = "," substr(ip, length(ip) - 2) out; ip = substr(ip, 1, length(ip) - 3) }
	return (neg ? "−" : "") ip out fp
}
function sgn(x, d,   s) {
	s = sprintf("%." d "f", x < 0 ? -x : x)
	if (s + 0 == 0) return s
	return (x < 0 ? "−" : "+") s
}
function pct(r, d) { return sgn(100 * (r - 1), d) " %" }
function times(r, d) { return sprintf("%." d "f", r) "×" }
function sortn(a, n,   g, i, j, t) {
	for (g = int(n / 2); g > 0; g = int(g / 2))
		for (i = g + 1; i <= n; i++) { t = a[i]; for (j = i; j > g && a[j - g] > t; j -= g) a[j] = a[j - g]; a[j] = t }
}
function median(a, n) { sortn(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function range(lo, hi, d, unit,   a, b) {
	a = num(lo, d); b = num(hi, d)
	return (a == b ? a : a "–" b) (unit == "" ? "" : " " unit)
}
function minmax(a, n, d, unit) { sortn(a, n); return range(a[1], a[n], d, unit) }
