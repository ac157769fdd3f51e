#!/usr/bin/env python3
"""Run a browser test of the viewer subcommands in headless Chromium:

  run.py flame        `iprof flame --html` of tests/data/flame-small-1.0.0.iprof
                      (tests/browser/flame.js: frames, screenshot pixels,
                      hover tooltip, click zoom, search, reset)
  run.py speedscope   `iprof export --format speedscope` loaded by the
                      speedscope web app of the speedscope npm package,
                      served on 127.0.0.1 (tests/browser/speedscope.js);
                      also the corpus file jsonata-cli-0.4.0.iprof when
                      IPROF_CORPUS_DIR has it

The Node packages (playwright-core, speedscope) are installed with
`npm ci` from the committed package-lock.json into
$IPROF_BUILD_DIR/tests/browser-deps (once per lockfile; a lock file
serialises parallel tests); playwright-core drives Debian's chromium
(/usr/bin/chromium, or $CHROMIUM), it downloads no browser. Screenshots
and inputs go to $IPROF_BUILD_DIR/tests/browser-out/.

Exits 77 (skipped), saying why, when node, npm or chromium is missing
(scripts/test.sh installs them). Prints "N passed, N failed" last.
"""
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("IPROF_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("IPROF_BUILD_DIR") or os.path.join(SOURCE, "build")
DATA = os.path.join(SOURCE, "tests", "data")
IPROF = os.path.abspath(os.environ["IPROF"]) if os.environ.get("IPROF") else ""
CORPUS = os.environ.get("IPROF_CORPUS_DIR", "")
CHROMIUM = os.environ.get("CHROMIUM") or "/usr/bin/chromium"


def skip(why):
    print("skipped: " + why)
    print("0 passed, 0 failed")
    sys.exit(77)


def install_deps():
    """npm ci into the build dir unless the same lockfile is installed."""
    deps = os.path.join(BUILD, "tests", "browser-deps")
    os.makedirs(deps, exist_ok=True)
    with open(os.path.join(HERE, "package-lock.json"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(deps, "installed.stamp")
    with open(os.path.join(deps, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.isfile(stamp) and open(stamp).read() == digest and \
                os.path.isdir(os.path.join(deps, "node_modules", "playwright-core")):
            return deps
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(os.path.join(HERE, name), os.path.join(deps, name))
        if os.path.exists(stamp):
            os.unlink(stamp)
        p = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts",
                            "--loglevel=error"], cwd=deps, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=600)
        if p.returncode != 0:
            print(p.stdout.decode("utf-8", "replace"))
            print("npm ci failed (exit %d)" % p.returncode)
            print("0 passed, 1 failed")
            sys.exit(1)
        with open(stamp, "w") as f:
            f.write(digest)
    return deps


def iprof(*args):
    p = subprocess.run([IPROF] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        print("iprof %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr.decode()))
        print("0 passed, 1 failed")
        sys.exit(1)


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which not in ("flame", "speedscope"):
        print("usage: run.py flame|speedscope", file=sys.stderr)
        return 2
    if not IPROF or not os.access(IPROF, os.X_OK):
        skip("IPROF is not set to the built iprof command")
    for tool in ("node", "npm"):
        if not shutil.which(tool):
            skip("%s is not installed (apt-get install nodejs npm; scripts/test.sh does)" % tool)
    if not os.access(CHROMIUM, os.X_OK):
        skip("%s is not installed (apt-get install chromium; scripts/test.sh does)" % CHROMIUM)
    deps = install_deps()
    out = os.path.join(BUILD, "tests", "browser-out")
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, BROWSER_DEPS=os.path.join(deps, "node_modules"), CHROMIUM=CHROMIUM,
               BROWSER_OUT=out)
    small = os.path.join(DATA, "flame-small-1.0.0.iprof")
    if which == "flame":
        page = os.path.join(out, "flame-small.html")
        iprof("flame", "--html", small, "-o", page)
        args = [os.path.join(HERE, "flame.js"), page]
    else:
        args = [os.path.join(HERE, "speedscope.js")]
        exports = [("small", small)]
        corpus = os.path.join(CORPUS, "jsonata-cli-0.4.0.iprof") if CORPUS else ""
        if corpus and os.path.isfile(corpus):
            exports.append(("jsonata", corpus))
        else:
            print("note: corpus file jsonata-cli-0.4.0.iprof absent (IPROF_CORPUS_DIR=%r): "
                  "only the small file is loaded" % CORPUS)
        for name, src in exports:
            dst = os.path.join(out, "speedscope-%s.json" % name)
            iprof("export", "--format", "speedscope", src, "-o", dst)
            args.append(dst)
    p = subprocess.run(["node"] + args, env=env, timeout=600)
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
