#!/bin/sh
# shellcheck disable=SC2046  # $(opt ...) splits into awk arguments on purpose
# Writes experiments/dsh/REPORT.md from the outputs of run.sh and run-variants.sh (the sweeps'
# tables, OUT/tables/, from tables.sh) and copies their plots beside it. Both scripts call it at
# the end; it can be rerun alone:
#
# Where: out/experiments/dsh/report/REPORT.md and its plots by default (the checkout is left as it
# was); the committed experiments/dsh/REPORT.md and plots with --update-report (lib/report.sh,
# report_dir). A report never drops a committed --full section it was not given (keep_sections).
#
#   sh experiments/dsh/report.sh
#
# It needs the outputs of the four figures (run.sh; OUT=... reads another directory); without
# one of them it leaves REPORT.md as it was. The sensitivity runs of run-variants.sh
# are used when present (their sections say so when they are not). The prose is REPORT.md.in;
# the numbers come from values-fig*.awk (measured), paper.tsv (the paper's) and previous.tsv
# (the numbers before the DSH harness's RDMA feedback path, for "What moved").
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
OUT=${OUT:-out/experiments/dsh}
T=$OUT/tables
V=$OUT/report
report_dir "$V" "$@"
missing=""
[ -s $OUT/meta-fig11.tsv ] && [ -s $T/fig11.csv ] || missing="$missing Fig. 11;"
[ -s $OUT/meta-fig12.tsv ] && [ -s $T/fig12.csv ] || missing="$missing Fig. 12;"
[ -s $OUT/meta-fig13.tsv ] && [ -s $T/fig13.csv ] || missing="$missing Fig. 13;"
[ -s $OUT/meta-fig14.tsv ] && [ -s $T/fig14-diagnostics.csv ] || missing="$missing Fig. 14;"
if [ -n "$missing" ]; then
	echo "dsh report: REPORT.md left as it was: no outputs yet of$missing run sh $EXP/run.sh (FIGS=...), then report.sh" >&2
	exit 0
fi
mkdir -p $V
VAL="experiments/lib/values.awk"
# optional inputs: "tag file" pairs for the files that exist
opt() { while [ $# -ge 2 ]; do [ -s "$2" ] && printf '%s\n%s\n' "$1" "$2"; shift 2; done; }

# opt prints awk arguments, one per line (IFS is a newline while they are used)
IFS='
'
awk -v prefix=f11. -f $VAL -f $EXP/values-fig11.awk what=csv $T/fig11.csv what=knees $T/knees.txt \
	$(opt what=knees03 $T/knees-start0.3.txt) > $V/fig11.tsv
awk -v prefix=f12. -f $VAL -f $EXP/values-fig12.awk v=main $T/fig12.csv \
	$(for n in seeds101 long rdma ports0 hdrm60k ecnflat; do opt v=$n $T/fig12-$n.csv; done) \
	$(opt v=cap300 $T/cap300.csv) > $V/fig12.tsv
awk -v prefix=f13. -f $VAL -f $EXP/values-fig13.awk what=csv $T/fig13.csv what=f0 $T/f0.csv \
	what=phase $T/phase.csv what=pphase $OUT/fig13-probe/probe_phase.csv what=pmtu $OUT/fig13-probe/probe_mtu.csv \
	$(opt what=oldfb $T/oldfeedback.csv) what=prev $EXP/previous.tsv > $V/fig13.tsv
awk -f $VAL -f $EXP/values-fig14.awk what=paper $EXP/paper.tsv what= m=f14 $T/fig14.csv m=f14d $T/fig14-diagnostics.csv \
	$(opt m=f14h $T/fig14-harness.csv m=f14hd $T/fig14-harness-diagnostics.csv m=sp $T/fig14-sp.csv) > $V/fig14.tsv
awk -v prefix=moved. -v only=dcqcn -f $VAL -f experiments/lib/moved.awk what=prev $EXP/previous.tsv \
	what=cur $V/fig11.tsv $V/fig12.tsv $V/fig13.tsv $V/fig14.tsv > $V/moved.tsv
unset IFS
# the tables tables.sh writes, included as they are; which optional runs exist
{
	printf 'f14.tab.fct\t%s\nf14.tab.pfc\t%s\nf14.tab.diag\t%s\nf14.tab.ci\t%s\n' $T/fig14-table-fct.md $T/fig14-table-pfc.md \
		$T/fig14-diagnostics.md $T/fig14-table-ci.md
	printf 'f14.seeds\t%s\n' "$(awk -F, 'NR == 2 { print $3 }' $T/fig14-ci.csv)"
	if [ -s $T/fig14-harness-table-fct.md ]; then
		printf 'f14h.tab.fct\t%s\nf14h.tab.pfc\t%s\nf14h.tab.diag\t%s\n' $T/fig14-harness-table-fct.md $T/fig14-harness-table-pfc.md \
			$T/fig14-harness-diagnostics.md
	fi
} > $V/files.tsv
# the warnings of every figure, together
awk -F'\t' '$1 ~ /warnings$/ && $2 != "" { w = w $2 } END { printf "warnings\t%s\n", w }' $V/fig1?.tsv $V/moved.tsv > $V/warnings.tsv

mv_meta=/dev/null; [ ! -s $OUT/meta-variants.tsv ] || mv_meta=$OUT/meta-variants.tsv
h_meta=/dev/null; [ ! -s $T/fig14-harness.csv ] || h_meta=$mv_meta
fill_report "$REPORT_DIR"/REPORT.md $EXP/REPORT.md.in m11.=$OUT/meta-fig11.tsv m12.=$OUT/meta-fig12.tsv m13.=$OUT/meta-fig13.tsv \
	m14.=$OUT/meta-fig14.tsv m14h.="$h_meta" mv.="$mv_meta" \
	cite:paper.=$EXP/paper.tsv =$V/fig11.tsv =$V/fig12.tsv =$V/fig13.tsv =$V/fig14.tsv =$V/moved.tsv \
	=$V/files.tsv =$V/warnings.tsv
for p in fig11 fig12 fig13 fig14; do cp $OUT/$p.png "$REPORT_DIR"/$p.png; done
[ ! -s $OUT/fig14-harness.png ] || cp $OUT/fig14-harness.png "$REPORT_DIR"/fig14-harness.png
echo "dsh report: $REPORT_DIR/REPORT.md and its plots written from $OUT" >&2
