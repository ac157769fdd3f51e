#!/usr/bin/env python3
"""Tests of `iprof fit`: how well a profile fits a build's call tree.

Exact stdout, stderr and exit status on the hand-written
tests/data/fit.iprof and tests/data/fit-call_tree_methods.csv (CRLF line
ends, quoted fields with commas, '""' and a line break, overloads, a
constructor, a hidden lambda class named with '/' in the profile and '+'
in the CSV, array types in both spellings, a reachable method the profile
has with a call count of 0, two profiled methods no longer reachable);
every number below was worked out by hand in tests/data/README.md. Malformed
CSV files (written here) fail with their line. The LCOV output through
genhtml (Debian package lcov). A corpus run checks the counts against an
independent computation in Python on a call tree made from half of the
profile's methods.

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
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tooltest  # noqa: E402
from tooltest import DATA, SOURCE, corpus_file, run  # noqa: E402
REQUIRE_TOOLS = bool(os.environ.get("CI") or os.environ.get("IPROF_REQUIRE_TOOLS"))

PROFILE = "fit.iprof"
CSV = "fit-call_tree_methods.csv"
HEADER = "Id,Name,Type,Parameters,Return,Display,Flags,IsEntryPoint\n"

TEXT = """fit.iprof against fit-call_tree_methods.csv
reachable methods:       9, 5 run (55.56%), 4 never run
profiled methods:        7, 5 reachable, 2 no longer reachable
profile relevance:       80.00% (8 of 10 entries on reachable methods)
profile applicability:   55.56% (5 of 9 reachable methods have data)
virtual call sites:      60.00% (3 of 5 have receiver types)

reachable but never run (4):
  com.example.App.fresh(int,long):void
  com.example.App.idle():void
  com.example.App.work(long):int
  java.lang.Object.toString():java.lang.String

profiled but no longer reachable (2), by call count, then samples:
             4  com.example.Old.gone(int[]):void
             9  com.example.App.removed(java.lang.String):void
"""

TEXT_TOP1 = """fit.iprof against fit-call_tree_methods.csv
reachable methods:       9, 5 run (55.56%), 4 never run
profiled methods:        7, 5 reachable, 2 no longer reachable
profile relevance:       80.00% (8 of 10 entries on reachable methods)
profile applicability:   55.56% (5 of 9 reachable methods have data)
virtual call sites:      60.00% (3 of 5 have receiver types)

reachable but never run (4):
  com.example.App.fresh(int,long):void
  ... and 3 more (--top 0 lists all)

profiled but no longer reachable (2), by call count, then samples:
             4  com.example.Old.gone(int[]):void
  ... and 1 more (--top 0 lists all)
"""

JSON = """{"profile": "fit.iprof", "callTree": "fit-call_tree_methods.csv", "callTreeInvokes": "fit-call_tree_invokes.csv", "hasCallCounts": true,
 "reachable": 9, "reachableRun": 5, "reachableNotRun": 4, "profiled": 7, "profiledReachable": 5, "profiledUnreachable": 2,
 "entries": 10, "relevantEntries": 8, "relevance": 80, "applicability": 55.55555555555556,
 "virtualCallSites": 5, "profiledVirtualCallSites": 3, "virtualCallApplicability": 60,
 "notRun": [
  "com.example.App.fresh(int,long):void",
  "com.example.App.idle():void",
  "com.example.App.work(long):int",
  "java.lang.Object.toString():java.lang.String"],
 "unreachable": [
  {"method": "com.example.Old.gone(int[]):void", "hits": 4, "calls": 4, "samples": 0},
  {"method": "com.example.App.removed(java.lang.String):void", "hits": 9, "calls": 0, "samples": 9}]}
