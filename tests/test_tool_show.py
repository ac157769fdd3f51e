"""iprof show: what the compiler is told about a method, in text and JSON,
with exact outputs on tests/data/show.iprof (GraalVM 25's layout: a
two-way branch, a switch whose cases share a target through bci -5, a
branch that never ran, receiver and instanceof types, a repeated sampling
context)."""
import json
import unittest

import tooltest
from tooltest import run

AREA = """com.example.Shape.area (id 2): 3 contexts
  com.example.Shape.area:0  (2:0)
    call count      1000
  com.example.Shape.area:12  (2:12)
    branches        bci 17: 0.6, bci 21: 0.4
  com.example.Shape.area:3  (2:3)
    instanceof      com.example.Circle 0.5999994, com.example.Square 0.3999996, not recorded 1e-06
"""

MAIN = """com.example.Main.main (id 1): 3 contexts
  com.example.Main.main:20  (1:20)
    branches        bci 30: 0.2999997, bci 40: 0.6999993, bci 50: 1e-06
  com.example.Main.main:60  (1:60)
    branches        no counts: GraalVM applies none
  com.example.Main.main:4  (1:4)
    receiver types  com.example.Circle 0.5999994, com.example.Square 0.3999996, not recorded 1e-06
"""

CIRCLE = """com.example.Circle.area (id 3): 2 contexts
  com.example.Circle.area:0 < com.example.Shape.area:5 < com.example.Main.main:-6  (3:0<2:5<1:-6)
    call count      600
  com.example.Circle.area:2 < com.example.Shape.area:5 < com.example.Main.main:-6  (3:2<2:5<1:-6)
    samples         30
    samples         12
"""


class Show(unittest.TestCase):
    maxDiff = None

    def expect(self, args, code, out, err=""):
        got = run(*args)
        self.assertEqual(got, (code, out.encode(), err), "iprof %s" % " ".join(args))

    def test_text(self):
        self.expect(["show", "show.iprof", "com.example.Shape.area"], 0, AREA)
        self.expect(["show", "show.iprof", "com.example.Main.main"], 0, MAIN)
        self.expect(["show", "show.iprof", "com.example.Circle.area"], 0, CIRCLE)

    def test_json(self):
        code, out, err = run("show", "--json", "show.iprof", "com.example.Main.main")
        self.assertEqual((code, err), (0, ""))
        doc = json.loads(out)
        self.assertEqual(doc, {"file": "show.iprof", "methods": [{
            "id": 1, "name": "com.example.Main.main", "contexts": [
                {"context": "1:20", "frames": "com.example.Main.main:20", "entries": [
                    {"kind": "conditionalProfiles", "branches": [
                        {"bci": 30, "probability": 0.29999970000009996},
                        {"bci": 40, "probability": 0.6999992999999},
                        {"bci": 50, "probability": 1.0000000000287557e-06}]}]},
                {"context": "1:60", "frames": "com.example.Main.main:60", "entries": [
                    {"kind": "conditionalProfiles", "branches": None}]},
                {"context": "1:4", "frames": "com.example.Main.main:4", "entries": [
                    {"kind": "virtualInvokeProfiles", "types": [
                        {"id": 5, "name": "com.example.Circle", "share": 0.5999994000000001},
                        {"id": 6, "name": "com.example.Square", "share": 0.3999996}],
                     "notRecorded": 1.0000000000287557e-06}]}]}]})
        # Numbers in their shortest round-trip form.
        self.assertIn(b'"probability": 0.6999992999999}', out)
        code, out, err = run("show", "--json", "show.iprof", "com.example.Circle.area")
        entries = json.loads(out)["methods"][0]["contexts"][1]["entries"]
        self.assertEqual(entries, [{"kind": "samplingProfiles", "count": 30},
                                   {"kind": "samplingProfiles", "count": 12}])

    def test_every_overload(self):
        # Type.name names every overload: the three area methods are one
        # name each here (different declaring types), so one method shows.
        code, out, err = run("show", "graalvm25.iprof", "com.example.Shape.area")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith(b"com.example.Shape.area (id 2): 3 contexts\n"))

    def test_errors(self):
        self.expect(["show", "show.iprof", "com.example.Nope.x"], 1, "",
                    "iprof show: show.iprof: has no method com.example.Nope.x\n")
        code, out, err = run("show", "show.iprof")
        self.assertEqual((code, out), (2, b""))
        self.assertIn("no METHOD given", err)
        code, out, err = run("show", "syntax-error.iprof", "a.b")
        self.assertEqual((code, out), (1, b""))

    def test_whole_name(self):
        # A name is matched whole: "T.a" is not the method "a\u0000b", and
        # a name longer than any buffer is still found.
        import os
        import tempfile
        long = "x" * 5000
        doc = {"version": "1.0.0", "types": [{"id": 0, "name": "T"}, {"id": 1, "name": "void"}],
               "methods": [{"id": 1, "name": "a\u0000b", "signature": [0, 1]},
                           {"id": 2, "name": long, "signature": [0, 1]}],
               "callCountProfiles": [{"ctx": "1:0", "records": [7]}, {"ctx": "2:0", "records": [9]}],
               "conditionalProfiles": [], "virtualInvokeProfiles": [], "monitorProfiles": [],
               "samplingProfiles": []}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "nul.iprof")
            with open(path, "w") as f:
                json.dump(doc, f)
            self.expect(["show", path, "T.a"], 1, "",
                        "iprof show: %s: has no method T.a\n" % path)
            self.expect(["show", path, "T.a?"], 1, "",
                        "iprof show: %s: has no method T.a?\n" % path)
            code, out, err = run("show", "--json", path, "T.a?b")  # a NUL shows as '?'
            self.assertEqual([m["id"] for m in json.loads(out)["methods"]], [1])
            code, out, err = run("show", "--json", path, "T." + long)
            self.assertEqual((code, err), (0, ""))
            got = json.loads(out)["methods"]
            self.assertEqual([(m["id"], m["contexts"][0]["context"]) for m in got], [(2, "2:0")])

    def test_output_file(self):
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "out.txt")
            self.expect(["show", "-o", path, "show.iprof", "com.example.Shape.area"], 0, "")
            with open(path) as f:
                self.assertEqual(f.read(), AREA)


if __name__ == "__main__":
    raise SystemExit(tooltest.main(__name__))
