#!/usr/bin/env python3
"""Tests of `iprof export`: the speedscope file of a small hand-written
profile (tests/data/flame-*.iprof) exactly, the Firefox Profiler processed
profile checked by tests/check_firefox.py and against the folded stacks of
`iprof flame`, check_firefox.py itself on deliberately broken documents,
options and errors, and the sample weights of a corpus file. speedscope
itself loading the export is tests/browser/speedscope.js.

Environment (set by meson, tests/meson.build):
  IPROF             the built iprof command (required)
  IPROF_SOURCE_DIR  the source tree (tests/data)
  IPROF_CORPUS_DIR  the real profiles (../shared/corpus); tests that need
                    them are skipped, saying why, when it is absent

Prints "N passed, N failed" last; exits 1 on failure, 77 if every test was
skipped. Python standard library only.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tooltest  # noqa: E402
from tooltest import CORPUS, DATA, HERE, IPROF, SOURCE, corpus_file, run  # noqa: E402

sys.path.insert(0, HERE)
import check_firefox  # noqa: E402


def export(fmt, *args):
    code, out, err = run("export", "--format", fmt, *args)
    assert (code, err) == (0, ""), (code, err)
    return json.loads(out)


def folded(*args):
    """`iprof flame` of the arguments: {stack text: count}."""
    code, out, err = run("flame", *args)
    assert (code, err) == (0, ""), (code, err)
    return {line.rsplit(" ", 1)[0]: int(line.rsplit(" ", 1)[1])
            for line in out.decode().splitlines()}


def fold_speedscope(doc):
    """The folded stacks of a speedscope document's first profile."""
    frames = [f["name"].replace(";", ",") for f in doc["shared"]["frames"]]
    prof = doc["profiles"][0]
    out = {}
    for stack, w in zip(prof["samples"], prof["weights"]):
        key = ";".join(frames[i] for i in stack)
        out[key] = out.get(key, 0) + w
    return out


def fold_firefox(doc, bci=False):
    """The folded stacks of a Firefox processed profile's first thread,
    walking stackTable prefixes (callee to caller)."""
    t = doc["threads"][0]
    st, fr, fn, s = t["stackTable"], t["frameTable"], t["funcTable"], t["stringArray"]
    out = {}
    for stack, w in zip(t["samples"]["stack"], t["samples"]["weight"]):
        names = []
        while stack is not None:
            frame = st["frame"][stack]
            name = s[fn["name"][fr["func"][frame]]].replace(";", ",")
            names.append(name + (":%d" % fr["line"][frame] if bci else ""))
            stack = st["prefix"][stack]
        key = ";".join(reversed(names))
        out[key] = out.get(key, 0) + w
    return out


SMALL_SPEEDSCOPE = {
    "$schema": "https://www.speedscope.app/file-format-schema.json",
    "name": "flame-small-1.0.0.iprof",
    "exporter": None,  # "iprof (libiprof) VERSION", checked apart
    "activeProfileIndex": 0,
    "shared": {"frames": [
        {"name": "Main.main"}, {"name": "com.example.App.run"},
        {"name": "com.example.App.work"}, {"name": "java.lang.String.hashCode"},
        {"name": "com.example.App.parse"}, {"name": "com.example.App.<init>"},
        {"name": "[Ljava.lang.Object;.clone"}]},
    "profiles": [{
        "type": "sampled", "name": "flame-small-1.0.0.iprof", "unit": "none",
        "startValue": 0, "endValue": 18,
        "samples": [[0, 1, 2], [0, 1, 2], [0, 1, 2, 3], [0, 1, 4], [0, 1], [0, 5], [0, 6]],
        "weights": [5, 2, 3, 4, 1, 2, 1]}],
}


