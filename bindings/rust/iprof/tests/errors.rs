//! Errors: status, message, line, column, offset, JSON path and file of a
//! broken document; diagnostics of lenient and strict reads and their
//! limit; errors of mutations, of the writer and of arguments.

mod common;

use std::path::Path;

use iprof::{
    Callbacks, DroppedDiagnostics, Frame, Kind, Model, ReadOptions, Reader, Severity, Status, WriteOptions, Writer,
};

// The wrong-typed "x" is at line 3, column 46 (offset 96): methods[0].signature[1].
const BROKEN: &[u8] = b"{\"version\":\"1.0.0\",\n\
\"types\":[{\"id\":0,\"name\":\"T\"}],\n\
\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,\"x\"]}]}";

fn position(doc: &[u8], needle: &[u8]) -> usize {
    doc.windows(needle.len()).position(|w| w == needle).expect("needle in doc")
}

#[test]
fn broken_document() {
    assert_eq!(position(BROKEN, b"\"x\""), 96);
    let e = Model::load_bytes(BROKEN).unwrap_err();
    assert_eq!(e.status(), Status::Schema);
    assert_eq!(e.code(), -4);
    assert_eq!(e.status().name(), "IPROF_ESCHEMA");
    assert_eq!(e.severity(), Severity::Error);
    assert_eq!(e.message(), "expected an integer");
    assert_eq!((e.line(), e.column(), e.offset()), (3, 46, 96));
    assert_eq!(e.path(), "methods[0].signature[1]");
    assert_eq!(e.file(), None);
    assert_eq!(e.to_string(), "3:46: expected an integer (at methods[0].signature[1]) [IPROF_ESCHEMA]");
    // A std error, usable with `?` into Box<dyn Error>.
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e.clone());
    assert_eq!(boxed.to_string(), e.to_string());
}

#[test]
fn broken_file() {
    let dir = common::temp_dir("broken_file");
    let path = dir.join("broken.iprof");
    std::fs::write(&path, BROKEN).unwrap();
    let mut reader = Reader::new().unwrap();
    let errors = [
        Model::load(&path).unwrap_err(),
        reader.load_path(&path).unwrap_err(),
        reader.validate_path(&path).unwrap_err(),
        reader.read_path(&path, Callbacks::new().on_type(|_, _| {})).unwrap_err(),
    ];
    for e in errors {
        assert_eq!(
            (e.status(), e.file(), e.line(), e.column(), e.offset(), e.path()),
            (Status::Schema, Some(path.as_path()), 3, 46, 96, "methods[0].signature[1]")
        );
        assert_eq!(
            e.to_string(),
            format!("{}:3:46: expected an integer (at methods[0].signature[1]) [IPROF_ESCHEMA]", path.display())
        );
    }
    // The reader keeps the error of its last read.
    assert_eq!(reader.error().unwrap().offset(), 96);
    reader.validate_bytes(&common::doc("1.0.0", "}").into_bytes()).unwrap();
    assert!(reader.error().is_none());
    // Through an fd and an io::Read the same position (and no file name).
    let f = std::fs::File::open(&path).unwrap();
    let e = reader.load_from(f).unwrap_err();
    assert_eq!((e.line(), e.column(), e.file()), (3, 46, None));
    let f = std::fs::File::open(&path).unwrap();
    use std::os::fd::AsFd;
    let e = reader.load_fd(f.as_fd()).unwrap_err();
    assert_eq!((e.line(), e.column(), e.offset()), (3, 46, 96));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn syntax_errors() {
    let e = Model::load_bytes(b"{\"version\":\"1.0.0\",\n  \"types\":[],}").unwrap_err();
    assert_eq!((e.status(), e.line(), e.column(), e.offset(), e.path()), (Status::Syntax, 2, 14, 33, ""));
    // At the end of the input when it ends early.
    let e = Model::load_bytes(b"{\"version\":\"1.0.0\"").unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Syntax, 18));
    let e = Model::load_bytes(b"").unwrap_err();
    assert_eq!(e.status(), Status::Syntax);
}

#[test]
fn missing_file() {
    let e = Model::load("/nonexistent/dir/x.iprof").unwrap_err();
    assert_eq!(
        (e.status(), e.line(), e.column(), e.offset(), e.path(), e.file()),
        (Status::Io, 0, 0, 0, "", Some(Path::new("/nonexistent/dir/x.iprof")))
    );
    assert!(e.message().contains("/nonexistent/dir/x.iprof"), "{e}");
    // A path with a NUL cannot reach C.
    let e = Model::load("a\0b").unwrap_err();
    assert_eq!(e.status(), Status::Invalid);
}

