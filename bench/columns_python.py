#!/usr/bin/env python3
"""Summing every record of a loaded model from Python (issue 32, item 2).

    IPROF_LIBRARY=build-bench/lib/libiprof.so python3 bench/columns_python.py FILE

Loads FILE (threaded, not timed), then times the sum of every record of
every kind through Model.columns and numpy (the first call builds the
columns in C), the same again (kept), in wall time and this thread's CPU
time (as bench_columns), and prints one RESULT line as the C
programs do (bench_common.h) with the sum modulo 2^64, which must equal
bench_columns's. ``--per-entry`` also times the loop over Entry objects
(slow: seconds on a 100 MB file). Needs numpy (Debian: python3-numpy).
"""
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bindings",
                                "python"))
import numpy  # noqa: E402
import iprof  # noqa: E402


def sum_columns(m):
    s = 0
    for kind in iprof.Kind:
        s += int(numpy.asarray(m.columns(kind).records).sum())   # int64, wraps as C
    return s % (1 << 64)


def main():
    per_entry = "--per-entry" in sys.argv[1:]
    path = [a for a in sys.argv[1:] if a != "--per-entry"][0]
    with iprof.load(path, threaded=True) as m:
        t0, c0 = time.perf_counter(), time.thread_time()
        first = sum_columns(m)
        t1, c1 = time.perf_counter(), time.thread_time()
        kept = sum_columns(m)
        t2, c2 = time.perf_counter(), time.thread_time()
        extra = "cpu_s=%.6f kept_s=%.6f kept_cpu_s=%.6f" % (c1 - c0, t2 - t1, c2 - c1)
        if per_entry:
            s = sum(sum(e.records) for k in iprof.Kind for e in m.profiles(k)) % (1 << 64)
            extra += " per_entry_s=%.6f" % (time.perf_counter() - t2)
            assert s == first
        assert first == kept
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print("RESULT task=columns_python wall_s=%.6f rss_kb=%d bytes=%d %s sum=%d"
          % (t1 - t0, rss, os.path.getsize(path), extra, first))


if __name__ == "__main__":
    main()
