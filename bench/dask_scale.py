#!/usr/bin/env python3
"""Throughput of iprof.dask_merge on a LocalCluster (docs/scale.md).

    IPROF_LIBRARY=build/lib/libiprof.so.1 /usr/bin/python3 bench/dask_scale.py \\
        --gen build/bench/iprof-gen --iprof build/tools/iprof [--files 16] [--size 10M]

Generates FILES inputs of SIZE with seeds 1..FILES (in --dir, kept between
runs), times `iprof merge` of them (one process), then dask_merge on a
LocalCluster of 1 and of 2 worker processes (one thread each) for each
--partition size, best of --repeat runs, each checked byte-identical to the
command's output; then the bytes each level of the tree ships (the
canonical gzip results of its tasks). Prints Markdown tables. Needs Dask
(Debian: python3-dask, python3-distributed) and runs with the python3 that
imports them.
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bindings", "python"))

import iprof  # noqa: E402
from iprof import _dask  # noqa: E402


def best(repeat, fn):
    times = []
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def levels(files, partition, fan_in, compresslevel):
    """(tasks, bytes handed up) of each level of the tree, computed in this
    process; the root's row is replaced by the document's size."""
    opts = _dask._Options(False, False, False, compresslevel)
    pairs = [(f, 1.0) for f in files]
    level = [_dask._merge_leaf(pairs[i:i + partition], None, opts, None)
             for i in range(0, len(pairs), partition)]
    out = [(len(level), sum(len(p[0]) for p in level))]
    while len(level) > 1:
        groups = [level[i:i + fan_in] for i in range(0, len(level), fan_in)]
        level = [g[0] if len(g) == 1 else _dask._merge_inner(g, opts, None) for g in groups]
        out.append((len(level), sum(len(p[0]) for p in level)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--iprof", required=True)
    ap.add_argument("--files", type=int, default=16)
    ap.add_argument("--size", default="10M")
    ap.add_argument("--dir", default="/tmp/iprof-dask-scale")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--partition", default="0,1,2,4,8", help="0: dask_merge's default")
    ap.add_argument("--fan-in", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threaded", action="store_true", help="merge_from(threaded=True)")
    ap.add_argument("--compresslevel", type=int, default=1)
    a = ap.parse_args()

    os.makedirs(a.dir, exist_ok=True)
    files = []
    for seed in range(1, a.files + 1):
        path = os.path.join(a.dir, "s%s-%d.iprof" % (a.size, seed))
        if not os.path.exists(path):
            subprocess.run([a.gen, "--size", a.size, "--seed", str(seed), "-o", path,
                            "--quiet"], check=True)
        files.append(path)
    total = sum(os.path.getsize(f) for f in files)
    mb = total / 1e6
    print("%d files, %.1f MB in all, %d cores" % (len(files), mb, os.cpu_count()))

    def command():
        return subprocess.run([a.iprof, "merge"] + files, stdout=subprocess.PIPE,
                              check=True).stdout
    secs, want = best(a.repeat, command)
    print("\n| run | seconds | MB/s |\n|---|---|---|")
    print("| `iprof merge` (one process) | %.2f | %.0f |" % (secs, mb / secs))

    import dask
    import distributed
    for workers in [int(w) for w in a.workers.split(",")]:
        t = time.perf_counter()
        with dask.config.set({"distributed.worker.memory.target": False,
                              "distributed.worker.memory.spill": False}):
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                               processes=True, dashboard_address=None)
        client = distributed.Client(cluster)
        start = time.perf_counter() - t
        iprof.dask_merge(files[:2], client=client)            # warm the workers up
        for p in [int(x) for x in a.partition.split(",")]:
            secs, got = best(a.repeat, lambda: iprof.dask_merge(
                files, client=client, fan_in=a.fan_in, partition_size=p or None,
                threaded=a.threaded, compresslevel=a.compresslevel))
            if got != want:
                raise SystemExit("dask_merge differs from iprof merge (%d workers, p=%d)"
                                 % (workers, p))
            print("| dask_merge, %d worker%s, partition %s, fan-in %d | %.2f | %.0f |"
                  % (workers, "s" if workers > 1 else "", p or "default", a.fan_in, secs,
                     mb / secs))
        print("| (LocalCluster start, %d workers) | %.2f | |" % (workers, start))
        client.close()
        cluster.close()

    print("\n| partition | level | tasks | bytes handed up |\n|---|---|---|---|")
    for p in (1, 4):
        rows = levels(files, p, a.fan_in, a.compresslevel)
        for i, (tasks, size) in enumerate(rows[:-1]):
            print("| %d | %d | %d | %.1f MB |" % (p, i, tasks, size / 1e6))
        print("| %d | %d (root) | 1 | %.1f MB, the document, to the client |"
              % (p, len(rows) - 1, len(want) / 1e6))
    print("\nresult: %.1f MB uncompressed" % (len(want) / 1e6))


if __name__ == "__main__":
    main()
