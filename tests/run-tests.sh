#!/bin/sh
# Run every test program in BUILD/tests/LAYER/ (one directory per layer, docs/testing.md "Where
# a test goes"), from the repository root (tests read data/ and scenarios/), each with its
# output in BUILD/test-logs/LAYER/NAME.log, and end with one line
# "tests: N passed, N failed" (cmocka's counts). A program that fails has its whole output
# printed, so that the failure (and a sanitizer's report) is in the terminal or the CI log;
# the others print nothing. Progress (programs done of the total) is shown as it goes: on a
# terminal in place, elsewhere (CI's log) a line every 10 programs. VERBOSE=1 prints every
# program's output, as the tests run; FAILFAST=1 stops after the first failing program (the
# mutation check: one failure is all it needs to know).
#
#   sh tests/run-tests.sh [BUILD [KIND]]   KIND: tests (make test: every layer's directory of
#                                          BUILD/tests/ but realtime) or tests/realtime (make
#                                          test-realtime)
BUILD=${1:-build}
KIND=${2:-tests}
logs="$BUILD/test-logs"
[ "$KIND" = tests ] || logs="$BUILD/test-logs/$(basename "$KIND")"
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*/*.log
tty=0
[ -t 1 ] && [ "${VERBOSE:-0}" = 0 ] && tty=1
passed=0; failed=0; programs=0; broken=""
all=""
# The programs are those of the sources, not whatever BUILD holds: a test moved to another
# layer's directory leaves its old binary behind, which must not run (twice, or stale).
# SOURCES (the checkout, default .) is where tests/LAYER/test_x.c are read.
SOURCES=${SOURCES:-.}
if [ "$KIND" = tests ]; then
	sources_glob="$SOURCES/tests/*/test_*.c"
else
	sources_glob="$SOURCES/$KIND/test_*.c"
fi
for s in $sources_glob; do
	rel=${s#"$SOURCES"/}
	case "$rel" in tests/realtime/*) [ "$KIND" = tests ] && continue ;; esac
	[ -f "$s" ] && all="$all $BUILD/${rel%.c}"
done
total=$(echo $all | wc -w | tr -d ' ')
for t in $all; do
	if [ "$KIND" = tests ]; then
		name=$(basename "$(dirname "$t")")/$(basename "$t") # core/test_core
		mkdir -p "$logs/$(dirname "$name")"
	else
		name=$(basename "$t")
	fi
	log="$logs/$name.log"
	[ "$tty" = 1 ] && printf '\r  [%d/%d] %-38s' "$((programs + 1))" "$total" "$name"
	if [ -x "$t" ]; then
		"$t" > "$log" 2>&1; rc=$?
	else
		echo "$t: not built (make build-tests)" > "$log"; rc=127
	fi
	programs=$((programs + 1))
	[ "$tty" = 0 ] && [ "${VERBOSE:-0}" = 0 ] && [ $((programs % 10)) = 0 ] && [ "$programs" -lt "$total" ] &&
		echo "  $programs of $total test programs done"
	[ "${VERBOSE:-0}" != 0 ] && cat "$log"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	[ $rc -eq 0 ] && f="" # cmocka reports failures only with a failing status; the text may quote others
	passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
	if [ $rc -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); broken="$broken $name"; fi
	if [ $rc -ne 0 ]; then
		[ "$tty" = 1 ] && printf '\r%42s\r' ""
		if [ "${VERBOSE:-0}" = 0 ]; then
			echo "=== $name failed (exit status $rc); its output ($log):"
			cat "$log"
		fi
		echo "=== end of $name"
		[ "${FAILFAST:-0}" != 0 ] && break
	fi
done
[ "$tty" = 1 ] && printf '\r%42s\r' ""
[ -n "$broken" ] && echo "crashed or failed without a cmocka summary:$broken"
echo "$programs of $total test programs run; every program's output is in $logs/"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
