"""iprof repair: exact reports and outputs on small damaged files
(tests/data/repair-*.iprof: a truncation inside an entry, a garbage byte,
references a truncation left dangling, damage before the version), the
JSON report, exit statuses, OUT as standard output or as FILE itself,
truncated gzip input, and corpus files cut in the middle whose repair a
strict validation accepts."""
import gzip
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import tooltest
from tooltest import DATA, corpus_file, run

NONE_DROPPED = ("dropped (dangling): 0 methods, 0 callCountProfiles, 0 conditionalProfiles, "
                "0 virtualInvokeProfiles, 0 monitorProfiles, 0 samplingProfiles, "
                "0 instanceofProfiles\n")

TRUNCATED = (
    "repair-truncated.iprof: damaged at offset 420 (line 1, column 421, "
    "monitorProfiles[0].records[0]): unexpected end of input\n"
    "kept: version 1.0.0, 2 types, 2 methods, 2 callCountProfiles, 1 conditionalProfiles, "
    "1 virtualInvokeProfiles, 0 monitorProfiles, 0 samplingProfiles, 0 instanceofProfiles\n"
    + NONE_DROPPED +
    "last complete element ends at offset 375; bytes lost: 45 of 420\n")

TRUNCATED_OUT = (
    b'{"version":"1.0.0","types":[{"id":0,"name":"int"},{"id":1,"name":"A"}],"methods":'
    b'[{"id":1,"name":"m","signature":[1,0]},{"id":2,"name":"n","signature":[1,0,1]}],'
    b'"callCountProfiles":[{"ctx":"1:0","records":[3]},{"ctx":"2:0<1:4","records":'
    b'[23929230826]}],"conditionalProfiles":[{"ctx":"1:5","records":[9,0,2,-1,1,1]}],'
    b'"virtualInvokeProfiles":[{"ctx":"2:7<1:4","records":[1,3]}],"monitorProfiles":[],'
    b'"samplingProfiles":[]}')

GARBAGE = (
    "repair-garbage.iprof: damaged at offset 306 (line 1, column 307, "
    "conditionalProfiles[0].records[3]): expected a JSON value\n"
    "kept: version 1.0.0, 2 types, 2 methods, 2 callCountProfiles, 0 conditionalProfiles, "
    "0 virtualInvokeProfiles, 0 monitorProfiles, 0 samplingProfiles, 0 instanceofProfiles\n"
    + NONE_DROPPED +
    "last complete element ends at offset 252; bytes lost: 228 of 480\n")

DANGLING = (
    "repair-dangling.iprof: damaged at offset 419 (line 1, column 420, types[2]): "
    "unexpected end of input\n"
    "kept: version 1.0.0, 2 types, 1 methods, 1 callCountProfiles, 0 conditionalProfiles, "
    "1 virtualInvokeProfiles, 1 monitorProfiles, 0 samplingProfiles, 0 instanceofProfiles\n"
    "dropped (dangling): 1 methods, 2 callCountProfiles, 0 conditionalProfiles, "
    "1 virtualInvokeProfiles, 0 monitorProfiles, 0 samplingProfiles, 0 instanceofProfiles\n"
    "last complete element ends at offset 407; bytes lost: 12 of 419\n")

DANGLING_OUT = (
    b'{"version":"1.0.0","types":[{"id":0,"name":"int"},{"id":1,"name":"A"}],"methods":'
    b'[{"id":1,"name":"m","signature":[1,0]}],"callCountProfiles":[{"ctx":"1:0","records":'
    b'[3]}],"conditionalProfiles":[],"virtualInvokeProfiles":[{"ctx":"1:3","records":[0,1]}],'
    b'"monitorProfiles":[{"ctx":"0:0","records":[1,9]}],"samplingProfiles":[]}')

