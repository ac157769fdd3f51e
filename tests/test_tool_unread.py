"""Keys iprof does not read, through every command: the one rule of
iprof(1), KEYS IPROF DOES NOT READ.

Keys that no type, method or entry has ({"id":3,"name":"A","x":1}) are not
read. Every command says how many elements had them, exactly (the reader's
diagnostics stop at 10000; the file here has 10,600 such elements), in one
line on stderr. Commands that read show what they show without them (the
same output as for the file without the keys, exit 0). Commands that write
a profile refuse (exit 1; repair 3, OUT not written) unless --drop-unknown,
and then say so and exit 4 (repair of a damaged file: 1).
"""
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tooltest import DATA, main, run  # noqa: E402

TYPES, METHODS = 3600, 3500  # each type but int, each method and entry: 10,600
UNREAD = TYPES + 2 * METHODS
FIRST = 'types[1], key "x"'
SUMMARY = ('p.iprof: warning: %d elements have keys iprof does not read (the first: %s)\n'
           % (UNREAD, FIRST))
REFUSED = ("iprof %s: p.iprof: refused: the output would lack the keys of %d elements that "
           "iprof does not read (--drop-unknown writes without them)\n")
WRITTEN = ("iprof %s: %s: written without the keys of %d elements that iprof does not read "
           "(--drop-unknown)\n")


def profile(unread):
    """A 1.0.0 profile in GraalVM's layout; with @p unread, every type but
    int, every method and every entry has a key iprof does not read."""
    x, k, note = (',"x":1', ',"k":[2]', ',"note":"n"') if unread else ("", "", "")
    types = ['{"id":0,"name":"int"}'] + ['{"id":%d,"name":"T%d"%s}' % (i, i, x)
                                         for i in range(1, TYPES + 1)]
    methods = ['{"id":%d,"name":"m","signature":[%d,0]%s}' % (i, i, k)
               for i in range(1, METHODS + 1)]
    entries = ['{"ctx":"%d:0","records":[%d]%s}' % (i, i, note) for i in range(1, METHODS + 1)]
    return ('{"version":"1.0.0","types":[%s],"methods":[%s],"callCountProfiles":[%s],'
            '"conditionalProfiles":[],"virtualInvokeProfiles":[],"monitorProfiles":[],'
            '"samplingProfiles":[]}' % (",".join(types), ",".join(methods), ",".join(entries))
            ).encode()


