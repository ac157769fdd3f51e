#!/usr/bin/env python3
"""Run the Rust bindings' tests for meson (suite 'bindings').

    meson_test.py test      cargo test --offline (all tests, doc tests too)
    meson_test.py example   cargo run --offline --example example -- FIB
    meson_test.py package   cargo package --offline --workspace and
                            cargo doc --offline: both without a warning,
                            the crates holding what crates.io needs

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
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIB = os.path.join(HERE, "..", "..", "examples", "fib.iprof")


def cargo(*args, **kw):
    cmd = [os.environ.get("CARGO", "cargo")] + list(args)
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=HERE, **kw)


# What each packaged crate must hold beyond its sources.
CRATE_FILES = {
    "iprof-sys": ["Cargo.toml", "README.md", "build.rs", "src/lib.rs"],
    "iprof": ["Cargo.toml", "README.md", "src/lib.rs", "examples/example.rs"],
}
# The metadata crates.io shows, which cargo package does not insist on.
CRATE_KEYS = ["description", "license", "documentation", "readme", "keywords",
              "categories", "rust-version", "links"]


def check_quiet(what, proc):
    """Fail on any warning cargo, rustc or rustdoc printed."""
    text = proc.stdout + proc.stderr
    sys.stdout.write(text)
    if proc.returncode:
        print("FAIL: %s exited %d" % (what, proc.returncode))
        return 1
    warnings = [l for l in text.splitlines() if l.lstrip().startswith("warning")]
    if warnings:
        print("FAIL: %s printed %d warning(s): %s" % (what, len(warnings), warnings[0]))
        return 1
    return 0


def package():
    """cargo package of both crates (iprof depends on iprof-sys, so they are
    packaged together, as cargo publish --workspace would) and docs.rs-like
    documentation, all offline and without a warning. In a CARGO_HOME of
    its own: the verification unpacks iprof-sys (of its version) from a local registry
    into CARGO_HOME and would reuse a copy left by an earlier run, whatever
    its sources say now."""
    home = tempfile.mkdtemp(prefix="iprof-cargo-home-")
    try:
        return package_in(home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def package_in(home):
    failed = 0
    os.environ["CARGO_HOME"] = home
    out = dict(stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    # Packages both crates, then builds each alone, as crates.io users get it.
    failed += check_quiet("cargo package", cargo(
        "package", "--offline", "--workspace", "--allow-dirty", **out))
    meta = json.loads(cargo("metadata", "--offline", "--no-deps", "--format-version=1",
                            **out).stdout)
    for pkg in meta["packages"]:
        name = pkg["name"]
        listing = cargo("package", "--offline", "--allow-dirty", "--list", "-p", name, **out)
        files = listing.stdout.split()
        for need in CRATE_FILES[name]:
            if need not in files:
                print("FAIL: the %s crate lacks %s (it holds %s)" % (name, need, files))
                failed += 1
        for key in CRATE_KEYS:
            if key == "links" and name != "iprof-sys":
                continue
            if not pkg.get(key if key != "rust-version" else "rust_version"):
                print("FAIL: %s has no %s in Cargo.toml" % (name, key))
                failed += 1
        if pkg["version"] != os.environ.get("IPROF_VERSION", pkg["version"]):
            print("FAIL: %s is version %s, the C library %s"
                  % (name, pkg["version"], os.environ["IPROF_VERSION"]))
            failed += 1
    # docs.rs builds with DOCS_RS set and no libiprof; warnings are errors.
    doc_env = dict(os.environ, DOCS_RS="1", RUSTDOCFLAGS="-D warnings")
    doc_env.pop("IPROF_LIB_DIR", None)
    failed += check_quiet("cargo doc", cargo("doc", "--offline", "--no-deps", "--workspace",
                                             env=doc_env, **out))
    print("%d passed, %d failed" % (1 if not failed else 0, failed))
    return 1 if failed else 0


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "test"
    if mode == "package":
        return package()
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
