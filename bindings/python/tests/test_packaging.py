"""Packaging: pyproject.toml builds a clean wheel offline with Debian's pip,
setuptools and wheel (--no-build-isolation), the wheel and `pip install` of
the source tree install into venvs, and the installed package finds
libiprof by IPROF_LIBRARY or by SONAME (never a build directory near its
install location); mypy --strict accepts the package and, through its
py.typed marker, a typed program using the installed package.

Env: IPROF_LIBRARY (the built library, required), IPROF_PIP_PYTHON (the
interpreter with pip, setuptools, wheel and venv: default /usr/bin/python3,
Debian's, which need not be the python3 on PATH), IPROF_MYPY (default: mypy
on PATH), IPROF_PROJECT_VERSION (meson's project version; default: read from
meson.build). Tests skip, saying why, when a tool is missing. The source
tree is copied before building (pip builds in place and would leave build/
and iprof.egg-info behind); a last test checks that the checkout is as it
was.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

from support import FIB, PACKAGE_ROOT, SOURCE_ROOT

PIP_PYTHON = os.environ.get("IPROF_PIP_PYTHON", "/usr/bin/python3")
LIBRARY = os.environ.get("IPROF_LIBRARY", "")
VERSION_RE = re.compile(r"^__version__ = \"([^\"]+)\"$", re.M)



def package_files():
    """The files the wheel must hold besides its .dist-info, exactly: the
    package's modules and its py.typed marker (no tests/, examples/ or
    __pycache__)."""
    here = os.path.join(PACKAGE_ROOT, "iprof")
    return sorted("iprof/" + n for n in os.listdir(here) if n.endswith(".py") or n == "py.typed")


# What the installed package reports on examples/fib.iprof, run from a
# temporary directory outside the checkout.
PROBE = r'''
import importlib.metadata, json, os, sys
import iprof
with iprof.load(sys.argv[1]) as model:
    out = {
        "file": os.path.realpath(iprof.__file__),
        "version": iprof.__version__,
        "dist_version": importlib.metadata.version("iprof"),
        "library_path": iprof.library_path(),
        "library_version": iprof.library_version(),
        "format": model.version,
        "types": len(model.types),
        "methods": [[m.id, m.name] for m in model.methods][:3],
        "call_count": [[str(e.context), list(e.records)] for e in model.call_count],
        "conditional": [[str(e.context), list(e.records)] for e in model.conditional],
        "describe": model.call_count[4].context.describe(),
    }
with open("/proc/self/maps") as maps:
    out["mapped"] = sorted({os.path.realpath(line.split(None, 5)[5].strip())
                            for line in maps if "libiprof" in line})
print(json.dumps(out))
'''

# A typed program using the installed package: mypy --strict must accept
# it (it needs the package's py.typed) and reject the same with a wrong type.
USER_PROGRAM = '''
import iprof

def hottest(path: str) -> tuple[str, int]:
    with iprof.load(path) as model:
        best = max(model.call_count, key=lambda e: e.records[0])
        return best.context.describe(), best.records[0]

name: str = hottest("fib.iprof")[0]
'''
USER_PROGRAM_WRONG = USER_PROGRAM.replace("name: str", "name: bytes")

FIB_CALL_COUNT = [["1:0", [1]], ["2:0<1:5", [1]], ["7:0<2:1<1:5", [1]], ["3:0", [1]],
                  ["6:0<3:14", [10]], ["4:0<3:34", [10]], ["5:0<4:2<3:34", [10]],
                  ["8:0<3:27", [10]], ["9:0<3:31", [10]]]
FIB_CONDITIONAL = [["3:11", [20, 0, 10, 53, 1, 1]], ["5:1<4:2<3:34", [6, 0, 0, 9, 1, 10]]]


def meson_version():
    """meson.build's project version (IPROF_PROJECT_VERSION when meson runs us)."""
    if os.environ.get("IPROF_PROJECT_VERSION"):
        return os.environ["IPROF_PROJECT_VERSION"]
    with open(os.path.join(SOURCE_ROOT, "meson.build"), encoding="utf-8") as f:
        m = re.search(r"project\('libiprof'.*?version: '([^']+)'", f.read(), re.S)
    return m.group(1)


def package_version():
    with open(os.path.join(PACKAGE_ROOT, "iprof", "__init__.py"), encoding="utf-8") as f:
        return VERSION_RE.search(f.read()).group(1)


