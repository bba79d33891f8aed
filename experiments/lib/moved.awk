# moved.awk: what changed between an earlier set of a report's numbers and the current one.
# Run after experiments/lib/values.awk (with -v prefix=...):
#   awk -f experiments/lib/values.awk -f experiments/lib/moved.awk what=prev OLD.tsv what=cur NEW.tsv...
# OLD.tsv: key <TAB> value <TAB> label ("Fig. 12: DCQCN, SIH: runs that deadlock"); NEW.tsv:
# key <TAB> value, the same keys. Writes the values
#   table     a Markdown table of the numbers that changed: label, before, now, change
#   summary   one row per group (the label up to its first ", ") with a change: how many of its
#             numbers changed, and the largest relative change
#   changed   how many changed, of compared; same: the groups (the label up to its first ", ")
#   groups    whose every number is unchanged; missing: keys with no current value
#   onlyin    "1" if every changed key contains the word given as -v only=WORD
BEGIN { FS = "\t" }
/^#/ || NF < 2 { next }
what == "prev" { n++; K[n] = $1; OLD[$1] = $2; LAB[$1] = $3; next }
what == "cur" { CUR[$1] = $2; next }
function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?$/ }
END {
	t = "| what | before | now | change |\n|---|---|---|---|"; ch = 0; cmp = 0; miss = ""; onl = 1
	for (i = 1; i <= n; i++) {
		k = K[i]; g = LAB[k]; sub(/, .*/, "", g)
		if (!(g in gseen)) { gseen[g] = 1; ng++; G[ng] = g }
		gn[g]++
		if (!(k in CUR)) { miss = miss (miss == "" ? "" : ", ") k; continue }
		cmp++
		o = OLD[k]; c = CUR[k]
		same = isnum(o) && isnum(c) ? (o + 0 == c + 0) : (o == c)
		if (same) continue
		ch++; gch[g]++
		r = (isnum(o) && isnum(c) && o + 0 != 0) ? (c - o) / o : 0; if (r < 0) r = -r
		if (!(g in gmax) || r > gmax[g]) { gmax[g] = r; gbig[g] = LAB[k] ": " o " → " c }
		if (only != "" && index(k, only) == 0) onl = 0
		d = isnum(o) && isnum(c) ? sgn(c - o, (index(c, ".") ? length(c) - index(c, ".") : 0)) : ""
		if (d != "" && o + 0 != 0) d = d " (" sgn(100 * (c - o) / o, 0) " %)"
		t = t "\n| " LAB[k] " | " o " | " c " | " d " |"
	}
	put("table", t); put("changed", ch); put("compared", cmp); put("missing", miss); put("onlyin", onl && ch > 0)
	s = ""; for (i = 1; i <= ng; i++) if (!(G[i] in gch)) s = s (s == "" ? "" : "; ") G[i]
	put("same", s)
	s = "| numbers | changed | largest change |\n|---|---|---|"
	for (i = 1; i <= ng; i++) if (G[i] in gch) s = s "\n| " G[i] " | " gch[G[i]] " of " gn[G[i]] " | " gbig[G[i]] " |"
	put("summary", s)
	check(miss == "", "no current value for " miss)
	done()
}
