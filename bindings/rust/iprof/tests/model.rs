//! The model: exact values of examples/fib.iprof, lookups, views,
//! contexts, mutation and combining, retain, int64 extremes, threads,
//! threaded loads (`ReadOptions::threaded`).

mod common;

use std::collections::HashSet;

use iprof::{parse_ctx, Error, FilterOptions, Frame, Kind, Model, ReadOptions, Reader, Status, WriteOptions, Writer};

fn fib() -> Model {
    Model::load(common::fib_path()).expect("examples/fib.iprof loads")
}

#[test]
fn build_indexes_then_look_up() {
    let mut m = fib();
    m.build_indexes().expect("indexes build");
    assert_eq!(m.type_by_name("Fib").map(|t| t.id()), Some(10));
    let frames = parse_ctx("1:0").expect("ctx parses");
    assert_eq!(m.entry_find(Kind::CallCount, &frames).map(|e| e.records().to_vec()), Some(vec![1]));
}

#[test]
fn fib_exact_values() {
    let m = fib();
    assert_eq!(m.version(), "1.1.0");
    assert_eq!(m.type_count(), 17);
    assert_eq!(m.method_count(), 10);
    let counts: Vec<usize> = Kind::ALL.iter().map(|&k| m.entry_count(k)).collect();
    assert_eq!(counts, [9, 2, 1, 1, 2, 1]);

    let t = m.type_at(10).unwrap();
    assert_eq!((t.id(), t.name()), (10, "Fib"));
    assert_eq!(m.type_by_id(15).unwrap().name(), "[Ljava.lang.String;");
    assert_eq!(m.type_by_name("java.lang.StringBuilder").unwrap().id(), 16);
    assert!(m.type_by_id(17).is_none());
    assert!(m.type_by_name("Fob").is_none());
    assert!(m.type_at(17).is_none());
    let names: Vec<&str> = m.types().map(|t| t.name()).collect();
    assert_eq!(&names[..3], ["boolean", "byte", "short"]);
    assert_eq!(m.types().next_back().unwrap().id(), 16);
    assert_eq!(m.types().len(), 17);

    let fibonacci = m.method_by_id(3).unwrap();
    assert_eq!(fibonacci.name(), "fibonacci");
    assert_eq!(fibonacci.signature(), [10, 8]);
    assert_eq!(fibonacci.declaring_type_id(), Some(10));
    assert_eq!(m.describe_method(fibonacci), "Fib.fibonacci");
    assert_eq!(m.method_find("append", &[16, 16, 4]).unwrap().id(), 8);
    assert!(m.method_find("append", &[16, 16]).is_none());
    let ids: Vec<i64> = m.methods().map(|x| x.id()).collect();
    assert_eq!(ids, (1..=10).collect::<Vec<_>>());

    let e = m.entry_at(Kind::CallCount, 6).unwrap();
    assert_eq!(e.kind(), Kind::CallCount);
    assert_eq!(e.context().to_string(), "5:0<4:2<3:34");
    assert_eq!(e.records(), [10]);
    assert_eq!(m.describe_context(e.context()), "java.lang.String.valueOf:0 < java.io.PrintStream.print:2 < Fib.fibonacci:34");

    let cond = m.entry_find(Kind::Conditional, &[Frame::new(3, 11)]).unwrap();
    assert_eq!(cond.records(), [20, 0, 10, 53, 1, 1]);
    let mon: Vec<_> = m.entries(Kind::Monitor).collect();
    assert_eq!(mon.len(), 1);
    assert_eq!(mon[0].context().to_string(), "0:0");
    assert_eq!(mon[0].records(), [9, 4, 10, 1]);
    assert_eq!(m.describe_context(mon[0].context()), "?0:0");
    let inst = m.entry_at(Kind::Instanceof, 0).unwrap();
    assert_eq!(inst.records(), [11, 10, 16, 2]);
    let samples: i64 = m.entries(Kind::Sampling).map(|e| e.records()[0]).sum();
    assert_eq!(samples, 11);
    let calls: i64 = m.entries(Kind::CallCount).map(|e| e.records()[0]).sum();
    assert_eq!(calls, 54);
}

