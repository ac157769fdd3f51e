"""What the compiler is told by the conditional entries of real profiles
(IPROF_CORPUS_DIR): Entry.branch_probabilities() against an independent
implementation of GraalVM's formula written from docs/format.md ("What the
compiler is told", Branches), on every conditional entry of every corpus
file, bit for bit; and the same probabilities for a file, its canonical
form (canonicalize() and a canonical write) and its merge with itself
(merge() and the streaming merge_from()). Skips, saying why, without the
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


def by_context(m):
    """{(kind-free) readable context: {bci: probability}} of m's
    conditional entries whose context is unique in m; contexts named by
    method identity (declaring type, name, signature type names), so that
    renumbered models compare."""
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
        if len(e.records) % 3 == 0:
            p = e.branch_probabilities()
            out[key] = None if p is None else dict(p)
    return {k: v for k, v in out.items() if seen[k] == 1}


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
                want = by_context(m)
                canonical = m.write(canonical=True, threaded=True)
            self.assertGreater(len(want), 5000, name)
            views = {}
            with iprof.load(path) as c:
                c.canonicalize()
                views["canonicalize"] = by_context(c)
            with iprof.load(canonical) as c:
                views["canonical write"] = by_context(c)
            with iprof.load(path) as m, iprof.load(path) as d:
                d.merge(m)
                views["merge"] = by_context(d)
            with iprof.load(path) as d:
                d.merge_from(path, threaded=True)
                views["merge_from"] = by_context(d)
            for how, got in views.items():
                self.assertEqual(got, want, (name, how))


if __name__ == "__main__":
    unittest.main()
