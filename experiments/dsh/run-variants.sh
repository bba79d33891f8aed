#!/bin/sh
# DSH (Shan et al., ICDCS'23): the sensitivity runs that REPORT.md discusses beside the main
# figures ("What else was checked"). Optional: the main scripts do not need them, and
# report.sh leaves their rows out when they are missing.
#
#   sh experiments/dsh/run-variants.sh     # about 10 min on 2 idle cores
#
# Run it after run-fig12.sh (the 300 ms reruns take the seeds that did not deadlock there).
#   Fig. 11  the knee with the burst at 0.3 ms instead of 0.5 ms  -> out/experiments/dsh/fig11-start0.3/
#   Fig. 12  run-fig12.sh with other settings                     -> out/experiments/dsh/fig12-NAME/
#            seeds101  DCQCN, seeds 101..200
#            long      DCQCN and PowerTCP, seeds 1..20, 300 ms instead of 100
#            rdma      no congestion control, seeds 1..20
#            ports0    DCQCN, seeds 1..20, reserves only for the cabled ports
#            hdrm60k   DCQCN, seeds 1..20, the harness's 60,000 B headroom on every port
#            ecnflat   DCQCN, seeds 1..20, one ECN threshold for every port rate
#            cap300    the main run's DCQCN SIH seeds without deadlock, again for 300 ms
#   Fig. 14  run-fig14.sh with CLASSES=harness                     -> out/experiments/dsh-fig14-harness/
#            and with the NICs serving background first (host.sched=sp, loads 0.2 and 0.4)
#                                                                  -> out/experiments/dsh-fig14-sp/
# Environment: JOBS (2), ONLY="fig12 fig14" (a subset of fig11 fig12 fig14). Then report.sh.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
D=out/experiments/dsh
JOBS=${JOBS:-2}
ONLY=${ONLY:-"fig11 fig12 fig14"}
export JOBS
T0=$(date +%s)
make -s

case " $ONLY " in *" fig11 "*)
	echo "variants: Fig. 11 with the burst at 0.3 ms" >&2
	OUT=$D/fig11-start0.3 START_MS=0.3 NOREPORT=1 sh $EXP/run.sh > /dev/null
esac

case " $ONLY " in *" fig12 "*)
	[ -s $D/fig12/fig12.csv ] || { echo "variants: run run-fig12.sh first" >&2; exit 1; }
	f12() { # name, then environment assignments
		n=$1; shift
		echo "variants: Fig. 12 $n ($*)" >&2
		env "$@" OUT="$D/fig12-$n" NOREPORT=1 sh $EXP/run-fig12.sh > /dev/null
	}
	f12 seeds101 SEED0=101 CCS=dcqcn
	f12 long DURATION_MS=300 RUNS=20 CCS="dcqcn powertcp"
	f12 rdma RUNS=20 CCS=rdma
	f12 ports0 RUNS=20 CCS=dcqcn EXTRA="--set switch.sih.ports=0 --set switch.dsh.ports=0"
	f12 hdrm60k RUNS=20 CCS=dcqcn EXTRA="--set switch.sih.headroom=bytes --set switch.sih.headroom_bytes=60000 --set switch.sih.port_gbps=0 --set switch.dsh.headroom=bytes --set switch.dsh.headroom_bytes=60000 --set switch.dsh.port_gbps=0"
	f12 ecnflat RUNS=20 CCS=dcqcn EXTRA="--set switch.ecn_ref_gbps=0"
	# the main run's DCQCN SIH runs that reached the 100 ms cap, for 300 ms
	C=$D/fig12-cap300
	rm -rf "$C"; mkdir -p "$C"
	seeds=$(awk -F, '$1 == "dcqcn" && $2 == "sih" && $4 == 0 { print $3 }' $D/fig12/fig12.csv)
	echo "variants: Fig. 12 cap300 (seeds $(echo $seeds))" >&2
	for s in $seeds; do echo "$s"; done | xargs -n 1 -P "$JOBS" sh -c '
		build/sharebuf run "$1" --quiet --set switch.scheme=sih --set workloads.0.transport=dcqcn --seed "$3" \
			--set run.duration_ms=300 --set run.arrivals_ms=300 --set pfc.log=false --out "$2/s$3" > /dev/null' \
		run $EXP/fig12.cfg "$C"
	echo "seed,deadlocked,onset_ms" > "$C/onsets.csv"
	for s in $seeds; do
		sed -n 's/.*"first_deadlock_us": \([0-9.]*\|null\).*/\1/p' "$C/s$s/summary.json" |
			awk -v s="$s" '{ if ($1 == "null") print s ",0,"; else printf "%s,1,%.3f\n", s, $1 / 1000 }'
	done >> "$C/onsets.csv"
esac

case " $ONLY " in *" fig14 "*)
	echo "variants: Fig. 14 with the harness's classes" >&2
	CLASSES=harness OUT=out/experiments/dsh-fig14-harness NOREPORT=1 sh $EXP/run-fig14.sh > /dev/null
	echo "variants: Fig. 14 with strict-priority NICs, loads 0.2 and 0.4" >&2
	LOADS="0.2 0.4" EXTRA="--set host.sched=sp" OUT=out/experiments/dsh-fig14-sp NOREPORT=1 sh $EXP/run-fig14.sh > /dev/null
esac

echo "variants: done in $(( $(date +%s) - T0 )) s" >&2
mkdir -p $D/variants
run_meta $D/variants "$( [ "$ONLY" = "fig11 fig12 fig14" ] || printf 'ONLY="%s" ' "$ONLY")sh $EXP/run-variants.sh" "$T0"
sh $EXP/report.sh
