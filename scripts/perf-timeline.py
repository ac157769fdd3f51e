#!/usr/bin/env python3
"""Where each thread's time went, window by window, from a perf recording.

    perf record -q -F 2000 -o perf.data build-bench/bench/bench_merge A B
    perf script -i perf.data -F tid,time,ip,sym | scripts/perf-timeline.py
    perf script -i perf.data -F tid,time,ip,sym | scripts/perf-timeline.py --from 0.6 --to 1.05

Without --from/--to: one line per window (--window seconds, default 0.05)
with each thread's sample count, its kernel share and its three hottest
symbols. With them: each thread's symbols over that span (times are
seconds from the first sample), most samples first, and its kernel share.
The thread of the first sample is "main" (the calling thread); every
other thread is "jobs": the library starts a thread per job (lib/common/
job.h), at most one beside the calling thread at a time, so one canonical
write shows a hundred thread ids that are, in time, one second thread.

What it is for: a merge or a canonical write runs on two threads, and what
limits it is which thread is busy when (the other waiting), not the sum of
samples a flat profile shows. Kernel samples (instruction addresses in the
upper half) are mostly page faults: docs/performance.md, eighth step.
Standard library only.
"""
import argparse
import collections
import sys

KERNEL = 1 << 63


def parse(lines):
    """(tid, seconds, ip, symbol) per sample line of `perf script -F
    tid,time,ip,sym`; other lines are skipped."""
    rows = []
    for line in lines:
        p = line.split()
        if len(p) < 3:
            continue
        try:
            tid = int(p[0])
            t = float(p[1].rstrip(":"))
            ip = int(p[2], 16)
        except ValueError:
            continue
        rows.append((tid, t, ip, p[3] if len(p) > 3 else "?"))
    return rows


THREADS = ("main", "jobs")


def thread_names(rows):
    """tid -> "main" for the first sample's thread, "jobs" for the rest."""
    main = rows[0][0]
    return {tid: "main" if tid == main else "jobs" for tid, _, _, _ in rows}


def timeline(rows, window, top=3):
    names = thread_names(rows)
    t0 = rows[0][1]
    buckets = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    kernel = collections.Counter()  # (window, thread) -> the kernel's samples
    for tid, t, ip, sym in rows:
        key = int((t - t0) / window), names[tid]
        buckets[key[0]][key[1]][sym] += 1
        kernel[key] += ip >= KERNEL
    out = []
    for b in sorted(buckets):
        parts = []
        for name in THREADS:
            c = buckets[b][name]
            k = kernel[b, name]
            n = sum(c.values())
            hot = ",".join("%s:%d" % (s[:24], v) for s, v in c.most_common(top))
            parts.append("%s=%d k%d%% [%s]" % (name, n, 100 * k // n if n else 0, hot))
        out.append("%6.2f %s" % (b * window, "  ".join(parts)))
    return out


def span(rows, start, end, top=18):
    names = thread_names(rows)
    t0 = rows[0][1]
    counts = {name: collections.Counter() for name in THREADS}
    kernel = collections.Counter()
    for tid, t, ip, sym in rows:
        if start <= t - t0 < end:
            counts[names[tid]][sym] += 1
            kernel[names[tid]] += ip >= KERNEL
    out = []
    for name, c in counts.items():
        n = sum(c.values())
        out.append("%s %d samples, kernel %d%%" % (name, n, 100 * kernel[name] // n if n else 0))
        for sym, v in c.most_common(top):
            out.append("  %6d %5.1f%% %s" % (v, 100.0 * v / n, sym))
    return out


def main(argv, stdin):
    ap = argparse.ArgumentParser(prog="perf-timeline.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("input", nargs="?", help="perf script output (default: stdin)")
    ap.add_argument("--window", type=float, default=0.05)
    ap.add_argument("--from", dest="start", type=float)
    ap.add_argument("--to", dest="end", type=float)
    o = ap.parse_args(argv)
    if o.window <= 0:
        raise SystemExit("perf-timeline: --window must be positive")
    if o.input:
        with open(o.input) as f:
            rows = parse(f)
    else:
        rows = parse(stdin)
    if not rows:
        raise SystemExit("perf-timeline: no samples (perf script -F tid,time,ip,sym)")
    if o.start is None and o.end is None:
        lines = timeline(rows, o.window)
    else:
        lines = span(rows, o.start if o.start is not None else 0.0,
                     o.end if o.end is not None else float("inf"))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], sys.stdin))
