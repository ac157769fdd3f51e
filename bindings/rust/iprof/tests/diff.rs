//! iprof::Diff (diff.h) checked against numbers computed by hand, and on
//! two corpus files; the same cases as bindings/python/tests/test_diff.py.

mod common;

use iprof::{Diff, Frame, Kind, Model, Side, Status};

fn add(m: &mut Model, kind: Kind, ctx: &str, records: &[i64]) {
    let frames: Vec<Frame> = iprof::parse_ctx(ctx).unwrap();
    m.add_entry(kind, &frames, records).unwrap();
}

/// Types void, A, B; methods A.main, A.run, A.oldOnly; call counts
/// main:0 = 1, run:0<main:5 = 2, oldOnly:0 = 5 (total 8); a virtual invoke
/// and a monitor entry matching B's.
fn model_a() -> Model {
    let mut m = Model::new().unwrap();
    for (id, name) in [(0, "void"), (1, "A"), (2, "B")] {
        m.add_type(id, name).unwrap();
    }
    m.add_method(1, "main", &[1, 0]).unwrap();
    m.add_method(2, "run", &[1, 0]).unwrap();
    m.add_method(3, "oldOnly", &[1, 0]).unwrap();
    add(&mut m, Kind::CallCount, "1:0", &[1]);
    add(&mut m, Kind::CallCount, "2:0<1:5", &[2]);
    add(&mut m, Kind::CallCount, "3:0", &[5]);
    add(&mut m, Kind::VirtualInvoke, "2:3", &[2, 4]);
    add(&mut m, Kind::Monitor, "0:0", &[1, 3]);
    m
}

/// The same names under other ids and in another order: A.oldOnly is
/// gone, B.newOnly is new; call counts main:0 = 1, run:0<main:5 = 1,
/// newOnly:0 = 6 (total 8).
fn model_b() -> Model {
    let mut m = Model::new().unwrap();
    for (id, name) in [(5, "B"), (7, "A"), (9, "void")] {
        m.add_type(id, name).unwrap();
    }
    m.add_method(10, "run", &[7, 9]).unwrap();
    m.add_method(11, "main", &[7, 9]).unwrap();
    m.add_method(12, "newOnly", &[5, 9]).unwrap();
    add(&mut m, Kind::CallCount, "11:0", &[1]);
    add(&mut m, Kind::CallCount, "10:0<11:5", &[1]);
    add(&mut m, Kind::CallCount, "12:0", &[6]);
    add(&mut m, Kind::VirtualInvoke, "10:3", &[5, 4]);
    add(&mut m, Kind::Monitor, "0:0", &[7, 5]);
    m
}

/// (context, count_a, count_b, share_a, share_b, delta, relative)
type Row = (String, u64, u64, f64, f64, f64, Option<f64>);

fn rows(d: &Diff<'_>, kind: Kind) -> Vec<Row> {
    d.changes(kind).map(|c| (c.context, c.count_a, c.count_b, c.share_a, c.share_b, c.delta, c.relative)).collect()
}

fn row(ctx: &str, ca: u64, cb: u64, sa: f64, sb: f64, delta: f64, rel: Option<f64>) -> Row {
    (ctx.to_string(), ca, cb, sa, sb, delta, rel)
}

#[test]
fn methods() {
    let (a, b) = (model_a(), model_b());
    let d = Diff::new(&a, &b).unwrap();
    let only_a: Vec<(i64, &str, String)> = d.methods_only(Side::A).map(|m| (m.id(), m.name(), a.describe_method(m))).collect();
    assert_eq!(only_a, [(3, "oldOnly", "A.oldOnly".to_string())]);
    let only_b: Vec<(i64, &str, String)> = d.methods_only(Side::B).map(|m| (m.id(), m.name(), b.describe_method(m))).collect();
    assert_eq!(only_b, [(12, "newOnly", "B.newOnly".to_string())]);
    assert_eq!((d.method_only_count(Side::A), d.method_only_count(Side::B)), (1, 1));
    assert_eq!((d.method_common_count(Side::A), d.method_common_count(Side::B)), (2, 2));
    assert!(std::ptr::eq(d.model(Side::A), &a) && std::ptr::eq(d.model(Side::A.other()), &b));
    assert_eq!(d.methods_only(Side::A).len(), 1);
    assert!(d.methods_only(Side::B).nth(1).is_none());
}

