#!/bin/sh
# Run every test program in BUILD/tests, from the repository root (tests read data/ and
# scenarios/), and print one closing line "tests: N passed, N failed" (cmocka counts).
BUILD=${1:-build}
passed=0; failed=0; broken=""
for t in "$BUILD"/tests/test_*; do
	case "$t" in *.o|*.d) continue ;; esac
	[ -x "$t" ] || continue
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
	if [ $rc -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); broken="$broken $t"; fi
done
[ -n "$broken" ] && echo "crashed or failed without a cmocka summary:$broken"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
