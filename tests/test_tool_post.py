#!/usr/bin/env python3
"""Tests of the post-processing subcommands of iprof: merge, convert and
filter, and reading and writing .iprof.gz. Exact stdout, stderr and exit
status on the small hand-written files tests/data/post-*.iprof; merges of
every order of the inputs give the same bytes; weights, directories,
standard input; the progress bar under a pseudo-terminal; corpus runs
(skipped, saying why, when IPROF_CORPUS_DIR is absent).

Environment (set by meson, tests/meson.build):
  IPROF             the built iprof command (required)
  IPROF_SOURCE_DIR  the source tree (tests/data)
  IPROF_CORPUS_DIR  the real profiles (../shared/corpus)

Prints "N passed, N failed" last; exits 1 on failure, 77 if every test was
skipped. Python standard library only.
"""
import gzip
import itertools
import json
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import unittest

from tooltest import CORPUS, DATA, IPROF, main, run


def corpus_files(*names):
    if not CORPUS or not os.path.isfile(os.path.join(CORPUS, "README.md")):
        raise unittest.SkipTest("corpus folder absent (IPROF_CORPUS_DIR=%r)" % CORPUS)
    paths = [os.path.join(CORPUS, n) for n in names]
    for p in paths:
        if not os.path.isfile(p):
            raise unittest.SkipTest("corpus file %s absent" % p)
    return paths


GZIP = None


def need_gzip():
    """Skip, saying why, when the library was built without zlib."""
    global GZIP
    if GZIP is None:
        err = run("validate", "graal-1.0.0.iprof.gz")[2]
        GZIP = "without zlib" not in err
    if not GZIP:
        raise unittest.SkipTest("libiprof built without zlib (-Dzlib=disabled)")


def need_gzip_absent():
    try:
        need_gzip()
    except unittest.SkipTest:
        return
    raise unittest.SkipTest("libiprof has zlib (the test of a build without it)")


