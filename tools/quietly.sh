#!/bin/sh
# quietly.sh LOG COMMAND...: run COMMAND (a build) with its output in LOG, and show that output
# only if COMMAND fails. The README's commands (make demo, make test, make sanitize) build this
# way, so that they print their result rather than a page of compiler lines; the compiler's
# warnings are errors (-Werror), so a successful build has nothing to show.
log=$1
shift
mkdir -p "$(dirname "$log")"
echo "building (compiler output in $log, shown only if the build fails)" >&2
"$@" > "$log" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	cat "$log" >&2
	echo "the build failed (exit status $rc); its output above is also in $log" >&2
fi
exit "$rc"
