#!/usr/bin/env python3
"""Tests of the iprof command: exact stdout, stderr and exit status of each
subcommand on the small hand-written files of tests/data/, byte-identical
`cat` on the corpus, and `stats` on a corpus file.

Environment (set by meson, tests/meson.build):
  IPROF             the built iprof command (required)
  IPROF_SOURCE_DIR  the source tree (tests/data, examples, README.md)
  IPROF_CORPUS_DIR  the real profiles (../shared/corpus); tests that need
                    them are skipped, saying why, when it is absent

Prints "N passed, N failed" last; exits 1 on failure, 77 if every test was
skipped. Python standard library only.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tooltest  # noqa: E402
from tooltest import CORPUS, DATA, HERE, IPROF, SOURCE, corpus_file, run  # noqa: E402


def read_past(name, n):
    """The line a command prints after reading NAME leniently past n rule
    violations."""
    return ("%s: warning: read past %d rule violation%s ('iprof validate' lists them; --strict "
            "refuses the file)\n" % (name, n, "" if n == 1 else "s"))


RULES_BROKEN = read_past("rules-broken.iprof", 7)


def data(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


class ToolCase(unittest.TestCase):
    maxDiff = None

    def expect(self, args, code, out=b"", err="", stdin=None):
        got = run(*args, stdin=stdin)
        if isinstance(out, str):
            out = out.encode()
        self.assertEqual((got[0], got[1], got[2]), (code, out, err),
                         "iprof %s" % " ".join(args))


# ---------------------------------------------------------------------------
# The command line

VERSION = None


def version_line():
    global VERSION
    if VERSION is None:
        with open(os.path.join(SOURCE, "meson.build")) as f:
            text = f.read()
        start = text.index("version: '") + len("version: '")
        VERSION = text[start:text.index("'", start)]
    return "iprof (libiprof) %s\n" % VERSION


class CommandLine(ToolCase):
    def test_no_arguments(self):
        code, out, err = run()
        self.assertEqual((code, out), (2, b""))
        self.assertTrue(err.startswith("Usage: iprof COMMAND"), err)

    def test_help(self):
        code, out, err = run("--help")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith(b"Usage: iprof COMMAND"), out)
        for cmd in (b"validate", b"stats", b"cat"):
            self.assertIn(b"  " + cmd + b" ", out)

    def test_version(self):
        self.expect(["--version"], 0, version_line())

    def test_subcommand_help_and_version(self):
        for cmd in ("validate", "stats", "cat"):
            code, out, err = run(cmd, "--help")
            self.assertEqual((code, err), (0, ""), cmd)
            self.assertTrue(out.startswith(b"Usage: iprof " + cmd.encode() + b" "), out)
            self.expect([cmd, "--version"], 0, version_line())

    def test_unknown_command(self):
        self.expect(["frobnicate"], 2, "",
                    "iprof: unknown command 'frobnicate'\n"
                    "Try 'iprof --help' for more information.\n")

    def test_unknown_option(self):
        self.expect(["--frob"], 2, "",
                    "iprof: unknown option '--frob'\n"
                    "Try 'iprof --help' for more information.\n")
        self.expect(["stats", "--frob=1", "x"], 2, "",
                    "iprof stats: unknown option '--frob'\n"
                    "Try 'iprof stats --help' for more information.\n")
        self.expect(["validate", "-x", "x"], 2, "",
                    "iprof validate: unknown option '-x'\n"
                    "Try 'iprof validate --help' for more information.\n")

    def test_missing_operands(self):
        for cmd in ("validate", "stats", "cat"):
            self.expect([cmd], 2, "",
                        "iprof %s: no FILE given\n"
                        "Try 'iprof %s --help' for more information.\n" % (cmd, cmd))
        self.expect(["stats", "a", "b"], 2, "",
                    "iprof stats: only one FILE is allowed\n"
                    "Try 'iprof stats --help' for more information.\n")

    def test_option_values(self):
        self.expect(["cat", "graal-1.0.0.iprof", "-o"], 2, "",
                    "iprof cat: option '-o' needs a value\n"
                    "Try 'iprof cat --help' for more information.\n")
        for cmd in ("cat", "flame", "merge"):
            self.expect([cmd, "graal-1.0.0.iprof", "-o", ""], 2, "",
                        "iprof %s: option '-o' needs a file name, not ''\n"
                        "Try 'iprof %s --help' for more information.\n" % (cmd, cmd))
        self.expect(["coverage", "--lcov=", "graal-1.0.0.iprof"], 2, "",
                    "iprof coverage: option '--lcov=' needs a file name, not ''\n"
                    "Try 'iprof coverage --help' for more information.\n")
        self.expect(["cat", "graal-1.0.0.iprof", "--to", "2.0.0"], 2, "",
                    "iprof cat: unknown version '2.0.0' (0.2.0, 0.4.0, 1.0.0 or 1.1.0)\n"
                    "Try 'iprof cat --help' for more information.\n")
        self.expect(["validate", "--strict=yes", "x"], 2, "",
                    "iprof validate: option '--strict' takes no value\n"
                    "Try 'iprof validate --help' for more information.\n")

    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
    def test_stdout_write_error(self):
        with open("/dev/full", "wb") as full:
            p = subprocess.run([IPROF, "stats", "small-1.1.0.iprof"], cwd=DATA, stdout=full,
                               stderr=subprocess.PIPE)
        self.assertEqual((p.returncode, p.stderr.decode()),
                         (2, "iprof: cannot write to standard output: No space left on device\n"))

    def test_double_dash(self):
        # After "--" an argument that looks like an option is a FILE.
        self.expect(["validate", "--", "--strict"], 2, "--strict: unreadable\n",
                    MISSING.format("--strict"))


# ---------------------------------------------------------------------------
# validate

# A missing file, named once: the reader's "cannot open FILE: ..." after
# "FILE: " would name it twice (issue 30, item 6).
MISSING = "{0}: cannot open: No such file or directory\n"


class Validate(ToolCase):
    def test_valid_files(self):
        self.expect(["validate", "small-1.1.0.iprof", "graal-1.0.0.iprof", "graal-0.4.0.iprof"],
                    0, "small-1.1.0.iprof: valid\ngraal-1.0.0.iprof: valid\n"
                       "graal-0.4.0.iprof: valid\n")
        self.expect(["validate", "--strict", "small-1.1.0.iprof"], 0,
                    "small-1.1.0.iprof: valid\n")

    def test_example_is_strictly_valid(self):
        code, out, err = run("validate", "--strict", os.path.join(SOURCE, "examples", "fib.iprof"))
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.endswith(b"fib.iprof: valid\n"), out)

    def test_stdin(self):
        self.expect(["validate", "-"], 0, "<stdin>: valid\n", stdin=data("graal-1.0.0.iprof"))
        self.expect(["validate", "-"], 1, "<stdin>: invalid (1 error)\n", syntax("<stdin>", "-"),
                    stdin=data("syntax-error.iprof"))

    def test_lenient_rules(self):
        self.expect(["validate", "rules-broken.iprof"], 1,
                    "rules-broken.iprof: invalid (7 errors)\n", RULES_LENIENT)

    def test_strict_rules(self):
        self.expect(["validate", "--strict", "rules-broken.iprof"], 1,
                    "rules-broken.iprof: invalid (1 error)\n", RULES_STRICT)

    def test_syntax_error(self):
        for flags in ([], ["--strict"]):
            self.expect(["validate"] + flags + ["syntax-error.iprof"], 1,
                        "syntax-error.iprof: invalid (1 error)\n",
                        syntax("syntax-error.iprof"))

    def test_fatal_schema(self):
        self.expect(["validate", "bad-ctx.iprof"], 1, "bad-ctx.iprof: invalid (1 error)\n",
                    BAD_CTX)

    def test_versions(self):
        self.expect(["validate", "legacy-0.1.0.iprof"], 1,
                    "legacy-0.1.0.iprof: invalid (1 error)\n", LEGACY)
        self.expect(["validate", "--strict", "legacy-0.2.0.iprof"], 0,
                    "legacy-0.2.0.iprof: valid\n")
        self.expect(["validate", "--strict", "future-1.2.0.iprof"], 0,
                    "future-1.2.0.iprof: valid (1 warning)\n", FUTURE)

    def test_missing_file(self):
        self.expect(["validate", "no-such.iprof"], 2, "no-such.iprof: unreadable\n",
                    MISSING.format("no-such.iprof"))

    def test_worst_status_wins(self):
        self.expect(["validate", "graal-1.0.0.iprof", "syntax-error.iprof", "no-such.iprof",
                     "future-1.2.0.iprof"], 2,
                    "graal-1.0.0.iprof: valid\nsyntax-error.iprof: invalid (1 error)\n"
                    "no-such.iprof: unreadable\nfuture-1.2.0.iprof: valid (1 warning)\n",
                    syntax("syntax-error.iprof") + MISSING.format("no-such.iprof") + FUTURE)
        self.expect(["validate", "syntax-error.iprof", "small-1.1.0.iprof"], 1,
                    "syntax-error.iprof: invalid (1 error)\nsmall-1.1.0.iprof: valid\n",
                    syntax("syntax-error.iprof"))


# ---------------------------------------------------------------------------
# stats

SMALL_TEXT = """\
file:        small-1.1.0.iprof
version:     1.1.0
types:       4
methods:     3
contexts:    9 distinct, max depth 3
diagnostics: 0

