#!/usr/bin/env python3
"""Merging real profiles: `iprof_dump --merge A B [--weight W] -o OUT`
(iprof_model_merge(A, B, opts) with weight W, A written) checked against an independent
pure-Python merge computed with the json module.

The comparison is by names, never by ids:
  * types: the set of names is A's names united with B's;
  * methods: identity (declaring type name, name, (return and parameter
    type names)); the result holds A's methods and B's new ones;
  * entries: keyed per kind by the readable ctx, a tuple of (method
    identity, bci) per frame ("0:0" for the monitor's dummy ctx); counts
    combined per kind: call count and sampling summed, conditional per
    (bci, index) and occurrence (the i-th record of a (bci, index) in A
    meets the i-th in B, further ones are records of their own),
    virtual invoke / monitor / instanceof per type NAME; B's
    counts multiplied by W first (exact for integral W, within 1 for
    others: "rounded to nearest");
  * order: A's elements keep their order and come first, B's new ones
    follow in B's order (types, methods, entries, pairs and triples);
  * ids: A's ids are kept; a new element keeps B's id unless that id is
    taken, else it gets an id above every id of A; the result is a valid
    document (unique ids, every reference resolves: `iprof_dump --strict`).

Also 60 generated pairs of small documents drawing names from shared
pools under random ids (names shared under other ids, ids shared by other
names), merged with weights 0, 1, 2, 3, 0.5, 1.5, checked the same way.

Env: IPROF_DUMP, IPROF_CORPUS_DIR. Prints "N passed, N failed"; exit 1 on
failure, 77 when the corpus or iprof_dump is absent.
"""
import json
import os
import subprocess
import sys
import tempfile

I64_MAX = 9223372036854775807
I64_MIN = -9223372036854775808
KINDS = ["callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
         "monitorProfiles", "samplingProfiles", "instanceofProfiles"]
PAIR_KINDS = ("virtualInvokeProfiles", "monitorProfiles", "instanceofProfiles")
SINGLE_KINDS = ("callCountProfiles", "samplingProfiles")

DUMP = os.environ.get("IPROF_DUMP", "")
# Both merges against the reference: a loaded model's (iprof_model_merge)
# and the streaming one (iprof_model_merge_source from a path, threaded).
MERGES = [[], ["--stream"]]
CORPUS = os.environ.get("IPROF_CORPUS_DIR", "")
RESULTS = {"passed": 0, "failed": 0}


def record(ok, what):
    if ok:
        RESULTS["passed"] += 1
    else:
        RESULTS["failed"] += 1
        print("FAIL:", what, file=sys.stderr)
    return ok


def sat(v):
    return max(I64_MIN, min(I64_MAX, v))


class Named:
    """A document seen through names."""

    def __init__(self, doc):
        self.doc = doc
        self.type_name = {t["id"]: t["name"] for t in doc["types"]}
        self.method_key = {}
        for m in doc["methods"]:
            sig = m["signature"]
            self.method_key[m["id"]] = (self.tname(sig[0]) if sig else None, m["name"],
                                        tuple(self.tname(x) for x in sig[1:]))

    def tname(self, tid):
        return self.type_name.get(tid, ("?", tid))

    def ctx_key(self, kind, ctx):
        if kind == "monitorProfiles":
            return ctx
        out = []
        for fr in ctx.split("<"):
            m, b = fr.split(":")
            out.append((self.method_key.get(int(m), ("?", int(m))), int(b)))
        return tuple(out)

    def entries(self, kind):
        """[(ctx key, [(record key, count)...])] in file order."""
        out = []
        for e in self.doc.get(kind, []):
            r = e["records"]
            if kind in SINGLE_KINDS:
                recs = [(None, r[0])]
            elif kind == "conditionalProfiles":
                # A repeated (bci, index) is a record of its own: keyed by
                # its occurrence, so that the i-th meets the i-th.
                recs, seen = [], {}
                for i in range(0, len(r), 3):
                    seen[r[i], r[i + 1]] = seen.get((r[i], r[i + 1]), -1) + 1
                    recs.append(((r[i], r[i + 1], seen[r[i], r[i + 1]]), r[i + 2]))
            else:
                recs = [(self.tname(r[i]), r[i + 1]) for i in range(0, len(r), 2)]
            out.append((self.ctx_key(kind, e["ctx"]), recs))
        return out