#[test]
fn contexts_are_interned_and_walkable() {
    let m = fib();
    let e = m.entry_find(Kind::CallCount, &parse_ctx("5:0<4:2<3:34").unwrap()).unwrap();
    let ctx = e.context();
    assert_eq!(ctx.depth(), 3);
    assert_eq!((ctx.method_id(), ctx.bci()), (5, 0));
    assert_eq!(ctx.frames().collect::<Vec<_>>(), [Frame::new(5, 0), Frame::new(4, 2), Frame::new(3, 34)]);
    assert_eq!(ctx.to_frames(), ctx.frames().collect::<Vec<_>>());
    assert_eq!(ctx.frames().len(), 3);
    let caller = ctx.caller().unwrap();
    assert_eq!(caller.to_string(), "4:2<3:34");
    assert!(caller.caller().unwrap().caller().is_none());
    // The call-count entry "4:0<3:34" and the conditional "5:1<4:2<3:34"
    // share caller nodes: interning makes equal contexts the same node.
    let cond = m.entry_find(Kind::Conditional, &parse_ctx("5:1<4:2<3:34").unwrap()).unwrap();
    assert_eq!(cond.context().caller().unwrap(), caller);
    assert_ne!(cond.context(), ctx);
    let distinct: HashSet<_> = Kind::ALL.iter().flat_map(|&k| m.entries(k)).map(|e| e.context()).collect();
    assert!(distinct.len() <= m.context_count());
    // A 0:0 frame list and an unknown one.
    assert!(m.entry_find(Kind::CallCount, &[Frame::new(99, 0)]).is_none());
    assert!(m.entry_find(Kind::CallCount, &[]).is_none());
}

#[test]
fn iterators_are_exact_and_double_ended() {
    let m = fib();
    let mut it = m.entries(Kind::CallCount);
    assert_eq!(it.len(), 9);
    assert_eq!(it.next().unwrap().context().to_string(), "1:0");
    assert_eq!(it.next_back().unwrap().context().to_string(), "9:0<3:31");
    assert_eq!(it.len(), 7);
    assert_eq!(it.nth(6).unwrap().context().to_string(), "8:0<3:27");
    assert!(it.next().is_none());
    assert!(it.next_back().is_none());
    assert_eq!(m.methods().rev().map(|x| x.id()).collect::<Vec<_>>(), (1..=10).rev().collect::<Vec<_>>());
}

