#!/bin/sh
# Build libiprof if needed and show what the shipped example profile holds.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/deps.sh"
iprof_need
[ -d "$top/build" ] || meson setup "$top/build" "$top" >/dev/null
meson compile -C "$top/build" >/dev/null
exec "$top/build/tools/iprof" stats "$top/examples/fib.iprof"