#[test]
fn version_errors() {
    let e = Model::load_bytes(common::doc("2.0.0", "}").as_bytes()).unwrap_err();
    assert_eq!((e.status(), e.path(), e.line(), e.column()), (Status::Version, "version", 1, 12));
    let e = Model::load_bytes(common::doc("0.1.0", "}").as_bytes()).unwrap_err();
    assert_eq!(e.status(), Status::Version);
    let mut m = Model::new().unwrap();
    let e = m.set_version("x").unwrap_err();
    assert_eq!((e.status(), e.message()), (Status::Version, "malformed format version \"x\""));
    m.set_version("1.0.0").unwrap();
    assert_eq!(m.version(), "1.0.0");
}

#[test]
fn limit() {
    let e = Model::load_bytes(
        b"{\"version\":\"1.0.0\",\"types\":[{\"id\":9223372036854775808,\"name\":\"x\"}],\"methods\":[]}",
    )
    .unwrap_err();
    assert_eq!((e.status(), e.path(), e.column()), (Status::Limit, "types[0].id", 35));
    // max_element_size applies to in-memory documents too.
    let mut small = Reader::with_options(&ReadOptions::new().max_element_size(16)).unwrap();
    let e = small.validate_bytes(common::doc("1.0.0", "}").as_bytes()).unwrap_err();
    assert_eq!(e.status(), Status::Limit);
}

#[test]
fn lenient_diagnostics_and_strict() {
    let bad = common::doc(
        "1.1.0",
        ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,2]},{\"ctx\":\"7:0\",\"records\":[1]}]}",
    );
    let mut reader = Reader::new().unwrap();
    let m = reader.load_bytes(bad.as_bytes()).unwrap();
    let diags = reader.diagnostics();
    assert_eq!(diags.len(), 2, "{diags:?}");
    let d = &diags[0];
    assert_eq!((d.status(), d.severity(), d.path()), (Status::Schema, Severity::Error, "callCountProfiles[0].records"));
    assert_eq!(d.offset(), bad.find("[1,2]").unwrap() as u64);
    let d = &diags[1];
    assert_eq!((d.status(), d.path()), (Status::Dangling, "callCountProfiles[1].ctx"));
    assert_eq!(d.offset(), bad.find("\"7:0\"").unwrap() as u64);
    // Kept as the file has them.
    assert_eq!(m.entry_count(Kind::CallCount), 2);
    assert_eq!(m.entry_at(Kind::CallCount, 0).unwrap().records(), [1, 2]);
    // The default writer refuses what a strict read refuses (the whole
    // model's references are checked first), no_references the entry rules
    // only; no_validate copies.
    assert_eq!(m.to_bytes().unwrap_err().status(), Status::Dangling);
    let mut w = Writer::to_memory(&WriteOptions::new().no_references(true)).unwrap();
    assert_eq!(w.write_model(&m).unwrap_err().status(), Status::Schema);
    let mut w = Writer::to_memory(&WriteOptions::new().no_validate(true)).unwrap();
    w.write_model(&m).unwrap();
    assert!(std::str::from_utf8(w.bytes().unwrap()).unwrap().contains("\"records\":[1,2]"));

    // The same diagnostics from a validating read.
    reader.validate_bytes(bad.as_bytes()).unwrap();
    assert_eq!(reader.diagnostics(), diags);

    // Strict: the first violation fails.
    let mut strict = Reader::with_options(&ReadOptions::new().strict(true)).unwrap();
    let e = strict.load_bytes(bad.as_bytes()).unwrap_err();
    assert_eq!((e.status(), e.path()), (Status::Schema, "callCountProfiles[0].records"));

    // Without reference checks the dangling ctx is not reported.
    let mut fast = Reader::with_options(&ReadOptions::new().no_references(true)).unwrap();
    fast.validate_bytes(bad.as_bytes()).unwrap();
    let paths: Vec<String> = fast.diagnostics().iter().map(|d| d.path().to_string()).collect();
    assert_eq!(paths, ["callCountProfiles[0].records"]);
}

