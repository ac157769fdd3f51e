"""Real profiles (IPROF_CORPUS_DIR): byte-identical round trips, and a merge
of two corpus files checked against an independent pure-Python merge
computed with the json module. Skips, saying why, without the corpus."""
import io
import json
import os
import tempfile
import unittest

import support
from support import I64_MAX, I64_MIN, corpus
import iprof
from iprof import Kind

KEYS = [k.json_key for k in Kind]
PAIR_KINDS = ("virtualInvokeProfiles", "monitorProfiles", "instanceofProfiles")
SUM_KINDS = ("callCountProfiles", "samplingProfiles")


class RoundTripTest(unittest.TestCase):
    def test_jsonata_round_trip(self):
        path = corpus("jsonata-cli-0.4.0.iprof")
        with open(path, "rb") as f:
            data = f.read()
        doc = json.loads(data)
        with iprof.load(path) as m:
            self.assertEqual(m.version, "0.4.0")
            self.assertEqual(m.diagnostics, [])
            self.assertEqual(len(m.types), len(doc["types"]))
            self.assertEqual(len(m.methods), len(doc["methods"]))
            for k in Kind:
                self.assertEqual(len(m.profiles(k)), len(doc.get(k.json_key, [])), k)
            # Every element, exactly, in order.
            self.assertEqual([(t.id, t.name) for t in m.types],
                             [(t["id"], t["name"]) for t in doc["types"]])
            self.assertEqual([(x.id, x.name, list(x.signature)) for x in m.methods],
                             [(x["id"], x["name"], x["signature"]) for x in doc["methods"]])
            for k in Kind:
                self.assertEqual([(e.ctx, e.records) for e in m.profiles(k)],
                                 [(e["ctx"], e["records"]) for e in doc.get(k.json_key, [])])
            self.assertEqual(m.write(), data)
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "out.iprof")
                m.write(out)
                with open(out, "rb") as f:
                    self.assertEqual(f.read(), data)
        for source in (data, io.BytesIO(data)):
            with iprof.load(source) as m:
                self.assertEqual(m.write(), data)
        # Streaming sees the same entries.
        entries = list(iprof.iter_entries(path))
        self.assertEqual([(e.kind.json_key, e.ctx, e.records) for e in entries],
                         [(key, e["ctx"], e["records"]) for key in doc if key in KEYS
                          for e in doc[key]])

    def test_big_counts_and_negative_bcis(self):
        path = corpus("assorted-benchmarks-0.4.0.iprof")
        with iprof.load(path) as m:
            self.assertIn(23929230826, [e.records[0] for e in m.call_count])
            self.assertTrue(any(bci < 0 for e in m.conditional for _, bci in e.frames))
            with open(path, "rb") as f:
                self.assertEqual(m.write(), f.read())

    def test_lenient_placeholders(self):
        path = corpus("elidemin-jspy-placeholders-1.0.0.iprof")
        with open(path, "rb") as f:
            data = f.read()
        with iprof.load(path) as m:
            diags = m.diagnostics
            self.assertEqual((diags[0].status, diags[0].path, diags[0].line),
                             (iprof.Status.ESCHEMA, "methods[0].signature", 1))
            self.assertGreater(len(diags), 1000)
            self.assertTrue(all(d.status == iprof.Status.EDANGLING for d in diags[1:]))
            self.assertEqual(m.methods[0].signature, ())
            self.assertEqual(m.methods[0].describe(), "")
            self.assertEqual(m.write(validate=False), data)
            with iprof.Model() as dst:
                with self.assertRaises(iprof.DanglingReferenceError):
                    dst.merge(m)
                self.assertEqual(len(dst.types), 0)
        with self.assertRaises(iprof.SchemaError) as cm:
            iprof.load(path, strict=True)
        self.assertEqual((cm.exception.path, cm.exception.filename),
                         ("methods[0].signature", path))


