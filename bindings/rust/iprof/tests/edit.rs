//! Editing records and dropping what mentions a method:
//! Model::set_entry_records, map_records, scale (and MergeOptions::rounding),
//! filter's keep_frame, remove_method with cascade, prune and package_matches; the
//! same cases as bindings/python/tests/test_edit.py.

use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};

use iprof::{FilterOptions, Frame, Kind, MergeOptions, Model, Prune, Pruned, Rounding, Status};

fn ctx(s: &str) -> Vec<Frame> {
    iprof::parse_ctx(s).expect("valid ctx")
}

fn add(m: &mut Model, kind: Kind, c: &str, records: &[i64]) {
    m.add_entry(kind, &ctx(c), records).unwrap();
}

/// Types T (0) and U (5), method 1; a call count of 7 at 1:0, a conditional
/// entry with counts 5 and 2 at 1:2 and a virtual invoke entry with counts 9
/// and 1 at 1:4 (as lib's tests/test_model_edit.c).
fn sample() -> Model {
    let mut m = Model::new().unwrap();
    m.add_type(0, "T").unwrap();
    m.add_type(5, "U").unwrap();
    m.add_method(1, "m", &[0, 0]).unwrap();
    add(&mut m, Kind::CallCount, "1:0", &[7]);
    add(&mut m, Kind::Conditional, "1:2", &[3, 0, 5, 3, 1, 2]);
    add(&mut m, Kind::VirtualInvoke, "1:4", &[5, 9, 0, 1]);
    m
}

type Records = (Vec<i64>, Vec<i64>, Vec<i64>);

/// The records of the first call count, conditional and virtual invoke
/// entries.
fn records(m: &Model) -> Records {
    let first = |k| m.entry_at(k, 0).unwrap().records().to_vec();
    (first(Kind::CallCount), first(Kind::Conditional), first(Kind::VirtualInvoke))
}

fn subject(e: &iprof::Error) -> (Status, &str, Option<Kind>, &str, Option<i64>, Option<i64>) {
    (e.status(), e.message(), e.kind(), e.context(), e.type_id(), e.method_id())
}

#[test]
fn set_entry_records_replaces() {
    let mut m = sample();
    m.set_entry_records(Kind::VirtualInvoke, &ctx("1:4"), &[5, 1, 0, 2, 5, 3]).unwrap();
    // Not combined as add_entry would: replaced, here by fewer records.
    m.set_entry_records(Kind::CallCount, &[Frame::new(1, 0)], &[3]).unwrap();
    m.set_entry_records(Kind::Conditional, &ctx("1:2"), &[3, 0, 1]).unwrap();
    assert_eq!(records(&m), (vec![3], vec![3, 0, 1], vec![5, 1, 0, 2, 5, 3]));
}

#[test]
fn set_entry_records_failures_change_nothing() {
    let mut m = sample();
    let before = m.to_bytes().unwrap();
    let e = m.set_entry_records(Kind::VirtualInvoke, &ctx("1:4"), &[5, 1, 0]).unwrap_err();
    assert_eq!(
        subject(&e),
        (
            Status::Schema,
            "virtualInvokeProfiles entry: records: records must be (type id, count) pairs",
            Some(Kind::VirtualInvoke),
            "1:4",
            None,
            None
        )
    );
    let e = m.set_entry_records(Kind::VirtualInvoke, &ctx("1:4"), &[6, 1]).unwrap_err();
    assert_eq!(
        subject(&e),
        (
            Status::Dangling,
            "virtualInvokeProfiles entry: type id 6 is not defined in the model",
            Some(Kind::VirtualInvoke),
            "1:4",
            Some(6),
            None
        )
    );
    let e = m.set_entry_records(Kind::VirtualInvoke, &ctx("1:9"), &[5, 1]).unwrap_err();
    assert_eq!(
        subject(&e),
        (Status::NotFound, "no virtualInvokeProfiles entry with this context", Some(Kind::VirtualInvoke), "1:9", None, None)
    );
    assert_eq!(m.set_entry_records(Kind::CallCount, &[], &[1]).unwrap_err().status(), Status::Invalid);
    assert_eq!(m.to_bytes().unwrap(), before);
}

