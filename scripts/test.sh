#!/bin/sh
# Build libiprof with warnings as errors and run every test suite.
# Ends with "N passed, N failed"; exits non-zero if anything failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/deps.sh"
iprof_need || { echo "0 passed, 1 failed"; exit 1; }

build="$top/build-test"
log="$build/test-output.txt"
if [ -d "$build" ]; then
    meson setup --reconfigure "$build" "$top" -Dwerror=true >/dev/null || exit 1
else
    meson setup "$build" "$top" -Dwerror=true >/dev/null || exit 1
fi
if ! meson compile -C "$build" >"$build/compile-output.txt" 2>&1; then
    cat "$build/compile-output.txt"
    echo "0 passed, 1 failed"
    exit 1
fi

meson test -C "$build" --print-errorlogs --num-processes 2 >"$log" 2>&1
cat "$log"

count() { sed -n "s/^$1: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -n 1; }
ok=$(count "Ok"); fail=$(count "Fail"); xpass=$(count "Unexpected Pass")
timeout=$(count "Timeout"); skipped=$(count "Skipped")
failed=$(( ${fail:-0} + ${xpass:-0} + ${timeout:-0} ))
[ -n "$ok" ] || failed=$(( failed + 1 ))
echo "${ok:-0} passed, $failed failed, ${skipped:-0} skipped"
[ "$failed" -eq 0 ]