#[test]
fn staleness() {
    // Call counts: half of 0 + 1/8 + 5/8 + 6/8 (total variation of the
    // shares); the virtual invoke and monitor type shares are the same by
    // name: 0.
    let (a, mut b) = (model_a(), model_b());
    {
        let d = Diff::new(&a, &b).unwrap();
        assert_eq!(d.kind_staleness(Kind::CallCount), Some(0.75));
        assert_eq!(d.kind_staleness(Kind::VirtualInvoke), Some(0.0));
        assert_eq!(d.kind_staleness(Kind::Monitor), Some(0.0));
        assert_eq!(d.kind_staleness(Kind::Conditional), None);
        assert_eq!(d.staleness(), (0.75 + 0.0 + 0.0) / 3.0);
        assert_eq!(Diff::new(&b, &a).unwrap().staleness(), 0.25); // symmetric
        assert_eq!(Diff::new(&a, &a).unwrap().staleness(), 0.0);
    }
    // Receivers moved: B's run:3 sees type A as well now, 4 of 8.
    add(&mut b, Kind::VirtualInvoke, "10:3", &[7, 4]);
    let d = Diff::new(&a, &b).unwrap();
    assert_eq!(d.kind_staleness(Kind::VirtualInvoke),
               Some((1.0 - iprof::EXTREMELY_SLOW_PATH_PROBABILITY) * ((0.5 + 0.5) / 2.0)));
    let empty = Model::new().unwrap();
    assert_eq!(Diff::new(&a, &empty).unwrap().staleness(), 1.0);
}

#[test]
fn contexts_totals_overlap() {
    let (a, b) = (model_a(), model_b());
    let d = Diff::new(&a, &b).unwrap();
    let k = Kind::CallCount;
    assert_eq!((d.context_only_count(Side::A, k), d.context_only_count(Side::B, k)), (1, 1));
    assert_eq!((d.context_common_count(Side::A, k), d.context_common_count(Side::B, k)), (2, 2));
    assert_eq!((d.total(Side::A, k), d.total(Side::B, k)), (8, 8));
    assert_eq!((d.common_total(Side::A, k), d.common_total(Side::B, k)), (3, 2));
    assert_eq!(d.overlap(Side::A, k), Some(0.375));
    assert_eq!(d.overlap(Side::B, k), Some(0.25));
    // Virtual invoke: one entry each, matched through the method names;
    // monitor: the dummy 0:0 matches 0:0.
    for (kind, ta, tb) in [(Kind::VirtualInvoke, 4, 4), (Kind::Monitor, 3, 5)] {
        assert_eq!((d.context_only_count(Side::A, kind), d.context_only_count(Side::B, kind)), (0, 0));
        assert_eq!((d.context_common_count(Side::A, kind), d.total(Side::A, kind), d.total(Side::B, kind)), (1, ta, tb));
        assert_eq!((d.overlap(Side::A, kind), d.overlap(Side::B, kind)), (Some(1.0), Some(1.0)));
        assert_eq!(d.change_count(kind), 0);
    }
    // No count mass: the overlap is undefined.
    assert_eq!(d.overlap(Side::A, Kind::Sampling), None);
    assert_eq!(d.overlap(Side::B, Kind::Instanceof), None);
    assert_eq!((d.total(Side::A, Kind::Sampling), d.context_common_count(Side::A, Kind::Sampling)), (0, 0));
}

