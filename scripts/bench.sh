#!/bin/sh
# Benchmarks of libiprof against its peers on one generated file.
#
#   scripts/bench.sh [--size 100M] [--rounds 5] [--big] [--smoke] [--no-real]
#                    [--tasks 'TASK ...']
#
# Builds an optimised build (build-bench: buildtype=release, b_ndebug=true;
# or the build dir in $IPROF_BUILD_DIR), generates the input with iprof-gen
# when it is not cached ($IPROF_BENCH_DIR, default /tmp/iprof-bench), installs
# the peers when missing (libsimdjson-dev, libjansson-dev, python3; Debian)
# and runs every task in its own process, alternating the tasks within each
# round, then prints the medians, the ratios against the peers and the
# PASS/FAIL of each target. --big adds a streaming scan of a 1 GB file (the
# bounded-memory claim).
#
# Issue 32's targets (model load and round trip against yyjson, peak RSS
# against the file) are measured on the generated file and on a real
# profile (../shared/corpus/jsonata-cli-0.4.0.iprof) scaled to the same
# size by bench/scale_profile.py: per-round ratios of tasks run one after
# the other (A B A B), their median and range. The merge targets too: the
# generated files merged (four seeds), and the real profile merged with
# itself (real_merge2, real_merge4) against its own loads and write. yyjson is built from
# ../shared/peers/yyjson when present (else skipped, saying so); the real
# profile is skipped when the corpus is absent or with --no-real. Summing
# every record of the loaded model from Python (Model.columns and numpy,
# bench/columns_python.py), and from Java (Model.columns, BenchJava.java
# columns), is compared with the same loop in C (bench_columns), in this
# thread's CPU time. --tasks runs only the named
# tasks (e.g. --tasks 'load_threaded yyjson_load'); targets whose tasks did
# not run are skipped.
#
# --smoke: a ~2 MB file, one round, no installation (missing peers are
# skipped), checks only that every benchmark runs, that the generated files
# pass `iprof validate --strict` and that round trips are byte-identical.
# Exits non-zero on failure. Run by `meson test --suite bench`; it then uses
# $IPROF_BUILD_DIR, or the meson build dir it runs in, or builds build-bench.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

size=100M
rounds=5
smoke=0
big=0
noreal=0
only=""
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --smoke) smoke=1; shift ;;
    --big) big=1; shift ;;
    --no-real) noreal=1; shift ;;
    --tasks) only=$2; shift 2 ;;
    -h|--help) sed -n '2,36p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ $smoke -eq 1 ]; then
    size=2M
    rounds=1
    big=0
fi

say() { printf '%s\n' "$*" >&2; }
die() { say "bench.sh: $*"; exit 1; }

# ---- build tools and peers ---------------------------------------------
if [ $smoke -eq 0 ]; then
    . "$top/scripts/deps.sh" # meson, ninja, a compiler: as the other scripts
    iprof_need || die "could not install the build tools (scripts/deps.sh names them)"
