#!/bin/sh
# Build libiprof with warnings as errors and run every test suite.
# Ends with "N passed, N failed"; exits non-zero if anything failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/deps.sh"
# zlib is a library, not a command: its pseudo-command is missing exactly when
# pkg-config cannot find it, so iprof_need installs zlib1g-dev then.
zlib_need=""; pkg-config --exists zlib 2>/dev/null || zlib_need="zlib-headers-missing:zlib1g-dev"
# Dask for the Python bindings' test_dask (iprof.dask_merge on a LocalCluster).
dask_need="$(iprof_pymod dask.bag python3-dask) $(iprof_pymod distributed python3-distributed)"
# numpy for the Python bindings' test_columns (zero-copy column views).
numpy_need=$(iprof_pymod numpy python3-numpy)
# pip install of the binding in venvs, offline (test_install, python_test_packaging).
pip_need="$(iprof_pymod ensurepip python3-venv) $(iprof_pymod pip python3-pip) $(iprof_pymod setuptools python3-setuptools) $(iprof_pymod wheel python3-wheel)"
# The Java binding's JUnit 5 console launcher (a jar, not a command) and Maven
# with the plugins bindings/java/pom.xml pins, from Debian's /usr/share/maven-repo
# (its `mvn -o install`, PackagingTest); the JDK 22+ the Java tests need is not in
# Debian 12's apt: they are skipped, saying so, without one (bindings/java/build.sh).
java_need=""; [ -f /usr/share/java/junit-platform-console-standalone.jar ] || java_need="junit5-jar-missing:junit5"
for p in compiler:libmaven-compiler-plugin-java resources:libmaven-resources-plugin-java jar:libmaven-jar-plugin-java install:libmaven-install-plugin-java surefire:libsurefire-java; do
    [ -d "/usr/share/maven-repo/org/apache/maven/plugins/maven-${p%%:*}-plugin" ] || java_need="$java_need maven-${p%%:*}-plugin-missing:${p#*:}"
done
[ -d /usr/share/maven-repo/org/codehaus/mojo/exec-maven-plugin ] || java_need="$java_need exec-maven-plugin-missing:libexec-maven-plugin-java"
iprof_need $zlib_need $dask_need $numpy_need $pip_need $java_need mvn:maven mypy:mypy bash:bash valgrind:valgrind abidw:abigail-tools abidiff:abigail-tools doxygen:doxygen clang++:clang g++:g++ readelf:binutils genhtml:lcov chromium:chromium node:nodejs npm:npm dpkg-buildpackage:dpkg-dev dh:debhelper dh_python3:dh-python lintian:lintian || { echo "0 passed, 1 failed"; exit 1; }
# sudo and runuser for test_install: README.md's install blocks run as a user with sudo too.
iprof_need sudo:sudo runuser:util-linux unshare:util-linux || { echo "0 passed, 1 failed"; exit 1; }

# Each run: NAME BUILD-DIR MESON-SETUP-OPTIONS -- MESON-TEST-ARGUMENTS.
# The counts of all runs add up to the closing line.
total_ok=0; total_failed=0; total_skipped=0