def clean_env(**extra):
    """The environment for pip and the venvs: no user pip configuration
    (find-links, indexes), no PYTHONPATH into the checkout, no library
    search hints unless given in *extra* (None removes a variable)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "PYTHON", "IPROF_", "VIRTUAL_ENV"))
           and k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_NO_INDEX="1", PIP_NO_INPUT="1", PYTHONDONTWRITEBYTECODE="1")
    for k, v in extra.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def run(args, cwd, env=None, check=True):
    p = subprocess.run(args, cwd=cwd, env=env if env is not None else clean_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=240)
    if check and p.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s" % (" ".join(args), p.returncode, p.stdout))
    return p


def mypy_cache(tmp):
    """mypy's cache: in the build directory when meson runs us (later runs
    are faster), else under *tmp*."""
    build = os.environ.get("IPROF_BUILD_DIR")
    return os.path.join(build, "mypy-cache") if build and os.path.isdir(build) else tmp


def git_status():
    """`git status --porcelain --ignored` of bindings/python, None without git."""
    git = shutil.which("git")
    if not git or not os.path.isdir(os.path.join(SOURCE_ROOT, ".git")) and not os.path.isfile(
            os.path.join(SOURCE_ROOT, ".git")):
        return None
    p = subprocess.run([git, "status", "--porcelain", "--ignored", "--", "bindings/python"],
                       cwd=SOURCE_ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True)
    return p.stdout if p.returncode == 0 else None


class Versions(unittest.TestCase):
    def test_package_version_is_meson_project_version(self):
        self.assertEqual(package_version(), meson_version())

    def test_pyproject_takes_the_version_from_the_package(self):
        try:
            import tomllib
        except ImportError:
            self.skipTest("tomllib needs Python 3.11")
        with open(os.path.join(PACKAGE_ROOT, "pyproject.toml"), "rb") as f:
            project = tomllib.load(f)
        self.assertEqual(project["project"]["name"], "iprof")
        self.assertEqual(project["project"]["dynamic"], ["version"])
        self.assertEqual(project["tool"]["setuptools"]["dynamic"]["version"],
                         {"attr": "iprof.__version__"})
        self.assertEqual(project["tool"]["setuptools"]["package-data"], {"iprof": ["py.typed"]})


class SourceTreeLookup(unittest.TestCase):
    """Build directories are searched only by the package of a checkout
    (<root>/bindings/python/iprof), never by a copy installed elsewhere,
    even one under a directory that looks like a checkout."""

    CANDIDATES = ("import json, sys, iprof._lib as L; "
                  "print(json.dumps(L._source_tree_candidates()))")

    def candidates(self, package_parent, **env):
        p = run([sys.executable, "-c", self.CANDIDATES], cwd=package_parent,
                env=clean_env(PYTHONPATH=package_parent, **env))
        return json.loads(p.stdout)

    def test_the_checkout_searches_its_build_directories(self):
        self.assertEqual(self.candidates(PACKAGE_ROOT, IPROF_BUILD_DIR="/b"),
                         ["/b/lib/libiprof.so.1",
                          os.path.join(SOURCE_ROOT, "build", "lib", "libiprof.so.1")])

    def test_an_installed_copy_does_not(self):
        with tempfile.TemporaryDirectory() as tmp:
            # <tmp> looks like a checkout three levels above the package, as
            # a prefix holding include/ and lib/ could.
            os.makedirs(os.path.join(tmp, "include", "iprof"))
            for name in ("meson.build", os.path.join("include", "iprof", "iprof.h")):
                open(os.path.join(tmp, name), "w").close()
            site = os.path.join(tmp, "python3", "site-packages")
            shutil.copytree(os.path.join(PACKAGE_ROOT, "iprof"), os.path.join(site, "iprof"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            self.assertEqual(self.candidates(site, IPROF_BUILD_DIR="/b"), [])


class TypeCheck(unittest.TestCase):
    """mypy --strict --warn-unreachable --no-warn-return-any (as configured
    in pyproject.toml: ctypes foreign functions return Any)."""

    def test_mypy_strict_accepts_the_package(self):
        mypy = os.environ.get("IPROF_MYPY") or shutil.which("mypy")
        if not mypy:
            self.skipTest("mypy not found (Debian: apt-get install mypy)")
        with tempfile.TemporaryDirectory() as tmp:
            p = run([mypy, "--config-file", os.path.join(PACKAGE_ROOT, "pyproject.toml"),
                     "--strict", "--warn-unreachable", "--no-warn-return-any",
                     "--cache-dir", mypy_cache(tmp), "-p", "iprof"],
                    cwd=PACKAGE_ROOT, env=clean_env(MYPYPATH=PACKAGE_ROOT), check=False)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(p.stdout, "Success: no issues found in %d source files\n" % len(
            [n for n in package_files() if n.endswith(".py")]))


class Installed(unittest.TestCase):
    """Build, install and use the package the way a user does, offline."""

    @classmethod
    def setUpClass(cls):
        cls.status_before = git_status()
        if not LIBRARY or not os.path.isfile(LIBRARY):
            raise unittest.SkipTest("IPROF_LIBRARY does not name the built library")
        if not os.path.isfile(PIP_PYTHON):
            raise unittest.SkipTest("%s not found (IPROF_PIP_PYTHON)" % PIP_PYTHON)
        probe = subprocess.run([PIP_PYTHON, "-c", "import setuptools, wheel, pip, ensurepip"],
                               env=clean_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        if probe.returncode != 0:
            raise unittest.SkipTest("%s lacks pip, setuptools, wheel or venv (Debian: "
                                    "python3-pip python3-setuptools python3-wheel "
                                    "python3-venv): %s" % (PIP_PYTHON, probe.stdout.strip()))
        cls.tmp = tempfile.mkdtemp(prefix="iprof-packaging-")
        try:
            cls._build_and_install()
        except BaseException:
            shutil.rmtree(cls.tmp, ignore_errors=True)
            raise

    @classmethod
    def _build_and_install(cls):
        tmp = cls.tmp
        # pip builds in the source directory: build from a copy.
        cls.src = os.path.join(tmp, "src")
        shutil.copytree(PACKAGE_ROOT, cls.src, ignore=shutil.ignore_patterns(
            "__pycache__", "*.pyc", "build", "*.egg-info", "dist"))
        dist = os.path.join(tmp, "dist")
        run([PIP_PYTHON, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
             "--no-index", cls.src, "-w", dist], cwd=tmp)
        wheels = os.listdir(dist)
        assert len(wheels) == 1, wheels
        cls.wheel = os.path.join(dist, wheels[0])
        # A plain venv gets the wheel; a venv seeing Debian's setuptools and
        # wheel (--system-site-packages) installs the source tree.
        cls.venv_wheel = os.path.join(tmp, "venv-wheel")
        run([PIP_PYTHON, "-m", "venv", cls.venv_wheel], cwd=tmp)
        run([cls.python(cls.venv_wheel), "-m", "pip", "install", "--no-index", cls.wheel],
            cwd=tmp)
        cls.venv_src = os.path.join(tmp, "venv-src")
        run([PIP_PYTHON, "-m", "venv", "--system-site-packages", cls.venv_src], cwd=tmp)
        run([cls.python(cls.venv_src), "-m", "pip", "install", "--no-index",
             "--no-build-isolation", cls.src], cwd=tmp)
        cls.work = os.path.join(tmp, "work")
        os.mkdir(cls.work)
        with open(os.path.join(cls.work, "probe.py"), "w", encoding="utf-8") as f:
            f.write(PROBE)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @staticmethod
    def python(venv):
        return os.path.join(venv, "bin", "python")

    def probe(self, venv, cwd=None, **env):
        p = run([self.python(venv), os.path.join(self.work, "probe.py"), FIB],
                cwd=cwd or self.work, env=clean_env(**env))
        return json.loads(p.stdout)

    def check_probe(self, out, venv):
        site = os.path.realpath(os.path.join(venv, "lib"))
        self.assertTrue(out["file"].startswith(site + os.sep), out["file"])
        self.assertTrue(out["file"].endswith(os.path.join("site-packages", "iprof",
                                                          "__init__.py")), out["file"])
        self.assertEqual(out["version"], meson_version())
        self.assertEqual(out["dist_version"], meson_version())
        self.assertEqual(out["library_version"], meson_version())
        self.assertEqual(out["mapped"], [os.path.realpath(LIBRARY)])
        self.assertEqual(out["format"], "1.1.0")
        self.assertEqual(out["types"], 17)
        self.assertEqual(out["methods"], [[1, "main"], [2, "<init>"], [3, "fibonacci"]])
        self.assertEqual(out["call_count"], FIB_CALL_COUNT)
        self.assertEqual(out["conditional"], FIB_CONDITIONAL)
        self.assertEqual(out["describe"], "java.lang.Thread.sleep:0 < Fib.fibonacci:14")

    def test_wheel_holds_the_package_and_nothing_else(self):
        self.assertEqual(os.path.basename(self.wheel),
                         "iprof-%s-py3-none-any.whl" % meson_version())
        with zipfile.ZipFile(self.wheel) as z:
            names = sorted(z.namelist())
            metadata = z.read("iprof-%s.dist-info/METADATA" % meson_version()).decode()
        info = "iprof-%s.dist-info/" % meson_version()
        self.assertIn("iprof/py.typed", package_files())
        self.assertEqual([n for n in names if not n.startswith(info)], package_files())
        for name in ("METADATA", "WHEEL", "RECORD"):
            self.assertIn(info + name, names)
        for line in ("Name: iprof", "Version: " + meson_version(), "License: MIT",
                     "Requires-Python: >=3.10", "Provides-Extra: dask",
                     "Requires-Dist: dask[bag] ; extra == 'dask'",
                     "Requires-Dist: distributed ; extra == 'dask'",
                     "Classifier: Typing :: Typed"):
            self.assertIn(line + "\n", metadata)

    def test_sdist_holds_no_build_leftovers(self):
        sdist_dir = os.path.join(self.tmp, "sdist")
        src = os.path.join(self.tmp, "src-sdist")
        shutil.copytree(PACKAGE_ROOT, src, ignore=shutil.ignore_patterns(
            "__pycache__", "*.pyc", "build", "*.egg-info", "dist"))
        run([PIP_PYTHON, "-c", "import sys; from setuptools import build_meta; "
             "print(build_meta.build_sdist(sys.argv[1]))", sdist_dir], cwd=src)
        import tarfile
        with tarfile.open(os.path.join(sdist_dir, "iprof-%s.tar.gz" % meson_version())) as t:
            names = t.getnames()
        prefix = "iprof-%s/" % meson_version()
        for name in ("pyproject.toml", "README.md", "PKG-INFO", "iprof/py.typed",
                     "iprof/_model.py"):
            self.assertIn(prefix + name, names)
        for name in names:
            self.assertNotIn("__pycache__", name)
            self.assertFalse(name.endswith(".pyc"), name)
            self.assertFalse(name.startswith(prefix + "build/"), name)

    def test_wheel_finds_the_library_by_IPROF_LIBRARY(self):
        out = self.probe(self.venv_wheel, IPROF_LIBRARY=LIBRARY)
        self.check_probe(out, self.venv_wheel)
        self.assertEqual(out["library_path"], LIBRARY)

    def test_wheel_finds_the_library_by_SONAME(self):
        out = self.probe(self.venv_wheel, LD_LIBRARY_PATH=os.path.dirname(LIBRARY))
        self.check_probe(out, self.venv_wheel)
        self.assertEqual(out["library_path"], "libiprof.so.1")

    def test_installed_package_ignores_build_directories(self):
        # From the checkout's root, with IPROF_BUILD_DIR naming the build and
        # no other hint, an installed package must not find the build's
        # library: build directories are for a package run from the source
        # tree only.
        found = run([self.python(self.venv_wheel), "-c",
                     "import ctypes.util; print(ctypes.util.find_library('iprof'))"],
                    cwd=self.work).stdout.strip()
        if found != "None":
            self.skipTest("a libiprof is installed system-wide (%s): it would be found" % found)
        p = run([self.python(self.venv_wheel), os.path.join(self.work, "probe.py"), FIB],
                cwd=SOURCE_ROOT, env=clean_env(IPROF_BUILD_DIR=os.path.dirname(
                    os.path.dirname(LIBRARY))), check=False)
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn("iprof._lib.LibraryError: libiprof not found", p.stdout)
        self.assertIn("tried libiprof.so.1;", p.stdout)

    def test_pip_install_of_the_source_tree(self):
        out = self.probe(self.venv_src, IPROF_LIBRARY=LIBRARY)
        self.check_probe(out, self.venv_src)
        self.assertEqual(out["library_path"], LIBRARY)
        out = self.probe(self.venv_src, LD_LIBRARY_PATH=os.path.dirname(LIBRARY))
        self.assertEqual(out["library_path"], "libiprof.so.1")
        self.assertEqual(out["mapped"], [os.path.realpath(LIBRARY)])

    def test_installed_package_has_py_typed_for_mypy(self):
        mypy = os.environ.get("IPROF_MYPY") or shutil.which("mypy")
        if not mypy:
            self.skipTest("mypy not found (Debian: apt-get install mypy)")
        d = os.path.join(self.tmp, "typed")
        os.mkdir(d)
        for name, text in (("good.py", USER_PROGRAM), ("bad.py", USER_PROGRAM_WRONG)):
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        args = [mypy, "--strict", "--cache-dir", mypy_cache(self.tmp),
                "--python-executable", self.python(self.venv_wheel)]
        p = run(args + ["good.py"], cwd=d, check=False)
        self.assertEqual(p.returncode, 0, p.stdout)
        p = run(args + ["bad.py"], cwd=d, check=False)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn('bad.py:9: error: Incompatible types in assignment (expression has type '
                      '"str", variable has type "bytes")  [assignment]', p.stdout)

    def test_z_checkout_unchanged(self):
        # Runs last (alphabetical order): nothing new in bindings/python,
        # ignored files (build/, *.egg-info) included.
        after = git_status()
        if after is None or self.status_before is None:
            self.skipTest("not a git checkout, or no git")
        self.assertEqual(after, self.status_before)


if __name__ == "__main__":
    unittest.main()