fi
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
if [ $smoke -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    missing=""
    for p in libsimdjson-dev libjansson-dev python3 g++ pkg-config; do
        have_pkg "$p" || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        say "installing:$missing"
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq $missing >&2 ||
            say "bench.sh: could not install$missing; those peers are skipped"
        reconfigure=1
    fi
fi

# ---- build -------------------------------------------------------------
is_our_build() { [ -f "$1/build.ninja" ] && [ -f "$1/meson-info/intro-projectinfo.json" ] &&
                 grep -q '"libiprof"' "$1/meson-info/intro-projectinfo.json"; }
if [ -n "${IPROF_BUILD_DIR:-}" ]; then
    build=$IPROF_BUILD_DIR
elif [ $smoke -eq 1 ] && is_our_build "$PWD"; then
    build=$PWD # meson test runs in its build dir
else
    build=$top/build-bench
fi
if ! is_our_build "$build"; then
    say "configuring $build (release, b_ndebug=true)"
    meson setup "$build" "$top" --buildtype=release -Db_ndebug=true >/dev/null ||
        die "meson setup failed"
elif [ "${reconfigure:-0}" -eq 1 ]; then
    meson setup --reconfigure "$build" "$top" >/dev/null || die "meson reconfigure failed"
fi
targets="bench/iprof-gen bench/bench_scan bench/bench_load bench/bench_roundtrip bench/bench_merge bench/bench_memory bench/bench_visit bench/bench_columns tools/iprof"
for p in peer_jansson peer_simdjson peer_yyjson; do
    ninja -C "$build" -t query "bench/$p" >/dev/null 2>&1 && targets="$targets bench/$p"
done
# shellcheck disable=SC2086
ninja -C "$build" $targets >"${TMPDIR:-/tmp}/iprof-bench-build.$$" 2>&1 || {
    cat "${TMPDIR:-/tmp}/iprof-bench-build.$$" >&2; rm -f "${TMPDIR:-/tmp}/iprof-bench-build.$$"
    die "build failed"; }
rm -f "${TMPDIR:-/tmp}/iprof-bench-build.$$"
B=$build/bench
IPROF=$build/tools/iprof

# ---- input files -------------------------------------------------------
cache=${IPROF_BENCH_DIR:-/tmp/iprof-bench}
mkdir -p "$cache" || die "cannot create $cache"
# The cache key includes a checksum of the generator, so a changed generator
# regenerates.
genkey=$(cat "$top/bench/gen.c" "$top/bench/gen_tables.h" | cksum | cut -d' ' -f1)
gen_file() { # SIZE VERSION SEED -> prints the path
    f=$cache/gen-$1-$2-s$3-$genkey.iprof
    if [ ! -f "$f" ]; then
        say "generating $f"
        "$B/iprof-gen" --size "$1" --version "$2" --seed "$3" -o "$f.$$" &&
            mv "$f.$$" "$f" || { rm -f "$f.$$"; die "iprof-gen failed"; }
    fi
    printf '%s\n' "$f"
}
file=$(gen_file "$size" 1.0.0 1) || exit 1
m2=$(gen_file "$size" 1.0.0 2) || exit 1
m3=$(gen_file "$size" 1.0.0 3) || exit 1
m4=$(gen_file "$size" 1.0.0 4) || exit 1
fsize=$(wc -c <"$file" | tr -d ' ')

# A real profile scaled to the generated file's size (about; smoke: 2 copies).
real=""
corpus_real=$top/../shared/corpus/jsonata-cli-0.4.0.iprof
if [ $noreal -eq 0 ] && [ -f "$corpus_real" ] && command -v python3 >/dev/null 2>&1; then
    rsize=$size
    [ $smoke -eq 1 ] && rsize=8M
    real=$cache/jsonata-$rsize-$(cksum <"$top/bench/scale_profile.py" | cut -d' ' -f1).iprof
    if [ ! -f "$real" ]; then
        say "scaling $corpus_real to $rsize"
        python3 "$top/bench/scale_profile.py" --size "$rsize" "$corpus_real" "$real.$$" >&2 &&
            mv "$real.$$" "$real" || { rm -f "$real.$$"; die "scale_profile.py failed"; }
    fi
    rfsize=$(wc -c <"$real" | tr -d ' ')
elif [ $noreal -eq 0 ]; then
    say "no ../shared/corpus (or python3): the real profile is skipped"
fi

failures=0
fail() { say "FAIL: $*"; failures=$((failures + 1)); }

if [ $smoke -eq 1 ]; then
    # every version: valid in strict mode, byte-identical round trip
    for v in 0.4.0 1.0.0 1.1.0; do
        f=$(gen_file 300K $v 7) || exit 1
        "$IPROF" validate --strict "$f" >/dev/null 2>&1 || fail "iprof validate --strict $f"
        "$B/bench_roundtrip" mem "$f" >/dev/null || fail "round trip of $f"
    done
    "$IPROF" validate --strict "$file" >/dev/null 2>&1 || fail "iprof validate --strict $file"
    if [ -n "$real" ]; then
        "$IPROF" validate --strict "$real" >/dev/null 2>&1 || fail "iprof validate --strict $real"
        "$B/bench_roundtrip" mem "$real" >/dev/null || fail "round trip of $real"
    fi
fi

# ---- tasks -------------------------------------------------------------
results=$cache/results.$$
: >"$results"
trap 'rm -f "$results" "$cache/rt.$$.iprof" "$cache/rt.$$.json"' EXIT
pybin=$(command -v python3 || true)
time_bin=""
[ -x /usr/bin/time ] && time_bin=/usr/bin/time

# Issue 32's pairs run one after the other: load_threaded yyjson_load,
# roundtrip_file_threaded yyjson_roundtrip.
have_yy=0
[ -x "$B/peer_yyjson" ] && have_yy=1 ||
    say "yyjson peer not built (no ../shared/peers/yyjson): its comparisons are skipped"
yy() { [ $have_yy -eq 1 ] && printf ' %s' "$@"; }
tasks="cat scan scan_norefs load load_threaded$(yy yyjson_load) roundtrip_mem roundtrip_mem_threaded"
tasks="$tasks roundtrip_file roundtrip_file_threaded$(yy yyjson_roundtrip) write canonical merge2 merge4"
# The same pairs on the scaled real profile (tasks named real_*), and its
# merges with itself (real_merge2, real_merge4: every element found, where
# the generated files' merges add most of theirs) against its own loads
# and write.
rtasks="real_load_threaded$(yy real_yyjson_load) real_roundtrip_file_threaded$(yy real_yyjson_roundtrip)"
rtasks="$rtasks real_write real_merge2 real_merge4"
[ -n "$real" ] && tasks="$tasks $rtasks"
[ -x "$B/peer_simdjson" ] && tasks="$tasks simdjson_dom" || say "simdjson peer not built: skipped"
[ -x "$B/peer_jansson" ] && tasks="$tasks jansson_load jansson_roundtrip" ||
    say "jansson peer not built: skipped"
[ -n "$pybin" ] && tasks="$tasks python_load python_roundtrip" || say "python3 missing: skipped"
# The Java binding (bench/BenchJava.java) against the C loops, when a JDK 22+
# is found (bindings/java/build.sh jdk) and its jar builds.
tasks="$tasks visit"
jdk=$("$top/bindings/java/build.sh" jdk 2>/dev/null) &&
    "$top/bindings/java/build.sh" jar "$build/java" >/dev/null 2>&1 &&
    jar=$(ls -t "$build"/java/iprof-*.jar 2>/dev/null | head -n 1) && [ -n "$jar" ] &&
    tasks="$tasks java_load java_visit java_entries java_columns" || say "no JDK 22 or later: Java tasks skipped"
# The columns from Python need numpy: the first python3 that imports it.
pynumpy=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' >/dev/null 2>&1; then
        pynumpy=$(command -v "$p"); break
    fi
done
[ -n "$pynumpy" ] && tasks="$tasks columns_c columns_python" ||
    { tasks="$tasks columns_c"; say "no python3 with numpy: the columns from Python are skipped"; }
if [ -n "$only" ]; then
    keep=""
    for t in $tasks; do
        case " $only " in *" $t "*) keep="$keep $t" ;; esac
    done
    tasks=$keep
