//! What a profile tells the compiler (analysis.h): branch probabilities,
//! receiver-type shares, entry totals and the hottest methods, with
//! GraalVM's exact numbers.

mod common;

use std::collections::HashMap;

use iprof::{Frame, Kind, Model, Status, EXTREMELY_SLOW_PATH_PROBABILITY, INVALID_BRANCH_BCI};

/// 1 - 0.999999 in double.
const EPS: f64 = 1.0000000000287557e-06;

/// A model of types 0..9 and method 1 with one entry at `frames`.
fn model_with(kind: Kind, frames: &[Frame], records: &[i64]) -> Model {
    let mut m = Model::new().unwrap();
    for t in 0..10 {
        m.add_type(t, &format!("T{t}")).unwrap();
    }
    m.add_method(1, "f", &[0, 0]).unwrap();
    m.add_entry(kind, frames, records).unwrap();
    m
}

const AT: &[Frame] = &[Frame::new(1, 0)];
const MONITOR: &[Frame] = &[Frame::new(0, 0)];

#[test]
fn constants() {
    assert_eq!(EXTREMELY_SLOW_PATH_PROBABILITY, EPS);
    assert_eq!(INVALID_BRANCH_BCI, -5);
}

#[test]
fn branch_probabilities_as_graalvm_computes_them() {
    // Index 1 has two records (one a shared switch case, bci -5): they share
    // the index's probability; index 2 never ran and gets the extremely slow
    // path's, the others giving up as much.
    let m = model_with(Kind::Conditional, AT, &[10, 0, 30, 20, 1, 60, -5, 1, 10, 30, 2, 0]);
    let e = m.entry_at(Kind::Conditional, 0).unwrap();
    assert_eq!(
        e.branch_probabilities().unwrap(),
        Some(vec![(10, 0.29999970000009996), (20, 0.6999992999999), (30, 1.0000000000287557e-06)])
    );

    let m = model_with(Kind::Conditional, AT, &[17, 0, 600, 21, 1, 400]);
    let e = m.entry_at(Kind::Conditional, 0).unwrap();
    assert_eq!(e.branch_probabilities().unwrap(), Some(vec![(17, 0.6), (21, 0.4)]));
    assert_eq!(e.records(), [17, 0, 600, 21, 1, 400], "only read");
}

#[test]
fn branch_probabilities_without_counts_are_none() {
    let m = model_with(Kind::Conditional, AT, &[17, 0, 0, 21, 1, 0]);
    assert_eq!(m.entry_at(Kind::Conditional, 0).unwrap().branch_probabilities().unwrap(), None);
}

#[test]
fn branch_probabilities_of_other_kinds_and_broken_records() {
    let m = model_with(Kind::VirtualInvoke, AT, &[1, 5]);
    let e = m.entry_at(Kind::VirtualInvoke, 0).unwrap().branch_probabilities().unwrap_err();
    assert_eq!(e.status(), Status::Invalid);
    assert!(e.message().contains("conditional"), "{e}");
    // A lenient load keeps records that are not triples.
    let doc = common::doc("1.0.0", ",\"conditionalProfiles\":[{\"ctx\":\"1:0\",\"records\":[3,0,5,4]}]}");
    let m = Model::load_bytes(doc.as_bytes()).unwrap();
    let e = m.entry_at(Kind::Conditional, 0).unwrap().branch_probabilities().unwrap_err();
    assert_eq!(e.status(), Status::Schema);
}

#[test]
fn type_shares_as_graalvm_computes_them() {
    // Type 5 twice (600 + 0): summed; highest share first.
    let m = model_with(Kind::VirtualInvoke, AT, &[6, 400, 5, 600, 5, 0]);
    assert_eq!(
        m.entry_at(Kind::VirtualInvoke, 0).unwrap().type_shares().unwrap(),
        (vec![(5, 0.5999994000000001), (6, 0.3999996)], 1.0000000000287557e-06)
    );
    // Ties by ascending type id, in every kind that has types.
    for (kind, frames) in [(Kind::VirtualInvoke, AT), (Kind::Instanceof, AT), (Kind::Monitor, MONITOR)] {
        let m = model_with(kind, frames, &[7, 1, 3, 1]);
        let (shares, other) = m.entry_at(kind, 0).unwrap().type_shares().unwrap();
        assert_eq!(shares.iter().map(|s| s.0).collect::<Vec<_>>(), [3, 7], "{kind}");
        assert_eq!(shares[0].1, shares[1].1);
        assert_eq!(other, EPS);
    }
    // No records: no shares; zero counts: zero shares (a total below 1 is 1).
    let m = model_with(Kind::Monitor, MONITOR, &[]);
    assert_eq!(m.entry_at(Kind::Monitor, 0).unwrap().type_shares().unwrap(), (vec![], EPS));
    let m = model_with(Kind::VirtualInvoke, AT, &[2, 0, 1, 0]);
    assert_eq!(m.entry_at(Kind::VirtualInvoke, 0).unwrap().type_shares().unwrap(), (vec![(1, 0.0), (2, 0.0)], EPS));
    // Other kinds.
    let m = model_with(Kind::Conditional, AT, &[1, 0, 1]);
    assert_eq!(m.entry_at(Kind::Conditional, 0).unwrap().type_shares().unwrap_err().status(), Status::Invalid);
}

