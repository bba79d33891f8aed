#!/bin/sh
# Writes experiments/edt/REPORT.md from the outputs of run.sh (out/experiments/edt/, and
# out/experiments/edt-full/ when a --full run is there) and copies its plots beside it.
# run.sh calls it at the end; it can be rerun alone. The prose is REPORT.md.in, the numbers
# come from values.awk (measured), paper.tsv (the paper's) and refmodel.tsv (reference model).
#
#   sh experiments/edt/report.sh
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/edt
OUT=out/experiments/edt
FULL=out/experiments/edt-full
for f in meta.tsv fig14.csv fig17b.csv fig12_dt.dat fig12_edt.dat onoff/totals.txt onoff/per_burst.txt; do
	[ -s "$OUT/$f" ] || { echo "edt report: $OUT/$f missing: run sh $EXP/run.sh first; REPORT.md left as it was" >&2; exit 1; }
done
set -- what=full14 /dev/null what=full17 /dev/null
meta_full=/dev/null
if [ -s "$FULL/meta.tsv" ] && [ -s "$FULL/fig14.csv" ] && [ -s "$FULL/fig17b.csv" ]; then
	set -- what=full14 "$FULL/fig14.csv" what=full17 "$FULL/fig17b.csv"
	meta_full=$FULL/meta.tsv
fi
awk -f experiments/lib/values.awk -f $EXP/values.awk \
	what=paper $EXP/paper.tsv what=ref $EXP/refmodel.tsv what=f14 "$OUT/fig14.csv" \
	what=f12dt "$OUT/fig12_dt.dat" what=f12edt "$OUT/fig12_edt.dat" what=f17 "$OUT/fig17b.csv" \
	what=tot "$OUT/onoff/totals.txt" what=drops "$OUT/onoff/burst_drops.txt" \
	what=bursts "$OUT/onoff/seed1/bursts.txt" what=pb "$OUT/onoff/per_burst.txt" "$@" > "$OUT/values.tsv"
fill_report $EXP/REPORT.md $EXP/REPORT.md.in run.="$OUT/meta.tsv" full.="$meta_full" \
	cite:paper.=$EXP/paper.tsv ref.=$EXP/refmodel.tsv ="$OUT/values.tsv"
for p in fig14 fig12 fig17b fig18; do cp "$OUT/$p.png" "$EXP/$p.png"; done
echo "edt report: $EXP/REPORT.md and its plots written from $OUT" >&2
