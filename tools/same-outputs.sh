#!/bin/sh
# same-outputs.sh — the digest of every deterministic output a refactor must leave unchanged.
#
#   sh tools/same-outputs.sh DIR [BUILD]      write DIR/digest.txt (BUILD: build, the programs' directory)
#   sh tools/same-outputs.sh --diff A B       compare two digests; exit 1 and list what differs
#
# It runs, with BUILD's programs, every scenario of the repository (scenarios/, the experiments'
# scenarios, the fidelity suite's and the benchmarks') once per scheme that can carry its
# traffic (`sharebuf compare`), shortened to RUN_MS (3) of simulated time; every sweep spec's
# point list (`sweep --dry-run`) and one point of each spec run; `sharebuf-load plan` and `info`
# on the testbed's scenarios (experiments/occamy/); and the listings (`list`, `params`). Each output
# file's SHA-256 goes to the digest, after removing what no two runs share: wall-clock times,
# the command line and the commit of provenance, and the paths of the
# output directory and of the checkout. The run takes about three minutes on 2 CPUs.
# A refactor is shown not to move any answer when the digests of the tree before and after are
# identical (docs/architecture.md, "Refactors").
set -eu
if [ "${1:-}" = --diff ]; then
	[ $# = 3 ] || { echo "usage: sh tools/same-outputs.sh --diff A/digest.txt B/digest.txt" >&2; exit 2; }
	if diff -u "$2" "$3"; then
		echo "same-outputs: identical ($(wc -l < "$2") outputs)"
		exit 0
	fi
	echo "same-outputs: the digests differ" >&2
	exit 1
fi
[ $# -ge 1 ] || { echo "usage: sh tools/same-outputs.sh DIR [BUILD]" >&2; exit 2; }
OUT=$1
BUILD=${2:-build}
RUN_MS=${RUN_MS:-3}
SB=$BUILD/sharebuf
LOAD=$BUILD/sharebuf-load
for p in "$SB" "$LOAD"; do
	[ -x "$p" ] || { echo "same-outputs: $p is not built (make)" >&2; exit 2; }
done
[ ! -e "$OUT" ] || { echo "same-outputs: $OUT exists; give a new directory" >&2; exit 2; }
mkdir -p "$OUT/runs"
OUT=$(cd "$OUT" && pwd)
TREE=$(pwd)   # a sweep's runs name their scenario by its absolute path
SETS="--set run.duration_ms=$RUN_MS --set run.arrivals_ms=$RUN_MS"

# every scenario, every scheme it admits
for cfg in scenarios/*.cfg scenarios/profiles/*.cfg experiments/*/*.cfg fidelity/*/*.cfg bench/*.cfg; do
	name=$(echo "$cfg" | tr '/' '_')
	sets=$SETS
	# EDT's scenarios start their bursts at 150 ms
	case $cfg in experiments/edt/*) sets="--set run.duration_ms=$((150 + RUN_MS)) --set run.arrivals_ms=$((150 + RUN_MS))" ;; esac
	"$SB" compare "$cfg" $sets --jobs 2 --quiet --out="$OUT/runs/$name" \
		> "$OUT/runs/$name.stdout" 2> "$OUT/runs/$name.stderr" || echo "exit $?" >> "$OUT/runs/$name.stderr"
done
# every sweep: its point list, and its first point run
for spec in scenarios/sweeps/*.cfg experiments/*/sweeps/*.cfg; do
	name=$(echo "$spec" | tr '/' '_')
	"$SB" sweep "$spec" --dry-run --out="$OUT/runs/sw-$name" > "$OUT/runs/sw-$name.points" 2>&1 || echo "exit $?" >> "$OUT/runs/sw-$name.points"
	sets=$SETS
	case $spec in experiments/edt/*) sets="--set run.duration_ms=$((150 + RUN_MS)) --set run.arrivals_ms=$((150 + RUN_MS))" ;; esac
	"$SB" sweep "$spec" $sets --point 0 --quiet --out="$OUT/runs/sw-$name" \
		> "$OUT/runs/sw-$name.stdout" 2>&1 || echo "exit $?" >> "$OUT/runs/sw-$name.stdout"
done
# the load generator's plan of the default scenario and of the testbed's
for cfg in experiments/occamy/*.cfg; do
	name=$(echo "$cfg" | tr '/' '_')
	"$LOAD" plan "$cfg" --set run.duration_ms=20 > "$OUT/runs/plan-$name" 2>&1 || echo "exit $?" >> "$OUT/runs/plan-$name"
	"$LOAD" info "$cfg" > "$OUT/runs/info-$name" 2>&1 || echo "exit $?" >> "$OUT/runs/info-$name"
done
"$SB" list > "$OUT/runs/list.txt" 2>&1
"$SB" params > "$OUT/runs/params.md" 2>&1

# what differs between two runs of the same tree: times, the command line, the commit, the
# output directory's own path, and the sweep's per-run log of timings
(cd "$OUT/runs" && find . -type f | LC_ALL=C sort | while read -r f; do
	case $f in *.log | */meta.tsv) continue ;; esac
	sed -e '/"wall_time_s"/d' -e '/"command_line"/d' -e '/"commit"/d' -e '/"cpu_seconds"/d' \
	    -e '/"started"/d' -e '/"finished"/d' -e "s#$OUT#OUT#g" -e "s#$TREE#TREE#g" "$f" | sha256sum | sed "s#-\$#$f#"
done) > "$OUT/digest.txt"
echo "same-outputs: $(wc -l < "$OUT/digest.txt") outputs in $OUT/digest.txt"
