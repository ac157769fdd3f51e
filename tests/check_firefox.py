#!/usr/bin/env python3
"""Check a Firefox Profiler processed profile (what `iprof export --format
firefox` writes) against the structure documented in
../shared/spec/firefox-profiler-format.md and the Firefox Profiler's type
definitions (src/types/profile.js), as serialised in processed format
version 48:

  meta       interval, startTime (numbers), product (string), version and
             preprocessedProfileVersion (integers), categories (name,
             color, non-empty subcategories), initialVisibleThreads /
             initialSelectedThreads (thread indices) when present
  threads    a non-empty list; each has name, pid (a string since version
             47), tid, processStartupTime, registerTime, stringArray (the
             serialised string table) and the tables below
  tables     every column is a list as long as the table's "length"
  samples    stack: null or a stack index; time: numbers, non-decreasing;
             weight: null or numbers; weightType samples|tracing-ms|bytes
  stackTable frame: a frame index; prefix: null or a stack index smaller
             than the stack's own; category/subcategory in range
  frameTable func: a function index; category/subcategory null or in
             range; line/column: null or integers; address: integers
  funcTable  name: a string index; isJS, relevantForJS: booleans;
             resource: -1 or a resource index; fileName: null or a string
             index; lineNumber/columnNumber: null or integers
  resourceTable name: string indices; type: integers

Usage: check_firefox.py FILE...   prints "FILE: ok" or each problem
("FILE: PATH: message") and exits 1 if any file has one. As a module:
check(doc) returns the list of problems.
"""
import json
import sys


class Problems:
    def __init__(self):
        self.items = []

    def add(self, path, msg):
        self.items.append("%s: %s" % (path, msg))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return (isinstance(v, (int, float)) and not isinstance(v, bool))


def check_index(p, path, v, n, nullable=False, minus_one=False):
    if v is None and nullable:
        return
    if minus_one and v == -1:
        return
    if not is_int(v) or not 0 <= v < n:
        p.add(path, "%r is not an index below %d" % (v, n))


def check_table(p, path, table, columns):
    """The table is an object with an integer length and each column a list
    of that length; returns the length, or None if unusable."""
    if not isinstance(table, dict):
        p.add(path, "not an object")
        return None
    n = table.get("length")
    if not is_int(n) or n < 0:
        p.add(path + ".length", "not a non-negative integer: %r" % (n,))
        return None
    ok = True
    for col in columns:
        v = table.get(col)
        if not isinstance(v, list):
            p.add(path + "." + col, "missing or not a list")
            ok = False
        elif len(v) != n:
            p.add(path + "." + col, "has %d values, length is %d" % (len(v), n))
            ok = False
    return n if ok else None


def check_meta(p, meta, nthreads):
    if not isinstance(meta, dict):
        p.add("meta", "missing or not an object")
        return []
    for key in ("interval", "startTime"):
        if not is_num(meta.get(key)):
            p.add("meta." + key, "not a number: %r" % (meta.get(key),))
    if not isinstance(meta.get("product"), str):
        p.add("meta.product", "not a string")
    for key in ("version", "preprocessedProfileVersion"):
        if not is_int(meta.get(key)) or meta.get(key) < 1:
            p.add("meta." + key, "not a positive integer: %r" % (meta.get(key),))
    cats = meta.get("categories")
    if not isinstance(cats, list) or not cats:
        p.add("meta.categories", "missing or empty")
        cats = []
    sizes = []
    for i, c in enumerate(cats):
        path = "meta.categories[%d]" % i
        if not isinstance(c, dict):
            p.add(path, "not an object")
            sizes.append(0)
            continue
        if not isinstance(c.get("name"), str):
            p.add(path + ".name", "not a string")
        if not isinstance(c.get("color"), str):
            p.add(path + ".color", "not a string")
        subs = c.get("subcategories")
        if not isinstance(subs, list) or not subs or not all(isinstance(s, str) for s in subs):
            p.add(path + ".subcategories", "not a non-empty list of strings")
            sizes.append(0)
        else:
            sizes.append(len(subs))
    for key in ("initialVisibleThreads", "initialSelectedThreads"):
        if key in meta:
            v = meta[key]
            if not isinstance(v, list):
                p.add("meta." + key, "not a list")
            else:
                for j, t in enumerate(v):
                    check_index(p, "meta.%s[%d]" % (key, j), t, nthreads)
    return sizes


def check_category(p, path, cat, sub, sizes, nullable):
    if cat is None and nullable:
        if sub is not None:
            p.add(path, "a subcategory without a category")
        return
    check_index(p, path + " category", cat, len(sizes))
    if is_int(cat) and 0 <= cat < len(sizes):
        check_index(p, path + " subcategory", sub, sizes[cat], nullable=nullable)