#[test]
fn warning() {
    let mut reader = Reader::new().unwrap();
    let m = reader.load_bytes(common::doc("1.0.7", "}").as_bytes()).unwrap();
    assert_eq!(m.version(), "1.0.7");
    let diags = reader.diagnostics();
    assert_eq!(diags.len(), 1);
    let d = &diags[0];
    assert_eq!((d.status(), d.severity(), d.path()), (Status::Version, Severity::Warning, "version"));
    assert!(d.to_string().starts_with("1:12: warning: "), "{d}");
    // A warning does not fail a strict read either.
    let mut strict = Reader::with_options(&ReadOptions::new().strict(true)).unwrap();
    strict.validate_bytes(common::doc("1.0.7", "}").as_bytes()).unwrap();
    assert_eq!(strict.diagnostics().len(), 1);
}

/// Version "1.0.5" (a warning) and 30 call-count entries whose ctx names a
/// method that is not defined (30 dangling errors): 31 diagnostics; `tail`
/// ends the document.
fn many_diagnostics(tail: &str) -> String {
    let entries: Vec<String> = (1..=30).map(|i| format!("{{\"ctx\":\"{i}:0\",\"records\":[1]}}")).collect();
    format!(
        "{{\"version\":\"1.0.5\",\"types\":[],\"methods\":[],\"callCountProfiles\":[{}]{tail}",
        entries.join(",")
    )
}

/// The first five of [`many_diagnostics`]: the version warning and four
/// dangling errors.
fn assert_first_five(diags: &[iprof::Error]) {
    let got: Vec<(Status, Severity, &str)> = diags.iter().map(|d| (d.status(), d.severity(), d.path())).collect();
    assert_eq!(
        got,
        [
            (Status::Version, Severity::Warning, "version"),
            (Status::Dangling, Severity::Error, "callCountProfiles[0].ctx"),
            (Status::Dangling, Severity::Error, "callCountProfiles[1].ctx"),
            (Status::Dangling, Severity::Error, "callCountProfiles[2].ctx"),
            (Status::Dangling, Severity::Error, "callCountProfiles[3].ctx"),
        ]
    );
}

const NONE_DROPPED: DroppedDiagnostics = DroppedDiagnostics { errors: 0, warnings: 0 };

#[test]
fn max_diagnostics_keeps_the_first_and_counts_the_rest() {
    let many = many_diagnostics("}");
    let clean = common::doc("1.0.0", ",\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]}]}");
    let mut reader = Reader::with_options(&ReadOptions::new().max_diagnostics(5)).unwrap();
    assert_eq!(reader.diagnostics_dropped(), NONE_DROPPED); // no read yet

    reader.validate_bytes(many.as_bytes()).unwrap();
    assert_first_five(&reader.diagnostics());
    let dropped = reader.diagnostics_dropped();
    assert_eq!(dropped, DroppedDiagnostics { errors: 26, warnings: 0 });
    assert_eq!(dropped.total(), 26);

    // A second read, of a clean document, drops nothing.
    reader.validate_bytes(clean.as_bytes()).unwrap();
    assert!(reader.diagnostics().is_empty());
    assert_eq!(reader.diagnostics_dropped(), NONE_DROPPED);

    // Loads, streaming reads and io::Read sources count the same.
    let m = reader.load_bytes(many.as_bytes()).unwrap();
    assert_eq!(m.entry_count(Kind::CallCount), 30); // the entries are all there
    assert_first_five(&reader.diagnostics());
    assert_eq!(reader.diagnostics_dropped(), DroppedDiagnostics { errors: 26, warnings: 0 });
    reader.load_bytes(clean.as_bytes()).unwrap();
    assert_eq!((reader.diagnostics().len(), reader.diagnostics_dropped()), (0, NONE_DROPPED));
    let mut entries = 0;
    reader.read_from(many.as_bytes(), Callbacks::new().on_entry(|_| entries += 1)).unwrap();
    assert_eq!(entries, 30);
    assert_first_five(&reader.diagnostics());
    assert_eq!(reader.diagnostics_dropped(), DroppedDiagnostics { errors: 26, warnings: 0 });
    let mut threaded =
        Reader::with_options(&ReadOptions::new().max_diagnostics(5).threaded(true).chunk_size(7)).unwrap();
    threaded.load_from(many.as_bytes()).unwrap();
    assert_first_five(&threaded.diagnostics());
    assert_eq!(threaded.diagnostics_dropped(), DroppedDiagnostics { errors: 26, warnings: 0 });

    // The default (10000) and usize::MAX keep all 31; 30 drops one.
    let all = [
        ReadOptions::new(),
        ReadOptions::new().max_diagnostics(0),
        ReadOptions::new().max_diagnostics(usize::MAX),
    ];
    for options in all {
        let mut r = Reader::with_options(&options).unwrap();
        r.validate_bytes(many.as_bytes()).unwrap();
        assert_eq!((r.diagnostics().len(), r.diagnostics_dropped()), (31, NONE_DROPPED), "{options:?}");
    }
    let mut r = Reader::with_options(&ReadOptions::new().max_diagnostics(30)).unwrap();
    r.validate_bytes(many.as_bytes()).unwrap();
    assert_eq!((r.diagnostics().len(), r.diagnostics_dropped()), (30, DroppedDiagnostics { errors: 1, warnings: 0 }));
}