#[test]
fn map_records_edits_in_place() {
    let mut m = sample();
    let mut seen = Vec::new();
    m.map_records(Kind::Conditional, |entry, recs| {
        seen.push((entry.context().to_string(), recs.to_vec(), entry.records().to_vec()));
        for count in recs.iter_mut().skip(2).step_by(3) {
            *count *= 2;
        }
    })
    .unwrap();
    assert_eq!(seen, [("1:2".to_string(), vec![3, 0, 5, 3, 1, 2], vec![3, 0, 5, 3, 1, 2])]);
    assert_eq!(records(&m), (vec![7], vec![3, 0, 10, 3, 1, 4], vec![5, 9, 0, 1]));
    let mut calls = 0;
    m.map_records(Kind::Sampling, |_, _| calls += 1).unwrap(); // no entries
    assert_eq!(calls, 0);
}

#[test]
fn map_records_break_stops_and_changes_nothing() {
    let mut m = sample();
    add(&mut m, Kind::Conditional, "1:8", &[8, 0, 1]);
    let before = m.to_bytes().unwrap();
    let mut calls = Vec::new();
    let e = m
        .map_records(Kind::Conditional, |entry, recs| {
            calls.push(entry.context().to_string());
            recs[2] = 99;
            if calls.len() == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap_err();
    assert_eq!(calls, ["1:2", "1:8"]);
    assert_eq!((e.status(), e.kind()), (Status::Stopped, Some(Kind::Conditional)));
    assert_eq!(m.to_bytes().unwrap(), before);
}

#[test]
fn map_records_rejected_records_change_nothing() {
    let mut m = sample();
    let before = m.to_bytes().unwrap();
    let e = m.map_records(Kind::VirtualInvoke, |_, recs| recs[0] = 6).unwrap_err();
    assert_eq!(
        subject(&e),
        (
            Status::Dangling,
            "virtualInvokeProfiles entry: type id 6 is not defined in the model",
            Some(Kind::VirtualInvoke),
            "1:4",
            Some(6),
            None
        )
    );
    assert_eq!(m.to_bytes().unwrap(), before);
}

#[test]
fn map_records_panic_changes_nothing_and_resumes() {
    let mut m = sample();
    let before = m.to_bytes().unwrap();
    let r = catch_unwind(AssertUnwindSafe(|| {
        let _ = m.map_records::<(), _>(Kind::CallCount, |_, recs| {
            recs[0] = 1;
            panic!("inside map_records");
        });
    }));
    let payload = r.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"inside map_records"));
    assert_eq!(m.to_bytes().unwrap(), before);
    // The model is still usable.
    m.map_records(Kind::CallCount, |_, recs| recs[0] = 1).unwrap();
    assert_eq!(records(&m).0, [1]);
}

/// kind, weight, rounding, then the counts 7; 5, 2; 9, 1 scaled.
const SCALE_CASES: [(Option<Kind>, f64, Rounding, [i64; 5]); 6] = [
    (None, 2.0, Rounding::Floor, [14, 10, 4, 18, 2]),
    (None, 0.5, Rounding::NearestAway, [4, 3, 1, 5, 1]), // 3.5 2.5 1 4.5 .5
    (None, 0.5, Rounding::NearestEven, [4, 2, 1, 4, 0]),
    (None, 0.5, Rounding::Floor, [3, 2, 1, 4, 0]),
    (Some(Kind::VirtualInvoke), 0.5, Rounding::Floor, [7, 5, 2, 4, 0]),
    (None, 0.0, Rounding::NearestAway, [0, 0, 0, 0, 0]),
];

#[test]
fn scale_roundings() {
    for (kind, weight, rounding, [cc, c1, c2, v1, v2]) in SCALE_CASES {
        let mut m = sample();
        m.scale(kind, weight, rounding).unwrap();
        // Keys (bci, branch index, type ids) are not touched.
        assert_eq!(records(&m), (vec![cc], vec![3, 0, c1, 3, 1, c2], vec![5, v1, 0, v2]), "{kind:?} {weight} {rounding:?}");
    }
    let mut m = sample();
    m.scale(Some(Kind::Conditional), 0.5, Rounding::default()).unwrap();
    assert_eq!(records(&m), (vec![7], vec![3, 0, 3, 3, 1, 1], vec![5, 9, 0, 1]));
}

