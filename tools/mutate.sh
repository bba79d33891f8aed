#!/bin/sh
# mutate.sh — mutation check of the models: does the test suite notice a wrong formula?
#
# Every entry of tools/mutations.txt is one single-line change of a scheme's, congestion
# control's or PFC formula (docs/testing.md). Each is applied alone to a private copy of the
# repository, rebuilt incrementally and tested: it is "killed" when a test fails, "SURVIVED"
# when every test still passes — a gap in the tests. The developer's working tree is never
# touched: the copy holds the tracked and untracked-but-not-ignored files as they are now
# (uncommitted edits included), in a temporary directory removed at the end.
#
# usage: sh tools/mutate.sh [--list] [--only PATTERN] [--ci] [-j N] [--full] [--keep] [--file F]
#   --list          validate the entries and list them; build and test nothing
#   --only PATTERN  only the entries whose line matches PATTERN (grep -E; path, text or meaning)
#   --ci            CI's share (docs/testing.md §2): the entries whose file a commit of the last
#                   12 hours before HEAD's commit changed (the submission's own work), and a third
#                   of the others, chosen by HEAD's commit count mod 3 (entry k runs when
#                   k mod 3 equals it); every entry still runs in the full check
#   -j N            N mutations at a time, each in its own copy (default 1; the builds of a single
#                   worker use make -j2)
#   --full          run the whole suite (tests/run-tests.sh) for every mutation, ignoring the
#                   entries' test lists
#   --keep          keep the temporary copies (their path is printed)
#   --file F        another mutations file (default tools/mutations.txt)
#
# Entry format (one per line; '#' lines and blank lines are ignored), fields separated by " @@ ":
#   path @@ original text @@ replacement text @@ what the mutation means [@@ test programs]
# The original text must occur exactly once in the file. The optional fifth field names the test
# programs, as LAYER/test_x under tests/ (e.g. "sim/test_dt sim/test_dt_theory",
# "realtime/test_veth"), that must catch the mutation; without it the whole
# suite runs. Outcomes:
#   killed            a test failed (or crashed: an invariant check aborting counts)
#   killed (compiler) the mutant does not build — counted apart: a mutation should be meaningful
#   killed (hang)     the tests ran longer than 5× their unmutated time (at least 20 s)
#   SURVIVED          every test passed
# Exit status: 0 when nothing survived, 1 when something did, 2 on a usage, entry or setup error.
set -u