profiles                  entries           total count
callCountProfiles               4   9223372036854775820
conditionalProfiles             2                    13
virtualInvokeProfiles           1                    10
monitorProfiles                 1                     3
samplingProfiles                2                     3
instanceofProfiles              1                     5

hottest methods by call count:
  9223372036854775812  B.get (id 3)
                    7  A.run (id 2)
                    1  A.main (id 1)
"""

SMALL_JSON = {
    "file": "small-1.1.0.iprof",
    "version": "1.1.0",
    "types": 4,
    "methods": 3,
    "contexts": 9,
    "maxContextDepth": 3,
    "diagnostics": 0,
    "entries": {"callCountProfiles": 4, "conditionalProfiles": 2, "virtualInvokeProfiles": 1,
                "monitorProfiles": 1, "samplingProfiles": 2, "instanceofProfiles": 1},
    "totals": {"callCountProfiles": 9223372036854775820, "conditionalProfiles": 13,
               "virtualInvokeProfiles": 10, "monitorProfiles": 3, "samplingProfiles": 3,
               "instanceofProfiles": 5},
    "instanceofKey": "instanceofProfiles",  # the spelling the file uses
    "unknownKeys": [],
    "hottestMethods": [
        {"id": 3, "name": "B.get", "callCount": 9223372036854775812},
        {"id": 2, "name": "A.run", "callCount": 7},
        {"id": 1, "name": "A.main", "callCount": 1},
    ],
}


class Stats(ToolCase):
    def test_text(self):
        self.expect(["stats", "small-1.1.0.iprof"], 0, SMALL_TEXT)

    def test_json(self):
        code, out, err = run("stats", "--json", "small-1.1.0.iprof")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(json.loads(out), SMALL_JSON)
        self.assertEqual(list(json.loads(out)), list(SMALL_JSON))  # key order is stable

    def test_stdin_json(self):
        code, out, err = run("stats", "-", "--json", stdin=data("small-1.1.0.iprof"))
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(json.loads(out), dict(SMALL_JSON, file="<stdin>"))

    def test_lenient_file(self):
        code, out, err = run("stats", "--json", "rules-broken.iprof")
        self.assertEqual((code, err), (0, RULES_BROKEN))
        st = json.loads(out)
        self.assertEqual(st["diagnostics"], 7)
        self.assertEqual(st["entries"]["callCountProfiles"], 2)
        # The dangling callee 9 has no method: named "?9".
        self.assertEqual(st["hottestMethods"],
                         [{"id": 9, "name": "?9", "callCount": 2},
                          {"id": 1, "name": "int.m", "callCount": 1}])

    def test_totals_exact_then_clamped(self):
        # Three counts of INT64_MAX and one of -50: the sum passes 2^64, so
        # the total shown clamps; the -50 is taken off the exact sum, not
        # off a part already clamped (that showed UINT64_MAX - 50).
        big = 9223372036854775807
        doc = json.dumps({"version": "1.0.0", "types": [{"id": 0, "name": "T"}],
                          "methods": [{"id": 1, "name": "f", "signature": [0, 0]}],
                          "callCountProfiles": [{"ctx": "1:0", "records": [big]}] * 3 +
                                               [{"ctx": "1:0", "records": [-50]}],
                          "conditionalProfiles": [{"ctx": "1:4", "records": [
                              5, 0, big, 9, 1, big, 3, 0, -3, 4, 0, 10]}]}).encode()
        code, out, err = run("stats", "--json", "-", stdin=doc)
        self.assertEqual(code, 0, err)
        st = json.loads(out)
        self.assertEqual(st["totals"]["callCountProfiles"], 18446744073709551615)
        self.assertEqual(st["totals"]["conditionalProfiles"], 18446744073709551615)
        # Below the clamp, negative counts are taken off exactly.
        doc = doc.replace(b'"records": [%d]}, {"ctx": "1:0", "records": [-50]' % big,
                          b'"records": [-50]}, {"ctx": "1:0", "records": [-50]')
        st = json.loads(run("stats", "--json", "-", stdin=doc)[1])
        self.assertEqual(st["totals"]["callCountProfiles"], 2 * big - 100)
        # Ranked by the exact sums, though both show clamped: method 2's
        # four counts of INT64_MAX before method 1's three.
        doc = json.dumps({"version": "1.0.0", "types": [{"id": 0, "name": "T"}],
                          "methods": [{"id": 1, "name": "f", "signature": [0, 0]},
                                      {"id": 2, "name": "g", "signature": [0, 0]}],
                          "callCountProfiles": [{"ctx": "1:0", "records": [big]}] * 3 +
                                               [{"ctx": "2:0", "records": [big]}] * 4}).encode()
        st = json.loads(run("stats", "--json", "-", stdin=doc)[1])
        self.assertEqual([m["id"] for m in st["hottestMethods"]], [2, 1])

    def test_empty_profile(self):
        code, out, err = run("stats", "-", stdin=b'{"version":"1.0.0","types":[],"methods":[]}')
        self.assertEqual((code, err), (0, ""))
        text = out.decode()
        self.assertIn("contexts:    0 distinct, max depth 0\n", text)
        self.assertTrue(text.endswith("hottest methods by call count:\n  (none)\n"), text)
        code, out, err = run("stats", "--json", "-",
                             stdin=b'{"version":"1.0.0","types":[],"methods":[]}')
        self.assertEqual(json.loads(out)["hottestMethods"], [])

    def test_errors(self):
        self.expect(["stats", "syntax-error.iprof"], 1, "", syntax("syntax-error.iprof"))
        self.expect(["stats", "--strict", "rules-broken.iprof"], 1, "", RULES_STRICT)
        self.expect(["stats", "no-such.iprof"], 2, "", MISSING.format("no-such.iprof"))

    def test_example(self):
        code, out, err = run("stats", "--json", os.path.join(SOURCE, "examples", "fib.iprof"))
        self.assertEqual((code, err), (0, ""))
        st = json.loads(out)
        self.assertEqual(st["version"], "1.1.0")
        self.assertEqual(st["diagnostics"], 0)
        self.assertTrue(all(n > 0 for n in st["entries"].values()), st["entries"])

    def test_corpus_jsonata(self):
        path = corpus_file("jsonata-cli-0.4.0.iprof")
        code, out, err = run("stats", "--json", path)
        self.assertEqual((code, err), (0, ""))
        st = json.loads(out)
        self.assertEqual(st["version"], "0.4.0")
        self.assertEqual((st["types"], st["methods"]), (5299, 43276))
        self.assertEqual(st["entries"], {
            "callCountProfiles": 8785, "conditionalProfiles": 6560,
            "virtualInvokeProfiles": 508, "monitorProfiles": 1, "samplingProfiles": 161,
            "instanceofProfiles": 0})
        self.assertEqual(len(st["hottestMethods"]), 10)
        calls = [m["callCount"] for m in st["hottestMethods"]]
        self.assertEqual(calls, sorted(calls, reverse=True))
        # The totals agree with a computation in Python.
        with open(path, "rb") as f:
            doc = json.load(f)
        slot = {"callCountProfiles": (1, 0), "conditionalProfiles": (3, 2),
                "virtualInvokeProfiles": (2, 1), "monitorProfiles": (2, 1),
                "samplingProfiles": (1, 0)}
        for key, (group, at) in slot.items():
            want = sum(sum(e["records"][at::group]) for e in doc[key])
            self.assertEqual(st["totals"][key], want, key)
        self.assertEqual(st["maxContextDepth"],
                         max(e["ctx"].count("<") + 1 for key in slot for e in doc[key]))
        self.assertEqual(st["contexts"], len({e["ctx"] for key in slot for e in doc[key]}))

    def test_json_names_escaped(self):
        # Names go through the command's one JSON escaper: quotes,
        # backslashes and control characters escaped, '<' '>' '&' as \u
        # escapes (safe in HTML), and the text reads back unchanged.
        profile = json.dumps({
            "version": "1.1.0",
            "types": [{"id": 0, "name": "void"}, {"id": 1, "name": 'a\\b"c\tD'}],
            "methods": [{"id": 1, "name": "<init>", "signature": [1, 0]}],
            "callCountProfiles": [{"ctx": "1:0", "records": [3]}],
            "conditionalProfiles": [], "virtualInvokeProfiles": [],
            "monitorProfiles": [], "samplingProfiles": [], "instanceofProfiles": []})
        code, out, err = run("stats", "--json", "-", stdin=profile.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertIn(b'\\u003cinit\\u003e', out)
        self.assertIn(b'a\\\\b\\"c\\tD', out)
        top = json.loads(out)["hottestMethods"]
        self.assertEqual([(m["name"], m["callCount"]) for m in top],
                         [('a\\b"c\tD.<init>', 3)])


# ---------------------------------------------------------------------------
# cat

def graal(version, body_from):
    """graal-<body_from>.iprof with another version string (same layout)."""
    return data("graal-%s.iprof" % body_from).replace(
        b'"version":"%s"' % body_from.encode(), b'"version":"%s"' % version.encode())


class Cat(ToolCase):
    def test_same_bytes(self):
        for name in ("graal-1.0.0.iprof", "graal-0.4.0.iprof"):
            self.expect(["cat", name], 0, data(name))

    def test_control_characters_in_names_shown_as_question_marks(self):
        """Names may hold any character ("\\u0000", tab, newline): the copy
        keeps them; reports no longer cut a name at its NUL (shown as '?'),
        text reports show the other control characters as '?' (flame's
        folded lines, as spaces) and JSON reports escape them."""
        doc = (b'{"version":"1.0.0","types":[{"id":0,"name":"a\\u0000b"},{"id":1,"name":'
               b'"void"}],"methods":[{"id":1,"name":"n\\tz\\n","signature":[0,1]}],'
               b'"callCountProfiles":[{"ctx":"1:0","records":[5]}],"conditionalProfiles":[],'
               b'"virtualInvokeProfiles":[],"monitorProfiles":[],"samplingProfiles":[{"ctx":'
               b'"1:3","records":[2]}]}')
        self.expect(["cat", "-"], 0, doc, stdin=doc)
        self.expect(["flame", "-"], 0, b"a?b.n z  2\n", stdin=doc)
        code, out, err = run("stats", "-", stdin=doc)
        self.assertEqual((code, err), (0, ""))
        self.assertIn(b"  5  a?b.n?z? (id 1)\n", out)
        code, out, err = run("stats", "--json", "-", stdin=doc)
        self.assertEqual(json.loads(out)["hottestMethods"][0]["name"], "a?b.n\tz\n")
        code, out, err = run("coverage", "--lcov", "-", "-", stdin=doc)
        self.assertEqual((code, err), (0, ""))
        self.assertIn(b"\nFN:1,n?z?(): void\nFNDA:5,n?z?(): void\n", out)
        self.assertTrue(out.startswith(b"TN:\nSF:a?b.java\n"), out)
        code, out, err = run("coverage", "-", stdin=doc)
        self.assertIn(b"\na?b ", out)
        code, out, err = run("show", "-", "a", stdin=doc)
        self.assertEqual((code, out), (1, b""))  # not the whole name
        code, out, err = run("show", "-", "a?b.n\tz\n", stdin=doc)
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith(b"a?b.n?z? (id 1): 2 contexts\n  a?b.n?z?:0  (1:0)\n"),
                        out)

    def test_stdin_stdout(self):
        self.expect(["cat", "-", "-o", "-"], 0, data("graal-1.0.0.iprof"),
                    stdin=data("graal-1.0.0.iprof"))

    def test_to_versions(self):
        # 0.4.0 and 1.0.0 differ only in the order of the sections.
        self.expect(["cat", "graal-0.4.0.iprof", "--to", "1.0.0"], 0, graal("1.0.0", "1.0.0"))
        self.expect(["cat", "graal-1.0.0.iprof", "--to=0.4.0"], 0, graal("0.4.0", "0.4.0"))
        # A file without the instanceof section has no spelling of its key to
        # keep: new 1.1.0 output uses GraalVM's instanceOfProfiles, unless
        # asked for the document's.
        want = graal("1.1.0", "1.0.0")[:-1] + b',"instanceOfProfiles":[]}'
        self.expect(["cat", "graal-1.0.0.iprof", "--to", "1.1.0"], 0, want)
        self.expect(["cat", "graal-1.0.0.iprof", "--to", "1.1.0", "--instanceof-key",
                     "instanceof"], 0, want.replace(b"instanceOf", b"instanceof"))

    def test_to_drops_instanceof_only_when_asked(self):
        self.expect(["cat", "small-1.1.0.iprof", "--to", "1.0.0"], 1, "",
                    "iprof cat: small-1.1.0.iprof: has instanceof profiles, which version "
                    "1.0.0 cannot hold (use --drop-instanceof to drop them, or --to 1.1.0)\n")
        code, out, err = run("cat", "small-1.1.0.iprof", "--to", "1.0.0", "--drop-instanceof")
        self.assertEqual((code, err), (0, ""))
        doc = json.loads(out)
        self.assertEqual(doc["version"], "1.0.0")
        self.assertNotIn("instanceofProfiles", doc)
        self.assertEqual(list(doc), ["version", "types", "methods", "callCountProfiles",
                                     "conditionalProfiles", "virtualInvokeProfiles",
                                     "monitorProfiles", "samplingProfiles"])

    def test_example_is_in_pretty_layout(self):
        fib = os.path.join(SOURCE, "examples", "fib.iprof")
        with open(fib, "rb") as f:
            self.expect(["cat", "--pretty", "--strict", fib], 0, f.read())

    def test_pretty(self):
        code, out, err = run("cat", "graal-1.0.0.iprof", "--pretty")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, PRETTY)
        # Reading the pretty output and writing it minified gives the original.
        self.expect(["cat", "-"], 0, data("graal-1.0.0.iprof"), stdin=out)

    def test_output_file(self):
        tmp = tempfile.mkdtemp(prefix="iprof-tool-")
        try:
            out = os.path.join(tmp, "out.iprof")
            with open(out, "wb") as f:
                f.write(b"old")
            self.expect(["cat", "graal-0.4.0.iprof", "-o", out], 0)
            self.assertEqual(open(out, "rb").read(), data("graal-0.4.0.iprof"))
            # A failed conversion leaves the previous file as it was.
            self.expect(["cat", "syntax-error.iprof", "--output", out], 1, "",
                        syntax("syntax-error.iprof"))
            self.assertEqual(open(out, "rb").read(), data("graal-0.4.0.iprof"))
            self.assertEqual(os.listdir(tmp), ["out.iprof"])
            # Converting a file in place.
            self.expect(["cat", out, "--to", "1.0.0", "-o", out], 0)
            self.assertEqual(open(out, "rb").read(), data("graal-1.0.0.iprof"))
            self.assertEqual(os.listdir(tmp), ["out.iprof"])
            # An unwritable target is an I/O error.
            bad = os.path.join(tmp, "no-dir", "x.iprof")
            code, out_, err = run("cat", "graal-1.0.0.iprof", "-o", bad)
            self.assertEqual((code, out_), (2, b""))
            self.assertTrue(err.startswith("iprof cat: %s: " % bad), err)
        finally:
            shutil.rmtree(tmp)

    def test_lenient_copy_keeps_rule_violations(self):
        # Loaded leniently, written without validation: the data stay.
        # Its instanceof profiles do not fit its version 1.0.0: dropped only
        # when asked, or kept by converting to 1.1.0.
        self.expect(["cat", "rules-broken.iprof"], 1, "", RULES_BROKEN +
                    "iprof cat: rules-broken.iprof: has instanceof profiles, which version "
                    "1.0.0 cannot hold (use --drop-instanceof to drop them, or --to 1.1.0)\n")
        code, out, err = run("cat", "rules-broken.iprof", "--drop-instanceof")
        self.assertEqual((code, err), (0, RULES_BROKEN))
        doc = json.loads(out)
        self.assertEqual(doc["version"], "1.0.0")
        self.assertNotIn("instanceofProfiles", doc)
        self.assertEqual(doc["callCountProfiles"][0], {"ctx": "1:3", "records": [1]})
        self.assertEqual(doc["conditionalProfiles"], [{"ctx": "1:5", "records": [1, 0]}])
        self.assertEqual(doc["monitorProfiles"], [{"ctx": "1:0", "records": [0, 1]}])
        self.assertEqual(doc["methods"][1], {"id": 2, "name": "short", "signature": [0]})
        code, out, err = run("cat", "rules-broken.iprof", "--to", "1.1.0")
        self.assertEqual((code, err), (0, RULES_BROKEN))
        self.assertEqual(json.loads(out)["instanceofProfiles"],
                         [{"ctx": "1:1", "records": [0, 1]}])
        # --strict refuses the file.
        self.expect(["cat", "--strict", "rules-broken.iprof"], 1, "", RULES_STRICT)

    def test_errors(self):
        self.expect(["cat", "no-such.iprof"], 2, "", MISSING.format("no-such.iprof"))
        self.expect(["cat", "legacy-0.1.0.iprof"], 1, "", LEGACY)

    def test_corpus_same_bytes(self):
        names = ["jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof",
                 "elide-cli-types-only-0.4.0.iprof", "elide-serve-types-only-0.4.0.iprof",
                 "elidemin-jspy-placeholders-1.0.0.iprof"]
        for name in names:
            path = corpus_file(name)
            code, out, err = run("cat", path)
            # The placeholders file breaks rules GraalVM does not check.
            self.assertEqual((code, err), (0, read_past(path, 39267) if "placeholders" in name
                                           else ""), name)
            with open(path, "rb") as f:
                self.assertTrue(out == f.read(), "%s: cat output differs" % name)

    def test_corpus_convert_round_trip(self):
        path = corpus_file("jsonata-cli-0.4.0.iprof")
        code, out, err = run("cat", path, "--to", "1.1.0", "--pretty")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.count(b"\n") > 60000, True)
        with open(path, "rb") as f:
            original = f.read()
        self.expect(["cat", "-", "--to", "0.4.0"], 0, original, stdin=out)


# ---------------------------------------------------------------------------
# GraalVM 25's files: the instanceOfProfiles spelling and unknown top-level
# keys, kept and written back as they are

G25 = "graalvm25.iprof"
G25_UNKNOWN = "graalvm25-unknown.iprof"  # ceConditionalProfilesV2, virtualInvokeMethodProfiles
G25_PLAIN = "graalvm25-plain-unknown.iprof"  # virtualInvokeMethodProfiles [], "x-tool"
G25_FILES = [G25, G25_UNKNOWN, G25_PLAIN]


def top_level(raw):
    """The top-level (key, raw value text) pairs of a minified document."""
    text = raw.decode("utf-8")
    dec = json.JSONDecoder()
    pairs, i = [], 1
    while text[i] != "}":
        key, i = dec.raw_decode(text, i)
        assert text[i] == ":"
        _, end = dec.raw_decode(text, i + 1)
        pairs.append((key, text[i + 1:end]))
        i = end + (text[end] == ",")
    return pairs


def minified(pairs):
    return ("{" + ",".join('"%s":%s' % kv for kv in pairs) + "}").encode("utf-8")


def camel_to_lower(raw):
    out = raw.replace(b'"instanceOfProfiles":', b'"instanceofProfiles":')
    assert out != raw
    return out


UNKNOWN_WARNINGS = (
    'graalvm25-unknown.iprof:1:718: ceConditionalProfilesV2: warning: unknown top-level key '
    '"ceConditionalProfilesV2": not interpreted, kept as is by models\n'
    'graalvm25-unknown.iprof:1:855: virtualInvokeMethodProfiles: warning: unknown top-level '
    'key "virtualInvokeMethodProfiles": not interpreted, kept as is by models\n')
PLAIN_WARNINGS = (
    'graalvm25-plain-unknown.iprof:1:782: virtualInvokeMethodProfiles: warning: unknown '
    'top-level key "virtualInvokeMethodProfiles": not interpreted, kept as is by models\n'
    'graalvm25-plain-unknown.iprof:1:1061: x-tool: warning: unknown top-level key "x-tool": '
    'not interpreted, kept as is by models\n')

G25_STATS_TEXT = """\
file:        graalvm25-unknown.iprof
version:     1.1.0
types:       8
methods:     5
contexts:    9 distinct, max depth 3
diagnostics: 2