run_suites() {
    name=$1; build=$2; shift 2
    setup_args=""
    while [ "$1" != "--" ]; do setup_args="$setup_args $1"; shift; done
    shift
    log="$build/test-output.txt"
    echo "== $name"
    if [ -d "$build" ]; then
        meson setup --reconfigure "$build" "$top" -Dwerror=true $setup_args >/dev/null
    else
        meson setup "$build" "$top" -Dwerror=true $setup_args >/dev/null
    fi || { total_failed=$((total_failed + 1)); return; }
    # shellcheck disable=SC2086 # $compile_targets: several targets, or all
    if ! meson compile -C "$build" ${compile_targets:-} >"$build/compile-output.txt" 2>&1; then
        cat "$build/compile-output.txt"
        total_failed=$((total_failed + 1))
        return
    fi
    meson test -C "$build" --print-errorlogs --num-processes 2 "$@" >"$log" 2>&1
    cat "$log"
    count() { sed -n "s/^$1: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -n 1; }
    ok=$(count "Ok"); fail=$(count "Fail"); xpass=$(count "Unexpected Pass")
    timeout=$(count "Timeout"); skipped=$(count "Skipped")
    failed=$(( ${fail:-0} + ${xpass:-0} + ${timeout:-0} ))
    [ -n "$ok" ] || failed=$(( failed + 1 ))
    echo "== $name: ${ok:-0} passed, $failed failed, ${skipped:-0} skipped"
    total_ok=$((total_ok + ${ok:-0}))
    total_failed=$((total_failed + failed))
    total_skipped=$((total_skipped + ${skipped:-0}))
}

# 1. Every suite, as users build it.
run_suites "all suites" "$top/build-test" -- 
# 2. Every suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
run_suites "sanitizers (ASan+UBSan)" "$top/build-asan" -Db_sanitize=address,undefined \
    -Db_lundef=false -Dc_args=-fno-sanitize-recover=all -- --no-suite bench
unset ASAN_OPTIONS UBSAN_OPTIONS
# 3. The corpus round trips and the reader under valgrind memcheck.
run_suites "valgrind memcheck" "$top/build-test" -- --setup=valgrind test_corpus test_reader
# 4. gzip without zlib (-Dzlib=disabled): gzip input and output fail cleanly,
# and iprof_features() says so.
run_suites "without zlib" "$top/build-nozlib" -Dzlib=disabled -- test_gzip test_version
# 5. The tests of what runs on two threads (the threaded load, the streaming
# merge's reading and merging threads, the model merge's walking and merging
# threads, the canonical write's jobs, the names index filled in halves)
# under ThreadSanitizer; only they are built.
tsan_tests="test_merge_stream test_merge test_load_threaded test_threads test_transform test_model"
compile_targets=$(for t in $tsan_tests; do printf 'tests/%s ' "$t"; done)
export TSAN_OPTIONS="halt_on_error=1"
# shellcheck disable=SC2086
run_suites "ThreadSanitizer" "$top/build-tsan" -Db_sanitize=thread -Dbuildtype=debugoptimized -- \
    --no-rebuild $tsan_tests
unset TSAN_OPTIONS compile_targets
# 6-7. Other systems: only the library, the command and the C tests
# (suites unit and api) are built; docs/architecture.md, "Platforms".
c_tests=$(sed -n '/^internal_tests = \[/,/^\]/p;/^api_tests = \[/,/^\]/p' "$top/tests/meson.build" |
          grep -o "test_[a-z_]*" | sed 's|^|tests/|' | tr '\n' ' ')
# 6. musl: built with musl-gcc (musl-tools), without zlib (Debian has no
# zlib for musl), so that static and Alpine-style images can link it.
if iprof_need musl-gcc:musl-tools; then
    compile_targets="tools/iprof $c_tests"
    export CC=musl-gcc
    run_suites "musl (musl-gcc, without zlib)" "$top/build-musl" -Dzlib=disabled -- \
        --no-rebuild --suite unit --suite api --timeout-multiplier 3
    unset CC compile_targets
else
    echo "== musl: skipped: musl-tools cannot be installed"
    total_skipped=$((total_skipped + 1))
fi
# 7. Windows: iprof.dll, iprof.exe and the C tests built with mingw-w64
# (cross/x86_64-w64-mingw32.ini; zlib where a mingw zlib is found, none in
# Debian) and run under wine64 in a WINEPREFIX of their own; the
# DLL's exports against libiprof.map (suite windows).
if iprof_need x86_64-w64-mingw32-gcc-posix:gcc-mingw-w64-x86-64 /usr/lib/wine/wine64:wine64; then
    compile_targets="tools/iprof $c_tests"
    # One WINEPREFIX, made before the tests run two at a time (~12 s, once).
    export IPROF_WINEPREFIX="$top/build-wine-prefix"
    WINEPREFIX="$IPROF_WINEPREFIX" WINEDEBUG=-all /usr/lib/wine/wine64 wineboot --init \
        >/dev/null 2>&1
    run_suites "Windows (mingw-w64, wine64)" "$top/build-win" \
        --cross-file "$top/cross/x86_64-w64-mingw32.ini" -Dzlib=auto -- \
        --no-rebuild --suite unit --suite api --suite windows --timeout-multiplier 3
    unset compile_targets IPROF_WINEPREFIX
else
    echo "== Windows: skipped: gcc-mingw-w64-x86-64 or wine64 cannot be installed"
    total_skipped=$((total_skipped + 1))
fi

echo "$total_ok passed, $total_failed failed, $total_skipped skipped"
[ "$total_failed" -eq 0 ]
