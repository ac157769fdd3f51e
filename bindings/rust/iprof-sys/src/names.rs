// The shared library's file names per target OS, in the order they are
// looked for; shared by build.rs (include!) and lib.rs, where a test
// checks every system's order. They follow the names meson gives the
// library: libiprof.so.1 (Linux and other ELF systems; libiprof.so is the
// development link the linker uses), libiprof.1.dylib and libiprof.dylib
// (macOS, expected to work and not tested), iprof.dll with its import
// library iprof.dll.a (Windows, mingw-w64 / the GNU target).

/// The file names of libiprof for `target_os` (Cargo's
/// `CARGO_CFG_TARGET_OS`, Rust's `std::env::consts::OS`), the one the
/// linker takes first, then the one loaded at run time.
pub fn library_file_names(target_os: &str) -> &'static [&'static str] {
    match target_os {
        "windows" => &["iprof.dll.a", "iprof.dll"],
        "macos" | "ios" => &["libiprof.dylib", "libiprof.1.dylib"],
        _ => &["libiprof.so", "libiprof.so.1"],
    }
}
