#!/bin/sh
# The README's two commands, usable on a fresh Debian machine that may not even have make or a
# compiler yet:
#   sh tools/quickstart.sh demo   install what is missing, build, compare every scheme on the
#                                 default scenario (make demo: sharebuf compare --out out/default)
#   sh tools/quickstart.sh test   install what is missing, build, run every test
set -e
cd "$(dirname "$0")/.."
case "${1:-}" in
demo) sh tools/install-deps.sh && make --no-print-directory demo ;;
test) sh tools/install-deps.sh && make --no-print-directory test ;;
*) echo "usage: sh tools/quickstart.sh demo|test" >&2; exit 2 ;;
esac