#[test]
fn building_and_combining() {
    let mut m = Model::new().unwrap();
    assert_eq!(m.version(), iprof::FORMAT_LATEST);
    m.add_type(0, "int").unwrap();
    m.add_type(1, "A").unwrap();
    m.add_type(2, "B").unwrap();
    assert_eq!(m.add_type(1, "again").unwrap_err().status(), Status::Invalid);
    m.add_method(1, "m", &[1, 0]).unwrap();
    m.add_method(2, "n", &[1, 0, 2]).unwrap();
    assert_eq!(m.add_method(3, "x", &[1, 7]).unwrap_err().status(), Status::Dangling);

    let ctx = [Frame::new(1, 0)];
    m.add_entry(Kind::CallCount, &ctx, &[5]).unwrap();
    m.add_entry(Kind::CallCount, &ctx, &[7]).unwrap();
    assert_eq!(m.entry_find(Kind::CallCount, &ctx).unwrap().records(), [12]);
    // Saturation at i64::MAX.
    m.add_entry(Kind::CallCount, &ctx, &[i64::MAX]).unwrap();
    assert_eq!(m.entry_find(Kind::CallCount, &ctx).unwrap().records(), [i64::MAX]);

    // Conditional triples matched by (bci, index), new ones appended.
    let c2 = [Frame::new(2, 4), Frame::new(1, 3)];
    m.add_entry(Kind::Conditional, &c2, &[4, 0, 10, 4, 1, 2]).unwrap();
    m.add_entry(Kind::Conditional, &c2, &[4, 1, 3, 9, 0, 1]).unwrap();
    assert_eq!(m.entry_find(Kind::Conditional, &c2).unwrap().records(), [4, 0, 10, 4, 1, 5, 9, 0, 1]);
    // Pairs matched by type.
    m.add_entry(Kind::VirtualInvoke, &c2, &[1, 3]).unwrap();
    m.add_entry(Kind::VirtualInvoke, &c2, &[2, 1, 1, 4]).unwrap();
    assert_eq!(m.entry_find(Kind::VirtualInvoke, &c2).unwrap().records(), [1, 7, 2, 1]);
    m.add_entry(Kind::Monitor, &[Frame::new(0, 0)], &[2, 8]).unwrap();

    // Rule violations and dangling references change nothing.
    let e = m.add_entry(Kind::CallCount, &[Frame::new(1, 3)], &[1]).unwrap_err();
    assert_eq!(e.status(), Status::Schema);
    assert_eq!((e.line(), e.column(), e.path()), (0, 0, ""));
    assert_eq!(m.add_entry(Kind::CallCount, &[Frame::new(9, 0)], &[1]).unwrap_err().status(), Status::Dangling);
    assert_eq!(m.add_entry(Kind::VirtualInvoke, &c2, &[9, 1]).unwrap_err().status(), Status::Dangling);
    assert_eq!(m.add_entry(Kind::CallCount, &[], &[1]).unwrap_err().status(), Status::Invalid);
    assert_eq!(m.entry_count(Kind::CallCount), 1);

    // Removal.
    assert_eq!(m.remove_entry(Kind::Sampling, &ctx).unwrap_err().status(), Status::NotFound);
    m.remove_entry(Kind::VirtualInvoke, &c2).unwrap();
    assert_eq!(m.entry_count(Kind::VirtualInvoke), 0);
    assert_eq!(m.remove_type(42).unwrap_err().status(), Status::NotFound);
    m.set_version("1.0.0").unwrap();
    assert_eq!(m.version(), "1.0.0");
    assert_eq!(m.set_version("2.0.0").unwrap_err().status(), Status::Version);
    assert_eq!(m.set_version("1.0\0.0").unwrap_err().status(), Status::Invalid);

    // What was built writes and reads back.
    let bytes = m.to_bytes().unwrap();
    let back = Model::load_bytes(&bytes).unwrap();
    assert_eq!(back.version(), "1.0.0");
    assert_eq!(back.to_bytes().unwrap(), bytes);
    assert_eq!(back.entry_find(Kind::Conditional, &c2).unwrap().records(), [4, 0, 10, 4, 1, 5, 9, 0, 1]);
}

#[test]
fn filter_predicates_keep_and_views_cannot_escape() {
    let mut m = fib();
    let mut seen = 0;
    m.filter(&FilterOptions::new().keep_entry(|e| {
        if e.kind() != Kind::CallCount {
            return true;
        }
        seen += 1;
        e.records()[0] >= 10
    }))
    .unwrap();
    assert_eq!(seen, 9);
    assert_eq!(m.entry_count(Kind::CallCount), 5);
    assert!(m.entries(Kind::CallCount).all(|e| e.records()[0] == 10));
    // Other kinds are untouched.
    assert_eq!(m.entry_count(Kind::Conditional), 2);
    m.filter(&FilterOptions::new().keep_entry(|_| false)).unwrap();
    assert_eq!(Kind::ALL.map(|k| m.entry_count(k)), [0; 6]);
    m.filter(&FilterOptions::new().keep_method(|x| x.name() != "toString")).unwrap();
    assert_eq!(m.method_count(), 8);
    m.filter(&FilterOptions::new().keep_type(|t| t.id() < 12)).unwrap();
    assert_eq!(m.type_count(), 12);
}

#[test]
fn panic_in_filter_keeps_the_rest_and_resumes() {
    let mut m = fib();
    let mut calls = 0;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        m.filter(&FilterOptions::new().kinds(&Kind::ALL).keep_entry(|e| {
            calls += 1;
            if calls == 3 {
                panic!("boom in filter");
            }
            e.records()[0] != 1
        }))
    }));
    let payload = r.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"boom in filter"));
    assert_eq!(calls, 3);
    // The first two (count 1) were dropped, the rest kept; still usable.
    assert_eq!(m.entry_count(Kind::CallCount), 7);
    assert_eq!(m.entries(Kind::CallCount).filter(|e| e.records()[0] == 1).count(), 2);
    m.add_entry(Kind::CallCount, &[Frame::new(1, 0)], &[1]).unwrap();
}

