#!/bin/sh
# Writes experiments/reverie/REPORT.md from the outputs of run.sh and copies the plots beside it.
# run.sh calls it at its end; it can be rerun alone:
#
# Where: out/experiments/reverie/report/REPORT.md and its plots by default (the checkout is left as it
# was); the committed experiments/reverie/REPORT.md and plots with --update-report (lib/report.sh,
# report_dir). A report never drops a committed --full section it was not given (keep_sections).
#
#   sh experiments/reverie/report.sh
#
# Inputs: out/experiments/reverie/{results.csv,flag_same.txt,meta.tsv} of a reduced run with
# every figure (results.csv: run.sh's means and 95 % CIs over the seeds, from the sweeps' CSVs),
# and the paper-scale Fig. 7 committed in experiments/reverie/full/ (sweep-summary.csv,
# meta.tsv, fig7-full.png: run.sh --full writes them), so that its section is regenerated
# without running it again. The prose is REPORT.md.in; the numbers come from values.awk
# (measured), paper.tsv (the paper's) and previous.tsv (the report's before the new TCP and the
# artifact's settings).
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/reverie
D=out/experiments/reverie
FULL=$EXP/full
V=$D/report
report_dir "$V" "$@"
if [ ! -s $D/meta.tsv ] || [ ! -s $D/results.csv ] || [ ! -s $D/flag_same.txt ] ||
	[ "$(cat $D/mode.txt 2>/dev/null)" != reduced ] || [ "$(awk -F, 'NR > 1 { print $1 }' $D/results.csv | sort -u | tr '\n' ' ')" != "10 7 8 " ]; then
	echo "reverie report: REPORT.md left as it was: no reduced run of Figs. 7, 8 and 10 in $D yet (sh $EXP/run.sh)" >&2
	exit 0
fi
mkdir -p $V
VAL=experiments/lib/values.awk
awk -f $VAL -f $EXP/values.awk what=paper $EXP/paper.tsv what=prev $EXP/previous.tsv what=same $D/flag_same.txt \
	what=res FS=, $D/results.csv > $V/values.tsv
# Fig. 7 at the paper's scale, from the committed CSV (its runs are not kept)
: > $V/full.tsv
if [ -s $FULL/sweep-summary.csv ] && [ -s $FULL/meta.tsv ]; then
	awk -F, -f $EXP/results.awk head=1 fig=7 xcol=workloads.0.load xscale=100 $FULL/sweep-summary.csv > $V/full-results.csv
	awk -v full=1 -v prefix=full. -f $VAL -f $EXP/values.awk what=paper $EXP/paper.tsv what=res FS=, $V/full-results.csv |
		awk -F'\t' '$1 !~ /^full\.pp\./' > $V/full.tsv
	printf 'full.present\t1\n' >> $V/full.tsv
else
	echo "reverie report: no paper-scale Fig. 7 in $FULL (JOBS=2 FIGS=7 sh $EXP/run.sh --full writes it): its section is left out" >&2
fi
awk -F'\t' '$1 == "seconds" { print "seconds\t" $2 }' $D/meta.tsv > $V/cur.tsv
awk -F'\t' '$1 !~ /^(pp|pv)\./' $V/values.tsv >> $V/cur.tsv
awk -v prefix=moved. -f $VAL -f experiments/lib/moved.awk what=prev $EXP/previous.tsv what=cur $V/cur.tsv > $V/moved.tsv
awk -F'\t' '$1 ~ /warnings$/ && $2 != "" { w = w $2 } END { printf "warnings\t%s\n", w }' $V/values.tsv $V/moved.tsv $V/full.tsv > $V/warnings.tsv
if [ -s $V/full.tsv ]; then
	fill_report "$REPORT_DIR"/REPORT.md $EXP/REPORT.md.in m.=$D/meta.tsv fm.=$FULL/meta.tsv cite:paper.=$EXP/paper.tsv \
		=$V/values.tsv =$V/moved.tsv =$V/full.tsv =$V/warnings.tsv
else
	fill_report "$REPORT_DIR"/REPORT.md $EXP/REPORT.md.in m.=$D/meta.tsv cite:paper.=$EXP/paper.tsv \
		=$V/values.tsv =$V/moved.tsv =$V/warnings.tsv
fi
for f in fig7 fig8 fig10; do cp $D/$f.png "$REPORT_DIR"/$f.png; done
# the paper-scale plot the report links to (full/), beside a report under out/
[ "$REPORT_DIR" = $EXP ] || [ ! -s $FULL/fig7-full.png ] || { mkdir -p "$REPORT_DIR"/full && cp $FULL/fig7-full.png "$REPORT_DIR"/full/; }
echo "reverie report: $REPORT_DIR/REPORT.md and its plots written from $D$([ -s $V/full.tsv ] && echo " and $FULL")" >&2
