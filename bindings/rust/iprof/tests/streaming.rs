//! The streaming reader: exact values delivered to closures, all sources,
//! stopping, panics, unknown keys, io errors.

mod common;

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, Read};
use std::ops::ControlFlow;

use iprof::{Callbacks, EntryEvent, Frame, Handler, Interest, Kind, MethodEvent, ReadOptions, Reader, Status};

/// Everything a read delivers, copied.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    version: String,
    types: Vec<(i64, String)>,
    methods: Vec<(i64, String, Vec<i64>)>,
    entries: Vec<(Kind, String, Vec<i64>)>,
    unknown: Vec<(String, Vec<u8>)>,
}

fn collect<'a>(seen: &'a RefCell<Seen>) -> Callbacks<'a> {
    Callbacks::new()
        .on_version(move |v| seen.borrow_mut().version = v.to_string())
        .on_type(move |id, name| seen.borrow_mut().types.push((id, name.to_string())))
        .on_method(move |m| seen.borrow_mut().methods.push((m.id, m.name.to_string(), m.signature.to_vec())))
        .on_entry(move |e| seen.borrow_mut().entries.push((e.kind, e.ctx(), e.records.to_vec())))
        .on_unknown(move |k, json| seen.borrow_mut().unknown.push((k.to_string(), json.to_vec())))
}

#[test]
fn fib_exact_callbacks() {
    let seen = RefCell::new(Seen::default());
    let mut reader = Reader::new().unwrap();
    reader.read_path(common::fib_path(), collect(&seen)).unwrap();
    let s = seen.into_inner();
    assert_eq!(s.version, "1.1.0");
    assert_eq!(s.types.len(), 17);
    assert_eq!(s.types[10], (10, "Fib".to_string()));
    assert_eq!(s.methods[2], (3, "fibonacci".to_string(), vec![10, 8]));
    assert_eq!(s.methods.len(), 10);
    // Document order: call count, conditional, virtual invoke, monitor,
    // sampling, instanceof, as fib.iprof lists them.
    let kinds: Vec<Kind> = s.entries.iter().map(|e| e.0).collect();
    let mut expected = vec![Kind::CallCount; 9];
    expected.extend([Kind::Conditional, Kind::Conditional, Kind::VirtualInvoke, Kind::Monitor]);
    expected.extend([Kind::Sampling, Kind::Sampling, Kind::Instanceof]);
    assert_eq!(kinds, expected);
    assert_eq!(s.entries[6], (Kind::CallCount, "5:0<4:2<3:34".to_string(), vec![10]));
    assert_eq!(s.entries[9], (Kind::Conditional, "3:11".to_string(), vec![20, 0, 10, 53, 1, 1]));
    assert_eq!(s.entries[12], (Kind::Monitor, "0:0".to_string(), vec![9, 4, 10, 1]));
    assert_eq!(s.entries[15], (Kind::Instanceof, "5:4<4:2<3:34".to_string(), vec![11, 10, 16, 2]));
    assert!(s.unknown.is_empty());

    // Every source gives the same.
    let bytes = std::fs::read(common::fib_path()).unwrap();
    for source in 0..4 {
        let again = RefCell::new(Seen::default());
        let mut r = Reader::with_options(&ReadOptions::new().chunk_size(7)).unwrap();
        match source {
            0 => r.read_bytes(&bytes, collect(&again)).unwrap(),
            1 => r.read_from(&bytes[..], collect(&again)).unwrap(),
            2 => {
                let f = std::fs::File::open(common::fib_path()).unwrap();
                use std::os::fd::AsFd;
                r.read_fd(f.as_fd(), collect(&again)).unwrap()
            }
            _ => r.read_from(OneByte(&bytes), collect(&again)).unwrap(),
        }
        assert_eq!(again.into_inner(), s, "source {source}");
    }
}

/// A reader that returns one byte per call, with interruptions.
struct OneByte<'a>(&'a [u8]);
impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.len() % 3 == 1 {
            // An EINTR-like hiccup once in a while: retried by the bindings.
            static FLIP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            if !FLIP.fetch_xor(true, std::sync::atomic::Ordering::Relaxed) {
                return Err(io::Error::from(io::ErrorKind::Interrupted));
            }
        }
        match self.0.split_first() {
            Some((&b, rest)) if !buf.is_empty() => {
                buf[0] = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn per_kind_closures_take_precedence() {
    let mut calls = 0i64;
    let mut others = 0usize;
    let mut frames: Vec<Vec<Frame>> = Vec::new();
    Reader::new()
        .unwrap()
        .read_path(
            common::fib_path(),
            Callbacks::new()
                .on_kind(Kind::CallCount, |e| {
                    calls += e.records[0];
                    frames.push(e.frames.to_vec());
                })
                .on_entry(|e| {
                    assert_ne!(e.kind, Kind::CallCount);
                    others += 1;
                }),
        )
        .unwrap();
    assert_eq!(calls, 54);
    assert_eq!(others, 7);
    assert_eq!(frames[2], [Frame::new(7, 0), Frame::new(2, 1), Frame::new(1, 5)]);
}

#[test]
fn stopping() {
    let mut reader = Reader::new().unwrap();
    let mut n = 0;
    let e = reader
        .read_path(
            common::fib_path(),
            Callbacks::new().on_type(|_, _| {
                n += 1;
                if n == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            }),
        )
        .unwrap_err();
    assert_eq!(n, 3);
    assert_eq!(e.status(), Status::Stopped);
    // The reader is usable again.
    reader.validate_path(common::fib_path()).unwrap();
}

#[test]
fn a_panic_stops_the_read_and_resumes() {
    let mut reader = Reader::new().unwrap();
    let mut n = 0;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        reader.read_path(
            common::fib_path(),
            Callbacks::new().on_method(|m| {
                n += 1;
                if m.id == 4 {
                    panic!("boom at {}", m.name);
                }
            }),
        )
    }));
    let payload = r.unwrap_err();
    assert_eq!(payload.downcast_ref::<String>().map(String::as_str), Some("boom at print"));
    assert_eq!(n, 4, "no callback after the panic");
    // The reader is still usable.
    let mut types = 0;
    reader.read_path(common::fib_path(), Callbacks::new().on_type(|_, _| types += 1)).unwrap();
    assert_eq!(types, 17);

    // A panicking io::Read source.
    struct Bad;
    impl Read for Bad {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            panic!("source")
        }
    }
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| reader.load_from(Bad)));
    assert_eq!(r.unwrap_err().downcast_ref::<&str>(), Some(&"source"));
}