class CommandLine(unittest.TestCase):
    maxDiff = None

    def expect(self, args, code, out=b"", err=""):
        self.assertEqual(run(*args), (code, out, err), "iprof %s" % " ".join(args))

    def test_help_and_version(self):
        code, out, err = run("export", "--help")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith(b"Usage: iprof export --format speedscope|firefox FILE"))
        code, out, err = run("--help")
        self.assertIn(b"  export --format speedscope|firefox FILE", out)
        code, out, err = run("export", "--version")
        self.assertTrue(out.startswith(b"iprof (libiprof) "), out)

    def test_usage_errors(self):
        hint = "Try 'iprof export --help' for more information.\n"
        self.expect(["export", "--format", "speedscope"], 2, b"",
                    "iprof export: no FILE given\n" + hint)
        self.expect(["export", "flame-small-1.0.0.iprof"], 2, b"",
                    "iprof export: no --format given (speedscope or firefox)\n" + hint)
        self.expect(["export", "-f", "pprof", "x"], 2, b"",
                    "iprof export: unknown format 'pprof' (speedscope or firefox)\n" + hint)
        self.expect(["export", "-f", "firefox", "--kind", "x", "y"], 2, b"",
                    "iprof export: unknown kind 'x' (sampling or callcount)\n" + hint)
        self.expect(["export", "-f", "firefox", "a", "b"], 2, b"",
                    "iprof export: only one FILE is allowed\n" + hint)

    def test_invalid_file(self):
        self.expect(["export", "-f", "speedscope", "syntax-error.iprof"], 1, b"",
                    "syntax-error.iprof:5:3: types[1]: expected a value after ','\n"
                    "syntax-error.iprof: damaged or cut short; to save what comes before the "
                    "damage: iprof repair syntax-error.iprof -o OUT\n")

    def test_output_file_and_stdin(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "p.json")
            with open(os.path.join(DATA, "flame-small-1.0.0.iprof"), "rb") as f:
                p = subprocess.run([IPROF, "export", "-f", "firefox", "-", "-o", out],
                                   stdin=f, stderr=subprocess.PIPE, stdout=subprocess.PIPE)
            self.assertEqual((p.returncode, p.stdout, p.stderr), (0, b"", b""))
            self.assertEqual(os.listdir(tmp), ["p.json"])
            with open(out) as f:
                doc = json.load(f)
            self.assertEqual(doc["meta"]["product"], "<stdin>")
            self.assertEqual(check_firefox.check(doc), [])


class Speedscope(unittest.TestCase):
    maxDiff = None

    def test_small_exact(self):
        doc = export("speedscope", "flame-small-1.0.0.iprof")
        self.assertTrue(doc["exporter"].startswith("iprof (libiprof) "))
        doc["exporter"] = None
        self.assertEqual(doc, SMALL_SPEEDSCOPE)

    def test_schema(self):
        """The required keys and types of speedscope's file-format-schema.json."""
        for name in ("flame-small-1.0.0.iprof", "flame-callcount-1.0.0.iprof",
                     "graal-1.0.0.iprof", "small-1.1.0.iprof"):
            doc = export("speedscope", name)
            check_speedscope(self, doc)

    def test_matches_flame(self):
        for name in ("flame-small-1.0.0.iprof", "flame-callcount-1.0.0.iprof"):
            self.assertEqual(fold_speedscope(export("speedscope", name)), folded(name))
        self.assertEqual(
            fold_speedscope(export("speedscope", "--kind", "callcount",
                                   "flame-small-1.0.0.iprof")),
            folded("--kind", "callcount", "flame-small-1.0.0.iprof"))

    def test_empty(self):
        doc = export("speedscope", "--kind", "sampling", "flame-callcount-1.0.0.iprof")
        check_speedscope(self, doc)
        self.assertEqual(doc["profiles"][0]["samples"], [])
        self.assertEqual(doc["profiles"][0]["endValue"], 0)


def check_speedscope(case, doc):
    case.assertEqual(doc["$schema"], "https://www.speedscope.app/file-format-schema.json")
    frames = doc["shared"]["frames"]
    for f in frames:
        case.assertIsInstance(f["name"], str)
    case.assertEqual(len(doc["profiles"]), 1)
    p = doc["profiles"][0]
    for key in ("endValue", "name", "samples", "startValue", "type", "unit", "weights"):
        case.assertIn(key, p)
    case.assertEqual(p["type"], "sampled")
    case.assertIn(p["unit"], ("bytes", "microseconds", "milliseconds", "nanoseconds", "none",
                              "seconds"))
    case.assertEqual(len(p["samples"]), len(p["weights"]))
    for s in p["samples"]:
        case.assertTrue(s and all(isinstance(i, int) and 0 <= i < len(frames) for i in s))
    case.assertEqual(p["endValue"] - p["startValue"], sum(p["weights"]))


