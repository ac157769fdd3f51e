#!/usr/bin/env python3
"""Generate extra fuzzing seeds from the real profiles in ../shared/corpus.

usage: gen_seeds.py CORPUS_DIR OUT_DIR

Writes OUT_DIR/<harness>/ for reader, roundtrip, merge and ctx. Each real
profile gives small documents: the first N entries of every profile
section, closed into a valid document with the methods and types they
reference (and, separately, a plain cut with dangling references), in the
file's own key order, minified and pretty. Names are disguised (letters and
digits replaced, punctuation kept) so that no slice of a real profile ends
up in the fuzz corpus that scripts/fuzz.sh saves into the repository.
The seeds exist only at run time; do not commit them.
"""
import json
import os
import sys
import zlib

KINDS = ["callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
         "monitorProfiles", "samplingProfiles", "instanceofProfiles"]
TYPE_SLOT = {"virtualInvokeProfiles": 2, "monitorProfiles": 2, "instanceofProfiles": 2}


def disguise(name):
    seed = zlib.crc32(name.encode("utf-8", "surrogatepass"))
    out = []
    for i, c in enumerate(name):
        if c.isalpha():
            out.append(chr(ord("a") + (seed + 7 * i) % 26))
        elif c.isdigit():
            out.append(chr(ord("0") + (seed + 3 * i) % 10))
        else:
            out.append(c)
    return "".join(out)


def ctx_methods(ctx):
    ids = []
    for frame in ctx.split("<"):
        m = frame.split(":")[0]
        if m.isdigit():
            ids.append(int(m))
    return ids


def cut(doc, n, close):
    """The first n entries of every list section; with close, only the
    methods and types the entries reference (plus the first n of each)."""
    out = {}
    types = doc.get("types") if isinstance(doc.get("types"), list) else []
    methods = doc.get("methods") if isinstance(doc.get("methods"), list) else []
    want_m, want_t = set(), set()
    for k in KINDS:
        for e in (doc.get(k) or [])[:n] if isinstance(doc.get(k), list) else []:
            if isinstance(e, dict) and isinstance(e.get("ctx"), str):
                want_m.update(ctx_methods(e["ctx"]))
                g = TYPE_SLOT.get(k)
                recs = e.get("records") or []
                if g:
                    want_t.update(recs[0::g])
    keep_m = [m for i, m in enumerate(methods)
              if i < n or (close and isinstance(m, dict) and m.get("id") in want_m)]
    for m in keep_m:
        if isinstance(m, dict) and isinstance(m.get("signature"), list):
            want_t.update(m["signature"])
    keep_t = [t for i, t in enumerate(types)
              if i < n or (close and isinstance(t, dict) and t.get("id") in want_t)]
    for key, val in doc.items():
        if key == "types":
            val = [dict(t, name=disguise(t["name"])) if isinstance(t, dict) and
                   isinstance(t.get("name"), str) else t for t in keep_t]
        elif key == "methods":
            val = [dict(m, name=disguise(m["name"])) if isinstance(m, dict) and
                   isinstance(m.get("name"), str) else m for m in keep_m]
        elif isinstance(val, list):
            val = val[:n]
            # legacy layouts carry names in other keys
            val = [dict(v, **{k2: disguise(v[k2]) for k2 in ("typeName", "methodName")
                              if isinstance(v.get(k2), str)})
                   if isinstance(v, dict) else v for v in val]
        elif isinstance(val, dict) and len(json.dumps(val)) > 2000:
            val = {}
        out[key] = val
    return out


def main():
    src, dst = sys.argv[1], sys.argv[2]
    for h in ("reader", "roundtrip", "merge", "ctx"):
        os.makedirs(os.path.join(dst, h), exist_ok=True)
    docs = []
    for fn in sorted(os.listdir(src)):
        if not fn.endswith(".iprof"):
            continue
        with open(os.path.join(src, fn), "rb") as f:
            doc = json.loads(f.read())
        base = fn[:-len(".iprof")]
        ctxs = []
        for k in KINDS:
            for e in (doc.get(k) or [])[:4] if isinstance(doc.get(k), list) else []:
                if isinstance(e, dict) and isinstance(e.get("ctx"), str):
                    ctxs.append(e["ctx"])
        for i, c in enumerate(ctxs):
            with open(os.path.join(dst, "ctx", "%s-%d" % (base, i)), "w") as f:
                f.write(c)
        for n in (1, 3, 8):
            for close in (True, False):
                small = cut(doc, n, close)
                tag = "%s-n%d%s" % (base, n, "" if close else "-cut")
                mini = json.dumps(small, separators=(",", ":")).encode()
                pretty = json.dumps(small, indent=2).encode()
                docs.append((tag, mini))
                for h in ("reader", "roundtrip"):
                    with open(os.path.join(dst, h, tag), "wb") as f:
                        f.write(mini)
                    with open(os.path.join(dst, h, tag + "-pretty"), "wb") as f:
                        f.write(pretty)
    # merge: DOC1 0xFF W DOC2 over pairs of the small documents
    for i, (ta, a) in enumerate(docs):
        for j, (tb, b) in enumerate(docs):
            if (i * 7 + j) % 11 == 0 or (i // 6 == j // 6 and i != j):
                with open(os.path.join(dst, "merge", "%s+%s" % (ta, tb)), "wb") as f:
                    f.write(a + b"\xff" + bytes([(i + j) % 4]) + b)


if __name__ == "__main__":
    main()