#[test]
fn scale_saturates_and_refuses() {
    let mut m = sample();
    m.scale(Some(Kind::CallCount), 1e300, Rounding::Floor).unwrap();
    assert_eq!(records(&m).0, [i64::MAX]);
    m.scale(Some(Kind::VirtualInvoke), 3.0, Rounding::Floor).unwrap(); // whole numbers: exact
    assert_eq!(records(&m).2, [5, 27, 0, 3]);
    let before = m.to_bytes().unwrap();
    for (weight, text) in [(-1.0, "negative"), (f64::INFINITY, "inf"), (f64::NAN, "nan")] {
        let e = m.scale(None, weight, Rounding::NearestAway).unwrap_err();
        assert_eq!((e.status(), e.message()), (Status::Invalid, format!("weight {text}: must be finite and >= 0").as_str()));
    }
    assert_eq!(m.to_bytes().unwrap(), before);
}

#[test]
fn rounding_raw_values() {
    for (r, raw) in [(Rounding::NearestAway, 0), (Rounding::NearestEven, 1), (Rounding::Floor, 2)] {
        assert_eq!(r.raw(), raw);
        assert_eq!(Rounding::from_raw(raw), Some(r));
    }
    assert_eq!(Rounding::from_raw(3), None);
    assert_eq!(Rounding::from_raw(-1), None);
    assert_eq!(Rounding::default(), Rounding::NearestAway);
    assert_eq!(Rounding::NearestEven.raw(), iprof::sys::IPROF_ROUND_NEAREST_EVEN);
}

#[test]
fn merge_rounding() {
    // 7 x 0.5 and the conditional 5 x 0.5 under each rounding.
    for (options, cc, c1) in [
        (MergeOptions::new().weight(0.5), 4, 3),
        (MergeOptions::new().weight(0.5).rounding(Rounding::NearestAway), 4, 3),
        (MergeOptions::new().weight(0.5).rounding(Rounding::NearestEven), 4, 2),
        (MergeOptions::new().weight(0.5).rounding(Rounding::Floor), 3, 2),
    ] {
        let mut dst = Model::new().unwrap();
        dst.merge_with(&sample(), &options).unwrap();
        let got = records(&dst);
        assert_eq!((got.0[0], got.1[2]), (cc, c1), "{options:?}");
    }
    let mut dst = Model::new().unwrap();
    dst.merge(&sample(), 0.5).unwrap(); // merge: halves away from zero
    assert_eq!(records(&dst).0, [4]);
}

/// Types void, A, B; methods 1 A.a, 2 B.b, 3 A.c; entries of four kinds,
/// method 2 as a callee and as a caller.
fn calls_model() -> Model {
    let mut m = Model::new().unwrap();
    for (id, name) in [(0, "void"), (1, "A"), (2, "B")] {
        m.add_type(id, name).unwrap();
    }
    m.add_method(1, "a", &[1, 0]).unwrap();
    m.add_method(2, "b", &[2, 0]).unwrap();
    m.add_method(3, "c", &[1, 0]).unwrap();
    add(&mut m, Kind::CallCount, "1:0", &[1]);
    add(&mut m, Kind::CallCount, "2:0<1:3", &[2]);
    add(&mut m, Kind::CallCount, "3:0<2:5<1:1", &[3]);
    add(&mut m, Kind::CallCount, "3:0", &[4]);
    add(&mut m, Kind::Sampling, "2:4", &[5]);
    add(&mut m, Kind::Monitor, "0:0", &[1, 6]);
    add(&mut m, Kind::VirtualInvoke, "1:7", &[1, 1]);
    m
}

type Layout = (Vec<String>, Vec<String>, usize, usize, Vec<i64>, Vec<i64>);

