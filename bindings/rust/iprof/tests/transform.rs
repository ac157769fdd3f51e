//! Model::canonicalize, Model::filter (transform.h) and gzip output and
//! input; the same cases as bindings/python/tests/test_transform.py.

mod common;

use iprof::{FilterOptions, Frame, Kind, Model, Prune, Reader, Status, WriteOptions, Writer};

fn ctx(s: &str) -> Vec<Frame> {
    iprof::parse_ctx(s).expect("valid ctx")
}

fn add(m: &mut Model, kind: Kind, c: &str, records: &[i64]) {
    m.add_entry(kind, &ctx(c), records).unwrap();
}

/// The same profile twice: as numbered by one file, and under other ids
/// and in another order (its call counts split across two adds).
fn profile(reordered: bool) -> Model {
    let mut m = Model::new().unwrap();
    if !reordered {
        for (id, name) in [(0, "void"), (1, "A"), (2, "B")] {
            m.add_type(id, name).unwrap();
        }
        m.add_method(1, "main", &[1, 0]).unwrap();
        m.add_method(2, "run", &[1, 0, 2]).unwrap();
        m.add_method(3, "old", &[1, 0]).unwrap();
        add(&mut m, Kind::CallCount, "1:0", &[1]);
        add(&mut m, Kind::CallCount, "2:0<1:5", &[2]);
        add(&mut m, Kind::CallCount, "3:0", &[5]);
        add(&mut m, Kind::Conditional, "2:7", &[9, 1, 4, 3, 0, 6]);
        add(&mut m, Kind::VirtualInvoke, "2:3", &[2, 4, 1, 7]);
        add(&mut m, Kind::Monitor, "0:0", &[2, 1, 1, 3]);
    } else {
        for (id, name) in [(40, "B"), (41, "void"), (42, "A")] {
            m.add_type(id, name).unwrap();
        }
        m.add_method(7, "old", &[42, 41]).unwrap();
        m.add_method(8, "run", &[42, 41, 40]).unwrap();
        m.add_method(9, "main", &[42, 41]).unwrap();
        add(&mut m, Kind::CallCount, "7:0", &[5]);
        add(&mut m, Kind::CallCount, "8:0<9:5", &[1]);
        add(&mut m, Kind::CallCount, "9:0", &[1]);
        add(&mut m, Kind::CallCount, "8:0<9:5", &[1]);
        add(&mut m, Kind::Conditional, "8:7", &[3, 0, 6, 9, 1, 4]);
        add(&mut m, Kind::VirtualInvoke, "8:3", &[42, 7, 40, 4]);
        add(&mut m, Kind::Monitor, "0:0", &[42, 3, 40, 1]);
    }
    m
}

/// The canonical form of `profile`, as GraalVM's layout writes it (a model
/// built in memory has no instanceof spelling of its own, so GraalVM's
/// "instanceOfProfiles").
const CANONICAL: &str = concat!(
    r#"{"version":"1.1.0","types":[{"id":0,"name":"A"},{"id":1,"name":"B"},{"id":2,"name":"void"}],"#,
    r#""methods":[{"id":1,"name":"main","signature":[0,2]},{"id":2,"name":"old","signature":[0,2]},"#,
    r#"{"id":3,"name":"run","signature":[0,2,1]}],"#,
    r#""callCountProfiles":[{"ctx":"1:0","records":[1]},{"ctx":"2:0","records":[5]},{"ctx":"3:0<1:5","records":[2]}],"#,
    r#""conditionalProfiles":[{"ctx":"3:7","records":[3,0,6,9,1,4]}],"#,
    r#""virtualInvokeProfiles":[{"ctx":"3:3","records":[0,7,1,4]}],"#,
    r#""monitorProfiles":[{"ctx":"0:0","records":[0,3,1,1]}],"samplingProfiles":[],"instanceOfProfiles":[]}"#
);

#[test]
fn canonicalize_makes_two_numberings_write_the_same_bytes() {
    let (mut a, mut b) = (profile(false), profile(true));
    assert_ne!(a.to_bytes().unwrap(), b.to_bytes().unwrap());
    a.canonicalize().unwrap();
    b.canonicalize().unwrap();
    let bytes = a.to_bytes().unwrap();
    assert_eq!(bytes, b.to_bytes().unwrap());
    assert_eq!(String::from_utf8(bytes.clone()).unwrap(), CANONICAL);
    a.canonicalize().unwrap(); // idempotent
    assert_eq!(a.to_bytes().unwrap(), bytes);
    // Views taken afterwards see the new contents.
    assert_eq!(b.type_at(0).unwrap().name(), "A");
    let run = b.entry_at(Kind::CallCount, 2).unwrap();
    assert_eq!(b.describe_context(run.context()), "A.run:0 < A.main:5");
}

