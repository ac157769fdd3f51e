#!/usr/bin/env python3
"""Scale a real profile to a target size for the benchmarks (docs/performance.md).

    bench/scale_profile.py [--size 100M] IN.iprof OUT.iprof

Writes COPIES copies of IN's types, methods and entries side by side, as
many as bring the file to about SIZE bytes: copy k renumbers every type and
method id by k * (largest id + 1), in its definitions, signatures, ctx
frames and the type ids of its records, and appends "#k" to its names
(copy 0 keeps IN's), so the copies are distinct profiles of one shape, not
repeats that a load would fold. The monitor profile's ctx is exactly 0:0 by
the format's rules, so the copies' monitor records go into one entry. The
layout stays GraalVM's (minified, IN's key order), so a byte-identical
round trip of IN stays one of OUT. Deterministic: the same IN and SIZE give
the same bytes. Only the standard library.
"""
import argparse
import json
import os
import sys

# Record slots holding a type id: (values per group, slot).
TYPE_SLOTS = {
    "virtualInvokeProfiles": (2, 0),
    "monitorProfiles": (2, 0),
    "instanceofProfiles": (2, 0),
    "instanceOfProfiles": (2, 0),
}
SECTIONS = ("types", "methods")


def parse_size(text):
    mult = {"K": 10**3, "M": 10**6, "G": 10**9}  # as iprof-gen
    if text and text[-1].upper() in mult:
        return int(float(text[:-1]) * mult[text[-1].upper()])
    return int(text)


def dump(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def shift_ctx(ctx, off):
    if off == 0:
        return ctx
    out = []
    for frame in ctx.split("<"):
        mid, bci = frame.split(":")
        out.append("%d:%s" % (int(mid) + off, bci))
    return "<".join(out)


def shift_records(records, key, off):
    if off == 0 or key not in TYPE_SLOTS:
        return records
    group, slot = TYPE_SLOTS[key]
    out = list(records)
    for i in range(slot, len(out), group):
        out[i] += off
    return out


def copy_of(doc, k, off):
    """The sections of copy k (ids shifted by off) as lists of JSON texts."""
    suffix = "" if k == 0 else "#%d" % k
    out = {}
    for key, value in doc.items():
        if not isinstance(value, list):
            continue
        items = []
        for el in value:
            el = dict(el)
            if key in SECTIONS:
                el["id"] += off
                el["name"] += suffix
                if "signature" in el:
                    el["signature"] = [t + off for t in el["signature"]]
            elif key == "monitorProfiles":
                el["records"] = shift_records(el["records"], key, off)
            else:
                el["ctx"] = shift_ctx(el["ctx"], off)
                el["records"] = shift_records(el["records"], key, off)
            items.append(el)
        out[key] = items
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="100M")
    ap.add_argument("input")
    ap.add_argument("output")
    a = ap.parse_args()
    with open(a.input, "rb") as f:
        doc = json.loads(f.read())
    if not isinstance(doc, dict) or "types" not in doc or "methods" not in doc:
        sys.exit("scale_profile: %s is not a 1.x profile" % a.input)
    ids = [t["id"] for t in doc["types"]] + [m["id"] for m in doc["methods"]]
    stride = max(ids + [0]) + 1
    # A renumbered copy is longer than IN (suffixes, longer ids): size one.
    one = sum(len(dump(el).encode()) + 1 for items in copy_of(doc, 1, stride).values()
              for el in items)
    copies = max(1, round(parse_size(a.size) / one))
    parts = {}
    for k in range(copies):
        for key, items in copy_of(doc, k, k * stride).items():
            parts.setdefault(key, []).extend(items)
    tmp = a.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("{")
        for i, (key, value) in enumerate(doc.items()):
            f.write("," if i else "")
            f.write(dump(key) + ":")
            if key == "monitorProfiles" and parts.get(key):
                merged = dict(parts[key][0])
                merged["records"] = [r for el in parts[key] for r in el["records"]]
                f.write("[" + dump(merged) + "]")
            elif key in parts:
                f.write("[" + ",".join(dump(el) for el in parts[key]) + "]")
            else:
                f.write(dump(value))
        f.write("}")
    os.replace(tmp, a.output)
    print("%s: %d copies, %d bytes" % (a.output, copies, os.path.getsize(a.output)))


if __name__ == "__main__":
    main()
