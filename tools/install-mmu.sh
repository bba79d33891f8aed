#!/bin/sh
# install-mmu.sh — install or remove the MMU library as an embedder uses it (docs/mmu.md §7):
#
#   PREFIX/lib/libsbmmu.a                  src/core + src/mmu, nothing else (libc and libm)
#   PREFIX/include/sharebuf/{core,mmu}/*.h the public src/mmu/mmu.h and the headers it includes,
#                                          laid out as in src/ so that its "core/..." includes
#                                          resolve with -IPREFIX/include/sharebuf
#   PREFIX/lib/pkgconfig/sbmmu.pc          from src/mmu/sbmmu.pc.in: Cflags and Libs (-lm)
#
#   sh tools/install-mmu.sh install   BUILD PREFIX   (`make install`; BUILD/libsbmmu.a built)
#   sh tools/install-mmu.sh uninstall BUILD PREFIX   (`make uninstall`)
#
# DESTDIR, as in the environment, is put in front of every path written (a staged install for
# a package), never into the .pc file, which names PREFIX: where the files end up. CC (cc)
# finds the headers mmu.h includes, so that the set installed is the one it needs and cannot
# go stale when an include is added or removed.
set -e
cd "$(dirname "$0")/.."
[ $# -eq 3 ] || { echo "usage: sh tools/install-mmu.sh install|uninstall BUILD PREFIX" >&2; exit 2; }
what=$1 build=$2 prefix=$3
case $prefix in /*) ;; *) echo "install-mmu: PREFIX must be an absolute path: $prefix" >&2; exit 2 ;; esac
root=${DESTDIR:-}$prefix
inc=$root/include/sharebuf

# The headers of the public contract: mmu.h and what it includes, by the compiler's own count
# (-MM lists the quoted includes only, never the system's).
headers() {
	"${CC:-cc}" -std=c17 -Isrc -MM src/mmu/mmu.h |
		tr ' \\' '\n\n' | sed -n 's|^src/\(core/[a-z_]*\.h\)$|\1|p; s|^src/\(mmu/[a-z_]*\.h\)$|\1|p' | sort -u
}

case $what in
install)
	[ -f "$build/libsbmmu.a" ] || { echo "install-mmu: $build/libsbmmu.a: not built (make $build/libsbmmu.a)" >&2; exit 2; }
	list=$(headers)
	[ -n "$list" ] || { echo "install-mmu: found no header of src/mmu/mmu.h" >&2; exit 1; }
	install -d "$root/lib/pkgconfig" "$inc/core" "$inc/mmu"
	install -m 644 "$build/libsbmmu.a" "$root/lib/libsbmmu.a"
	for h in $list; do install -m 644 "src/$h" "$inc/$h"; done
	commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	# sed's replacement text: PREFIX may hold any character but a newline; escape \ & and |
	esc=$(printf '%s' "$prefix" | sed 's/[\\&|]/\\&/g')
	sed -e "s|@PREFIX@|$esc|" -e "s|@VERSION@|${SBMMU_VERSION:-0.1}|" -e "s|@COMMIT@|$commit|" \
		src/mmu/sbmmu.pc.in > "$root/lib/pkgconfig/sbmmu.pc"
	chmod 644 "$root/lib/pkgconfig/sbmmu.pc"
	echo "installed libsbmmu.a, $(echo "$list" | wc -l | tr -d ' ') headers and sbmmu.pc under $root"
	;;
uninstall)
	rm -f "$root/lib/libsbmmu.a" "$root/lib/pkgconfig/sbmmu.pc"
	# include/sharebuf/ is this package's own directory: an older install may have had other
	# headers, so the two directories go whole rather than by today's list
	rm -rf "$inc/core" "$inc/mmu"
	rmdir "$inc" 2>/dev/null || true
	echo "removed the MMU library from $root"
	;;
*) echo "install-mmu: $what: not install or uninstall" >&2; exit 2 ;;
esac