#[test]
fn canonicalize_failure_leaves_the_model() {
    // A leniently loaded file with a dangling method id.
    let data = br#"{"version":"1.0.0","types":[{"id":0,"name":"int"}],"methods":[],"callCountProfiles":[{"ctx":"7:0","records":[1]}],"conditionalProfiles":[],"virtualInvokeProfiles":[],"monitorProfiles":[],"samplingProfiles":[]}"#;
    let mut m = Model::load_bytes(data).unwrap();
    let copy = |m: &Model| {
        let mut w = Writer::to_memory(&WriteOptions::new().no_validate(true)).unwrap();
        w.write_model(m).unwrap();
        w.into_bytes().unwrap()
    };
    let before = copy(&m);
    assert_eq!(m.canonicalize().unwrap_err().status(), Status::Dangling);
    assert_eq!(copy(&m), before);
}

/// Types in packages com.foo, com.foo.impl, com.foobar, org and net; a
/// method per type (5: unused); entries of four kinds.
fn filter_model() -> Model {
    let mut m = Model::new().unwrap();
    for (id, name) in [
        (0, "void"),
        (1, "com.foo.Bar"),
        (2, "com.foo.impl.Baz"),
        (3, "com.foobar.X"),
        (4, "org.Y"),
        (5, "net.Unused"),
    ] {
        m.add_type(id, name).unwrap();
    }
    for id in 1..=5 {
        m.add_method(id, &format!("m{id}"), &[id, 0]).unwrap();
    }
    add(&mut m, Kind::CallCount, "1:0", &[100]);
    add(&mut m, Kind::CallCount, "2:0", &[50]);
    add(&mut m, Kind::CallCount, "3:0", &[30]);
    add(&mut m, Kind::CallCount, "4:0<1:2", &[20]); // callee org.Y, caller com.foo.Bar
    add(&mut m, Kind::Sampling, "1:1", &[7]);
    add(&mut m, Kind::Sampling, "3:1", &[3]);
    add(&mut m, Kind::Monitor, "0:0", &[0, 9]);
    add(&mut m, Kind::VirtualInvoke, "2:4", &[1, 1, 2, 2]);
    m
}

type Shape = (Vec<String>, Vec<String>, usize, usize, Vec<i64>, Vec<i64>);

