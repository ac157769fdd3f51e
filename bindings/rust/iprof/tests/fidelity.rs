//! What a model keeps of its file beyond the profile: GraalVM 25's
//! "instanceOfProfiles" spelling and unknown top-level keys, written back
//! byte for byte; merges and the canonical form refusing or dropping
//! unknown keys that hold ids; the streaming on_key callback and
//! Writer::write_unknown. The same cases as
//! bindings/python/tests/test_fidelity.py.

mod common;

use common::{data, data_path};
use iprof::{
    CanonicalOptions, Callbacks, Frame, InstanceofKey, Kind, MergeOptions, Model, Reader, Section, Severity,
    Status, WriteOptions, Writer,
};

const PLAIN: &str = "graalvm25.iprof";
const UNKNOWN: &str = "graalvm25-unknown.iprof";
const PLAIN_UNKNOWN: &str = "graalvm25-plain-unknown.iprof";

const CE_JSON: &[u8] = br#"[{"ctx":"2:12","records":[17,0,600,17,1,400]}]"#;
const VIM_JSON: &[u8] = br#"[{"ctx":"1:4","records":[3,600,4,400]}]"#;

fn unknown_keys(m: &Model) -> Vec<(String, Vec<u8>)> {
    m.unknown_keys().map(|(k, j)| (k.to_string(), j.to_vec())).collect()
}

fn pairs(items: &[(&str, &[u8])]) -> Vec<(String, Vec<u8>)> {
    items.iter().map(|(k, j)| (k.to_string(), j.to_vec())).collect()
}

fn write(m: &Model, options: &WriteOptions) -> Vec<u8> {
    let mut w = Writer::to_memory(options).unwrap();
    w.write_model(m).unwrap();
    w.into_bytes().unwrap()
}

/// `bytes` with its instanceof key spelled the other way.
fn respelled(bytes: &[u8]) -> Vec<u8> {
    String::from_utf8(bytes.to_vec()).unwrap().replace("\"instanceOfProfiles\"", "\"instanceofProfiles\"").into_bytes()
}

#[test]
fn graalvm25_files_round_trip_byte_identical() {
    for name in [PLAIN, UNKNOWN, PLAIN_UNKNOWN] {
        let bytes = data(name);
        let m = Model::load(data_path(name)).unwrap();
        assert_eq!(m.to_bytes().unwrap(), bytes, "{name}");
        assert_eq!(Model::load_bytes(&bytes).unwrap().to_bytes().unwrap(), bytes, "{name}");
        assert_eq!(m.instanceof_key(), InstanceofKey::Camel, "{name}");
    }
    // The GraalVM 25 details survive: a repeated sampling ctx, bci -6, index -5.
    let m = Model::load(data_path(PLAIN)).unwrap();
    assert_eq!(m.entry_count(Kind::Sampling), 3);
    assert_eq!(m.entry_at(Kind::CallCount, 1).unwrap().context().to_string(), "3:0<2:5<1:-6");
    assert_eq!(m.entry_at(Kind::Conditional, 0).unwrap().records()[9..], [31, -5, 0]);
    assert_eq!(m.entry_at(Kind::Instanceof, 0).unwrap().records(), [5, 600, 6, 400]);
}

