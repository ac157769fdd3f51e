#!/usr/bin/env python3
"""Tests of `iprof diff`, `iprof coverage` and the progress bar of the
long-running subcommands (tools/progress.h).

Exact stdout, stderr and exit status on the small hand-written files
tests/data/diff-*.iprof and coverage-*.iprof; the LCOV output through
genhtml (Debian package lcov); the progress bar under a pseudo-terminal
(python's pty module) with IPROF_PROGRESS_TEST_DELAY_MS slowing the work
down, and its absence without a terminal; corpus runs (diff of
jsonata-cli-0.4.0 against assorted-benchmarks-0.4.0, coverage of one
file) checked against an independent computation in Python; the
staleness score and the --fail-above gate on tests/data/stale-*.iprof
(exact values) and on the corpus (a file against itself, a filtered copy
and another profile, the last against the score computed in Python).

Environment (set by meson, tests/meson.build):
  IPROF             the built iprof command (required)
  IPROF_SOURCE_DIR  the source tree (tests/data)
  IPROF_CORPUS_DIR  the real profiles (../shared/corpus); tests that need
                    them are skipped, saying why, when it is absent
  CI / IPROF_REQUIRE_TOOLS  when set, a missing genhtml fails instead of
                    skipping

Prints "N passed, N failed" last; exits 1 on failure, 77 if every test was
skipped. Python standard library only.
"""
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tooltest  # noqa: E402
from tooltest import CORPUS, DATA, HERE, IPROF, SOURCE, corpus_file  # noqa: E402
REQUIRE_TOOLS = bool(os.environ.get("CI") or os.environ.get("IPROF_REQUIRE_TOOLS"))

KINDS = ["callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
         "monitorProfiles", "samplingProfiles", "instanceofProfiles"]


