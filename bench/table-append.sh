#!/bin/sh
# Append rows to one table of a Markdown file: the table under the heading "## TITLE" gets the
# rows of ROWS_FILE after its last row; a missing section is created at the end of the file with
# HEADER (its header and separator lines). Each benchmark script owns one table of BENCHMARKS.md,
# so their rows never land in another's table, whatever order the sections are in. Runs under
# a lock on the file: two benchmarks may finish side by side.
#
#   sh bench/table-append.sh FILE TITLE HEADER ROWS_FILE
set -e
FILE=$1 TITLE=$2 HEADER=$3 ROWS=$4
exec 9>>"$FILE"
command -v flock >/dev/null 2>&1 && flock 9
[ -s "$FILE" ] || printf '# Benchmarks\n' > "$FILE"
awk -v title="## $TITLE" -v header="$HEADER" -v rows="$ROWS" '
	function emit() { while ((getline r < rows) > 0) print r; done = 1 }
	$0 == title { insec = 1 }
	insec && seen && !/^\|/ { emit(); insec = 0 }
	insec && /^\|/ { seen = 1 }
	{ print }
	END {
		if (insec && seen && !done) emit()
		else if (!done) { print ""; print title; print ""; print header; emit() }
	}
' "$FILE" > "$FILE.tmp"
mv "$FILE.tmp" "$FILE"
