//! Model::columns: a kind's entries as slices of the C model's arrays,
//! exact values, and on the corpus the same records and frames as the
//! per-entry accessors (the cases of lib's tests/test_columns.c and
//! bindings/python/tests/test_columns.py).

mod common;

use iprof::{Frame, Kind, Model};

fn ctx(s: &str) -> Vec<Frame> {
    iprof::parse_ctx(s).expect("valid ctx")
}

fn sample() -> Model {
    let mut m = Model::new().unwrap();
    m.add_type(0, "T").unwrap();
    m.add_type(5, "U").unwrap();
    m.add_method(1, "m", &[0, 0]).unwrap();
    m.add_method(2, "n", &[0, 0]).unwrap();
    m.add_entry(Kind::Conditional, &ctx("1:0"), &[3, 0, 5, 3, 1, 2]).unwrap();
    m.add_entry(Kind::Conditional, &ctx("1:2<2:7"), &[9, 0, 11]).unwrap();
    m.add_entry(Kind::Conditional, &ctx("1:4<2:7<1:3"), &[4, 1, 40, 6, 0, 60, 8, 2, 80]).unwrap();
    m
}

#[test]
fn exact_values() {
    let m = sample();
    let c = m.columns(Kind::Conditional).unwrap();
    assert_eq!((c.kind(), c.len(), c.is_empty()), (Kind::Conditional, 3, false));
    assert_eq!(c.records(), &[3, 0, 5, 3, 1, 2, 9, 0, 11, 4, 1, 40, 6, 0, 60, 8, 2, 80]);
    assert_eq!(c.offsets(), &[0, 6, 9, 18]);
    assert_eq!(c.frames(), ctx("1:0<1:2<2:7<1:4<2:7<1:3").as_slice());
    assert_eq!(c.frame_offsets(), &[0, 1, 3, 6]);
    assert_eq!(c.entry_records(1), &[9, 0, 11]);
    assert_eq!(c.entry_frames(2), ctx("1:4<2:7<1:3").as_slice());
    assert_eq!(c.context(1).to_string(), "1:2<2:7");
    // The model's own arrays: a second call borrows the same memory.
    let again = m.columns(Kind::Conditional).unwrap();
    assert_eq!(again.records().as_ptr(), c.records().as_ptr());
    let empty = m.columns(Kind::Sampling).unwrap();
    assert!(empty.is_empty());
    assert_eq!((empty.records(), empty.offsets()), (&[][..], &[0u64][..]));
}

#[test]
fn rebuilt_after_a_change() {
    let mut m = sample();
    assert_eq!(m.columns(Kind::Conditional).unwrap().records().iter().sum::<i64>(), 235);
    m.scale(Some(Kind::Conditional), 2.0, iprof::Rounding::NearestAway).unwrap();
    let c = m.columns(Kind::Conditional).unwrap();
    assert_eq!(c.records().iter().sum::<i64>(), 235 + 198);
    assert_eq!(c.entry_records(0), &[3, 0, 10, 3, 1, 4]);
}

#[test]
fn corpus_sums() {
    let Some(path) = common::corpus_file("jsonata-cli-0.4.0.iprof") else { return };
    let m = Model::load(path).unwrap();
    for kind in Kind::ALL {
        let c = m.columns(kind).unwrap();
        assert_eq!(c.len(), m.entry_count(kind));
        for (i, e) in m.entries(kind).enumerate() {
            assert_eq!(c.entry_records(i), e.records());
            assert_eq!(c.entry_frames(i), e.context().frames().collect::<Vec<_>>().as_slice());
        }
    }
    // Python's json over the same file (as lib's tests/test_columns.c).
    let c = m.columns(Kind::CallCount).unwrap();
    assert_eq!(c.records().iter().sum::<i64>(), 29253155013);
    assert_eq!((c.records().len(), c.frames().len()), (8785, 31789));
}
