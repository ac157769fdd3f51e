#!/usr/bin/env python3
"""Measure the distributions of real .iprof files for the generator.

    python3 bench/corpus_stats.py [CORPUS_DIR]        # readable summary
    python3 bench/corpus_stats.py --c [CORPUS_DIR]    # the C tables of bench/gen.c

CORPUS_DIR defaults to $IPROF_CORPUS_DIR or ../shared/corpus next to the
repository. Only the 0.4.0 and 1.0.0 files are used (the legacy 0.2.0 layout
is skipped). Full profiles give the section ratios, ids, signatures, contexts
and records; the types-only files add type names; the placeholder file (whose
types and methods were replaced by one placeholder) adds contexts and records
only. Nothing of the corpus is copied: the output is counts, rates and
histograms. Python 3 standard library only.
"""
import collections
import json
import math
import os
import re
import sys

KINDS = ["callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
         "monitorProfiles", "samplingProfiles"]


def corpus_dir(argv):
    for a in argv:
        if not a.startswith("--"):
            return a
    env = os.environ.get("IPROF_CORPUS_DIR")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "shared", "corpus")


def load(dirname):
    files = {}
    for name in sorted(os.listdir(dirname)):
        if not name.endswith(".iprof"):
            continue
        with open(os.path.join(dirname, name), "rb") as f:
            doc = json.loads(f.read())
        if doc.get("version") not in ("0.4.0", "1.0.0"):
            continue
        files[name] = doc
    return files


def log2_bucket(v):
    """0 for 0, k for 2^(k-1) <= v < 2^k."""
    return 0 if v <= 0 else v.bit_length()


def type_shape(name):
    if name in ("boolean", "byte", "short", "char", "int", "float", "long", "double", "void"):
        return "primitive"
    if name.startswith("["):
        return "array"
    if "/0x" in name:
        return "hidden"
    if "$$Lambda" in name:
        return "lambda"
    if "$" in name:
        return "inner"
    return "plain"


def method_shape(name):
    if name in ("<init>", "<clinit>"):
        return name
    if name.startswith("lambda$"):
        return "lambda"
    if "$" in name or "%" in name or "(" in name:
        return "mangled"
    return "plain"


def hist(counter, keys):
    return [counter.get(k, 0) for k in keys]


def frames_of(ctx):
    out = []
    for fr in ctx.split("<"):
        m, b = fr.split(":")
        out.append((int(m), int(b)))
    return out


