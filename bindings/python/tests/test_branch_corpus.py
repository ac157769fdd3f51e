"""What the compiler is told by the conditional entries of real profiles
(IPROF_CORPUS_DIR): Entry.branch_probabilities() against an independent
implementation of GraalVM's formula written from docs/format.md ("What the
compiler is told", Branches), on every conditional entry of every corpus
file, bit for bit; and the same probabilities for a file, its canonical
form (canonicalize() and a canonical write) and its merge with itself
(merge() and the streaming merge_from()); the merge of two files that give
bcis different winners, in either order, gives the probabilities of
docs/format.md's rule ("Merging branch profiles"). Skips, saying why, without the
corpus."""
import unittest

from support import corpus
import iprof
from iprof import Kind

EPS = 1 - 0.999999  # in double, as GraalVM's EXTREMELY_SLOW_PATH_PROBABILITY
INVALID_BCI = -5
FILES = ("jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof",
         "elidemin-jspy-placeholders-1.0.0.iprof", "binary-tree-legacy-0.2.0.iprof")


def graalvm_branches(records):
    """docs/format.md's four steps: [(bci, probability)] in the order of
    each bci's first record, or None when the counts add up to 0."""
    triples = [records[i:i + 3] for i in range(0, len(records), 3)]
    # 1. distributeConditionalProbabilities: exact integer sums, then
    #    double(S[k]) / double(n[k] * T).
    sums, counts = {}, {}
    for _, k, c in triples:
        sums[k] = sums.get(k, 0) + c
        counts[k] = counts.get(k, 0) + 1
    total = sum(c for _, _, c in triples)
    if total == 0:
        return None
    p = [float(sums[k]) / float(counts[k] * total) for _, k, _ in triples]
    # 2. clampProbabilities over every record.
    zeros = sum(1 for x in p if x == 0.0)
    if zeros:
        adjustment = zeros * EPS
        scale = 1 / (1 - (len(p) - zeros) * EPS)
        p = [EPS if x == 0.0 else x - adjustment * (x - EPS) * scale for x in p]
    # 3. per index, in record order from the first.
    by_key = {}
    for (_, k, _), x in zip(triples, p):
        by_key[k] = by_key[k] + x if k in by_key else x
    # 4. per valid bci, a later record's index replacing an earlier one.
    out = {}
    for b, k, _ in triples:
        if b != INVALID_BCI:
            out[b] = by_key[k]
    return list(out.items())  # dict order: each bci's first insertion


def library_view(m):
    """{readable context: {bci: probability}} of m's conditional entries
    whose context is unique in m, as the library computes them."""
    out = {}
    for key, e in entries_by_context(m).items():
        if len(e.records) % 3 == 0:
            p = e.branch_probabilities()
            out[key] = None if p is None else dict(p)
    return out


def records_by_context(m, repeated=None):
    return {k: e.records for k, e in entries_by_context(m, repeated).items()}


def entries_by_context(m, repeated=None):
    """{readable context: entry} of m's conditional entries whose context
    is unique in m, contexts named by method identity (name, signature
    type names), so that renumbered models compare; the others' contexts
    added to the set `repeated`."""
    tname = {}
    for t in m.types:
        tname.setdefault(t.id, t.name)
    ident = {}
    for x in m.methods:
        ident.setdefault(x.id, (x.name, tuple(tname.get(s, s) for s in x.signature)))
    out, seen = {}, {}
    for e in m.conditional:
        key = tuple((ident.get(mid, mid), bci) for mid, bci in e.frames)
        seen[key] = seen.get(key, 0) + 1
        out[key] = e
    if repeated is not None:
        repeated.update(k for k, n in seen.items() if n > 1)
    return {k: v for k, v in out.items() if seen[k] == 1}


def last_indexes(records):
    """Each valid bci's winner: its last record's index."""
    return {records[i]: records[i + 1] for i in range(0, len(records), 3)
            if records[i] != INVALID_BCI}


def rule_merge(a, b):
    """The records docs/format.md says a merge gives, in canonical order:
    the i-th record of a (bci, index) meets the i-th ("Merging branch
    profiles"), each valid bci's winner is the greater of the two sides'
    (the one side's when the other lacks it), and the canonical form sorts
    by (bci, index) with the winner's records last."""
    merged = {}
    for r in (a, b):
        nth = {}
        for i in range(0, len(r), 3):
            key = tuple(r[i:i + 2])
            nth[key] = nth.get(key, -1) + 1
            merged[key + (nth[key],)] = merged.get(key + (nth[key],), 0) + r[i + 2]
    wa, wb = last_indexes(a), last_indexes(b)
    win = {bci: max(w for w in (wa.get(bci), wb.get(bci)) if w is not None)
           for bci in wa.keys() | wb.keys()}
    order = sorted(merged, key=lambda t: (t[0], win.get(t[0]) == t[1], t[1], t[2]))
    return [v for t in order for v in (t[0], t[1], merged[t])]