def run(*args, stdin=None, cwd=DATA, env=None):
    """Run iprof in tests/data; returns (exit code, stdout text, stderr text)."""
    p = subprocess.run([IPROF] + list(args), input=stdin, cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_pty(args, env_extra):
    """Run iprof with stderr on a pseudo-terminal; (exit code, stdout, bytes
    written to the terminal)."""
    import pty
    master, slave = pty.openpty()
    env = dict(os.environ, **env_extra)
    p = subprocess.Popen([IPROF] + list(args), cwd=DATA, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    term = b""
    deadline = time.time() + 120
    while time.time() < deadline:
        r, _, _ = select.select([master], [], [], 1.0)
        if not r:
            if p.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the slave side is closed
            break
        if not chunk:
            break
        term += chunk
    out = p.stdout.read()
    p.wait(timeout=60)
    os.close(master)
    return p.returncode, out.decode(), term


# ---- an independent computation (the definitions of include/iprof/diff.h) ----

def load(path):
    with open(path, "rb") as f:
        return json.load(f)


def frames(ctx):
    out = []
    for part in ctx.split("<"):
        m, b = part.split(":")
        out.append((int(m), int(b)))
    return tuple(out)


def entry_count(kind, records):
    first, step = {1: (2, 3), 2: (1, 2), 3: (1, 2), 5: (1, 2)}.get(kind, (0, 1))
    return sum(r for r in records[first::step] if r > 0)


class Profile:
    def __init__(self, doc):
        self.types = {}
        for t in doc.get("types", []):
            self.types.setdefault(t["id"], t["name"])
        self.methods = doc.get("methods", [])
        self.by_id = {}
        for m in self.methods:
            self.by_id.setdefault(m["id"], m)
        self.entries = [[(frames(e["ctx"]), entry_count(k, e["records"]))
                         for e in doc.get(name, [])] for k, name in enumerate(KINDS)]
        self.records = [[e["records"] for e in doc.get(name, [])] for name in KINDS]

    def key(self, m):
        names = [self.types.get(t) for t in m["signature"]]
        return None if None in names else (m["name"], tuple(names))

    def describe(self, fr):
        parts = []
        for mid, bci in fr:
            m = self.by_id.get(mid)
            if m is None:
                text = "?%d" % mid
            elif not m["signature"]:
                text = m["name"]
            else:
                t = self.types.get(m["signature"][0])
                text = "%s.%s" % (t if t is not None else "?%d" % m["signature"][0], m["name"])
            parts.append("%s:%d" % (text, bci))
        return " < ".join(parts)


def py_diff(a, b, top):
    bkeys = {}
    for i, m in enumerate(b.methods):
        k = b.key(m)
        if k is not None:
            bkeys.setdefault(k, i)
    bmatched = set()
    a2b, only_a, common_a = {}, 0, 0
    seen_ids = set()
    for m in a.methods:
        k = a.key(m)
        first = m["id"] not in seen_ids
        seen_ids.add(m["id"])
        if k is None or k not in bkeys:
            only_a += 1
            continue
        common_a += 1
        bmatched.add(bkeys[k])
        if first:
            a2b[m["id"]] = b.methods[bkeys[k]]["id"]
    res = {"methods": {"only_a": only_a, "common_a": common_a,
                       "only_b": len(b.methods) - len(bmatched), "common_b": len(bmatched)},
           "kinds": {}}
    for k, name in enumerate(KINDS):
        la, lb = a.entries[k], b.entries[k]
        bpos = {}
        for i, (fr, _) in enumerate(lb):
            bpos.setdefault(fr, i)
        ta, tb = sum(c for _, c in la), sum(c for _, c in lb)
        seen, cands = set(), []
        ka = dict(only_a=0, common_a=0, common_total_a=0, only_b=0, common_b=0,
                  common_total_b=0, total_a=ta, total_b=tb)
        for i, (fr, c) in enumerate(la):
            mapped = []
            for mid, bci in fr:
                if mid in a.by_id:
                    mid = a2b.get(mid)
                mapped.append((mid, bci))
            pos = bpos.get(tuple(mapped)) if None not in [m for m, _ in mapped] else None
            cb = 0
            if pos is not None:
                ka["common_a"] += 1
                ka["common_total_a"] += c
                if pos not in seen:
                    seen.add(pos)
                    cb = lb[pos][1]
            else:
                ka["only_a"] += 1
            sa = c / ta if ta else 0.0
            sb = cb / tb if tb else 0.0
            cands.append((sb - sa, i, a.describe(fr), c, cb))
        for i, (fr, c) in enumerate(lb):
            if i in seen:
                ka["common_b"] += 1
                ka["common_total_b"] += c
                continue
            ka["only_b"] += 1
            cands.append((c / tb if tb else 0.0, len(la) + i, b.describe(fr), 0, c))
        cands = sorted((x for x in cands if x[0] != 0), key=lambda x: (-abs(x[0]), x[1]))
        ka["changes"] = [(d, text, ca, cb) for d, _, text, ca, cb in cands[:top]]
        ka["overlap_a"] = ka["common_total_a"] / ta if ta else None
        ka["overlap_b"] = ka["common_total_b"] / tb if tb else None
        res["kinds"][name] = ka
    return res


EPS = 1.0 - 0.999999  # GraalVM's EXTREMELY_SLOW_PATH_PROBABILITY


def py_branches(records):
    """{bci: probability} as GraalVM applies them (docs/format.md, "What
    the compiler is told"), or None when it applies none."""
    if not records or len(records) % 3:
        return None
    triples = [records[i:i + 3] for i in range(0, len(records), 3)]
    total = sum(c for _, _, c in triples)
    if total == 0:
        return None
    sums, ns = {}, {}
    for _, k, c in triples:
        sums[k] = sums.get(k, 0) + c
        ns[k] = ns.get(k, 0) + 1
    p = [float(sums[k]) / float(ns[k] * total) for _, k, _ in triples]
    zeros = sum(1 for x in p if x == 0.0)
    if zeros:
        adj, scale = zeros * EPS, 1 / (1 - (len(p) - zeros) * EPS)
        p = [EPS if x == 0.0 else x - adj * (x - EPS) * scale for x in p]
    shared = {}
    for (_, k, _), x in zip(triples, p):
        shared[k] = shared.get(k, 0.0) + x
    out = {}
    for b, k, _ in triples:
        if b != -5:
            out[b] = shared[k]  # a later record's index wins
    return out


def py_types(profile, records):
    """{type name (or ("?", id) for an id the profile lacks): count share},
    or None when the counts add up to 0."""
    if len(records) % 2:
        return None
    total = sum(c for c in records[1::2] if c > 0)
    if total <= 0:
        return None
    out = {}
    for t, c in zip(records[0::2], records[1::2]):
        if c > 0:
            key = profile.types.get(t, ("?", t))
            out[key] = out.get(key, 0.0) + c / total
    return out


def l1(x, y):
    return sum(abs(x.get(k, 0.0) - y.get(k, 0.0)) for k in set(x) | set(y))


def py_staleness(a, b):
    """The staleness score as include/iprof/diff.h defines it."""
    bkeys = {}
    for m in b.methods:
        k = b.key(m)
        if k is not None:
            bkeys.setdefault(k, m["id"])
    a2b = {}
    for m in a.methods:
        k = a.key(m)
        if k in bkeys:
            a2b.setdefault(m["id"], bkeys[k])
    res = {"kinds": {}}
    for k, name in enumerate(KINDS):
        la, lb = a.entries[k], b.entries[k]
        ta, tb = sum(c for _, c in la), sum(c for _, c in lb)
        # Entries of one side with one context count as one, counts added;
        # the first of them stands for them.
        first_a, first_b, ga, gb = {}, {}, {}, {}
        for i, (fr, c) in enumerate(la):
            first_a.setdefault(fr, i)
            ga[fr] = ga.get(fr, 0) + c
        for i, (fr, c) in enumerate(lb):
            first_b.setdefault(fr, i)
            gb[fr] = gb.get(fr, 0) + c
        num = den = 0.0
        seen = set()
        for fr, i in first_a.items():
            mapped = tuple((a2b.get(mid) if mid in a.by_id else mid, bci) for mid, bci in fr)
            pos = first_b.get(mapped)
            if pos is not None:
                seen.add(mapped)
            wa = ga[fr] / ta if ta else 0.0
            wb = gb[mapped] / tb if pos is not None and tb else 0.0
            m = (wa + wb) / 2
            if m == 0:
                continue
            d = 1.0
            if k in (0, 4):
                d = abs(wa - wb) / (wa + wb)
            elif pos is not None and wa > 0 and wb > 0:
                ra, rb = a.records[k][i], b.records[k][pos]
                if k == 1:
                    pa, pb = py_branches(ra), py_branches(rb)
                    if pa is not None and pb is not None:
                        d = min(1.0, l1(pa, pb) / 2)
                else:
                    pa, pb = py_types(a, ra), py_types(b, rb)
                    if pa is not None and pb is not None:
                        d = min(1.0, (1 - EPS) * l1(pa, pb) / 2)
            num += m * d
            den += m
        for fr, c in gb.items():
            if fr not in seen and tb and c:
                num += c / tb / 2
                den += c / tb / 2
        res["kinds"][name] = num / den if den else None
    defined = [v for v in res["kinds"].values() if v is not None]
    res["staleness"] = sum(defined) / len(defined) if defined else 0.0
    return res


def py_coverage(p):
    """{class: (methods, ran)} and the number of methods that ran."""
    first = {}
    for i, m in enumerate(p.methods):
        first.setdefault(m["id"], i)
    ran = [False] * len(p.methods)
    for k in range(len(KINDS)):
        for fr, c in p.entries[k]:
            if k == 0 and c <= 0:
                continue
            for mid, _ in fr:
                if mid in first:
                    ran[first[mid]] = True
    classes = {}
    for i, m in enumerate(p.methods):
        sig = m["signature"]
        t = p.types.get(sig[0]) if sig else None
        cls = t if t is not None else "?%d" % (sig[0] if sig else 0)
        n, r = classes.get(cls, (0, 0))
        classes[cls] = (n + 1, r + ran[i])
    return classes, sum(ran)


# ---- the tests ------------------------------------------------------------

DIFF_TEXT = """A: diff-a.iprof
B: diff-b.iprof
Staleness: 0.458929 (0: the same hot behaviour, 1: nothing in common)

Methods: 2 of A in B, 1 only in A, 2 only in B
  only in A: com.example.T.onlyA()
  only in B: com.example.T.onlyB()
  only in B: com.example.T.f(int)

Kind                           A only   B only   common              total A              total B overlap A overlap B staleness
callCountProfiles                   1        1        2                  200                  500    75.00%    80.00%    0.3000
conditionalProfiles                 1        0        0                   10                    0     0.00%         -    1.0000
virtualInvokeProfiles               0        0        0                    0                    0         -         -         -
monitorProfiles                     0        0        1                    7                    7   100.00%   100.00%    0.2857
samplingProfiles                    1        1        1                   40                   40    75.00%    75.00%    0.2500
instanceofProfiles                  0        0        0                    0                    0         -         -         -

Biggest changes in callCountProfiles (share of the kind's total count):
      delta         A -> B         relative  counts A -> B, context
   -25.000%    25.00% -> 0.00%      -100.0%  50 -> 0  com.example.T.onlyA:0
   +20.000%     0.00% -> 20.00%         new  0 -> 100  com.example.T.onlyB:0
   +10.000%    50.00% -> 60.00%      +20.0%  100 -> 300  com.example.T.f:0
    -5.000%    25.00% -> 20.00%      -20.0%  50 -> 100  com.example.T.g:0

Biggest changes in conditionalProfiles (share of the kind's total count):
      delta         A -> B         relative  counts A -> B, context
  -100.000%   100.00% -> 0.00%      -100.0%  10 -> 0  com.example.T.f:0

Biggest changes in samplingProfiles (share of the kind's total count):
      delta         A -> B         relative  counts A -> B, context
   -25.000%    25.00% -> 0.00%      -100.0%  10 -> 0  com.example.T.f:7
   +25.000%     0.00% -> 25.00%         new  0 -> 10  com.example.T.f:8
"""

COVERAGE_TEXT = """coverage-small.iprof: 5 of 9 methods ran (55.56%)

Package                                             Methods      Ran  Coverage
com.example                                               4        3    75.00%
com.example.util                                          3        1    33.33%
(default package)                                         2        1    50.00%

Class                                               Methods      Ran  Coverage
Main                                                      2        1    50.00%
com.example.App                                           4        3    75.00%
com.example.util.Strings                                  3        1    33.33%
"""

LCOV = """TN:
SF:Main.java
FN:1,main(java.lang.String): void
FN:2,unused(): void
FNDA:1,main(java.lang.String): void
FNDA:0,unused(): void
FNF:2
FNH:1
DA:1,1
DA:2,0
LF:2
LH:1
end_of_record
SF:com/example/App.java
FN:1,run(): void
FN:2,work(int): int
FN:3,work(int; java.lang.String): int
FN:4,idle(): void
FNDA:1,run(): void
FNDA:20,work(int): int
FNDA:3,work(int; java.lang.String): int
FNDA:0,idle(): void
FNF:4
FNH:3
DA:1,1
DA:2,20
DA:3,3
DA:4,0
LF:4
LH:3
end_of_record
SF:com/example/util/Strings.java
FN:1,trim(java.lang.String): java.lang.String
FN:2,pad(java.lang.String; int): java.lang.String
FN:3,<init>(): void
FNDA:7,trim(java.lang.String): java.lang.String
FNDA:0,pad(java.lang.String; int): java.lang.String
FNDA:0,<init>(): void
FNF:3
FNH:1
DA:1,7
DA:2,0
DA:3,0
LF:3
LH:1
end_of_record
"""


class DiffTest(unittest.TestCase):
    maxDiff = None

    def test_text(self):
        self.assertEqual(run("diff", "diff-a.iprof", "diff-b.iprof"), (0, DIFF_TEXT, ""))

    def test_stdin(self):
        with open(os.path.join(DATA, "diff-b.iprof"), "rb") as f:
            code, out, err = run("diff", "diff-a.iprof", "-", stdin=f.read())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, DIFF_TEXT.replace("B: diff-b.iprof", "B: <stdin>"))

    def test_json(self):
        code, out, err = run("diff", "--json", "--top", "2", "diff-a.iprof", "diff-b.iprof")
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        self.assertEqual(d["a"], "diff-a.iprof")
        self.assertEqual(d["methods"], {
            "common_a": 2, "only_a": 1, "common_b": 2, "only_b": 2,
            "only_a_names": ["com.example.T.onlyA()"],
            "only_b_names": ["com.example.T.onlyB()", "com.example.T.f(int)"]})
        self.assertEqual(list(d["kinds"]), KINDS)
        cc = d["kinds"]["callCountProfiles"]
        self.assertEqual(cc, {
            "entries_a": 3, "only_a": 1, "common_a": 2, "total_a": 200,
            "common_total_a": 150, "overlap_a": 0.75,
            "entries_b": 3, "only_b": 1, "common_b": 2, "total_b": 500,
            "common_total_b": 400, "overlap_b": 0.8, "staleness": 0.3,
            "changes": [
                {"context": "com.example.T.onlyA:0", "count_a": 50, "count_b": 0,
                 "share_a": 0.25, "share_b": 0.0, "delta": -0.25, "relative": -1.0},
                {"context": "com.example.T.onlyB:0", "count_a": 0, "count_b": 100,
                 "share_a": 0.0, "share_b": 0.2, "delta": 0.2, "relative": None}]})
        self.assertIsNone(d["kinds"]["virtualInvokeProfiles"]["overlap_a"])
        self.assertIsNone(d["kinds"]["virtualInvokeProfiles"]["staleness"])
        # Monitors: int 5 / T 2 in A, int 7 in B: half of 2/7 + 2/7, times 1 - eps.
        self.assertEqual(d["kinds"]["monitorProfiles"]["staleness"], (1 - EPS) * ((2 / 7 + 2 / 7) / 2))
        self.assertEqual(d["kinds"]["conditionalProfiles"]["staleness"], 1.0)  # only A has any
        self.assertEqual((d["staleness"], d["fail_above"]),
                         ((0.3 + 1.0 + d["kinds"]["monitorProfiles"]["staleness"] + 0.25) / 4, None))
        self.assertEqual(d["kinds"]["monitorProfiles"]["overlap_a"], 1.0)
        self.assertEqual(d["kinds"]["conditionalProfiles"]["changes"][0]["delta"], -1.0)
        # The same numbers as the independent computation.
        ref = py_diff(Profile(load(os.path.join(DATA, "diff-a.iprof"))),
                      Profile(load(os.path.join(DATA, "diff-b.iprof"))), 2)
        self.check_against(d, ref)

    def check_against(self, d, ref):
        for key, value in ref["methods"].items():
            self.assertEqual(d["methods"][key], value, key)
        for name in KINDS:
            got, want = d["kinds"][name], ref["kinds"][name]
            for key in ("only_a", "common_a", "total_a", "common_total_a", "overlap_a",
                        "only_b", "common_b", "total_b", "common_total_b", "overlap_b"):
                self.assertEqual(got[key], want[key], "%s %s" % (name, key))
            self.assertEqual([(c["delta"], c["context"], c["count_a"], c["count_b"])
                              for c in got["changes"]], want["changes"], name)

    def check_staleness(self, d, ref):
        """The scores of the report against py_staleness (summed in another
        order: equal to 1e-12)."""
        for name in KINDS:
            got, want = d["kinds"][name]["staleness"], ref["kinds"][name]
            if want is None:
                self.assertIsNone(got, name)
            else:
                self.assertAlmostEqual(got, want, delta=1e-12, msg=name)
        self.assertAlmostEqual(d["staleness"], ref["staleness"], delta=1e-12)

    def test_self(self):
        code, out, err = run("diff", "--json", "diff-a.iprof", "diff-a.iprof")
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        for name, k in d["kinds"].items():
            self.assertEqual(k["changes"], [], name)
            self.assertEqual((k["only_a"], k["only_b"]), (0, 0), name)
            self.assertIn(k["overlap_a"], (1.0, None), name)
            self.assertIn(k["staleness"], (0.0, None), name)
        self.assertEqual(d["staleness"], 0.0)

    def test_output_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "report.txt")
            self.assertEqual(run("diff", "-o", out, "diff-a.iprof", "diff-b.iprof"), (0, "", ""))
            with open(out) as f:
                self.assertEqual(f.read(), DIFF_TEXT)
            self.assertEqual(os.listdir(tmp), ["report.txt"])  # no temporary file left
            # A failing run leaves OUT as it was.
            code, _, err = run("diff", "-o", out, "diff-a.iprof", "syntax-error.iprof")
            self.assertEqual(code, 1)
            with open(out) as f:
                self.assertEqual(f.read(), DIFF_TEXT)
            self.assertEqual(os.listdir(tmp), ["report.txt"])

    def test_help_and_usage(self):
        code, out, err = run("diff", "--help")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith("Usage: iprof diff [--json] [--top N] [--fail-above X]"), out)
        hint = "Try 'iprof diff --help' for more information.\n"
        for args, msg in [([], "no files A and B given"),
                          (["diff-a.iprof"], "no file B given"),
                          (["a", "b", "c"], "too many files: 'c'"),
                          (["--top", "0", "a", "b"], "--top wants a number from 1 to 1000000, not '0'"),
                          (["--top", "x", "a", "b"], "--top wants a number from 1 to 1000000, not 'x'"),
                          (["-", "-"], "A and B cannot both be standard input")] + [
                          (["--fail-above", x, "a", "b"],
                           "--fail-above wants a number from 0 to 1, not '%s'" % x)
                          for x in ("", "1.5", "-0.1", "x", "nan", "0.5x", "inf")]:
            code, out, err = run("diff", *args)
            self.assertEqual((code, out), (2, ""), args)
            self.assertTrue(err.startswith("iprof diff: " + msg + "\n"), err)
        code, out, err = run("diff", "diff-a.iprof", "missing.iprof")
        self.assertEqual((code, out), (2, ""))
        self.assertIn("missing.iprof", err)

    def test_invalid_input(self):
        code, out, err = run("diff", "diff-a.iprof", "syntax-error.iprof")
        self.assertEqual((code, out), (1, ""))
        self.assertTrue(err.startswith("syntax-error.iprof:"), err)

    def test_corpus(self):
        a = corpus_file("jsonata-cli-0.4.0.iprof")
        b = corpus_file("assorted-benchmarks-0.4.0.iprof")
        code, out, err = run("diff", "--json", "--top", "15", a, b)
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        ref = py_diff(Profile(load(a)), Profile(load(b)), 15)
        self.check_against(d, ref)
        # Something of each is in the other, and not everything.
        cc = d["kinds"]["callCountProfiles"]
        print("\n  jsonata-cli vs assorted-benchmarks: methods %d common, %d/%d only; "
              "call-count overlap %.4f/%.4f" % (d["methods"]["common_a"], d["methods"]["only_a"],
                                                d["methods"]["only_b"], cc["overlap_a"],
                                                cc["overlap_b"]))
        self.assertGreater(d["methods"]["common_a"], 0)
        self.assertGreater(d["methods"]["only_a"], 0)
        self.assertLess(cc["overlap_a"], 1.0)
        # The text report runs as well and names every kind.
        code, out, err = run("diff", a, b)
        self.assertEqual((code, err), (0, ""))
        for name in KINDS:
            self.assertIn(name, out)