def aggregate(recs):
    """Ordered dict record key -> total count (first-occurrence order)."""
    d = {}
    for k, c in recs:
        d[k] = sat(d.get(k, 0) + c)
    return d


def python_merge(a, b, weight):
    """The expected result, by names: (type names, method keys, entries per
    kind as ordered dicts ctx key -> ordered dict record key -> count)."""
    na, nb = Named(a), Named(b)
    types = [t["name"] for t in a["types"]]
    seen = set(types)
    for t in b["types"]:
        if t["name"] not in seen:
            seen.add(t["name"])
            types.append(t["name"])
    methods = [na.method_key[m["id"]] for m in a["methods"]]
    seen = set(methods)
    for m in b["methods"]:
        k = nb.method_key[m["id"]]
        if k not in seen:
            seen.add(k)
            methods.append(k)

    def scale(c):
        if float(weight).is_integer():
            return sat(c * int(weight))
        return sat(int(round(c * weight)))

    entries = {}
    for kind in KINDS:
        d = {}
        for side, scaled in ((na, lambda c: c), (nb, scale)):
            for ck, recs in side.entries(kind):
                before = list(d.setdefault(ck, {}))
                for rk, c in aggregate(recs).items():
                    d[ck][rk] = sat(d[ck].get(rk, 0) + scaled(c))
                if kind == "conditionalProfiles" and before and recs:
                    d[ck] = winners_last(d[ck], before, [k for k, _ in recs])
        entries[kind] = d
    return types, methods, entries


def winners_last(combined, before, incoming):
    """GraalVM gives a valid bci its last triple's index: the combined
    entry gives it the larger of the entry's (before) and the input's
    winning index, the last occurrence of that index moving behind the
    bci's other triples (keys are (bci, index, occurrence))."""
    def last_index(keys):
        w = {}
        for b, i, _ in keys:
            if b != -5:
                w[b] = i
        return w
    we, wi, cur = last_index(before), last_index(incoming), last_index(combined)
    want = {b: max(x for x in (we.get(b), wi.get(b)) if x is not None) for b in cur}
    move, done = set(), set()
    for k in reversed(list(combined)):
        b, i, _ = k
        if b != -5 and b not in done and cur[b] != want[b] and i == want[b]:
            move.add(k)
            done.add(b)
    order = [k for k in combined if k not in move] + [k for k in combined if k in move]
    return {k: combined[k] for k in order}


def result_view(doc):
    n = Named(doc)
    types = [t["name"] for t in doc["types"]]
    methods = [n.method_key[m["id"]] for m in doc["methods"]]
    entries = {}
    for kind in KINDS:
        d = {}
        for ck, recs in n.entries(kind):
            if ck in d:
                # the result must not repeat a ctx
                d[("DUPLICATE", ck)] = aggregate(recs)
            else:
                d[ck] = aggregate(recs)
        entries[kind] = d
    return n, types, methods, entries


