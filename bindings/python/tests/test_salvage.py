"""load(salvage=True), Model.damage / kept_end / prune(dangling=True) and
iprof.repair(): salvaging truncated and damaged profiles."""
import io
import os
import tempfile
import unittest

import support  # noqa: F401  (puts the package on sys.path)
import iprof
from iprof import Kind

# tests/data/graal-1.0.0.iprof
DOC = (b'{"version":"1.0.0","types":[{"id":0,"name":"int"},{"id":1,"name":"A"}],"methods":'
       b'[{"id":1,"name":"m","signature":[1,0]},{"id":2,"name":"n","signature":[1,0,1]}],'
       b'"callCountProfiles":[{"ctx":"1:0","records":[3]},{"ctx":"2:0<1:4","records":'
       b'[23929230826]}],"conditionalProfiles":[{"ctx":"1:5","records":[9,0,2,-1,1,1]}],'
       b'"virtualInvokeProfiles":[{"ctx":"2:7<1:4","records":[1,3]}],"monitorProfiles":'
       b'[{"ctx":"0:0","records":[1,2]}],"samplingProfiles":[{"ctx":"2:3<1:-1","records":[4]}]}')

# Entries before methods and types, cut inside types: method 3 names type
# 9, entries name methods 2 and 3 and type 7.
DANGLING = (b'{"version":"1.0.0","callCountProfiles":[{"ctx":"1:0","records":[3]},{"ctx":'
            b'"2:0<1:4","records":[5]},{"ctx":"3:0","records":[7]}],"virtualInvokeProfiles":'
            b'[{"ctx":"1:2","records":[0,1,7,2]},{"ctx":"1:3","records":[0,1]}],'
            b'"monitorProfiles":[{"ctx":"0:0","records":[1,9]}],"methods":[{"id":1,"name":'
            b'"m","signature":[1,0]},{"id":3,"name":"q","signature":[1,9]}],"types":[{"id":'
            b'0,"name":"int"},{"id":1,"name":"A"},{"id":5,"na')


def counts(m):
    return [len(m.types), len(m.methods)] + [len(m.profiles(k)) for k in Kind]


class Salvage(unittest.TestCase):
    def test_truncated_sources(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cut.iprof")
            with open(path, "wb") as f:
                f.write(DOC[:420])
            for make in (lambda: DOC[:420], lambda: path, lambda: io.BytesIO(DOC[:420])):
                for threaded in (False, True):
                    with iprof.load(make(), salvage=True, threaded=threaded) as m:
                        self.assertEqual(counts(m), [2, 2, 2, 1, 1, 0, 0, 0])
                        d = m.damage
                        self.assertEqual((d.status, d.offset, d.line, d.column, d.path,
                                          d.message),
                                         (iprof.Status.ESYNTAX, 420, 1, 421,
                                          "monitorProfiles[0].records[0]",
                                          "unexpected end of input"))
                        self.assertEqual(m.kept_end, 375)

    def test_without_salvage(self):
        with self.assertRaises(iprof.JSONSyntaxError) as e:
            iprof.load(DOC[:420])
        self.assertEqual(e.exception.offset, 420)
        with iprof.load(DOC) as m:
            self.assertEqual((m.damage, m.kept_end), (None, None))
        with iprof.load(DOC, salvage=True) as m:
            self.assertEqual((m.damage, m.kept_end), (None, len(DOC)))

    def test_before_version(self):
        with self.assertRaises(iprof.JSONSyntaxError):
            iprof.load(b'{"versi', salvage=True)

    def test_prune_dangling(self):
        with iprof.load(DANGLING, strict=True, salvage=True) as m:
            self.assertEqual(m.damage.path, "types[2]")
            self.assertEqual(counts(m), [2, 2, 3, 0, 2, 1, 0, 0])
            with self.assertRaises(iprof.DanglingReferenceError):
                m.write()
            # Dangling alone leaves what is only unreferenced.
            m.add_type(77, "Unreferenced")
            m.add_method(78, "unreferenced", [77, 77])
            m.add_type(79, "AlsoUnreferenced")
            self.assertEqual(m.prune(dangling=True), {
                "methods": 1, "types": 0, "callCountProfiles": 2, "conditionalProfiles": 0,
                "virtualInvokeProfiles": 1, "monitorProfiles": 0, "samplingProfiles": 0,
                "instanceofProfiles": 0})
            self.assertEqual(counts(m), [4, 2, 1, 0, 1, 1, 0, 0])
            self.assertEqual(set(m.prune(dangling=True).values()), {0})
            # Both: method 78, then type 77 that only it used, and type 79.
            self.assertEqual(m.prune(dangling=True, methods=True, types=True), {
                "methods": 1, "types": 2, "callCountProfiles": 0, "conditionalProfiles": 0,
                "virtualInvokeProfiles": 0, "monitorProfiles": 0, "samplingProfiles": 0,
                "instanceofProfiles": 0})
            self.assertEqual(counts(m), [2, 1, 1, 0, 1, 1, 0, 0])
            out = m.write()
        with iprof.load(out, strict=True) as back:
            self.assertEqual(counts(back), [2, 1, 1, 0, 1, 1, 0, 0])

    def test_repair(self):
        r = iprof.repair(DANGLING)
        with r.model:
            self.assertEqual((r.damage.offset, r.kept_end), (419, 407))
            self.assertEqual(r.dropped["callCountProfiles"], 2)
            self.assertEqual(counts(r.model), [2, 1, 1, 0, 1, 1, 0, 0])
        r = iprof.repair(DOC)
        with r.model:
            self.assertIsNone(r.damage)
            self.assertEqual(r.model.write(), DOC)
        # A garbage byte: what comes before is kept, strictly valid.
        bad = DOC.replace(b"[9,0,2,-1", b"[9,0,2,@1")
        r = iprof.repair(bad)
        with r.model:
            self.assertEqual((r.damage.offset, r.damage.path),
                             (306, "conditionalProfiles[0].records[3]"))
            self.assertEqual(counts(r.model), [2, 2, 2, 0, 0, 0, 0, 0])
        with self.assertRaises(iprof.Error):
            iprof.repair(b'{"types":[],"version":"1.')


if __name__ == "__main__":
    unittest.main()
