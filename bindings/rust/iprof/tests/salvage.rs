//! ReadOptions::salvage, Reader::damage / kept_end and
//! Model::prune with Prune::DANGLING: salvaging truncated and damaged profiles; the
//! same cases as bindings/python/tests/test_salvage.py.

mod common;

use iprof::{Kind, Model, Prune, Pruned, ReadOptions, Reader, Status};

/// tests/data/graal-1.0.0.iprof
const DOC: &[u8] = br#"{"version":"1.0.0","types":[{"id":0,"name":"int"},{"id":1,"name":"A"}],"methods":[{"id":1,"name":"m","signature":[1,0]},{"id":2,"name":"n","signature":[1,0,1]}],"callCountProfiles":[{"ctx":"1:0","records":[3]},{"ctx":"2:0<1:4","records":[23929230826]}],"conditionalProfiles":[{"ctx":"1:5","records":[9,0,2,-1,1,1]}],"virtualInvokeProfiles":[{"ctx":"2:7<1:4","records":[1,3]}],"monitorProfiles":[{"ctx":"0:0","records":[1,2]}],"samplingProfiles":[{"ctx":"2:3<1:-1","records":[4]}]}"#;

/// Entries before methods and types, cut inside types: method 3 names
/// type 9, entries name methods 2 and 3 and type 7.
const DANGLING: &[u8] = br#"{"version":"1.0.0","callCountProfiles":[{"ctx":"1:0","records":[3]},{"ctx":"2:0<1:4","records":[5]},{"ctx":"3:0","records":[7]}],"virtualInvokeProfiles":[{"ctx":"1:2","records":[0,1,7,2]},{"ctx":"1:3","records":[0,1]}],"monitorProfiles":[{"ctx":"0:0","records":[1,9]}],"methods":[{"id":1,"name":"m","signature":[1,0]},{"id":3,"name":"q","signature":[1,9]}],"types":[{"id":0,"name":"int"},{"id":1,"name":"A"},{"id":5,"na"#;

fn counts(m: &Model) -> Vec<usize> {
    let mut v = vec![m.types().len(), m.methods().len()];
    v.extend(Kind::ALL.iter().map(|&k| m.entries(k).len()));
    v
}

fn reader(strict: bool, threaded: bool) -> Reader {
    Reader::with_options(&ReadOptions::new().salvage(true).strict(strict).threaded(threaded))
        .unwrap()
}

#[test]
fn truncated_from_bytes_and_path() {
    let dir = std::env::temp_dir().join(format!("iprof-salvage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cut.iprof");
    std::fs::write(&path, &DOC[..420]).unwrap();
    for threaded in [false, true] {
        let mut r = reader(false, threaded);
        for m in [r.load_bytes(&DOC[..420]).unwrap(), r.load_path(&path).unwrap()] {
            assert_eq!(counts(&m), [2, 2, 2, 1, 1, 0, 0, 0]);
        }
        let d = r.damage().expect("damaged");
        assert_eq!(
            (d.status(), d.offset(), d.line(), d.column(), d.path(), d.message()),
            (Status::Syntax, 420, 1, 421, "monitorProfiles[0].records[0]", "unexpected end of input")
        );
        assert_eq!(r.kept_end(), 375);
        let m = r.load_bytes(DOC).unwrap();
        assert_eq!(counts(&m), [2, 2, 2, 1, 1, 1, 1, 0]);
        assert!(r.damage().is_none());
        assert_eq!(r.kept_end(), DOC.len() as u64);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_salvage_or_before_the_version() {
    let mut plain = Reader::new().unwrap();
    let e = plain.load_bytes(&DOC[..420]).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Syntax, 420));
    assert!(plain.damage().is_none());
    let mut r = reader(false, false);
    let e = r.load_bytes(br#"{"versi"#).unwrap_err();
    assert_eq!(e.status(), Status::Syntax);
    assert!(r.damage().is_none());
}

#[test]
fn prune_dangling() {
    let mut r = reader(true, false);
    let mut m = r.load_bytes(DANGLING).unwrap();
    assert_eq!(r.damage().unwrap().path(), "types[2]");
    assert_eq!(counts(&m), [2, 2, 3, 0, 2, 1, 0, 0]);
    assert_eq!(m.to_bytes().unwrap_err().status(), Status::Dangling);
    let d = m.prune(Prune::DANGLING).unwrap();
    assert_eq!(d, Pruned { types: 0, methods: 1, entries: [2, 0, 1, 0, 0, 0] });
    assert_eq!(d.entries_of(Kind::VirtualInvoke), 1);
    assert_eq!(counts(&m), [2, 1, 1, 0, 1, 1, 0, 0]);
    assert_eq!(m.prune(Prune::DANGLING).unwrap(), Pruned::default());
    let out = m.to_bytes().unwrap();
    let back = Reader::with_options(&ReadOptions::new().strict(true))
        .unwrap()
        .load_bytes(&out)
        .unwrap();
    assert_eq!(counts(&back), [2, 1, 1, 0, 1, 1, 0, 0]);
}

#[test]
fn garbage_byte() {
    let bad = String::from_utf8(DOC.to_vec()).unwrap().replace("[9,0,2,-1", "[9,0,2,@1");
    let mut r = reader(true, false);
    let m = r.load_bytes(bad.as_bytes()).unwrap();
    let d = r.damage().unwrap();
    assert_eq!((d.offset(), d.path()), (306, "conditionalProfiles[0].records[3]"));
    assert_eq!(counts(&m), [2, 2, 2, 0, 0, 0, 0, 0]);
}