#[test]
fn io_errors_of_a_source() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            let doc = b"{\"version\":\"1.0.0\",";
            let n = doc.len().min(buf.len());
            buf[..n].copy_from_slice(&doc[..n]);
            self.0 -= 1;
            Ok(n)
        }
    }
    let mut reader = Reader::new().unwrap();
    let e = reader.read_from(Failing(1), Callbacks::new()).unwrap_err();
    assert_eq!(e.status(), Status::Io);
    assert!(e.message().ends_with("disk on fire"), "{e}");
    let e = Reader::new().unwrap().load_from(Failing(0)).unwrap_err();
    assert_eq!(e.status(), Status::Io);
    assert!(e.message().contains("disk on fire"), "{e}");
}

#[test]
fn unknown_keys_and_odd_names() {
    let doc = "{\"version\":\"1.0.0\",\"extra\":{\"a\": [1, 2.5, \"x\"]},\"types\":[{\"id\":0,\"name\":\"a\\u0000b\"},\
               {\"id\":1,\"name\":\"\u{00e9}\u{1F600}\\n\"}],\"methods\":[],\"extra\":null}";
    let seen = RefCell::new(Seen::default());
    Reader::new().unwrap().read_bytes(doc.as_bytes(), collect(&seen)).unwrap();
    let s = seen.into_inner();
    assert_eq!(s.unknown, [("extra".to_string(), b"{\"a\": [1, 2.5, \"x\"]}".to_vec()), ("extra".to_string(), b"null".to_vec())]);
    assert_eq!(s.types[0].1, "a\0b");
    assert_eq!(s.types[1].1, "\u{00e9}\u{1F600}\n");
    // The model keeps the NUL and finds the name with it.
    let m = iprof::Model::load_bytes(doc.as_bytes()).unwrap();
    assert_eq!(m.type_by_name("a\0b").unwrap().id(), 0);
    assert!(m.type_by_name("a").is_none());
}

/// The typical use: resolve ids to names while streaming, state shared by
/// all callbacks in one Handler.
#[derive(Default)]
struct PerMethod {
    type_names: HashMap<i64, String>,
    methods: HashMap<i64, String>,
    calls: HashMap<String, i64>,
    elements: usize,
}

impl Handler for PerMethod {
    fn type_(&mut self, id: i64, name: &str) -> ControlFlow<()> {
        self.elements += 1;
        self.type_names.insert(id, name.to_string());
        ControlFlow::Continue(())
    }
    fn method(&mut self, m: MethodEvent<'_>) -> ControlFlow<()> {
        self.elements += 1;
        self.methods.insert(m.id, format!("{}.{}", self.type_names[&m.signature[0]], m.name));
        ControlFlow::Continue(())
    }
    fn entry(&mut self, e: EntryEvent<'_>) -> ControlFlow<()> {
        self.elements += 1;
        if e.kind == Kind::CallCount {
            *self.calls.entry(self.methods[&e.frames[0].method_id].clone()).or_default() += e.records[0];
        }
        ControlFlow::Continue(())
    }
}

#[test]
fn a_handler_struct_shares_state() {
    let mut h = PerMethod::default();
    Reader::new().unwrap().read_path(common::fib_path(), &mut h).unwrap();
    assert_eq!(h.calls["Fib.fibonacci"], 1);
    assert_eq!(h.calls["java.lang.Thread.sleep"], 10);
    assert_eq!(h.calls.values().sum::<i64>(), 54);
    assert_eq!(h.elements, 17 + 10 + 16);
    // A handler that stops.
    struct StopAtFirstEntry(usize);
    impl Handler for StopAtFirstEntry {
        fn entry(&mut self, _: EntryEvent<'_>) -> ControlFlow<()> {
            self.0 += 1;
            ControlFlow::Break(())
        }
    }
    let mut stop = StopAtFirstEntry(0);
    let e = Reader::new().unwrap().read_path(common::fib_path(), &mut stop).unwrap_err();
    assert_eq!((e.status(), stop.0), (Status::Stopped, 1));
    // Interest limits what is delivered.
    struct OnlyTypes(usize);
    impl Handler for OnlyTypes {
        fn type_(&mut self, _: i64, _: &str) -> ControlFlow<()> {
            self.0 += 1;
            ControlFlow::Continue(())
        }
        fn method(&mut self, _: MethodEvent<'_>) -> ControlFlow<()> {
            panic!("not wanted")
        }
        fn interest(&self) -> Interest {
            Interest { types: true, ..Interest::NONE }
        }
    }
    let mut only = OnlyTypes(0);
    Reader::new().unwrap().read_path(common::fib_path(), &mut only).unwrap();
    assert_eq!(only.0, 17);
}