class ThreadedLoadTest(unittest.TestCase):
    """load(threaded=True) (IPROF_READ_THREADED) on real profiles: the model
    writes the same bytes as after an unthreaded load, and as the file."""

    def check_same(self, name, **write):
        path = corpus(name)
        with open(path, "rb") as f:
            data = f.read()
        for source in (path, data, io.BytesIO(data)):
            got = []
            for threaded in (False, True):
                if hasattr(source, "seek"):
                    source.seek(0)
                with iprof.load(source, threaded=threaded) as m:
                    got.append((m.write(**write), m.diagnostics))
            self.assertEqual(got[1][0], got[0][0], (name, type(source)))
            self.assertEqual(got[1][0], data, (name, type(source)))
            self.assertEqual(got[1][1], got[0][1], (name, type(source)))
        return got[0][1]

    def test_threaded_corpus_same_bytes(self):
        for name in ("jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof",
                     "elide-cli-types-only-0.4.0.iprof"):
            self.assertEqual(self.check_same(name), [])

    def test_threaded_corpus_lenient_same_bytes(self):
        diags = self.check_same("elidemin-jspy-placeholders-1.0.0.iprof", validate=False)
        self.assertGreater(len(diags), 1000)


# ---- the independent merge -------------------------------------------------


def sat(v):
    return max(I64_MIN, min(I64_MAX, v))


def named(doc):
    """Name-based view of a document: types, methods and entries by names."""
    tname = {}
    for t in doc["types"]:
        tname.setdefault(t["id"], t["name"])
    mident = {}
    for m in doc["methods"]:
        mident.setdefault(m["id"], (tname[m["signature"][0]], m["name"],
                                    tuple(tname[s] for s in m["signature"][1:])))
    types = [t["name"] for t in doc["types"]]
    methods = [mident[m["id"]] for m in doc["methods"]]
    entries = {}
    for key in KEYS:
        out = []
        for e in doc.get(key, []):
            frames = []
            for part in e["ctx"].split("<"):
                mid, bci = (int(x) for x in part.split(":"))
                frames.append((mident.get(mid, ("?", mid)), bci))
            rec = list(e["records"])
            if key in PAIR_KINDS:
                rec = [tname[v] if i % 2 == 0 else v for i, v in enumerate(rec)]
            out.append((tuple(frames), rec))
        entries[key] = out
    return types, methods, entries


def combine(key, old, new):
    """add_entry's combining, on name-based records: a pair meets the first
    of its type; a triple meets the i-th of its (bci, index) when it is the
    i-th in new, else it is appended (GraalVM counts every record)."""
    if key in SUM_KINDS:
        return [sat(old[0] + new[0])]
    step = 3 if key == "conditionalProfiles" else 2
    out = list(old)
    met = {}
    for i in range(0, len(new), step):
        match = tuple(new[i:i + step - 1])
        nth = met[match] = met.get(match, -1) + 1 if step == 3 else 0
        for j in range(0, len(old), step):
            if tuple(out[j:j + step - 1]) == match:
                if nth == 0:
                    out[j + step - 1] = sat(out[j + step - 1] + new[i + step - 1])
                    break
                nth -= 1
        else:
            out.extend(new[i:i + step])
    return settle_winners(old, new, out) if step == 3 else out


def last_indexes(rec):
    """Each valid bci's last record's index: its winner to GraalVM."""
    return {rec[i]: rec[i + 1] for i in range(0, len(rec), 3) if rec[i] != -5}


def settle_winners(old, new, out):
    """docs/format.md, "Merging branch profiles": a bci both sides have
    gets the greater of their winners; where that is not its last record's
    index already, that index's last record moves to the end of the entry
    (several such records keep their order there)."""
    triples = [out[i:i + 3] for i in range(0, len(out), 3)]
    wo, wn = last_indexes(old), last_indexes(new)
    moved = set()
    for bci in wo.keys() & wn.keys():
        win = max(wo[bci], wn[bci])
        at = [i for i, t in enumerate(triples) if t[0] == bci]
        if triples[at[-1]][1] != win:
            moved.add(max(i for i in at if triples[i][1] == win))
    order = [i for i in range(len(triples)) if i not in moved] + sorted(moved)
    return [v for i in order for v in triples[i]]