#[test]
fn int64_extremes() {
    let d = common::doc(
        "1.1.0",
        ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[9223372036854775807]}],\n\
         \"conditionalProfiles\":[{\"ctx\":\"1:-9223372036854775808\",\"records\":[-9223372036854775808,9223372036854775807,9223372036854775807]}],\n\
         \"virtualInvokeProfiles\":[{\"ctx\":\"2:9223372036854775807<1:-1\",\"records\":[1,-9223372036854775808]}]}",
    );
    let mut m = Model::load_bytes(d.as_bytes()).unwrap();
    assert_eq!(m.entry_at(Kind::CallCount, 0).unwrap().records(), [i64::MAX]);
    let c = m.entry_at(Kind::Conditional, 0).unwrap();
    assert_eq!(c.records(), [i64::MIN, i64::MAX, i64::MAX]);
    assert_eq!(c.context().bci(), i64::MIN);
    assert_eq!(c.context().to_string(), "1:-9223372036854775808");
    let v = m.entry_at(Kind::VirtualInvoke, 0).unwrap();
    assert_eq!(v.records(), [1, i64::MIN]);
    assert_eq!(v.context().frames().collect::<Vec<_>>(), [Frame::new(2, i64::MAX), Frame::new(1, -1)]);

    // Sums saturate at the top.
    m.add_entry(Kind::CallCount, &[Frame::new(1, 0)], &[1]).unwrap();
    assert_eq!(m.entry_at(Kind::CallCount, 0).unwrap().records(), [i64::MAX]);
    // A merge with weight 2 saturates too.
    let src = Model::load_bytes(d.as_bytes()).unwrap();
    let mut dst = Model::new().unwrap();
    dst.merge(&src, 2.0).unwrap();
    dst.merge(&src, 2.0).unwrap();
    assert_eq!(dst.entry_at(Kind::CallCount, 0).unwrap().records(), [i64::MAX]);

    // The extremes are written back exactly.
    let out = String::from_utf8(m.to_bytes().unwrap()).unwrap();
    assert!(out.contains("\"records\":[-9223372036854775808,9223372036854775807,9223372036854775807]"), "{out}");
    assert!(out.contains("\"ctx\":\"2:9223372036854775807<1:-1\""), "{out}");

    // One past either end is a limit error with its position.
    for bad in ["9223372036854775808", "-9223372036854775809"] {
        let d = common::doc("1.1.0", &format!(",\n\"callCountProfiles\":[{{\"ctx\":\"1:0\",\"records\":[{bad}]}}]}}"));
        let e = Model::load_bytes(d.as_bytes()).unwrap_err();
        assert_eq!(e.status(), Status::Limit, "{e}");
        let offset = d.find(bad).unwrap();
        let line_start = d[..offset].rfind('\n').map_or(0, |i| i + 1);
        assert_eq!(e.offset(), offset as u64, "{e}");
        assert_eq!((e.line(), e.column()), (6, (offset - line_start + 1) as u64), "{e}");
        assert_eq!(e.path(), "callCountProfiles[0].records[0]");
    }
}