INTACT = (
    "graal-1.0.0.iprof: intact\n"
    "kept: version 1.0.0, 2 types, 2 methods, 2 callCountProfiles, 1 conditionalProfiles, "
    "1 virtualInvokeProfiles, 1 monitorProfiles, 1 samplingProfiles, 0 instanceofProfiles\n"
    + NONE_DROPPED +
    "last complete element ends at offset 480; bytes lost: 0 of 480\n")


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Repair(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def repair(self, name, *opts):
        out = os.path.join(self.tmp, "out.iprof")
        code, stdout, err = run("repair", *opts, name, "-o", out)
        written = read(out) if os.path.exists(out) else None
        return code, stdout.decode(), err, written

    def test_truncated(self):
        self.assertEqual(self.repair("repair-truncated.iprof"), (1, TRUNCATED, "", TRUNCATED_OUT))

    def test_garbage_byte(self):
        code, out, err, written = self.repair("repair-garbage.iprof")
        self.assertEqual((code, out, err), (1, GARBAGE, ""))
        self.assertEqual(written, TRUNCATED_OUT.split(b'"conditionalProfiles"')[0] +
                         b'"conditionalProfiles":[],"virtualInvokeProfiles":[],'
                         b'"monitorProfiles":[],"samplingProfiles":[]}')

    def test_dangling(self):
        self.assertEqual(self.repair("repair-dangling.iprof"), (1, DANGLING, "", DANGLING_OUT))
        code, out, err = run("validate", "--strict", os.path.join(self.tmp, "out.iprof"))
        self.assertEqual((code, err), (0, ""))

    def test_json(self):
        code, out, err, written = self.repair("repair-dangling.iprof", "--json")
        self.assertEqual((code, err, written), (1, "", DANGLING_OUT))
        self.assertEqual(json.loads(out), {
            "file": "repair-dangling.iprof", "intact": False,
            "damage": {"status": "JSON syntax error", "offset": 419, "line": 1, "column": 420,
                       "path": "types[2]", "message": "unexpected end of input"},
            "kept_end": 407, "input_bytes": 419, "bytes_lost": 12, "version": "1.0.0",
            "kept": {"types": 2, "methods": 1, "callCountProfiles": 1, "conditionalProfiles": 0,
                     "virtualInvokeProfiles": 1, "monitorProfiles": 1, "samplingProfiles": 0,
                     "instanceofProfiles": 0},
            "dropped": {"methods": 1, "callCountProfiles": 2, "conditionalProfiles": 0,
                        "virtualInvokeProfiles": 1, "monitorProfiles": 0, "samplingProfiles": 0,
                        "instanceofProfiles": 0},
            "unread_dropped": 0, "unread_first": None})
        code, out, err, written = self.repair("graal-1.0.0.iprof", "--json")
        doc = json.loads(out)
        self.assertEqual((code, doc["intact"], doc["damage"], doc["bytes_lost"]),
                         (0, True, None, 0))

    def test_intact(self):
        code, out, err, written = self.repair("graal-1.0.0.iprof")
        self.assertEqual((code, out, err), (0, INTACT, ""))
        self.assertEqual(written, read(os.path.join(DATA, "graal-1.0.0.iprof")))

    def test_nothing_to_salvage(self):
        code, out, err, written = self.repair("repair-noversion.iprof")
        self.assertEqual((code, out, written), (3, "", None))
        self.assertEqual(err, "repair-noversion.iprof:1:48: version: unexpected end of input\n"
                              "iprof repair: repair-noversion.iprof: nothing to salvage: the "
                              "damage comes before the version is read\n")

    def test_stdout(self):
        # The profile on standard output, the report on standard error.
        code, out, err = run("repair", "repair-truncated.iprof", "-o", "-")
        self.assertEqual((code, out, err), (1, TRUNCATED_OUT, TRUNCATED))

    def test_stdin(self):
        # From a pipe the input's size is unknown: no bytes lost.
        code, out, err = run("repair", "-", "-o", os.path.join(self.tmp, "out.iprof"),
                             stdin=read(os.path.join(DATA, "repair-truncated.iprof")))
        self.assertEqual((code, err), (1, ""))
        self.assertEqual(out.decode(), TRUNCATED.replace("repair-truncated.iprof", "<stdin>")
                         .replace("; bytes lost: 45 of 420", ""))
        self.assertEqual(read(os.path.join(self.tmp, "out.iprof")), TRUNCATED_OUT)

    def test_overwrite_input(self):
        path = os.path.join(self.tmp, "damaged.iprof")
        shutil.copy(os.path.join(DATA, "repair-truncated.iprof"), path)
        code, out, err = run("repair", path, "-o", path)
        self.assertEqual((code, err), (1, ""))
        self.assertEqual(read(path), TRUNCATED_OUT)
        # The report counts the input as it was, not the output that
        # replaced it (which is shorter: bytes lost once wrapped around).
        self.assertEqual(out.decode(), TRUNCATED.replace("repair-truncated.iprof", path))
        intact = os.path.join(self.tmp, "intact.iprof")
        shutil.copy(os.path.join(DATA, "graal-1.0.0.iprof"), intact)
        code, out, err = run("repair", intact, "-o", intact, "--json")
        doc = json.loads(out)
        self.assertEqual((code, err, doc["input_bytes"], doc["bytes_lost"]), (0, "", 480, 0))

    def test_stdout_by_its_name(self):
        # -o /dev/stdout (or the file stdout goes to) writes where stdout
        # does: the report goes to standard error, as with -o -.
        for name in ("/dev/stdout", "/proc/self/fd/1"):
            code, out, err = run("repair", "repair-truncated.iprof", "-o", name)
            self.assertEqual((code, out, err), (1, TRUNCATED_OUT, TRUNCATED), name)
        path = os.path.join(self.tmp, "out.iprof")
        with open(path, "wb") as f:
            p = subprocess.run([tooltest.IPROF, "repair", "repair-truncated.iprof", "-o", path],
                               cwd=DATA, stdout=f, stderr=subprocess.PIPE)
        self.assertEqual((p.returncode, p.stderr.decode(), read(path)),
                         (1, TRUNCATED, TRUNCATED_OUT))

    def test_usage(self):
        code, out, err = run("repair", "repair-truncated.iprof")
        self.assertEqual((code, out), (2, b""))
        self.assertIn("-o OUT is required", err)
        self.assertEqual(run("repair", "-o", "x")[0], 2)
        self.assertEqual(run("repair", "a", "b", "-o", "x")[0], 2)
        code, out, err = run("repair", "--help")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith(b"Usage: iprof repair [--json] [--drop-unknown] FILE -o OUT\n"))
        code, out, err, written = self.repair("no-such-file.iprof")
        self.assertEqual((code, written), (2, None))

    def test_gzip_truncated(self):
        whole = gzip.compress(read(os.path.join(DATA, "graal-1.0.0.iprof")), mtime=0)
        path = os.path.join(self.tmp, "cut.iprof.gz")
        with open(path, "wb") as f:
            f.write(whole[:len(whole) - 4])  # the trailer cut: every element kept
        code, out, err, written = self.repair(path, "--json")
        doc = json.loads(out)
        self.assertEqual((code, err, written), (1, "", read(os.path.join(DATA, "graal-1.0.0.iprof"))))
        self.assertEqual((doc["damage"]["offset"], doc["kept_end"], doc["bytes_lost"]),
                         (480, 480, None))
        self.assertTrue(doc["damage"]["message"].startswith("truncated gzip data"))

    def test_corpus_cut(self):
        src = corpus_file("jsonata-cli-0.4.0.iprof")
        data = read(src)
        path = os.path.join(self.tmp, "cut.iprof")
        for cut in (len(data) // 3, len(data) // 2 + 7, len(data) - 1):
            with open(path, "wb") as f:
                f.write(data[:cut])
            code, out, err, written = self.repair(path, "--json")
            doc = json.loads(out)
            self.assertEqual((code, err), (1, ""))
            self.assertEqual(doc["damage"]["offset"], cut)
            self.assertEqual(doc["bytes_lost"], cut - doc["kept_end"])
            self.assertEqual(doc["version"], "0.4.0")
            code, out, err = run("validate", "--strict", os.path.join(self.tmp, "out.iprof"))
            self.assertEqual((code, err), (0, ""))


if __name__ == "__main__":
    raise SystemExit(tooltest.main(__name__))