"""

LCOV = """TN:
SF:com/example/App.java
FN:1,main(java.lang.String[]): void
FN:2,work(int): int
FN:3,work(int; java.lang.String): int
FN:4,<init>(): void
FN:5,idle(): void
FN:6,fresh(int; long): void
FN:7,work(long): int
FNDA:1,main(java.lang.String[]): void
FNDA:20,work(int): int
FNDA:1,work(int; java.lang.String): int
FNDA:1,<init>(): void
FNDA:0,idle(): void
FNDA:0,fresh(int; long): void
FNDA:0,work(long): int
FNF:7
FNH:4
DA:1,1
DA:2,20
DA:3,1
DA:4,1
DA:5,0
DA:6,0
DA:7,0
LF:7
LH:4
end_of_record
SF:com/example/App$$Lambda/0x0000000801234567.java
FN:1,run(): void
FNDA:3,run(): void
FNF:1
FNH:1
DA:1,3
LF:1
LH:1
end_of_record
SF:java/lang/Object.java
FN:1,toString(): java.lang.String
FNDA:0,toString(): java.lang.String
FNF:1
FNH:0
DA:1,0
LF:1
LH:0
end_of_record
"""


def fit(*args, **kw):
    code, out, err = run("fit", *args, **kw)
    return code, out.decode("utf-8"), err


class FitTest(unittest.TestCase):
    def test_text(self):
        self.assertEqual(fit(PROFILE, CSV), (0, TEXT, ""))

    def test_top(self):
        self.assertEqual(fit("--top", "1", PROFILE, CSV), (0, TEXT_TOP1, ""))
        self.assertEqual(fit("--top=0", PROFILE, CSV), (0, TEXT, ""))

    def test_json(self):
        self.assertEqual(fit("--json", PROFILE, CSV), (0, JSON, ""))
        # --top caps the text lists only
        self.assertEqual(fit("--json", "--top", "1", PROFILE, CSV), (0, JSON, ""))

    def test_lcov(self):
        self.assertEqual(fit("--lcov", "-", PROFILE, CSV), (0, LCOV, ""))
        with tempfile.TemporaryDirectory() as tmp:
            info, report = os.path.join(tmp, "f.info"), os.path.join(tmp, "f.txt")
            self.assertEqual(fit("--lcov", info, "-o", report, PROFILE, CSV), (0, "", ""))
            with open(info) as f:
                self.assertEqual(f.read(), LCOV)
            with open(report) as f:
                self.assertEqual(f.read(), TEXT)

    def test_stdin_and_directory(self):
        """PROFILE '-'; CALLTREE a reports directory: its call_tree_methods.csv
        (the link GraalVM makes to the latest call_tree_methods_*.csv)."""
        with open(os.path.join(DATA, PROFILE), "rb") as f:
            profile = f.read()
        with tempfile.TemporaryDirectory() as tmp:
            reports = os.path.join(tmp, "reports")
            os.mkdir(reports)
            shutil.copy(os.path.join(DATA, CSV), os.path.join(reports, "call_tree_methods_x.csv"))
            os.symlink("call_tree_methods_x.csv", os.path.join(reports, "call_tree_methods.csv"))
            shutil.copy(os.path.join(DATA, "fit-call_tree_invokes.csv"),
                        os.path.join(reports, "call_tree_invokes_x.csv"))
            os.symlink("call_tree_invokes_x.csv", os.path.join(reports, "call_tree_invokes.csv"))
            expect = TEXT.replace("fit.iprof against fit-call_tree_methods.csv",
                                  "<stdin> against reports/call_tree_methods.csv")
            self.assertEqual(fit("-", "reports", stdin=profile, cwd=tmp), (0, expect, ""))

    def test_genhtml(self):
        genhtml = shutil.which("genhtml")
        if not genhtml:
            if REQUIRE_TOOLS:
                self.fail("genhtml (Debian package lcov) is not installed")
            raise unittest.SkipTest("genhtml (Debian package lcov) not installed")
        with tempfile.TemporaryDirectory() as tmp:
            info = os.path.join(tmp, "f.info")
            self.assertEqual(fit("--lcov", info, PROFILE, CSV)[0], 0)
            p = subprocess.run([genhtml, "--no-source", "--function-coverage", "-o",
                                os.path.join(tmp, "html"), info], cwd=tmp,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
            log = p.stdout.decode("utf-8", "replace")
            self.assertEqual(p.returncode, 0, log)
            self.assertIn("functions..: 55.6% (5 of 9 functions)", log)
            self.assertTrue(os.path.isfile(os.path.join(tmp, "html", "index.html")))

    def test_sampled_only(self):
        """A profile without call counts: a warning, hasCallCounts false."""
        with tempfile.TemporaryDirectory() as tmp:
            csv = os.path.join(tmp, "c.csv")
            with open(csv, "w") as f:
                f.write(HEADER + "0,b,B,empty,void,B.b,p,false\n")
            code, out, err = fit("--json", "coverage-sampled.iprof", csv)
        self.assertEqual((code, err), (0, "iprof fit: coverage-sampled.iprof: warning: no call "
                                          "counts (sampled only?): methods that ran but were not "
                                          "sampled count as never run\n"))
        self.assertFalse(json.loads(out)["hasCallCounts"])

    def malformed(self, text, line, message):
        with tempfile.TemporaryDirectory() as tmp:
            csv = os.path.join(tmp, "bad.csv")
            with open(csv, "wb") as f:
                f.write(text.encode() if isinstance(text, str) else text)
            self.assertEqual(fit(PROFILE, csv), (1, "", "%s:%d: %s\n" % (csv, line, message)))

    def test_malformed_csv(self):
        row = "0,main,com.example.App,java.lang.String[],void,cea.main,ps,true\n"
        self.malformed("", 1, "empty: no header line")
        self.malformed("Id,Name,Type,Parameters\n", 1,
                       "not a call_tree_methods CSV: no column 'Return' (GraalVM writes "
                       "Id,Name,Type,Parameters,Return,Display,Flags,IsEntryPoint)")
        self.malformed(HEADER + row + "1,a,B,empty,void\n", 3, "5 fields, the header has 8")
        self.malformed(HEADER + '1,"a,B,empty,void,d,p,false\n', 2,
                       "a quoted field does not end (no closing '\"')")
        self.malformed(HEADER + '1,a"b,B,empty,void,d,p,false\n', 2,
                       "'\"' inside an unquoted field (quote the field, '\"\"' for '\"')")
        self.malformed(HEADER + '1,"a"b,B,empty,void,d,p,false\n', 2,
                       "text after a closing '\"' (a field is quoted whole)")
        self.malformed(HEADER + "1,a,,empty,void,d,p,false\n", 2, "empty Type")
        self.malformed(HEADER.encode() + b"1,a\0,B,empty,void,d,p,false\n", 2, "NUL byte")
        # a record over three lines: the next one starts on line 5
        self.malformed(HEADER + '1,a,B,empty,void,"x\r\ny\nz",p,false\n2,a,B\n', 5,
                       "3 fields, the header has 8")

    def test_malformed_invokes(self):
        """The call_tree_invokes file beside a call_tree_methods file."""
        methods = HEADER + "0,main,com.example.App,java.lang.String[],void,d,ps,true\n"
        head = "Id,MethodId,BytecodeIndexes,TargetId,IsDirect\n"
        for body, line, message in [
                ("Id,MethodId,TargetId\n", 1, "not a call_tree_invokes CSV: no column "
                 "'BytecodeIndexes' (GraalVM writes Id,MethodId,BytecodeIndexes,TargetId,IsDirect)"),
                (head + "0,0,3,0,maybe\n", 2, "IsDirect is neither true nor false"),
                (head + "0,0,3,0,true\n1,0,7>3,0,false\n", 3,
                 "BytecodeIndexes is not a list of bcis like 7->3"),
                (head + "0,9,3,0,false\n", 2, "MethodId names no method of call_tree_methods"),
                (head + "0,0,,0,false\n", 2, "empty BytecodeIndexes")]:
            with tempfile.TemporaryDirectory() as tmp:
                with open(os.path.join(tmp, "b-call_tree_methods_1.csv"), "w") as f:
                    f.write(methods)
                invokes = os.path.join(tmp, "b-call_tree_invokes_1.csv")
                with open(invokes, "w") as f:
                    f.write(body)
                self.assertEqual(fit(PROFILE, os.path.join(tmp, "b-call_tree_methods_1.csv")),
                                 (1, "", "%s:%d: %s\n" % (invokes, line, message)))

    def test_quoting_accepted(self):
        """Quoted header and fields, '""', a BOM, blank lines, no final
        newline, columns in another order with one more: same methods."""
        with tempfile.TemporaryDirectory() as tmp:
            csv = os.path.join(tmp, "c.csv")
            with open(csv, "wb") as f:
                f.write(b'\xef\xbb\xbf"Return",Extra,"Name","Type","Parameters"\r\n\r\n'
                        b'void,"a ""quoted"", text","idle",com.example.App,empty\n'
                        b'"int",,work,"com.example.App","int,java.lang.String"')
            code, out, err = fit("--json", PROFILE, csv)
            text = fit(PROFILE, csv)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(text[0], 0)
        d = json.loads(out)
        self.assertEqual((d["reachable"], d["reachableRun"], d["notRun"]),
                         (2, 1, ["com.example.App.idle():void"]))
        # no call_tree_invokes file: no sites
        self.assertEqual((d["callTreeInvokes"], d["virtualCallSites"],
                          d["profiledVirtualCallSites"], d["virtualCallApplicability"]),
                         (None, None, None, None))
        self.assertIn("profile applicability:", text[1])
        self.assertNotIn("virtual call sites", text[1])

    def test_usage_and_errors(self):
        code, out, err = fit("--help")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith("Usage: iprof fit"), out)
        hint = "Try 'iprof fit --help' for more information.\n"
        self.assertEqual(fit(), (2, "", "iprof fit: no PROFILE and CALLTREE given\n" + hint))
        self.assertEqual(fit(PROFILE), (2, "", "iprof fit: no CALLTREE given\n" + hint))
        self.assertEqual(fit(PROFILE, CSV, "x"), (2, "", "iprof fit: too many operands: 'x'\n" + hint))
        self.assertEqual(fit("--top", "-1", PROFILE, CSV),
                         (2, "", "iprof fit: --top: '-1' is not a count\n" + hint))
        self.assertEqual(fit(PROFILE, "-"),
                         (2, "", "iprof fit: CALLTREE cannot be standard input (PROFILE can)\n" + hint))
        self.assertEqual(fit("--lcov", "-", "-o", "-", PROFILE, CSV), (2, "", (
            "iprof fit: --lcov - and -o - both want standard output\n" + hint)))
        self.assertEqual(fit("--lcov", "x.info", "-o", "x.info", PROFILE, CSV), (2, "", (
            "iprof fit: --lcov x.info and -o x.info name the same file\n" + hint)))
        self.assertEqual(fit(PROFILE, "absent.csv"),
                         (2, "", "iprof fit: absent.csv: No such file or directory\n"))
        code, out, err = fit("syntax-error.iprof", CSV)
        self.assertEqual((code, out), (1, ""))
        self.assertTrue(err.startswith("syntax-error.iprof:"), err)


class DocsTest(unittest.TestCase):
    def test_documented(self):
        with open(os.path.join(SOURCE, "docs", "iprof.1")) as f:
            man = f.read()
        self.assertIn("\n.SS fit\n", man)
        self.assertIn("\n.B iprof fit\n", man)
        with open(os.path.join(SOURCE, "docs", "commands.md")) as f:
            page = f.read()
        self.assertIn("\niprof fit [--json] [--lcov OUT] [--top N] [--strict] [-o OUT] PROFILE "
                      "CALLTREE\n", page)
        self.assertIn("\n## `iprof fit`\n", page)
        code, out, err = run("--help")
        self.assertIn(b"\n  fit [--json] [--lcov OUT] [--top N] PROFILE CALLTREE\n", out)


# ---- the corpus -------------------------------------------------------------

PRIMS = {"Z": "boolean", "B": "byte", "C": "char", "S": "short", "I": "int", "J": "long",
         "F": "float", "D": "double"}


def java_name(name):
    """Class.getName's spelling as Java source's (the CSV's)."""
    dims = len(name) - len(name.lstrip("["))
    elem = name[dims:]
    if dims and elem in PRIMS:
        elem = PRIMS[elem]
    elif dims and elem.startswith("L") and elem.endswith(";"):
        elem = elem[1:-1]
    return elem + "[]" * dims


def key(types, m):
    sig = m["signature"]
    t = [re.sub(r"[/+]", ".", java_name(types.get(i, "?%d" % i))) for i in sig]
    return "%s.%s(%s):%s" % (t[0], m["name"], ",".join(t[2:]), t[1])


class CorpusTest(unittest.TestCase):
    def test_half_reachable(self):
        """Every other method of a real profile is in the call tree (its
        hidden classes spelt with '+'); the counts against Python's."""
        path = corpus_file("jsonata-cli-0.4.0.iprof")
        with open(path) as f:
            doc = json.load(f)
        types = {t["id"]: t["name"] for t in doc["types"]}
        methods = doc["methods"]
        by_id = {}
        for m in methods:
            by_id.setdefault(m["id"], m)
        ran = set()
        entries = 0
        frames = []
        for kind in ("callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
                     "monitorProfiles", "samplingProfiles"):
            for e in doc.get(kind, []):
                ids = [int(fr.split(":")[0]) for fr in e["ctx"].split("<")]
                entries += 1
                frames.append(ids)
                if kind == "callCountProfiles" and e["records"][0] <= 0:
                    continue
                ran.update(i for i in ids if i in by_id)
        reachable = set()
        id_of = {}  # reachable key -> the CSV Id of its first row
        with tempfile.TemporaryDirectory() as tmp:
            csv = os.path.join(tmp, "c-call_tree_methods.csv")
            with open(csv, "w") as f:
                f.write(HEADER)
                for n, m in enumerate(methods[::2]):
                    sig = m["signature"]
                    t = [java_name(types[i]).replace("/", "+") for i in sig]
                    params = " ".join(t[2:]) or "empty"
                    f.write('%d,"%s",%s,%s,%s,d,p,false\n' % (n, m["name"].replace('"', '""'),
                                                           t[0], params, t[1]))
                    reachable.add(key(types, m))
                    id_of.setdefault(key(types, m), n)
            # virtual call sites: those of the profile's entries (innermost
            # frame, and two frames as an inlined chain) in reachable
            # methods, and one unprofiled site per reachable method
            sites, profiled_sites = [], set()
            for e in doc["virtualInvokeProfiles"]:
                fr = [(int(a), int(b)) for a, b in (x.split(":") for x in e["ctx"].split("<"))]
                for j in range(len(fr)):
                    if fr[j][0] in by_id:
                        profiled_sites.add((key(types, by_id[fr[j][0]]),
                                            ",".join(str(b) for _, b in fr[:j + 1])))
                for j in range(min(2, len(fr))):
                    k = key(types, by_id[fr[j][0]]) if fr[j][0] in by_id else None
                    if k in id_of:
                        sites.append((k, [b for _, b in fr[:j + 1]]))
            sites += [(k, [99999]) for k in sorted(id_of)]
            with open(os.path.join(tmp, "c-call_tree_invokes.csv"), "w") as f:
                f.write("Id,MethodId,BytecodeIndexes,TargetId,IsDirect\n")
                for n, (k, bcis) in enumerate(sites):
                    f.write("%d,%d,%s,0,false\n" % (n, id_of[k], "->".join(map(str, bcis))))
            code, out, err = fit("--json", path, csv)
        self.assertEqual((code, err), (0, ""))
        d = json.loads(out)
        profiled = {key(types, by_id[i]) for i in ran}
        relevant = sum(all(i in by_id and key(types, by_id[i]) in reachable for i in ids)
                       for ids in frames)
        matched = sum((k, ",".join(map(str, b))) in profiled_sites for k, b in sites)
        self.assertEqual((d["reachable"], d["reachableRun"], d["profiled"],
                          d["profiledUnreachable"], d["entries"], d["relevantEntries"],
                          d["virtualCallSites"], d["profiledVirtualCallSites"]),
                         (len(reachable), len(reachable & profiled), len(profiled),
                          len(profiled - reachable), entries, relevant, len(sites), matched))
        self.assertGreater(matched, 100)
        self.assertGreater(d["profiledUnreachable"], 1000)
        self.assertGreater(d["reachableRun"], 1000)


if __name__ == "__main__":
    sys.exit(tooltest.main(__name__))
