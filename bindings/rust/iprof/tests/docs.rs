//! docs/bindings.md shows examples/example.rs in full with its output: the
//! code must be the file, and the example, run on examples/fib.iprof, must
//! print that output.

mod common;

use std::path::PathBuf;
use std::process::Command;

/// The "## Rust" section of docs/bindings.md.
fn rust_section() -> String {
    let doc = std::fs::read_to_string(common::repo_root().join("docs/bindings.md")).expect("docs/bindings.md");
    let start = doc.find("\n## Rust\n").expect("a \"## Rust\" section in docs/bindings.md");
    let rest = &doc[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 4);
    rest[..end].to_string()
}

/// The body of the first fenced block opened by `fence` ("```rust").
fn block(section: &str, fence: &str) -> String {
    let open = section.find(&format!("\n{fence}\n")).unwrap_or_else(|| panic!("no {fence} block")) + fence.len() + 2;
    let close = section[open..].find("\n```\n").expect("closing fence") + open;
    section[open..=close].to_string()
}

#[test]
fn the_doc_shows_the_example() {
    let section = rust_section();
    let code = block(&section, "```rust");
    let file = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/example.rs")).unwrap();
    assert!(code == file, "the ```rust block of docs/bindings.md differs from bindings/rust/iprof/examples/example.rs");
}

#[test]
fn the_example_prints_what_the_doc_says() {
    // target/<profile>/deps/docs-HASH -> target/<profile>/examples/example
    let exe = std::env::current_exe().unwrap();
    let example = exe.parent().unwrap().parent().unwrap().join("examples/example");
    if !example.is_file() {
        println!("SKIP: {} is not built (cargo test builds it unless a test target is selected)", example.display());
        return;
    }
    let out = Command::new(&example).arg(common::fib_path()).output().unwrap();
    assert!(out.status.success(), "example failed: {}", String::from_utf8_lossy(&out.stderr));
    let section = rust_section();
    let expected = block(&section[section.find("prints:").expect("\"prints:\" before the output")..], "```");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}