def check_ids(label, a, b, out):
    """A's ids kept; new elements keep B's id when free, else above A's."""
    for sec, keyf in (("types", lambda n, x: x["name"]),
                      ("methods", lambda n, x: n.method_key[x["id"]])):
        na, nb, no = Named(a), Named(b), Named(out)
        a_ids = {keyf(na, x): x["id"] for x in a[sec]}
        o_ids = {}
        for x in out[sec]:
            o_ids.setdefault(keyf(no, x), x["id"])
        ids = [x["id"] for x in out[sec]]
        record(len(ids) == len(set(ids)), "%s: %s ids not unique" % (label, sec))
        bad = [k for k, i in a_ids.items() if o_ids.get(k) != i]
        record(not bad, "%s: %s of A changed id: %r" % (label, sec, bad[:3]))
        a_max = max(a_ids.values()) if a_ids else None
        a_idset = set(a_ids.values())
        out_idset = set(ids)
        wrong = []
        for x in b[sec]:
            k = keyf(nb, x)
            if k in a_ids:
                continue
            bid, got = x["id"], o_ids.get(k)
            if got is None:
                wrong.append((k, bid, got))
            elif bid in a_idset:
                # taken by A: a fresh id above A's
                if got == bid or (a_max is not None and got <= a_max):
                    wrong.append((k, bid, got))
            elif got != bid:
                # free in A: kept, unless an earlier new element took it
                if bid not in out_idset or (a_max is not None and got <= a_max):
                    wrong.append((k, bid, got))
        record(not wrong, "%s: %s: new ids wrong (name, B id, result id): %r"
               % (label, sec, wrong[:3]))


def compare(label, a, b, weight, out_path):
    with open(out_path, "rb") as f:
        out = json.loads(f.read().decode("utf-8"))
    exact = float(weight).is_integer()
    types, methods, entries = python_merge(a, b, weight)
    n, gtypes, gmethods, gentries = result_view(out)
    record(out["version"] == a["version"], "%s: version %r" % (label, out["version"]))
    record(list(out.keys())[:3] == ["version", "types", "methods"],
           "%s: top-level order %r" % (label, list(out.keys())))
    record(gtypes == types, "%s: types differ (%d vs %d; first difference %r)" % (
        label, len(gtypes), len(types),
        next(((i, g, w) for i, (g, w) in enumerate(zip(gtypes, types)) if g != w), None)))
    record(gmethods == methods, "%s: methods differ (%d vs %d; first difference %r)" % (
        label, len(gmethods), len(methods),
        next(((i, g, w) for i, (g, w) in enumerate(zip(gmethods, methods)) if g != w),
             None)))
    for kind in KINDS:
        want, got = entries[kind], gentries[kind]
        if not want and not got:
            continue
        record(list(got.keys()) == list(want.keys()),
               "%s: %s: entry contexts or their order differ (%d vs %d)" % (
                   label, kind, len(got), len(want)))
        bad = []
        for ck, wrec in want.items():
            grec = got.get(ck)
            if grec is None:
                bad.append((ck, None, wrec))
                continue
            if list(grec.keys()) != list(wrec.keys()):
                bad.append((ck, grec, wrec))
                continue
            for rk, wc in wrec.items():
                gc = grec[rk]
                if (gc != wc) if exact else abs(gc - wc) > 1:
                    bad.append((ck, grec, wrec))
                    break
        record(not bad, "%s: %s: %d entries with wrong records; first: ctx %r\n   got  %r\n"
               "   want %r" % ((label, kind, len(bad)) + (bad[0] if bad else (None,) * 3)))
    check_ids(label, a, b, out)
    # The result is a valid document.
    p = subprocess.run([DUMP, "--strict", out_path], capture_output=True)
    record(p.returncode == 0, "%s: merged file fails a strict read: %s" % (
        label, p.stderr.decode("utf-8", "replace")[:300]))


