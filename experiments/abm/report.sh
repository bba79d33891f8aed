#!/bin/sh
# shellcheck disable=SC2046  # $(opt ...) splits into awk arguments on purpose
# Writes experiments/abm/REPORT.md from the outputs of run.sh (and of run-variants.sh, when
# present) and copies the plot beside it. run.sh calls it at its end; it can be rerun alone:
#
# Where: out/experiments/abm/report/REPORT.md and its plots by default (the checkout is left as it
# was); the committed experiments/abm/REPORT.md and plots with --update-report (lib/report.sh,
# report_dir). A report never drops a committed --full section it was not given (keep_sections).
#
#   sh experiments/abm/report.sh
#
# Inputs: out/experiments/abm/{results.csv,results-seed2.csv,meta.tsv} (run.sh, reduced: seeds
# 1 and 2 of the sweep fig7-fig9b, converted by results.awk) and fig7-fig9b/sweep-summary.csv
# (the means and confidence intervals over the seeds), and when present abm-spine (the sweep
# spine-buffer.cfg: spines with the leaf's buffer) and abm-full (run.sh --full). The prose is
# REPORT.md.in; the numbers come from values.awk (seed 1 and 2, measured), summary.awk (the
# means), paper.tsv (the paper's) and previous.tsv (those of the report before the new TCP,
# for "What moved").
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/abm
D=out/experiments/abm
V=$D/report
report_dir "$V" "$@"
if [ ! -s $D/meta.tsv ] || [ ! -s $D/results.csv ] || [ "$(cat $D/mode.txt 2>/dev/null)" != reduced ]; then
	echo "abm report: REPORT.md left as it was: no reduced run in $D yet (sh $EXP/run.sh)" >&2
	exit 0
fi
mkdir -p $V
VAL=experiments/lib/values.awk
# optional inputs: "tag file" pairs for the files that exist
opt() { while [ $# -ge 2 ]; do [ -s "$2" ] && printf '%s\n%s\n' "$1" "$2"; shift 2; done; }
meta() { [ -s "$1/meta.tsv" ] && echo "$1/meta.tsv" || echo /dev/null; }
IFS='
'
awk -f $VAL -f $EXP/values.awk what=paper $EXP/paper.tsv what=prev $EXP/previous.tsv \
	what=main $D/results.csv $(opt what=seed2 $D/results-seed2.csv what=spine $D-spine/results.csv \
	what=full $D-full/results.csv) > $V/values.tsv
unset IFS
awk -F, -f $VAL -f $EXP/summary.awk $D/fig7-fig9b/sweep-summary.csv > $V/ci.tsv
# run time for "What moved"
awk -F'\t' '$1 == "seconds" { print "seconds\t" $2 }' $D/meta.tsv > $V/cur.tsv
awk -F'\t' '$1 !~ /^(pp|pv)\./' $V/values.tsv >> $V/cur.tsv
# "What moved" compares the runs that were made: the earlier numbers of an optional run
# (run-variants.sh) not in these outputs have nothing to be compared with, and are left out
sp=0 fu=0
[ ! -s $D-spine/results.csv ] || sp=1
[ ! -s $D-full/results.csv ] || fu=1
awk -F'\t' -v sp=$sp -v fu=$fu '!($1 ~ /^spine\./ && !sp) && !($1 ~ /^full\./ && !fu)' $EXP/previous.tsv > $V/previous.tsv
awk -v prefix=moved. -f $VAL -f experiments/lib/moved.awk what=prev $V/previous.tsv what=cur $V/cur.tsv > $V/moved.tsv
awk -F'\t' '$1 ~ /warnings$/ && $2 != "" { w = w $2 } END { printf "warnings\t%s\n", w }' $V/values.tsv $V/moved.tsv > $V/warnings.tsv
fill_report "$REPORT_DIR"/REPORT.md $EXP/REPORT.md.in m.=$D/meta.tsv spm.="$(meta $D-spine)" \
	fm.="$(meta $D-full)" cite:paper.=$EXP/paper.tsv =$V/values.tsv =$V/ci.tsv =$V/moved.tsv =$V/warnings.tsv
cp $D/abm.png "$REPORT_DIR"/abm.png
echo "abm report: $REPORT_DIR/REPORT.md and abm.png written from out/experiments/abm*" >&2