fi

# run_task NAME: runs one measurement, appends "NAME WALL RSS_KB BYTES EXTRA..."
run_task() {
    name=$1
    case $name in
    cat)
        if [ -n "$time_bin" ]; then
            out=$( { $time_bin -f 'TIME %e %M' sh -c "t0=\$(date +%s%N); cat '$file' >/dev/null; t1=\$(date +%s%N); echo WALLNS \$((t1 - t0))"; } 2>&1)
        else
            out=$(sh -c "t0=\$(date +%s%N); cat '$file' >/dev/null; t1=\$(date +%s%N); echo WALLNS \$((t1 - t0))")
        fi
        ns=$(printf '%s\n' "$out" | sed -n 's/^WALLNS //p')
        rss=$(printf '%s\n' "$out" | sed -n 's/^TIME [^ ]* //p')
        [ -n "$ns" ] || { fail "cat"; return; }
        echo "cat $(awk "BEGIN{printf \"%.6f\", $ns/1e9}") ${rss:--} $fsize" >>"$results"
        return ;;
    real_*) # the same task on the scaled real profile (own variables:
            # run_task's are global and the inner call sets them)
        rname=$name
        rbase=${name#real_}
        rn0=$(wc -l <"$results")
        kf=$file k2=$m2 k3=$m3 k4=$m4
        file=$real m2=$real m3=$real m4=$real
        run_task "$rbase"
        file=$kf m2=$k2 m3=$k3 m4=$k4
        rn1=$(wc -l <"$results")
        [ "$rn1" -gt "$rn0" ] && sed -i "${rn1}s/^$rbase /$rname /" "$results"
        return ;;
    *_threaded) # the same program, its loads with IPROF_READ_THREADED
        tname=$name
        base=${name%_threaded}
        n0=$(wc -l <"$results")
        IPROF_BENCH_THREADED=1
        export IPROF_BENCH_THREADED
        run_task "$base"
        unset IPROF_BENCH_THREADED
        n1=$(wc -l <"$results")
        [ "$n1" -gt "$n0" ] && sed -i "${n1}s/^$base /$tname /" "$results"
        return ;;
    scan) set -- "$B/bench_scan" "$file" ;;
    scan_norefs) set -- "$B/bench_scan" --no-refs "$file" ;;
    scan_big) set -- "$B/bench_scan" "$bigfile" ;;
    scan_norefs_big) set -- "$B/bench_scan" --no-refs "$bigfile" ;;
    load) set -- "$B/bench_load" "$file" ;;
    roundtrip_mem) set -- "$B/bench_roundtrip" mem "$file" ;;
    roundtrip_file) set -- "$B/bench_roundtrip" file "$file" "$cache/rt.$$.iprof" ;;
    write) set -- "$B/bench_roundtrip" write "$file" ;;
    canonical) set -- "$B/bench_roundtrip" canonical "$file" ;;
    merge2) set -- "$B/bench_merge" "$file" "$m2" ;;
    merge4) set -- "$B/bench_merge" "$file" "$m2" "$m3" "$m4" ;;
    simdjson_dom) set -- "$B/peer_simdjson" "$file" ;;
    yyjson_load) set -- "$B/peer_yyjson" load "$file" ;;
    columns_c) set -- env IPROF_BENCH_THREADED=1 "$B/bench_columns" "$file" ;;
    columns_python) set -- env IPROF_LIBRARY="$build/lib/libiprof.so" "$pynumpy" "$top/bench/columns_python.py" "$file" ;;
    yyjson_roundtrip) set -- "$B/peer_yyjson" roundtrip "$file" "$cache/rt.$$.json" ;;
    jansson_load) set -- "$B/peer_jansson" load "$file" ;;
    jansson_roundtrip) set -- "$B/peer_jansson" dump "$file" ;;
    python_load) set -- "$pybin" "$top/bench/peer_python.py" load "$file" ;;
    python_roundtrip) set -- "$pybin" "$top/bench/peer_python.py" dump "$file" ;;
    visit) set -- "$B/bench_visit" "$file" ;;
    java_*) set -- env IPROF_LIBRARY="$build/lib/libiprof.so.1" "$jdk/bin/java" \
                --enable-native-access=org.libiprof -p "$jar" --add-modules org.libiprof \
                "$top/bench/BenchJava.java" "${name#java_}" "$file" "$top/examples/fib.iprof" ;;
    *) die "unknown task $name" ;;
    esac
    out=$("$@")
    rc=$?
    line=$(printf '%s\n' "$out" | grep '^RESULT ')
    if [ $rc -ne 0 ] || [ -z "$line" ]; then
        fail "$name ($*)"
        return
    fi
    case $line in *identical=no*) fail "$name: output differs from the input" ;; esac
    case $line in *idempotent=no*) fail "$name: a second canonical pass changed the output" ;; esac
    # RESULT task=X wall_s=W rss_kb=R bytes=B extra...
    printf '%s\n' "$line" | awk -v n="$name" '{
        w = r = b = ""; extra = ""
        for (i = 2; i <= NF; i++) {
            split($i, kv, "=")
            if (kv[1] == "wall_s") w = kv[2]
            else if (kv[1] == "rss_kb") r = kv[2]
            else if (kv[1] == "bytes") b = kv[2]
            else if (kv[1] != "task") extra = extra " " $i
        }
        print n, w, r, b extra }' >>"$results"
}