#[test]
fn changes() {
    // shares A: main 1/8, run 2/8, oldOnly 5/8; B: main 1/8, run 1/8,
    // newOnly 6/8. main does not change; ranked by |delta|.
    let (a, b) = (model_a(), model_b());
    let expected = vec![
        row("B.newOnly:0", 0, 6, 0.0, 0.75, 0.75, None),
        row("A.oldOnly:0", 5, 0, 0.625, 0.0, -0.625, Some(-1.0)),
        row("A.run:0 < A.main:5", 2, 1, 0.25, 0.125, -0.125, Some(-0.5)),
    ];
    let d = Diff::new(&a, &b).unwrap();
    assert_eq!(d.top(), 10);
    assert_eq!(rows(&d, Kind::CallCount), expected);
    // The entries belong to the models, on the sides that have them.
    let first = d.change(Kind::CallCount, 0).unwrap();
    assert_eq!(first.kind, Kind::CallCount);
    assert!(first.entry_a.is_none());
    assert_eq!(first.entry_b.unwrap().records(), [6]);
    assert_eq!(first.entry_b.unwrap().context().to_string(), "12:0");
    let run = d.changes(Kind::CallCount).next_back().unwrap();
    assert_eq!(run.entry_a.unwrap().context().to_string(), "2:0<1:5");
    assert_eq!(run.entry_b.unwrap().context().to_string(), "10:0<11:5");
    assert!(d.change(Kind::CallCount, 3).is_none());
    assert_eq!(d.changes(Kind::CallCount).len(), 3);
    assert_eq!(d.changes(Kind::CallCount).nth(1), d.change(Kind::CallCount, 1));
    drop(d);

    let d = Diff::with_top(&a, &b, 2).unwrap();
    assert_eq!(d.top(), 2);
    assert_eq!(rows(&d, Kind::CallCount), expected[..2]);
    // The other way round: signs flip, oldOnly is the new one.
    let d = Diff::new(&b, &a).unwrap();
    assert_eq!(d.methods_only(Side::A).map(|m| m.name()).collect::<Vec<_>>(), ["newOnly"]);
    assert_eq!(
        rows(&d, Kind::CallCount),
        [
            row("B.newOnly:0", 6, 0, 0.75, 0.0, -0.75, Some(-1.0)),
            row("A.oldOnly:0", 0, 5, 0.0, 0.625, 0.625, None),
            row("A.run:0 < A.main:5", 1, 2, 0.125, 0.25, 0.125, Some(1.0)),
        ]
    );
    assert_eq!(Diff::with_top(&a, &b, 0).unwrap_err().status(), Status::Invalid);
}

#[test]
fn same_model() {
    let a = model_a();
    let d = Diff::new(&a, &a).unwrap();
    assert_eq!((d.method_only_count(Side::A), d.method_only_count(Side::B)), (0, 0));
    assert_eq!(d.method_common_count(Side::A), 3);
    assert_eq!(d.overlap(Side::A, Kind::CallCount), Some(1.0));
    assert_eq!(d.changes(Kind::CallCount).count(), 0);
}

#[test]
fn views_outlive_the_result_and_threads_share_it() {
    let (a, b) = (model_a(), model_b());
    let (only, change) = {
        let d = Diff::new(&a, &b).unwrap();
        let only = d.methods_only(Side::A).next().unwrap();
        (only, d.change(Kind::CallCount, 1).unwrap())
    };
    // The result is gone; its methods and entries borrow the models.
    assert_eq!(only.name(), "oldOnly");
    assert_eq!(change.entry_a.unwrap().records(), [5]);
    let d = Diff::new(&a, &b).unwrap();
    let totals: Vec<u64> = std::thread::scope(|s| {
        let d = &d;
        let hs: Vec<_> = Kind::ALL.iter().map(|&k| s.spawn(move || d.total(Side::B, k))).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(totals, [8, 0, 4, 5, 0, 0]);
}

#[test]
fn corpus_jsonata_vs_assorted() {
    let (Some(pa), Some(pb)) =
        (common::corpus_file("jsonata-cli-0.4.0.iprof"), common::corpus_file("assorted-benchmarks-0.4.0.iprof"))
    else {
        return;
    };
    let (a, b) = (Model::load(pa).unwrap(), Model::load(pb).unwrap());
    let d = Diff::new(&a, &b).unwrap();
    assert_eq!(d.method_common_count(Side::A), 35065);
    assert_eq!(d.method_only_count(Side::A), 8211);
    assert_eq!(d.method_only_count(Side::B), 7492);
    assert_eq!(d.methods_only(Side::A).count(), 8211);
    assert_eq!(a.method_count(), 35065 + 8211);
    for kind in Kind::ALL {
        assert_eq!(d.context_only_count(Side::A, kind) + d.context_common_count(Side::A, kind), a.entry_count(kind));
        assert_eq!(d.context_only_count(Side::B, kind) + d.context_common_count(Side::B, kind), b.entry_count(kind));
        let total = d.total(Side::A, kind);
        let expected = (total > 0).then(|| d.common_total(Side::A, kind) as f64 / total as f64);
        assert_eq!(d.overlap(Side::A, kind), expected);
        let deltas: Vec<f64> = d.changes(kind).map(|c| c.delta.abs()).collect();
        assert!(deltas.len() <= 10);
        assert!(deltas.windows(2).all(|w| w[0] >= w[1]), "{kind}: not ranked by |delta|");
    }
    let d = Diff::with_top(&b, &a, 3).unwrap();
    assert_eq!((d.method_only_count(Side::A), d.method_only_count(Side::B)), (7492, 8211));
    assert_eq!(d.method_common_count(Side::A), 35065);
    assert!(d.changes(Kind::CallCount).len() <= 3);
}