die() { echo "mutate.sh: $*" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd) || die "cannot find the repository"
file="$root/tools/mutations.txt"
list=0 only="" ci=0 jobs=1 full=0 keep=0
while [ $# -gt 0 ]; do
	case "$1" in
	--list) list=1 ;;
	--only) [ $# -ge 2 ] || die "--only needs a pattern"; only=$2; shift ;;
	-j) [ $# -ge 2 ] || die "-j needs a number"; jobs=$2; shift ;;
	-j[0-9]*) jobs=${1#-j} ;;
	--ci) ci=1 ;;
	--full) full=1 ;;
	--keep) keep=1 ;;
	--file) [ $# -ge 2 ] || die "--file needs a path"; file=$2; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
case "$jobs" in ''|*[!0-9]*|0) die "-j wants a positive number, got '$jobs'" ;; esac
[ -f "$file" ] || die "no mutations file $file"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sharebuf-mutate.XXXXXX") || die "mktemp failed"
cleanup() { if [ "$keep" = 1 ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi; }
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# --- parse: one directory entry per mutation (fields in files, so any character is safe) ---
mkdir "$tmp/e"
fname=$(basename "$file")
malformed=0
ONLY=$only FNAME=$fname LC_ALL=C awk -v dir="$tmp/e" '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
	/^[ \t]*#/ || /^[ \t\r]*$/ { next }
	{
		if (ENVIRON["ONLY"] != "" && $0 !~ ENVIRON["ONLY"]) next
		n = split($0, f, / @@ /)
		if (n < 4 || n > 5) {
			printf "%s line %d: expected \"path @@ original @@ replacement @@ meaning [@@ tests]\", found %d field(s)\n", ENVIRON["FNAME"], NR, n > "/dev/stderr"
			bad = 1; next
		}
		k++
		id = sprintf("%s/%03d", dir, k)
		printf "%d\n", NR > (id ".line"); close(id ".line")
		printf "%s", trim(f[1]) > (id ".path"); close(id ".path")
		printf "%s", f[2] > (id ".orig"); close(id ".orig")
		printf "%s", f[3] > (id ".repl"); close(id ".repl")
		printf "%s", trim(f[4]) > (id ".what"); close(id ".what")
		printf "%s", (n == 5 ? trim(f[5]) : "") > (id ".tests"); close(id ".tests")
	}
	END { exit bad }' "$file" || malformed=1

entries=$(ls "$tmp/e" | sed -n 's/\.line$//p')
[ -n "$entries" ] || [ "$malformed" = 1 ] || die "no entries${only:+ matching '$only'} in $file"

# Occurrences of the text in file $2 whose contents are in file $1 (literal, not a regex).
count_in() {
	O=$(cat "$1") LC_ALL=C awk 'BEGIN { o = ENVIRON["O"] }
		{ s = $0; while ((i = index(s, o)) > 0) { n++; s = substr(s, i + length(o)) } }
		END { print n + 0 }' "$2"
}

# --- validate every entry before anything is built ---
bad=$malformed
for e in $entries; do
	b="$tmp/e/$e" line=$(cat "$tmp/e/$e.line") path=$(cat "$tmp/e/$e.path")
	if [ ! -f "$root/$path" ]; then
		echo "$fname line $line: no file $path" >&2; bad=1; continue
	fi
	if [ ! -s "$b.orig" ]; then
		echo "$fname line $line: empty original text" >&2; bad=1; continue
	fi
	if cmp -s "$b.orig" "$b.repl"; then
		echo "$fname line $line: the replacement equals the original text" >&2; bad=1; continue
	fi
	n=$(count_in "$b.orig" "$root/$path")
	if [ "$n" != 1 ]; then
		echo "$fname line $line: the original text occurs $n times in $path, it must occur exactly once: $(cat "$b.orig")" >&2
		bad=1
	fi
	for t in $(cat "$b.tests"); do
		[ -f "$root/tests/$t.c" ] || { echo "$fname line $line: no test program tests/$t.c" >&2; bad=1; }
	done
done
[ "$bad" = 0 ] || die "fix the entries above in $file"

# --- CI's share: what the submission touched, and a rotating third of the rest ---
if [ "$ci" = 1 ]; then
	head_date=$(cd "$root" && git log -1 --format=%ct HEAD) || die "--ci needs a git checkout"
	touched=$(cd "$root" && git log --since="@$((head_date - 12 * 3600))" --format= --name-only HEAD | sort -u)
	slot=$(( $(cd "$root" && git rev-list --count HEAD) % 3 ))
	picked="" n_touched=0 n_rot=0 k=0
	for e in $entries; do
		path=$(cat "$tmp/e/$e.path")
		if printf '%s\n' "$touched" | grep -qxF "$path"; then
			picked="$picked $e" n_touched=$((n_touched + 1))
		elif [ $((k % 3)) = "$slot" ]; then
			picked="$picked $e" n_rot=$((n_rot + 1))
		fi
		k=$((k + 1))
	done
	echo "mutate.sh --ci: $n_touched entries in files changed within 12 h of HEAD, $n_rot of the" \
		"others in rotation slot $slot of 3; $(echo "$entries" | wc -l | tr -d ' ') entries in all"
	entries=$(printf '%s\n' $picked)
	[ -n "$picked" ] || { echo "mutate.sh --ci: nothing to run"; exit 0; }
fi
total=$(echo "$entries" | wc -l | tr -d ' ')

if [ "$list" = 1 ]; then
	for e in $entries; do
		b="$tmp/e/$e"
		printf 'line %-4s %-34s %s\n' "$(cat "$b.line")" "$(cat "$b.path")" "$(cat "$b.what")"
		printf '          - %s\n          + %s\n' "$(cat "$b.orig")" "$(cat "$b.repl")"
		[ -s "$b.tests" ] && printf '          tests: %s\n' "$(cat "$b.tests")"
	done
	echo "$total mutation(s), all valid"
	exit 0
fi

# --- clock with sub-second resolution where date offers it ---
if [ "$(date +%N)" != "%N" ] && [ "$(date +%N)" != "N" ]; then
	now() { date +%s.%N; }
else
	now() { date +%s; }
fi
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", b - a }'; }

# --- the copies: one per worker, built once unmutated ---
mkflags="LTO= OPT=-O2"   # no LTO and no -g: same semantics, quicker relinks
mkjobs=2
[ "$jobs" -gt 1 ] && mkjobs=1
files="$tmp/files"
(cd "$root" && git ls-files --cached --others --exclude-standard) > "$files.all" ||
	die "$root is not a git checkout (git ls-files failed)"
while IFS= read -r f; do [ -f "$root/$f" ] && printf '%s\n' "$f"; done < "$files.all" > "$files"

t_start=$(now)
echo "mutate.sh: $total mutation(s) from $(basename "$file"); copying and building $jobs copy(ies) in $tmp"
w=1
while [ "$w" -le "$jobs" ]; do
	mkdir "$tmp/w$w"
	(cd "$root" && tar -cf - -T "$files") | (cd "$tmp/w$w" && tar -xf -) || die "copying the tree failed"
	w=$((w + 1))
done

test_targets() { ls "$1"/tests/*/test_*.c | grep -v '/tests/realtime/' | sed 's|.*/tests/\(.*\)\.c$|build/tests/\1|'; }
# $1 = copy, $2 = the test programs to build (empty: every one); the programs (tests run them)
# always. Relinking only the named tests is most of a mutant's time saved: every test program
# links the whole library.
build() {
	if [ -n "${2:-}" ]; then targets=$(for t in $2; do printf 'build/tests/%s ' "$t"; done)
	else targets=$(test_targets "$1"); fi
	(cd "$1" && make -s -j"$mkjobs" $mkflags build/sharebuf build/sharebuf-load build/sharebuf-switch build/dp-udp $targets) > "$1/.build.log" 2>&1
}
# the first build has the machine to itself: both cores, whatever -j says for the mutants
mkjobs_all=$mkjobs
mkjobs=2
build "$tmp/w1" || { cat "$tmp/w1/.build.log" >&2; die "the unmutated tree does not build"; }
mkjobs=$mkjobs_all

# Baseline: every test program the entries run, alone, its time (for the hang limit) and that
# it passes (every program when an entry runs the whole suite, or with --full).
mkdir "$tmp/base"
needed=$(for e in $entries; do if [ -s "$tmp/e/$e.tests" ] && [ "$full" = 0 ]; then cat "$tmp/e/$e.tests"; echo; else echo ALL; fi; done |
	tr ' ' '\n' | sed '/^$/d' | sort -u)
printf '%s\n' "$needed" | grep -qx ALL && needed=$(ls "$tmp"/w1/build/tests/*/test_* | grep -v '/tests/realtime/' |
	sed -n 's|.*/tests/||; /\./!p')
for name in $needed; do # LAYER/test_x, or realtime/test_x (tests/realtime/)
	t="$tmp/w1/build/tests/$name"
	if [ ! -x "$t" ]; then
		(cd "$tmp/w1" && make -s $mkflags "build/tests/$name") > "$tmp/w1/.build.log" 2>&1 ||
			{ cat "$tmp/w1/.build.log" >&2; die "cannot build $name"; }
	fi
	mkdir -p "$(dirname "$tmp/base/$name")"
	s=$(now)
	(cd "$tmp/w1" && "build/tests/$name") > "$tmp/base/$name.log" 2>&1 ||
		{ tail -n 20 "$tmp/base/$name.log" >&2; die "the unmutated $name fails: fix the suite first"; }
	elapsed "$s" "$(now)" > "$tmp/base/$name.t"
done
w=2
while [ "$w" -le "$jobs" ]; do
	cp -Rp "$tmp/w1/build" "$tmp/w$w/" && build "$tmp/w$w" || die "building copy $w failed"
	w=$((w + 1))
done
base_all=$(cat "$tmp"/base/*.t | awk '{ s += $1 } END { printf "%.1f", s }')
echo "mutate.sh: unmutated suite passes (${base_all} s of tests), built in $(elapsed "$t_start" "$(now)") s"

# --- one mutation in copy $1: apply, rebuild, test, restore ---
run_one() { # $1 = copy, $2 = entry
	c=$1 b="$tmp/e/$2"
	path=$(cat "$b.path") line=$(cat "$b.line") what=$(cat "$b.what") tests=$(cat "$b.tests")
	[ "$full" = 1 ] && tests=""
	s=$(now)
	cp "$c/$path" "$c/.orig"
	O=$(cat "$b.orig") R=$(cat "$b.repl") LC_ALL=C awk 'BEGIN { o = ENVIRON["O"]; r = ENVIRON["R"] }
		{ if (!done && (i = index($0, o)) > 0) { $0 = substr($0, 1, i - 1) r substr($0, i + length(o)); done = 1 } print }' \
		"$c/.orig" > "$c/$path"
	if cmp -s "$c/.orig" "$c/$path"; then
		outcome="error"
	elif ! build "$c" "$tests"; then
		outcome="compiler"
	else
		if [ -n "$tests" ]; then
			limit=$(for t in $tests; do cat "$tmp/base/$t.t"; done | awk '{ s += $1 } END { s *= 5; printf "%d", s < 20 ? 20 : s + 1 }')
			(cd "$c" && for t in $tests; do timeout -k 5 "$limit" "build/tests/$t" || exit $?; done) > "$c/.test.log" 2>&1
		else
			limit=$(awk -v s="$base_all" 'BEGIN { s *= 5; printf "%d", s < 20 ? 20 : s + 1 }')
			(cd "$c" && FAILFAST=1 timeout -k 5 "$limit" sh tests/run-tests.sh build) > "$c/.test.log" 2>&1
		fi
		rc=$?
		if [ "$rc" = 0 ]; then outcome="SURVIVED"
		elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then outcome="hang"
		else outcome="killed"; fi
	fi
	# restore with a fresh time stamp, so the next build recompiles the original
	cp "$c/.orig" "$c/$path" && touch "$c/$path"
	secs=$(elapsed "$s" "$(now)")
	by=""
	if [ "$outcome" = killed ]; then # the failing tests (cmocka's summary lines), or a crash
		by=$(sed -n 's/^\[  FAILED  \] \(test_[A-Za-z0-9_]*\).*/\1/p' "$c/.test.log" | sort -u | head -n 3 | tr '\n' ' ')
		by=" (by ${by:-a crash or an abort}"
		by="${by% })"
	fi
	case "$outcome" in
	killed) label="killed" ;;
	compiler) label="killed (compiler)" ;;
	hang) label="killed (hang)" ;;
	*) label=$outcome ;;
	esac
	printf '%-17s %6s s  line %-4s %s: %s%s\n' "$label" "$secs" "$line" "$path" "$what" "$by"
	printf '%s\t%s\t%s\t%s\t%s\n' "$outcome" "$line" "$path" "$what" "$secs" >> "$c/.results"
	if [ "$outcome" = SURVIVED ] && [ -n "$tests" ]; then
		printf '                            (tests run: %s)\n' "$tests"
	fi
}