STALE = (0.0 + 0.4 + (1 - EPS) * 0.5) / 3  # call counts, branches, receivers


class StalenessTest(unittest.TestCase):
    """The staleness score and the --fail-above gate (issue 15, part 2)."""
    maxDiff = None

    def test_text(self):
        code, out, err = run("diff", "stale-a.iprof", "stale-b.iprof")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.splitlines()[:3], [
            "A: stale-a.iprof", "B: stale-b.iprof",
            "Staleness: 0.300000 (0: the same hot behaviour, 1: nothing in common)"])
        self.assertIn("\ncallCountProfiles                   0        0        2"
                      "                  400                  800   100.00%   100.00%    0.0000\n"
                      "conditionalProfiles                 0        0        2"
                      "                  100                  100   100.00%   100.00%    0.4000\n"
                      "virtualInvokeProfiles               0        0        1"
                      "                  100                  200   100.00%   100.00%    0.5000\n"
                      "monitorProfiles                     0        0        0"
                      "                    0                    0         -         -         -\n",
                      out)

    def test_json(self):
        code, out, err = run("diff", "--json", "--fail-above", "0.3", "stale-a.iprof",
                             "stale-b.iprof")
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        self.assertEqual((d["staleness"], d["fail_above"]), (STALE, 0.3))
        self.assertEqual([d["kinds"][k]["staleness"] for k in KINDS],
                         [0.0, (0.8 * 0.5 + 0.2 * 0.0) / (0.8 + 0.2), (1 - EPS) * ((0.5 + 0.5) / 2),
                          None, None, None])
        ref = py_staleness(Profile(load(os.path.join(DATA, "stale-a.iprof"))),
                           Profile(load(os.path.join(DATA, "stale-b.iprof"))))
        self.assertEqual(ref["staleness"], STALE)
        self.check_staleness(d, ref)

    def test_gate(self):
        # 0.2999998 is not above 0.3 (nor 1), is above 0.29 (and 0).
        for x, code in (("0.3", 0), ("1", 0), ("0.29", 1), ("0", 1), ("0.2999998", 1)):
            got, out, err = run("diff", "--fail-above", x, "stale-a.iprof", "stale-b.iprof")
            self.assertEqual(got, code, x)
            self.assertTrue(out.startswith("A: stale-a.iprof\n"), x)  # the report, always
            self.assertEqual(err, "" if code == 0 else
                             "iprof diff: staleness %.9g is above %.9g\n" % (STALE, float(x)), x)
        self.assertEqual(run("diff", "--fail-above", "0", "stale-a.iprof", "stale-a.iprof"),
                         (0, run("diff", "stale-a.iprof", "stale-a.iprof")[1], ""))
        # Above the threshold with -o: the report is written, exit 1.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.json")
            code, out, err = run("diff", "--json", "--fail-above", "0.1", "-o", path,
                                 "stale-a.iprof", "stale-b.iprof")
            self.assertEqual((code, out), (1, ""))
            self.assertTrue(err.startswith("iprof diff: staleness "), err)
            with open(path) as f:
                self.assertEqual(json.load(f)["staleness"], STALE)

    def test_repeated_context(self):
        """GraalVM 25 writes a sampling context twice: its entries count as
        one, so the file against itself scores 0."""
        code, out, err = run("diff", "--json", "--fail-above", "0", "graalvm25.iprof",
                             "graalvm25.iprof")
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        self.assertEqual(d["kinds"]["samplingProfiles"]["only_b"], 1)  # the diff's own rule
        self.assertEqual(d["kinds"]["samplingProfiles"]["staleness"], 0.0)
        self.assertEqual(d["staleness"], 0.0)
        ref = py_staleness(Profile(load(os.path.join(DATA, "graalvm25.iprof"))),
                           Profile(load(os.path.join(DATA, "post-b.iprof"))))
        code, out, err = run("diff", "--json", "graalvm25.iprof", "post-b.iprof")
        self.assertEqual((code, err), (0, ""))
        self.check_staleness(json.loads(out), ref)

    def test_invalid_input_is_told_apart(self):
        """An invalid file also exits 1, but without a report and with the
        file's name first on stderr."""
        code, out, err = run("diff", "--fail-above", "1", "stale-a.iprof", "syntax-error.iprof")
        self.assertEqual((code, out), (1, ""))
        self.assertTrue(err.startswith("syntax-error.iprof:"), err)
        self.assertNotIn("staleness", err)

    def test_corpus(self):
        a = corpus_file("jsonata-cli-0.4.0.iprof")
        code, out, err = run("diff", "--json", "--fail-above", "0", a, a)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(json.loads(out)["staleness"], 0.0)
        # Every reference dangles: methods and types match by their ids.
        p = corpus_file("elidemin-jspy-placeholders-1.0.0.iprof")
        code, out, err = run("diff", "--json", "--fail-above", "0", p, p)
        # It breaks rules GraalVM does not check: read past, and said.
        said = ("%s: warning: read past 39267 rule violations ('iprof validate' lists them; "
                "--strict refuses the file)\n" % p)
        self.assertEqual((code, err), (0, said + said))
        d = json.loads(out)
        self.assertEqual(d["staleness"], 0.0)
        self.assertEqual(d["kinds"]["virtualInvokeProfiles"]["staleness"], 0.0)
        with tempfile.TemporaryDirectory() as tmp:
            # The hot 90 % of the counts (and every kind scaled by 3): cold
            # entries are gone, hot behaviour stays.
            small = os.path.join(tmp, "small.iprof")
            self.assertEqual(run("filter", "--top-percent", "90", a, "-o", small)[0], 0)
            code, out, err = run("diff", "--json", a, small)
            self.assertEqual((code, err), (0, ""))
            d = json.loads(out)
            self.check_staleness(d, py_staleness(Profile(load(a)), Profile(load(small))))
            filtered = d["staleness"]
            self.assertGreater(filtered, 0.0)
            self.assertLess(filtered, 0.25)
        b = corpus_file("assorted-benchmarks-0.4.0.iprof")
        code, out, err = run("diff", "--json", a, b)
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        self.check_staleness(d, py_staleness(Profile(load(a)), Profile(load(b))))
        other = d["staleness"]
        print("\n  staleness: jsonata-cli vs its hot 90%%: %.6f; vs assorted-benchmarks: %.6f; "
              "per kind %s" % (filtered, other,
                               {k[:-8]: v and round(v, 4) for k, v in
                                ((k, d["kinds"][k]["staleness"]) for k in KINDS)}))
        self.assertGreater(other, filtered)
        self.assertLess(other, 1.0)
        # The gate between the two: exit 1 just below the score, 0 at it.
        self.assertEqual(run("diff", "--fail-above", repr(other), a, b)[0], 0)
        self.assertEqual(run("diff", "--fail-above", "%.6f" % (other - 1e-6), a, b)[0], 1)

    check_staleness = DiffTest.check_staleness


