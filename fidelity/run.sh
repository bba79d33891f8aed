#!/bin/sh
# Fidelity suite: sharebuf against the reference runs of another tool on the same scenarios.
#
#   sh fidelity/run.sh                  every suite, seeds 1-3, with the ablations (about 3 min on 2 cores)
#   SEEDS="1" ABLATIONS=0 sh fidelity/run.sh      one seed, no ablations
#
# A suite is a folder fidelity/<name>/ holding one scenario per reference run, named exactly after
# it (<run>.cfg), and the reference tool's outputs in reference/<run>.fct and reference/<run>.pfc.
# For each run the script runs sharebuf with every seed of SEEDS, computes the same metrics from
# both tools' files with fidelity/metrics.awk, and writes
#   out/fidelity/results.csv      one row per (run, metric): reference, sharebuf per seed, mean, ratio
#   fidelity/REPORT.md            the tables (generated: never edit by hand)
# Ablations (ABLATIONS=1, default): the RDMA-only run again with one modelling choice at a time
# set back to the other option (fidelity/ablations.txt), to show what each one moves.
#
# Environment: SEEDS ("1 2 3"), JOBS (CPUs), OUT (out/fidelity), ABLATIONS (1), REPORT
# (fidelity/REPORT.md; "-" = stdout only).
set -e
cd "$(dirname "$0")/.."
SEEDS=${SEEDS:-"1 2 3"}
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
OUT=${OUT:-out/fidelity}
ABLATIONS=${ABLATIONS:-1}
REPORT=${REPORT:-fidelity/REPORT.md}
for s in $SEEDS; do
	case $s in '' | *[!0-9]*) echo "fidelity: SEEDS must be integers, got '$s'" >&2; exit 2 ;; esac
done
case $JOBS in '' | *[!0-9]* | 0) echo "fidelity: JOBS must be an integer >= 1" >&2; exit 2 ;; esac

make -s build/sharebuf >/dev/null
BIN=build/sharebuf
mkdir -p "$OUT"
start=$(date +%s)

# ---- the job list: "outdir scenario seed options..."
JOBLIST="$OUT/jobs.txt"
: > "$JOBLIST"
for cfg in fidelity/*/*.cfg; do
	suite=$(basename "$(dirname "$cfg")")
	run=$(basename "$cfg" .cfg)
	for s in $SEEDS; do
		echo "$OUT/$suite/$run/base/seed$s $cfg $s" >> "$JOBLIST"
	done
done
if [ "$ABLATIONS" = 1 ]; then
	# fidelity/ablations.txt: "suite run name | options | what it undoes"
	grep -v '^#' fidelity/ablations.txt | grep -v '^[[:space:]]*$' | while IFS='|' read -r where opts what; do
		set -- $where
		for s in $SEEDS; do
			# shellcheck disable=SC2086  # $opts: words, and no trailing blank (xargs -L joins lines on one)
			echo "$OUT/$1/$2/$3/seed$s fidelity/$1/$2.cfg $s" $opts >> "$JOBLIST"
		done
	done
fi

n=$(wc -l < "$JOBLIST")
echo "fidelity: $n runs on $JOBS CPUs (seeds: $SEEDS)" >&2
# one sharebuf run per line, JOBS at a time; a failure stops the suite with its message
# shellcheck disable=SC2016  # expanded by the inner shell
if ! xargs -P "$JOBS" -L 1 sh -c 'dir=$1 cfg=$2 seed=$3; shift 3
	'"$BIN"' run "$cfg" --seed "$seed" --quiet --out "$dir" "$@" || { echo "fidelity: failed: $cfg seed $seed $*" >&2; exit 255; }' sh \
	< "$JOBLIST"; then
	echo "fidelity: a run failed" >&2
	exit 1
fi
sim_s=$(( $(date +%s) - start ))

# ---- metrics: the reference's and ours, one "run variant seed metric value" line each
RAW="$OUT/metrics.txt"
: > "$RAW"
for cfg in fidelity/*/*.cfg; do
	suite=$(basename "$(dirname "$cfg")")
	run=$(basename "$cfg" .cfg)
	ref=fidelity/$suite/reference/$run
	awk -f fidelity/metrics.awk -v fmt=ns3 -v ci=1 "$ref.fct" "$ref.pfc" | sed "s|^|$suite/$run reference 0 |" >> "$RAW"
	for d in "$OUT/$suite/$run"/*/seed*; do
		variant=$(basename "$(dirname "$d")")
		seed=${d##*/seed}
		awk -f fidelity/metrics.awk -v fmt=sharebuf "$d/flows.csv" "$d/pfc.csv" |
			sed "s|^|$suite/$run $variant $seed |" >> "$RAW"
	done
done

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain -- src fidelity 2>/dev/null | head -n 1)
[ -n "$dirty" ] && commit="$commit (with uncommitted changes)"
awk -v seeds="$SEEDS" -v commit="$commit" -v sim_s="$sim_s" -v csv="$OUT/results.csv" \
	-f fidelity/report.awk fidelity/ablations.txt "$RAW" > "$OUT/REPORT.md"
if [ "$REPORT" != "-" ]; then
	cp "$OUT/REPORT.md" "$REPORT"
	echo "fidelity: $REPORT written ($sim_s s of simulation)" >&2
fi
cat "$OUT/REPORT.md"