class Firefox(unittest.TestCase):
    maxDiff = None

    def test_small(self):
        doc = export("firefox", "flame-small-1.0.0.iprof")
        self.assertEqual(check_firefox.check(doc), [])
        meta = doc["meta"]
        self.assertEqual((meta["version"], meta["preprocessedProfileVersion"]), (29, 48))
        # A category per top-level package; an array type counts as its element's.
        self.assertEqual([c["name"] for c in meta["categories"]], ["(default)", "com", "java"])
        t = doc["threads"][0]
        self.assertEqual(t["stringArray"], [f["name"] for f in SMALL_SPEEDSCOPE["shared"]["frames"]])
        funcs = [t["stringArray"][i] for i in t["funcTable"]["name"]]
        cats = [meta["categories"][c]["name"] for c in t["frameTable"]["category"]]
        frames = [(funcs[f], line, cat) for f, line, cat in
                  zip(t["frameTable"]["func"], t["frameTable"]["line"], cats)]
        self.assertEqual(frames, [
            ("Main.main", 3, "(default)"), ("com.example.App.run", 10, "com"),
            ("com.example.App.work", 5, "com"), ("com.example.App.work", 7, "com"),
            ("com.example.App.work", 2, "com"), ("java.lang.String.hashCode", 0, "java"),
            ("com.example.App.run", 14, "com"), ("com.example.App.parse", 1, "com"),
            ("com.example.App.run", 20, "com"), ("Main.main", 1, "(default)"),
            ("com.example.App.<init>", 0, "com"), ("Main.main", 5, "(default)"),
            ("[Ljava.lang.Object;.clone", 0, "java")])
        self.assertEqual(sum(t["samples"]["weight"]), 18)
        self.assertEqual(t["samples"]["weightType"], "samples")

    def test_matches_flame(self):
        for name in ("flame-small-1.0.0.iprof", "flame-callcount-1.0.0.iprof",
                     "graal-1.0.0.iprof", "small-1.1.0.iprof"):
            doc = export("firefox", name)
            self.assertEqual(check_firefox.check(doc), [], name)
            self.assertEqual(fold_firefox(doc), folded(name), name)
            self.assertEqual(fold_firefox(doc, bci=True), folded("--bci", name), name)

    def test_empty(self):
        doc = export("firefox", "--kind", "sampling", "flame-callcount-1.0.0.iprof")
        self.assertEqual(check_firefox.check(doc), [])
        self.assertEqual(doc["threads"][0]["samples"]["length"], 0)


def breakages():
    """(description, function breaking a document in place, expected text
    in a problem)."""
    def thread(d):
        return d["threads"][0]

    def set_(path, value):
        def f(d):
            obj = d
            for k in path[:-1]:
                obj = obj[k]
            obj[path[-1]] = value
        return f

    def st(d):
        return thread(d)["stackTable"]

    return [
        ("no meta", lambda d: d.pop("meta"), "meta: missing"),
        ("meta.version missing", lambda d: d["meta"].pop("version"), "meta.version"),
        ("preprocessedProfileVersion a string", set_(["meta", "preprocessedProfileVersion"], "48"),
         "meta.preprocessedProfileVersion"),
        ("interval missing", lambda d: d["meta"].pop("interval"), "meta.interval"),
        ("no categories", set_(["meta", "categories"], []), "meta.categories"),
        ("category without subcategories",
         lambda d: d["meta"]["categories"][0].update(subcategories=[]), "subcategories"),
        ("selected thread out of range", set_(["meta", "initialSelectedThreads"], [1]),
         "initialSelectedThreads[0]"),
        ("no threads", set_(["threads"], []), "threads: missing or empty"),
        ("pid a number", lambda d: thread(d).update(pid=0), ".pid"),
        ("no stringArray", lambda d: thread(d).pop("stringArray"), "stringArray"),
        ("string table too short", lambda d: thread(d)["stringArray"].pop(), "funcTable.name"),
        ("column shorter than length", lambda d: thread(d)["frameTable"]["line"].pop(),
         "frameTable.line: has"),
        ("length wrong", lambda d: st(d).update(length=st(d)["length"] + 1), "stackTable.frame"),
        ("prefix not below its stack", lambda d: st(d)["prefix"].__setitem__(0, 0),
         "stackTable.prefix[0]"),
        ("prefix forward", lambda d: st(d)["prefix"].__setitem__(1, 5), "stackTable.prefix[1]"),
        ("stack frame out of range",
         lambda d: st(d)["frame"].__setitem__(0, thread(d)["frameTable"]["length"]),
         "stackTable.frame[0]"),
        ("stack category out of range",
         lambda d: st(d)["category"].__setitem__(0, len(d["meta"]["categories"])),
         "stackTable[0] category"),
        ("subcategory out of range", lambda d: st(d)["subcategory"].__setitem__(0, 1),
         "stackTable[0] subcategory"),
        ("frame func out of range",
         lambda d: thread(d)["frameTable"]["func"].__setitem__(0, -1), "frameTable.func[0]"),
        ("frame line not an integer", lambda d: thread(d)["frameTable"]["line"].__setitem__(0, "3"),
         "frameTable.line[0]"),
        ("isJS not a boolean", lambda d: thread(d)["funcTable"]["isJS"].__setitem__(0, 0),
         "funcTable.isJS[0]"),
        ("resource out of range", lambda d: thread(d)["funcTable"]["resource"].__setitem__(0, 0),
         "funcTable.resource[0]"),
        ("sample stack out of range",
         lambda d: thread(d)["samples"]["stack"].__setitem__(0, st(d)["length"]),
         "samples.stack[0]"),
        ("time going back", lambda d: thread(d)["samples"]["time"].__setitem__(1, -1),
         "samples.time[1]"),
        ("weight not a number", lambda d: thread(d)["samples"]["weight"].__setitem__(0, "5"),
         "samples.weight[0]"),
        ("weight column short", lambda d: thread(d)["samples"]["weight"].pop(),
         "samples.weight: has"),
        ("bad weightType", lambda d: thread(d)["samples"].update(weightType="calls"),
         "weightType"),
        ("funcTable missing", lambda d: thread(d).pop("funcTable"), "funcTable: not an object"),
    ]