def data(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


RULES_BROKEN = ("rules-broken.iprof: warning: read past 7 rule violations ('iprof validate' "
                "lists them; --strict refuses the file)\n")


class ToolCase(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="iprof-post-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def expect(self, args, code, out=b"", err="", stdin=None):
        got = run(*args, stdin=stdin)
        if isinstance(out, str):
            out = out.encode()
        self.assertEqual((got[0], got[1], got[2]), (code, out, err),
                         "iprof %s" % " ".join(args))

    def ok(self, *args, stdin=None, cwd=DATA):
        code, out, err = run(*args, stdin=stdin, cwd=cwd)
        self.assertEqual((code, err), (0, ""), "iprof %s" % " ".join(args))
        return out

    def files(self):
        return sorted(os.listdir(self.tmp))


# ---------------------------------------------------------------------------
# The command line

class CommandLine(ToolCase):
    def test_help(self):
        for cmd in ("merge", "convert", "filter"):
            code, out, err = run(cmd, "--help")
            self.assertEqual((code, err), (0, ""))
            self.assertTrue(out.startswith(b"Usage: iprof " + cmd.encode()), out)
        code, out, _ = run("--help")
        for cmd in (b"merge", b"convert", b"filter"):
            self.assertIn(b"\n  " + cmd + b" ", out)

    def test_usage_errors(self):
        hint = "\nTry 'iprof %s --help' for more information.\n"
        self.expect(["merge"], 2, err="iprof merge: no FILE or DIR given" + hint % "merge")
        self.expect(["convert"], 2, err="iprof convert: no FILE given" + hint % "convert")
        self.expect(["filter"], 2, err="iprof filter: no FILE given" + hint % "filter")
        self.expect(["convert", "--to", "2.0.0", "post-a.iprof"], 2,
                    err="iprof convert: unknown version '2.0.0' (0.2.0, 0.4.0, 1.0.0 or 1.1.0)"
                        + hint % "convert")
        for bad in ("-1", "0x10", "inf", "nan", "1,5", ""):
            self.expect(["merge", "--weight", "post-a.iprof=" + bad, "post-a.iprof"], 2,
                        err="iprof merge: bad weight '%s': a number >= 0 is needed" % bad
                        + hint % "merge")
        self.expect(["merge", "--weight", "post-a.iprof", "post-a.iprof"], 2,
                    err="iprof merge: --weight needs FILE=W, not 'post-a.iprof'" + hint % "merge")
        self.expect(["merge", "--weight", "post-x.iprof=2", "post-a.iprof"], 2,
                    err="iprof merge: --weight names no input: 'post-x.iprof'" + hint % "merge")
        self.expect(["merge", "-", "-"], 2,
                    err="iprof merge: standard input ('-') can be read only once"
                        + hint % "merge")
        self.expect(["filter", "--kinds", "callcount,bogus", "post-filter.iprof"], 2,
                    err="iprof filter: unknown kind 'bogus' in --kinds (callcount, conditional, "
                        "virtualinvoke, monitor, sampling, instanceof)" + hint % "filter")
        self.expect(["filter", "--top-percent", "0", "post-filter.iprof"], 2,
                    err="iprof filter: bad --top-percent '0': a number in (0, 100] is needed"
                        + hint % "filter")
        self.expect(["filter", "--min-count", "x", "post-filter.iprof"], 2,
                    err="iprof filter: bad --min-count 'x': an integer >= 0 is needed"
                        + hint % "filter")
        # named once (issue 30, item 6)
        self.expect(["merge", "missing.iprof"], 2,
                    err="missing.iprof: cannot open: No such file or directory\n")


# ---------------------------------------------------------------------------
# merge

MERGED_ABC = """{
  "version": "1.1.0",
  "types": [
    {"id": 0, "name": "app.Main"},
    {"id": 1, "name": "int"},
    {"id": 2, "name": "lib.Other"},
    {"id": 3, "name": "lib.Util"},
    {"id": 4, "name": "void"}
  ],
  "methods": [
    {"id": 1, "name": "main", "signature": [0, 4]},
    {"id": 2, "name": "work", "signature": [2, 4]},
    {"id": 3, "name": "<init>", "signature": [3, 4]},
    {"id": 4, "name": "helper", "signature": [3, 1, 1]}
  ],
  "callCountProfiles": [
    {"ctx": "1:0", "records": [4]},
    {"ctx": "2:0", "records": [4]},
    {"ctx": "2:0<1:9", "records": [6]},
    {"ctx": "4:0<1:5", "records": [15]}
  ],
  "conditionalProfiles": [
    {"ctx": "4:3<1:5", "records": [3, 0, 4, 3, 2, 1, 3, 1, 8]}
  ],
  "virtualInvokeProfiles": [
    {"ctx": "1:5", "records": [2, 1, 3, 15]}
  ],
  "monitorProfiles": [
    {"ctx": "0:0", "records": [2, 7, 3, 2]}
  ],
  "samplingProfiles": [
    {"ctx": "2:1", "records": [5]},
    {"ctx": "4:3<1:5", "records": [5]}
  ],
  "instanceofProfiles": [
    {"ctx": "2:4", "records": [3, 3]}
  ]
}
"""

INPUTS = ["post-a.iprof", "post-b.iprof", "post-c.iprof", "post-d.iprof"]


class Merge(ToolCase):
    def test_exact(self):
        self.expect(["merge", "--pretty", "post-a.iprof", "post-b.iprof", "post-c.iprof"], 0,
                    MERGED_ABC)

    def test_every_order_same_bytes(self):
        outs = set()
        for perm in itertools.permutations(INPUTS):
            outs.add(self.ok("merge", *perm))
        self.assertEqual(len(outs), 1)
        out = json.loads(outs.pop())
        # d adds 100 calls of helper() as a root.
        self.assertIn({"ctx": "4:0", "records": [100]}, out["callCountProfiles"])

    def test_three_inputs_every_order(self):
        outs = {self.ok("merge", "--pretty", *p)
                for p in itertools.permutations(INPUTS[:3])}
        self.assertEqual(outs, {MERGED_ABC.encode()})

    def test_weights(self):
        out = json.loads(self.ok("merge", "--weight", "post-a.iprof=0.5", "-w", "post-b.iprof=3",
                                 "post-a.iprof", "post-b.iprof", "post-c.iprof"))
        cc = {e["ctx"]: e["records"] for e in out["callCountProfiles"]}
        # main: a 1*0.5 -> 1 (half away from zero), b 2*3, c 1; helper: 10*0.5 + 5*3
        self.assertEqual(cc, {"1:0": [8], "2:0": [12], "2:0<1:9": [6], "4:0<1:5": [20]})
        self.assertEqual(out["conditionalProfiles"],
                         [{"ctx": "4:3<1:5", "records": [3, 0, 2, 3, 2, 3, 3, 1, 9]}])
        self.assertEqual(out["monitorProfiles"], [{"ctx": "0:0", "records": [2, 21, 3, 1]}])
        # weight 0 keeps the structure, zeroes the counts
        out = json.loads(self.ok("merge", "--weight", "post-d.iprof=0", "post-d.iprof"))
        self.assertEqual(out["callCountProfiles"], [{"ctx": "1:0", "records": [0]}])

    def test_directory(self):
        need_gzip()
        d = os.path.join(self.tmp, "profiles")
        os.mkdir(d)
        shutil.copy(os.path.join(DATA, "post-a.iprof"), d)
        with gzip.open(os.path.join(d, "post-b.iprof.gz"), "wb") as f:
            f.write(data("post-b.iprof"))
        shutil.copy(os.path.join(DATA, "post-c.iprof"), os.path.join(d, "notes.txt"))
        os.mkdir(os.path.join(d, "sub.iprof"))  # a directory is not an input
        want = self.ok("merge", "post-a.iprof", "post-b.iprof")
        self.assertEqual(self.ok("merge", d), want)
        self.assertEqual(self.ok("merge", d + "/"), want)
        # a DIR weight applies to its files; a file weight wins over it
        w = json.loads(self.ok("merge", "--weight", d + "=2",
                               "--weight", os.path.join(d, "post-a.iprof") + "=1", d))
        cc = {e["ctx"]: e["records"] for e in w["callCountProfiles"]}
        self.assertEqual(cc["4:0<1:5"], [10 + 2 * 5])
        # The output in a DIR operand is last run's result: not merged again
        # (twice the counts on every run), whichever side of DIR -o is.
        out = os.path.join(d, "merged.iprof")
        for args in (["-o", out, d], [d, "-o", out], [d, "-o", out]):
            code, stdout, err = run("merge", *args)
            self.assertEqual((code, stdout), (0, b""), err)
            with open(out, "rb") as f:
                self.assertEqual(f.read(), want)
        self.assertEqual(err, "iprof merge: %s: not merged: it is the output (-o)\n" % out)
        # Named as a FILE it is merged, as asked.
        code, stdout, err = run("merge", out, "post-a.iprof", "-o", out)
        self.assertEqual((code, err), (0, ""))
        twice = json.loads(self.ok("cat", out))
        self.assertEqual({e["ctx"]: e["records"] for e in twice["callCountProfiles"]}["4:0<1:5"],
                         [10 + 5 + 10])
        os.unlink(out)
        empty = os.path.join(self.tmp, "empty")
        os.mkdir(empty)
        self.expect(["merge", empty], 2,
                    err="iprof merge: %s: no *.iprof or *.iprof.gz file in the directory\n"
                        % empty)

    def test_stdin(self):
        want = self.ok("merge", "post-a.iprof", "post-b.iprof")
        self.assertEqual(self.ok("merge", "-", "post-b.iprof", stdin=data("post-a.iprof")), want)
        self.assertEqual(self.ok("merge", "post-a.iprof", "--weight", "-=1", "-",
                                 stdin=data("post-b.iprof")), want)

    def test_output_file_gzip_and_atomic(self):
        need_gzip()
        want = self.ok("merge", *INPUTS)
        out = os.path.join(self.tmp, "merged.iprof")
        self.assertEqual(self.ok("merge", "-o", out, *INPUTS), b"")
        with open(out, "rb") as f:
            self.assertEqual(f.read(), want)
        gz = os.path.join(self.tmp, "merged.iprof.gz")
        self.ok("merge", "-o", gz, *INPUTS)
        with open(gz, "rb") as f:
            raw = f.read()
        self.assertEqual(raw[:2], b"\x1f\x8b")
        self.assertEqual(gzip.decompress(raw), want)
        self.assertEqual(self.files(), ["merged.iprof", "merged.iprof.gz"])
        # a failing merge leaves OUT as it was and no temporary file
        code, stdout, err = run("merge", "-o", out, "post-a.iprof", "syntax-error.iprof")
        self.assertEqual((code, stdout), (1, b""))
        self.assertIn("syntax-error.iprof:5:3:", err)
        with open(out, "rb") as f:
            self.assertEqual(f.read(), want)
        self.assertEqual(self.files(), ["merged.iprof", "merged.iprof.gz"])

    def test_gzip_inputs(self):
        need_gzip()
        gz = os.path.join(self.tmp, "a.iprof.gz")
        with gzip.open(gz, "wb") as f:
            f.write(data("post-a.iprof"))
        self.assertEqual(self.ok("merge", gz, "post-b.iprof"),
                         self.ok("merge", "post-a.iprof", "post-b.iprof"))

    def test_dangling_input(self):
        self.expect(["merge", "post-a.iprof", "rules-broken.iprof"], 1,
                    err=RULES_BROKEN + "rules-broken.iprof:13:13: callCountProfiles[1].ctx: "
                    "method id 9 is not defined\n"  # where the reference is
                    "iprof merge: rules-broken.iprof: refers to types or "
                    "methods it does not define (callCountProfiles entry: method id 9 is not "
                    "defined in the profile merged from); cannot merge it\n")


# GraalVM 25's files (tests/data/README.md): instanceOfProfiles; unknown
# top-level keys holding ids (graalvm25-unknown.iprof) or nothing that can
# hold ids (graalvm25-plain-unknown.iprof).
G25 = "graalvm25.iprof"
G25_UNKNOWN = "graalvm25-unknown.iprof"
G25_PLAIN = "graalvm25-plain-unknown.iprof"

# The canonical form of graalvm25.iprof: ids renumbered by name, the repeated
# sampling ctx combined (30 + 12), GraalVM's instanceOfProfiles.
G25_CANONICAL = (
    '{"version":"1.1.0","types":[{"id":0,"name":"boolean"},{"id":1,"name":"com.example.Circle"},'
    '{"id":2,"name":"com.example.Main"},{"id":3,"name":"com.example.Shape"},'
    '{"id":4,"name":"com.example.Square"},{"id":5,"name":"int"},'
    '{"id":6,"name":"java.lang.Object"},{"id":7,"name":"void"}],"methods":[{"id":1,'
    '"name":"area","signature":[1,5]},{"id":2,"name":"main","signature":[2,7]},{"id":3,'
    '"name":"area","signature":[3,5]},{"id":4,"name":"area","signature":[4,5]},{"id":5,'
    '"name":"equals","signature":[6,0,6]}],"callCountProfiles":[{"ctx":"1:0<3:5<2:-6",'
    '"records":[600]},{"ctx":"3:0","records":[1000]},{"ctx":"4:0<3:9<2:-6","records":[400]}],'
    '"conditionalProfiles":[{"ctx":"3:12","records":[17,0,600,17,1,400,23,-1,5,31,-5,0]}],'
    '"virtualInvokeProfiles":[{"ctx":"2:4","records":[1,600,4,400]}],"monitorProfiles":'
    '[{"ctx":"0:0","records":[6,7]}],"samplingProfiles":[{"ctx":"1:2<3:5<2:-6","records":[42]},'
    '{"ctx":"4:1<3:9<2:-6","records":[20]}],"instanceOfProfiles":[{"ctx":"3:3","records":'
    '[1,600,4,400]}]}')

CANNOT_MERGE = ('iprof merge: graalvm25-unknown.iprof: cannot merge: unknown key '
                '"ceConditionalProfilesV2" of the model merged from holds data whose ids '
                'cannot be renumbered or combined (--drop-unknown drops them)\n')
CANNOT_CANONICAL = ('iprof %s: graalvm25-unknown.iprof: cannot be put in canonical form: '
                    'unknown key "ceConditionalProfilesV2" of the model holds data whose ids '
                    'cannot be renumbered or combined (--drop-unknown drops them)\n')
DROPPED = ('iprof %s: graalvm25-unknown.iprof: dropped unknown key "ceConditionalProfilesV2" '
           '(46 bytes)\n'
           'iprof %s: graalvm25-unknown.iprof: dropped unknown key '
           '"virtualInvokeMethodProfiles" (39 bytes)\n')
PLAIN_TAIL = ',"virtualInvokeMethodProfiles":[],"x-tool":"iprof-test"}'


def lower_spelling(raw):
    out = raw.replace(b'"instanceOfProfiles":', b'"instanceofProfiles":')
    assert out != raw
    return out


class MergeGraalVM25(ToolCase):
    def test_canonical_form(self):
        self.expect(["merge", G25], 0, G25_CANONICAL)

    def test_unknown_key_with_ids(self):
        self.expect(["merge", G25_UNKNOWN], 1, err=CANNOT_MERGE)
        self.expect(["merge", G25, G25_UNKNOWN], 1, err=CANNOT_MERGE)
        self.expect(["merge", G25_UNKNOWN, G25], 1, err=CANNOT_MERGE)
        out = os.path.join(self.tmp, "m.iprof")
        self.expect(["merge", "-o", out, G25_UNKNOWN], 1, err=CANNOT_MERGE)
        self.assertEqual(self.files(), [])

    def test_drop_unknown(self):
        # Said on stderr key by key, and by exit status 4; the rest is the
        # merge of graalvm25.iprof.
        self.expect(["merge", "--drop-unknown", G25_UNKNOWN], 4, G25_CANONICAL,
                    DROPPED % ("merge", "merge"))
        self.assertEqual(run("merge", "--drop-unknown", G25_UNKNOWN)[1],
                         self.ok("merge", G25))

    def test_plain_unknown_keys_kept(self):
        # [] and scalars hold no ids: kept, after every section, sorted by key;
        # the same bytes in either order of the inputs.
        one = self.ok("merge", G25_PLAIN, G25)
        two = self.ok("merge", G25, G25_PLAIN)
        self.assertEqual(one, two)
        self.assertTrue(one.endswith(
            b'"instanceOfProfiles":[{"ctx":"3:3","records":[1,1200,4,800]}]' +
            PLAIN_TAIL.encode()), one[-200:])
        self.assertEqual(one, self.ok("merge", G25, G25)[:-1] + PLAIN_TAIL.encode())
        self.expect(["merge", G25_PLAIN], 0, G25_CANONICAL[:-1] + PLAIN_TAIL)

    def test_plain_unknown_keys_that_differ(self):
        other = os.path.join(self.tmp, "other.iprof")
        with open(other, "wb") as f:
            f.write(data(G25_PLAIN).replace(b'"iprof-test"', b'"other"'))
        self.expect(["merge", G25_PLAIN, other], 1,
                    err='iprof merge: %s: cannot merge: unknown key "x-tool" has different '
                        'values in the two models (--drop-unknown drops them)\n' % other)
        code, out, err = run("merge", "--drop-unknown", G25_PLAIN, other)
        self.assertEqual((code, out), (4, self.ok("merge", G25, G25)))
        self.assertEqual(err, (
            'iprof merge: graalvm25-plain-unknown.iprof: dropped unknown key '
            '"virtualInvokeMethodProfiles" (2 bytes)\n'
            'iprof merge: graalvm25-plain-unknown.iprof: dropped unknown key "x-tool" (12 bytes)\n'
            'iprof merge: %s: dropped unknown key "virtualInvokeMethodProfiles" (2 bytes)\n'
            'iprof merge: %s: dropped unknown key "x-tool" (7 bytes)\n' % (other, other)))

    def test_instanceof_spelling(self):
        lower = os.path.join(self.tmp, "lower.iprof")
        with open(lower, "wb") as f:
            f.write(lower_spelling(data(G25)))
        # the inputs' spelling, GraalVM's when they disagree (in any order)
        self.expect(["merge", lower], 0, lower_spelling(G25_CANONICAL.encode()))
        twice = self.ok("merge", G25, G25)
        self.assertEqual(self.ok("merge", lower, G25), twice)
        self.assertEqual(self.ok("merge", G25, lower), twice)
        self.expect(["merge", "--instanceof-key", "instanceof", G25, lower], 0,
                    lower_spelling(twice))
        # a 1.1.0 input without the section: GraalVM's spelling
        without = data(G25).replace(
            b',"instanceOfProfiles":[{"ctx":"2:3","records":[5,600,6,400]}]', b"")
        self.assertNotIn(b"nstanceOf", without)
        self.expect(["merge", "-"], 0,
                    G25_CANONICAL[:G25_CANONICAL.index('"instanceOfProfiles"')] +
                    '"instanceOfProfiles":[]}', stdin=without)


# ---------------------------------------------------------------------------
# convert

CANONICAL_A = (
    '{"version":"1.0.0","types":[{"id":0,"name":"app.Main"},{"id":1,"name":"int"},'
    '{"id":2,"name":"lib.Util"},{"id":3,"name":"void"}],"methods":[{"id":1,"name":"main",'
    '"signature":[0,3]},{"id":2,"name":"<init>","signature":[2,3]},{"id":3,"name":"helper",'
    '"signature":[2,1,1]}],"callCountProfiles":[{"ctx":"1:0","records":[1]},{"ctx":"3:0<1:5",'
    '"records":[10]}],"conditionalProfiles":[{"ctx":"3:3<1:5","records":[3,1,6,3,0,4]}],'
    '"virtualInvokeProfiles":[{"ctx":"1:5","records":[2,10]}],"monitorProfiles":[{"ctx":"0:0",'
    '"records":[2,2]}],"samplingProfiles":[{"ctx":"3:3<1:5","records":[5]}]}')


class Convert(ToolCase):
    def test_canonical_makes_equal_profiles_equal_bytes(self):
        self.assertNotEqual(data("post-a.iprof"), data("post-a-scrambled.iprof"))
        self.expect(["convert", "--canonical", "post-a.iprof"], 0, CANONICAL_A)
        self.expect(["convert", "--canonical", "post-a-scrambled.iprof"], 0, CANONICAL_A)
        # idempotent
        self.expect(["convert", "--canonical", "-"], 0, CANONICAL_A,
                    stdin=CANONICAL_A.encode())

    def test_versions(self):
        hint = ("iprof convert: post-b.iprof: has instanceof profiles, which version %s "
                "cannot hold (use --drop-instanceof to drop them, or --to 1.1.0)\n")
        self.expect(["convert", "--to", "1.0.0", "post-b.iprof"], 1, err=hint % "1.0.0")
        self.expect(["convert", "--to", "0.4.0", "post-b.iprof"], 1, err=hint % "0.4.0")
        out = self.ok("convert", "--to", "0.4.0", "--drop-instanceof", "post-b.iprof")
        self.assertTrue(out.startswith(b'{"version":"0.4.0","types":'), out)
        self.assertNotIn(b"instanceof", out)
        self.assertLess(out.index(b"monitorProfiles"), out.index(b"callCountProfiles"))
        # post-a has no instanceof section, so no spelling of its key to keep:
        # GraalVM's instanceOfProfiles, unless asked for the document's.
        up = json.loads(self.ok("convert", "--to", "1.1.0", "post-a.iprof"))
        self.assertEqual((up["version"], up["instanceOfProfiles"]), ("1.1.0", []))
        self.assertNotIn("instanceofProfiles", up)
        up = json.loads(self.ok("convert", "--to", "1.1.0", "--instanceof-key", "instanceof",
                                "post-a.iprof"))
        self.assertEqual((up["version"], up["instanceofProfiles"]), ("1.1.0", []))
        # round trip down and up keeps the rest
        down = self.ok("convert", "--to", "1.0.0", "--drop-instanceof", "post-b.iprof")
        back = self.ok("convert", "--to", "1.1.0", "-", stdin=down)
        self.assertEqual(json.loads(back)["callCountProfiles"],
                         json.loads(data("post-b.iprof"))["callCountProfiles"])
        # the default is the file's version, GraalVM's layout
        self.assertEqual(self.ok("convert", "graal-0.4.0.iprof"), data("graal-0.4.0.iprof"))

    def test_gzip(self):
        need_gzip()
        gz = os.path.join(self.tmp, "a.iprof.gz")
        self.ok("convert", "--canonical", "post-a.iprof", "-o", gz)
        with open(gz, "rb") as f:
            self.assertEqual(gzip.decompress(f.read()), CANONICAL_A.encode())
        self.expect(["convert", gz], 0, CANONICAL_A)
        self.expect(["convert", "-"], 0, CANONICAL_A, stdin=gzip.compress(CANONICAL_A.encode()))
        self.assertEqual(self.files(), ["a.iprof.gz"])

    def test_canonical_failure(self):
        # A lenient load keeps the broken entries; they cannot be sorted.
        self.expect(["convert", "--canonical", "--to", "1.1.0", "rules-broken.iprof"], 1,
                    err=RULES_BROKEN + "iprof convert: rules-broken.iprof: cannot be put in "
                    "canonical form: an "
                    "entry breaks its kind's rules (read it with 'iprof validate')\n")


LEGACY_1_1_0 = (
    '{"version":"1.1.0","types":[{"id":0,"name":"int"},{"id":8,"name":"void"},'
    '{"id":10,"name":"Fib"},{"id":11,"name":"java.lang.String"}],'
    '"methods":[{"id":3,"name":"main","signature":[10,8]},'
    '{"id":5,"name":"fib","signature":[10,0,0]},{"id":7,"name":"toString","signature":[11,11]}],'
    '"callCountProfiles":[{"ctx":"3:0","records":[1]},{"ctx":"5:0<3:4","records":[10]},'
    '{"ctx":"7:0<5:9<3:-6","records":[23929230826]}],'
    '"conditionalProfiles":[{"ctx":"5:2<3:4","records":[6,0,9,12,1,1]},'
    '{"ctx":"5:-1","records":[20,0,3,-5,0,2,30,1,0]}],'
    '"virtualInvokeProfiles":[{"ctx":"5:15<3:4","records":[11,4,10,2]}],'
    '"monitorProfiles":[{"ctx":"0:0","records":[10,1,11,3]}],'
    '"samplingProfiles":[]')


def legacy_totals(doc):
    """Entries and total counts per 1.x kind of a 0.2.0 document, from its
    JSON alone: the mapping docs/format.md gives, computed independently of
    the library."""
    def pairs(records):
        return sum(records[1::2])
    monitors = doc["monitorsProfile"]["records"]
    return ({"callCountProfiles": len(doc["hotnessPoints"]),
             "conditionalProfiles": len(doc["conditionalPoints"]),
             "virtualInvokeProfiles": len(doc["invokePoints"]),
             "monitorProfiles": 1 if monitors else 0,
             "samplingProfiles": 0, "instanceofProfiles": 0},
            {"callCountProfiles": sum(e["records"][0] for e in doc["hotnessPoints"]),
             "conditionalProfiles": sum(sum(e["records"][2::3])
                                        for e in doc["conditionalPoints"]),
             "virtualInvokeProfiles": sum(pairs(e["records"]) for e in doc["invokePoints"]),
             "monitorProfiles": pairs(monitors),
             "samplingProfiles": 0, "instanceofProfiles": 0})


class ConvertLegacy(ToolCase):
    """Format 0.2.0 (GraalVM's legacy layout): read, converted, written back."""

    def converted(self, path, version, cwd=DATA):
        out = self.ok("convert", "--to", version, path, cwd=cwd)
        code, vout, err = run("validate", "--strict", "-", stdin=out)
        self.assertEqual((code, vout, err), (0, b"<stdin>: valid\n", ""), version)
        return out

    def check_same_data(self, path, cwd=DATA):
        with open(os.path.join(cwd, path), "rb") as f:
            raw = f.read()
        entries, totals = legacy_totals(json.loads(raw))
        for version in ("1.1.0", "1.0.0", "0.4.0"):
            out = self.converted(path, version, cwd)
            stats = json.loads(self.ok("stats", "--json", "-", stdin=out))
            self.assertEqual((stats["version"], stats["entries"], stats["totals"]),
                             (version, entries, totals))
            # and back: the 0.2.0 file's own bytes
            self.assertEqual(self.ok("convert", "--to", "0.2.0", "-", stdin=out), raw)
        self.assertEqual(self.ok("cat", path, cwd=cwd), raw)
        self.assertEqual(self.ok("convert", path, cwd=cwd), raw)
        return raw

    def test_small(self):
        self.check_same_data("legacy-0.2.0.iprof")
        self.assertEqual(self.converted("legacy-0.2.0.iprof", "1.1.0"),
                         (LEGACY_1_1_0 + ',"instanceOfProfiles":[]}').encode())
        self.assertEqual(self.converted("legacy-0.2.0.iprof", "1.0.0"),
                         LEGACY_1_1_0.replace("1.1.0", "1.0.0").encode() + b"}")
        # --pretty has nothing to add to 0.2.0's one layout
        self.assertEqual(self.ok("cat", "--pretty", "legacy-0.2.0.iprof"),
                         data("legacy-0.2.0.iprof"))

    def test_what_0_2_0_cannot_hold(self):
        self.expect(["convert", "--to", "0.2.0", "--drop-instanceof", "small-1.1.0.iprof"], 1,
                    err="iprof convert: small-1.1.0.iprof: has sampling profiles, which version "
                    "0.2.0 cannot hold (write 1.x)\n")
        self.expect(["cat", "--to", "0.2.0", "post-b.iprof"], 1,
                    err="iprof cat: post-b.iprof: has instanceof profiles, which version 0.2.0 "
                    "cannot hold (use --drop-instanceof to drop them, or --to 1.1.0)\n")
        self.expect(["convert", "--to", "0.3.0", "legacy-0.2.0.iprof"], 2,
                    err="iprof convert: unknown version '0.3.0' (0.2.0, 0.4.0, 1.0.0 or 1.1.0)\n"
                    "Try 'iprof convert --help' for more information.\n")
        # What the model holds and the version cannot is said of the input,
        # not of the output (it was "<stdout>").
        two = (b'{"version":"1.0.0","types":[{"id":0,"name":"T"}],"methods":[],'
               b'"callCountProfiles":[],"conditionalProfiles":[],"virtualInvokeProfiles":[],'
               b'"monitorProfiles":[{"ctx":"0:0","records":[0,1]},{"ctx":"0:0","records":'
               b'[0,2]}],"samplingProfiles":[]}')
        for cmd in ("cat", "convert"):
            self.expect([cmd, "--to", "0.2.0", "-"], 1, stdin=two,
                        err="iprof %s: <stdin>: monitorsProfile[1]: format 0.2.0 holds one "
                        "monitor profile, not a second monitor entry\n" % cmd)
        # a 1.x profile without sampling or instanceof goes down and up again
        no_sampling = self.ok("filter", "--kinds", "callcount,conditional,virtualinvoke,monitor",
                              "graal-1.0.0.iprof")
        down = self.ok("convert", "--to", "0.2.0", "-", stdin=no_sampling)
        self.assertTrue(down.startswith(b'{\n  "version": "0.2.0",\n  "types": [\n'), down)
        self.assertIn(b'"methodBciList": "', down)
        self.assertEqual(self.ok("convert", "--to", "1.0.0", "-", stdin=down), no_sampling)

    def test_format_md_example(self):
        # docs/format.md's 0.2.0 example is GraalVM's layout: it validates
        # strictly and cat gives its bytes back.
        with open(os.path.join(DATA, "..", "..", "docs", "format.md"), "rb") as f:
            text = f.read()
        start = text.index(b"```\n", text.index(b"**Byte layout** (measured")) + 4
        example = text[start:text.index(b"\n```", start)]
        self.assertTrue(example.startswith(b'{\n  "version": "0.2.0"'), example[:40])
        self.assertEqual(run("validate", "--strict", "-", stdin=example)[:2],
                         (0, b"<stdin>: valid\n"))
        self.assertEqual(self.ok("cat", "-", stdin=example), example)

    def test_corpus(self):
        paths = corpus_files("binary-tree-legacy-0.2.0.iprof",
                             "binary-tree-types-only-legacy-0.2.0.iprof")
        for path in paths:
            self.check_same_data(path, cwd=os.path.dirname(path))


class ConvertGraalVM25(ToolCase):
    def test_canonical_unknown_keys(self):
        self.expect(["convert", "--canonical", G25_UNKNOWN], 1, err=CANNOT_CANONICAL % "convert")
        self.expect(["convert", "--canonical", "--drop-unknown", G25_UNKNOWN], 4, G25_CANONICAL,
                    DROPPED % ("convert", "convert"))
        self.expect(["convert", "--canonical", G25_PLAIN], 0, G25_CANONICAL[:-1] + PLAIN_TAIL)
        self.expect(["convert", "--canonical", G25], 0, G25_CANONICAL)
        # kept keys after every section, sorted by key; idempotent
        sorted_keys = ('{"version":"1.1.0","types":[],"methods":[],"callCountProfiles":[],'
                       '"conditionalProfiles":[],"virtualInvokeProfiles":[],"monitorProfiles":[],'
                       '"samplingProfiles":[],"instanceOfProfiles":[],"aa":[],"zz":1}')
        self.expect(["convert", "--canonical", "-"], 0, sorted_keys,
                    stdin=b'{"version":"1.1.0","zz":1,"types":[],"methods":[],"aa":[]}')
        self.expect(["convert", "--canonical", "-"], 0, sorted_keys, stdin=sorted_keys.encode())

    def test_drop_unknown_without_canonical(self):
        # Dropping is what was asked for, canonical form or not (exit 4).
        self.expect(["convert", "--drop-unknown", G25_UNKNOWN], 4, data(G25),
                    DROPPED % ("convert", "convert"))

    def test_canonical_keeps_the_spelling(self):
        self.expect(["convert", "--canonical", "-"], 0, lower_spelling(G25_CANONICAL.encode()),
                    stdin=lower_spelling(data(G25)))
        self.expect(["convert", "--canonical", "--instanceof-key", "instanceOf", "-"], 0,
                    G25_CANONICAL, stdin=lower_spelling(data(G25)))

    def test_versions_keep_unknown_keys(self):
        # No renumbering: the keys stay where they were, nothing is refused.
        out = self.ok("convert", "--to", "0.4.0", "--drop-instanceof", G25_UNKNOWN)
        keys = list(json.loads(out))
        self.assertEqual(keys, ["version", "types", "methods", "monitorProfiles",
                                "virtualInvokeProfiles", "virtualInvokeMethodProfiles",
                                "callCountProfiles", "conditionalProfiles",
                                "ceConditionalProfilesV2", "samplingProfiles"])
        back = self.ok("convert", "--to", "1.1.0", "-", stdin=out)
        # back in 1.1.0: every section and unknown key where it was, the
        # instanceof section (dropped) empty
        self.assertEqual(back, data(G25_UNKNOWN).replace(
            b'"instanceOfProfiles":[{"ctx":"2:3","records":[5,600,6,400]}]',
            b'"instanceOfProfiles":[]'))
        self.assertEqual(self.ok("convert", G25_UNKNOWN), data(G25_UNKNOWN))


# ---------------------------------------------------------------------------
# filter

FILTER_HEAD = '{"version":"1.1.0","types":[{"id":0,"name":"int"},{"id":1,"name":"com.app.Main"},' \
              '{"id":2,"name":"com.app.db.Store"},{"id":3,"name":"com.apple.Pie"},' \
              '{"id":4,"name":"java.util.HashMap"}'
T_OBJECT = ',{"id":5,"name":"java.lang.Object"}'
M_MAIN = '{"id":1,"name":"main","signature":[1,0]}'
M_GET = '{"id":2,"name":"get","signature":[2,0,0]}'
M_BAKE = '{"id":3,"name":"bake","signature":[3,0]}'
M_PUT = '{"id":4,"name":"put","signature":[4,5,5,5]}'
VIRTUAL = '"virtualInvokeProfiles":[{"ctx":"1:3","records":[2,40,3,20]}]'
MONITOR = '"monitorProfiles":[{"ctx":"0:0","records":[4,9]}]'


class Filter(ToolCase):
    def test_no_options_copies(self):
        self.assertEqual(json.loads(self.ok("filter", "post-filter.iprof")),
                         json.loads(data("post-filter.iprof")))

    def test_keep_package(self):
        # com.app: Main and db.Store, not com.apple; the monitor stays.
        # Keep packages judge entries: every method and type stays ...
        entries = ('"callCountProfiles":[{"ctx":"1:0","records":[1]},{"ctx":"2:0<1:3",'
                   '"records":[60]}],"conditionalProfiles":[{"ctx":"2:2<1:3","records":'
                   '[2,0,7,2,1,3]}],' + VIRTUAL + ',' + MONITOR + ',"samplingProfiles":'
                   '[{"ctx":"2:4<1:3","records":[10]}],"instanceofProfiles":[]}')
        self.expect(["filter", "--keep-package", "com.app", "post-filter.iprof"], 0,
                    FILTER_HEAD + T_OBJECT + '],"methods":[' + M_MAIN + ',' + M_GET + ','
                    + M_BAKE + ',' + M_PUT + '],' + entries)
        # ... until --prune takes bake and put, which no entry names any
        # more, then java.lang.Object, which only put named.
        self.expect(["filter", "--keep-package", "com.app", "--prune", "post-filter.iprof"], 0,
                    FILTER_HEAD + '],"methods":[' + M_MAIN + ',' + M_GET + '],' + entries)

    def test_drop_package_and_longest_match(self):
        self.expect(["filter", "--drop-package", "java.", "post-filter.iprof"], 0,
                    FILTER_HEAD + T_OBJECT + '],"methods":[' + M_MAIN + ',' + M_GET + ','
                    + M_BAKE + '],"callCountProfiles":[{"ctx":"1:0","records":[1]},'
                    '{"ctx":"2:0<1:3","records":[60]},{"ctx":"3:0<1:8","records":[25]}],'
                    '"conditionalProfiles":[{"ctx":"2:2<1:3","records":[2,0,7,2,1,3]}],'
                    + VIRTUAL + ',' + MONITOR + ',"samplingProfiles":[{"ctx":"2:4<1:3",'
                    '"records":[10]}],"instanceofProfiles":[{"ctx":"3:1<1:8","records":[5,2]}]}')
        # com kept, com.app.db dropped (longer): get goes, its type stays (a
        # virtual invoke record names it); java's entries go (unmatched), not
        # its method put (keep packages judge entries only)
        self.expect(["filter", "--keep-package", "com", "--drop-package", "com.app.db",
                     "post-filter.iprof"], 0,
                    FILTER_HEAD + T_OBJECT + '],"methods":[' + M_MAIN + ',' + M_BAKE + ','
                    + M_PUT + '],'
                    '"callCountProfiles":[{"ctx":"1:0","records":[1]},{"ctx":"3:0<1:8",'
                    '"records":[25]}],"conditionalProfiles":[],' + VIRTUAL + ',' + MONITOR +
                    ',"samplingProfiles":[],"instanceofProfiles":[{"ctx":"3:1<1:8","records":'
                    '[5,2]}]}')

    def test_max_depth(self):
        # Every context cut to its callee frame (issue 15, part 4).
        self.expect(["filter", "--max-depth", "1", "post-filter.iprof"], 0,
                    FILTER_HEAD + T_OBJECT + '],"methods":[' + M_MAIN + ',' + M_GET + ','
                    + M_BAKE + ',' + M_PUT + '],"callCountProfiles":[{"ctx":"1:0","records":'
                    '[1]},{"ctx":"2:0","records":[60]},{"ctx":"3:0","records":[25]},{"ctx":'
                    '"4:0","records":[14]}],"conditionalProfiles":[{"ctx":"2:2","records":'
                    '[2,0,7,2,1,3]}],' + VIRTUAL + ',' + MONITOR + ',"samplingProfiles":'
                    '[{"ctx":"4:5","records":[30]},{"ctx":"2:4","records":[10]}],'
                    '"instanceofProfiles":[{"ctx":"3:1","records":[5,2]}]}')
        for bad in ("0", "-1", "x", ""):
            code, out, err = run("filter", "--max-depth", bad, "post-filter.iprof")
            self.assertEqual((code, out), (2, b""), bad)
            self.assertTrue(err.startswith("iprof filter: bad --max-depth '%s': an integer "
                                           ">= 1 is needed\n" % bad), err)

    def test_prune_and_sizes(self):
        # The zero-count entry goes, then its method; the bytes before and
        # after are reported when both sides are files.
        doc = (b'{"version":"1.0.0","types":[{"id":0,"name":"T"}],"methods":[{"id":1,'
               b'"name":"a","signature":[0,0]},{"id":2,"name":"b","signature":[0,0]}],'
               b'"callCountProfiles":[{"ctx":"1:0","records":[3]},{"ctx":"2:0","records":[0]}],'
               b'"conditionalProfiles":[],"virtualInvokeProfiles":[],"monitorProfiles":[],'
               b'"samplingProfiles":[]}')
        want = (b'{"version":"1.0.0","types":[{"id":0,"name":"T"}],"methods":[{"id":1,'
                b'"name":"a","signature":[0,0]}],"callCountProfiles":[{"ctx":"1:0","records":'
                b'[3]}],"conditionalProfiles":[],"virtualInvokeProfiles":[],'
                b'"monitorProfiles":[],"samplingProfiles":[]}')
        self.expect(["filter", "--prune", "-"], 0, want, stdin=doc)  # a pipe: no sizes
        src, out = os.path.join(self.tmp, "in.iprof"), os.path.join(self.tmp, "out.iprof")
        with open(src, "wb") as f:
            f.write(doc)
        code, stdout, err = run("filter", "--prune", src, "-o", out)
        self.assertEqual((code, stdout), (0, b""))
        with open(out, "rb") as f:
            self.assertEqual(f.read(), want)
        sizes = "iprof filter: %s: %d -> %d bytes (%+.1f%%)\n" % (
            src, len(doc), len(want), 100.0 * (len(want) - len(doc)) / len(doc))
        self.assertEqual(err, sizes)
        # Appended to a file through /dev/stdout: the bytes of this output.
        log = os.path.join(self.tmp, "log")
        with open(log, "wb") as f:
            f.write(b"before;")
        with open(log, "ab") as f:
            p = subprocess.run([IPROF, "filter", "--prune", src, "-o", "/dev/stdout"],
                               stdout=f, stderr=subprocess.PIPE)
        self.assertEqual((p.returncode, p.stderr.decode()), (0, sizes))
        # Compressed bytes against text say nothing: no line.
        need_gzip()
        code, stdout, err = run("filter", "--prune", src, "-o", out + ".gz")
        self.assertEqual((code, stdout, err), (0, b"", ""))

    def test_min_count(self):
        self.expect(["filter", "--min-count", "20", "post-filter.iprof"], 0,
                    FILTER_HEAD + T_OBJECT + '],"methods":[' + M_MAIN + ',' + M_GET + ','
                    + M_BAKE + ',' + M_PUT + '],"callCountProfiles":[{"ctx":"2:0<1:3",'
                    '"records":[60]},{"ctx":"3:0<1:8","records":[25]}],"conditionalProfiles":'
                    '[],' + VIRTUAL + ',"monitorProfiles":[],"samplingProfiles":[{"ctx":'
                    '"4:5<2:7<1:3","records":[30]}],"instanceofProfiles":[]}')

    def test_top_percent(self):
        # call counts 60 25 14 1 (of 100): 80% needs 60 + 25; sampling 30 10
        # (of 40): 80% needs both
        self.expect(["filter", "--top-percent", "80", "post-filter.iprof"], 0,
                    FILTER_HEAD + T_OBJECT + '],"methods":[' + M_MAIN + ',' + M_GET + ','
                    + M_BAKE + ',' + M_PUT + '],"callCountProfiles":[{"ctx":"2:0<1:3",'
                    '"records":[60]},{"ctx":"3:0<1:8","records":[25]}],"conditionalProfiles":'
                    '[{"ctx":"2:2<1:3","records":[2,0,7,2,1,3]}],' + VIRTUAL + ',' + MONITOR +
                    ',"samplingProfiles":[{"ctx":"4:5<2:7<1:3","records":[30]},{"ctx":'
                    '"2:4<1:3","records":[10]}],"instanceofProfiles":[{"ctx":"3:1<1:8",'
                    '"records":[5,2]}]}')

    def test_kinds(self):
        want = (FILTER_HEAD + T_OBJECT + '],"methods":[' + M_MAIN + ',' + M_GET + ',' + M_BAKE +
                ',' + M_PUT + '],"callCountProfiles":[{"ctx":"1:0","records":[1]},{"ctx":'
                '"2:0<1:3","records":[60]},{"ctx":"3:0<1:8","records":[25]},{"ctx":'
                '"4:0<2:7<1:3","records":[14]}],"conditionalProfiles":[],'
                '"virtualInvokeProfiles":[],' + MONITOR + ',"samplingProfiles":[],'
                '"instanceofProfiles":[]}')
        self.expect(["filter", "--kinds", "callcount,monitor", "post-filter.iprof"], 0, want)
        self.expect(["filter", "--kinds=monitorProfiles,callCountProfiles",
                     "post-filter.iprof"], 0, want)
        # GraalVM's spelling of the instanceof key as well as the document's.
        only_iof = self.ok("filter", "--kinds", "instanceofProfiles", "post-filter.iprof")
        self.assertEqual(self.ok("filter", "--kinds", "instanceOfProfiles", "post-filter.iprof"),
                         only_iof)
        self.assertEqual(self.ok("filter", "--kinds", "instanceof", "post-filter.iprof"), only_iof)

    def test_combined_canonical_gzip(self):
        need_gzip()
        gz = os.path.join(self.tmp, "f.iprof.gz")
        self.ok("filter", "--kinds", "callcount", "--min-count", "20", "--prune", "--canonical",
                "post-filter.iprof", "-o", gz)
        with open(gz, "rb") as f:
            self.assertEqual(
                gzip.decompress(f.read()),
                b'{"version":"1.1.0","types":[{"id":0,"name":"com.app.Main"},{"id":1,"name":'
                b'"com.app.db.Store"},{"id":2,"name":"com.apple.Pie"},{"id":3,"name":"int"}],'
                b'"methods":[{"id":1,"name":"main","signature":[0,3]},{"id":2,"name":"get",'
                b'"signature":[1,3,3]},{"id":3,"name":"bake","signature":[2,3]}],'
                b'"callCountProfiles":[{"ctx":"2:0<1:3","records":[60]},{"ctx":"3:0<1:8",'
                b'"records":[25]}],"conditionalProfiles":[],"virtualInvokeProfiles":[],'
                b'"monitorProfiles":[],"samplingProfiles":[],"instanceofProfiles":[]}')


# graalvm25-unknown.iprof with call counts only, pruned: entries of other
# kinds gone, then boolean, java.lang.Object and equals() that nothing refers
# to any more; the unknown keys stay where they were, as they were.
G25_CALLCOUNT_HEAD = (
    '{"version":"1.1.0","types":[{"id":1,"name":"int"},{"id":3,"name":"com.example.Main"},'
    '{"id":4,"name":"com.example.Shape"},{"id":5,"name":"com.example.Circle"},'
    '{"id":6,"name":"com.example.Square"},{"id":7,"name":"void"}],"methods":[{"id":1,'
    '"name":"main","signature":[3,7]},{"id":2,"name":"area","signature":[4,1]},{"id":3,'
    '"name":"area","signature":[5,1]},{"id":4,"name":"area","signature":[6,1]}],'
    '"callCountProfiles":[{"ctx":"2:0","records":[1000]},{"ctx":"3:0<2:5<1:-6",'
    '"records":[600]},{"ctx":"4:0<2:9<1:-6","records":[400]}],"conditionalProfiles":[],')


class FilterGraalVM25(ToolCase):
    def test_kinds_keep_unknown_keys_in_place(self):
        # Keys that may hold ids may name any type or method: none is pruned.
        whole = data(G25_UNKNOWN).decode()
        head = whole[:whole.index('"callCountProfiles"')] + G25_CALLCOUNT_HEAD[
            G25_CALLCOUNT_HEAD.index('"callCountProfiles"'):]
        self.expect(["filter", "--kinds", "callcount", "--prune", G25_UNKNOWN], 0,
                    head +
                    '"ceConditionalProfilesV2":[{"ctx":"2:12","records":[17,0,600,17,1,400]}],'
                    '"virtualInvokeProfiles":[],"virtualInvokeMethodProfiles":[{"ctx":"1:4",'
                    '"records":[3,600,4,400]}],"monitorProfiles":[],"samplingProfiles":[],'
                    '"instanceOfProfiles":[]}')
        plain_tail = ('"virtualInvokeProfiles":[],"virtualInvokeMethodProfiles":[],'
                      '"monitorProfiles":[],"samplingProfiles":[],"instanceOfProfiles":[],'
                      '"x-tool":"iprof-test"}')
        self.expect(["filter", "--kinds", "callcount", "--prune", G25_PLAIN], 0,
                    G25_CALLCOUNT_HEAD + plain_tail)
        # without --prune what nothing refers to stays
        whole = data(G25_PLAIN).decode()
        self.expect(["filter", "--kinds", "callcount", G25_PLAIN], 0,
                    whole[:whole.index('"callCountProfiles"')] + G25_CALLCOUNT_HEAD[
                        G25_CALLCOUNT_HEAD.index('"callCountProfiles"'):] + plain_tail)
        # no options: a copy (nothing is pruned while such keys are there)
        self.assertEqual(self.ok("filter", G25_UNKNOWN), data(G25_UNKNOWN))
        # --drop-unknown drops them first, and then pruning goes on:
        # boolean and Object.equals(), which nothing refers to, go.
        code, out, err = run("filter", "--drop-unknown", "--prune", G25_UNKNOWN)
        self.assertEqual((code, err), (4, ""
                          "iprof filter: graalvm25-unknown.iprof: dropped unknown key "
                          "\"ceConditionalProfilesV2\" (46 bytes)\n"
                          "iprof filter: graalvm25-unknown.iprof: dropped unknown key "
                          "\"virtualInvokeMethodProfiles\" (39 bytes)\n"))
        doc = json.loads(out)
        self.assertNotIn("ceConditionalProfilesV2", doc)
        self.assertEqual([t["name"] for t in doc["types"]].count("boolean"), 0)
        self.assertEqual([m["name"] for m in doc["methods"]].count("equals"), 0)

    def test_canonical_unknown_keys(self):
        # G25_CANONICAL pruned of boolean and Object.equals(), which nothing
        # refers to, and renumbered
        want = (
            '{"version":"1.1.0","types":[{"id":0,"name":"com.example.Circle"},{"id":1,"name":'
            '"com.example.Main"},{"id":2,"name":"com.example.Shape"},{"id":3,"name":'
            '"com.example.Square"},{"id":4,"name":"int"},{"id":5,"name":"java.lang.Object"},'
            '{"id":6,"name":"void"}],"methods":[{"id":1,"name":"area","signature":[0,4]},'
            '{"id":2,"name":"main","signature":[1,6]},{"id":3,"name":"area","signature":[2,4]},'
            '{"id":4,"name":"area","signature":[3,4]}],"callCountProfiles":[{"ctx":'
            '"1:0<3:5<2:-6","records":[600]},{"ctx":"3:0","records":[1000]},{"ctx":'
            '"4:0<3:9<2:-6","records":[400]}],"conditionalProfiles":[{"ctx":"3:12","records":'
            '[17,0,600,17,1,400,23,-1,5,31,-5,0]}],"virtualInvokeProfiles":[{"ctx":"2:4",'
            '"records":[0,600,3,400]}],"monitorProfiles":[{"ctx":"0:0","records":[5,7]}],'
            '"samplingProfiles":[{"ctx":"1:2<3:5<2:-6","records":[42]},{"ctx":"4:1<3:9<2:-6",'
            '"records":[20]}],"instanceOfProfiles":[{"ctx":"3:3","records":[0,600,3,400]}]}')
        self.expect(["filter", "--prune", "--canonical", G25], 0, want)
        self.expect(["filter", "--prune", "--canonical", G25_UNKNOWN], 1,
                    err=CANNOT_CANONICAL % "filter")
        self.expect(["filter", "--prune", "--canonical", "--drop-unknown", G25_UNKNOWN], 4, want,
                    DROPPED % ("filter", "filter"))
        self.expect(["filter", "--prune", "--canonical", G25_PLAIN], 0, want[:-1] + PLAIN_TAIL)

    def test_instanceof_key(self):
        out = self.ok("filter", "--kinds", "instanceof", "--instanceof-key", "instanceof", G25)
        self.assertTrue(out.endswith(
            b',"instanceofProfiles":[{"ctx":"2:3","records":[5,600,6,400]}]}'), out[-100:])


# ---------------------------------------------------------------------------
# gzip through validate and cat

# What a command says after the reader's report of a damaged or cut-short
# FILE (issue 30, item 6): NAME, then FILE as a shell word.
REPAIR_HINT = ("%s: damaged or cut short; to save what comes before the damage: "
               "iprof repair %s -o OUT\n")


class Gzip(ToolCase):
    def test_validate_and_cat(self):
        need_gzip()
        gz = os.path.join(self.tmp, "a.iprof.gz")
        with open(gz, "wb") as f:
            f.write(gzip.compress(data("post-a.iprof")))
        self.assertEqual(run("validate", gz), (0, ("%s: valid\n" % gz).encode(), ""))
        self.assertEqual(self.ok("cat", gz), self.ok("cat", "post-a.iprof"))

    def test_error_positions_are_decompressed(self):
        need_gzip()
        gz = os.path.join(self.tmp, "bad.iprof.gz")
        with open(gz, "wb") as f:
            f.write(gzip.compress(data("syntax-error.iprof")))
        plain = run("validate", "syntax-error.iprof")
        got = run("validate", gz)
        self.assertEqual(got[0], 1)
        self.assertEqual(got[2].replace(gz, "syntax-error.iprof"), plain[2])

    def test_without_zlib(self):
        need_gzip_absent()
        self.expect(["validate", "graal-1.0.0.iprof.gz"], 2,
                    "graal-1.0.0.iprof.gz: unreadable\n",
                    "graal-1.0.0.iprof.gz:1:1: -: the input is gzip-compressed, but this "
                    "libiprof was built without zlib (meson option zlib)\n")
        code, out, err = run("convert", "post-a.iprof", "-o", os.path.join(self.tmp, "x.gz"))
        self.assertEqual((code, out, self.files()), (2, b"", []))
        self.assertTrue(err.endswith("gzip output needs zlib, but this libiprof was built "
                                     "without it (meson option zlib)\n"), err)

    def test_corrupt_and_truncated(self):
        need_gzip()
        raw = gzip.compress(data("post-a.iprof"), mtime=0)
        bad = os.path.join(self.tmp, "bad.iprof.gz")
        with open(bad, "wb") as f:
            f.write(raw[:-8] + bytes([raw[-8] ^ 1]) + raw[-7:])
        self.assertEqual(run("validate", bad),
                         (1, ("%s: invalid (1 error)\n" % bad).encode(),
                          # where the text inflated before the damage ends
                          # (the end of the file's 30 lines)
                          # (all of it inflated, outside any element: no
                          # hint of 'iprof repair')
                          "%s:31:1: -: corrupt gzip data: incorrect data check\n" % bad))
        cut = os.path.join(self.tmp, "cut.iprof.gz")
        with open(cut, "wb") as f:
            f.write(raw[:len(raw) // 2])
        code, out, err = run("validate", cut)
        self.assertEqual((code, out), (1, ("%s: invalid (1 error)\n" % cut).encode()))
        self.assertTrue(err.startswith(cut + ":") and err.endswith(
            ": truncated gzip data: the compressed input ends inside a member\n"
            + REPAIR_HINT % (cut, cut)), err)


# ---------------------------------------------------------------------------
# Messages of every command (issue 30, item 6)

TRUNCATED = "repair-truncated.iprof"
TRUNCATED_READ = ("repair-truncated.iprof:1:421: monitorProfiles[0].records[0]: unexpected "
                  "end of input\n")
# Every command that reads a profile, FILE where it goes.
READERS = [["validate", "FILE"], ["stats", "FILE"], ["cat", "FILE"], ["flame", "FILE"],
           ["export", "--format", "speedscope", "FILE"], ["convert", "FILE"],
           ["filter", "FILE"], ["merge", "FILE"], ["merge", "show.iprof", "FILE"],
           ["diff", "FILE", "show.iprof"], ["diff", "show.iprof", "FILE"],
           ["coverage", "FILE"], ["show", "FILE", "x"],
           ["fit", "FILE", "fit-call_tree_methods.csv"]]


def operands(args, file):
    return [file if a == "FILE" else a for a in args]


class Messages(ToolCase):
    def write(self, name, doc):
        """A file of the test's own, by path."""
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(doc)
        return path

    def test_truncated_suggests_repair(self):
        """The reader's report, then the command's line with the repair
        command (shell-quoted); repair itself says what it kept."""
        for args in READERS:
            code, out, err = run(*operands(args, TRUNCATED))
            self.assertEqual((code, err), (1, TRUNCATED_READ + REPAIR_HINT % (TRUNCATED,
                                                                              TRUNCATED)), args)
        self.expect(["stats", "-"], 1, "", TRUNCATED_READ.replace(TRUNCATED, "<stdin>") +
                    REPAIR_HINT % ("<stdin>", "-"), stdin=data(TRUNCATED))
        odd = self.write("it's a.iprof", data(TRUNCATED))
        code, out, err = run("stats", odd)
        self.assertEqual((code, err.splitlines()[-1]), (1, (
            "%s: damaged or cut short; to save what comes before the damage: iprof repair "
            "'%s' -o OUT" % (odd, odd.replace("'", "'\\''")))))
        code, out, err = run("repair", TRUNCATED, "-o", os.path.join(self.tmp, "r.iprof"))
        self.assertEqual(code, 1)
        self.assertNotIn("iprof repair ", err)
        # Damage before the version: nothing to save, no suggestion; nor for
        # an empty input.
        self.expect(["stats", "repair-noversion.iprof"], 1, "",
                    "repair-noversion.iprof:1:48: version: unexpected end of input\n")
        self.expect(["stats", "-"], 1, "", "<stdin>:1:1: -: unexpected end of input\n",
                    stdin=b"")

    def test_missing_file_named_once(self):
        for args in READERS + [["repair", "FILE", "-o", "out.iprof"]]:
            code, out, err = run(*operands(args, "no-such.iprof"))
            self.assertEqual((code, err), (2, "no-such.iprof: cannot open: No such file or "
                                              "directory\n"), args)
        self.expect(["fit", "fit.iprof", "no-such.csv"], 2, "",
                    "iprof fit: no-such.csv: No such file or directory\n")
        self.expect(["stats", "."], 2, "", ".: cannot read: it is a directory\n")
        # An output that cannot be made: named once too.
        bad = os.path.join(self.tmp, "no-dir", "x.iprof")
        for cmd in (["cat"], ["convert"], ["filter"], ["merge"], ["repair"]):
            self.expect(cmd + ["show.iprof", "-o", bad], 2, "", "iprof %s: %s: cannot create a "
                        "temporary file next to it: No such file or directory\n" % (cmd[0], bad))

    def test_merge_names_the_input(self):
        """What merge says of an input's content names that input, never
        "<merged>"."""
        unread = self.write("unread.iprof", (
            b'{"version":"1.0.0","types":[{"id":0,"name":"T","extra":1}],"methods":[{"id":1,'
            b'"name":"m","signature":[0,0]}],"callCountProfiles":[{"ctx":"1:0","records":[5]}],'
            b'"conditionalProfiles":[],"virtualInvokeProfiles":[],"monitorProfiles":[],'
            b'"samplingProfiles":[]}'))
        code, out, err = run("merge", "--drop-unknown", "show.iprof", unread)
        self.assertEqual((code, err), (4, (
            '%s: warning: 1 element has keys iprof does not read (the first: types[0], key '
            '"extra")\n'
            'iprof merge: <stdout>: written without the keys of 1 element that iprof does not '
            'read (--drop-unknown)\n') % unread))
        # Instanceof entries (kept by a lenient read of a 1.0.0 file) in a
        # result of version 1.0.0: refused, naming the file they came from.
        iof = self.write("iof.iprof", (
            b'{"version":"1.0.0","types":[{"id":0,"name":"T"}],"methods":[{"id":1,"name":"m",'
            b'"signature":[0,0]}],"callCountProfiles":[],"conditionalProfiles":[],'
            b'"virtualInvokeProfiles":[],"monitorProfiles":[],"samplingProfiles":[],'
            b'"instanceofProfiles":[{"ctx":"1:0","records":[0,3]}]}'))
        plain = self.write("plain.iprof", (
            b'{"version":"1.0.0","types":[],"methods":[],"callCountProfiles":[],'
            b'"conditionalProfiles":[],"virtualInvokeProfiles":[],"monitorProfiles":[],'
            b'"samplingProfiles":[]}'))
        lenient = ("%s: warning: read past 1 rule violation ('iprof validate' lists them; "
                   "--strict refuses the file)\n" % iof)
        self.expect(["merge", plain, iof], 1, "", lenient + (
            "iprof merge: %s: has instanceof profiles, which version 1.0.0 (the highest of the "
            "inputs) cannot hold ('iprof convert --to 1.1.0' it first)\n" % iof))
        # A 1.1.0 input makes the result 1.1.0: nothing to refuse.
        code, out, err = run("merge", iof, "show.iprof")
        self.assertEqual((code, err), (0, lenient))
        self.assertEqual(json.loads(out)["version"], "1.1.0")


# ---------------------------------------------------------------------------
# The progress bar

class Progress(ToolCase):
    def test_bar_on_a_terminal_only(self):
        """Under a pseudo-terminal with a slowed-down bar the phases show and
        are erased; stdout is unchanged; without a terminal stderr is empty."""
        env = dict(os.environ, IPROF_PROGRESS_TEST_DELAY_MS="400")
        master, slave = pty.openpty()
        p = subprocess.Popen([IPROF, "merge", "post-a.iprof", "post-b.iprof"], cwd=DATA,
                             stdout=subprocess.PIPE, stderr=slave, env=env)
        os.close(slave)
        err = b""
        while True:
            r, _, _ = select.select([master], [], [], 30)
            if not r:
                break
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        out = p.stdout.read()
        p.wait(timeout=60)
        os.close(master)
        self.assertEqual(p.returncode, 0)
        self.assertEqual(out, self.ok("merge", "post-a.iprof", "post-b.iprof"))
        self.assertIn(b"iprof merge: merging post-a.iprof (1/2)", err)
        self.assertIn(b"iprof merge: merging post-b.iprof (2/2)", err)
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-40:])
        code, _, plain_err = run("merge", "post-a.iprof", "post-b.iprof")
        self.assertEqual((code, plain_err), (0, ""))


# ---------------------------------------------------------------------------
# Corpus

CORPUS_NAMES = ["elidemin-jspy-placeholders-1.0.0.iprof", "jsonata-cli-0.4.0.iprof",
                "assorted-benchmarks-0.4.0.iprof"]


class Corpus(ToolCase):
    def test_merge_order_independent(self):
        a, b = corpus_files(CORPUS_NAMES[1], CORPUS_NAMES[2])
        one = self.ok("merge", a, b)
        two = self.ok("merge", b, a)
        self.assertEqual(one, two)
        self.assertEqual(run("validate", "--strict", "-", stdin=one)[0], 0)

    def test_convert_canonical_idempotent_and_gzip(self):
        need_gzip()
        (a,) = corpus_files(CORPUS_NAMES[1])
        canon = self.ok("convert", "--canonical", a)
        self.assertEqual(self.ok("convert", "--canonical", "-", stdin=canon), canon)
        gz = os.path.join(self.tmp, "c.iprof.gz")
        self.ok("convert", a, "-o", gz)
        self.assertEqual(self.ok("cat", gz), self.ok("cat", a))
        self.assertLess(os.path.getsize(gz), os.path.getsize(a) // 3)

    def test_filter_smaller(self):
        (a,) = corpus_files(CORPUS_NAMES[2])
        out = self.ok("filter", "--top-percent", "90", a)
        self.assertLess(len(out), os.path.getsize(a))
        self.assertEqual(run("validate", "-", stdin=out)[0], 0)

    def test_filter_drop_package_counts(self):
        # Issue 30 item 4: --drop-package java.util takes java.util's 8,949
        # methods and the entries naming them, and the 369 java.util types
        # nothing left names (636 stay, named by a kept method or record);
        # every method outside java.util stays, referenced or not (it went
        # down to 2,699 when the filter pruned too). --prune then removes
        # the unreferenced. The counts are also computed here, from the JSON.
        (a,) = corpus_files(CORPUS_NAMES[1])
        with open(a, encoding="utf-8") as f:
            src = json.load(f)
        names = {t["id"]: t["name"] for t in src["types"]}

        def in_util(type_id):
            name = names.get(type_id, "")
            return name == "java.util" or name.startswith("java.util.")

        gone = {m["id"] for m in src["methods"] if in_util(m["signature"][0])}
        kept = {}
        for key, val in src.items():
            if key.endswith("Profiles"):
                kept[key] = [e for e in val if key == "monitorProfiles" or not any(
                    int(fr.split(":")[0]) in gone for fr in e["ctx"].split("<"))]
        named = {t for m in src["methods"] if m["id"] not in gone for t in m["signature"]}
        for key in ("virtualInvokeProfiles", "monitorProfiles"):
            named.update(t for e in kept[key] for t in e["records"][0::2])
        types = [t for t in src["types"] if not in_util(t["id"]) or t["id"] in named]
        self.assertEqual((len(src["methods"]), len(gone), len(src["types"]), len(types)),
                         (43276, 8949, 5299, 4930))

        out = json.loads(self.ok("filter", "--drop-package", "java.util", a))
        self.assertEqual(len(out["methods"]), 43276 - 8949)
        self.assertEqual({m["id"] for m in out["methods"]},
                         {m["id"] for m in src["methods"]} - gone)
        self.assertEqual(len(out["types"]), 4930)
        self.assertEqual({t["id"] for t in out["types"]}, {t["id"] for t in types})
        self.assertEqual({k: len(v) for k, v in out.items() if k.endswith("Profiles")},
                         {"monitorProfiles": 1, "virtualInvokeProfiles": 317,
                          "callCountProfiles": 7467, "conditionalProfiles": 5380,
                          "samplingProfiles": 150})
        self.assertEqual({k: len(v) for k, v in out.items() if k.endswith("Profiles")},
                         {k: len(v) for k, v in kept.items()})
        # --prune: what no entry names goes too.
        pruned = json.loads(self.ok("filter", "--drop-package", "java.util", "--prune", a))
        used = {int(fr.split(":")[0]) for k, v in pruned.items() if k.endswith("Profiles")
                and k != "monitorProfiles" for e in v for fr in e["ctx"].split("<")}
        self.assertEqual((len(pruned["methods"]), len(pruned["types"])), (2699, 776))
        self.assertEqual({m["id"] for m in pruned["methods"]}, used)

    def test_dangling_placeholders(self):
        (a,) = corpus_files(CORPUS_NAMES[0])
        code, out, err = run("merge", a)
        self.assertEqual((code, out), (1, b""))
        self.assertTrue(err.endswith("refers to types or methods it does not define "
                                     "(callCountProfiles entry: method id 1666 is not defined "
                                     "in the profile merged from); cannot merge it\n"),
                        err[-300:])


if __name__ == "__main__":
    sys.exit(main(__name__))