/// (call counts, samples, monitor entries, virtual invokes, method ids, type ids).
fn shape(m: &Model) -> Shape {
    let ctxs = |k| m.entries(k).map(|e| e.context().to_string()).collect();
    (
        ctxs(Kind::CallCount),
        ctxs(Kind::Sampling),
        m.entry_count(Kind::Monitor),
        m.entry_count(Kind::VirtualInvoke),
        m.methods().map(|x| x.id()).collect(),
        m.types().map(|t| t.id()).collect(),
    )
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// `Shape` as literals.
type Expected<'x> = (&'x [&'x str], &'x [&'x str], usize, usize, &'x [i64], &'x [i64]);

const ALL_METHODS: &[i64] = &[1, 2, 3, 4, 5];
const ALL_TYPES: &[i64] = &[0, 1, 2, 3, 4, 5];

/// The filter leaves `expected`'s entries and the methods and types `kept`
/// (all but those of dropped packages that nothing names); prune then
/// leaves `expected`'s methods and types.
#[track_caller]
fn check_kept(opts: FilterOptions, expected: Expected<'_>, kept: (&[i64], &[i64])) {
    let mut m = filter_model();
    m.filter(&opts).unwrap();
    let (cc, sm, mon, vi, methods, types) = expected;
    assert_eq!(shape(&m), (s(cc), s(sm), mon, vi, kept.0.to_vec(), kept.1.to_vec()), "{opts:?}");
    m.prune(Prune::METHODS | Prune::TYPES).unwrap();
    assert_eq!(shape(&m), (s(cc), s(sm), mon, vi, methods.to_vec(), types.to_vec()), "{opts:?} pruned");
}

#[track_caller]
fn check(opts: FilterOptions, expected: Expected<'_>) {
    check_kept(opts, expected, (ALL_METHODS, ALL_TYPES));
}

#[test]
fn filter_nothing_changes_nothing() {
    // Not even the method and type nothing names (prune's job).
    let mut m = filter_model();
    let before = m.to_bytes().unwrap();
    m.filter(&FilterOptions::new()).unwrap();
    assert_eq!(m.to_bytes().unwrap(), before);
    check(FilterOptions::new(), (&["1:0", "2:0", "3:0", "4:0<1:2"], &["1:1", "3:1"], 1, 1, &[1, 2, 3, 4], &[0, 1, 2, 3, 4]));
}

#[test]
fn filter_max_depth() {
    // "4:0<1:2" cut to "4:0": its caller m1 stays (other entries name it).
    check(FilterOptions::new().max_depth(1), (&["1:0", "2:0", "3:0", "4:0"], &["1:1", "3:1"], 1, 1, &[1, 2, 3, 4], &[0, 1, 2, 3, 4]));
    check(FilterOptions::new().max_depth(2), (&["1:0", "2:0", "3:0", "4:0<1:2"], &["1:1", "3:1"], 1, 1, &[1, 2, 3, 4], &[0, 1, 2, 3, 4]));
}

#[test]
fn filter_kinds() {
    check(
        FilterOptions::new().kinds(&[Kind::CallCount]),
        (&["1:0", "2:0", "3:0", "4:0<1:2"], &[], 0, 0, &[1, 2, 3, 4], &[0, 1, 2, 3, 4]),
    );
    check(FilterOptions::new().kinds(&[Kind::Sampling, Kind::Monitor]), (&[], &["1:1", "3:1"], 1, 0, &[1, 3], &[0, 1, 3]));
    check(FilterOptions::new().kinds(&[Kind::Monitor]), (&[], &[], 1, 0, &[], &[0]));
}

#[test]
fn filter_packages() {
    // com.foo keeps com.foo.Bar and com.foo.impl.Baz, not com.foobar.X;
    // the monitor entry is not judged.
    check(FilterOptions::new().keep_package("com.foo"), (&["1:0", "2:0"], &["1:1"], 1, 1, &[1, 2], &[0, 1, 2]));
    // A dropped package is gone from the file: its methods and types
    // (nothing left names them), and the org.Y entry too, as its caller m1
    // is in com.foo (a trailing "." is ignored); m4, m5 and their types
    // stay until pruned.
    check_kept(FilterOptions::new().drop_package("com.foo."), (&["3:0"], &["3:1"], 1, 0, &[3], &[0, 3]), (&[3, 4, 5], &[0, 3, 4, 5]));
    // Keep packages judge the callee only: the caller m1 stays.
    check(FilterOptions::new().keep_package("org"), (&["4:0<1:2"], &[], 1, 0, &[1, 4], &[0, 1, 4]));
    // The longest matching package decides; com.foo.Bar loses m1 but stays:
    // the virtual invoke's record names it.
    check_kept(
        FilterOptions::new().keep_packages(["com.foo.impl"]).drop_packages(vec![String::from("com.foo")]),
        (&["2:0"], &[], 1, 1, &[2], &[0, 1, 2]),
        (&[2, 3, 4, 5], ALL_TYPES),
    );
    check_kept(
        FilterOptions::new().keep_package("com").drop_package("org"),
        (&["1:0", "2:0", "3:0"], &["1:1", "3:1"], 1, 1, &[1, 2, 3], &[0, 1, 2, 3]),
        (&[1, 2, 3, 5], &[0, 1, 2, 3, 5]),
    );
}

#[test]
fn filter_min_count() {
    check(FilterOptions::new().min_count(30), (&["1:0", "2:0", "3:0"], &[], 0, 0, &[1, 2, 3], &[0, 1, 2, 3]));
    check(
        FilterOptions::new().min_count(0),
        (&["1:0", "2:0", "3:0", "4:0<1:2"], &["1:1", "3:1"], 1, 1, &[1, 2, 3, 4], &[0, 1, 2, 3, 4]),
    );
}

#[test]
fn filter_top_percent() {
    // call counts 100, 50, 30, 20 (200): 50% is reached at 100, 80% at 30;
    // sampling 7, 3: 50% at 7, 80% only at 3; monitor 9 and virtual invoke 3 stay.
    check(FilterOptions::new().top_percent(50.0), (&["1:0"], &["1:1"], 1, 1, &[1, 2], &[0, 1, 2]));
    check(FilterOptions::new().top_percent(80.0), (&["1:0", "2:0", "3:0"], &["1:1", "3:1"], 1, 1, &[1, 2, 3], &[0, 1, 2, 3]));
    check(
        FilterOptions::new().top_percent(100.0),
        (&["1:0", "2:0", "3:0", "4:0<1:2"], &["1:1", "3:1"], 1, 1, &[1, 2, 3, 4], &[0, 1, 2, 3, 4]),
    );
}

#[test]
fn filter_combined() {
    // kinds: call counts and samples; packages: 1:0, 2:0 and 1:1; minimum:
    // 100 and 50; top 60% of 150: 100.
    check(
        FilterOptions::new().kinds(&[Kind::CallCount, Kind::Sampling]).keep_package("com.foo").min_count(40).top_percent(60.0),
        (&["1:0"], &[], 0, 0, &[1], &[0, 1]),
    );
    check(FilterOptions::new().min_count(1000), (&[], &[], 0, 0, &[], &[]));
}

#[test]
fn filter_invalid_options_change_nothing() {
    let mut m = filter_model();
    let before = m.to_bytes().unwrap();
    for opts in [
        FilterOptions::new().top_percent(-1.0),
        FilterOptions::new().top_percent(f64::NAN),
        FilterOptions::new().kinds(&[]),
        FilterOptions::new().keep_package("a\0b"),
    ] {
        assert_eq!(m.filter(&opts).unwrap_err().status(), Status::Invalid, "{opts:?}");
    }
    assert_eq!(m.to_bytes().unwrap(), before);
}

#[test]
fn gzip_supported_matches_the_writer() {
    let mut w = Writer::to_memory(&WriteOptions::new().gzip(true)).unwrap();
    let r = w.write_model(&profile(false));
    if iprof::gzip_supported() {
        r.unwrap();
        assert_eq!(&w.bytes().unwrap()[..2], b"\x1f\x8b");
    } else {
        assert_eq!(r.unwrap_err().status(), Status::Io);
    }
}

#[test]
fn gzip_round_trip() {
    if !iprof::gzip_supported() {
        println!("SKIP: this libiprof is built without zlib (iprof::gzip_supported() is false)");
        return;
    }
    let m = profile(false);
    let plain = m.to_bytes().unwrap();
    let dir = common::temp_dir("gzip_round_trip");
    let path = dir.join("p.iprof.gz");
    m.save(&path).unwrap(); // .gz: compressed
    let data = std::fs::read(&path).unwrap();
    assert_eq!(&data[..2], b"\x1f\x8b");
    let strict = || Reader::with_options(&iprof::ReadOptions::new().strict(true)).unwrap();
    assert_eq!(strict().load_path(&path).unwrap().to_bytes().unwrap(), plain);
    assert_eq!(strict().load_bytes(&data).unwrap().to_bytes().unwrap(), plain);
    assert_eq!(strict().load_from(std::fs::File::open(&path).unwrap()).unwrap().to_bytes().unwrap(), plain);
    // Any sink with gzip(true); no name and time 0, so the same bytes.
    let mut w = Writer::to_memory(&WriteOptions::new().gzip(true)).unwrap();
    w.write_model(&m).unwrap();
    assert_eq!(w.into_bytes().unwrap(), data);
    assert_eq!(Model::load_bytes(&data[..data.len() / 2]).unwrap_err().status(), Status::Syntax);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `model` written with `opts`.
fn written(model: &Model, opts: &WriteOptions) -> Vec<u8> {
    let mut w = Writer::to_memory(opts).unwrap();
    w.write_model(model).unwrap();
    w.into_bytes().unwrap()
}

/// A canonical write gives the canonical bytes without changing the model,
/// and sorting on a second thread (`threaded`) the same, on a model large
/// enough for the second thread to run.
#[test]
fn canonical_write_threaded_or_not() {
    let mut big = Model::new().unwrap();
    for t in 0..200i64 {
        big.add_type(t, &format!("T{:03}", (t * 7) % 200)).unwrap();
    }
    for i in 0..9000i64 {
        let sig = [i % 200, (i * 3) % 200];
        big.add_method((i * 7919) % 9000 + 1, &format!("m{}", i % 37), &sig).unwrap();
    }
    for i in 0..9000i64 {
        let c = format!("{}:0<{}:{}", (i * 31) % 9000 + 1, i + 1, i % 7);
        add(&mut big, Kind::CallCount, &c, &[i]);
    }
    let canonical = WriteOptions::new().canonical(true);
    let small = written(&profile(true), &canonical);
    assert_eq!(String::from_utf8(small).unwrap(), CANONICAL);
    for mut m in [profile(true), big] {
        let before = m.to_bytes().unwrap();
        let got = written(&m, &canonical);
        assert_eq!(written(&m, &canonical.clone().threaded(true)), got);
        assert_eq!(m.to_bytes().unwrap(), before);
        m.canonicalize().unwrap();
        assert_eq!(m.to_bytes().unwrap(), got);
    }
}