#[test]
fn unknown_keys_are_read_with_their_raw_json() {
    let m = Model::load(data_path(UNKNOWN)).unwrap();
    let expected = pairs(&[("ceConditionalProfilesV2", CE_JSON), ("virtualInvokeMethodProfiles", VIM_JSON)]);
    assert_eq!(unknown_keys(&m), expected);
    assert_eq!(m.unknown_key_count(), 2);
    assert_eq!(m.unknown_keys().next_back().unwrap().0, "virtualInvokeMethodProfiles");
    assert!(m.unknown_key_at(2).is_none());
    let plain = Model::load(data_path(PLAIN_UNKNOWN)).unwrap();
    let plain_expected = pairs(&[("virtualInvokeMethodProfiles", b"[]"), ("x-tool", b"\"iprof-test\"")]);
    assert_eq!(unknown_keys(&plain), plain_expected);
    assert_eq!(Model::load(data_path(PLAIN)).unwrap().unknown_key_count(), 0);
    // A streaming read sees the same keys, and warns about each.
    let mut seen = Vec::new();
    let mut reader = Reader::new().unwrap();
    reader
        .read_path(data_path(UNKNOWN), Callbacks::new().on_unknown(|k, j| seen.push((k.to_string(), j.to_vec()))))
        .unwrap();
    assert_eq!(seen, expected);
    let warnings: Vec<_> = reader.diagnostics().iter().map(|d| (d.severity(), d.path().to_string())).collect();
    assert_eq!(
        warnings,
        [(Severity::Warning, "ceConditionalProfilesV2".to_string()), (Severity::Warning, "virtualInvokeMethodProfiles".to_string())]
    );
}

#[test]
fn instanceof_spelling_converts_through_the_write_option() {
    let camel = data(PLAIN);
    let lower = respelled(&camel);
    assert_ne!(lower, camel);
    let m = Model::load_bytes(&camel).unwrap();
    assert_eq!(write(&m, &WriteOptions::new().instanceof_key(InstanceofKey::Lower)), lower);
    assert_eq!(write(&m, &WriteOptions::new().instanceof_key(InstanceofKey::Camel)), camel);
    let mut back = Model::load_bytes(&lower).unwrap();
    assert_eq!(back.instanceof_key(), InstanceofKey::Lower);
    assert_eq!(back.to_bytes().unwrap(), lower); // the model's own spelling
    assert_eq!(write(&back, &WriteOptions::new().instanceof_key(InstanceofKey::Camel)), camel);
    back.set_instanceof_key(InstanceofKey::Camel);
    assert_eq!(back.to_bytes().unwrap(), camel);
    // Unknown keys keep their place whatever the spelling.
    let unknown = data(UNKNOWN);
    let m = Model::load_bytes(&unknown).unwrap();
    assert_eq!(write(&m, &WriteOptions::new().instanceof_key(InstanceofKey::Lower)), respelled(&unknown));
    assert_eq!(InstanceofKey::Lower.key(), Some("instanceofProfiles"));
    assert_eq!(InstanceofKey::Camel.key(), Some("instanceOfProfiles"));
    assert_eq!((InstanceofKey::Auto.key(), Model::new().unwrap().instanceof_key()), (None, InstanceofKey::Auto));
}

#[test]
fn streaming_writes_graalvm_spelling_unless_told() {
    let entry = |w: &mut Writer<'_>| {
        w.begin(Some("1.1.0"))?;
        w.write_type(0, "A")?;
        w.write_method(1, "m", &[0, 0])?;
        w.write_entry(Kind::Instanceof, &[Frame::new(1, 2)], &[0, 1])?;
        w.end()
    };
    let tail = |key: &str| format!(r#""samplingProfiles":[],"{key}":[{{"ctx":"1:2","records":[0,1]}}]}}"#);
    for (option, key) in [
        (InstanceofKey::Auto, "instanceOfProfiles"),
        (InstanceofKey::Camel, "instanceOfProfiles"),
        (InstanceofKey::Lower, "instanceofProfiles"),
    ] {
        let mut w = Writer::to_memory(&WriteOptions::new().instanceof_key(option)).unwrap();
        entry(&mut w).unwrap();
        let text = String::from_utf8(w.into_bytes().unwrap()).unwrap();
        assert!(text.ends_with(&tail(key)), "{option:?}: {text}");
    }
}

