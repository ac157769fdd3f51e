#!/usr/bin/env python3
"""A tour of the iprof Python bindings (docs/bindings.md runs it as a test).

    python3 bindings/python/examples/example.py [PROFILE]

Loads a profile (default: examples/fib.iprof), prints what it holds and
its hottest call, streams its entries, merges it into a copy of itself,
changes it and writes it back.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import iprof  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "..", "examples",
                                                          "fib.iprof")

# Errors carry the status, message, position and JSON path.
try:
    iprof.load(b'{"version": "1.0.0", "types": [{"id": 0}], "methods": []}')
except iprof.Error as e:
    print("error: %s at line %d, column %d, %s (%s)" % (e.message, e.line, e.column, e.path,
                                                       e.status_name))

with iprof.load(path) as model:
    print("version %s: %d types, %d methods" % (model.version, len(model.types),
                                                len(model.methods)))
    for kind in iprof.Kind:
        print("%-22s %d" % (kind.json_key, len(model.profiles(kind))))

    # The call-count entry with the largest count, as frames and as text.
    hottest = max(model.call_count, key=lambda e: e.records[0])
    where = hottest.context              # contexts live as long as the model
    print("hottest call count: %d at %s (%s), frames %s" % (
        hottest.records[0], where.describe(), where, where.frames))
    fib = model.methods.find("fibonacci", [model.types.by_name("Fib").id,
                                           model.types.by_name("void").id])
    print("method %d is %s" % (fib.id, fib.describe()))

    # Streaming: a callback per element, or an iterator.
    total = []
    iprof.read(path, on_call_count=lambda e: total.append(e.records[0]))
    print("calls counted while streaming: %d" % sum(total))
    with iprof.iter_entries(path, kinds=[iprof.Kind.CONDITIONAL]) as entries:
        for entry in entries:
            print("conditional at %s: %s" % (entry.ctx, entry.records))

    # Merge a second copy with weight 2, then add and remove entries.
    with iprof.load(path) as other:
        model.merge(other, weight=2)
    print("after merge: %d" % model.find_entry(iprof.Kind.CALL_COUNT, where).records[0])
    model.add_entry(iprof.Kind.CALL_COUNT, [(fib.id, 0)], [1000])
    model.remove_entry(iprof.Kind.SAMPLING, model.sampling[1].context)
    try:
        hottest.records                  # entries of a changed kind are stale
    except iprof.StaleError:
        print("stale entry detected")

    # Write: bytes, or a path (atomically).
    data = model.write(version=iprof.FORMAT_LATEST)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "merged.iprof")
        model.write(out, pretty=True)
        with iprof.load(out, strict=True) as again:
            print("written %d bytes; reloaded %d call counts, fibonacci called %d times" % (
                len(data), len(again.call_count),
                again.find_entry(iprof.Kind.CALL_COUNT, [(fib.id, 0)]).records[0]))

try:
    model.types[0]
except iprof.ClosedError:
    print("model closed")
