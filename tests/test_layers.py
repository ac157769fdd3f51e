#!/usr/bin/env python3
"""The library's layers (docs/architecture.md, "Layers"): every #include
"..." of a file in lib/FOLDER/ names a header of FOLDER or of a layer below
it, and every folder of lib/ is a layer. The order is lib/meson.build's
(iprof_layers), given on the command line, so that it is written once; the
build compiles each folder with the include directories of its own and the
lower layers, and this test says which line broke the rule. No file of
lib/ is longer than 900 lines (issue 13's rule). Each check also runs on
small fabricated trees, so that a checker that finds nothing cannot pass. And the command (tools/) is no layer: it uses the public API only,
includes no header of lib/ and compiles no file of lib/ (the build's
compile_commands.json).

Usage: test_layers.py LAYER... (lowest first)
Environment (set by meson, tests/meson.build):
  IPROF_SOURCE_DIR  the source tree (lib/, tools/)
  IPROF_BUILD_DIR   the build (compile_commands.json)

Prints "N passed, N failed" last; exits 1 on failure.
"""
import json
import os
import re
import sys
import tempfile
import unittest

SOURCE = os.environ.get("IPROF_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYERS = [a for a in sys.argv[1:] if not a.startswith("-")]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def headers_by_folder(lib):
    """folder -> set of the header names it holds."""
    out = {}
    for d in sorted(os.listdir(lib)):
        path = os.path.join(lib, d)
        if os.path.isdir(path):
            out[d] = {f for f in os.listdir(path) if f.endswith(".h")}
    return out


def includes(folder):
    """(file, line, name) of every #include "name" of the C files of folder."""
    for f in sorted(os.listdir(folder)):
        if not f.endswith((".c", ".h")):
            continue
        with open(os.path.join(folder, f), encoding="utf-8") as fh:
            text = fh.read()
        for m in INCLUDE.finditer(text):
            yield f, text.count("\n", 0, m.start()) + 1, m.group(1)


def violations(lib, layers):
    """The broken rules of the tree at lib, as sorted lines of text."""
    found = []
    folders = headers_by_folder(lib)
    rank = {name: i for i, name in enumerate(layers)}
    for d in sorted(folders):
        if d not in rank:
            found.append("lib/%s/: a folder that is no layer (place it in lib/meson.build)" % d)
    for d in layers:
        path = os.path.join(lib, d)
        if not os.path.isdir(path):
            found.append("lib/%s/: a layer without a folder" % d)
            continue
        for f, line, name in includes(path):
            where = "lib/%s/%s:%d" % (d, f, line)
            if "/" in name:
                # A relative include ("../common/alloc.h"): the folder it names.
                parts = os.path.normpath(os.path.join(d, name)).split(os.sep)
                owner = parts[0] if len(parts) == 2 else None
                if owner is None or parts[-1] not in folders.get(owner, ()):
                    found.append("%s: \"%s\" is no header of lib/" % (where, name))
                    continue
                owners = [owner]
            else:
                owners = [o for o in layers if name in folders.get(o, ())]
                if not owners:
                    found.append("%s: \"%s\" is no header of lib/" % (where, name))
                    continue
            if min(rank.get(o, len(layers)) for o in owners) > rank[d]:
                found.append("%s: includes \"%s\" of lib/%s/, a layer above %s" %
                             (where, name, owners[0], d))
    return found


def command_violations(source, commands):
    """What the command takes from lib/: its #include lines naming a header
    of lib/ (and none of its own), and the files of lib/ among its compile
    commands (a list of compile_commands.json entries)."""
    found = []
    lib_headers = set()
    for names in headers_by_folder(os.path.join(source, "lib")).values():
        lib_headers |= names
    tools = os.path.join(source, "tools")
    own = set(os.listdir(tools))
    for f, line, name in includes(tools):
        if "lib/" in name or (name in lib_headers and name not in own):
            found.append("tools/%s:%d: includes \"%s\" of lib/" % (f, line, name))
    lib = os.path.realpath(os.path.join(source, "lib")) + os.sep
    for c in commands:
        out = c.get("output", "") or c.get("command", "")
        if "tools/iprof" not in out.replace("\\", "/"):
            continue
        path = os.path.realpath(os.path.join(c["directory"], c["file"]))
        if path.startswith(lib):
            found.append("the command compiles lib/%s" % path[len(lib):])
    return found


# Issue 13's rule: short files with one job. A file past this splits by job.
MAX_LINES = 900


def long_files(lib, limit=MAX_LINES):
    """The files of lib/ longer than limit lines, as "lib/F: N lines"."""
    found = []
    for folder, _, names in sorted(os.walk(lib)):
        for name in sorted(names):
            if name.endswith((".c", ".h")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as fh:
                    n = sum(1 for _ in fh)
                if n > limit:
                    found.append("lib/%s: %d lines" % (os.path.relpath(path, lib), n))
    return found


def make_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


BUILD = os.environ.get("IPROF_BUILD_DIR", "")


class Command(unittest.TestCase):
    def test_command_takes_nothing_from_lib(self):
        db = os.path.join(BUILD, "compile_commands.json")
        if not os.path.isfile(db):
            self.skipTest("no compile_commands.json in IPROF_BUILD_DIR")
        with open(db, encoding="utf-8") as fh:
            commands = json.load(fh)
        # The database is the build's: the command is in it.
        self.assertTrue(any("tools/iprof" in c.get("output", c.get("command", ""))
                            for c in commands))
        self.assertEqual(command_violations(SOURCE, commands), [])

    def test_checker_finds_what_the_command_takes(self):
        commands = [
            {"directory": "/b", "file": os.path.join(SOURCE, "lib/platform/replace.c"),
             "output": "tools/iprof.p/replace.c.o"},
            {"directory": "/b", "file": os.path.join(SOURCE, "tools/main.c"),
             "output": "tools/iprof.p/main.c.o"},
            {"directory": "/b", "file": os.path.join(SOURCE, "lib/read/json.c"),
             "output": "lib/libiprof_read.a.p/json.c.o"},
        ]
        self.assertEqual(command_violations(SOURCE, commands),
                         ["the command compiles lib/platform/replace.c"])


class Layers(unittest.TestCase):
    def test_order_given(self):
        # lib/meson.build passes its iprof_layers; the lowest is the platform.
        self.assertEqual(LAYERS[:2], ["platform", "common"], LAYERS)

    def test_library_keeps_its_layers(self):
        self.assertEqual(violations(os.path.join(SOURCE, "lib"), LAYERS), [])

    def test_checker_finds_an_include_from_above(self):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, {
                "low/a.h": "",
                "low/a.c": '#include "a.h"\n',
                "high/b.h": '#include "a.h"\n',
                "high/b.c": '#include "b.h"\n#include "../low/a.h"\n',
                "low/c.c": '/* x */\n#include <stdio.h>\n  # include "b.h"\n',
                "low/d.c": '#include "../high/b.h"\n#include "nowhere.h"\n',
                "odd/e.c": "",
            })
            self.assertEqual(violations(root, ["low", "high"]), [
                "lib/odd/: a folder that is no layer (place it in lib/meson.build)",
                "lib/low/c.c:3: includes \"b.h\" of lib/high/, a layer above low",
                "lib/low/d.c:1: includes \"../high/b.h\" of lib/high/, a layer above low",
                "lib/low/d.c:2: \"nowhere.h\" is no header of lib/",
            ])

    def test_no_file_over_the_limit(self):
        self.assertEqual(long_files(os.path.join(SOURCE, "lib")), [])

    def test_checker_finds_a_long_file(self):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, {"low/a.c": "x\n" * (MAX_LINES + 1), "low/b.h": "x\n" * MAX_LINES})
            self.assertEqual(long_files(root), ["lib/low/a.c: %d lines" % (MAX_LINES + 1)])

    def test_checker_finds_a_missing_layer(self):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, {"low/a.c": ""})
            self.assertEqual(violations(root, ["low", "high"]),
                             ["lib/high/: a layer without a folder"])


if __name__ == "__main__":
    result = unittest.main(argv=[sys.argv[0]], exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(1 if failed else 0)
