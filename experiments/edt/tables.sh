#!/bin/sh
# tables.sh OUT: the figures' tables from the EDT sweeps' outputs in OUT (OUT/fig14/, fig12/,
# onoff/, as run.sh writes them), for plot.sh and report.sh. Cheap (awk over the CSVs and, for
# the ON/OFF bursts, one pass over each run's flows.csv); run.sh and report.sh call it.
#
#   OUT/fig14.csv        d_ms, burst packets, drops and loss ratio under DT and EDT, and the
#                        fluid theory (Theorems 1 and 5), from fig14/sweep.csv
#   OUT/fig12_{dt,edt}.dat  time (ms), burst queue (KB), mean long-lived queue (KB), total
#                        (occupancy.csv of the two fig12 runs, 140-185 ms)
#   OUT/fig17b.csv       per 1 ms bin, per policy: bursts and lossless fraction, pooled over the
#                        trials (all bursts of all trials together)
#   OUT/fig17b-trial1.csv   the same for trial 1 alone (seed 1: the runs before the sweeps)
#   OUT/fig17b-ci.csv    per bin, per policy: the mean over trials of the lossless fraction and
#                        the half-width of its 95 % interval (Student's t, n - 1 = trials - 1)
#                        values.awk (totals pooled over trials; per burst for every trial)
set -e
OUT=${1:?usage: sh tables.sh OUT}
EXP=$(dirname "$0")
LIB=$EXP/../lib
for f in fig14/sweep.csv fig12/sweep.csv onoff/sweep.csv; do
	[ -s "$OUT/$f" ] || { echo "edt tables: $OUT/$f missing: run the sweeps first (sh $EXP/run.sh)" >&2; exit 1; }
done
POLICIES="dt edt edt_d1 edt_d100 edt_cn1_10 edt_cn1_100"

# ---- Fig. 14: one row per d, DT and EDT side by side. Packets: 2 senders x ceil(d / 12 us).
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ d = $c["d_ms"]; if (!(d in seen)) { seen[d] = 1; order[++n] = d }; dr[d, $c["switch.scheme"]] = $c["drops_lossless"] }
	END {
		print "d_ms,packets,drops_dt,drops_edt,loss_dt,loss_edt,theory_dt,theory_edt"
		for (i = 1; i <= n; i++) {
			d = order[i]; k = int(d / 0.012); if (k * 0.012 < d - 1e-9) k++; p = 2 * k
			tdt = d > 2 ? (d - 2) / (2 * d) : 0     # Theorem 1a fluid: (R-C)(d-t1)/(R d), t1 = 2 ms
			tedt = d > 8 ? (d - 8) / d : 0          # Theorem 5: overflow at 8 ms, then all dropped
			printf "%g,%d,%d,%d,%.4f,%.4f,%.4f,%.4f\n", d, p, dr[d, "dt"], dr[d, "edt"], dr[d, "dt"] / p, dr[d, "edt"] / p, tdt, tedt
		} }' "$OUT/fig14/sweep.csv" > "$OUT/fig14.csv"

# ---- Fig. 12: the two sampled runs (lossless_bytes = the burst queue, lossy_bytes = the two
# long-lived queues)
for s in dt edt; do
	d=$(ls -d "$OUT"/fig12/runs/*-scheme=$s/seed-default)
	awk -F, 'NR > 1 && $1 >= 140e6 && $1 <= 185e6 { printf "%.3f %.1f %.1f %d\n", $1 / 1e6, $4 / 1e3, $3 / 2e3, $6 }' \
		"$d/occupancy.csv" > "$OUT/fig12_$s.dat"
done

# ---- Figs 17b / 18: per-burst outcomes of every run, then the bins
ON=$OUT/onoff
: > "$ON/per_burst.txt"
: > "$ON/burst_drops.txt"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["point"], $c["trial"], $c["policy"], $c["drops_lossless"] }' "$ON/sweep.csv" |
while read -r point trial policy drops; do
	run=$ON/runs/$point/seed-default
	list=$(sed -n 's/^ *path = "\(.*\)";$/\1/p' "$run/scenario.cfg")
	# "name trial dur_ms ok port start_ns", as values.awk reads it
	awk -F, -f "$EXP/burst_outcomes.awk" "$list" "$run/flows.csv" |
		awk -v name="$policy" -v t="$trial" '{ print name, t, $3, $4, $1, $2 }' >> "$ON/per_burst.txt"
	echo "$policy $trial $drops" >> "$ON/burst_drops.txt"
done
# Lossless fraction per 1 ms bin ([0,1) .. [9,10), then >= 10 ms), pooled over the trials given
bins() { # awk condition on the trial ($2) -> fig17b.csv on stdout, totals on fd 3
	awk -v pol="$POLICIES" "$1"' { b = int($3); if (b > 10) b = 10; n[$1, b]++; ok[$1, b] += $4; tn[$1]++; tok[$1] += $4
			if ($3 < 5) { cn[$1]++; cok[$1] += $4 } }
		END {
			np = split(pol, order, " ")
			printf "bin_ms"; for (i = 1; i <= np; i++) printf ",%s_bursts,%s_lossless", order[i], order[i]; print ""
			for (b = 0; b <= 10; b++) {
				printf "%d", b
				for (i = 1; i <= np; i++) { k = order[i]; printf ",%d,%.4f", n[k, b], n[k, b] ? ok[k, b] / n[k, b] : 0 }
				print ""
			}
			for (i = 1; i <= np; i++) { k = order[i]; printf "all_%s %d %d %d %d\n", k, tn[k], tok[k], cn[k], cok[k] > "/dev/stderr" }
		}' "$ON/per_burst.txt"
}
bins 1 > "$OUT/fig17b.csv" 2> "$ON/totals.txt"
bins '$2 == 1' > "$OUT/fig17b-trial1.csv" 2> /dev/null
# mean and 95 % interval over the trials of each bin's lossless fraction (the extract's frac_B)
awk -F, -v pol="$POLICIES" -f "$LIB/ci.awk" -f "$EXP/fig17b-ci.awk" "$ON/sweep.csv" > "$OUT/fig17b-ci.csv"
