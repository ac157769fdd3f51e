//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The repository's root (bindings/rust/iprof/../../..).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// examples/fib.iprof, the project's example profile.
pub fn fib_path() -> PathBuf {
    repo_root().join("examples/fib.iprof")
}

/// A file of the repository's tests/data.
pub fn data_path(name: &str) -> PathBuf {
    repo_root().join("tests/data").join(name)
}

/// The bytes of a file of tests/data.
pub fn data(name: &str) -> Vec<u8> {
    std::fs::read(data_path(name)).unwrap_or_else(|e| panic!("tests/data/{name}: {e}"))
}

/// The corpus directory: $IPROF_CORPUS_DIR, else ../shared/corpus next to
/// the repository; `None` (after printing why) when it is absent.
pub fn corpus_file(name: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("IPROF_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/corpus"));
    let path = dir.join(name);
    if path.is_file() {
        Some(path)
    } else {
        println!("SKIP: corpus file {} is absent (set IPROF_CORPUS_DIR)", path.display());
        None
    }
}

/// A fresh temporary directory for one test.
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iprof-rs-{}-{}", std::process::id(), test));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Three types (0 int, 1 A, 2 B), two methods (1 A.m()int, 2 A.n(B)int),
/// on several lines, then `rest` (which starts with "," or is "}").
pub fn doc(version: &str, rest: &str) -> String {
    format!(
        "{{\"version\":\"{version}\",\n\
         \"types\":[{{\"id\":0,\"name\":\"int\"}},{{\"id\":1,\"name\":\"A\"}},\n  {{\"id\":2,\"name\":\"B\"}}],\n\
         \"methods\":[{{\"id\":1,\"name\":\"m\",\"signature\":[1,0]}},\n  {{\"id\":2,\"name\":\"n\",\"signature\":[1,0,2]}}]{rest}"
    )
}
