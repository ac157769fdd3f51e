#!/usr/bin/env python3
"""Run the Rust bindings' tests for meson (suite 'bindings').

    meson_test.py test      cargo test --offline (all tests, doc tests too)
    meson_test.py example   cargo run --offline --example example -- FIB

Environment (set by bindings/meson.build): IPROF_LIB_DIR and
LD_LIBRARY_PATH (the library just built), CARGO_TARGET_DIR (inside the
build directory), CARGO (the cargo program), IPROF_CORPUS_DIR, and
IPROF_ASAN_PRELOAD when the library is built with AddressSanitizer: the
shared ASan runtime, which must be loaded first into every program that
loads the library. Cargo and rustc are then run without it (they are not
instrumented and must not be): the test programs are built with
`--no-run` and run here, each with the runtime preloaded. Doc tests, which
rustdoc runs itself, are left to the build without sanitizers.

Exits with cargo's status (non-zero on any failed test) or the first
failing test program's.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIB = os.path.join(HERE, "..", "..", "examples", "fib.iprof")


def cargo(*args, **kw):
    cmd = [os.environ.get("CARGO", "cargo")] + list(args)
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=HERE, **kw)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "test"
    preload = os.environ.pop("IPROF_ASAN_PRELOAD", "")
    if not preload:
        if mode == "test":
            return cargo("test", "--offline").returncode
        return cargo("run", "--offline", "--example", "example", "--", FIB).returncode

    # Sanitizer build: build with cargo, run the programs here.
    run_env = dict(os.environ, LD_PRELOAD=preload)
    if mode == "example":
        rc = cargo("build", "--offline", "--example", "example").returncode
        if rc:
            return rc
        exe = os.path.join(os.environ["CARGO_TARGET_DIR"], "debug", "examples", "example")
        print("+", exe, FIB, flush=True)
        return subprocess.run([exe, FIB], env=run_env).returncode
    out = cargo("test", "--offline", "--no-run", "--message-format=json",
                stdout=subprocess.PIPE, universal_newlines=True)
    if out.returncode:
        return out.returncode
    exes = []
    for line in out.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") \
                and msg.get("profile", {}).get("test"):
            exes.append(msg["executable"])
    if not exes:
        print("no test programs were built", file=sys.stderr)
        return 1
    failed = 0
    for exe in exes:
        print("+ LD_PRELOAD=%s %s" % (preload, exe), flush=True)
        if subprocess.run([exe], cwd=os.path.join(HERE, "iprof"), env=run_env).returncode:
            failed += 1
    print("%d test programs passed, %d failed (doc tests are not run under the sanitizer)"
          % (len(exes) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
