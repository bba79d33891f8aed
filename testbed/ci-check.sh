#!/bin/sh
# testbed/ci-check.sh — the short testbed check of CI (.ci/run, as root; under 60 s):
#   1. DT steady state with n = 2 overloaded ports (testbed/dt-steady.cfg, 2 s): the per-queue
#      occupancy within 5 % of αB/(1 + 2α) (testbed/metrics.sh), validate.sh's criterion; with
#      iperf3 paced by a 100 us timer (testbed/run.sh) the level repeats within a few hundred
#      bytes between runs, and a wrong threshold formula (α doubled, n off by one) moves it by
#      20 % or more;
#   2. one incast (testbed/incast.cfg, fan-in 4, DT, 1 s of queries): every query completes,
#      every flow of the plan is in flows.csv, and the switch's counters are conserved
#      (received = forwarded + dropped + control + queued);
#   3. the same incast through `--switch bridge` (the kernel's bridge, the baseline option of
#      testbed/run.sh): every query completes.
# Exits non-zero, saying which check failed, when one does (docs/testbed.md §Validation).
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
. testbed/metrics.sh
OUT=${OUT:-out/testbed-ci}
rm -rf "$OUT"
fail() {
	echo "testbed/ci-check.sh: FAILED: $*" >&2
	exit 1
}

sets="--set run.duration_ms=2000 --set workloads.1.type=cbr --set workloads.1.srcs=[2,3] --set workloads.1.dst=9"
sets="$sets --set workloads.1.rate_gbps=0.1 --set workloads.1.packet_bytes=1500 --set workloads.1.transport=cbr"
# shellcheck disable=SC2086  # a list of --set arguments
sh testbed/run.sh testbed/dt-steady.cfg --schemes dt --out "$OUT/steady" $sets || fail "the DT steady-state run"
want=$(dt_fixed_point 200000 1 2)
got=$(steady_queue "$OUT/steady/dt" 2)
ok=$(awk -v g="$got" -v w="$want" 'BEGIN { d = (g - w) / w; print (d <= 0.05 && d >= -0.05) ? "yes" : "no" }')
echo "DT steady state, n = 2: per-queue occupancy $got B, αB/(1+nα) = $want B"
[ "$ok" = yes ] || fail "DT steady state: $got B is not within 5 % of $want B"

sh testbed/run.sh testbed/incast.cfg --schemes dt --out "$OUT/incast" --set workloads.0.fanin=4 \
	--set run.duration_ms=1500 --set run.arrivals_ms=1000 || fail "the incast run"
s=$OUT/incast/dt/summary.json
started=$(sed -n 's/^  "queries_started": \([0-9]*\),$/\1/p' "$s")
completed=$(sed -n 's/^  "queries_completed": \([0-9]*\),$/\1/p' "$s")
planned=$(build/sharebuf-load plan testbed/incast.cfg --set workloads.0.fanin=4 --set run.duration_ms=1500 \
	--set run.arrivals_ms=1000 | wc -l)
rows=$(($(wc -l <"$OUT/incast/dt/flows.csv") - 1))
echo "incast, fan-in 4: $completed of $started queries, $rows of $planned flows; QCT p50 $(qct_ms "$OUT/incast/dt" 50) ms, p99 $(qct_ms "$OUT/incast/dt" 99) ms"
[ -n "$started" ] && [ "$started" -gt 0 ] && [ "$completed" = "$started" ] || fail "incast: $completed of $started queries completed"
[ "$rows" = "$planned" ] || fail "incast: $rows flows measured, $planned planned"
grep -q '"ok": true' "$OUT/incast/dt/switch.json" || fail "incast: the switch's counters are not conserved (switch.json)"

sh testbed/run.sh testbed/incast.cfg --switch bridge --out "$OUT/bridge" --set workloads.0.fanin=4 \
	--set run.duration_ms=1500 --set run.arrivals_ms=1000 || fail "the incast run through the bridge"
b=$OUT/bridge/bridge/summary.json
bstarted=$(sed -n 's/^  "queries_started": \([0-9]*\),$/\1/p' "$b")
bcompleted=$(sed -n 's/^  "queries_completed": \([0-9]*\),$/\1/p' "$b")
echo "incast through the bridge: $bcompleted of $bstarted queries"
[ "$bstarted" = "$started" ] && [ "$bcompleted" = "$bstarted" ] || fail "bridge: $bcompleted of $bstarted queries completed"
echo "testbed/ci-check.sh: passed"