/// (call counts, samples, monitor entries, virtual invokes, method ids, type ids).
fn layout(m: &Model) -> Layout {
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

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn keep_frame_judges_every_frame() {
    let mut m = calls_model();
    let mut frames = Vec::new();
    m.filter(&FilterOptions::new().keep_frame(|f| {
        frames.push((f.method_id, f.bci));
        f.method_id != 2
    }))
    .unwrap();
    // Callee or caller: both entries with a frame of method 2 go; the methods
    // stay (only entries are removed).
    assert_eq!(layout(&m), (strings(&["1:0", "3:0"]), vec![], 1, 1, vec![1, 2, 3], vec![0, 1, 2]));
    // Each entry's frames from the callee out, up to the first refused one
    // (so not 1:3 or 1:1), the monitor's dummy frame too.
    frames.sort();
    frames.dedup();
    assert_eq!(frames, [(0, 0), (1, 0), (1, 7), (2, 0), (2, 4), (2, 5), (3, 0)]);

    // One kind: keep_entry over the entry's frames.
    let call_counts_without = |keep: fn(Frame) -> bool| {
        let mut m = calls_model();
        m.filter(&FilterOptions::new().keep_entry(|e| e.kind() != Kind::CallCount || e.context().frames().all(keep)))
            .unwrap();
        m
    };
    let m = call_counts_without(|f| f.method_id != 2);
    assert_eq!(layout(&m), (strings(&["1:0", "3:0"]), strings(&["2:4"]), 1, 1, vec![1, 2, 3], vec![0, 1, 2]));
    let m = call_counts_without(|f| f.bci != 3);
    assert_eq!(layout(&m).0, ["1:0", "3:0<2:5<1:1", "3:0"]);
    let mut m = calls_model();
    m.filter(&FilterOptions::new().keep_frame(|f| f != Frame::new(0, 0))).unwrap();
    assert_eq!(m.entry_count(Kind::Monitor), 0);
}

#[test]
fn keep_entry_method_and_type_run_after_the_criteria() {
    // keep_frame and keep_entry see what the kinds kept; keep_method and
    // keep_type come last, and leave entries and references alone.
    let mut m = calls_model();
    let (mut frames, mut entries, mut methods, mut types) = (0, Vec::new(), Vec::new(), Vec::new());
    m.filter(
        &FilterOptions::new()
            .kinds(&[Kind::CallCount])
            .keep_frame(|_| {
                frames += 1;
                true
            })
            .keep_entry(|e| {
                let ctx = e.context().to_string();
                entries.push(ctx.clone());
                ctx != "3:0"
            })
            .keep_method(|x| {
                methods.push(x.id());
                x.id() != 3
            })
            .keep_type(|t| {
                types.push(t.id());
                t.id() != 2
            }),
    )
    .unwrap();
    assert_eq!(frames, 7);
    assert_eq!(entries, ["1:0", "2:0<1:3", "3:0<2:5<1:1", "3:0"]);
    assert_eq!((methods, types), (vec![1, 2, 3], vec![0, 1, 2]));
    assert_eq!(layout(&m), (strings(&["1:0", "2:0<1:3", "3:0<2:5<1:1"]), vec![], 0, 0, vec![1, 2], vec![0, 1]));
}

#[test]
fn filter_predicates_see_views_that_cannot_escape() {
    // The predicates borrow locals for 'f; the options serve two models.
    let refused = 2_i64;
    let opts = FilterOptions::new().keep_method(|x| x.id() != refused);
    let (mut a, mut b) = (calls_model(), calls_model());
    a.filter(&opts).unwrap();
    b.filter(&opts).unwrap();
    assert_eq!((layout(&a).4, layout(&b).4), (vec![1, 3], vec![1, 3]));
    assert!(format!("{opts:?}").contains("keep_method: true, keep_type: false"), "{opts:?}");
}

#[test]
fn keep_frame_panic_keeps_the_rest() {
    let mut m = calls_model();
    let r = catch_unwind(AssertUnwindSafe(|| {
        let _ = m.filter(&FilterOptions::new().keep_frame(|_| panic!("inside a frame predicate")));
    }));
    assert_eq!(r.unwrap_err().downcast_ref::<&str>(), Some(&"inside a frame predicate"));
    assert_eq!(layout(&m).0, ["1:0", "2:0<1:3", "3:0<2:5<1:1", "3:0"]);
}

#[test]
fn remove_method_cascade_takes_every_entry_mentioning_it() {
    let mut m = calls_model();
    m.remove_method(2, true).unwrap();
    assert_eq!(layout(&m), (strings(&["1:0", "3:0"]), vec![], 1, 1, vec![1, 3], vec![0, 1, 2]));
    m.remove_method(3, true).unwrap();
    assert_eq!(layout(&m), (strings(&["1:0"]), vec![], 1, 1, vec![1], vec![0, 1, 2]));
    let mut strict = iprof::Reader::with_options(&iprof::ReadOptions::new().strict(true)).unwrap();
    strict.validate_bytes(&m.to_bytes().unwrap()).unwrap();
    assert_eq!(strict.diagnostics().len(), 0);

    let e = m.remove_method(9, true).unwrap_err();
    assert_eq!(subject(&e), (Status::NotFound, "no method with id 9", None, "", None, Some(9)));
    assert_eq!(layout(&m).4, [1]);

    // Without cascade the entries naming the method stay.
    let mut m = calls_model();
    m.remove_method(2, false).unwrap();
    assert_eq!(layout(&m).0.len(), 4);
    assert_eq!(m.to_bytes().unwrap_err().status(), Status::Dangling);
}

#[test]
fn prune() {
    let mut m = calls_model();
    m.filter(&FilterOptions::new().keep_frame(|f| f.method_id != 2)).unwrap();
    assert_eq!(m.prune(Prune::METHODS).unwrap(), Pruned { methods: 1, ..Pruned::default() });
    assert_eq!((layout(&m).4, layout(&m).5), (vec![1, 3], vec![0, 1, 2]));
    // B was only in method 2's signature.
    assert_eq!(m.prune(Prune::TYPES).unwrap(), Pruned { types: 1, ..Pruned::default() });
    assert_eq!((layout(&m).4, layout(&m).5), (vec![1, 3], vec![0, 1]));
    assert_eq!(m.prune(Prune::METHODS | Prune::TYPES | Prune::DANGLING).unwrap(), Pruned::default());

    let mut m = calls_model();
    for c in ["3:0", "3:0<2:5<1:1", "2:0<1:3"] {
        m.remove_entry(Kind::CallCount, &ctx(c)).unwrap();
    }
    m.remove_entry(Kind::Sampling, &ctx("2:4")).unwrap();
    // Methods, then the types only they used.
    assert_eq!(m.prune(Prune::METHODS | Prune::TYPES).unwrap(), Pruned { types: 1, methods: 2, entries: [0; 6] });
    assert_eq!(layout(&m), (strings(&["1:0"]), vec![], 1, 1, vec![1], vec![0, 1]));

    // An unknown key that may hold ids stops it; a scalar does not.
    let mut m = calls_model();
    m.filter(&FilterOptions::new().keep_entry(|e| e.kind() != Kind::CallCount)).unwrap();
    m.add_unknown("fork", "[2]").unwrap();
    assert_eq!(m.prune(Prune::METHODS | Prune::TYPES).unwrap(), Pruned::default());
    assert_eq!((layout(&m).4, layout(&m).5), (vec![1, 2, 3], vec![0, 1, 2]));
    m.remove_unknown(Some("fork")).unwrap();
    m.add_unknown("flag", "true").unwrap();
    m.prune(Prune::METHODS | Prune::TYPES).unwrap();
    assert_eq!((layout(&m).4, layout(&m).5), (vec![1, 2], vec![0, 1, 2]));

    let mut both = Prune::METHODS;
    both |= Prune::TYPES;
    assert_eq!(both.raw(), iprof::sys::IPROF_PRUNE_METHODS | iprof::sys::IPROF_PRUNE_TYPES);
    assert!(both.contains(Prune::TYPES) && !both.contains(Prune::DANGLING));
    assert_eq!(Prune::DANGLING.raw(), iprof::sys::IPROF_PRUNE_DANGLING);
    assert_eq!(Prune::default().raw(), 0);
}

#[test]
fn package_matches() {
    for (package, name, expected) in [
        ("com.foo", "com.foo.Bar", true),
        ("com.foo", "com.foo.impl.Baz$1", true),
        ("com.foo", "com.foo", true),
        ("com.foo.", "com.foo.Bar", true),
        ("com.foo", "com.foobar.X", false),
        ("com.foo", "com.foo$X", false),
        ("com.foo", "com", false),
        ("com.foo.Bar", "com.foo", false),
        ("", "anything", true),
        ("", "", true),
        (".", "x.Y", true),
        ("com", "com.\0", true),
        ("a\0b", "a\0b", false),
    ] {
        assert_eq!(iprof::package_matches(package, name), expected, "{package:?} {name:?}");
    }
}

#[test]
fn filter_errors_carry_the_library_message() {
    let mut m = calls_model();
    let e = m.filter(&iprof::FilterOptions::new().top_percent(-1.0)).unwrap_err();
    assert_eq!((e.status(), e.message()), (Status::Invalid, "filter options: top_percent must be >= 0"));
}
