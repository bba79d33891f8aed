#!/bin/sh
# Turn stdin into a C string constant named $1 (the embedded default scenario).
# Plain POSIX sh + sed, so no xxd or other tool is needed at build time.
name="$1"
printf 'const char %s[] =\n' "$name"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/'
printf ';\n'