def scale(key, rec, w):
    step = 1 if key in SUM_KINDS else 3 if key == "conditionalProfiles" else 2
    return [sat(v * w) if i % step == step - 1 else v for i, v in enumerate(rec)]


def expected_merge(a, b, w):
    ta, ma, ea = named(a)
    tb, mb, eb = named(b)
    types = ta + [n for i, n in enumerate(tb) if n not in ta and n not in tb[:i]]
    seen = set(ma)
    methods = list(ma)
    for m in mb:
        if m not in seen:
            seen.add(m)
            methods.append(m)
    entries = {}
    for key in KEYS:
        out = [(f, list(r)) for f, r in ea[key]]
        index = {}
        for i, (f, _) in enumerate(out):
            index.setdefault(f, i)
        for f, r in eb[key]:
            r = scale(key, r, w)
            if f in index:
                out[index[f]] = (f, combine(key, out[index[f]][1], r))
            else:
                index[f] = len(out)
                out.append((f, r))
        entries[key] = out
    return types, methods, entries


def model_named(m):
    tname = {}
    for t in m.types:
        tname.setdefault(t.id, t.name)
    mident = {}
    for x in m.methods:
        sig = x.signature
        mident.setdefault(x.id, (tname[sig[0]], x.name, tuple(tname[s] for s in sig[1:])))
    types = [t.name for t in m.types]
    methods = [mident[x.id] for x in m.methods]
    entries = {}
    for k in Kind:
        out = []
        for e in m.profiles(k):
            frames = tuple((mident.get(mid, ("?", mid)), bci) for mid, bci in e.frames)
            rec = e.records
            if k.json_key in PAIR_KINDS:
                rec = [tname[v] if i % 2 == 0 else v for i, v in enumerate(rec)]
            out.append((frames, rec))
        entries[k.json_key] = out
    return types, methods, entries


class MergeTest(unittest.TestCase):
    def test_merge_two_corpus_files(self):
        pa = corpus("jsonata-cli-0.4.0.iprof")
        pb = corpus("assorted-benchmarks-0.4.0.iprof")
        with open(pa, "rb") as f:
            a = json.load(f)
        with open(pb, "rb") as f:
            b = json.load(f)
        for weight, threaded in ((1, False), (2, False), (1, True), (2, True)):
            with iprof.load(pa) as ma, iprof.load(pb) as mb:
                ma.merge(mb, weight, threaded=threaded)
                got = model_named(ma)
                want = expected_merge(a, b, weight)
                self.assertEqual(got[0], want[0], "types")
                self.assertEqual(got[1], want[1], "methods")
                for key in KEYS:
                    self.assertEqual(len(got[2][key]), len(want[2][key]), key)
                    self.assertTrue(got[2][key] == want[2][key], key)
                # A's ids are kept; new elements keep B's id when it is free.
                a_type_ids = [t["id"] for t in a["types"]]
                self.assertEqual([t.id for t in ma.types][:len(a_type_ids)], a_type_ids)
                b_ids = {t["name"]: t["id"] for t in reversed(b["types"])}
                used = set(a_type_ids)
                for t in list(ma.types)[len(a_type_ids):]:
                    if b_ids[t.name] not in used:
                        self.assertEqual(t.id, b_ids[t.name])
                    else:
                        self.assertGreater(t.id, max(a_type_ids))
                    used.add(t.id)
                self.assertEqual(len(used), len(ma.types))
                # The result is a valid document.
                self.assertEqual(iprof.validate(ma.write(), strict=True), [])
                self.assertGreater(len(ma.call_count), len(a["callCountProfiles"]))


if __name__ == "__main__":
    unittest.main()
