#!/usr/bin/env python3
"""Peer: Python's json module (standard library).

    peer_python.py load FILE    json.load
    peer_python.py dump FILE    json.load + json.dumps(separators=(",", ":")),
                                compared with FILE (not timed)

Prints the RESULT line of bench/bench_common.h: wall time and peak RSS
(resource.getrusage ru_maxrss, KiB on Linux).
"""
import json
import os
import resource
import sys
import time


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("load", "dump"):
        sys.exit("usage: peer_python.py load|dump FILE")
    mode, path = sys.argv[1], sys.argv[2]
    size = os.path.getsize(path)
    extra = ""
    t0 = time.perf_counter()
    with open(path, "rb") as f:
        doc = json.load(f)
    if mode == "dump":
        text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    t1 = time.perf_counter()
    if mode == "dump":
        with open(path, "rb") as f:
            same = f.read() == text
        extra = " out_bytes=%d identical=%s" % (len(text), "yes" if same else "no")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    task = "python_load" if mode == "load" else "python_roundtrip"
    print("RESULT task=%s wall_s=%.6f rss_kb=%d bytes=%d%s" % (task, t1 - t0, rss, size, extra))


if __name__ == "__main__":
    main()
