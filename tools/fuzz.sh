#!/bin/sh
# Run every libFuzzer harness of fuzz/ for SECONDS each (fuzz/README.md), one after the other
# (CI has two cores; the harnesses are single-threaded).
#
#   sh tools/fuzz.sh BUILD_DIR SECONDS [HARNESS...]     (make fuzz FUZZ_SECONDS=N calls it)
#
# The corpus of each harness lives in BUILD_DIR/corpus/HARNESS and grows from run to run; it
# starts from the repo's own inputs (the scenarios, CDFs and flow lists we ship, fuzz/seeds/ —
# for the frame harness a frame of each kind the switch meets — and every regression input).
# The scenario harness gets a dictionary of every key, section and enumerated value of
# docs/scenario-keys.md. A finding (crash, sanitizer report, broken
# contract, an input slower than 10 s or above 2 GB) is saved in BUILD_DIR/findings/HARNESS/
# and the script exits 1: minimise it, fix the defect and keep the input in
# fuzz/regressions/HARNESS/ with its expected answer in tests/cli/test_fuzz_regressions.c.
# Each run's counts are appended to BUILD_DIR/fuzz-stats.tsv. The harnesses run FUZZ_JOBS
# (2) at a time, each single-threaded: CI's two cores fuzz twice as long in the same minutes.
# Without HARNESS names every fuzz/fuzz_*.c harness runs.
set -e
cd "$(dirname "$0")/.."
BUILD=${1:?usage: sh tools/fuzz.sh BUILD_DIR SECONDS [HARNESS...]}
SECONDS_EACH=${2:?usage: sh tools/fuzz.sh BUILD_DIR SECONDS [HARNESS...]}
shift 2
HARNESSES=${*:-$(ls fuzz/fuzz_*.c | sed 's|^fuzz/fuzz_||; s|\.c$||' | tr '\n' ' ')}

case "$SECONDS_EACH" in
'' | *[!0-9]*) echo "tools/fuzz.sh: SECONDS must be a whole number of seconds, got '$SECONDS_EACH'" >&2; exit 2 ;;
esac

# seed FILE... into corpus directory $dir, named by content so that re-seeding adds nothing
seed() {
	for f in "$@"; do
		[ -f "$f" ] || continue
		cp "$f" "$dir/seed-$(cksum < "$f" | tr ' ' '-')"
	done
}

# The scenario dictionary: `--set KEY=`, `NAME = ` and `SECTION: {` for every key, and the
# values of every "one of a|b|c" key, quoted.
dictionary() {
	sed -n 's/^| `\([a-z0-9_.]*\)` |.*/\1/p' docs/scenario-keys.md | sort -u | while read -r key; do
		printf '"--set %s="\n' "$key"
		printf '"%s = "\n' "${key##*.}"
		rest=${key%.*}
		printf '"%s: {"\n' "${rest##*.}"
	done | sort -u
	sed -n 's/^| `[a-z0-9_.]*` | one of \([^ ]*\) | .*/\1/p' docs/scenario-keys.md | sed 's/\\|/\n/g' | sort -u |
		while read -r v; do printf '"\\"%s\\""\n' "$v"; done
	printf '"%s"\n' "};" "= (" ");" "[" "]" "true" "false" "1e300" "-1" "0.0" "1e-7" "@include" "workloads.0." "\\x0a"
}

mkdir -p "$BUILD/findings"
stats="$BUILD/fuzz-stats.tsv"
[ -f "$stats" ] || printf 'date\tcommit\tharness\tseconds\texecutions\texec_per_s\tcorpus_files\tfindings\n' > "$stats"

