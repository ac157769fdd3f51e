#!/bin/sh
# Run the libFuzzer harnesses (docs/robustness.md, "Fuzzing").
#
# usage: scripts/fuzz.sh [SECONDS] [HARNESS...]
#   SECONDS  time per harness (default 600)
#   HARNESS  reader, roundtrip, merge, ctx (default: all, one after the other)
#
# Builds the fuzzers with clang in build-fuzz (-Dfuzzing=true), generates
# extra seeds from ../shared/corpus into a temporary directory, runs each
# harness with the dictionary fuzz/iprof.dict and -jobs=1, merges inputs
# that add coverage into fuzz/corpus/<name>/ (-merge=1), copies any crash,
# leak, timeout or out-of-memory input into fuzz/crashes/<name>/, and
# prints per harness: executions, exec/s, cov, ft and crashes found.
# Two instances may run at once (the build is serialised with flock).
# Environment: FUZZ_ARGS (extra libFuzzer flags), IPROF_CORPUS_DIR.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-600}
[ $# -gt 0 ] && shift
harnesses=${*:-reader roundtrip merge ctx}
build="$top/build-fuzz"
corpus_dir=${IPROF_CORPUS_DIR:-$top/../shared/corpus}

command -v clang >/dev/null || { echo "fuzz.sh: clang not found" >&2; exit 1; }

# Build (serialised: two instances of this script may run side by side).
mkdir -p "$build"
(
    flock 9
    if [ ! -f "$build/build.ninja" ]; then
        CC=clang meson setup "$build" "$top" -Dfuzzing=true -Dwerror=true >/dev/null
    fi
    targets=""
    for h in $harnesses; do targets="$targets fuzz/fuzz_$h"; done
    ninja -C "$build" $targets >/dev/null
) 9>"$build/.fuzz-build.lock"

work=$(mktemp -d "${TMPDIR:-/tmp}/iprof-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

seeds="$work/seeds"
mkdir -p "$seeds"
if [ -f "$corpus_dir/README.md" ] && command -v python3 >/dev/null; then
    python3 "$top/fuzz/gen_seeds.py" "$corpus_dir" "$seeds"
else
    echo "fuzz.sh: no $corpus_dir: only the saved corpus as seeds" >&2
fi

summary="$work/summary"
: >"$summary"
for h in $harnesses; do
    bin="$build/fuzz/fuzz_$h"
    [ -x "$bin" ] || { echo "fuzz.sh: unknown harness $h" >&2; exit 1; }
    hw="$work/$h"
    mkdir -p "$hw/new" "$hw/artifacts" "$seeds/$h" "$top/fuzz/corpus/$h" "$top/fuzz/crashes/$h"
    echo "== fuzz_$h: $secs s" >&2
    # -jobs=1: one worker process, its output in fuzz-0.log of the cwd.
    (cd "$hw" && "$bin" -dict="$top/fuzz/iprof.dict" -jobs=1 -max_total_time="$secs" \
        -print_final_stats=1 -artifact_prefix="$hw/artifacts/" -timeout=10 -rss_limit_mb=2048 \
        ${FUZZ_ARGS:-} "$hw/new" "$top/fuzz/corpus/$h" "$seeds/$h" >"$hw/driver.log" 2>&1) || true
    log="$hw/fuzz-0.log"
    [ -f "$log" ] || log="$hw/driver.log"
    cp "$log" "$top/build-fuzz/fuzz_$h.log" 2>/dev/null || true
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    last=$(grep -E '(NEW|REDUCE|pulse|INITED|DONE|RELOAD) +cov: ' "$log" | tail -n 1 || true)
    cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    # Keep what adds coverage: a greedy set cover of the saved corpus and
    # the new inputs replaces the saved corpus; the hand-written seed_*
    # files always stay. The generated seeds are not merged: they are
    # slices of real profiles and stay out of the repository.
    # When the cover of every feature (edges with hit-count buckets) is
    # over the budget of about 300 files and 2 MiB, cover the edges only.
    before=$(ls "$top/fuzz/corpus/$h" | wc -l)
    for mode in counters edges; do
        rm -rf "$hw/min"
        mkdir -p "$hw/min"
        flags=""
        [ $mode = edges ] && flags="-use_counters=0"
        if ! "$bin" -set_cover_merge=1 $flags -timeout=10 -rss_limit_mb=2048 "$hw/min" \
            "$top/fuzz/corpus/$h" "$hw/new" >"$hw/merge.log" 2>&1; then
            echo "fuzz.sh: merge of fuzz_$h failed, see $hw/merge.log" >&2
            rm -rf "$hw/min"
            break
        fi
        for f in "$top/fuzz/corpus/$h"/seed_*; do
            [ -f "$f" ] && rm -f "$hw/min/$(sha1sum "$f" | cut -d' ' -f1)"
        done
        n=$(ls "$hw/min" | wc -l)
        kib=$(du -sk "$hw/min" | cut -f1)
        [ "$n" -le 280 ] && [ "$kib" -le 1900 ] && break
    done
    if [ -d "$hw/min" ]; then
        find "$top/fuzz/corpus/$h" -type f ! -name 'seed_*' -delete
        cp "$hw/min"/* "$top/fuzz/corpus/$h/" 2>/dev/null || true
    fi
    after=$(ls "$top/fuzz/corpus/$h" | wc -l)
    size=$(du -sk "$top/fuzz/corpus/$h" | cut -f1)
    if [ "$after" -gt 300 ] || [ "$size" -gt 2048 ]; then
        echo "fuzz.sh: fuzz/corpus/$h holds $after files, $size KiB: over the 300 files / 2 MiB budget" >&2
    fi
    crashes=0
    for f in "$hw"/artifacts/crash-* "$hw"/artifacts/leak-* "$hw"/artifacts/timeout-* \
             "$hw"/artifacts/oom-*; do
        [ -f "$f" ] || continue
        cp "$f" "$top/fuzz/crashes/$h/"
        crashes=$((crashes + 1))
        echo "fuzz.sh: fuzz_$h: $(basename "$f") saved in fuzz/crashes/$h/" >&2
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*invariant broken|.*runtime error)' "$log" \
            | head -n 5 >&2 || true
    done
    printf '%-10s executions %-10s exec/s %-6s cov %-6s ft %-6s corpus %s->%s crashes %s\n' \
        "$h" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$before" "$after" "$crashes" \
        >>"$summary"
done
echo "== summary ($secs s per harness)"
cat "$summary"
