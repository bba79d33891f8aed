# fill.awk: write a report from a template and files of values (POSIX awk; mawk-compatible).
#
#   awk -f experiments/lib/fill.awk [pfx=PREFIX] VALUES.tsv ... tmpl=1 TEMPLATE > REPORT.md
#
# A values file has one "key<TAB>value" per line (a third column, e.g. a citation, is kept as
# "KEY.cite" when the file is loaded with cite=1); lines starting with # and blank lines are
# skipped. "\n" in a value stands for a newline. The prefix in force when a file is read
# (pfx=paper. before it) is put in front of its keys.
#
# In the template:
#   {{key}}              the value of key; an unknown key is an error (nothing is left unfilled)
#   {{> key}}            alone on a line: the file whose path is the value of key, verbatim
#   {{if key}} / {{else}} / {{end}}
#                        alone on a line: keep the lines between them if key has a value other
#                        than "" and "0" (an unknown key counts as empty); they nest
#   {{! text}}           alone on a line: a comment, dropped
# The exit status is 1 if a key was missing or a block left open; every problem is reported on
# standard error with the template's line number.
!tmpl {
	if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/) next
	i = index($0, "\t")
	if (!i) { printf "fill: %s:%d: no tab\n", FILENAME, FNR > "/dev/stderr"; bad = 1; next }
	k = pfx substr($0, 1, i - 1)
	v = substr($0, i + 1)
	if (cite) {
		j = index(v, "\t")
		if (j) { val[k ".cite"] = substr(v, j + 1); known[k ".cite"] = 1; v = substr(v, 1, j - 1) }
	}
	gsub(/\\n/, "\n", v)
	val[k] = v
	known[k] = 1
	next
}
# the template
{
	line = $0
	if (line ~ /^\{\{![^}]*\}\}[ \t]*$/ || line ~ /^\{\{!.*\}\}[ \t]*$/) next
	if (line ~ /^\{\{if [^}]+\}\}[ \t]*$/) {
		k = line; sub(/^\{\{if /, "", k); sub(/\}\}[ \t]*$/, "", k)
		depth++
		on[depth] = (k in known) && val[k] != "" && val[k] != "0"
		seen_else[depth] = 0
		next
	}
	if (line ~ /^\{\{else\}\}[ \t]*$/) {
		if (!depth) { printf "fill: %s:%d: {{else}} without {{if}}\n", FILENAME, FNR > "/dev/stderr"; bad = 1; next }
		on[depth] = !on[depth]; seen_else[depth] = 1
		next
	}
	if (line ~ /^\{\{end\}\}[ \t]*$/) {
		if (!depth) { printf "fill: %s:%d: {{end}} without {{if}}\n", FILENAME, FNR > "/dev/stderr"; bad = 1; next }
		depth--
		next
	}
	for (d = 1; d <= depth; d++) if (!on[d]) next
	if (line ~ /^\{\{> [^}]+\}\}[ \t]*$/) {
		k = line; sub(/^\{\{> /, "", k); sub(/\}\}[ \t]*$/, "", k)
		if (!(k in known)) { printf "fill: %s:%d: unknown key %s\n", FILENAME, FNR, k > "/dev/stderr"; bad = 1; next }
		n = 0
		while ((getline l < val[k]) > 0) { print l; n++ }
		close(val[k])
		if (!n) { printf "fill: %s:%d: %s (%s) is empty or missing\n", FILENAME, FNR, k, val[k] > "/dev/stderr"; bad = 1 }
		next
	}
	out = ""
	while ((i = index(line, "{{")) > 0) {
		rest = substr(line, i + 2)
		j = index(rest, "}}")
		if (!j) break
		k = substr(rest, 1, j - 1)
		if (!(k in known)) {
			printf "fill: %s:%d: unknown key %s\n", FILENAME, FNR, k > "/dev/stderr"; bad = 1
			v = "{{" k "}}"
		} else v = val[k]
		out = out substr(line, 1, i - 1) v
		line = substr(rest, j + 2)
	}
	print out line
}
END {
	if (depth) { printf "fill: %d {{if}} block(s) left open\n", depth > "/dev/stderr"; bad = 1 }
	exit bad
}
