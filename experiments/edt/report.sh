#!/bin/sh
# Writes experiments/edt/REPORT.md from the sweeps run.sh ran (out/experiments/edt/, and
# out/experiments/edt-full/ when a --full run is there) and copies the default run's plots
# beside it. run.sh calls it at the end; it can be rerun alone, without running anything:
#
# Where: out/experiments/edt/report/REPORT.md and its plots by default (the checkout is left as it
# was); the committed experiments/edt/REPORT.md and plots with --update-report (lib/report.sh,
# report_dir). A report never drops a committed --full section it was not given (keep_sections).
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
report_dir "$OUT/report" "$@"
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
fill_report "$REPORT_DIR"/REPORT.md $EXP/REPORT.md.in run.="$OUT/meta.tsv" full.="$meta_full" \
	cite:paper.=$EXP/paper.tsv ref.=$EXP/refmodel.tsv ="$OUT/values.tsv"
for p in fig14 fig12 fig17b fig18; do cp "$OUT/$p.png" "$REPORT_DIR/$p.png"; done
echo "edt report: $REPORT_DIR/REPORT.md and its plots written from $OUT" >&2
