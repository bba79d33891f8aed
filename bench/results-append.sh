#!/bin/sh
# Append rows to one file of benchmark results: bench/results/NAME.tsv, tab-separated, its
# first line the column names. The benchmark scripts record here and nowhere else, so that a
# run edits no document: BENCHMARKS.md states the current figures, generated from these files
# by tools/gen-docs.sh (`make docs`), and keeps what was learned from them.
#
#   sh bench/results-append.sh NAME HEADER ROWS_FILE
#
# HEADER: the column names, tab-separated (every script puts the date, the commit or label of
# the binary measured, and the machine's CPU in its rows). A missing file is created with it;
# an existing file must start with exactly it, and every row must have as many fields, or
# nothing is written (exit 2): a file never mixes two layouts, and a generator reading it by
# column cannot be misled. Runs under a lock on the file: two benchmarks may finish side by
# side. BENCH_RESULTS: another directory than bench/results (the tests use a copy).
set -e
[ $# -eq 3 ] || { echo "usage: sh bench/results-append.sh NAME HEADER ROWS_FILE" >&2; exit 2; }
NAME=$1 HEADER=$2 ROWS=$3
case $NAME in *[!a-z0-9-]* | '') echo "results-append: bad name '$NAME' (a-z, 0-9, -)" >&2; exit 2 ;; esac
DIR=${BENCH_RESULTS:-$(dirname "$0")/results}
FILE=$DIR/$NAME.tsv
mkdir -p "$DIR"
exec 9>>"$FILE"
command -v flock >/dev/null 2>&1 && flock 9
if [ -s "$FILE" ]; then
	first=$(head -n 1 "$FILE")
	[ "$first" = "$HEADER" ] || {
		printf 'results-append: %s has the columns\n  %s\nnot\n  %s\n' "$FILE" "$first" "$HEADER" >&2
		exit 2
	}
fi
awk -F'\t' -v header="$HEADER" -v file="$FILE" '
	BEGIN { n = split(header, h, "\t") }
	NF != n { printf "results-append: %s: row %d has %d fields, the header %d: nothing written\n", file, NR, NF, n > "/dev/stderr"; bad = 1 }
	END { exit bad ? 2 : 0 }' "$ROWS"
[ -s "$FILE" ] || printf '%s\n' "$HEADER" > "$FILE"
cat "$ROWS" >> "$FILE"
echo "appended $(wc -l < "$ROWS" | tr -d ' ') row(s) to $FILE"