#[test]
fn totals_by_kind_and_saturating() {
    for (kind, frames, records, total) in [
        (Kind::CallCount, AT, &[42][..], 42),
        (Kind::Sampling, AT, &[7], 7),
        (Kind::Conditional, AT, &[10, 0, 30, 20, 1, 60, -5, 1, 10], 100),
        (Kind::VirtualInvoke, AT, &[6, 400, 5, 600], 1000),
        (Kind::Instanceof, AT, &[6, 4, 5, 6], 10),
        (Kind::Monitor, MONITOR, &[6, 1, 5, 2], 3),
        (Kind::Monitor, MONITOR, &[], 0),
        (Kind::VirtualInvoke, AT, &[1, i64::MAX, 2, 5], i64::MAX),
    ] {
        let m = model_with(kind, frames, records);
        assert_eq!(m.entry_at(kind, 0).unwrap().total(), total, "{kind} {records:?}");
    }
    let doc = common::doc("1.0.0", &format!(",\"conditionalProfiles\":[{{\"ctx\":\"1:0\",\"records\":[0,0,{},1,1,-1]}}]}}", i64::MIN));
    let m = Model::load_bytes(doc.as_bytes()).unwrap();
    assert_eq!(m.entry_at(Kind::Conditional, 0).unwrap().total(), i64::MIN);
}

#[test]
fn method_totals_hottest_first_ties_by_id() {
    let mut m = Model::new().unwrap();
    m.add_type(0, "T").unwrap();
    for id in 1..=4 {
        m.add_method(id, &format!("m{id}"), &[0, 0]).unwrap();
    }
    let f = Frame::new;
    for (frames, count) in [
        (&[f(3, 0)][..], 10),
        (&[f(1, 0)], 7),
        (&[f(4, 0)], 3),
        (&[f(2, 0), f(1, 3)], 10),
        (&[f(1, 0), f(2, 5)], 3),  // method 1: 7 + 3
        (&[f(4, 0), f(3, 1)], 12), // method 4: 3 + 12
    ] {
        m.add_entry(Kind::CallCount, frames, &[count]).unwrap();
    }
    let all = vec![(4, 15), (1, 10), (2, 10), (3, 10)];
    assert_eq!(m.method_totals(Kind::CallCount, None).unwrap(), all);
    assert_eq!(m.method_totals(Kind::CallCount, Some(2)).unwrap(), all[..2]);
    assert_eq!(m.method_totals(Kind::CallCount, Some(100)).unwrap(), all);
    assert_eq!(m.method_totals(Kind::CallCount, Some(0)).unwrap(), []);
    assert_eq!(m.method_totals(Kind::Sampling, None).unwrap(), []);
    // Monitors all count for method 0.
    let m = model_with(Kind::Monitor, MONITOR, &[1, 5, 2, 6]);
    assert_eq!(m.method_totals(Kind::Monitor, None).unwrap(), [(0, 11)]);
}

#[test]
fn method_totals_match_the_entries_of_a_file() {
    let m = Model::load(common::fib_path()).unwrap();
    for kind in Kind::ALL {
        let mut sums: HashMap<i64, i64> = HashMap::new();
        for e in m.entries(kind) {
            *sums.entry(e.context().method_id()).or_default() += e.total();
        }
        let mut want: Vec<(i64, i64)> = sums.into_iter().collect();
        want.sort_by_key(|&(id, total)| (std::cmp::Reverse(total), id));
        assert_eq!(m.method_totals(kind, None).unwrap(), want, "{kind}");
    }
}
