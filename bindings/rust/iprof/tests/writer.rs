//! The writer: streaming output with exact bytes, all sinks, atomic paths,
//! options, panics and I/O errors of a sink.

mod common;

use std::io::{self, Write};

use iprof::{Frame, Kind, Model, Status, WriteOptions, Writer};

/// A small document written element by element.
fn stream(w: &mut Writer<'_>, version: &str) -> iprof::Result<()> {
    w.begin(Some(version))?;
    w.write_type(0, "int")?;
    w.write_type(1, "A\"\\\n\u{e9}")?;
    w.write_method(1, "m", &[1, 0])?;
    w.write_entry(Kind::CallCount, &[Frame::new(1, 0)], &[i64::MAX])?;
    w.write_entry(Kind::Conditional, &[Frame::new(1, -1)], &[-1, 0, i64::MIN])?;
    w.end()
}

const EXPECTED_1_0_0: &str = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"A\\\"\\\\\\n\u{e9}\"}],\
\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0]}],\
\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[9223372036854775807]}],\
\"conditionalProfiles\":[{\"ctx\":\"1:-1\",\"records\":[-1,0,-9223372036854775808]}],\
\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}";

#[test]
fn streaming_to_memory_exact_bytes() {
    let mut w = Writer::to_memory(&WriteOptions::new()).unwrap();
    stream(&mut w, "1.0.0").unwrap();
    assert_eq!(std::str::from_utf8(w.bytes().unwrap()).unwrap(), EXPECTED_1_0_0);
    // Read back: the same values.
    let m = Model::load_bytes(w.bytes().unwrap()).unwrap();
    assert_eq!(m.type_by_id(1).unwrap().name(), "A\"\\\n\u{e9}");
    assert_eq!(m.entry_at(Kind::Conditional, 0).unwrap().records(), [-1, 0, i64::MIN]);
    // And written again, the same bytes.
    assert_eq!(m.to_bytes().unwrap(), w.into_bytes().unwrap());
}

#[test]
fn all_sinks_give_the_same_bytes() {
    let dir = common::temp_dir("sinks");
    // io::Write, owned and borrowed.
    let mut out = Vec::new();
    {
        let mut w = Writer::to_write(&mut out, &WriteOptions::new()).unwrap();
        stream(&mut w, "1.0.0").unwrap();
    }
    assert_eq!(String::from_utf8(out).unwrap(), EXPECTED_1_0_0);
    let mut w = Writer::to_write(io::BufWriter::new(Vec::new()), &WriteOptions::new().buffer_size(5)).unwrap();
    stream(&mut w, "1.0.0").unwrap();
    // fd.
    let path = dir.join("fd.iprof");
    {
        let f = std::fs::File::create(&path).unwrap();
        use std::os::fd::AsFd;
        let mut w = Writer::to_fd(f.as_fd(), &WriteOptions::new()).unwrap();
        stream(&mut w, "1.0.0").unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), EXPECTED_1_0_0);
    // Path: atomic, nothing visible before end.
    let path = dir.join("atomic.iprof");
    std::fs::write(&path, "old").unwrap();
    let mut w = Writer::to_path(&path, &WriteOptions::new().no_sync(true)).unwrap();
    w.begin(Some("1.0.0")).unwrap();
    w.write_type(0, "int").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    drop(w); // dropped before end: the target is untouched, no temp file left
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "no temporary file left");
    let mut w = Writer::to_path(&path, &WriteOptions::new()).unwrap();
    stream(&mut w, "1.0.0").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), EXPECTED_1_0_0);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn versions_and_options() {
    let fib = Model::load(common::fib_path()).unwrap();
    // 0.4.0 layout: its section order, no instanceof (dropped on request).
    let e = Writer::to_memory(&WriteOptions::new().format_version("0.4.0"))
        .and_then(|mut w| w.write_model(&fib))
        .unwrap_err();
    assert_eq!(e.status(), Status::Version);
    let mut w = Writer::to_memory(&WriteOptions::new().format_version("0.4.0").drop_instanceof(true)).unwrap();
    w.write_model(&fib).unwrap();
    let text = String::from_utf8(w.into_bytes().unwrap()).unwrap();
    assert!(text.starts_with("{\"version\":\"0.4.0\",\"types\":"), "{text}");
    let order: Vec<usize> = ["\"monitorProfiles\"", "\"virtualInvokeProfiles\"", "\"callCountProfiles\"", "\"conditionalProfiles\"", "\"samplingProfiles\""]
        .iter()
        .map(|k| text.find(k).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(!text.contains("instanceof"));
    // Pretty: one element per line, the same model.
    let mut w = Writer::to_memory(&WriteOptions::new().pretty(true)).unwrap();
    w.write_model(&fib).unwrap();
    let pretty = w.into_bytes().unwrap();
    assert!(pretty.iter().filter(|&&b| b == b'\n').count() > 40);
    let back = Model::load_bytes(&pretty).unwrap();
    assert_eq!(back.to_bytes().unwrap(), fib.to_bytes().unwrap());
    // save() writes the model's version.
    let dir = common::temp_dir("versions");
    fib.save(dir.join("fib.iprof")).unwrap();
    assert_eq!(Model::load(dir.join("fib.iprof")).unwrap().version(), "1.1.0");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn sink_errors_and_panics() {
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::StorageFull, "no space left"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut w = Writer::to_write(Full, &WriteOptions::new().buffer_size(1)).unwrap();
    let e = stream(&mut w, "1.0.0").unwrap_err();
    assert_eq!(e.status(), Status::Io);
    assert!(e.message().ends_with("no space left"), "{e}");
    assert_eq!(w.end().unwrap_err().status(), Status::Io);

    struct Panicky;
    impl Write for Panicky {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            panic!("sink panic")
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut w = Writer::to_write(Panicky, &WriteOptions::new()).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| stream(&mut w, "1.0.0")));
    assert_eq!(r.unwrap_err().downcast_ref::<&str>(), Some(&"sink panic"));
    // The writer is failed but safe to use and drop.
    assert_eq!(w.end().unwrap_err().status(), Status::Io);

    struct FlushFails(Vec<u8>);
    impl Write for FlushFails {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::other("flush failed"))
        }
    }
    let mut w = Writer::to_write(FlushFails(Vec::new()), &WriteOptions::new()).unwrap();
    let e = stream(&mut w, "1.0.0").unwrap_err();
    assert_eq!(e.status(), Status::Io);
    assert!(e.to_string().contains("flush failed"), "{e}");
}

#[test]
fn writers_move_between_threads() {
    fn send<T: Send>() {}
    send::<Writer<'static>>();
    send::<iprof::Reader>();
    let fib = Model::load(common::fib_path()).unwrap();
    // One model written by several writers in several threads at once.
    let outputs: Vec<Vec<u8>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| {
                let fib = &fib;
                s.spawn(move || {
                    let mut w = Writer::to_memory(&WriteOptions::new()).unwrap();
                    w.write_model(fib).unwrap();
                    w.into_bytes().unwrap()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    let w = Writer::to_memory(&WriteOptions::new()).unwrap();
    std::thread::spawn(move || drop(w)).join().unwrap();
}