#[test]
fn max_diagnostics_counts_warnings_and_failed_reads() {
    // An unknown key after the entries adds a warning, dropped with them.
    let extra = many_diagnostics(",\"extra\":1}");
    let mut reader = Reader::with_options(&ReadOptions::new().max_diagnostics(1)).unwrap();
    reader.validate_bytes(extra.as_bytes()).unwrap();
    assert_eq!(reader.diagnostics().len(), 1);
    assert_eq!(reader.diagnostics()[0].status(), Status::Version);
    assert_eq!(reader.diagnostics_dropped(), DroppedDiagnostics { errors: 30, warnings: 1 });
    let mut fast = Reader::with_options(&ReadOptions::new().max_diagnostics(1).no_references(true)).unwrap();
    fast.validate_bytes(extra.as_bytes()).unwrap();
    assert_eq!(fast.diagnostics_dropped(), DroppedDiagnostics { errors: 0, warnings: 1 });

    // A read that fails keeps its diagnostics so far, and their count.
    let broken = many_diagnostics(",]");
    let mut reader = Reader::with_options(&ReadOptions::new().max_diagnostics(5)).unwrap();
    assert_eq!(reader.load_bytes(broken.as_bytes()).unwrap_err().status(), Status::Syntax);
    assert_first_five(&reader.diagnostics());
    assert_eq!(reader.diagnostics_dropped(), DroppedDiagnostics { errors: 26, warnings: 0 });
}

#[test]
fn mutation_errors() {
    let mut m = Model::new().unwrap();
    m.add_type(0, "int").unwrap();
    let e = m.add_type(0, "long").unwrap_err();
    assert_eq!((e.status(), e.status().name(), e.line(), e.path(), e.file()), (Status::Invalid, "IPROF_EINVAL", 0, "", None));
    assert_eq!(e.to_string(), "type id 0 is taken [IPROF_EINVAL]");
    assert_eq!(m.add_method(1, "m", &[0, 5]).unwrap_err().status(), Status::Dangling);
    assert_eq!(m.remove_type(7).unwrap_err().status(), Status::NotFound);
    m.add_method(1, "m", &[0, 0]).unwrap();
    assert_eq!(m.add_entry(Kind::CallCount, &[Frame::new(1, 0)], &[1, 2]).unwrap_err().status(), Status::Schema);
    assert_eq!(m.add_entry(Kind::CallCount, &[Frame::new(2, 0)], &[1]).unwrap_err().status(), Status::Dangling);
    assert_eq!(m.remove_entry(Kind::CallCount, &[Frame::new(1, 0)]).unwrap_err().status(), Status::NotFound);
    assert_eq!(m.entry_count(Kind::CallCount), 0);
}

/// (message, kind, context, type id, method id) of an error.
fn subject(e: &iprof::Error) -> (&str, Option<Kind>, &str, Option<i64>, Option<i64>) {
    (e.message(), e.kind(), e.context(), e.type_id(), e.method_id())
}

