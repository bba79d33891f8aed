# shellcheck shell=sh
# report.sh: shell functions for the experiments' scripts (POSIX sh), sourced from the
# repository's root:  . experiments/lib/report.sh
#
# Every REPORT.md under experiments/ is written by a script from the run's outputs: the
# figures' numbers by an awk program per figure (experiments/lib/values.awk has the shared
# functions), the prose from a template (REPORT.md.in) filled by experiments/lib/fill.awk.
#
#   run_meta DIR "COMMAND" T0   after a run: DIR/meta.tsv records the command, the commit
#                               (git rev-parse --short HEAD, "+changes" if src/, the Makefile,
#                               experiments/lib/ or the experiment's folder $EXP differed from
#                               it), the seconds since T0 (date +%s) and the CPU seconds of
#                               the script's children (cpu_seconds)
#   prepare_run OUT             before a run: build the simulator, install gnuplot and create
#                               OUT; nothing under DRY_RUN=1 (see below)
#   fill_report OUT TEMPLATE VALUES...
#                               fills TEMPLATE with the values files (each "PREFIX=FILE", or
#                               "cite:PREFIX=FILE" to keep a citation column) into OUT; on any
#                               unfilled key OUT is left as it was and the call fails; nor is
#                               OUT replaced by a report without one of its "<!-- section: -->"
#                               lines (a --full run's numbers: see keep_sections)
#   report_dir DIR [ARGS]       where report.sh writes REPORT.md and its plots (REPORT_DIR):
#                               DIR (under out/, beside the run's outputs) by default, so that
#                               a reproduction leaves the checkout as it was; the committed
#                               report in $EXP only with --update-report (or UPDATE_REPORT=1)
#
# run.sh takes [--full] [--update-report] (read_full_flag) and hands --update-report on to
# report.sh as UPDATE_REPORT=1.

# Every experiment script runs its sweeps with "$SB" (default build/sharebuf; a test points
# it at its own build), adding $DRY to each: with DRY_RUN=1 that is --dry-run, and the script
# only lists its sweeps' points (docs/sweep.md), building, installing and writing nothing.
SB=${SB:-build/sharebuf}
DRY=""
[ "${DRY_RUN:-0}" = 0 ] || DRY=--dry-run

# FULL=1 for a run.sh given --full, 0 without an argument; anything else is a usage error.
# shellcheck disable=SC2034  # FULL is the caller's
read_full_flag() {
	FULL=0
	for _a in "$@"; do
		case $_a in
		--full) FULL=1 ;;
		--update-report) UPDATE_REPORT=1; export UPDATE_REPORT ;;
		*) echo "usage: sh $EXP/run.sh [--full] [--update-report]" >&2; exit 2 ;;
		esac
	done
}

# REPORT_DIR: DIR, or $EXP with --update-report / UPDATE_REPORT=1 (report.sh's own arguments:
# --update-report only). DIR is created.
# shellcheck disable=SC2034  # REPORT_DIR is the caller's
report_dir() { # dir [args of report.sh]
	_d=$1
	shift
	for _a in "$@"; do
		case $_a in
		--update-report) UPDATE_REPORT=1 ;;
		*) echo "usage: sh $EXP/report.sh [--update-report]" >&2; exit 2 ;;
		esac
	done
	case ${UPDATE_REPORT:-0} in
	0) REPORT_DIR=$_d; mkdir -p "$_d" ;;
	1) REPORT_DIR=$EXP ;;
	*) echo "$EXP: UPDATE_REPORT must be 0 or 1, not '$UPDATE_REPORT'" >&2; exit 2 ;;
	esac
}

# A report keeps the sections of runs it was not given again: each such section of a template
# starts with a line "<!-- section: NAME -->" (e.g. the numbers of a --full run, which a reduced
# run does not make). keep_sections OLD NEW fails, naming them, when OLD has such a line that
# NEW lacks: a reduced run must not drop a committed --full section.
keep_sections() { # old new
	[ -f "$1" ] || return 0
	_lost=$(grep '^<!-- section: .* -->$' "$1" | while IFS= read -r _l; do
		grep -qxF "$_l" "$2" || printf ' %s' "$(echo "$_l" | sed 's/^<!-- section: \(.*\) -->$/\1/')"
	done)
	[ -z "$_lost" ] && return 0
	echo "fill_report: $1 not replaced: it holds the section(s)$_lost, whose outputs this report was not given (run them first, e.g. with --full, or write the report under out/ without --update-report)" >&2
	return 1
}

prepare_run() {
	[ -z "$DRY" ] || return 0
	make -s
	sh tools/install-deps.sh gnuplot-nox
	mkdir -p "$1"
}

# The commit the outputs were made at. The inputs of a run are the simulator and the
# experiment (its folder, $EXP, and experiments/lib): a change there not yet committed is
# flagged. The experiment's outputs kept in its folder (REPORT.md, the plots) do not count.
run_commit() {
	c=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	if [ -n "$(git status --porcelain --untracked-files=no -- src Makefile experiments/lib "${EXP:-experiments}" \
		':(exclude)experiments/*/REPORT.md' ':(exclude)experiments/*/*.png' 2>/dev/null)" ]; then
		c="$c+changes"
	fi
	echo "$c"
}

# cpu_seconds: the user + system time of the script's finished children (POSIX `times`, its
# second line), the whole run's CPU time, which unlike the wall time does not depend on how
# many runs shared the cores
run_meta() { # dir command t0
	_s=$(( $(date +%s) - $3 ))
	[ "$_s" -gt 0 ] || _s="< 1"
	times > "$1/meta.tsv" # in this shell: in $(...) a subshell would report its own children
	_cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.0f", t }' "$1/meta.tsv")
	printf 'command\t%s\ncommit\t%s\nseconds\t%s\ncpu_seconds\t%s\n' "$2" "$(run_commit)" "$_s" "$_cpu" > "$1/meta.tsv"
}

fill_report() { # out template prefix=file...
	_out=$1 _tmpl=$2
	shift 2
	_args=""
	for _v in "$@"; do
		case $_v in
		cite:*=*) _p=${_v#cite:}; _args="$_args cite=1 pfx=${_p%%=*} ${_p#*=}" ;;
		*=*) _args="$_args cite=0 pfx=${_v%%=*} ${_v#*=}" ;;
		*) echo "fill_report: $_v is not PREFIX=FILE" >&2; return 2 ;;
		esac
	done
	# shellcheck disable=SC2086  # a list of awk arguments
	if awk -f experiments/lib/fill.awk $_args tmpl=1 "$_tmpl" > "$_out.tmp" && keep_sections "$_out" "$_out.tmp"; then
		mv "$_out.tmp" "$_out"
	else
		rm -f "$_out.tmp"
		echo "fill_report: $_out not written (see above)" >&2
		return 1
	fi
}
