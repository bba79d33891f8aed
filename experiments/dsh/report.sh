#!/bin/sh
# shellcheck disable=SC2046  # $(opt ...) splits into awk arguments on purpose
# Writes experiments/dsh/REPORT.md from the outputs of the DSH scripts and copies their plots
# beside it. Each run script calls it at the end; it can be rerun alone:
#
#   sh experiments/dsh/report.sh
#
# It needs the outputs of the four figures (run.sh, run-fig12.sh, run-fig13.sh, run-fig14.sh);
# without one of them it leaves REPORT.md as it was. The sensitivity runs of run-variants.sh
# are used when present (their sections say so when they are not). The prose is REPORT.md.in;
# the numbers come from values-fig*.awk (measured), paper.tsv (the paper's) and previous.tsv
# (the numbers before the DSH harness's RDMA feedback path, for "What moved").
set -e
cd "$(dirname "$0")/../.."
. experiments/lib/report.sh
EXP=experiments/dsh
D=out/experiments/dsh
F14=out/experiments/dsh-fig14
F14H=out/experiments/dsh-fig14-harness
F14SP=out/experiments/dsh-fig14-sp
V=$D/report
missing=""
[ -s $D/meta.tsv ] && [ -s $D/fig11.csv ] || missing="$missing run.sh (Fig. 11);"
[ -s $D/fig12/meta.tsv ] && [ -s $D/fig12/fig12.csv ] || missing="$missing run-fig12.sh;"
[ -s $D/fig13/meta.tsv ] && [ -s $D/fig13/fig13.csv ] || missing="$missing run-fig13.sh;"
[ -s $F14/meta.tsv ] && [ -s $F14/diagnostics.csv ] || missing="$missing run-fig14.sh;"
if [ -n "$missing" ]; then
	echo "dsh report: REPORT.md left as it was: no outputs yet of$missing run those, or report.sh after them" >&2
	exit 0
fi
mkdir -p $V
VAL="experiments/lib/values.awk"
# optional inputs: "tag file" pairs for the files that exist
opt() { while [ $# -ge 2 ]; do [ -s "$2" ] && printf '%s\n%s\n' "$1" "$2"; shift 2; done; }

# opt prints awk arguments, one per line (IFS is a newline while they are used)
IFS='
'
awk -v prefix=f11. -f $VAL -f $EXP/values-fig11.awk what=csv $D/fig11.csv what=knees $D/knees.txt \
	$(opt what=knees03 $D/fig11-start0.3/knees.txt) > $V/fig11.tsv
awk -v prefix=f12. -f $VAL -f $EXP/values-fig12.awk v=main $D/fig12/fig12.csv \
	$(for n in seeds101 long rdma ports0 hdrm60k ecnflat; do opt v=$n $D/fig12-$n/fig12.csv; done) \
	$(opt v=cap300 $D/fig12-cap300/onsets.csv) > $V/fig12.tsv
awk -v prefix=f13. -f $VAL -f $EXP/values-fig13.awk what=csv $D/fig13/fig13.csv what=f0 $D/fig13/f0.csv \
	what=phase $D/fig13/phase.csv what=pphase $D/fig13/probe_phase.csv what=pmtu $D/fig13/probe_mtu.csv \
	$(opt what=oldfb $D/fig13/oldfeedback.csv) what=prev $EXP/previous.tsv > $V/fig13.tsv
awk -f $VAL -f $EXP/values-fig14.awk what=paper $EXP/paper.tsv what= m=f14 $F14/fig14.csv m=f14d $F14/diagnostics.csv \
	$(opt m=f14h $F14H/fig14.csv m=f14hd $F14H/diagnostics.csv m=sp $F14SP/fig14.csv) > $V/fig14.tsv
awk -v prefix=moved. -v only=dcqcn -f $VAL -f experiments/lib/moved.awk what=prev $EXP/previous.tsv \
	what=cur $V/fig11.tsv $V/fig12.tsv $V/fig13.tsv $V/fig14.tsv > $V/moved.tsv
unset IFS
# the tables run-fig14.sh writes, included as they are; which optional runs exist
{
	printf 'f14.tab.fct\t%s\nf14.tab.pfc\t%s\nf14.tab.diag\t%s\n' $F14/table-fct.md $F14/table-pfc.md $F14/diagnostics.md
	if [ -s $F14H/table-fct.md ]; then
		printf 'f14h.tab.fct\t%s\nf14h.tab.pfc\t%s\nf14h.tab.diag\t%s\n' $F14H/table-fct.md $F14H/table-pfc.md $F14H/diagnostics.md
	fi
} > $V/files.tsv
# the warnings of every figure, together
awk -F'\t' '$1 ~ /warnings$/ && $2 != "" { w = w $2 } END { printf "warnings\t%s\n", w }' $V/fig1?.tsv $V/moved.tsv > $V/warnings.tsv

fill_report $EXP/REPORT.md $EXP/REPORT.md.in m11.=$D/meta.tsv m12.=$D/fig12/meta.tsv m13.=$D/fig13/meta.tsv \
	m14.=$F14/meta.tsv m14h.="$( [ -s $F14H/meta.tsv ] && echo $F14H/meta.tsv || echo /dev/null)" \
	mv.="$( [ -s $D/variants/meta.tsv ] && echo $D/variants/meta.tsv || echo /dev/null)" \
	cite:paper.=$EXP/paper.tsv =$V/fig11.tsv =$V/fig12.tsv =$V/fig13.tsv =$V/fig14.tsv =$V/moved.tsv \
	=$V/files.tsv =$V/warnings.tsv
cp $D/fig11.png $EXP/fig11.png
cp $D/fig12/fig12.png $EXP/fig12.png
cp $D/fig13/fig13.png $EXP/fig13.png
cp $F14/fig14.png $EXP/fig14.png
[ ! -s $F14H/fig14.png ] || cp $F14H/fig14.png $EXP/fig14-harness.png
echo "dsh report: $EXP/REPORT.md and its plots written from out/experiments/dsh*" >&2
