#!/bin/sh
# Writes experiments/edt/REPORT.md from the sweeps run.sh ran (out/experiments/edt/, and
# out/experiments/edt-full/ when a --full run is there) and copies the default run's plots
# beside it. run.sh calls it at the end; it can be rerun alone, without running anything:
#
#   sh experiments/edt/report.sh
#
# The figures' tables come from the sweeps' CSVs (tables.sh), the numbers from values.awk,
# the prose from REPORT.md.in, the paper's numbers from paper.tsv and the reference model's
# from refmodel.tsv. OUT=... reads another default-scale output directory.
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/edt
OUT=${OUT:-out/experiments/edt}
FULL=out/experiments/edt-full
[ -s "$OUT/meta.tsv" ] || { echo "edt report: $OUT/meta.tsv missing: run sh $EXP/run.sh first; REPORT.md left as it was" >&2; exit 1; }
sh $EXP/tables.sh "$OUT"
for p in fig14 fig12 fig17b fig18; do
	[ -s "$OUT/$p.png" ] || { echo "edt report: $OUT/$p.png missing: run sh $EXP/run.sh first; REPORT.md left as it was" >&2; exit 1; }
done
set -- what=full17 /dev/null
meta_full=/dev/null
if [ -s "$FULL/meta.tsv" ] && [ -s "$FULL/onoff/sweep.csv" ]; then
	sh $EXP/tables.sh "$FULL"
	set -- what=full17 "$FULL/fig17b.csv"
	meta_full=$FULL/meta.tsv
fi
awk -f experiments/lib/values.awk -f $EXP/values.awk \
	what=paper $EXP/paper.tsv what=ref $EXP/refmodel.tsv what=f14 "$OUT/fig14.csv" \
	what=f12dt "$OUT/fig12_dt.dat" what=f12edt "$OUT/fig12_edt.dat" what=f17 "$OUT/fig17b.csv" \
	what=ci "$OUT/fig17b-ci.csv" what=tot "$OUT/onoff/totals.txt" what=drops "$OUT/onoff/burst_drops.txt" \
	what=pb "$OUT/onoff/per_burst.txt" "$@" > "$OUT/values.tsv"
fill_report $EXP/REPORT.md $EXP/REPORT.md.in run.="$OUT/meta.tsv" full.="$meta_full" \
	cite:paper.=$EXP/paper.tsv ref.=$EXP/refmodel.tsv ="$OUT/values.tsv"
for p in fig14 fig12 fig17b fig18; do cp "$OUT/$p.png" "$EXP/$p.png"; done
echo "edt report: $EXP/REPORT.md and its plots written from $OUT" >&2
