#!/bin/sh
# probe.sh OUT: the Fig. 13 probe step, separate from the sweeps because it is not a sharebuf
# run: fig13-probe.c embeds the library, runs one Fig. 13 scenario and watches leaf1's
# spine-facing ingress queue against SIH's threshold every 0.1 us (it only reads MMU state, so
# the simulated network is that of `sharebuf run`). Builds build/experiments/dsh/fig13-probe, then writes
# OUT/fig13-probe/:
#   CC-SCHEME.txt    the probe's line for each transport and scheme of sweeps/fig13.cfg
#   probe_phase.csv  SIH under HPCC and PowerTCP with the burst at 2.5 .. 3.1 ms: the smallest
#                    margin T - omega_s and the time paused
#   probe_mtu.csv    SIH with 1500 payload bytes per frame (the harness's PACKET_PAYLOAD_SIZE)
# It has no record of what produced an output, so it runs every probe each time (24 short
# simulations, a few seconds); each output is written through a temporary.
set -e
OUT=${1:?usage: sh probe.sh OUT}
EXP=experiments/dsh
P=$OUT/fig13-probe
CCS="rdma dcqcn hpcc powertcp"
mkdir -p "$P"
make -s build/experiments/dsh/fig13-probe # (the Makefile builds it with the tests, so it cannot rot)
probe() { # output, then the probe's arguments after the scenario
	o=$1; shift
	nice build/experiments/dsh/fig13-probe "$EXP/fig13.cfg" "$@" > "$o.tmp"
	mv "$o.tmp" "$o"
}
tr3() { echo "workloads.0.transport=$1 workloads.1.transport=$1 workloads.2.transport=$1"; }
for cc in $CCS; do
	for s in sih dsh; do
		# shellcheck disable=SC2046  # three words
		probe "$P/$cc-$s.txt" 2.7 switch.scheme=$s $(tr3 $cc)
	done
done
for cc in hpcc powertcp; do
	for t in 2.5 2.6 2.7 2.9 3.0 3.1; do
		# shellcheck disable=SC2046
		probe "$P/phase-$cc-$t.txt" "$(awk -v t=$t 'BEGIN { print t - 0.05 }')" switch.scheme=sih $(tr3 $cc) \
			workloads.2.start_ms=$t run.duration_ms="$(awk -v t=$t 'BEGIN { print t + 0.8 }')"
	done
done
for cc in $CCS; do
	# shellcheck disable=SC2046
	probe "$P/mtu-$cc.txt" 2.7 switch.scheme=sih rdma.mtu=1500 $(tr3 $cc)
done
echo "cc,start_ms,min_margin,paused_us" > "$P/probe_phase.csv"
for cc in hpcc powertcp; do
	for t in 2.5 2.6 2.7 2.9 3.0 3.1; do
		sed 's/[a-zA-Z_]*=//g' "$P/phase-$cc-$t.txt" | awk -v c=$cc -v t=$t '{ printf "%s,%s,%s,%s\n", c, t, $4, $5 }'
	done
done >> "$P/probe_phase.csv"
echo "cc,min_margin,paused_us" > "$P/probe_mtu.csv"
for cc in $CCS; do
	sed 's/[a-zA-Z_]*=//g' "$P/mtu-$cc.txt" | awk -v c=$cc '{ printf "%s,%s,%s\n", c, $4, $5 }'
done >> "$P/probe_mtu.csv"
