"""The example script (docs/bindings.md, bindings/python/examples/example.py)
runs and prints exactly what the documentation shows."""
import os
import subprocess
import sys
import unittest

import support

EXPECTED = """\
error: type is missing "name" at line 1, column 32, types[0] (IPROF_ESCHEMA)
version 1.1.0: 17 types, 10 methods
callCountProfiles      9
conditionalProfiles    2
virtualInvokeProfiles  1
monitorProfiles        1
samplingProfiles       2
instanceofProfiles     1
hottest call count: 10 at java.lang.Thread.sleep:0 < Fib.fibonacci:14 (6:0<3:14), \
frames [(6, 0), (3, 14)]
method 3 is Fib.fibonacci
calls counted while streaming: 54
conditional at 3:11: [20, 0, 10, 53, 1, 1]
conditional at 5:1<4:2<3:34: [6, 0, 0, 9, 1, 10]
after merge: 30
stale entry detected
written 1691 bytes; reloaded 9 call counts, fibonacci called 1003 times
model closed
"""


class ExampleTest(unittest.TestCase):
    def run_example(self, *args, cwd=None):
        return subprocess.run([sys.executable, support.EXAMPLE, *args], capture_output=True,
                              text=True, cwd=cwd, env=os.environ.copy(), timeout=120)

    def test_example_output(self):
        p = self.run_example()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        self.assertEqual(p.stdout, EXPECTED)

    def test_example_from_another_directory(self):
        p = self.run_example(support.FIB, cwd="/")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, EXPECTED)

    def test_docs_show_the_example(self):
        """docs/bindings.md quotes the script verbatim."""
        docs = os.path.join(support.SOURCE_ROOT, "docs", "bindings.md")
        with open(docs, encoding="utf-8") as f:
            text = f.read()
        with open(support.EXAMPLE, encoding="utf-8") as f:
            script = f.read()
        self.assertIn("```python\n" + script + "```\n", text)
        self.assertIn("```\n" + EXPECTED + "```\n", text)


if __name__ == "__main__":
    unittest.main()