def gen_pair_doc(rng, version):
    """A valid document drawing names from small shared pools, with ids
    chosen at random from a small range, so that two such documents share
    names under other ids and ids under other names."""
    tnames = ["int", "void", "A", "B", "C$1", "[LA;", "java.lang.Object", "D"]
    names = rng.sample(tnames, rng.randint(2, len(tnames)))
    ids = rng.sample(range(0, 20), len(names))
    types = [{"id": i, "name": n} for i, n in zip(ids, names)]
    by_name = {n: i for i, n in zip(ids, names)}
    mpool = []
    for mn in ["run", "<init>", "get", "get"]:
        for decl in ("A", "B", "int"):
            for sig in ((decl, "void"), (decl, "int", "A"), (decl, "void", "B", "B")):
                mpool.append((mn, sig))
    mpool = [m for m in mpool if all(t in by_name for t in m[1])]
    if not mpool:
        return gen_pair_doc(rng, version)
    picked = []
    for m in rng.sample(mpool, min(len(mpool), rng.randint(1, 10))):
        if m not in picked:
            picked.append(m)
    mids = rng.sample(range(1, 30), len(picked))
    methods = [{"id": i, "name": n, "signature": [by_name[t] for t in sig]}
               for i, (n, sig) in zip(mids, picked)]
    doc = {"version": version, "types": types, "methods": methods}
    tids = [t["id"] for t in types]
    for kind in KINDS:
        if kind == "instanceofProfiles" and version != "1.1.0":
            continue
        entries, seen = [], set()
        for _ in range(1 if kind == "monitorProfiles" else rng.randint(0, 6)):
            if kind == "monitorProfiles":
                ctx = "0:0"
            else:
                fr = [(rng.choice(mids), rng.choice([0, 1, 2, -1, 7]))
                      for _ in range(rng.randint(1, 3))]
                if kind == "callCountProfiles":
                    fr[0] = (fr[0][0], 0)
                ctx = "<".join("%d:%d" % f for f in fr)
            if ctx in seen:
                continue
            seen.add(ctx)
            if kind in SINGLE_KINDS:
                rec = [rng.randint(0, 1000)]
            elif kind == "conditionalProfiles":
                rec = []
                for idx in rng.sample(range(4), rng.randint(0, 4)):
                    rec += [rng.choice([3, 9, -1]), idx, rng.randint(0, 1000)]
                for _ in range(rng.randint(0, 3)):  # switch cases sharing a target
                    rec += [-5, rng.randrange(2), rng.randint(0, 1000)]
            else:
                rec = []
                for t in rng.sample(tids, rng.randint(0, min(4, len(tids)))):
                    rec += [t, rng.randint(0, 1000)]
            entries.append({"ctx": ctx, "records": rec})
        doc[kind] = entries
    return doc


def generated_cases(tmp, count=60):
    import random
    for seed in range(count):
        rng = random.Random(1000 + seed)
        va = rng.choice(["0.4.0", "1.0.0", "1.1.0"])
        vb = va if va != "1.1.0" else rng.choice(["1.0.0", "1.1.0"])
        a, b = gen_pair_doc(rng, va), gen_pair_doc(rng, vb)
        if rng.random() < 0.15:
            b = a
        w = rng.choice([0, 1, 1, 2, 3, 0.5, 1.5])
        pa, pb = os.path.join(tmp, "ga.iprof"), os.path.join(tmp, "gb.iprof")
        with open(pa, "w") as f:
            json.dump(a, f)
        with open(pb, "w") as f:
            json.dump(b, f)
        label = "generated seed %d (%s + %s x %s)" % (seed, va, vb, w)
        out = os.path.join(tmp, "gm.iprof")
        if os.path.exists(out):
            os.unlink(out)
        for how in MERGES:
            p = subprocess.run([DUMP, "--strict", "--merge"] + how +
                               [pa, pb, "--weight", repr(w), "-o", out], capture_output=True)
            if not record(p.returncode == 0, "%s%s: exit %d: %s" % (
                    label, " ".join([""] + how), p.returncode,
                    p.stderr.decode("utf-8", "replace")[:300])):
                print("   A: %s\n   B: %s" % (json.dumps(a), json.dumps(b)), file=sys.stderr)
                continue
            before = RESULTS["failed"]
            compare(label, a, b, w, out)
            if RESULTS["failed"] != before:
                print("   A: %s\n   B: %s" % (json.dumps(a), json.dumps(b)), file=sys.stderr)


