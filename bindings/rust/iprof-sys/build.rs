//! Finds libiprof for the linker, without any crate from crates.io.
//!
//! 1. `IPROF_LIB_DIR` set: link `-liprof` from that directory (for example
//!    a meson build directory's `lib/`).
//! 2. Otherwise ask the `pkg-config` command (`$PKG_CONFIG` if set) for
//!    `--libs iprof` and translate its `-L` and `-l` flags.
//! 3. If pkg-config is absent or does not know iprof, fall back to a plain
//!    `-liprof` so that a library installed in the default search path
//!    still links.
//!
//! 4. On docs.rs (`DOCS_RS` set) nothing is linked: documentation needs
//!    no library, and docs.rs has none installed.
//!
//! The directory found is exported to dependents as `DEP_IPROF_LIB_DIR`
//! (thanks to `links = "iprof"`). The library's file names on the target
//! system (`src/names.rs`: libiprof.so, libiprof.dylib, iprof.dll.a) are
//! what `-liprof` finds; an `IPROF_LIB_DIR` holding none of them gets a
//! warning naming what was looked for.

use std::env;
use std::path::Path;
use std::process::Command;

include!("src/names.rs");

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=IPROF_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_LIBDIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_SYSROOT_DIR");
    println!("cargo:rerun-if-env-changed=DOCS_RS");

    if env::var_os("DOCS_RS").is_some() {
        return;
    }

    if let Some(dir) = env::var_os("IPROF_LIB_DIR").filter(|d| !d.is_empty()) {
        let dir = dir.to_string_lossy().into_owned();
        let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
        let names = library_file_names(&os);
        if !names.iter().any(|n| Path::new(&dir).join(n).exists()) {
            println!("cargo:warning=IPROF_LIB_DIR={dir} holds none of {}", names.join(", "));
        }
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-lib=iprof");
        println!("cargo:lib_dir={dir}");
        return;
    }

    let pkg_config = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    match Command::new(&pkg_config).args(["--libs", "iprof"]).output() {
        Ok(out) if out.status.success() => {
            let flags = String::from_utf8_lossy(&out.stdout).into_owned();
            let mut linked = false;
            for flag in flags.split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-L") {
                    println!("cargo:rustc-link-search=native={dir}");
                    println!("cargo:lib_dir={dir}");
                } else if let Some(lib) = flag.strip_prefix("-l") {
                    println!("cargo:rustc-link-lib={lib}");
                    linked |= lib == "iprof";
                }
                // Other flags (-pthread, -Wl,...) are not needed by a
                // shared libiprof and are ignored.
            }
            if !linked {
                println!("cargo:rustc-link-lib=iprof");
            }
        }
        Ok(out) => {
            println!(
                "cargo:warning=`{pkg_config} --libs iprof` failed ({}); linking -liprof from the \
                 default search path (set IPROF_LIB_DIR or PKG_CONFIG_PATH)",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            println!("cargo:rustc-link-lib=iprof");
        }
        Err(err) => {
            println!(
                "cargo:warning=cannot run `{pkg_config}` ({err}); linking -liprof from the \
                 default search path (set IPROF_LIB_DIR)"
            );
            println!("cargo:rustc-link-lib=iprof");
        }
    }
}
