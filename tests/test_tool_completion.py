#!/usr/bin/env python3
"""iprof completion bash, and the help generated from the same table.

The script is sourced into a real bash and asked for completions the way
bash asks (COMP_WORDS, COMP_CWORD, then _iprof); the answers are compared
with exact lists. Then, for every subcommand, the options it completes are
exactly those its --help lists, and each one is accepted by the parser: the
three cannot drift apart. The file meson installs for bash-completion is
the command's output.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from tooltest import DATA, IPROF, main, run

BUILD = os.environ.get("IPROF_BUILD_DIR", "")

COMMANDS = ["validate", "stats", "cat", "flame", "export", "merge", "convert", "filter", "diff",
            "coverage", "show", "fit", "repair", "completion"]


def script():
    code, out, err = run("completion", "bash")
    assert (code, err) == (0, ""), (code, err)
    return out.decode()


class Completion(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("bash"):
            raise unittest.SkipTest("bash is not installed")
        cls.top = tempfile.mkdtemp(prefix="iprof-completion-")
        cls.path = os.path.join(cls.top, "iprof.bash")
        cls.tmp = os.path.join(cls.top, "work")
        os.mkdir(cls.tmp)
        with open(cls.path, "w") as f:
            f.write(script())
        for name in ("a.iprof", "b.iprof", "notes.txt"):
            open(os.path.join(cls.tmp, name), "w").close()
        os.mkdir(os.path.join(cls.tmp, "dir"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.top)

    def complete(self, line):
        """What bash offers at the end of `line` (words split as bash does,
        '=' a word of its own)."""
        words = re.findall(r"=|[^\s=]+", line)
        if line.endswith(" ") or not words:
            words.append("")
        prog = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); '
                '_iprof; printf "%s\\n" "${COMPREPLY[@]}"')
        p = subprocess.run(["bash", "--norc", "-c", prog, "bash", self.path] + words,
                           cwd=self.tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(p.stderr, "")
        return sorted(x for x in p.stdout.split("\n") if x)

    def test_commands(self):
        self.assertEqual(self.complete("iprof "), sorted(COMMANDS + ["--help", "--version"]))
        self.assertEqual(self.complete("iprof c"), ["cat", "completion", "convert", "coverage"])
        self.assertEqual(self.complete("iprof f"), ["filter", "fit", "flame"])
        self.assertEqual(self.complete("iprof st"), ["stats"])
        self.assertEqual(self.complete("iprof rep"), ["repair"])

    def test_options(self):
        self.assertEqual(self.complete("iprof stats --"), ["--help", "--json", "--strict",
                                                          "--version"])
        self.assertEqual(self.complete("iprof cat --dr"), ["--drop-instanceof", "--drop-unknown"])
        self.assertEqual(self.complete("iprof validate -"), ["--help", "--strict", "--version",
                                                             "-h"])

    def test_values(self):
        self.assertEqual(self.complete("iprof convert --to "), ["0.2.0", "0.4.0", "1.0.0",
                                                                 "1.1.0"])
        self.assertEqual(self.complete("iprof convert --to 1."), ["1.0.0", "1.1.0"])
        self.assertEqual(self.complete("iprof convert --to="), ["0.2.0", "0.4.0", "1.0.0",
                                                                 "1.1.0"])
        self.assertEqual(self.complete("iprof convert --to=0.4"), ["0.4.0"])
        self.assertEqual(self.complete("iprof flame x --kind s"), ["sampling"])
        self.assertEqual(self.complete("iprof export -f "), ["firefox", "speedscope"])
        self.assertEqual(self.complete("iprof merge --instanceof-key "),
                         ["instanceOf", "instanceof"])
        self.assertEqual(self.complete("iprof filter --kinds m"), ["monitor"])
        # A value that is free text gets nothing, not file names.
        self.assertEqual(self.complete("iprof filter --min-count "), [])
        self.assertEqual(self.complete("iprof flame --title "), [])

    def test_files(self):
        self.assertEqual(self.complete("iprof stats "), ["a.iprof", "b.iprof", "dir",
                                                        "notes.txt"])
        self.assertEqual(self.complete("iprof diff a.iprof "), ["a.iprof", "b.iprof", "dir",
                                                               "notes.txt"])
        self.assertEqual(self.complete("iprof cat a.iprof -o a"), ["a.iprof"])
        self.assertEqual(self.complete("iprof coverage --lcov n"), ["notes.txt"])
        self.assertEqual(self.complete("iprof completion "), ["bash"])
        self.assertEqual(self.complete("iprof nosuch "), [])


def help_options(cmd):
    """The options a subcommand's --help lists, as completion spells them."""
    code, out, err = run(cmd, "--help")
    assert (code, err) == (0, ""), (cmd, code, err)
    opts = []
    for line in out.decode().splitlines():
        m = re.match(r"  (-\w, )?(--[\w-]+)", line)
        if m:
            opts += ([m.group(1)[:2]] if m.group(1) else []) + [m.group(2)]
    return sorted(opts)