def measure(files):
    st = collections.defaultdict(collections.Counter)
    sums = collections.Counter()
    for name, doc in files.items():
        types, methods = doc.get("types", []), doc.get("methods", [])
        placeholder = len(types) <= 1 and len(methods) <= 1
        full = not placeholder and len(methods) > 0
        types_only = len(methods) == 0
        if not placeholder:
            for t in types:
                sh = type_shape(t["name"])
                st["type_shape"][sh] += 1
                if sh != "primitive":
                    st["type_len_" + sh][min(len(t["name"]) // 8, 15)] += 1
                    st["type_segments"][min(t["name"].count("."), 15)] += 1
                    if sh == "array":
                        st["array_dims"][len(t["name"]) - len(t["name"].lstrip("["))] += 1
                        st["array_elem"]["object" if "L" in t["name"][:4] else "primitive"] += 1
        if not full:
            continue
        sums["types"] += len(types)
        sums["methods"] += len(methods)
        for key in ("types", "methods"):
            ids = [e["id"] for e in doc[key]]
            asc = all(a < b for a, b in zip(ids, ids[1:]))
            st["ascending"][key + (" yes" if asc else " no")] += 1
            for a, b in zip(ids, ids[1:]):
                st["gap_" + key][min(log2_bucket(b - a), 15)] += 1
            st["first_id_" + key][ids[0] if ids else -1] += 1
        names = collections.Counter(m["name"] for m in methods)
        sums["method_names_distinct"] += len(names)
        ranked = [c for _, c in names.most_common()]
        for k in (1, 2, 10, 100, 1000):
            sums["method_top%d" % k] += sum(ranked[:k])
        for m in methods:
            sh = method_shape(m["name"])
            st["method_shape"][sh] += 1
            st["method_len"][min(len(m["name"]), 63)] += 1
            st["sig_len"][min(len(m["signature"]), 31)] += 1
        for kind in KINDS:
            sums[kind] += len(doc.get(kind, []))
        # which methods the contexts use, and how contexts share callers
        used = set()
        first = set()
        for kind in KINDS:
            if kind == "monitorProfiles":
                continue
            for e in doc.get(kind, []):
                fr = frames_of(e["ctx"])
                first.add(fr[0][0])
                used.update(m for m, _ in fr)
        sums["methods_in_ctx"] += len(used)
        sums["methods_first_frame"] += len(first)
    # contexts and records: every 0.4.0/1.0.0 file with entries
    for name, doc in files.items():
        for kind in KINDS:
            entries = doc.get(kind, [])
            suffixes = set()
            for e in entries:
                fr = frames_of(e["ctx"])
                rec = e["records"]
                st["depth_" + kind][min(len(fr), 63)] += 1
                sums["frames_" + kind] += len(fr)
                for i in range(len(fr)):
                    suffixes.add(tuple(fr[i:]))
                for i, (_, b) in enumerate(fr):
                    pos = "first" if i == 0 else "caller"
                    if b < 0:
                        st["neg_bci_" + kind + "_" + pos][b] += 1
                    st["bci_" + kind + "_" + pos][min(log2_bucket(b), 15)] += 1
                sums["bci_frames_" + kind + "_first"] += 1
                sums["bci_frames_" + kind + "_caller"] += len(fr) - 1
                if kind == "conditionalProfiles":
                    st["cond_triples"][len(rec) // 3] += 1
                    b0 = fr[0][1]
                    for i in range(0, len(rec), 3):
                        t = rec[i]
                        st["cond_target"]["negative" if t < 0 else "after" if t > b0 else "before"] += 1
                        if t < 0:
                            st["cond_target_neg"][t] += 1
                        st["cond_count"][min(log2_bucket(rec[i + 2]), 63)] += 1
                        st["cond_delta"][min(log2_bucket(abs(t - b0)), 15)] += 1
                elif kind in ("virtualInvokeProfiles", "monitorProfiles"):
                    st["pairs_" + kind][len(rec) // 2] += 1
                    for i in range(1, len(rec), 2):
                        st["count_" + kind][min(log2_bucket(rec[i]), 63)] += 1
                else:
                    st["count_" + kind][min(log2_bucket(rec[0]), 63)] += 1
                for v in rec:
                    if v > 2**31 - 1:
                        sums["over_2^31"] += 1
            sums["ctx_nodes_" + kind] += len(suffixes)
    return st, sums


def summary(st, sums):
    print("Full profiles: %d types, %d methods" % (sums["types"], sums["methods"]))
    print("types per method: %.4f" % (sums["types"] / sums["methods"]))
    for kind in KINDS:
        print("%-22s %6d entries, %.5f per method" % (kind, sums[kind], sums[kind] / sums["methods"]))
    print("distinct method names per method: %.3f" % (sums["method_names_distinct"] / sums["methods"]))
    for k in (1, 2, 10, 100, 1000):
        print("  share of the top %4d names: %.3f" % (k, sums["method_top%d" % k] / sums["methods"]))
    print("methods used in contexts: %.3f, as first frame: %.3f" % (
        sums["methods_in_ctx"] / sums["methods"], sums["methods_first_frame"] / sums["methods"]))
    print("records values above 2^31-1: %d" % sums["over_2^31"])
    for kind in KINDS:
        if sums["frames_" + kind]:
            print("%s: context nodes per frame %.3f" % (
                kind, sums["ctx_nodes_" + kind] / sums["frames_" + kind]))
        for pos in ("first", "caller"):
            n = sums["bci_frames_%s_%s" % (kind, pos)]
            neg = st.get("neg_bci_%s_%s" % (kind, pos))
            if n and neg:
                print("  negative bci in %s frames: %s of %d" % (pos, dict(neg), n))
    for key in sorted(st):
        if key.startswith("neg_bci_"):
            continue
        items = sorted(st[key].items(), key=lambda kv: (str(type(kv[0])), kv[0]))
        print("%s: %s" % (key, ", ".join("%s=%d" % kv for kv in items)))


def c_array(name, values, comment):
    body = ", ".join(str(v) for v in values)
    lines, line = [], "    "
    for tok in body.split(" "):
        if len(line) + len(tok) + 1 > 96:
            lines.append(line.rstrip())
            line = "    "
        line += tok + " "
    lines.append(line.rstrip())
    return "/* %s */\nstatic const uint32_t %s[%d] TABLE = {\n%s\n};" % (
        comment, name, len(values), "\n".join(lines))


def c_tables(st, sums):
    out = ["/* Generated by bench/corpus_stats.py --c from ../shared/corpus (0.4.0 and",
           " * 1.0.0 files). Histograms are counts; index meaning in each comment.",
           " * Some tables are kept for reference only, hence the unused attribute. */",
           "#if defined(__GNUC__)",
           "#define TABLE __attribute__((unused))",
           "#else",
           "#define TABLE",
           "#endif"]
    per_m = lambda k: int(round(1e6 * sums[k] / sums["methods"]))
    out.append("/* per million methods: types, then entries of callCount, conditional,\n"
               " * virtualInvoke, sampling (monitor is always one entry) */")
    out.append("static const uint32_t RATIO_PER_MMETHOD[5] TABLE = {%d, %d, %d, %d, %d};" % (
        per_m("types"), per_m("callCountProfiles"), per_m("conditionalProfiles"),
        per_m("virtualInvokeProfiles"), per_m("samplingProfiles")))
    shapes = ["plain", "inner", "array", "lambda", "hidden"]
    out.append(c_array("TYPE_SHAPE", hist(st["type_shape"], shapes),
                       "type name shapes: " + ", ".join(shapes)))
    for sh in shapes:
        out.append(c_array("TYPE_LEN_" + sh.upper(), hist(st["type_len_" + sh], range(16)),
                           "%s type name length / 8 (index 15: 120 and more)" % sh))
    out.append(c_array("ARRAY_DIMS", hist(st["array_dims"], range(6)), "array type dimensions 0..5"))
    out.append(c_array("ARRAY_ELEM", hist(st["array_elem"], ["primitive", "object"]),
                       "array element: primitive, object"))
    mshapes = ["plain", "<init>", "<clinit>", "lambda", "mangled"]
    out.append(c_array("METHOD_SHAPE", hist(st["method_shape"], mshapes),
                       "method name shapes: " + ", ".join(mshapes)))
    out.append(c_array("METHOD_LEN", hist(st["method_len"], range(64)),
                       "method name length 0..63 (63: 63 and more)"))
    out.append("/* distinct method names per million methods; share (per million) of the\n"
               " * methods named by the 10, 100 and 1000 most common plain names */")
    out.append("static const uint32_t METHOD_NAMES[4] TABLE = {%d, %d, %d, %d};" % (
        per_m("method_names_distinct"), per_m("method_top10"), per_m("method_top100"),
        per_m("method_top1000")))
    out.append(c_array("SIG_LEN", hist(st["sig_len"], range(32)), "signature length 0..31"))
    out.append(c_array("GAP_TYPES", hist(st["gap_types"], range(16)),
                       "type id gaps, log2 bucket (1: gap 1, 2: 2-3, 3: 4-7, ...)"))
    out.append(c_array("GAP_METHODS", hist(st["gap_methods"], range(16)),
                       "method id gaps, log2 bucket"))
    short = {"callCountProfiles": "CC", "conditionalProfiles": "COND",
             "virtualInvokeProfiles": "VI", "samplingProfiles": "SAMP", "monitorProfiles": "MON"}
    for kind in ("callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
                 "samplingProfiles"):
        s = short[kind]
        out.append(c_array("DEPTH_" + s, hist(st["depth_" + kind], range(64)),
                           "%s ctx depth 0..63" % kind))
        for pos in ("first", "caller"):
            out.append(c_array("BCI_%s_%s" % (s, pos.upper()),
                               hist(st["bci_%s_%s" % (kind, pos)], range(16)),
                               "%s bci of %s frames, log2 bucket (0: bci <= 0)" % (kind, pos)))
            neg = st.get("neg_bci_%s_%s" % (kind, pos), collections.Counter())
            n = sums["bci_frames_%s_%s" % (kind, pos)]
            out.append(c_array("NEG_%s_%s" % (s, pos.upper()),
                               [n, neg.get(-1, 0), neg.get(-4, 0), neg.get(-6, 0),
                                sum(v for k, v in neg.items() if k not in (-1, -4, -6))],
                               "%s %s frames: total, bci -1, -4, -6, other negative" % (kind, pos)))
        if kind != "conditionalProfiles" and kind != "virtualInvokeProfiles":
            out.append(c_array("COUNT_" + s, hist(st["count_" + kind], range(64)),
                               "%s counts, log2 bucket" % kind))
        out.append("/* %s: %d distinct context nodes (caller suffixes) per thousand\n"
                   " * frames (not used by the generator; compare its output) */" % (
                       kind, int(round(1000 * sums["ctx_nodes_" + kind] /
                                       max(1, sums["frames_" + kind])))))
    out.append(c_array("COND_TRIPLES", hist(st["cond_triples"], range(80)),
                       "conditional triples per entry 0..79"))
    out.append(c_array("COND_TARGET", hist(st["cond_target"], ["after", "before", "negative"]),
                       "conditional target bci vs the ctx bci: after, before, negative"))
    neg = st["cond_target_neg"]
    out.append(c_array("COND_TARGET_NEG", [neg.get(-1, 0), neg.get(-4, 0), neg.get(-5, 0),
                                           sum(v for k, v in neg.items() if k not in (-1, -4, -5))],
                       "negative conditional target bcis: -1, -4, -5, other"))
    out.append(c_array("COND_DELTA", hist(st["cond_delta"], range(16)),
                       "conditional |target - ctx bci|, log2 bucket"))
    out.append(c_array("COND_COUNT", hist(st["cond_count"], range(64)),
                       "conditional counts, log2 bucket"))
    out.append(c_array("VI_PAIRS", hist(st["pairs_virtualInvokeProfiles"], range(16)),
                       "virtual invoke pairs per entry 0..15"))
    out.append(c_array("COUNT_VI", hist(st["count_virtualInvokeProfiles"], range(64)),
                       "virtual invoke counts, log2 bucket"))
    out.append(c_array("MON_PAIRS", hist(st["pairs_monitorProfiles"], range(64)),
                       "monitor pairs in the single entry 0..63"))
    out.append(c_array("COUNT_MON", hist(st["count_monitorProfiles"], range(64)),
                       "monitor counts, log2 bucket"))
    out.append("/* methods used in contexts, per million methods */\n"
               "static const uint32_t METHODS_IN_CTX TABLE = %d;" % per_m("methods_in_ctx"))
    print("\n".join(out))


def main():
    files = load(corpus_dir(sys.argv[1:]))
    if not files:
        sys.exit("no 0.4.0/1.0.0 .iprof files found")
    st, sums = measure(files)
    if "--c" in sys.argv:
        c_tables(st, sums)
    else:
        summary(st, sums)


if __name__ == "__main__":
    main()
