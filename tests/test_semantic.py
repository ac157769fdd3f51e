#!/usr/bin/env python3
"""Semantic tests of the reader and writer against Python's json module.

A deterministic generator (random.Random(seed)) makes iprof documents with
varied layouts: GraalVM's minified layout, minified with shuffled keys,
pretty/indented, random whitespace; top-level keys and keys inside
elements in other orders; unknown top-level keys with values of every JSON
type (also in GraalVM's layout), some repeated; both spellings of the
instanceof key (instanceofProfiles, GraalVM 25's instanceOfProfiles);
escaped names (\\", \\\\, \\/, \\u00e9, \\n, surrogate pairs, raw UTF-8,
\\u0000); int64 extremes in ids and records; negative bcis; long
contexts; versions 0.4.0, 1.0.0 and 1.1.0.

For each document:
  * `iprof_dump --strict FILE` (what the streaming reader delivers) must
    equal the structure computed here from the same text with json.loads
    (ctx strings parsed here);
  * with --strict, exactly one warning per unknown key occurrence (the
    key is kept, not an error) and no other diagnostic;
  * `iprof_dump --roundtrip FILE -o OUT` must json-load to the same document
    (normalised: every section of the version present, top-level keys in
    GraalVM's order for the version, each unknown key with its raw value
    byte for byte right after the known key it followed in the input, or
    after "version" when it followed none, or last when it followed a
    section the output version lacks; the instanceof section spelled as
    the input did, else instanceOfProfiles) and, for inputs already in
    GraalVM's minified layout, be byte-identical;
  * for GraalVM-layout inputs also: --pretty, then back to minified, gives
    the original bytes; --to another version keeps the content.
Every third document is also dumped with a chunk size of 1..13 bytes.
When IPROF_CORPUS_DIR is set, the real 0.4.0/1.0.0 profiles are dumped and
compared the same way.

Env: IPROF_DUMP (path of iprof_dump), IPROF_CORPUS_DIR (optional),
IPROF_SEMANTIC_COUNT (number of generated documents, default 240).
Prints "N passed, N failed"; exit 1 on failure, 77 if skipped.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

I64_MIN = -9223372036854775808
I64_MAX = 9223372036854775807

KINDS = ["callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
         "monitorProfiles", "samplingProfiles", "instanceofProfiles"]
# The instanceof section's two spellings: the document's and GraalVM 25's.
# Both read as the instanceof kind (named "instanceofProfiles" here and in
# iprof_dump's output); a model writes back the spelling it read, and
# GraalVM's when it read none.
IOF = "instanceofProfiles"
IOF_CAMEL = "instanceOfProfiles"
KNOWN = set(KINDS) | {IOF_CAMEL, "version", "types", "methods"}
LAYOUT = {
    "0.4.0": ["version", "types", "methods", "monitorProfiles", "virtualInvokeProfiles",
              "callCountProfiles", "conditionalProfiles", "samplingProfiles"],
    "1.0.0": ["version", "types", "methods", "callCountProfiles", "conditionalProfiles",
              "virtualInvokeProfiles", "monitorProfiles", "samplingProfiles"],
    "1.1.0": ["version", "types", "methods", "callCountProfiles", "conditionalProfiles",
              "virtualInvokeProfiles", "monitorProfiles", "samplingProfiles",
              "instanceofProfiles"],
}

DUMP = os.environ.get("IPROF_DUMP", "")
CORPUS = os.environ.get("IPROF_CORPUS_DIR", "")
COUNT = int(os.environ.get("IPROF_SEMANTIC_COUNT", "240"))

RESULTS = {"passed": 0, "failed": 0}


# --------------------------------------------------------------------------
# Generation of the logical content


NAME_CHARS = (list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
              + list("$._/<>:;[()%-") + ['"', "\\", "/", "\u00e9", "\u4e2d", "\U0001F600",
                                         "\u00ff", "\u2028"])
CONTROL_CHARS = ["\n", "\t", "\r", "\b", "\f", "\x01", "\x1f", "\x00"]


def gen_name(rng, allow_control):
    n = rng.randint(0, 14)
    out = []
    for _ in range(n):
        if allow_control and rng.random() < 0.05:
            out.append(rng.choice(CONTROL_CHARS))
        else:
            out.append(rng.choice(NAME_CHARS))
    return "".join(out)


def gen_unique_ids(rng, n, lo, hi, extremes):
    ids = set()
    out = []
    for e in extremes:
        if len(out) < n and e not in ids and rng.random() < 0.5:
            ids.add(e)
            out.append(e)
    while len(out) < n:
        v = rng.randint(lo, hi) if rng.random() < 0.8 else rng.randint(0, 40)
        if v not in ids:
            ids.add(v)
            out.append(v)
    rng.shuffle(out)
    return out


def rand_count(rng):
    r = rng.random()
    if r < 0.05:
        return I64_MAX
    if r < 0.1:
        return I64_MIN
    if r < 0.2:
        return rng.randint(2**31, 2**50)
    if r < 0.25:
        return -rng.randint(1, 1000)
    return rng.randint(0, 100000)


def rand_bci(rng):
    r = rng.random()
    if r < 0.1:
        return -rng.randint(1, 6)
    if r < 0.13:
        return I64_MIN
    if r < 0.16:
        return I64_MAX
    return rng.randint(0, 400)


def gen_content(rng, version, allow_control):
    """The logical document: a dict of lists of tuples."""
    ntypes = rng.randint(2, 12)
    type_ids = gen_unique_ids(rng, ntypes, -50, 100000, [I64_MIN, I64_MAX, 0, -1])
    types = [(tid, gen_name(rng, allow_control)) for tid in type_ids]
    nmeth = rng.randint(1, 12)
    # ctx method ids are [0-9]+: non-negative.
    meth_ids = gen_unique_ids(rng, nmeth, 0, 10**6, [I64_MAX, 0])
    methods = []
    for mid in meth_ids:
        sig = [rng.choice(type_ids) for _ in range(rng.randint(2, 6))]
        methods.append((mid, gen_name(rng, allow_control), sig))
    kinds = {}
    for k in KINDS:
        if k == "instanceofProfiles" and version != "1.1.0":
            continue
        entries = []
        seen = set()
        n = 1 if k == "monitorProfiles" else rng.randint(0, 8)
        for _ in range(n):
            if k == "monitorProfiles":
                frames = [(0, 0)]
            else:
                depth = rng.randint(1, 60 if k == "samplingProfiles" else 6)
                if rng.random() < 0.7:
                    depth = min(depth, 3)
                frames = [(rng.choice(meth_ids), rand_bci(rng)) for _ in range(depth)]
                if k == "callCountProfiles":
                    frames[0] = (frames[0][0], 0)
            key = tuple(frames)
            if key in seen:
                continue
            seen.add(key)
            if k in ("callCountProfiles", "samplingProfiles"):
                records = [rand_count(rng)]
            elif k == "conditionalProfiles":
                records = []
                for idx in range(rng.randint(0, 5)):
                    records += [rand_bci(rng), idx, rand_count(rng)]
            else:
                records = []
                for _ in range(rng.randint(0, 5)):
                    records += [rng.choice(type_ids), rand_count(rng)]
            entries.append((frames, records))
        kinds[k] = entries
    return {"version": version, "types": types, "methods": methods, "kinds": kinds}


# --------------------------------------------------------------------------
# Serialisation with layout variations


class Style:
    def __init__(self, rng, mode):
        self.rng = rng
        self.mode = mode  # "graal", "minified", "pretty", "random"
        self.canonical = mode == "graal"

    def ws(self, level=0):
        if self.mode in ("graal", "minified"):
            return ""
        if self.mode == "pretty":
            return "\n" + "  " * level
        return "".join(self.rng.choice([" ", "\t", "\n", "\r", ""])
                       for _ in range(self.rng.randint(0, 3)))

    def sp(self):
        """Whitespace around ':' and ','."""
        if self.mode == "pretty":
            return " " if self.rng.random() < 0.5 else ""
        return self.ws()

    def string(self, s):
        rng = self.rng
        out = ['"']
        for ch in s:
            o = ord(ch)
            if self.canonical:
                if ch == '"':
                    out.append('\\"')
                elif ch == "\\":
                    out.append("\\\\")
                else:
                    assert o >= 0x20
                    out.append(ch)
                continue
            r = rng.random()
            if ch == '"':
                out.append('\\"' if r < 0.7 else "\\u0022")
            elif ch == "\\":
                out.append("\\\\" if r < 0.7 else "\\u005C")
            elif ch == "/" and r < 0.5:
                out.append("\\/")
            elif o < 0x20:
                short = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}
                if ch in short and r < 0.6:
                    out.append(short[ch])
                else:
                    out.append("\\u%04x" % o if r < 0.8 else "\\u%04X" % o)
            elif o > 0xFFFF:
                if r < 0.5:
                    v = o - 0x10000
                    hi, lo = 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)
                    out.append(("\\u%04x\\u%04x" if r < 0.25 else "\\u%04X\\u%04X") % (hi, lo))
                else:
                    out.append(ch)
            elif o >= 0x80 and r < 0.4:
                out.append("\\u%04x" % o)
            elif r < 0.05:
                out.append("\\u%04x" % o)
            else:
                out.append(ch)
        out.append('"')
        return "".join(out)

    def number(self, v):
        """Integers in plain decimal; rarely another integral spelling
        (docs/format.md: 1.0, 1e3, -0 read as integers)."""
        if self.canonical or self.rng.random() > 0.03 or abs(v) > 10**6:
            return str(v)
        c = self.rng.randint(0, 2)
        if c == 0:
            return "%d.0" % v
        if c == 1 and v != 0 and v % 10 == 0:
            return "%de1" % (v // 10)
        if v == 0:
            return "-0"
        return str(v)

    def obj(self, pairs, level):
        """pairs: list of (key, raw value text)."""
        if not pairs:
            return "{" + self.ws(level + 1) + "}" if self.mode == "random" else "{}"
        items = [self.string(k) + self.sp() + ":" + self.sp() + v for k, v in pairs]
        inner = ("," + self.sp()).join(self.ws(level + 1) + it for it in items)
        return "{" + inner + self.ws(level) + "}"

    def arr(self, raws, level, inline=False):
        if not raws:
            return "[" + (self.ws() if self.mode == "random" else "") + "]"
        if inline and self.mode == "pretty":
            return "[" + ", ".join(raws) + "]"
        inner = ("," + self.sp()).join(self.ws(level + 1) + r for r in raws)
        return "[" + inner + self.ws(level) + "]"

    def keys(self, keys):
        if self.canonical:
            return list(keys)
        keys = list(keys)
        if self.rng.random() < 0.5:
            self.rng.shuffle(keys)
        return keys


def gen_json_value(rng, style, depth):
    """(raw text, python value) of a random JSON value of any type (no
    control characters in GraalVM's layout, whose strings have none)."""
    r = rng.random()
    if depth > 3:
        r = r * 0.6
    if r < 0.08:
        return "null", None
    if r < 0.14:
        return "true", True
    if r < 0.2:
        return "false", False
    if r < 0.3:
        v = rng.choice([0, -1, 7, I64_MAX, I64_MIN, 2**70, -(2**70)])
        return str(v), v
    if r < 0.36:
        txt = rng.choice(["1.5", "-0.25e-3", "6.02E23", "1e400", "-0", "0.0", "3E+2"])
        return txt, json.loads(txt)
    if r < 0.5:
        s = gen_name(rng, not style.canonical)
        return style.string(s), s
    if r < 0.75:
        items = [gen_json_value(rng, style, depth + 1) for _ in range(rng.randint(0, 4))]
        return style.arr([t for t, _ in items], depth), [v for _, v in items]
    n = rng.randint(0, 4)
    keys = []
    while len(keys) < n:
        k = gen_name(rng, False)
        if k not in keys:
            keys.append(k)
    vals = [gen_json_value(rng, style, depth + 1) for _ in keys]
    return style.obj([(k, t) for k, (t, _) in zip(keys, vals)], depth), \
        {k: v for k, (_, v) in zip(keys, vals)}


def ctx_text(frames):
    return "<".join("%d:%d" % f for f in frames)


def serialise(rng, content, mode, unknown_count, omit_empty, iof_key=IOF):
    """Returns (text, unknown list [(key, raw text, value)], items): items
    lists the top-level keys in document order, ("known", kind name) or
    ("unknown", key, raw text, value); iof_key spells the instanceof key."""
    st = Style(rng, mode)
    version = content["version"]
    parts = {}
    parts["version"] = st.string(version)
    parts["types"] = st.arr([st.obj([(k, st.number(tid) if k == "id" else st.string(name))
                                     for k in st.keys(["id", "name"])], 2)
                             for tid, name in content["types"]], 1)
    meth_raws = []
    for mid, name, sig in content["methods"]:
        vals = {"id": st.number(mid), "name": st.string(name),
                "signature": st.arr([st.number(s) for s in sig], 3, inline=True)}
        meth_raws.append(st.obj([(k, vals[k]) for k in st.keys(["id", "name", "signature"])],
                                2))
    parts["methods"] = st.arr(meth_raws, 1)
    for k, entries in content["kinds"].items():
        if omit_empty and not entries and rng.random() < 0.5:
            continue
        raws = []
        for frames, records in entries:
            vals = {"ctx": st.string(ctx_text(frames)),
                    "records": st.arr([st.number(r) for r in records], 3, inline=True)}
            raws.append(st.obj([(kk, vals[kk]) for kk in st.keys(["ctx", "records"])], 2))
        parts[k] = st.arr(raws, 1)
    order = [k for k in LAYOUT[version] if k in parts]
    spelled = {k: k for k in parts}
    spelled[IOF] = iof_key
    if mode != "graal":
        order = list(parts.keys())
        rng.shuffle(order)
    pairs = [(spelled[k], parts[k]) for k in order]
    tags = [("known", k) for k in order]  # what is at each position
    used = set(KNOWN)
    unknown_keys = []
    for _ in range(unknown_count):
        if unknown_keys and rng.random() < 0.3:
            key = rng.choice(unknown_keys)  # a repeated unknown key: each one reported
        else:
            key = gen_name(rng, False) or "u"
            if key in used:
                continue
            used.add(key)
            unknown_keys.append(key)
        raw, val = gen_json_value(rng, st, 1)
        # GraalVM's layout starts with "version" (the writer puts a key
        # found before it right after it: docs/format.md, known limits).
        pos = rng.randint(1 if mode == "graal" else 0, len(pairs))
        pairs.insert(pos, (key, raw))
        tags.insert(pos, ("unknown", key, raw, val))
    unknown = [t[1:] for t in tags if t[0] == "unknown"]  # in document order
    text = st.ws(0) + st.obj(pairs, 0) + (st.ws(0) if mode == "random" else "")
    if mode == "pretty":
        text += "\n"
    if mode == "random" and rng.random() < 0.2:
        text = "\ufeff" + text  # a UTF-8 byte order mark is accepted
    return text, unknown, tags


# --------------------------------------------------------------------------
# Expected results, computed from the text with json.loads


def as_int(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError("not a number: %r" % (v,))
    if isinstance(v, float):
        assert v == int(v)
        return int(v)
    return v


def parse_ctx(s):
    out = []
    for fr in s.split("<"):
        m, b = fr.split(":")
        out += [int(m), int(b)]
    return out


def int_hook(s):
    """parse_float for json.loads: keep integral spellings exact."""
    if "e" in s or "E" in s:
        mant, exp = s.lower().split("e")
        if "." not in mant and int(exp) >= 0:
            return int(mant) * 10 ** int(exp)
    if s.endswith(".0") and "e" not in s.lower():
        return int(s[:-2])
    return float(s)


def expected_dump(text):
    doc = json.loads(text.lstrip("\ufeff"), parse_float=int_hook)
    exp = {"version": doc.get("version"),
           "types": [[as_int(t["id"]), t["name"]] for t in doc["types"]],
           "methods": [[as_int(m["id"]), m["name"], [as_int(x) for x in m["signature"]]]
                       for m in doc["methods"]]}
    for k in KINDS:
        exp[k] = [[parse_ctx(e["ctx"]), [as_int(r) for r in e["records"]]]
                  for e in doc.get(k, doc.get(IOF_CAMEL, []) if k == IOF else [])]
    return exp


def parse_value(raw):
    """A JSON value as compared here: integral spellings as exact ints."""
    return json.loads(raw, parse_float=int_hook)


def top_pairs(text):
    """The top-level (key, value) pairs of a document in order, repeated
    keys included (a dict would keep only the last one)."""
    outer = []

    def hook(pairs):
        outer[:] = [pairs]  # the outermost object is decoded last
        return dict(pairs)
    json.loads(text, object_pairs_hook=hook, parse_float=int_hook)
    return outer[0]


def normalise_for_write(text, items, version=None):
    """What writing the loaded model must give: (the top-level (key, value)
    pairs in order, ctx strings parsed into frames; the raw texts of the
    unknown keys' values in output order). items: the document's top-level
    keys in order, as serialise() returns them."""
    doc = json.loads(text.lstrip("\ufeff"), parse_float=int_hook)
    v = version or doc["version"]
    iof_key = IOF if IOF in doc else IOF_CAMEL  # as read, else GraalVM's
    known = {"version": v,
             "types": [{"id": as_int(t["id"]), "name": t["name"]} for t in doc["types"]],
             "methods": [{"id": as_int(m["id"]), "name": m["name"],
                          "signature": [as_int(x) for x in m["signature"]]}
                         for m in doc["methods"]]}
    for k in LAYOUT[v][3:]:
        src = doc.get(k, doc.get(IOF_CAMEL, [])) if k == IOF else doc.get(k, [])
        # ctx text: the writer prints canonical decimal; compare parsed frames.
        known[k] = [{"ctx": parse_ctx(e["ctx"]), "records": [as_int(r) for r in e["records"]]}
                    for e in src]
    # Each unknown key goes right after the known key it followed ("version"
    # if none), in input order; after a section the output lacks: last.
    attached = {}
    last = "version"
    for it in items:
        if it[0] == "known":
            last = it[1]
        else:
            attached.setdefault(last, []).append((it[1], parse_value(it[2]), it[2]))
    out = []  # (key, value, raw text or None)
    for k in LAYOUT[v]:
        out.append((iof_key if k == IOF else k, known[k], None))
        out += attached.pop(k, [])
    for rest in attached.values():
        out += rest
    return [(k, val) for k, val, _ in out], [raw for _, _, raw in out if raw is not None]


def load_written(path):
    """(bytes, top-level (key, value) pairs in order, sections' ctx parsed)."""
    with open(path, "rb") as f:
        data = f.read()
    pairs = top_pairs(data.decode("utf-8"))
    for k, val in pairs:
        if k in KINDS or k == IOF_CAMEL:
            for e in val:
                e["ctx"] = parse_ctx(e["ctx"])
    return data, pairs


# --------------------------------------------------------------------------


def run_dump(args):
    p = subprocess.run([DUMP] + args, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


class Semantic(unittest.TestCase):
    tmp = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="iprof_semantic_")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def record(self, ok, what):
        if ok:
            RESULTS["passed"] += 1
        else:
            RESULTS["failed"] += 1
            print("FAIL:", what, file=sys.stderr)
        return ok

    def check_warnings(self, err, unknown, label):
        """A valid document read strictly: exactly one warning per unknown
        key occurrence, in document order, and no other diagnostic."""
        lines = [ln for ln in err.split("\n") if ln]  # keys may hold U+2028
        bad = [ln for ln in lines if not ln.startswith("warning: ")]
        if not self.record(not bad, "%s: diagnostics on a valid document: %s"
                           % (label, "\n".join(bad)[:300])):
            return False
        ok = len(lines) == len(unknown)
        for ln, (key, _, _) in zip(lines, unknown):
            head = ('warning: schema violation: unknown top-level key "%s": not interpreted, '
                    'kept as is by models at ' % key)
            ok = ok and ln.startswith(head) and ln.endswith(" path " + key)
        return self.record(ok, "%s: want one warning per unknown key %r, got:\n%s"
                           % (label, [k for k, _, _ in unknown], err[:600]))

    def check_dump(self, path, text, strict=True, unknown=(), label="", chunk=None):
        """unknown: the document's unknown keys in order [(key, raw, value)]."""
        rc, out, err = run_dump((["--strict"] if strict else []) +
                                (["--chunk", str(chunk)] if chunk else []) + [path])
        if not self.record(rc == 0, "%s: iprof_dump exit %d: %s" % (label, rc, err.strip()[:500])):
            return False
        if strict and not self.check_warnings(err, unknown, label):
            return False
        got = json.loads(out.decode("utf-8"))
        exp = expected_dump(text)
        exp["unknown"] = [[k, raw] for k, raw, _ in unknown]
        ok = True
        for key in ["version", "types", "methods"] + KINDS + ["unknown"]:
            if got.get(key) != exp[key]:
                ok = False
                g, e = got.get(key), exp[key]
                detail = ""
                if isinstance(g, list) and isinstance(e, list):
                    for i, (a, b) in enumerate(zip(g, e)):
                        if a != b:
                            detail = "first difference at [%d]: got %r want %r" % (
                                i, a, b)
                            break
                    else:
                        detail = "lengths %d vs %d" % (len(g), len(e))
                else:
                    detail = "got %r want %r" % (g, e)
                self.record(False, "%s: dump %s differs: %s" % (label, key, detail[:600]))
        for k, raw, val in unknown:
            # Self-check of the generator: the raw text is the value.
            self.assertEqual(json.dumps(json.loads(raw)), json.dumps(val))
        return self.record(ok, "%s: dump" % label) if ok else False

    def check_roundtrip(self, path, text, items, label, byte_identical, extra=()):
        """items: the top-level keys of text in order (see serialise())."""
        out = os.path.join(self.tmp.name, "rt.iprof")
        rc, _, err = run_dump(["--roundtrip", path, "-o", out] + list(extra))
        if not self.record(rc == 0, "%s: roundtrip %s exit %d: %s" % (label, extra, rc,
                                                                        err.strip()[:400])):
            return None
        version = None
        if "--to" in extra:
            version = extra[extra.index("--to") + 1]
        want, raws = normalise_for_write(text, items, version)
        data, got = load_written(out)
        keys, want_keys = [k for k, _ in got], [k for k, _ in want]
        if self.record(keys == want_keys, "%s: roundtrip %s key order %r, want %r"
                       % (label, extra, keys, want_keys)):
            ok = self.record(got == want, "%s: roundtrip %s content differs" % (label, extra))
            if not ok:
                for (k, g), (_, w) in zip(got, want):
                    if g != w:
                        print("   key %s: got %r\n          want %r" % (k, g, w),
                              file=sys.stderr)
                        break
        # Unknown keys' values come back byte for byte, in order.
        at = 0
        for raw in raws:
            found = data.find(raw.encode("utf-8"), at)
            if not self.record(found >= 0, "%s: roundtrip %s: the raw value %r is not in "
                               "the output (in order)" % (label, extra, raw[:200])):
                break
            at = found
        if byte_identical:
            same = data == text.encode("utf-8")
            if not same:
                t = text.encode("utf-8")
                i = next((i for i in range(min(len(t), len(data))) if t[i] != data[i]),
                         min(len(t), len(data)))
                print("   first byte difference at %d:\n   want %r\n   got  %r"
                      % (i, t[max(0, i - 40):i + 40], data[max(0, i - 40):i + 40]),
                      file=sys.stderr)
            self.record(same, "%s: roundtrip not byte-identical" % label)
        return data

    def test_generated(self):
        modes = ["graal", "minified", "pretty", "random"]
        versions = ["0.4.0", "1.0.0", "1.1.0"]
        for seed in range(COUNT):
            rng = random.Random(seed)
            mode = modes[seed % 4]
            version = versions[(seed // 4) % 3]
            graal = mode == "graal"
            content = gen_content(rng, version, allow_control=not graal)
            # Unknown keys in every other document of GraalVM's layout too
            # (a fork's extra sections: byte-identical round trips); the
            # instanceof key in either spelling, from a second generator so
            # that the documents of a seed stay what they were.
            iof_key = random.Random("instanceof %d" % seed).choice([IOF, IOF_CAMEL])
            text, unknown, items = serialise(
                rng, content, mode,
                (rng.randint(1, 3) if seed % 8 == 0 else 0) if graal else rng.randint(0, 3),
                omit_empty=not graal, iof_key=iof_key)
            label = "seed %d (%s, %s)" % (seed, mode, version)
            path = os.path.join(self.tmp.name, "gen-%d.iprof" % seed)
            with open(path, "wb") as f:
                f.write(text.encode("utf-8"))
            if not self.check_dump(path, text, unknown=unknown, label=label):
                print("   document: %s" % text[:2000], file=sys.stderr)
                continue
            # The same through a sliding window fed 1..13 bytes at a time.
            if seed % 3 == 0:
                chunk = 1 + seed % 13
                self.check_dump(path, text, unknown=unknown,
                                label="%s chunk %d" % (label, chunk), chunk=chunk)
            data = self.check_roundtrip(path, text, items, label, byte_identical=graal)
            if not graal and unknown:
                # Unknown keys through a version change: in place, or last
                # after a section the target version lacks.
                to = versions[(versions.index(version) + 1 + (seed // 12) % 2) % 3]
                if not (version == "1.1.0" and content["kinds"].get("instanceofProfiles")):
                    self.check_roundtrip(path, text, items, label + " to " + to, False,
                                         ("--to", to))
            if graal and data is not None:
                # pretty and back
                pretty = self.check_roundtrip(path, text, items, label + " pretty", False,
                                              ("--pretty",))
                if pretty is not None:
                    ppath = os.path.join(self.tmp.name, "pretty.iprof")
                    with open(ppath, "wb") as f:
                        f.write(pretty)
                    self.record(b"\n" in pretty, "%s: pretty output has no newline" % label)
                    self.check_dump(ppath, text, unknown=unknown, label=label + " pretty dump")
                    self.check_roundtrip(ppath, text, items, label + " pretty->minified",
                                         True)
                # other versions (instanceof only when the target has it)
                for to in versions:
                    if to == version:
                        continue
                    if version == "1.1.0" and to != "1.1.0" and \
                            content["kinds"].get("instanceofProfiles"):
                        continue
                    self.check_roundtrip(path, text, items, label + " to " + to, False,
                                         ("--to", to))

    def test_corpus(self):
        if not CORPUS or not os.path.isdir(CORPUS):
            self.skipTest("corpus folder absent")
        names = sorted(n for n in os.listdir(CORPUS)
                       if n.endswith("0.4.0.iprof") or n.endswith("1.0.0.iprof"))
        for n in names:
            path = os.path.join(CORPUS, n)
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
            strict = "elidemin" not in n
            self.check_dump(path, text, strict=strict, unknown=[], label=n)
            self.check_dump(path, text, strict=strict, unknown=[], label=n + " chunk 4099",
                            chunk=4099)


def main():
    if not DUMP or not os.path.exists(DUMP):
        print("SKIP: IPROF_DUMP not set or missing")
        return 77
    suite = unittest.TestLoader().loadTestsFromTestCase(Semantic)
    res = unittest.TextTestRunner(verbosity=2, stream=sys.stderr).run(suite)
    if res.errors or res.failures:
        RESULTS["failed"] += len(res.errors) + len(res.failures)
    print("%d passed, %d failed" % (RESULTS["passed"], RESULTS["failed"]))
    if RESULTS["failed"]:
        return 1
    if RESULTS["passed"] == 0:
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