def check_thread(p, t, i, sizes):
    path = "threads[%d]" % i
    if not isinstance(t, dict):
        p.add(path, "not an object")
        return
    if not isinstance(t.get("name"), str):
        p.add(path + ".name", "not a string")
    if not isinstance(t.get("pid"), str):
        p.add(path + ".pid", "not a string (processed format 47 and later)")
    if not (is_int(t.get("tid")) or isinstance(t.get("tid"), str)):
        p.add(path + ".tid", "not a number or string")
    for key in ("processStartupTime", "registerTime"):
        if not is_num(t.get(key)):
            p.add(path + "." + key, "not a number")
    strings = t.get("stringArray")
    if not isinstance(strings, list) or not all(isinstance(s, str) for s in strings):
        p.add(path + ".stringArray", "missing or not a list of strings")
        strings = []
    nstr = len(strings)

    nres = check_table(p, path + ".resourceTable", t.get("resourceTable"),
                       ("lib", "name", "host", "type"))
    if nres is not None:
        rt = t["resourceTable"]
        for j in range(nres):
            check_index(p, "%s.resourceTable.name[%d]" % (path, j), rt["name"][j], nstr)
            if not is_int(rt["type"][j]):
                p.add("%s.resourceTable.type[%d]" % (path, j), "not an integer")

    nfunc = check_table(p, path + ".funcTable", t.get("funcTable"),
                        ("name", "isJS", "relevantForJS", "resource", "fileName",
                         "lineNumber", "columnNumber"))
    if nfunc is not None:
        ft = t["funcTable"]
        for j in range(nfunc):
            fp = "%s.funcTable" % path
            check_index(p, "%s.name[%d]" % (fp, j), ft["name"][j], nstr)
            for col in ("isJS", "relevantForJS"):
                if not isinstance(ft[col][j], bool):
                    p.add("%s.%s[%d]" % (fp, col, j), "not a boolean")
            check_index(p, "%s.resource[%d]" % (fp, j), ft["resource"][j], nres or 0,
                        minus_one=True)
            check_index(p, "%s.fileName[%d]" % (fp, j), ft["fileName"][j], nstr, nullable=True)
            for col in ("lineNumber", "columnNumber"):
                if ft[col][j] is not None and not is_int(ft[col][j]):
                    p.add("%s.%s[%d]" % (fp, col, j), "not null or an integer")

    nframe = check_table(p, path + ".frameTable", t.get("frameTable"),
                         ("address", "inlineDepth", "category", "subcategory", "func",
                          "line", "column"))
    if nframe is not None:
        fr = t["frameTable"]
        for j in range(nframe):
            fp = "%s.frameTable" % path
            check_index(p, "%s.func[%d]" % (fp, j), fr["func"][j], nfunc or 0)
            check_category(p, "%s[%d]" % (fp, j), fr["category"][j], fr["subcategory"][j],
                           sizes, nullable=True)
            for col in ("line", "column"):
                if fr[col][j] is not None and not is_int(fr[col][j]):
                    p.add("%s.%s[%d]" % (fp, col, j), "not null or an integer")
            if not is_int(fr["address"][j]):
                p.add("%s.address[%d]" % (fp, j), "not an integer")
            if not is_int(fr["inlineDepth"][j]) or fr["inlineDepth"][j] < 0:
                p.add("%s.inlineDepth[%d]" % (fp, j), "not a non-negative integer")

    nstack = check_table(p, path + ".stackTable", t.get("stackTable"),
                         ("frame", "category", "subcategory", "prefix"))
    if nstack is not None:
        st = t["stackTable"]
        for j in range(nstack):
            sp = "%s.stackTable" % path
            check_index(p, "%s.frame[%d]" % (sp, j), st["frame"][j], nframe or 0)
            prefix = st["prefix"][j]
            if prefix is not None and (not is_int(prefix) or not 0 <= prefix < j):
                p.add("%s.prefix[%d]" % (sp, j),
                      "%r is not null or a stack index below %d" % (prefix, j))
            check_category(p, "%s[%d]" % (sp, j), st["category"][j], st["subcategory"][j],
                           sizes, nullable=False)

    samples = t.get("samples")
    cols = ["stack", "time"]
    if isinstance(samples, dict) and samples.get("weight") is not None:
        cols.append("weight")
    nsamp = check_table(p, path + ".samples", samples, cols)
    if nsamp is not None:
        sa = t["samples"]
        if "weight" not in sa or sa["weight"] is not None and not isinstance(sa["weight"], list):
            p.add(path + ".samples.weight", "missing (null or a list)")
        if sa.get("weightType", "samples") not in ("samples", "tracing-ms", "bytes"):
            p.add(path + ".samples.weightType", "not samples, tracing-ms or bytes")
        prev = None
        for j in range(nsamp):
            check_index(p, "%s.samples.stack[%d]" % (path, j), sa["stack"][j], nstack or 0,
                        nullable=True)
            time = sa["time"][j]
            if not is_num(time):
                p.add("%s.samples.time[%d]" % (path, j), "not a number")
            elif prev is not None and time < prev:
                p.add("%s.samples.time[%d]" % (path, j), "goes back in time")
            else:
                prev = time
            if "weight" in cols and not is_num(sa["weight"][j]):
                p.add("%s.samples.weight[%d]" % (path, j), "not a number")


def check(doc):
    p = Problems()
    if not isinstance(doc, dict):
        p.add("$", "not an object")
        return p.items
    threads = doc.get("threads")
    if not isinstance(threads, list) or not threads:
        p.add("threads", "missing or empty")
        threads = []
    sizes = check_meta(p, doc.get("meta"), len(threads))
    for key in ("libs",):
        if not isinstance(doc.get(key), list):
            p.add(key, "missing or not a list")
    for i, t in enumerate(threads):
        check_thread(p, t, i, sizes)
    return p.items


def main(argv):
    if len(argv) < 2:
        print("usage: check_firefox.py FILE...", file=sys.stderr)
        return 2
    bad = 0
    for name in argv[1:]:
        try:
            with open(name, "rb") as f:
                doc = json.loads(f.read().decode("utf-8"))
        except (OSError, ValueError) as e:
            print("%s: cannot read: %s" % (name, e))
            bad = 1
            continue
        problems = check(doc)
        for msg in problems:
            print("%s: %s" % (name, msg))
        if not problems:
            print("%s: ok" % name)
        bad |= bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