#[test]
fn model_errors_say_what_they_are_about() {
    let mut m = Model::new().unwrap();
    m.add_type(0, "T").unwrap();
    m.add_method(1, "f", &[0, 0]).unwrap();
    let e = m.add_entry(Kind::CallCount, &[Frame::new(1, 0), Frame::new(7, 2)], &[3]).unwrap_err();
    assert_eq!(e.status(), Status::Dangling);
    assert_eq!(
        subject(&e),
        ("callCountProfiles entry: method id 7 is not defined in the model", Some(Kind::CallCount), "1:0<7:2", None, Some(7))
    );
    assert_eq!(iprof::parse_ctx(e.context()).unwrap(), [Frame::new(1, 0), Frame::new(7, 2)]);
    assert_eq!(e.to_string(), "callCountProfiles entry: method id 7 is not defined in the model [IPROF_EDANGLING]");
    let e = m.add_entry(Kind::VirtualInvoke, &[Frame::new(1, 4)], &[9, 3]).unwrap_err();
    assert_eq!(
        subject(&e),
        ("virtualInvokeProfiles entry: type id 9 is not defined in the model", Some(Kind::VirtualInvoke), "1:4", Some(9), None)
    );
    let e = m.add_entry(Kind::CallCount, &[Frame::new(1, 0)], &[3, 4]).unwrap_err();
    assert_eq!((e.status(), e.kind(), e.context(), e.type_id(), e.method_id()), (Status::Schema, Some(Kind::CallCount), "1:0", None, None));
    assert!(e.message().starts_with("callCountProfiles entry: records:"), "{e}");
    let e = m.remove_entry(Kind::Sampling, &[Frame::new(1, 0), Frame::new(1, 2)]).unwrap_err();
    assert_eq!(subject(&e), ("no samplingProfiles entry with this context", Some(Kind::Sampling), "1:0<1:2", None, None));
    let e = m.add_type(0, "U").unwrap_err();
    assert_eq!(subject(&e), ("type id 0 is taken", None, "", Some(0), None));
    let e = m.add_method(2, "g", &[0, 5]).unwrap_err();
    assert_eq!(
        subject(&e),
        ("method 2: signature type id 5 (signature[1]) is not defined in the model", None, "", Some(5), Some(2))
    );
    let e = m.add_method(1, "g", &[0]).unwrap_err();
    assert_eq!(subject(&e), ("method id 1 is taken", None, "", None, Some(1)));
    assert_eq!(subject(&m.remove_type(9).unwrap_err()), ("no type with id 9", None, "", Some(9), None));
    assert_eq!(subject(&m.remove_method(9, false).unwrap_err()), ("no method with id 9", None, "", None, Some(9)));
    // A call that leaves no report of its own does not show the last one.
    assert_eq!(m.add_type(0, "U").unwrap_err().status(), Status::Invalid);
    let e = m.filter(&iprof::FilterOptions::new().top_percent(-1.0)).unwrap_err();
    assert_eq!(e.status(), Status::Invalid);
    assert_ne!(e.message(), "type id 0 is taken");
    assert_eq!(e.type_id(), None);
}

#[test]
fn merge_errors_carry_the_library_message() {
    let (mut dst, src) = (Model::new().unwrap(), Model::new().unwrap());
    for (w, text) in [(f64::NAN, "nan"), (-2.0, "-2"), (f64::INFINITY, "inf")] {
        let e = dst.merge(&src, w).unwrap_err();
        assert_eq!(e.status(), Status::Invalid);
        assert_eq!(subject(&e), (format!("weight {text}: must be finite and >= 0").as_str(), None, "", None, None));
    }
    dst.merge(&src, 1.0).unwrap();
}

#[test]
fn streaming_merge_failures_change_nothing() {
    let doc = br#"{"version":"1.0.0","types":[{"id":0,"name":"A"}],"methods":[{"id":1,"name":"m","signature":[0,0]}],"callCountProfiles":[{"ctx":"1:0","records":[5]}],"conditionalProfiles":[],"virtualInvokeProfiles":[],"monitorProfiles":[],"samplingProfiles":[]}"#;
    let mut dst = Model::load_bytes(doc).unwrap();
    let before = dst.to_bytes().unwrap();
    let mut reader = Reader::new().unwrap();
    // A truncated input: the read's error, with its position, and dst as it was.
    let e = reader.merge_bytes(&mut dst, &doc[..doc.len() - 40], &iprof::MergeOptions::new()).unwrap_err();
    assert_eq!(e.status(), Status::Syntax);
    assert_eq!(e.offset(), reader.error().unwrap().offset());
    assert!(e.line() > 0, "{e}");
    assert!(dst.to_bytes().unwrap() == before);
    // A bad weight.
    let e = reader.merge_bytes(&mut dst, doc, &iprof::MergeOptions::new().weight(-1.0)).unwrap_err();
    assert_eq!((e.status(), e.message()), (Status::Invalid, "weight -1: must be finite and >= 0"));
    // A merge that fails (a dangling method, the reader told not to check):
    // the reader says the merge stopped it.
    let dangling = br#"{"version":"1.0.0","types":[],"methods":[],"callCountProfiles":[{"ctx":"7:0","records":[1]}]}"#;
    let mut lax = Reader::with_options(&ReadOptions::new().no_references(true)).unwrap();
    let e = lax.merge_bytes(&mut dst, dangling, &iprof::MergeOptions::new()).unwrap_err();
    assert_eq!(e.status(), Status::Dangling);
    assert_eq!(e.message(), "callCountProfiles entry: method id 7 is not defined in the profile merged from");
    assert_eq!(lax.error().unwrap().status(), Status::Stopped);
    assert!(dst.to_bytes().unwrap() == before);
    // And then one that works doubles the count.
    reader.merge_bytes(&mut dst, doc, &iprof::MergeOptions::new()).unwrap();
    assert_eq!(dst.entries(Kind::CallCount).next().unwrap().records(), &[10]);
}