class SameTable(unittest.TestCase):
    def test_completion_lists_what_help_lists(self):
        text = script()
        for cmd in COMMANDS:
            m = re.search(r"\n        %s\)\n            opts='([^']*)'" % cmd, text)
            self.assertIsNotNone(m, cmd)
            self.assertEqual(sorted(m.group(1).split()), help_options(cmd), cmd)

    def test_parser_accepts_every_option(self):
        """Every option --help lists parses as --help says: one without a
        value goes before --help, which then prints the help; one with a
        value (a metavar in its help line) without it is refused as
        missing that value, not as unknown."""
        for cmd in COMMANDS:
            code, help_text, err = run(cmd, "--help")
            valued = {}
            for line in help_text.decode().splitlines():
                m = re.match(r"  (?:(-\w), )?(--[\w-]+)( \S+)?  ", line)
                if m:
                    for opt in filter(None, (m.group(1), m.group(2))):
                        valued[opt] = m.group(3) is not None
            self.assertEqual(sorted(valued), help_options(cmd), cmd)
            for opt, takes_value in valued.items():
                if opt in ("-h", "--help", "--version"):
                    continue
                if takes_value:
                    self.assertEqual(run(cmd, opt), (2, b"",
                                     "iprof %s: option '%s' needs a value\n"
                                     "Try 'iprof %s --help' for more information.\n"
                                     % (cmd, opt, cmd)), (cmd, opt))
                else:
                    self.assertEqual(run(cmd, opt, "--help"), (0, help_text, ""), (cmd, opt))

    def test_top_level_help_lists_every_command(self):
        code, out, err = run("--help")
        listed = re.findall(r"^  ([a-z]+) ", out.decode(), re.M)
        self.assertEqual(listed, COMMANDS)

    def test_generated_help_layout(self):
        code, out, err = run("stats", "--help")
        self.assertEqual(out.decode(), (
            "Usage: iprof stats [--json] [--strict] FILE\n"
            "Summarise an iprof file: version, types, methods, distinct contexts and\n"
            "their largest depth, entries and total count per profile kind, and the\n"
            "10 hottest methods by call count.\n"
            "\n"
            "  --json      print one JSON object (keys in docs/commands.md)\n"
            "  --strict    load in strict mode (fail on the first rule violation)\n"
            "  -h, --help  show this help and exit\n"
            "  --version   show the version and exit\n"
            "\n"
            "FILE '-' is standard input. Problems are reported like 'iprof validate'\n"
            "does. Exit status: 0 on success, 1 if FILE is invalid, 2 on usage or\n"
            "I/O errors.\n"))

    def test_usage_errors(self):
        hint = "Try 'iprof completion --help' for more information.\n"
        self.assertEqual(run("completion"), (2, b"", "iprof completion: no shell given (bash)\n"
                                                     + hint))
        self.assertEqual(run("completion", "zsh"),
                         (2, b"", "iprof completion: unknown shell 'zsh' (bash is the one "
                                  "known)\n" + hint))
        self.assertEqual(run("completion", "bash", "bash"),
                         (2, b"", "iprof completion: only one shell is allowed\n" + hint))

    def test_installed_file_is_the_output(self):
        if not BUILD:
            self.skipTest("IPROF_BUILD_DIR not set")
        with open(os.path.join(BUILD, "tools", "completion", "iprof")) as f:
            self.assertEqual(f.read(), script())


if __name__ == "__main__":
    raise SystemExit(main(__name__))
