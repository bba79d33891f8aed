#!/bin/sh
# shellcheck disable=SC2016  # the backquotes in single quotes are Markdown's, not the shell's
# gen-docs.sh — the figures of the docs that a program or a committed report states, written
# between marker comments so that no one types them and none goes stale:
#
#   * the demo's table (README.md "Quick start", docs/compare.md §3): what
#     `sharebuf compare --jobs 1` prints on the default scenario, run now;
#   * every run time of a reproduction (README.md "Paper reproductions", experiments/*/README.md):
#     the wall time its committed REPORT.md records (the report's header, written by report.sh
#     from the run's meta.tsv: the commit, the command, the seconds; 2 runs at a time on the 2
#     cores of the machine BENCHMARKS.md describes), with the number of runs its sweep specs
#     make now (the scripts' DRY_RUN=1 point lists);
#   * README.md's speed figures: the latest rows of bench/results/bench.tsv (`make bench`, one
#     core) and of bench/results/memory.tsv (the paper-scale memory run), and the simulation
#     time fidelity/REPORT.md records;
#   * BENCHMARKS.md's tables of current figures: from each file of bench/results/ (the rows
#     the benchmark scripts append, bench/results-append.sh), the latest row per scenario,
#     size or mode, and how many rows the file holds; the prose around them is hand-written.
#
#   sh tools/gen-docs.sh [SHAREBUF]          rewrite the files whose generated parts differ
#   sh tools/gen-docs.sh --check [SHAREBUF]  write nothing; exit 1 naming each file that
#                                            differs, with the difference (`make test` runs it:
#                                            tests/cli/test_docs.c)
#
# `make docs` runs it (with docs/scenario-keys.md). SHAREBUF: the program (build/sharebuf).
# GEN_DOCS_FILES: the files to fill, instead of README.md, BENCHMARKS.md, docs/compare.md and
# experiments/*/README.md (the test points it at a copy). BENCH_RESULTS: the results directory
# (bench/results). GEN_DOCS_ONLY=bench: make only the figures of bench/results (no run of the
# program, which may then be absent), for filling BENCHMARKS.md alone in seconds.
#
# Markers: a line "<!-- gen:KEY -->" alone, up to a line "<!-- /gen -->", is replaced as a
# block; "<!-- gen:KEY -->text<!-- /gen -->" inside a line replaces the text. An unknown key or
# an unclosed block is an error (FILE:LINE, exit 2) and nothing is written.
set -e
cd "$(dirname "$0")/.."
CHECK=0
if [ "${1:-}" = --check ]; then CHECK=1; shift; fi
[ $# -le 1 ] || { echo "usage: sh tools/gen-docs.sh [--check] [SHAREBUF]" >&2; exit 2; }
SB=${1:-build/sharebuf}
case $SB in /*) ;; *) SB=$(pwd)/$SB ;; esac
ONLY=${GEN_DOCS_ONLY:-}
case $ONLY in '' | bench) ;; *) echo "gen-docs: GEN_DOCS_ONLY=$ONLY: only \"bench\" is known" >&2; exit 2 ;; esac
[ -n "$ONLY" ] || [ -x "$SB" ] || { echo "gen-docs: $SB: no such program (make first)" >&2; exit 2; }
export SB
R=${BENCH_RESULTS:-bench/results}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
K=$T/keys   # one file per key, its text
mkdir "$K"
put() { printf '%s\n' "$2" > "$K/$1"; }

# ---- run times. A duration in seconds, as the docs state it.
dur() { awk -v s="$1" 'BEGIN { if (s < 120) printf "%d s", s; else if (s < 7200) printf "%d s (%.0f min)", s, s / 60;
	else printf "%d s (%.1f h)", s, s / 3600 }'; }

if [ -z "$ONLY" ]; then
# ---- the demo's table: the lines of the compare up to its legend (the `wall` and `outputs`
# lines after it change with every run and every --out)
"$SB" compare --out "$T/cmp" --jobs 1 > "$T/cmp.txt" 2> "$T/cmp.err" ||
	{ cat "$T/cmp.err" >&2; echo "gen-docs: sharebuf compare failed" >&2; exit 1; }
{
	echo '```'
	awk '{ print } /^short: / { exit }' "$T/cmp.txt"
	echo '```'
} > "$K/demo-table"

# ---- run times.
# The runs a script makes now: the sum of its sweeps' "N of M runs complete" (DRY_RUN=1).
runs() { env DRY_RUN=1 "$@" 2> /dev/null | awk '/ runs complete, / { n += $3 } END { print n + 0 }'; }
# The seconds of the header rows "| what | `COMMAND` | `COMMIT` | N s |" of REPORT whose command
# is COMMAND, summed over the distinct (commit, seconds) pairs (one run listed on two rows
# counts once), then a tab and the commits.
rows() { # report command [what-pattern]
	awk -F' [|] ' -v cmd="\`$2\`" -v what="${3:-.}" '
		/^> [|]/ && $3 == cmd && $2 ~ what { s = $5; sub(/ s [|]$/, "", s); c = $4; gsub(/`/, "", c); if (!(c in cseen)) { cseen[c] = 1; cs = cs (cs == "" ? "" : ", ") c }
			if (!((c, s) in seen)) { seen[c, s] = 1; t += s } }
		END { if (cs == "") exit 1; printf "%d\t%s\n", t, cs }' "$1" ||
		{ echo "gen-docs: $1: no header row for \`$2\`" >&2; exit 1; }
}
# the sentence: "N runs, S s (M min) of wall time at COMMIT (REPORT.md)"
said() { printf '%s runs, %s of wall time at `%s`' "$1" "$(dur "$2")" "$3"; }
from_rows() { # key report command runs [what]
	r=$(rows "$2" "$3" "${5:-.}")
	put "$1" "$(said "$4" "${r%%	*}" "${r#*	}")"
	put "$1.s" "$(dur "${r%%	*}")"
}

E=experiments
from_rows abm $E/abm/REPORT.md "sh $E/abm/run.sh" "$(runs sh $E/abm/run.sh)"
# a --full run appears in the header only once it was made
if grep -q '^> [|] .* [|] `sh experiments/abm/run.sh --full` [|]' $E/abm/REPORT.md; then
	from_rows abm.full $E/abm/REPORT.md "sh $E/abm/run.sh --full" "$(runs sh $E/abm/run.sh --full)"
else
	put abm.full "not in the committed REPORT.md"
	put abm.full.s "not recorded"
fi
from_rows occamy $E/occamy/REPORT.md "sh $E/occamy/run.sh" "$(runs sh $E/occamy/run.sh)"
from_rows dsh $E/dsh/REPORT.md "sh $E/dsh/run.sh" "$(runs sh $E/dsh/run.sh)"
from_rows dsh.variants $E/dsh/REPORT.md "sh $E/dsh/run-variants.sh" "$(runs sh $E/dsh/run-variants.sh)"
for f in 11 12 13 14; do
	from_rows dsh.fig$f $E/dsh/REPORT.md "sh $E/dsh/run.sh" "$(runs env FIGS=fig$f sh $E/dsh/run.sh)" "^$f\$"
done
# EDT's header is a sentence: "by `sh experiments/edt/run.sh` at commit `C` in N s"
edt=$(sed -n 's/^> \*\*Generated\*\* by `sh experiments\/edt\/run.sh` at commit `\([0-9a-f+a-z]*\)` in \([0-9]*\) s .*/\2	\1/p' $E/edt/REPORT.md)
[ -n "$edt" ] || { echo "gen-docs: $E/edt/REPORT.md: no \"Generated by\" line" >&2; exit 1; }
put edt "$(said "$(runs sh $E/edt/run.sh)" "${edt%%	*}" "${edt#*	}")"
edtf=$(sed -n 's/^> The `--full` numbers quoted below: `sh experiments\/edt\/run.sh --full` at commit `\([0-9a-f+a-z]*\)`, \([0-9]*\) s\./\2	\1/p' $E/edt/REPORT.md)
if [ -n "$edtf" ]; then put edt.full "$(said "$(runs sh $E/edt/run.sh --full)" "${edtf%%	*}" "${edtf#*	}")"
else put edt.full "not in the committed REPORT.md"; fi
# Reverie's: "commit `C` (...): N runs, S s"; its paper-scale Fig. 7: the committed full/meta.tsv
rev=$(sed -n 's/^> commit `\([0-9a-f+a-z]*\)` .*: \([0-9]*\) runs, \([0-9]*\) s$/\3	\1/p' $E/reverie/REPORT.md)
[ -n "$rev" ] || { echo "gen-docs: $E/reverie/REPORT.md: no \"commit ...: N runs, S s\" line" >&2; exit 1; }
put reverie "$(said "$(runs sh $E/reverie/run.sh)" "${rev%%	*}" "${rev#*	}")"
rs=$(awk -F'\t' '$1 == "seconds" { print $2 }' $E/reverie/full/meta.tsv)
rc=$(awk -F'\t' '$1 == "simulator_commit" { print $2 }' $E/reverie/full/meta.tsv)
put reverie.full "$(said "$(runs env FIGS=7 sh $E/reverie/run.sh --full)" "$rs" "$rc")"

fid=$(sed -n 's/.*; \([0-9]*\) s of$/\1/p' fidelity/REPORT.md | head -n 1)
[ -n "$fid" ] || { echo "gen-docs: fidelity/REPORT.md: no \"N s of simulation\" in its header" >&2; exit 1; }
put fidelity "$(dur "$fid") of simulation, as its header records"
fi

# ---- bench/results: README's figures, the latest row of `make bench` for a scenario (one
# core) and of the paper-scale memory run
[ -d "$R" ] || { echo "gen-docs: $R: no results directory" >&2; exit 1; }
bench() { # scenario
	awk -F'\t' -v sc="$1" 'NR > 1 && $3 == sc { r = sprintf("%s s and %s MB (`%s`)", $4, $5, $2) } END { if (r == "") exit 1; print r }' "$R/bench.tsv" ||
		{ echo "gen-docs: $R/bench.tsv: no row of $1" >&2; exit 1; }
}
put bench.reference "$(bench reference.cfg)"
put bench.rdma "$(bench reverie-rdma.cfg)"
mem=$(awk -F'\t' 'NR > 1 && $3 ~ /^[0-9]+ [+] [0-9]+$/ { w = $4; m = $5; b = $2 } END { if (w == "") exit 1; printf "%d\t%s MB (`%s`)\n", w, m, b }' "$R/memory.tsv") ||
	{ echo "gen-docs: $R/memory.tsv: no row of a run \"ARRIVALS + DRAIN\"" >&2; exit 1; }
put bench.memory "$(dur "${mem%%	*}") and ${mem#*	}"

# BENCHMARKS.md's tables. table NAME COLS KEY: a Markdown table of the columns COLS (numbers,
# 1 = the first, comma-separated) of R/NAME.tsv, one row per distinct value of the columns KEY
# (the latest row of each, in the order the values first appear); KEY "last:N" is the last N
# rows, "run" the rows of the last run (the last row's date and binary, columns 1 and 2). Then
# a line saying how many rows the file holds and over which dates.
table() { # name cols key
	[ -f "$R/$1.tsv" ] || { echo "gen-docs: $R/$1.tsv: no such file" >&2; exit 1; }
	awk -F'\t' -v cols="$2" -v key="$3" -v file="bench/results/$1.tsv" '
		function row(r,   i, t, f) { split(r, f, "\t"); t = "|"; for (i = 1; i <= nc; i++) t = t " " f[c[i]] " |"; return t }
		NR == 1 { nc = split(cols, c, ","); print row($0); t = "|"; for (i = 1; i <= nc; i++) t = t "---|"; print t
			if (key ~ /^last:/) keep = substr(key, 6) + 0; else nk = split(key, k, ","); next }
		{ n++; rows[n] = $0; if (first == "") first = $1; last = $1; run = $1 "\t" $2 }
		key !~ /^(last:|run$)/ { id = ""; for (i = 1; i <= nk; i++) id = id "\t" $(k[i]); if (!(id in at)) order[++ids] = id; at[id] = n }
		END {
			if (n == 0) { printf "gen-docs: %s: no rows\n", file > "/dev/stderr"; exit 1 }
			if (key ~ /^last:/) { for (i = (n > keep ? n - keep + 1 : 1); i <= n; i++) print row(rows[i]) }
			else if (key == "run") { for (i = 1; i <= n; i++) { split(rows[i], f, "\t"); if (f[1] "\t" f[2] == run) print row(rows[i]) } }
			else for (i = 1; i <= ids; i++) print row(rows[at[order[i]]])
			printf "\n%d rows in `%s`, %s to %s.\n", n, file, first, last
		}' "$R/$1.tsv" > "$K/results.$1" || exit 1
}
table bench 1,2,3,4,5,7,9,10,13,14,15,16 3
table scaling 1,2,3,4,5,8,9,12,13 3,5
table memory 1,2,3,4,5,7,9 3
table flowlist 1,2,3,4,5,6,9 3
table misses 1,2,3,4,7,8,9 3
table hotspots 1,2,3,5,6 run
table pairs 1,2,3,4,8,9,10 last:4
table dataplane 1,2,3,4,6,7,11 4
table mem-latency 1,2,3,4,5,6,7,8 last:2

# ---- fill the files
FILES=${GEN_DOCS_FILES:-"README.md BENCHMARKS.md docs/compare.md $(for f in experiments/*/README.md; do printf '%s ' "$f"; done)"}
stale=0
for f in $FILES; do
	awk -v keys="$K" '
		function text(k,   t, l, f) {
			f = keys "/" k
			if ((getline l < f) <= 0) { printf "%s:%d: unknown generated key \"%s\" (tools/gen-docs.sh)\n", FILENAME, FNR, k > "/dev/stderr"; bad = 1; return "" }
			t = l
			while ((getline l < f) > 0) t = t "\n" l
			close(f)
			return t
		}
		block != "" { if ($0 == "<!-- /gen -->") { print text(block); print; block = "" } ; next }
		/^<!-- gen:[a-z0-9.-]+ -->$/ { print; block = substr($0, 10, length($0) - 13); start = FNR; next }
		{
			out = ""; line = $0
			while (match(line, /<!-- gen:[a-z0-9.-]+ -->/)) {
				k = substr(line, RSTART + 9, RLENGTH - 13)
				out = out substr(line, 1, RSTART + RLENGTH - 1); line = substr(line, RSTART + RLENGTH)
				e = index(line, "<!-- /gen -->")
				if (!e) { printf "%s:%d: <!-- gen:%s --> without <!-- /gen --> on its line\n", FILENAME, FNR, k > "/dev/stderr"; bad = 1; break }
				out = out text(k); line = substr(line, e)
				out = out "<!-- /gen -->"; line = substr(line, 14)
			}
			print out line
		}
		END {
			if (block != "") { printf "%s:%d: <!-- gen:%s --> without a closing <!-- /gen --> line\n", FILENAME, start, block > "/dev/stderr"; bad = 1 }
			exit bad ? 2 : 0
		}' "$f" > "$T/new" || exit 2
	cmp -s "$f" "$T/new" && continue
	if [ $CHECK = 1 ]; then
		echo "gen-docs: $f is out of date (run \`make docs\`); what it would say:" >&2
		diff -u "$f" "$T/new" | head -n 40 >&2 || true
		stale=1
	else
		# beside the file, created anew (mktemp: O_EXCL), then renamed over it
		tmp=$(mktemp "$f.XXXXXX")
		cat "$T/new" > "$tmp"
		chmod 644 "$tmp"
		mv "$tmp" "$f"
		echo "gen-docs: $f rewritten" >&2
	fi
done
exit $stale