#[test]
fn read_errors_have_no_subject() {
    let e = Model::load_bytes(BROKEN).unwrap_err();
    assert_eq!((e.kind(), e.context(), e.type_id(), e.method_id()), (None, "", None, None));
}

#[test]
fn writer_errors() {
    // By default a method may only name types written before.
    let mut w = Writer::to_memory(&WriteOptions::new()).unwrap();
    w.begin(None).unwrap();
    let e = w.write_method(1, "m", &[0, 0]).unwrap_err();
    assert_eq!((e.status(), e.path()), (Status::Dangling, "methods[0]"));
    assert!(e.message().contains("type id 0"), "{e}");

    // Out of order (without the reference checks): a type after a method.
    let mut w = Writer::to_memory(&WriteOptions::new().no_references(true)).unwrap();
    w.begin(None).unwrap();
    w.write_method(1, "m", &[0, 0]).unwrap();
    let e = w.write_type(0, "int").unwrap_err();
    assert_eq!((e.status(), e.line(), e.column(), e.path()), (Status::State, 0, 0, ""));
    assert!(!e.message().is_empty());
    // Failed for good: every later call returns the same status.
    assert_eq!(w.end().unwrap_err().status(), Status::State);
    assert_eq!(w.error().unwrap().status(), Status::State);

    // Instanceof before 1.1.0.
    let mut w = Writer::to_memory(&WriteOptions::new().format_version("1.0.0")).unwrap();
    w.begin(None).unwrap();
    let e = w.write_entry(Kind::Instanceof, &[Frame::new(1, 0)], &[0, 1]).unwrap_err();
    assert_eq!(e.status(), Status::Version);

    // Strict writer: dangling references.
    let mut w = Writer::to_memory(&WriteOptions::new()).unwrap();
    w.begin(None).unwrap();
    w.write_type(0, "int").unwrap();
    let e = w.write_method(1, "m", &[0, 3]).and_then(|_| w.end()).unwrap_err();
    assert_eq!(e.status(), Status::Dangling);

    // A path writer in a missing directory names the file.
    let e = Writer::to_path("/nonexistent/dir/out.iprof", &WriteOptions::new())
        .and_then(|mut w| w.write_model(&Model::new().unwrap()))
        .unwrap_err();
    assert_eq!((e.status(), e.file()), (Status::Io, Some(Path::new("/nonexistent/dir/out.iprof"))));

    // Not a memory sink.
    let mut sink = Vec::new();
    let w = Writer::to_write(&mut sink, &WriteOptions::new()).unwrap();
    assert_eq!(w.bytes().unwrap_err().status(), Status::Invalid);

    // NUL in a version.
    assert_eq!(Writer::to_memory(&WriteOptions::new().format_version("1\0")).unwrap_err().status(), Status::Invalid);
}

#[test]
fn status_codes() {
    for code in -11..=-1 {
        let s = Status::from_code(code).unwrap();
        assert_eq!(s.code(), code);
        assert!(!matches!(s, Status::Other(_)));
        assert!(!s.description().is_empty());
        assert!(s.name().starts_with("IPROF_E"));
    }
    assert_eq!(Status::from_code(0), None);
    assert_eq!(Status::from_code(-99), Some(Status::Other(-99)));
    assert_eq!(Status::Other(-99).description(), "unknown status");
    assert_eq!(Status::NoMemory.description(), "out of memory");
}