# FUZZ_JOBS at a time: the harnesses are dealt to that many runs of this script, whose lines
# are printed together when all have ended; any finding fails the whole.
jobs=${FUZZ_JOBS:-2}
case "$jobs" in '' | *[!0-9]* | 0) echo "tools/fuzz.sh: FUZZ_JOBS must be a positive number, got '$jobs'" >&2; exit 2 ;; esac
if [ -z "${SB_FUZZ_PART:-}" ] && [ "$jobs" -gt 1 ] && [ "$(echo $HARNESSES | wc -w)" -gt 1 ]; then
	j=0 pids=""
	while [ "$j" -lt "$jobs" ]; do
		part=$(echo $HARNESSES | tr ' ' '\n' | awk -v j="$j" -v n="$jobs" '(NR - 1) % n == j' | tr '\n' ' ')
		if [ -n "$part" ]; then
			SB_FUZZ_PART=$j sh "$0" "$BUILD" "$SECONDS_EACH" $part > "$BUILD/fuzz-part$j.out" 2>&1 &
			pids="$pids $!:$j"
		fi
		j=$((j + 1))
	done
	status=0 first=1
	for pj in $pids; do
		wait "${pj%%:*}" || status=1
		if [ "$first" = 1 ]; then head -n 1 "$BUILD/fuzz-part${pj##*:}.out"; first=0; fi
		tail -n +2 "$BUILD/fuzz-part${pj##*:}.out"
	done
	exit $status
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
status=0
printf '%-10s %8s %12s %10s %8s %s\n' harness seconds executions exec/s corpus findings
for h in $HARNESSES; do
	bin="$BUILD/fuzzers/fuzz_$h"
	[ -x "$bin" ] || { echo "tools/fuzz.sh: no harness $bin (build it with make fuzz)" >&2; exit 2; }
	dir="$BUILD/corpus/$h"
	mkdir -p "$dir" "$BUILD/findings/$h"
	seed fuzz/seeds/"$h"/* fuzz/regressions/"$h"/*
	opts=""
	case "$h" in
	scenario)
		seed scenarios/*.cfg bench/*.cfg experiments/*/*.cfg fidelity/*/*.cfg
		dictionary > "$BUILD/scenario.dict"
		opts="-dict=$BUILD/scenario.dict -max_len=4096" ;;
	cdf)
		seed data/cdf/*.cdf
		opts="-max_len=4096" ;;
	flowfile)
		opts="-max_len=4096" ;;
	sweep)
		opts="-max_len=4096" ;;
	frame)
		# above a ring slot (SB_DP_FRAME_MAX, 1536 bytes) and a jumbo frame
		opts="-max_len=9216" ;;
	esac
	log="$BUILD/fuzz-$h.log"
	before=$(ls "$BUILD/findings/$h" | wc -l)
	# -timeout: an input slower than 10 s is a hang; -rss_limit_mb: one that wants 2 GB is a
	# runaway allocation (the readers' inputs are a few KB). -detect_leaks=0 turns off
	# libFuzzer's leak scan after each input that leaked, which libconfig's lexer leak (lsan.supp)
	# triggers on every failed parse, 17 times slower; LeakSanitizer still checks the whole
	# process at exit, so a leak of ours fails the run (the log has its stack; replay the corpus
	# with -detect_leaks=1 to find the input).
	rc=0
	LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0" "$bin" $opts -max_total_time="$SECONDS_EACH" \
		-timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
		-artifact_prefix="$BUILD/findings/$h/" "$dir" > "$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	files=$(ls "$dir" | wc -l)
	found=$(($(ls "$BUILD/findings/$h" | wc -l) - before))
	[ $rc -ne 0 ] && [ "$found" -eq 0 ] && found=1 # libFuzzer failed without saving an input
	printf '%-10s %8s %12s %10s %8s %s\n' "$h" "$SECONDS_EACH" "${execs:-?}" "${rate:-?}" "$files" "$found"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" "$h" "$SECONDS_EACH" \
		"${execs:-}" "${rate:-}" "$files" "$found" >> "$stats"
	if [ "$found" -ne 0 ]; then
		echo "=== fuzz_$h found a defect (exit status $rc); the end of $log:"
		tail -n 40 "$log"
		echo "=== the input is in $BUILD/findings/$h/; replay it with $bin FILE"
		status=1
	fi
done
exit $status
