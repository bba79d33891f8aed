#!/bin/sh
# shellcheck disable=SC2046  # $(...) splits into awk arguments on purpose
# Writes experiments/occamy/REPORT.md from the outputs of run.sh (and of run-variants.sh, when
# present) and copies the plots beside it. run.sh calls it at its end; it can be rerun alone:
#
# Where: out/experiments/occamy/report/REPORT.md and its plots by default (the checkout is left as it
# was); the committed experiments/occamy/REPORT.md and plots with --update-report (lib/report.sh,
# report_dir). A report never drops a committed --full section it was not given (keep_sections).
#
#   sh experiments/occamy/report.sh
#
# Inputs: out/experiments/occamy/{choking.csv,burst.csv,ci.tsv,meta.tsv} (run.sh, reduced:
# seed 1 of the sweeps fig14-bg, fig14-nobg and fig12, and their means over the seeds), and when
# present out/experiments/occamy-rto5 (MIN_RTO_US=5000) and occamy-paper-sizes (Fig. 14 at the
# paper's 150–250 % of the buffer). The prose is REPORT.md.in; the numbers come from values.awk
# (measured), paper.tsv (the paper's) and previous.tsv (the report's before the new TCP).
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/occamy
D=out/experiments/occamy
V=$D/report
report_dir "$V" "$@"
if [ ! -s $D/meta.tsv ] || [ ! -s $D/burst.csv ] || [ "$(cat $D/mode.txt 2>/dev/null)" != reduced ] ||
	[ "$(cat $D/rto_us.txt 2>/dev/null)" != 200000 ]; then
	echo "occamy report: REPORT.md left as it was: no reduced run with the 200 ms RTO in $D yet (sh $EXP/run.sh)" >&2
	exit 0
fi
mkdir -p $V
VAL=experiments/lib/values.awk
meta() { [ -s "$1/meta.tsv" ] && echo "$1/meta.tsv" || echo /dev/null; }
IFS='
'
awk -v RTO="$(cat $D/rto_us.txt)" -f $VAL -f $EXP/values.awk what=paper $EXP/paper.tsv what=prev $EXP/previous.tsv \
	run=main what=c14 $D/choking.csv what=b12 $D/burst.csv \
	$([ ! -s $D-rto5/burst.csv ] || printf 'run=rto5\nwhat=c14\n%s\nwhat=b12\n%s\n' $D-rto5/choking.csv $D-rto5/burst.csv) \
	$([ ! -s $D-paper-sizes/choking.csv ] || printf 'run=big\nwhat=c14\n%s\n' $D-paper-sizes/choking.csv) > $V/values.tsv
unset IFS
awk -F'\t' '$1 == "seconds" { print "seconds\t" $2 }' $D/meta.tsv > $V/cur.tsv
awk -F'\t' '$1 !~ /^pv\./' $V/values.tsv >> $V/cur.tsv
# "What moved" compares the runs that were made: the earlier numbers of the 5 ms run
# (run-variants.sh) have nothing to be compared with when it is not in these outputs
r5=0
[ ! -s $D-rto5/burst.csv ] || r5=1
awk -F'\t' -v r5=$r5 '!($1 ~ /^rto5\./ && !r5)' $EXP/previous.tsv > $V/previous.tsv
awk -v prefix=moved. -f $VAL -f experiments/lib/moved.awk what=prev $V/previous.tsv what=cur $V/cur.tsv > $V/moved.tsv
awk -F'\t' '$1 ~ /warnings$/ && $2 != "" { w = w $2 } END { printf "warnings\t%s\n", w }' $V/values.tsv $V/moved.tsv > $V/warnings.tsv
fill_report "$REPORT_DIR"/REPORT.md $EXP/REPORT.md.in m.=$D/meta.tsv r5m.="$(meta $D-rto5)" bgm.="$(meta $D-paper-sizes)" \
	cite:paper.=$EXP/paper.tsv =$V/values.tsv =$D/ci.tsv =$V/moved.tsv =$V/warnings.tsv
cp $D/fig14_choking.png "$REPORT_DIR"/fig14_choking.png
cp $D/fig12_burst.png "$REPORT_DIR"/fig12_burst.png
echo "occamy report: $REPORT_DIR/REPORT.md and its plots written from out/experiments/occamy*" >&2