#[test]
fn on_key_reports_every_top_level_key() {
    let mut keys = Vec::new();
    Reader::new()
        .unwrap()
        .read_path(data_path(UNKNOWN), Callbacks::new().on_key(|k, s| keys.push((k.to_string(), s))))
        .unwrap();
    let expected = [
        ("version", Section::Version),
        ("types", Section::Types),
        ("methods", Section::Methods),
        ("callCountProfiles", Section::Kind(Kind::CallCount)),
        ("conditionalProfiles", Section::Kind(Kind::Conditional)),
        ("ceConditionalProfilesV2", Section::Unknown),
        ("virtualInvokeProfiles", Section::Kind(Kind::VirtualInvoke)),
        ("virtualInvokeMethodProfiles", Section::Unknown),
        ("monitorProfiles", Section::Kind(Kind::Monitor)),
        ("samplingProfiles", Section::Kind(Kind::Sampling)),
        ("instanceOfProfiles", Section::Kind(Kind::Instanceof)),
    ];
    assert_eq!(keys, expected.map(|(k, s)| (k.to_string(), s)));
    for s in expected.map(|(_, s)| s) {
        assert_eq!(Section::from_raw(s.raw()), Some(s));
    }
    assert_eq!(Section::from_raw(10), None);
    // Breaking out of on_key stops the read.
    let mut seen = 0;
    let err = Reader::new()
        .unwrap()
        .read_path(
            data_path(UNKNOWN),
            Callbacks::new().on_key(|_, s| {
                seen += 1;
                if s == Section::Methods {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            }),
        )
        .unwrap_err();
    assert_eq!((err.status(), seen), (Status::Stopped, 3));
}

#[test]
fn merge_refuses_unknown_keys_holding_ids_unless_dropped() {
    let src = Model::load(data_path(UNKNOWN)).unwrap();
    let mut dst = Model::new().unwrap();
    let err = dst.merge(&src, 1.0).unwrap_err();
    assert_eq!(err.status(), Status::Schema);
    assert!(err.message().contains("ceConditionalProfilesV2"), "{err}");
    assert_eq!((dst.type_count(), dst.unknown_key_count()), (0, 0)); // unchanged
    let err = dst.merge_with(&src, &MergeOptions::new().weight(2.0)).unwrap_err();
    assert!(err.to_string().contains("ceConditionalProfilesV2"), "{err}");
    dst.merge_with(&src, &MergeOptions::new().weight(2.0).drop_unknown(true)).unwrap();
    assert_eq!(dst.unknown_key_count(), 0);
    assert_eq!((dst.type_count(), dst.method_count()), (8, 5));
    assert_eq!(dst.entry_at(Kind::CallCount, 0).unwrap().records(), [2000]);
    // A model holding such keys refuses to be merged into, too.
    let mut holder = Model::load(data_path(UNKNOWN)).unwrap();
    let err = holder.merge(&Model::load(data_path(PLAIN)).unwrap(), 1.0).unwrap_err();
    assert!(err.message().contains("ceConditionalProfilesV2"), "{err}");
}

#[test]
fn merge_keeps_plain_unknown_keys() {
    let src = Model::load(data_path(PLAIN_UNKNOWN)).unwrap();
    let mut dst = Model::new().unwrap();
    dst.merge(&src, 1.0).unwrap();
    let expected = pairs(&[("virtualInvokeMethodProfiles", b"[]"), ("x-tool", b"\"iprof-test\"")]);
    assert_eq!(unknown_keys(&dst), expected);
    dst.merge_with(&src, &MergeOptions::new()).unwrap(); // equal values combine
    assert_eq!(unknown_keys(&dst), expected);
    assert_eq!(dst.entry_at(Kind::CallCount, 0).unwrap().records(), [2000]);
    dst.merge_with(&src, &MergeOptions::new().drop_unknown(true)).unwrap();
    assert_eq!(dst.unknown_key_count(), 0);
    // A bad weight is named in the error.
    let err = dst.merge_with(&src, &MergeOptions::new().weight(-1.0)).unwrap_err();
    assert_eq!(err.status(), Status::Invalid);
    assert!(err.message().contains("weight"), "{err}");
}

#[test]
fn canonicalize_refuses_or_drops_unknown_keys() {
    let bytes = data(UNKNOWN);
    let mut m = Model::load_bytes(&bytes).unwrap();
    let err = m.canonicalize().unwrap_err();
    assert_eq!(err.status(), Status::Schema);
    assert!(err.message().contains("ceConditionalProfilesV2"), "{err}");
    assert_eq!(m.to_bytes().unwrap(), bytes); // unchanged
    m.canonicalize_with(&CanonicalOptions::new().drop_unknown(true)).unwrap();
    assert_eq!(m.unknown_key_count(), 0);
    // Plain values are kept, after every section, sorted by key.
    let mut m = Model::load(data_path(PLAIN_UNKNOWN)).unwrap();
    m.add_unknown("a-first", "null").unwrap();
    m.canonicalize().unwrap();
    let text = String::from_utf8(m.to_bytes().unwrap()).unwrap();
    assert!(text.ends_with(r#""records":[1,600,4,400]}],"a-first":null,"virtualInvokeMethodProfiles":[],"x-tool":"iprof-test"}"#), "{text}");
}

#[test]
fn unknown_keys_can_be_added_and_removed() {
    let mut m = Model::new().unwrap();
    m.add_unknown("x-a", "{}").unwrap();
    m.add_unknown("x-b", b" [1, 2] ").unwrap();
    assert_eq!(unknown_keys(&m), pairs(&[("x-a", b"{}"), ("x-b", b" [1, 2] ")]));
    let text = String::from_utf8(m.to_bytes().unwrap()).unwrap();
    assert!(text.ends_with(r#""instanceOfProfiles":[],"x-a":{},"x-b": [1, 2] }"#), "{text}");
    for known in ["types", "instanceofProfiles", "instanceOfProfiles", "version"] {
        let err = m.add_unknown(known, "[]").unwrap_err();
        assert_eq!(err.status(), Status::Invalid, "{known}");
        assert!(err.message().contains(known), "{err}");
    }
    // The key is named as given, not read on past its end.
    let longer = String::from("typesXXXXXXXX");
    let err = m.add_unknown(&longer[..5], "[]").unwrap_err();
    assert!(err.message().starts_with("\"types\" "), "{err}");
    assert_eq!(m.add_unknown("x-c", "[1,").unwrap_err().status(), Status::Syntax);
    m.remove_unknown(Some("x-a")).unwrap();
    let e = m.remove_unknown(Some("x-a")).unwrap_err();
    assert_eq!((e.status(), e.message()), (Status::NotFound, "no unknown key \"x-a\""));
    assert_eq!(unknown_keys(&m), pairs(&[("x-b", b" [1, 2] ")]));
    m.remove_unknown(None).unwrap();
    assert_eq!(m.unknown_key_count(), 0);
    // None removes every key, so finding none is no failure.
    m.remove_unknown(None).unwrap();
}

#[test]
fn writer_writes_unknown_keys_where_it_is() {
    let mut w = Writer::to_memory(&WriteOptions::new()).unwrap();
    w.begin(Some("1.0.0")).unwrap();
    w.write_unknown("x-first", "1").unwrap();
    w.write_type(0, "A").unwrap();
    w.write_method(1, "m", &[0, 0]).unwrap();
    w.write_entry(Kind::CallCount, &[Frame::new(1, 0)], &[3]).unwrap();
    w.write_unknown("x-calls", b"[]").unwrap();
    w.end().unwrap();
    assert_eq!(
        std::str::from_utf8(w.bytes().unwrap()).unwrap(),
        concat!(
            r#"{"version":"1.0.0","x-first":1,"types":[{"id":0,"name":"A"}],"methods":[{"id":1,"name":"m","signature":[0,0]}],"#,
            r#""callCountProfiles":[{"ctx":"1:0","records":[3]}],"x-calls":[],"conditionalProfiles":[],"#,
            r#""virtualInvokeProfiles":[],"monitorProfiles":[],"samplingProfiles":[]}"#
        )
    );
    let mut w = Writer::to_memory(&WriteOptions::new()).unwrap();
    w.begin(None).unwrap();
    let err = w.write_unknown("methods", "[]").unwrap_err();
    assert_eq!(err.status(), Status::Invalid);
    let mut w = Writer::to_memory(&WriteOptions::new()).unwrap();
    w.begin(None).unwrap();
    assert_eq!(w.write_unknown("x", "nope").unwrap_err().status(), Status::Syntax);
}

const LEGACY: &str = "legacy-0.2.0.iprof";

/// Format 0.2.0, GraalVM's legacy layout: read into the 1.x model, written
/// back byte for byte, converted to 1.x (as test_fidelity.py's LegacyTest).
#[test]
fn legacy_0_2_0_read_written_back_and_converted() {
    let raw = data(LEGACY);
    let mut m = Model::load(data_path(LEGACY)).unwrap();
    assert_eq!(m.version(), iprof::FORMAT_0_2_0);
    let calls: Vec<_> =
        m.entries(Kind::CallCount).map(|e| (e.context().to_string(), e.records().to_vec())).collect();
    assert_eq!(
        calls,
        [("3:0".to_string(), vec![1]), ("5:0<3:4".to_string(), vec![10]), ("7:0<5:9<3:-6".to_string(), vec![23929230826])]
    );
    assert_eq!(m.entry_at(Kind::Conditional, 1).unwrap().records(), [20, 0, 3, -5, 0, 2, 30, 1, 0]);
    assert_eq!(m.entry_at(Kind::Monitor, 0).unwrap().context().to_string(), "0:0");
    assert_eq!(m.entry_at(Kind::Monitor, 0).unwrap().records(), [10, 1, 11, 3]);
    assert_eq!(m.to_bytes().unwrap(), raw);
    let up = write(&m, &WriteOptions::new().format_version(iprof::FORMAT_1_1_0));
    assert!(up.starts_with(br#"{"version":"1.1.0","types":[{"id":0,"name":"int"}"#));
    let back = Model::load_bytes(&up).unwrap();
    assert_eq!(write(&back, &WriteOptions::new().format_version(iprof::FORMAT_0_2_0)), raw);
    // What 0.2.0 cannot hold is refused, not dropped.
    m.add_entry(Kind::Sampling, &[Frame::new(3, 1)], &[2]).unwrap();
    let e = m.to_bytes().unwrap_err();
    assert_eq!((e.status(), e.message()), (Status::Version, "samplingProfiles are not part of format version 0.2.0"));
}

/// Keys of types, methods and entries are not read: the model counts the
/// elements that had them, and a write refuses to lose them unless
/// WriteOptions::drop_unknown (IPROF_WRITE_DROP_UNKNOWN).
#[test]
fn write_refuses_unread_element_keys_unless_dropped() {
    let raw = data(PLAIN);
    let doc = String::from_utf8(raw.clone())
        .unwrap()
        .replacen(r#"{"id":3,"name":"com.example.Main"}"#, r#"{"id":3,"name":"com.example.Main","x":[1]}"#, 1);
    assert_ne!(doc.as_bytes(), &raw[..]);
    let m = Model::load_bytes(doc.as_bytes()).unwrap();
    assert_eq!((m.unread_count(), m.first_unread()), (1, Some(r#"types[3], key "x""#)));
    let plain = Model::load_bytes(&raw).unwrap();
    assert_eq!((plain.unread_count(), plain.first_unread()), (0, None));
    for options in [WriteOptions::new(), WriteOptions::new().canonical(true)] {
        let mut w = Writer::to_memory(&options).unwrap();
        let err = w.write_model(&m).unwrap_err();
        assert_eq!(err.status(), Status::Schema);
        // The message names the builder's option, not the C flag.
        assert_eq!(
            err.message(),
            r#"1 element of the model's input held keys it does not keep (the first: types[3], key "x"); writing would lose them (WriteOptions::drop_unknown(true) writes without them)"#
        );
        assert_eq!(w.error().map(|e| e.message().to_owned()), Some(err.message().to_owned()));
        assert_eq!(w.end().unwrap_err().message(), err.message());
    }
    assert_eq!(write(&m, &WriteOptions::new().drop_unknown(true)), raw);
    let mut dst = Model::new().unwrap();
    dst.merge(&m, 1.0).unwrap();
    assert_eq!(dst.unread_count(), 1);
}