#[test]
fn merge_by_names_with_weights() {
    // dst: types int, A; method A.m. src: B, A (other ids), methods A.m and
    // A.n(B) under other ids.
    let mut dst = Model::new().unwrap();
    dst.add_type(0, "int").unwrap();
    dst.add_type(1, "A").unwrap();
    dst.add_method(1, "m", &[1, 0]).unwrap();
    dst.add_entry(Kind::CallCount, &[Frame::new(1, 0)], &[10]).unwrap();

    let mut src = Model::new().unwrap();
    src.add_type(5, "int").unwrap();
    src.add_type(0, "B").unwrap();
    src.add_type(7, "A").unwrap();
    src.add_method(1, "n", &[7, 5, 0]).unwrap();
    src.add_method(4, "m", &[7, 5]).unwrap();
    src.add_entry(Kind::CallCount, &[Frame::new(4, 0)], &[3]).unwrap();
    src.add_entry(Kind::VirtualInvoke, &[Frame::new(1, 2)], &[0, 5]).unwrap();

    dst.merge(&src, 3.0).unwrap();
    assert_eq!(dst.type_count(), 3);
    let b = dst.type_by_name("B").unwrap();
    assert_eq!(b.id(), 2, "B's id 0 is taken in dst: max + 1");
    let n = dst.methods().find(|x| x.name() == "n").unwrap();
    assert_eq!(n.id(), 2, "n's id 1 is taken: max + 1");
    assert_eq!(n.signature(), [1, 0, 2]);
    assert_eq!(dst.entry_find(Kind::CallCount, &[Frame::new(1, 0)]).unwrap().records(), [10 + 3 * 3]);
    assert_eq!(dst.entry_find(Kind::VirtualInvoke, &[Frame::new(2, 2)]).unwrap().records(), [2, 15]);

    // Weights: 0.5 rounds to nearest; bad weights are refused.
    dst.merge(&src, 0.5).unwrap();
    assert_eq!(dst.entry_find(Kind::CallCount, &[Frame::new(1, 0)]).unwrap().records(), [19 + 2]);
    for w in [-1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(dst.merge(&src, w).unwrap_err().status(), Status::Invalid, "weight {w}");
    }
}

#[test]
fn merge_gives_the_highest_version() {
    let load = |v: &str| Model::load_bytes(common::doc(v, "}").as_bytes()).unwrap();
    let (v040, v100, v110) = (load("0.4.0"), load("1.0.0"), load("1.1.0"));
    // A new model takes its first input's version, even a lower one.
    let mut m = Model::new().unwrap();
    assert_eq!(m.version(), "1.1.0");
    m.merge(&v100, 1.0).unwrap();
    assert_eq!(m.version(), "1.0.0");
    m.merge(&v040, 1.0).unwrap(); // lower: kept
    assert_eq!(m.version(), "1.0.0");
    m.merge(&v110, 1.0).unwrap(); // higher: raised
    assert_eq!(m.version(), "1.1.0");
    m.merge(&v100, 1.0).unwrap();
    assert_eq!(m.version(), "1.1.0");
    // A loaded model, or one whose version was set, is raised, never lowered.
    let mut m = load("0.4.0");
    m.merge(&v100, 1.0).unwrap();
    assert_eq!(m.version(), "1.0.0");
    let mut m = Model::new().unwrap();
    m.set_version("1.0.0").unwrap();
    m.merge(&v040, 1.0).unwrap();
    assert_eq!(m.version(), "1.0.0");
}