class UnreadKeys(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="iprof-unread-")
        cls.dirty = os.path.join(cls.tmp, "dirty")
        cls.clean = os.path.join(cls.tmp, "clean")
        for d, unread in ((cls.dirty, True), (cls.clean, False)):
            os.mkdir(d)
            with open(os.path.join(d, "p.iprof"), "wb") as f:
                f.write(profile(unread))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def on(self, where, *args):
        """Run iprof in the dirty or clean directory, on its p.iprof."""
        return run(*args, cwd=self.dirty if where == "dirty" else self.clean)

    def test_the_clean_file_is_what_a_copy_writes(self):
        code, out, err = self.on("clean", "cat", "p.iprof")
        self.assertEqual((code, out, err), (0, profile(False), ""))

    def test_reading_commands_say_the_exact_count_and_show_the_same(self):
        csv = os.path.join(DATA, "fit-call_tree_methods.csv")
        for args in (["stats", "p.iprof"], ["stats", "--json", "p.iprof"],
                     ["flame", "--kind", "callcount", "p.iprof"],
                     ["export", "--format", "speedscope", "--kind", "callcount", "p.iprof"],
                     ["coverage", "p.iprof"], ["coverage", "--json", "p.iprof"],
                     ["show", "p.iprof", "T7.m"], ["fit", "p.iprof", csv],
                     ["diff", "p.iprof", "p.iprof"]):
            code, out, err = self.on("dirty", *args)
            want_err = SUMMARY * (2 if args[0] == "diff" else 1)
            self.assertEqual((code, err), (0, want_err), args)
            want = self.on("clean", *args)
            self.assertEqual(want[0], 0, want[2])
            if args[0] == "stats":  # the read's diagnostics are counted there
                out = out.replace(b"diagnostics: %d\n" % UNREAD, b"diagnostics: 0\n").replace(
                    b'"diagnostics": %d,' % UNREAD, b'"diagnostics": 0,')
            self.assertTrue(want[1], args)
            self.assertEqual(out, want[1], args)

    def test_validate_lists_up_to_the_cap_and_says_the_exact_count(self):
        code, out, err = self.on("dirty", "validate", "p.iprof")
        self.assertEqual((code, out), (0, b"p.iprof: valid (%d warnings)\n" % UNREAD))
        lines = err.splitlines(True)
        self.assertEqual(len(lines), 10002, lines[-3:])
        self.assertEqual(lines[0], 'p.iprof:1:%d: types[1]: warning: unknown key "x" in a type: '
                         'not read, so a model does not hold it\n'
                         % (profile(True).index(b'"x"') + 1))
        self.assertEqual(lines[-2:], ["p.iprof: %d more diagnostics not shown\n" % (UNREAD - 10000),
                                      SUMMARY])

    def test_writing_commands_refuse(self):
        self.remove_later("out.iprof")
        for args in (["cat"], ["convert", "--to", "1.1.0"],
                     ["filter", "--kinds", "callCountProfiles"], ["merge"]):
            for out in ([], ["-o", "out.iprof"]):
                code, got, err = self.on("dirty", *args, "p.iprof", *out)
                self.assertEqual((code, got, err), (1, b"", SUMMARY + REFUSED % (args[0], UNREAD)),
                                 args + out)
                self.assertFalse(os.path.exists(os.path.join(self.dirty, "out.iprof")))
        # repair: 3, OUT not written (its 1 means OUT holds what was salvaged)
        code, got, err = self.on("dirty", "repair", "p.iprof", "-o", "out.iprof")
        self.assertEqual((code, got, err), (3, b"", SUMMARY + REFUSED % ("repair", UNREAD)))
        self.assertFalse(os.path.exists(os.path.join(self.dirty, "out.iprof")))

    def test_writing_commands_drop_when_told_and_say_so(self):
        for args in (["cat"], ["convert", "--to", "1.1.0"],
                     ["filter", "--kinds", "callCountProfiles"], ["merge"]):
            code, out, err = self.on("dirty", *args, "--drop-unknown", "p.iprof")
            name = "<stdout>" if args[0] == "merge" else "p.iprof"
            self.assertEqual((code, err), (4, SUMMARY + WRITTEN % (args[0], name, UNREAD)), args)
            want = self.on("clean", *args, "p.iprof")
            self.assertEqual((want[0], want[2]), (0, ""))
            self.assertEqual(out, want[1], args)
        # merge: each input says its count; the verdict names OUT and sums
        self.remove_later("m.iprof")
        code, out, err = self.on("dirty", "merge", "--drop-unknown", "-o", "m.iprof",
                                 "p.iprof", "p.iprof")
        self.assertEqual((code, out, err), (4, b"", SUMMARY * 2 + WRITTEN % (
            "merge", "m.iprof", 2 * UNREAD)))
        # nothing to drop: --drop-unknown changes nothing, exit 0
        for args in (["cat"], ["convert"], ["filter"], ["merge"]):
            code, out, err = self.on("clean", *args, "--drop-unknown", "p.iprof")
            self.assertEqual((code, err), (0, ""), args)

    def remove_later(self, name):
        path = os.path.join(self.dirty, name)
        self.addCleanup(lambda: os.path.exists(path) and os.remove(path))
        return path

    def test_repair_drops_when_told_and_is_not_intact(self):
        out_path = self.remove_later("out.iprof")
        size = len(profile(True))
        code, out, err = self.on("dirty", "repair", "--drop-unknown", "p.iprof", "-o", "out.iprof")
        self.assertEqual((code, err), (4, SUMMARY))
        self.assertEqual(out.decode(), (
            "p.iprof: not damaged; keys dropped (--drop-unknown)\n"
            "kept: version 1.0.0, %d types, %d methods, %d callCountProfiles, "
            "0 conditionalProfiles, 0 virtualInvokeProfiles, 0 monitorProfiles, "
            "0 samplingProfiles, 0 instanceofProfiles\n"
            "dropped (dangling): 0 methods, 0 callCountProfiles, 0 conditionalProfiles, "
            "0 virtualInvokeProfiles, 0 monitorProfiles, 0 samplingProfiles, "
            "0 instanceofProfiles\n"
            "dropped (keys iprof does not read): %d elements (the first: %s)\n"
            "last complete element ends at offset %d; bytes lost: 0 of %d\n"
            % (TYPES + 1, METHODS, METHODS, UNREAD, FIRST, size, size)))
        with open(out_path, "rb") as f:
            self.assertEqual(f.read(), profile(False))
        code, out, err = self.on("dirty", "repair", "--drop-unknown", "--json", "p.iprof",
                                 "-o", "out.iprof")
        doc = json.loads(out)
        self.assertEqual((code, doc["intact"], doc["damage"], doc["unread_dropped"],
                          doc["unread_first"]), (4, False, None, UNREAD, FIRST))
        code, out, err = self.on("clean", "repair", "--json", "p.iprof", "-o", "-")
        doc = json.loads(err)
        self.assertEqual((code, out, doc["intact"], doc["unread_dropped"], doc["unread_first"]),
                         (0, profile(False), True, 0, None))
        # damaged too: 1, as for any damage; the count is of what was kept
        cut = profile(True)
        cut = cut[:cut.index(b'{"ctx":"1000:0"') + 5]
        with open(self.remove_later("cut.iprof"), "wb") as f:
            f.write(cut)
        kept = TYPES + METHODS + 999
        code, out, err = self.on("dirty", "repair", "cut.iprof", "-o", "out.iprof")
        self.assertEqual((code, out), (3, b""))
        code, out, err = self.on("dirty", "repair", "--drop-unknown", "cut.iprof", "-o",
                                 "out.iprof")
        self.assertEqual((code, err), (1, SUMMARY.replace("p.iprof", "cut.iprof").replace(
            str(UNREAD), str(kept))))
        lines = out.decode().splitlines()
        self.assertTrue(lines[0].startswith("cut.iprof: damaged at offset %d " % len(cut)),
                        lines[0])
        self.assertEqual(lines[3], "dropped (keys iprof does not read): %d elements (the first: "
                         "%s)" % (kept, FIRST))

    def test_a_failed_read_sums_them_up_too(self):
        """A read that fails lists its other diagnostics and its error, and
        sums up the elements it read with such keys in the same line."""
        cut = profile(True)
        cut = cut[:cut.index(b'{"ctx":"1000:0"') + 5]
        kept = TYPES + METHODS + 999
        for args in (["stats"], ["flame"], ["cat"], ["merge"]):
            code, out, err = run(*args, "-", stdin=cut)
            self.assertEqual((code, out, err), (1, b"", (
                "<stdin>: warning: %d elements have keys iprof does not read (the first: %s)\n"
                "<stdin>:1:%d: callCountProfiles[999]: unexpected end of input\n"
                "<stdin>: damaged or cut short; to save what comes before the damage: "
                "iprof repair - -o OUT\n"
                % (kept, FIRST, len(cut) + 1))), args)

    def test_the_command_help_names_status_4(self):
        code, out, err = run("--help")
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.endswith(
            b"Exit status:\n0 on success, 1 if a file is invalid, 2 on usage or I/O errors, 3 if\n"
            b"repair wrote nothing, 4 if a profile was written without keys\n"
            b"--drop-unknown dropped (iprof(1), EXIT STATUS).\n"), out[-300:])

    def test_one_element_and_stdin(self):
        doc = profile(False).replace(b'"name":"T2"', b'"name":"T2","y":{}')
        said = '<stdin>: warning: 1 element has keys iprof does not read (the first: ' \
               'types[2], key "y")\n'
        self.assertEqual(run("stats", "-", stdin=doc)[0::2], (0, said))
        self.assertEqual(run("cat", "-", stdin=doc), (1, b"", said + (
            "iprof cat: <stdin>: refused: the output would lack the keys of 1 element that "
            "iprof does not read (--drop-unknown writes without them)\n")))
        self.assertEqual(run("cat", "--drop-unknown", "-", stdin=doc), (4, profile(False), said + (
            "iprof cat: <stdin>: written without the keys of 1 element that iprof does not "
            "read (--drop-unknown)\n")))


if __name__ == "__main__":
    sys.exit(main(__name__))