class CoverageTest(unittest.TestCase):
    maxDiff = None

    def test_table(self):
        self.assertEqual(run("coverage", "coverage-small.iprof"), (0, COVERAGE_TEXT, ""))

    def test_sampled_only(self):
        """Without call counts coverage is not coverage: a warning, and
        hasCallCounts false in --json (issue 15, part 5)."""
        warning = ("iprof coverage: coverage-sampled.iprof: warning: no call counts (sampled "
                   "only?): methods that ran but were not sampled count as not run\n")
        self.assertEqual(run("coverage", "coverage-sampled.iprof"), (0, (
            "coverage-sampled.iprof: 2 of 3 methods ran (66.67%)\n"
            "\n"
            "Package                                             Methods      Ran  Coverage\n"
            "com.example                                               3        2    66.67%\n"
            "\n"
            "Class                                               Methods      Ran  Coverage\n"
            "com.example.App                                           3        2    66.67%\n"),
            warning))
        code, out, err = run("coverage", "--json", "coverage-sampled.iprof")
        self.assertEqual((code, err), (0, warning))
        d = json.loads(out)
        self.assertEqual((d["methods"], d["ran"], d["hasCallCounts"]), (3, 2, False))

    def test_json(self):
        code, out, err = run("coverage", "--json", "coverage-small.iprof")
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        self.assertEqual((d["file"], d["methods"], d["ran"]), ("coverage-small.iprof", 9, 5))
        self.assertIs(d["hasCallCounts"], True)
        self.assertEqual(d["packages"], [
            {"name": "com.example", "methods": 4, "ran": 3},
            {"name": "com.example.util", "methods": 3, "ran": 1},
            {"name": "", "methods": 2, "ran": 1}])
        self.assertEqual([(c["name"], c["package"], c["methods"], c["ran"]) for c in d["classes"]],
                         [("Main", "", 2, 1), ("com.example.App", "com.example", 4, 3),
                          ("com.example.util.Strings", "com.example.util", 3, 1)])
        self.assertEqual(d["classes"][1]["functions"], [
            {"name": "run()", "line": 1, "ran": True, "hits": 1, "calls": 1, "samples": 0},
            {"name": "work(int)", "line": 2, "ran": True, "hits": 20, "calls": 20, "samples": 5},
            {"name": "work(int,java.lang.String)", "line": 3, "ran": True, "hits": 3,
             "calls": 0, "samples": 3},
            {"name": "idle()", "line": 4, "ran": False, "hits": 0, "calls": 0, "samples": 0}])

    def test_lcov(self):
        self.assertEqual(run("coverage", "--lcov", "-", "coverage-small.iprof"), (0, LCOV, ""))
        with tempfile.TemporaryDirectory() as tmp:
            info = os.path.join(tmp, "c.info")
            self.assertEqual(run("coverage", "--lcov", info, "coverage-small.iprof"),
                             (0, COVERAGE_TEXT, ""))
            with open(info) as f:
                self.assertEqual(f.read(), LCOV)
            self.assertEqual(os.listdir(tmp), ["c.info"])
            # One file for both would keep the report and lose the LCOV.
            hint = "Try 'iprof coverage --help' for more information.\n"
            self.assertEqual(run("coverage", "--lcov", info, "-o", info, "coverage-small.iprof"),
                             (2, "", "iprof coverage: --lcov %s and -o %s name the same file\n"
                              % (info, info) + hint))
            link = os.path.join(tmp, "link.info")
            os.symlink(info, link)
            self.assertEqual(run("coverage", "--lcov", info, "-o", link, "coverage-small.iprof")[0],
                             2)
            self.assertEqual(run("coverage", "--lcov", "-", "-o", "/dev/stdout",
                                 "coverage-small.iprof")[0], 2)
        # LCOV to standard output by another name: the report is not mixed in.
        self.assertEqual(run("coverage", "--lcov", "/dev/stdout", "coverage-small.iprof"),
                         (0, LCOV, ""))
        with open(os.path.join(DATA, "coverage-small.iprof"), "rb") as f:
            self.assertEqual(run("coverage", "--lcov", "-", "-", stdin=f.read()), (0, LCOV, ""))

    def test_genhtml(self):
        genhtml = self.genhtml()
        with tempfile.TemporaryDirectory() as tmp:
            info = os.path.join(tmp, "c.info")
            self.assertEqual(run("coverage", "--lcov", info, "coverage-small.iprof")[0], 0)
            p = subprocess.run([genhtml, "--no-source", "--function-coverage", "-o",
                                os.path.join(tmp, "html"), info], cwd=tmp,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
            log = p.stdout.decode("utf-8", "replace")
            self.assertEqual(p.returncode, 0, log)
            self.assertIn("functions..: 55.6% (5 of 9 functions)", log)
            self.assertTrue(os.path.isfile(os.path.join(tmp, "html", "index.html")))
            # Per class: lines and functions hit / found, from the pages.
            rows = {}
            for root, _, files in os.walk(os.path.join(tmp, "html")):
                if "index.html" not in files:
                    continue
                with open(os.path.join(root, "index.html")) as f:
                    page = f.read()
                for m in re.finditer(r'coverFile">([^<]*\.java)</td>.*?coverNum\w*">(\d+) / (\d+)<'
                                     r'.*?coverNum\w*">(\d+) / (\d+)<', page, re.S):
                    rows[m.group(1)] = tuple(int(m.group(i)) for i in range(2, 6))
            self.assertEqual(rows, {"Main.java": (1, 2, 1, 2), "App.java": (3, 4, 3, 4),
                                    "Strings.java": (1, 3, 1, 3)})

    def genhtml(self):
        genhtml = shutil.which("genhtml")
        if not genhtml:
            if REQUIRE_TOOLS:
                self.fail("genhtml (Debian package lcov) is not installed")
            raise unittest.SkipTest("genhtml (Debian package lcov) not installed")
        return genhtml

    def genhtml_functions(self, lcov):
        """genhtml's "functions..: P% (HIT of FOUND functions)" for LCOV text,
        as (hit, found)."""
        with tempfile.TemporaryDirectory() as tmp:
            info = os.path.join(tmp, "c.info")
            with open(info, "w") as f:
                f.write(lcov)
            p = subprocess.run([self.genhtml(), "--no-source", "--function-coverage",
                                "-o", os.path.join(tmp, "html"), info], cwd=tmp,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
        log = p.stdout.decode("utf-8", "replace")
        self.assertEqual(p.returncode, 0, log)
        m = re.search(r"functions\.\.: [0-9.]+% \((\d+) of (\d+) functions\)", log)
        self.assertIsNotNone(m, log)
        return int(m.group(1)), int(m.group(2))

    def test_lcov_names_unique(self):
        """Every method is its own LCOV function (issue 30, item 5): bridge
        methods (name and parameters equal) differ by return type, no ','
        (genhtml 1.x ends a name there), and equal signatures get " #LINE"
        until no two names of a class are equal."""
        code, out, err = run("coverage", "--lcov", "-", "coverage-names.iprof")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual([x for x in out.splitlines() if x.startswith(("SF:", "FN:", "FNDA:"))], [
            "SF:com/example/Box.java",
            "FN:1,get(): java.lang.Object",
            "FN:2,get(): java.lang.String",
            "FN:3,put(java.lang.Object; int): void",
            "FNDA:7,get(): java.lang.Object",
            "FNDA:7,get(): java.lang.String",
            "FNDA:0,put(java.lang.Object; int): void",
            "SF:com/example/Odd.java",
            "FN:1,d(): void",
            "FN:2,d(): void #2",
            "FN:3,d(): void #2 #3",      # its return type is named "void #2"
            "FNDA:0,d(): void",
            "FNDA:2,d(): void #2",
            "FNDA:0,d(): void #2 #3"])
        self.assertEqual(self.genhtml_functions(out), (3, 6))

    def test_corpus_lcov_names(self):
        """On every corpus file: one FN per method, no two alike in a record,
        none with a ','; genhtml counts jsonata-cli's 43,276 methods (it
        counted 40,824 when bridge methods shared a name and names held
        ',')."""
        corpus_file("jsonata-cli-0.4.0.iprof")  # skips without the corpus
        for name in sorted(os.listdir(CORPUS)):
            if not name.endswith(".iprof"):
                continue
            path = os.path.join(CORPUS, name)
            with open(path, encoding="utf-8") as f:
                methods = len(json.load(f)["methods"])
            code, out, err = run("coverage", "--lcov", "-", path)
            self.assertEqual(code, 0, err)
            names, sf = set(), None
            for line in out.splitlines():
                if line.startswith("SF:"):
                    sf = line
                elif line.startswith("FN:"):
                    fn = line.split(",", 1)[1]
                    self.assertNotIn(",", fn, name)
                    self.assertNotIn((sf, fn), names, name)
                    names.add((sf, fn))
            self.assertEqual(len(names), methods, name)
            if name == "jsonata-cli-0.4.0.iprof":
                self.assertEqual(methods, 43276)
                self.assertEqual(self.genhtml_functions(out), (3203, 43276))

    def test_help_and_usage(self):
        code, out, err = run("coverage", "--help")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith("Usage: iprof coverage"), out)
        code, out, err = run("coverage")
        self.assertEqual((code, out), (2, ""))
        self.assertTrue(err.startswith("iprof coverage: no FILE given\n"), err)
        code, out, err = run("coverage", "syntax-error.iprof")
        self.assertEqual((code, out), (1, ""))

    def test_corpus(self):
        path = corpus_file("jsonata-cli-0.4.0.iprof")
        code, out, err = run("coverage", "--json", path)
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        classes, ran = py_coverage(Profile(load(path)))
        self.assertEqual(d["ran"], ran)
        self.assertEqual(d["methods"], sum(n for n, _ in classes.values()))
        self.assertEqual({c["name"]: (c["methods"], c["ran"]) for c in d["classes"]}, classes)
        print("\n  jsonata-cli: %d of %d methods ran in %d classes"
              % (ran, d["methods"], len(classes)))


class ProgressTest(unittest.TestCase):
    """tools/progress.h: a bar on stderr only on a terminal, only after a second."""
    ARGS = ["diff", "diff-a.iprof", "diff-b.iprof"]

    def test_bar_on_a_slow_terminal(self):
        code, out, term = run_pty(self.ARGS, {"IPROF_PROGRESS_TEST_DELAY_MS": "600"})
        self.assertEqual((code, out), (0, DIFF_TEXT))
        self.assertIn(b"\r\x1b[Kiprof diff: reading ", term)
        self.assertRegex(term, rb"\[[#.]{30}\] +\d+%")
        self.assertTrue(term.endswith(b"\r\x1b[K"), term)  # erased at the end

    def test_no_bar_when_fast(self):
        code, out, term = run_pty(self.ARGS, {})
        self.assertEqual((code, out, term), (0, DIFF_TEXT, b""))

    def test_no_bar_without_a_terminal(self):
        env = dict(os.environ, IPROF_PROGRESS_TEST_DELAY_MS="600")
        self.assertEqual(run(*self.ARGS, env=env), (0, DIFF_TEXT, ""))

    def test_coverage_and_stats(self):
        for args in (["coverage", "coverage-small.iprof"], ["stats", "coverage-small.iprof"]):
            code, out, term = run_pty(args, {"IPROF_PROGRESS_TEST_DELAY_MS": "600"})
            self.assertEqual(code, 0)
            self.assertIn(b"\r\x1b[K" + args[0].encode(), term.replace(b"iprof ", b""))


if __name__ == "__main__":
    sys.exit(tooltest.main(__name__))