class Checker(unittest.TestCase):
    def test_fails_on_each_breakage(self):
        good = export("firefox", "flame-small-1.0.0.iprof")
        self.assertEqual(check_firefox.check(good), [])
        for what, brk, expected in breakages():
            doc = copy.deepcopy(good)
            brk(doc)
            problems = check_firefox.check(doc)
            self.assertTrue(problems, "not detected: " + what)
            self.assertTrue(any(expected in p for p in problems),
                            "%s: %r not in %r" % (what, expected, problems))

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            good, bad = os.path.join(tmp, "good.json"), os.path.join(tmp, "bad.json")
            doc = export("firefox", "flame-small-1.0.0.iprof")
            with open(good, "w") as f:
                json.dump(doc, f)
            doc["threads"][0]["stackTable"]["prefix"][0] = 0
            with open(bad, "w") as f:
                json.dump(doc, f)
            script = os.path.join(HERE, "check_firefox.py")
            p = subprocess.run([sys.executable, script, good], stdout=subprocess.PIPE)
            self.assertEqual((p.returncode, p.stdout.decode()), (0, good + ": ok\n"))
            p = subprocess.run([sys.executable, script, good, bad], stdout=subprocess.PIPE)
            self.assertEqual(p.returncode, 1)
            self.assertEqual(p.stdout.decode(),
                             good + ": ok\n" + bad + ": threads[0].stackTable.prefix[0]: "
                             "0 is not null or a stack index below 0\n")


class Corpus(unittest.TestCase):
    def test_jsonata_weights(self):
        path = corpus_file("jsonata-cli-0.4.0.iprof")
        code, stats, err = run("stats", "--json", path)
        total = json.loads(stats)["totals"]["samplingProfiles"]
        ss = export("speedscope", path)
        check_speedscope(self, ss)
        self.assertEqual(sum(ss["profiles"][0]["weights"]), total)
        ff = export("firefox", path)
        self.assertEqual(check_firefox.check(ff), [])
        self.assertEqual(sum(ff["threads"][0]["samples"]["weight"]), total)
        flame = folded(path)
        self.assertEqual(fold_speedscope(ss), flame)
        self.assertEqual(fold_firefox(ff), flame)
        self.assertGreater(len(ff["meta"]["categories"]), 1)


class Docs(unittest.TestCase):
    def test_man_page(self):
        with open(os.path.join(SOURCE, "docs", "iprof.1")) as f:
            man = f.read()
        for cmd in ("validate", "stats", "cat", "flame", "export"):
            self.assertIn("\n.SS %s\n" % cmd, man)
            self.assertIn("\n.B iprof %s\n" % cmd, man)
        with open(os.path.join(SOURCE, "meson.build")) as f:
            self.assertIn("install_man('docs/iprof.1')", f.read())
        groff = shutil.which("groff")
        if groff:
            p = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", os.path.join(
                SOURCE, "docs", "iprof.1")], stderr=subprocess.PIPE)
            self.assertEqual((p.returncode, p.stderr), (0, b""))

    def test_commands_page_usage_lines(self):
        with open(os.path.join(SOURCE, "docs", "commands.md")) as f:
            page = f.read()
        self.assertIn("\niprof flame FILE [--kind sampling|callcount]", page)
        self.assertIn("\niprof export --format speedscope|firefox FILE", page)


if __name__ == "__main__":
    sys.exit(tooltest.main(__name__))
