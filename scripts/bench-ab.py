#!/usr/bin/env python3
"""Compare two builds on one benchmark, in alternating rounds.

    scripts/bench-ab.py [--rounds N] [--env-a VAR=VALUE] [--env-b VAR=VALUE]
                        BUILD_A BUILD_B PROGRAM [ARG...]

Runs BUILD_A/bench/PROGRAM ARG... and BUILD_B/bench/PROGRAM ARG... in
turn, N rounds (default 15), and prints, for every numeric field of their
RESULT lines (bench/bench_common.h: wall_s, merge_s, write_s, peak_mib,
...), the median and the minimum of each build and B's median over A's.

Why alternating rounds: on a shared or virtual machine the speed moves by
10-15 % between minutes, as much as one optimisation step gives; rounds
that alternate see the same drift, and the median of 15-30 of them is the
measure docs/performance.md reports. A build is a meson build directory
(`meson setup DIR --buildtype=release -Db_ndebug=true`, then
`ninja -C DIR bench/PROGRAM`); for the commit before a change, a
`git worktree` with its own build directory. --env-a / --env-b (repeated)
set environment variables for one side only, to compare a setting on one
build: `--env-b GLIBC_TUNABLES=glibc.malloc.hugetlb=1 build-bench
build-bench bench_merge s1.iprof s2.iprof`.

Exits 1 when a run fails or prints no RESULT line. Standard library only.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

FIELD = re.compile(r"(\w+)=(-?[0-9]+(?:\.[0-9]+)?)(?=\s|$)")


def parse_result(text):
    """The numeric fields of the RESULT line in a program's output."""
    for line in text.splitlines():
        if line.startswith("RESULT "):
            return {k: float(v) for k, v in FIELD.findall(line)}
    return None


def env_pairs(items):
    env = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit("bench-ab: expected VAR=VALUE, got %r" % item)
        env[name] = value
    return env


def run_once(build, program, args, extra_env):
    path = os.path.join(build, "bench", program)
    env = dict(os.environ)
    env.update(extra_env)
    try:
        p = subprocess.run([path] + args, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise SystemExit("bench-ab: cannot run %s: %s" % (path, e))
    fields = parse_result(p.stdout)
    if p.returncode != 0 or fields is None:
        sys.stderr.write(p.stderr)
        raise SystemExit("bench-ab: %s failed (exit %d%s)" %
                         (path, p.returncode, "" if fields else ", no RESULT line"))
    return fields


def summary(rounds):
    """{field: (median, min)} over the rounds, for fields every round has."""
    keys = [k for k in rounds[0] if all(k in r for r in rounds)]
    return {k: (statistics.median(r[k] for r in rounds), min(r[k] for r in rounds))
            for k in keys}


def num(v):
    return "%.0f" % v if abs(v) >= 1000 else "%.4g" % v


def report(name_a, a, name_b, b, n):
    lines = ["%d alternating rounds; medians (minimums)" % n,
             "%-16s %22s %22s %8s" % ("field", "A " + name_a, "B " + name_b, "B/A")]
    for k in a:
        if k not in b:
            continue
        ma, mina = a[k]
        mb, minb = b[k]
        ratio = "x%.3f" % (mb / ma) if ma else "-"
        lines.append("%-16s %22s %22s %8s" % (k, "%s (%s)" % (num(ma), num(mina)),
                                               "%s (%s)" % (num(mb), num(minb)), ratio))
    return "\n".join(lines)


def main(argv):
    ap = argparse.ArgumentParser(prog="bench-ab.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--env-a", action="append", default=[], metavar="VAR=VALUE")
    ap.add_argument("--env-b", action="append", default=[], metavar="VAR=VALUE")
    ap.add_argument("build_a")
    ap.add_argument("build_b")
    ap.add_argument("program")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    o = ap.parse_args(argv)
    if o.rounds < 1:
        raise SystemExit("bench-ab: --rounds must be at least 1")
    env_a, env_b = env_pairs(o.env_a), env_pairs(o.env_b)
    ra, rb = [], []
    for _ in range(o.rounds):
        ra.append(run_once(o.build_a, o.program, o.args, env_a))
        rb.append(run_once(o.build_b, o.program, o.args, env_b))
    print(report(o.build_a, summary(ra), o.build_b, summary(rb), o.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