say "input: $file ($fsize bytes); $rounds round(s); build: $build"
r=1
while [ $r -le "$rounds" ]; do
    say "round $r/$rounds"
    for t in $tasks; do
        run_task "$t"
    done
    r=$((r + 1))
done

if [ $big -eq 1 ]; then
    bigfile=$(gen_file 1G 1.0.0 1) || exit 1
    bigsize=$(wc -c <"$bigfile" | tr -d ' ')
    say "big file: $bigfile ($bigsize bytes)"
    for t in scan_big scan_norefs_big; do run_task $t; done
fi

# ---- report ------------------------------------------------------------
awk -v fsize="$fsize" -v smoke="$smoke" -v size="$size" -v only="$only" -v rounds="$rounds" '
# The median of a[1..n] ("" when n is 0); sorts a.
function median_of(a, n,   i, j, t) {
    if (!n) return ""
    for (i = 2; i <= n; i++) { t = a[i]; j = i - 1; while (j > 0 && a[j] > t) { a[j+1] = a[j]; j-- }; a[j+1] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function median(name,   n, i, a) {
    n = cnt[name]
    for (i = 1; i <= n; i++) a[i] = wall[name, i]
    return median_of(a, n)
}
# The median over the rounds of an extra field of a task ("" if absent);
# field "first_s" is wall - merge_s - write_s (the first load of a merge).
function xmed(name, key,   n, i, a) {
    n = 0
    for (i = 1; i <= cnt[name]; i++) {
        if (key == "first_s") {
            if (xv[name, "merge_s", i] == "" || xv[name, "write_s", i] == "") continue
            a[++n] = wall[name, i] - xv[name, "merge_s", i] - xv[name, "write_s", i]
        } else if (xv[name, key, i] != "") a[++n] = xv[name, key, i]
    }
    return median_of(a, n)
}
# A value of a task in round i: its wall time, or its cpu_s field.
function val(name, i, what) { return what == "cpu" ? xv[name, "cpu_s", i] : what == "kept_cpu" ? xv[name, "kept_cpu_s", i] : wall[name, i] }
# Ratios a/b of the rounds where both ran (they run one after the other):
# sets r_med, r_min, r_max, r_n; returns r_med ("" when none).
function pair(a, b, what,   i, n, r, x) {
    n = 0
    for (i = 1; i <= cnt[a] && i <= cnt[b]; i++)
        if (val(a, i, what) != "" && val(b, i, what) > 0) {
            x = val(a, i, what) / val(b, i, what); r[++n] = x
            if (n == 1 || x < r_min) r_min = x
            if (n == 1 || x > r_max) r_max = x
        }
    r_n = n
    r_med = median_of(r, n)
    return r_med
}
# One PASS/FAIL line of a ratio against its limit.
function target(label, a, b, what, limit,   m) {
    m = pair(a, b, what)
    if (m == "") { printf "  SKIP %s (not measured)\n", label; return }
    printf "  %-4s %s <= %.2f x: x%.2f (range %.2f-%.2f over %d rounds; medians %.4f s vs %.4f s)\n", (m <= limit ? "PASS" : "FAIL"), label, limit, m, r_min, r_max, r_n, (what == "wall" ? med[a] : xmed(a, what "_s")), (what == "wall" ? med[b] : xmed(b, what "_s"))
}
# Issue 32: the model against yyjson on one file (tasks prefixed p).
function issue32(p, label, fbytes,   lr, yr) {
    printf "\ntargets against yyjson (%s, %d bytes):\n", label, fbytes
    if (!((p "load_threaded") in med)) { printf "  SKIP (not measured)\n"; return }
    if ((p "yyjson_load") in med) {
        target("model load (threaded) wall vs yyjson read + walk", p "load_threaded", p "yyjson_load", "wall", 1.0)
        target("model load (threaded) CPU vs yyjson read + walk", p "load_threaded", p "yyjson_load", "cpu", 1.3)
        target("round trip (threaded, to a file, as iprof cat) wall vs yyjson read + write", p "roundtrip_file_threaded", p "yyjson_roundtrip", "wall", 1.0)
        target("round trip (threaded, to a file, as iprof cat) CPU vs yyjson read + write", p "roundtrip_file_threaded", p "yyjson_roundtrip", "cpu", 1.0)
        yr = maxrss(p "yyjson_load") * 1024
        printf "       yyjson peak RSS %.1f MiB = %.2f x file; its round trip identical: %s\n", yr / 1048576, yr / fbytes, extra[p "yyjson_roundtrip", "identical"]
    } else {
        printf "  SKIP model load and round trip vs yyjson (no yyjson peer)\n"
    }
    lr = maxrss(p "load_threaded") * 1024
    printf "  %-4s model peak RSS <= 1.25 x file: %.1f MiB = %.2f x file\n", (lr <= 1.25 * fbytes ? "PASS" : "FAIL"), lr / 1048576, lr / fbytes
}
function maxrss(name,   i, m) { m = 0; for (i = 1; i <= cnt[name]; i++) if (rss[name, i] + 0 > m) m = rss[name, i] + 0; return m }
function ratio(a, b) { return (a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "-" }
{
    n = $1; cnt[n]++; wall[n, cnt[n]] = $2; rss[n, cnt[n]] = $3; bytes[n] = $4
    if (!(n in seen)) { seen[n] = 1; order[++norder] = n }
    for (i = 5; i <= NF; i++) { split($i, kv, "="); extra[n, kv[1]] = kv[2]; xv[n, kv[1], cnt[n]] = kv[2] }
}
END {
    for (i = 1; i <= norder; i++) { n = order[i]; med[n] = median(n) }
    simd = med["simdjson_dom"]; jl = med["jansson_load"]; jr = med["jansson_roundtrip"]
    pl = med["python_load"]; pr = med["python_roundtrip"]
    printf "\n%-30s %10s %9s %8s %10s %9s %9s %9s %9s %9s\n", "task", "wall (s)", "CPU (s)", "MB/s", "RSS (MiB)", "x simd", "x yyjson", "x jansson", "x python", "RSS/file"
    for (i = 1; i <= norder; i++) {
        n = order[i]; m = med[n]
        rt = (n ~ /roundtrip/)
        rs = maxrss(n)
        c = xmed(n, "cpu_s"); yp = (n ~ /^real_/) ? "real_" : ""
        printf "%-30s %10.4f %9s %8.1f %10s %9s %9s %9s %9s %9s\n", n, m, (c != "" ? sprintf("%.4f", c) : "-"), (m > 0 ? bytes[n] / m / 1e6 : 0),
            (rs > 0 ? sprintf("%.1f", rs / 1024) : "-"), (yp == "" ? ratio(m, simd) : "-"), ratio(m, med[yp (rt ? "yyjson_roundtrip" : "yyjson_load")]),
            (yp == "" ? ratio(m, rt ? jr : jl) : "-"), (yp == "" ? ratio(m, rt ? pr : pl) : "-"), (rs > 0 ? sprintf("%.2f", rs * 1024 / bytes[n]) : "-")
    }
    printf "(medians of %d round(s); MB = 10^6 bytes; x peer = time / peer time: jansson and python\n", rounds
    printf " rows compare loads with loads and round trips with round trips; RSS = max over rounds;\n"
    printf " CPU = user + system time of the timed span, every thread; real_* rows: the scaled real profile)\n"
    if (smoke) exit 0
    if (only != "") {
        issue32_all(); merge_targets("\nmerge targets (the others need every task):\n", "")
        merge_targets("\nmerge targets, the real profile merged with itself:\n", "real_"); exit 0
    }
    printf "\ntargets (file %s, %d bytes):\n", size, fsize
    ld = med["load_threaded"]; l1 = med["load"]; sc = med["scan"]
    if (simd != "") {
        printf "  %-4s model load <= simdjson DOM: %.3f s vs %.3f s (x%.2f) with IPROF_READ_THREADED; on one thread %.3f s (x%.2f)\n", (ld <= simd ? "PASS" : "FAIL"), ld, simd, ld / simd, l1, l1 / simd
        ok = (sc <= 0.5 * simd && maxrss("scan") <= 16384)
        printf "  %-4s streaming scan <= 0.5 x simdjson DOM, RSS <= 16 MiB: %.3f s = x%.2f of simdjson, RSS %.1f MiB\n", (ok ? "PASS" : "FAIL"), sc, sc / simd, maxrss("scan") / 1024
    } else {
        printf "  SKIP model load and streaming scan vs simdjson (no simdjson peer)\n"
    }
    if ("scan_big" in med) {
        printf "  %-4s streaming scan of %d bytes in RSS <= 16 MiB: %.1f MiB (%.2f s); without references %.1f MiB\n", (maxrss("scan_big") <= 16384 ? "PASS" : "FAIL"), bytes["scan_big"], maxrss("scan_big") / 1024, med["scan_big"], maxrss("scan_norefs_big") / 1024
    }
    lr = maxrss("load") * 1024
    printf "  %-4s model peak RSS <= 0.5 x file size: %.1f MiB = %.2f x file\n", (lr <= 0.5 * fsize ? "PASS" : "FAIL"), lr / 1048576, lr / fsize
    rm = med["roundtrip_mem_threaded"]; r1 = med["roundtrip_mem"]
    id = 1
    split("roundtrip_mem roundtrip_file roundtrip_mem_threaded roundtrip_file_threaded", rts, " ")
    for (i in rts) if (extra[rts[i], "identical"] != "yes") id = 0
    if (pr != "" && jr != "") {
        ok = (pr / rm >= 10 && jr / rm >= 10 && id)
        printf "  %-4s round trip >= 10x faster than python and jansson, byte-identical: python x%.1f, jansson x%.1f with IPROF_READ_THREADED (one thread: x%.1f, x%.1f), identical %s\n", (ok ? "PASS" : "FAIL"), pr / rm, jr / rm, pr / r1, jr / r1, (id ? "yes" : "no")
    } else {
        printf "  SKIP round trip vs python/jansson (peer missing); identical %s\n", (id ? "yes" : "no")
    }
    wr = bytes["write"] / med["write"] / 1e9
    printf "  %-4s write >= 1 GB/s: %.2f GB/s\n", (wr >= 1 ? "PASS" : "FAIL"), wr
    p2 = med["merge2"] / bytes["merge2"] * 1e6; p4 = med["merge4"] / bytes["merge4"] * 1e6
    printf "  %-4s merge linear in input (per-MB time of 4 files / 2 files <= 1.25): %.2f ms/MB vs %.2f ms/MB = x%.2f (merge part alone: %.3f s vs %.3f s)\n", (p4 / p2 <= 1.25 ? "PASS" : "FAIL"), p4 * 1000, p2 * 1000, p4 / p2, extra["merge4", "merge_s"], extra["merge2", "merge_s"]
    merge_targets("", "")
    merge_targets("\nmerge targets, the real profile merged with itself:\n", "real_")
    if ("java_load" in med) {
        jl = med["java_load"]; jv = med["java_visit"]; cv = med["visit"]
        printf "  %-4s Java load <= 1.1 x C load: %.3f s vs %.3f s = x%.2f\n", (jl <= 1.1 * l1 ? "PASS" : "FAIL"), jl, l1, jl / l1
        printf "  %-4s Java visit of every entry and record <= 2 x C (fastest of 10 passes): %.2f ms vs %.2f ms = x%.2f (first pass %.0f ms vs %.1f ms; through Entry objects %.1f ms = x%.1f)\n", (jv <= 2 * cv ? "PASS" : "FAIL"), jv * 1000, cv * 1000, jv / cv, xmed("java_visit", "first_s") * 1000, xmed("visit", "first_s") * 1000, med["java_entries"] * 1000, med["java_entries"] / cv
    }
    cn = med["canonical"]; r1 = med["roundtrip_mem"]
    printf "  %-4s canonical form <= 1.5 x round trip: %.3f s vs %.3f s = x%.2f\n", (cn <= 1.5 * r1 ? "PASS" : "FAIL"), cn, r1, cn / r1
    issue32_all()
}
# The targets of issue 14, for the merges that ran (merge2, merge4; with
# --tasks too, when load_threaded and write ran beside them): a merge of N
# files (threaded, streaming, written in canonical form) against N threaded
# loads and a write of its result (at the speed of the write task); its
# peak memory against that of the result; both cores busy. p: "" for the
# generated files, "real_" for the real profile merged with itself.
function merge_targets(header, p,   n, m, t, wr, b, pk, rs, cpu) {
    if (!((p "load_threaded") in med) || !((p "write") in med) || (!((p "merge2") in med) && !((p "merge4") in med))) return
    printf "%s", header
    for (n = 2; n <= 4; n += 2) {
        m = p "merge" n
        if (!(m in med)) continue
        t = med[m]; wr = med[p "write"] / bytes[p "write"] * extra[m, "out_bytes"]
        b = 1.3 * (n * med[p "load_threaded"] + wr)
        printf "  %-4s merge of %d <= 1.3 x (%d threaded loads + a write of the result): %.3f s vs %.3f s = x%.2f of the bound\n", (t <= b ? "PASS" : "FAIL"), n, n, t, b, t / b
        # Where the time goes, against the parts of the bound (medians).
        printf "       first load %.3f s + streaming merges %.3f s + canonical write %.3f s, against %d threaded loads %.3f s + a write %.3f s\n", xmed(m, "first_s"), xmed(m, "merge_s"), xmed(m, "write_s"), n, n * med[p "load_threaded"], wr
        pk = extra[m, "peak_mib"]; rs = extra[m, "result_mib"]
        printf "  %-4s merge of %d peak memory <= result + 64 MiB: %.0f MiB vs %.0f + 64 MiB\n", (pk <= rs + 64 ? "PASS" : "FAIL"), n, pk, rs
        cpu = extra[m, "cpu"]
        printf "  %-4s merge of %d keeps both cores busy (CPU time / wall >= 1.6): %.2f\n", (cpu >= 1.6 ? "PASS" : "FAIL"), n, cpu
    }
}
# Issue 32: the columns from Python against C, and the model against yyjson.
function issue32_all() {
    if ("columns_c" in med) {
        printf "\nsumming every record of the loaded model (%s), this thread'"'"'s CPU time:\n", size
        if ("columns_python" in med) {
            target("Python (Model.columns + numpy) vs C, columns kept", "columns_python", "columns_c", "kept_cpu", 1.5)
            target("Python vs C, first call (builds the columns)", "columns_python", "columns_c", "cpu", 1.5)
        } else printf "  SKIP Python (no python3 with numpy)\n"
        # Java: no target of its own, the ratios only (kept: fastest of 100 passes, JIT-compiled).
        if ("java_columns" in med) {
            if (pair("java_columns", "columns_c", "kept_cpu") != "")
                printf "       Java (Model.columns, MemorySegment) vs C, columns kept (Java: fastest of 100 passes): x%.2f (range %.2f-%.2f over %d rounds; medians %.4f s vs %.4f s; Java first pass %.4f s wall)\n", r_med, r_min, r_max, r_n, xmed("java_columns", "kept_cpu_s"), xmed("columns_c", "kept_cpu_s"), xmed("java_columns", "kept_first_s")
            if (pair("java_columns", "columns_c", "cpu") != "")
                printf "       Java vs C, first call (builds the columns): x%.2f (range %.2f-%.2f; medians %.4f s vs %.4f s)\n", r_med, r_min, r_max, xmed("java_columns", "cpu_s"), xmed("columns_c", "cpu_s")
            if (extra["java_columns", "sum"] != extra["columns_c", "sum"])
                printf "  FAIL Java sum %s differs from C sum %s\n", extra["java_columns", "sum"], extra["columns_c", "sum"]
        }
        printf "       C through the per-entry accessors: %.4f s wall; columns kept: %.4f s wall\n", xmed("columns_c", "by_entry_s"), xmed("columns_c", "kept_s")
    }
    issue32("", "generated " size, fsize)
    if ("real_load_threaded" in med) issue32("real_", "real profile scaled to " size, bytes["real_load_threaded"])
}' "$results"

# Where the model's memory goes (the parts of a loaded model, from its
# internal layout).
printf '\nmodel memory by part (%s):\n' "$file"
"$B/bench_memory" "$file" || fail "bench_memory"

if [ $failures -ne 0 ]; then
    say "bench.sh: $failures failure(s)"
    exit 1
fi
[ $smoke -eq 1 ] && say "bench.sh: smoke run OK"
exit 0