#[test]
fn models_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Model>();
    send_sync::<iprof::Type<'static>>();
    send_sync::<iprof::Entry<'static>>();
    send_sync::<iprof::Entries<'static>>();

    let m = fib();
    // Read one model from several threads at once.
    let sums: Vec<i64> = std::thread::scope(|s| {
        let handles: Vec<_> = Kind::ALL
            .iter()
            .map(|&k| {
                let m = &m;
                s.spawn(move || m.entries(k).flat_map(|e| e.records().iter().copied()).sum::<i64>())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(sums[0], 54);
    // And move it to another thread.
    let version = std::thread::spawn(move || m.version().to_string()).join().unwrap();
    assert_eq!(version, "1.1.0");
}

// ---- threaded loads ---------------------------------------------------------

/// A small valid 1.0.0 document, minified as GraalVM writes it, with int64
/// extremes everywhere a number can be (Python's support.EXTREMES).
fn extremes() -> String {
    let (min, max) = (i64::MIN, i64::MAX);
    format!(
        "{{\"version\":\"1.0.0\",\"types\":[{{\"id\":{min},\"name\":\"Min\"}},{{\"id\":0,\"name\":\"int\"}},\
         {{\"id\":{max},\"name\":\"Max\"}}],\"methods\":[{{\"id\":{max},\"name\":\"big\",\"signature\":[{min},0]}},\
         {{\"id\":1,\"name\":\"m\",\"signature\":[{max},0,{min}]}}],\
         \"callCountProfiles\":[{{\"ctx\":\"{max}:0<1:{min}\",\"records\":[{max}]}},{{\"ctx\":\"1:0\",\"records\":[{min}]}}],\
         \"conditionalProfiles\":[{{\"ctx\":\"1:{max}\",\"records\":[{min},0,{max},-1,{max},1]}}],\
         \"virtualInvokeProfiles\":[{{\"ctx\":\"1:{min}\",\"records\":[{min},{max},{max},{min}]}}],\
         \"monitorProfiles\":[{{\"ctx\":\"0:0\",\"records\":[0,{max}]}}],\
         \"samplingProfiles\":[{{\"ctx\":\"{max}:{max}\",\"records\":[{max}]}}]}}"
    )
}

/// A valid 1.0.0 document of about 1.7 MB (Python's many_batches_doc): a
/// threaded load hands it from the reading thread to the building one in
/// many batches.
fn many_batches_doc(methods: usize, entries: usize) -> String {
    let ctx = |i: usize| {
        (0..1 + i % 6)
            .map(|d| format!("{}:{}", 1 + (i * 31 + d * 17) % methods, 3 * d))
            .collect::<Vec<_>>()
            .join("<")
    };
    let section = |key: &str, items: Vec<String>| format!(",\"{key}\":[{}]", items.join(","));
    let entry = |c: String, r: String| format!("{{\"ctx\":\"{c}\",\"records\":[{r}]}}");
    let mut types: Vec<String> = (0..10).map(|i| format!("{{\"id\":{i},\"name\":\"T{i}\"}}")).collect();
    types.extend((0..200).map(|i| format!("{{\"id\":{},\"name\":\"pkg.C{i}\"}}", 10 + i)));
    let meths: Vec<String> = (0..methods)
        .map(|i| {
            format!("{{\"id\":{},\"name\":\"m{i}\",\"signature\":[{},{},{}]}}", 1 + i, 10 + i % 200, i % 10, (i * 7) % 210)
        })
        .collect();
    let mut d = format!("{{\"version\":\"1.0.0\",\"types\":[{}],\"methods\":[{}]", types.join(","), meths.join(","));
    d += &section("callCountProfiles", (0..entries).map(|i| entry(ctx(i), format!("{}", i as i64 * 1000003))).collect());
    d += &section(
        "conditionalProfiles",
        (0..entries).step_by(4).map(|i| entry(ctx(i + 1), format!("{},{},{}", i % 7, i, i64::MAX - i as i64))).collect(),
    );
    d += &section(
        "virtualInvokeProfiles",
        (0..entries).step_by(3).map(|i| entry(ctx(i + 2), format!("{},{}", 10 + i % 200, i))).collect(),
    );
    d += &section("monitorProfiles", Vec::new());
    d += &section(
        "samplingProfiles",
        (0..entries).step_by(2).map(|i| entry(ctx(i + 3), format!("{}", i64::MIN + i as i64))).collect(),
    );
    d + "}"
}

/// Load with a reader of these options, threaded or not; the written bytes
/// (without validation) and the diagnostics.
fn load_written(
    threaded: bool,
    strict: bool,
    load: &dyn Fn(&mut Reader) -> iprof::Result<Model>,
) -> (Vec<u8>, Vec<Error>) {
    let mut reader = Reader::with_options(&ReadOptions::new().strict(strict).threaded(threaded)).unwrap();
    let model = load(&mut reader).unwrap();
    let mut w = Writer::to_memory(&WriteOptions::new().no_validate(true)).unwrap();
    w.write_model(&model).unwrap();
    (w.into_bytes().unwrap(), reader.diagnostics())
}

/// The bytes written after an unthreaded and a threaded load are equal;
/// returns them.
fn same_both_ways(strict: bool, load: &dyn Fn(&mut Reader) -> iprof::Result<Model>) -> Vec<u8> {
    let (plain, d0) = load_written(false, strict, load);
    let (threaded, d1) = load_written(true, strict, load);
    assert!(threaded == plain, "threaded load wrote other bytes");
    assert_eq!(d1, d0);
    assert!(d0.is_empty(), "{d0:?}");
    plain
}

#[test]
fn threaded_load_small_profiles_same_bytes() {
    let data = extremes();
    let data = data.as_bytes();
    assert!(same_both_ways(true, &|r| r.load_bytes(data)) == data);
    assert!(same_both_ways(true, &|r| r.load_from(data)) == data);
    // fib.iprof is pretty-printed: written back minified, the same both ways.
    let fib = std::fs::read(common::fib_path()).unwrap();
    let a = same_both_ways(true, &|r| r.load_path(common::fib_path()));
    let b = same_both_ways(true, &|r| r.load_bytes(&fib));
    assert!(a == b);
}

#[test]
fn threaded_load_many_batches_same_bytes() {
    let data = many_batches_doc(3000, 12000);
    assert!(data.len() > 1_500_000, "{}", data.len());
    let data = data.as_bytes();
    let dir = common::temp_dir("threaded-many-batches");
    let path = dir.join("big.iprof");
    std::fs::write(&path, data).unwrap();
    assert!(same_both_ways(true, &|r| r.load_bytes(data)) == data);
    assert!(same_both_ways(true, &|r| r.load_path(&path)) == data);
    assert!(same_both_ways(true, &|r| r.load_from(std::fs::File::open(&path).unwrap())) == data);
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        // A fresh descriptor per load: a load reads it to its end.
        assert!(same_both_ways(true, &|r| r.load_fd(std::fs::File::open(&path).unwrap().as_fd())) == data);
    }
    let m = Reader::with_options(&ReadOptions::new().threaded(true)).unwrap().load_bytes(data).unwrap();
    assert_eq!(m.method_count(), 3000);
    assert_eq!(m.entry_count(Kind::CallCount), 12000);
    assert_eq!(m.entry_at(Kind::CallCount, 11999).unwrap().records(), [11999 * 1000003]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn threaded_load_reads_on_calling_thread() {
    struct Source<'a> {
        data: &'a [u8],
        threads: HashSet<std::thread::ThreadId>,
    }
    impl std::io::Read for Source<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.threads.insert(std::thread::current().id());
            self.data.read(buf)
        }
    }
    let data = many_batches_doc(500, 4000);
    let mut src = Source { data: data.as_bytes(), threads: HashSet::new() };
    let opts = ReadOptions::new().threaded(true).chunk_size(4096);
    let m = Reader::with_options(&opts).unwrap().load_from(&mut src).unwrap();
    assert!(m.to_bytes().unwrap() == data.as_bytes());
    assert_eq!(src.threads, HashSet::from([std::thread::current().id()]));
}

#[test]
fn threaded_load_diagnostics_and_errors_same() {
    // Lenient: a wrong record count and a dangling method, 2000 times each.
    let bad = format!(
        "{{\"version\":\"1.0.0\",\"types\":[{{\"id\":0,\"name\":\"int\"}}],\
         \"methods\":[{{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}}],\"callCountProfiles\":[{}]}}",
        vec!["{\"ctx\":\"1:0\",\"records\":[1,2]},{\"ctx\":\"7:0\",\"records\":[1]}"; 2000].join(",")
    );
    let (plain, d0) = load_written(false, false, &|r| r.load_bytes(bad.as_bytes()));
    let (threaded, d1) = load_written(true, false, &|r| r.load_bytes(bad.as_bytes()));
    assert!(threaded == plain);
    assert_eq!(d0.len(), 4000);
    assert_eq!(d1, d0);
    // Errors: strict on the bad document, a syntax error near the end.
    let mut syntax = many_batches_doc(500, 4000);
    syntax.truncate(syntax.len() - 2);
    syntax += ",]}"; // trailing comma
    for (data, strict) in [(bad.as_str(), true), (syntax.as_str(), false)] {
        let errors: Vec<(Error, Vec<Error>)> = [false, true]
            .into_iter()
            .map(|threaded| {
                let mut r = Reader::with_options(&ReadOptions::new().strict(strict).threaded(threaded)).unwrap();
                let e = r.load_bytes(data.as_bytes()).unwrap_err();
                (e, r.diagnostics())
            })
            .collect();
        assert_eq!(errors[1], errors[0]);
        assert!(matches!(errors[0].0.status(), Status::Schema | Status::Syntax), "{}", errors[0].0);
    }
}