class BranchCorpusTest(unittest.TestCase):
    def test_formula_on_every_entry(self):
        checked = repeats = 0
        for name in FILES:
            path = corpus(name)
            with iprof.load(path, check_references=False) as m:
                for e in m.conditional:
                    r = e.records
                    if len(r) % 3:
                        continue
                    self.assertEqual(e.branch_probabilities(), graalvm_branches(r),
                                     (name, e.ctx, r))
                    checked += 1
                    keys = [tuple(r[i:i + 2]) for i in range(0, len(r), 3)]
                    repeats += len(set(keys)) != len(keys)
        print("\n  %d conditional entries, %d with a repeated (bci, index)" % (checked, repeats))
        self.assertGreater(checked, 20000)
        self.assertGreaterEqual(repeats, 30)

    def test_jsonata_switch(self):
        with iprof.load(corpus("jsonata-cli-0.4.0.iprof")) as m:
            e = next(x for x in m.profiles(Kind.CONDITIONAL) if x.ctx == "20306:8")
            got = dict(e.branch_probabilities())
            self.assertEqual(len(got), 33)
            self.assertEqual(got[1316], 0.9999379999999981)
            self.assertEqual(got[329], 9.000000000258801e-06)
            self.assertEqual(got[8], 2.300000000066138e-05)
            self.assertEqual({b for b, p in got.items() if p == EPS},
                             set(got) - {1316, 329, 8})

    def test_canonical_form_and_self_merge(self):
        for name in ("jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof",
                     "binary-tree-legacy-0.2.0.iprof"):
            path = corpus(name)
            with iprof.load(path) as m:
                want = library_view(m)
                canonical = m.write(canonical=True, threaded=True)
            self.assertGreater(len(want), 5000, name)
            views = {}
            with iprof.load(path) as c:
                c.canonicalize()
                views["canonicalize"] = library_view(c)
            with iprof.load(canonical) as c:
                views["canonical write"] = library_view(c)
            with iprof.load(path) as m, iprof.load(path) as d:
                d.merge(m)
                views["merge"] = library_view(d)
            with iprof.load(path) as d:
                d.merge_from(path, threaded=True)
                views["merge_from"] = library_view(d)
            for how, got in views.items():
                self.assertEqual(got, want, (name, how))

    def test_merge_of_two_files(self):
        """Two files that give bcis different winners: the merge in either
        order writes the same bytes, each bci's winner is the greater
        input's, and the probabilities are those of rule_merge's records."""
        pa, pb = corpus("jsonata-cli-0.4.0.iprof"), corpus("assorted-benchmarks-0.4.0.iprof")
        with iprof.load(pa) as a, iprof.load(pb) as b:
            repeated = set()
            ra, rb = records_by_context(a, repeated), records_by_context(b, repeated)
        both = ra.keys() & rb.keys()
        disagree = sum(1 for k in both for bci, w in last_indexes(ra[k]).items()
                       if last_indexes(rb[k]).get(bci, w) != w)
        print("\n  %d contexts in both, %d bcis with different winners" % (len(both), disagree))
        self.assertGreater(len(both), 1000)
        self.assertGreater(disagree, 0)
        writes = []
        for first, second in ((pa, pb), (pb, pa)):
            with iprof.load(first) as m, iprof.load(second) as n:
                m.merge(n)
                got = records_by_context(m)
                for k in both:  # the greater winner, in the model's records too
                    want = {bci: max(w, last_indexes(rb[k]).get(bci, w))
                            for bci, w in last_indexes(ra[k]).items()}
                    want.update({bci: w for bci, w in last_indexes(rb[k]).items()
                                 if bci not in want})
                    self.assertEqual(last_indexes(got[k]), want, k)
                writes.append(m.write(canonical=True))
        self.assertEqual(writes[0], writes[1])
        with iprof.load(writes[0]) as c:
            got = library_view(c)
        want = {k: graalvm_view(rule_merge(ra.get(k, []), rb.get(k, [])))
                for k in (ra.keys() | rb.keys()) - repeated}
        checked = 0
        for k, p in got.items():
            if k in want:
                self.assertEqual(p, want[k], k)
                checked += 1
        self.assertGreater(checked, 10000)


def graalvm_view(records):
    p = graalvm_branches(records)
    return None if p is None else dict(p)


if __name__ == "__main__":
    unittest.main()