profiles                  entries           total count
callCountProfiles               3                  2000
conditionalProfiles             1                  1005
virtualInvokeProfiles           1                  1000
monitorProfiles                 1                     7
samplingProfiles                3                    62
instanceofProfiles              1                  1000

unknown top-level keys, kept as they are:
  ceConditionalProfilesV2                46 bytes
  virtualInvokeMethodProfiles            39 bytes

hottest methods by call count:
  1000  com.example.Shape.area (id 2)
   600  com.example.Circle.area (id 3)
   400  com.example.Square.area (id 4)
"""

G25_STATS_JSON = {
    "file": "graalvm25-unknown.iprof",
    "version": "1.1.0",
    "types": 8,
    "methods": 5,
    "contexts": 9,
    "maxContextDepth": 3,
    "diagnostics": 2,
    "entries": {"callCountProfiles": 3, "conditionalProfiles": 1, "virtualInvokeProfiles": 1,
                "monitorProfiles": 1, "samplingProfiles": 3, "instanceofProfiles": 1},
    "totals": {"callCountProfiles": 2000, "conditionalProfiles": 1005,
               "virtualInvokeProfiles": 1000, "monitorProfiles": 7, "samplingProfiles": 62,
               "instanceofProfiles": 1000},
    "instanceofKey": "instanceOfProfiles",
    "unknownKeys": [{"key": "ceConditionalProfilesV2", "bytes": 46},
                    {"key": "virtualInvokeMethodProfiles", "bytes": 39}],
    "hottestMethods": [
        {"id": 2, "name": "com.example.Shape.area", "callCount": 1000},
        {"id": 3, "name": "com.example.Circle.area", "callCount": 600},
        {"id": 4, "name": "com.example.Square.area", "callCount": 400},
    ],
}


class GraalVM25(ToolCase):
    def test_data_files(self):
        # What the files hold (tests/data/README.md), so that the tests
        # below test what they say.
        keys = [k for k, _ in top_level(data(G25))]
        self.assertEqual(keys, ["version", "types", "methods", "callCountProfiles",
                                "conditionalProfiles", "virtualInvokeProfiles",
                                "monitorProfiles", "samplingProfiles", "instanceOfProfiles"])
        self.assertEqual(minified(top_level(data(G25))), data(G25))
        unknown = dict(top_level(data(G25_UNKNOWN)))
        self.assertEqual(len(unknown["ceConditionalProfilesV2"]), 46)
        self.assertEqual(len(unknown["virtualInvokeMethodProfiles"]), 39)
        plain = top_level(data(G25_PLAIN))
        self.assertEqual(plain[-1], ("x-tool", '"iprof-test"'))
        self.assertEqual(dict(plain)["virtualInvokeMethodProfiles"], "[]")

    def test_cat_same_bytes(self):
        for name in G25_FILES:
            self.expect(["cat", name], 0, data(name))
            self.expect(["cat", "--strict", name], 0, data(name))
            self.expect(["cat", "-"], 0, data(name), stdin=data(name))
            # pretty, then minified again: the same bytes
            code, pretty, err = run("cat", "--pretty", name)
            self.assertEqual((code, err), (0, ""), name)
            self.assertIn(b'\n  "instanceOfProfiles": [\n', pretty)
            self.expect(["cat", "-"], 0, data(name), stdin=pretty)

    def test_instanceof_key(self):
        lower = camel_to_lower(data(G25))
        self.expect(["cat", "--instanceof-key", "instanceof", G25], 0, lower)
        self.expect(["cat", "-"], 0, lower, stdin=lower)  # the spelling read is kept
        self.expect(["cat", "--instanceof-key=instanceOf", "-"], 0, data(G25), stdin=lower)
        self.expect(["cat", "--instanceof-key", "instanceOf", G25], 0, data(G25))
        self.expect(["cat", "--instanceof-key", "InstanceOf", G25], 2, "",
                    "iprof cat: --instanceof-key: 'InstanceOf' is neither instanceof "
                    "nor instanceOf\nTry 'iprof cat --help' for more information.\n")

    def test_both_spellings(self):
        both = data(G25)[:-1] + b',"instanceofProfiles":[]}'
        report = ("<stdin>:1:1028: instanceofProfiles: both instanceOfProfiles and "
                  "instanceofProfiles: one instanceof section spelled two ways\n")
        for flags in ([], ["--strict"]):
            self.expect(["validate"] + flags + ["-"], 1, "<stdin>: invalid (1 error)\n",
                        report, stdin=both)
        self.expect(["cat", "-"], 1, "", report, stdin=both)
        self.expect(["stats", "-"], 1, "", report, stdin=both)
        # The other way round: the path is the second key.
        both = camel_to_lower(data(G25))[:-1] + b',"instanceOfProfiles":[]}'
        self.expect(["validate", "-"], 1, "<stdin>: invalid (1 error)\n",
                    "<stdin>:1:1028: instanceOfProfiles: both instanceofProfiles and "
                    "instanceOfProfiles: one instanceof section spelled two ways\n", stdin=both)

    def test_validate_unknown_keys(self):
        self.expect(["validate", G25], 0, "graalvm25.iprof: valid\n")
        for flags in ([], ["--strict"]):
            self.expect(["validate"] + flags + [G25_UNKNOWN, G25_PLAIN], 0,
                        "graalvm25-unknown.iprof: valid (2 warnings)\n"
                        "graalvm25-plain-unknown.iprof: valid (2 warnings)\n",
                        UNKNOWN_WARNINGS + PLAIN_WARNINGS)

    def test_stats_unknown_keys(self):
        self.expect(["stats", G25_UNKNOWN], 0, G25_STATS_TEXT)
        code, out, err = run("stats", "--json", G25_UNKNOWN)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(json.loads(out), G25_STATS_JSON)
        self.assertEqual(list(json.loads(out)), list(G25_STATS_JSON))  # key order
        # No unknown keys: no section in the text, [] in JSON.
        code, out, err = run("stats", G25)
        self.assertEqual((code, err), (0, ""))
        want = G25_STATS_TEXT.replace("graalvm25-unknown.iprof", G25).replace(
            "diagnostics: 2", "diagnostics: 0")
        want = want[:want.index("unknown top-level keys")] + \
            want[want.index("hottest methods"):]
        self.assertEqual(out.decode(), want)
        code, out, err = run("stats", "--json", G25_PLAIN)
        self.assertEqual((code, err), (0, ""))
        st = json.loads(out)
        self.assertEqual((st["diagnostics"], st["instanceofKey"], st["unknownKeys"]),
                         (2, "instanceOfProfiles",
                          [{"key": "virtualInvokeMethodProfiles", "bytes": 2},
                           {"key": "x-tool", "bytes": 12}]))
        # The document's spelling, and none when the file has no section.
        st = json.loads(run("stats", "--json", "-", stdin=camel_to_lower(data(G25)))[1])
        self.assertEqual(st["instanceofKey"], "instanceofProfiles")
        st = json.loads(run("stats", "--json", "graal-1.0.0.iprof")[1])
        self.assertEqual((st["instanceofKey"], st["unknownKeys"]), (None, []))

    def test_older_versions_keep_unknown_keys(self):
        pairs = dict(top_level(data(G25_UNKNOWN)))
        pairs["version"] = '"1.0.0"'
        self.expect(["cat", "--to", "1.0.0", "--drop-instanceof", G25_UNKNOWN], 0, minified(
            [(k, pairs[k]) for k in ["version", "types", "methods", "callCountProfiles",
                                     "conditionalProfiles", "ceConditionalProfilesV2",
                                     "virtualInvokeProfiles", "virtualInvokeMethodProfiles",
                                     "monitorProfiles", "samplingProfiles"]]))
        # 0.4.0's order: each unknown key still after the section it followed
        pairs["version"] = '"0.4.0"'
        self.expect(["cat", "--to", "0.4.0", "--drop-instanceof", G25_UNKNOWN], 0, minified(
            [(k, pairs[k]) for k in ["version", "types", "methods", "monitorProfiles",
                                     "virtualInvokeProfiles", "virtualInvokeMethodProfiles",
                                     "callCountProfiles", "conditionalProfiles",
                                     "ceConditionalProfilesV2", "samplingProfiles"]]))
        self.expect(["cat", "--to", "1.0.0", G25_UNKNOWN], 1, "",
                    "iprof cat: graalvm25-unknown.iprof: has instanceof profiles, which version "
                    "1.0.0 cannot hold (use --drop-instanceof to drop them, or --to 1.1.0)\n")
        # A key that followed the instanceof section, which 1.0.0 lacks, goes last.
        pairs = dict(top_level(data(G25_PLAIN)))
        pairs["version"] = '"1.0.0"'
        self.expect(["cat", "--to", "1.0.0", "--drop-instanceof", G25_PLAIN], 0, minified(
            [(k, pairs[k]) for k in ["version", "types", "methods", "callCountProfiles",
                                     "conditionalProfiles", "virtualInvokeProfiles",
                                     "virtualInvokeMethodProfiles", "monitorProfiles",
                                     "samplingProfiles", "x-tool"]]))


# ---------------------------------------------------------------------------
# Documentation

def readme():
    with open(os.path.join(SOURCE, "README.md")) as f:
        return f.read()


def commands_page():
    with open(os.path.join(SOURCE, "docs", "commands.md")) as f:
        return f.read()


def man_page():
    with open(os.path.join(SOURCE, "docs", "iprof.1")) as f:
        return f.read()


def command_table():
    """{name: [long options]} of every subcommand, from its --help (which
    tools/help.c prints from the command table)."""
    code, out, _ = run("--help")
    section = out.decode().split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    table = {}
    for name in re.findall(r"^  (\S+)", section, re.M):
        code, out, _ = run(name, "--help")
        opts = re.findall(r"^  (?:-(\w), )?--([\w-]+)", out.decode(), re.M)
        table[name] = [o for o in opts if o[1] not in ("help", "version")]
    return table


class Docs(unittest.TestCase):
    def test_readme_shows_hello_c(self):
        # The C example as it is, and what it prints on examples/fib.iprof.
        sys.path.insert(0, os.path.join(HERE, "packages"))
        import readme as blocks
        with open(os.path.join(SOURCE, "examples", "hello.c")) as f:
            hello = f.read()
        self.assertIn("```c\n" + hello + "```\n", readme())
        self.assertEqual(blocks.block("run:hello"), [
            "cc examples/hello.c $(pkg-config --cflags --libs iprof) -o hello",
            "./hello examples/fib.iprof"])
        exe = os.path.join(os.environ["IPROF_BUILD_DIR"], "examples", "hello")
        p = subprocess.run([exe, "examples/fib.iprof"], cwd=SOURCE, stdout=subprocess.PIPE)
        self.assertEqual((p.returncode, p.stdout.decode()), (0, blocks.output_after("run:hello")))

    def test_readme_recipes(self):
        # Each recipe of README.md, run as written from the root of a tree
        # (examples/ and tests/ of this one), with the built iprof first on
        # PATH: what it prints is what README.md shows, and what it writes
        # is there.
        sys.path.insert(0, os.path.join(HERE, "packages"))
        import readme as blocks
        env = dict(os.environ, PATH=os.path.dirname(IPROF) + os.pathsep + os.environ["PATH"])
        results = {}
        with tempfile.TemporaryDirectory() as tmp:
            for d in ("examples", "tests"):
                os.symlink(os.path.join(SOURCE, d), os.path.join(tmp, d))
            for name in ("merge", "gate", "flame"):
                text = blocks.block_text("recipe:" + name)
                p = subprocess.run(["sh", "-c", text], cwd=tmp, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                results[name] = (p.returncode, p.stdout.decode(), p.stderr.decode(),
                                 blocks.output_after("recipe:" + name))
            # merge: the weighted sum of the runs (1 + 2 x 2 calls of main).
            code, out, err, shown = results["merge"]
            self.assertEqual((code, err, out), (0, "", shown))
            self.assertIn("    call count      5\n", shown)
            with open(os.path.join(tmp, "merged.iprof")) as f:
                merged = json.load(f)
            self.assertEqual(merged["version"], "1.1.0")
            # gate: exit status 1, the reason on stderr, the report written.
            code, out, err, shown = results["gate"]
            self.assertEqual((code, out, err), (1, "", shown))
            with open(os.path.join(tmp, "staleness.txt")) as f:
                self.assertIn("Staleness: 0.458929 ", f.read())
            # flame: the page written, the folded stacks printed.
            code, out, err, shown = results["flame"]
            self.assertEqual((code, err, out), (0, "", shown))
            with open(os.path.join(tmp, "flame.html")) as f:
                self.assertIn("Fib.fibonacci", f.read())

    def test_commands_page_synopsis_is_the_command_table(self):
        # docs/commands.md's synopsis is generated from the command table
        # (scripts/gen-commands.py): a drifted copy fails here.
        p = subprocess.run([sys.executable, os.path.join(SOURCE, "scripts", "gen-commands.py"),
                            "--check", IPROF], stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stdout)

    def test_every_command_and_option_documented(self):
        # Every subcommand of the table has its section in docs/commands.md
        # and the man page, and each of its options is in the man page's
        # synopsis line and section for it.
        page, man = commands_page(), man_page()
        synopsis = man.split("\n.SH SYNOPSIS\n", 1)[1].split("\n.SH ", 1)[0]
        sections = dict(re.findall(r"\n\.SS (\S+)\n(.*?)(?=\n\.S[SH] )", man, re.S))
        headings = re.findall(r"^## (.*)$", page, re.M)
        missing = []
        for name, opts in command_table().items():
            if not any("`iprof %s`" % name in h for h in headings):
                missing.append("docs/commands.md: no section for %s" % name)
            if name not in sections:
                missing.append("iprof.1: no .SS %s" % name)
                continue
            line = re.search(r"^\.B iprof %s\b(.*?)(?=^\.br$|\Z)" % re.escape(name), synopsis,
                             re.S | re.M)
            for short, o in opts:
                # Written \-\-name in roff; the synopsis may give the short name.
                spelt = ["\\-\\-" + o.replace("-", "\\-")] + (["\\-" + short] if short else [])
                if not line or not any(re.search(re.escape(x) + r"(?![\w\\])", line.group(1))
                                       for x in spelt):
                    missing.append("iprof.1 SYNOPSIS of %s: --%s" % (name, o))
                if not re.search(re.escape(spelt[0]) + r"(?![\w\\])", sections[name]):
                    missing.append("iprof.1 .SS %s: --%s" % (name, o))
        self.assertEqual(missing, [])

    def test_api_shows_the_post_processor(self):
        # docs/api.md shows examples/postprocess.c as it is, and it runs.
        with open(os.path.join(SOURCE, "docs", "api.md")) as f:
            api = f.read()
        with open(os.path.join(SOURCE, "examples", "postprocess.c")) as f:
            code = f.read()
        self.assertIn("```c\n" + code + "```\n", api)
        exe = os.path.join(os.environ["IPROF_BUILD_DIR"], "examples", "postprocess")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.iprof")
            p = subprocess.run([exe, os.path.join(DATA, "show.iprof"), out, "com.example.Square"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.assertEqual((p.returncode, p.stderr), (0, b""))
            self.assertEqual(p.stdout.decode(), (
                "dropped 1 methods of com.example.Square\n"
                "hot: com.example.Shape.area 1000\n"
                "hot: com.example.Circle.area 600\n"
                "branch at com.example.Shape.area:12: 17=0.6000 21=0.4000\n"
                "branch at com.example.Main.main:20: 30=0.3000 40=0.7000 50=0.0000\n"
                "branch at com.example.Main.main:60: never ran\n"))
            with open(out) as f:
                doc = json.load(f)
            self.assertEqual([m["id"] for m in doc["methods"]], [1, 2, 3])
            self.assertEqual([e["records"] for e in doc["samplingProfiles"]], [[15], [6]])
            # A broken input: the reader's report, exit 1, nothing written.
            p = subprocess.run([exe, os.path.join(DATA, "syntax-error.iprof"), out, "x"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.assertEqual(p.returncode, 1)
            self.assertIn(b"syntax-error.iprof:5:3: expected a value after ','", p.stderr)

    def test_commands_page_shows_stats_output(self):
        code, out, err = run("stats", "examples/fib.iprof", cwd=SOURCE)
        self.assertEqual((code, err), (0, ""))
        self.assertIn("```\n" + out.decode() + "```\n", commands_page())


# ---------------------------------------------------------------------------
# Expected reports (after the classes that use them, for readability there)

def syntax(name, operand=None):
    """The reader's report of syntax-error.iprof, then the command's line
    saying that 'iprof repair' saves what comes before the damage (issue 30,
    item 6); @p operand is the FILE operand when not the name ('-')."""
    return ("%s:5:3: types[1]: expected a value after ','\n" % name +
            "%s: damaged or cut short; to save what comes before the damage: iprof repair %s "
            "-o OUT\n" % (name, operand or name))
RULES_LENIENT = """\
rules-broken.iprof:5:12: types[1].id: duplicate type id 0
rules-broken.iprof:9:45: methods[1].signature: signature must hold the declaring and return type ids
rules-broken.iprof:12:13: callCountProfiles[0].ctx: a call-count ctx must start at bci 0
rules-broken.iprof:13:13: callCountProfiles[1].ctx: method id 9 is not defined
rules-broken.iprof:16:31: conditionalProfiles[0].records: records must be (bci, index, count) triples
rules-broken.iprof:19:13: monitorProfiles[0].ctx: a monitor ctx must be "0:0"
rules-broken.iprof:21:25: instanceofProfiles: instanceofProfiles requires format 1.1.0 or later, \
the file is 1.0.0
"""
RULES_STRICT = "rules-broken.iprof:5:12: types[1].id: duplicate type id 0\n"
BAD_CTX = ("bad-ctx.iprof:5:32: samplingProfiles[0].ctx: invalid ctx \"1:0<\" at character 5: "
           "expected method:bci pairs joined by '<'\n")
LEGACY = ("legacy-0.1.0.iprof:2:14: version: format version 0.1.0 is not supported: "
          "its layout predates 0.2.0\n")
FUTURE = "future-1.2.0.iprof:2:14: version: warning: unknown format version 1.2.0, read as 1.x\n"
PRETTY = b"""\
{
  "version": "1.0.0",
  "types": [
    {"id": 0, "name": "int"},
    {"id": 1, "name": "A"}
  ],
  "methods": [
    {"id": 1, "name": "m", "signature": [1, 0]},
    {"id": 2, "name": "n", "signature": [1, 0, 1]}
  ],
  "callCountProfiles": [
    {"ctx": "1:0", "records": [3]},
    {"ctx": "2:0<1:4", "records": [23929230826]}
  ],
  "conditionalProfiles": [
    {"ctx": "1:5", "records": [9, 0, 2, -1, 1, 1]}
  ],
  "virtualInvokeProfiles": [
    {"ctx": "2:7<1:4", "records": [1, 3]}
  ],
  "monitorProfiles": [
    {"ctx": "0:0", "records": [1, 2]}
  ],
  "samplingProfiles": [
    {"ctx": "2:3<1:-1", "records": [4]}
  ]
}
"""


if __name__ == "__main__":
    sys.exit(tooltest.main(__name__))