def main():
    if not DUMP or not os.path.exists(DUMP):
        print("SKIP: IPROF_DUMP not set or missing")
        return 77
    if not CORPUS or not os.path.isdir(CORPUS):
        print("SKIP: corpus folder (IPROF_CORPUS_DIR) absent")
        return 77
    cases = [
        ("jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof", 1),
        ("assorted-benchmarks-0.4.0.iprof", "jsonata-cli-0.4.0.iprof", 1),
        ("jsonata-cli-0.4.0.iprof", "jsonata-cli-0.4.0.iprof", 2),
        ("assorted-benchmarks-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof", 0),
        ("jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof", 3),
        ("assorted-benchmarks-0.4.0.iprof", "jsonata-cli-0.4.0.iprof", 0.5),
        ("elide-cli-types-only-0.4.0.iprof", "elide-serve-types-only-0.4.0.iprof", 1),
        ("elide-cli-types-only-0.4.0.iprof", "jsonata-cli-0.4.0.iprof", 1),
        # counts saturate at INT64_MAX
        ("assorted-benchmarks-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof", 1e18),
    ]
    cache = {}

    def load(name):
        if name not in cache:
            with open(os.path.join(CORPUS, name), "rb") as f:
                cache[name] = json.loads(f.read().decode("utf-8"))
        return cache[name]

    with tempfile.TemporaryDirectory(prefix="iprof_merge_") as tmp:
        for an, bn, w in cases:
            label = "%s + %s x %s" % (an, bn, w)
            print("--", label, file=sys.stderr)
            for how in MERGES:
                out = os.path.join(tmp, "merged.iprof")
                if os.path.exists(out):
                    os.unlink(out)
                args = [DUMP, "--merge"] + how + [os.path.join(CORPUS, an),
                                                   os.path.join(CORPUS, bn),
                                                   "--weight", repr(w), "-o", out]
                p = subprocess.run(args, capture_output=True)
                if not record(p.returncode == 0, "%s: iprof_dump --merge%s exit %d: %s" % (
                        label, " ".join([""] + how), p.returncode,
                        p.stderr.decode("utf-8", "replace")[:400])):
                    continue
                compare(label, load(an), load(bn), w, out)
        generated_cases(tmp)
        # A source whose references do not resolve is refused, changing
        # nothing (no output written).
        out = os.path.join(tmp, "dangling.iprof")
        for how in MERGES:
            p = subprocess.run([DUMP, "--merge"] + how +
                               [os.path.join(CORPUS, "jsonata-cli-0.4.0.iprof"),
                                os.path.join(CORPUS, "elidemin-jspy-placeholders-1.0.0.iprof"),
                                "-o", out], capture_output=True)
            record(p.returncode == 1 and b"error: dangling reference" in p.stderr
                   and not os.path.exists(out),
                   "merge%s of a dangling source: exit %d, %s" % (
                       " ".join([""] + how), p.returncode, p.stderr[-300:]))
            # A weight that is not finite or negative is refused.
            for bad in ("-1", "nan", "inf"):
                p = subprocess.run([DUMP, "--merge"] + how +
                                   [os.path.join(CORPUS, "jsonata-cli-0.4.0.iprof"),
                                    os.path.join(CORPUS, "jsonata-cli-0.4.0.iprof"),
                                    "--weight", bad, "-o", os.path.join(tmp, "bad.iprof")],
                                   capture_output=True)
                record(p.returncode == 1 and b"invalid argument" in p.stderr
                       and not os.path.exists(os.path.join(tmp, "bad.iprof")),
                       "weight %s%s: exit %d, %s" % (bad, " ".join([""] + how), p.returncode,
                                                     p.stderr[:200]))
    print("%d passed, %d failed" % (RESULTS["passed"], RESULTS["failed"]))
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