worker() { # $1 = worker number: takes every jobs-th entry
	k=0
	for e in $entries; do
		k=$((k + 1))
		[ $(((k - 1) % jobs + 1)) = "$1" ] && run_one "$tmp/w$1" "$e"
	done
	return 0
}

w=1
while [ "$w" -le "$jobs" ]; do
	: > "$tmp/w$w/.results"
	worker "$w" &
	w=$((w + 1))
done
wait

# --- summary ---
cat "$tmp"/w*/.results | sort -t "$(printf '\t')" -k2,2n > "$tmp/results"
count() { awk -F '\t' -v o="$1" '$1 == o { n++ } END { print n + 0 }' "$tmp/results"; }
killed=$(count killed) comp=$(count compiler) hang=$(count hang) surv=$(count SURVIVED) err=$(count error)
echo
echo "mutate.sh: $total mutation(s) in $(elapsed "$t_start" "$(now)") s: $killed killed by a test," \
	"$comp by the compiler, $hang by a hang, $surv survived"
[ "$err" -gt 0 ] && echo "mutate.sh: $err mutation(s) could not be applied (see above)"
if [ "$comp" -gt 0 ]; then
	echo "did not compile (make them meaningful mutations):"
	awk -F '\t' '$1 == "compiler" { printf "  line %s %s: %s\n", $2, $3, $4 }' "$tmp/results"
fi
if [ "$surv" -gt 0 ]; then
	echo "SURVIVORS (the tests let these wrong models pass):"
	awk -F '\t' '$1 == "SURVIVED" { printf "  line %s %s: %s\n", $2, $3, $4 }' "$tmp/results"
	exit 1
fi
[ "$err" -gt 0 ] && exit 2
exit 0
