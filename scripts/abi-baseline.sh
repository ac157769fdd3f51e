#!/bin/sh
# Regenerate the ABI baseline on purpose (docs/abi.md, "The ABI baseline"):
#
#   scripts/abi-baseline.sh [--force] [--rev REV]
#
# at a release, or after a SONAME bump. Builds the library of the working
# tree (or of git revision REV, e.g. a release tag or HEAD, without the
# uncommitted changes) in a temporary build directory (default options:
# debugoptimized, so with debug information) and writes
#   abi/libiprof.so.N.abi   abidw's description of libiprof.so.N (N: SONAME)
#   abi/include/iprof/*.h   the public headers as installed (the old
#                           consumer test compiles against them)
# removing the baseline of an older SONAME. It prints abidiff's report
# against the previous baseline, for the commit message. Commit abi/.
#
# Refuses an incompatible change under the same SONAME (bump iprof_soversion
# in meson.build first) unless --force is given.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
force=0
rev=""
while [ $# -gt 0 ]; do
    case $1 in
        --force) force=1 ;;
        --rev) rev=$2; shift ;;
        *) echo "usage: $0 [--force] [--rev REV]" >&2; exit 2 ;;
    esac
    shift
done
. "$top/scripts/deps.sh"
iprof_need abidw:abigail-tools abidiff:abigail-tools

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
src=$top
if [ -n "$rev" ]; then
    src=$tmp/src
    mkdir -p "$src"
    git -C "$top" archive "$rev" | tar -x -C "$src"
fi
meson setup "$tmp/build" "$src" -Dbuildtype=debugoptimized -Ddefault_library=shared >/dev/null
meson compile -C "$tmp/build" lib/iprof:shared_library >/dev/null
lib=$(readlink -f "$tmp/build/lib/libiprof.so")
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ -n "$soname" ] || { echo "abi-baseline: $lib has no SONAME" >&2; exit 1; }

IPROF_SOURCE_DIR="$top" IPROF_BUILD_DIR="$tmp/build" python3 - "$lib" "$soname" "$force" "$src" <<'EOF'
import glob, os, sys
sys.path.insert(0, os.path.join(os.environ['IPROF_SOURCE_DIR'], 'tests', 'abi'))
import abicheck as A
lib, soname, force, src = sys.argv[1], sys.argv[2], sys.argv[3] == '1', sys.argv[4]
new = os.path.join(A.ABI_DIR, soname + '.abi.new')
A.abidw(lib, A.build_dir(), new, src)
old = sorted(glob.glob(os.path.join(A.ABI_DIR, 'libiprof.so.*.abi')))
if old:
    rc, report = A.abidiff(old[0], new)
    verdict = A.classify(rc, report)
    print(report)
    print('abi-baseline: %s -> %s: %s' % (os.path.basename(old[0]), soname, verdict))
    if verdict == 'error':
        os.remove(new)
        A.fail('abidiff failed')
    if verdict == 'incompatible' and A.baseline_soname(old[0]) == soname and not force:
        os.remove(new)
        A.fail('incompatible change under the same SONAME %s: bump iprof_soversion in '
               'meson.build first (docs/abi.md), or pass --force' % soname)
    for o in old:
        os.remove(o)
os.rename(new, os.path.join(A.ABI_DIR, soname + '.abi'))
EOF
mkdir -p "$top/abi"
rm -rf "$top/abi/include"
mkdir -p "$top/abi/include/iprof"
# Every public header (include/iprof/meson.build installs them all), so
# that adding or removing one needs no change here.
cp "$src"/include/iprof/*.h "$top/abi/include/iprof/"
cp "$tmp/build/include/iprof/version.h" "$top/abi/include/iprof/version.h"
echo "abi-baseline: wrote abi/$soname.abi and abi/include/iprof/ (library $(sed -n 's/^#define IPROF_VERSION_STRING "\(.*\)"/\1/p' "$tmp/build/include/iprof/version.h")); commit abi/"
