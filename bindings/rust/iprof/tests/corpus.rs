//! Real profiles from the corpus ($IPROF_CORPUS_DIR; each test prints why
//! it skips when a file is absent): a byte-identical round trip, a
//! streaming copy, and merges checked against an independent computation
//! made from the streaming reader and hash maps keyed by names.

mod common;

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;

use iprof::{EntryEvent, Frame, Handler, Kind, MethodEvent, Model, ReadOptions, Reader, WriteOptions, Writer};

const JSONATA: &str = "jsonata-cli-0.4.0.iprof";
const ASSORTED: &str = "assorted-benchmarks-0.4.0.iprof";

/// A threaded load (`ReadOptions::threaded`) writes the same bytes as an
/// unthreaded one, and as the file, from a path, memory and an io::Read.
#[test]
fn threaded_load_is_byte_identical() {
    for name in [JSONATA, ASSORTED, "elide-cli-types-only-0.4.0.iprof", "elidemin-jspy-placeholders-1.0.0.iprof"] {
        let Some(path) = common::corpus_file(name) else { continue };
        let original = std::fs::read(&path).unwrap();
        type Load<'a> = &'a dyn Fn(&mut Reader) -> iprof::Result<Model>;
        let loads: [Load<'_>; 3] = [
            &|r| r.load_path(&path),
            &|r| r.load_bytes(&original),
            &|r| r.load_from(original.as_slice()),
        ];
        for (i, load) in loads.iter().enumerate() {
            let mut got = Vec::new();
            for threaded in [false, true] {
                let mut reader = Reader::with_options(&ReadOptions::new().threaded(threaded)).unwrap();
                let model = load(&mut reader).unwrap();
                let diags = reader.diagnostics();
                let opts = WriteOptions::new().no_validate(!diags.is_empty());
                let mut w = Writer::to_memory(&opts).unwrap();
                w.write_model(&model).unwrap();
                got.push((w.into_bytes().unwrap(), diags));
            }
            assert!(got[1].0 == got[0].0, "{name} (source {i}): threaded load wrote other bytes");
            assert!(got[1].0 == original, "{name} (source {i}): written bytes differ from the file");
            assert_eq!(got[1].1, got[0].1, "{name} (source {i})");
            assert_eq!(got[0].1.is_empty(), !name.starts_with("elidemin"), "{name}");
        }
    }
}

#[test]
fn round_trip_is_byte_identical() {
    for name in [JSONATA, ASSORTED, "elidemin-jspy-placeholders-1.0.0.iprof"] {
        let Some(path) = common::corpus_file(name) else { continue };
        let original = std::fs::read(&path).unwrap();
        let mut reader = Reader::new().unwrap();
        let model = reader.load_path(&path).unwrap();
        // The placeholders file dangles everywhere: lenient load, copied
        // without validation.
        let opts = WriteOptions::new().no_validate(!reader.diagnostics().is_empty());
        let mut w = Writer::to_memory(&opts).unwrap();
        w.write_model(&model).unwrap();
        assert!(w.bytes().unwrap() == original, "{name}: written bytes differ from the file");
        if name == JSONATA {
            assert!(reader.diagnostics().is_empty());
            assert_eq!(model.version(), "0.4.0");
            assert_eq!(model.to_bytes().unwrap(), original);
        }
    }
}

/// Copies every element to a streaming writer.
struct Copy<'w, 'a> {
    writer: &'w mut Writer<'a>,
    error: Option<iprof::Error>,
}

impl Copy<'_, '_> {
    fn check(&mut self, r: iprof::Result<()>) -> ControlFlow<()> {
        match r {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }
}

impl Handler for Copy<'_, '_> {
    fn version(&mut self, version: &str) -> ControlFlow<()> {
        let r = self.writer.begin(Some(version));
        self.check(r)
    }
    fn type_(&mut self, id: i64, name: &str) -> ControlFlow<()> {
        let r = self.writer.write_type(id, name);
        self.check(r)
    }
    fn method(&mut self, m: MethodEvent<'_>) -> ControlFlow<()> {
        let r = self.writer.write_method(m.id, m.name, m.signature);
        self.check(r)
    }
    fn entry(&mut self, e: EntryEvent<'_>) -> ControlFlow<()> {
        let r = self.writer.write_entry(e.kind, e.frames, e.records);
        self.check(r)
    }
}

#[test]
fn streaming_copy_is_byte_identical() {
    let Some(path) = common::corpus_file(JSONATA) else { return };
    let original = std::fs::read(&path).unwrap();
    let mut out = Vec::new();
    {
        let mut writer = Writer::to_write(&mut out, &WriteOptions::new()).unwrap();
        let mut copy = Copy { writer: &mut writer, error: None };
        let mut reader = Reader::with_options(&iprof::ReadOptions::new().chunk_size(4096)).unwrap();
        let r = reader.read_path(&path, &mut copy);
        if let Some(e) = copy.error {
            panic!("writer: {e}");
        }
        r.unwrap();
        writer.end().unwrap();
    }
    assert!(out == original, "streaming copy differs from the file");
}

// ---------------------------------------------------------------------------
// Merge, checked by names.

/// (declaring type name, name, return and parameter type names).
type MethodKey = (String, String, Vec<String>);
/// The frames of a ctx by method identity.
type CtxKey = Vec<(MethodKey, i64)>;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum RecordKey {
    Count,
    Branch(i64, i64),
    Type(String),
}

/// Per kind: ctx -> record key -> count.
type Entries = HashMap<Kind, HashMap<CtxKey, HashMap<RecordKey, i64>>>;

/// A document read with the streaming reader, raw.
#[derive(Default)]
struct Raw {
    types: Vec<(i64, String)>,
    methods: Vec<(i64, String, Vec<i64>)>,
    entries: Vec<(Kind, Vec<Frame>, Vec<i64>)>,
}

impl Handler for Raw {
    fn type_(&mut self, id: i64, name: &str) -> ControlFlow<()> {
        self.types.push((id, name.to_string()));
        ControlFlow::Continue(())
    }
    fn method(&mut self, m: MethodEvent<'_>) -> ControlFlow<()> {
        self.methods.push((m.id, m.name.to_string(), m.signature.to_vec()));
        ControlFlow::Continue(())
    }
    fn entry(&mut self, e: EntryEvent<'_>) -> ControlFlow<()> {
        self.entries.push((e.kind, e.frames.to_vec(), e.records.to_vec()));
        ControlFlow::Continue(())
    }
}

/// An entry seen through names: kind, ctx, (record key, count)*.
type NamedEntry = (Kind, CtxKey, Vec<(RecordKey, i64)>);

/// A document seen through names: type names, method keys, entries.
struct Named {
    types: Vec<String>,
    methods: Vec<MethodKey>,
    entries: Vec<NamedEntry>,
}

fn named(raw: &Raw) -> Named {
    let tname: HashMap<i64, &str> = raw.types.iter().map(|(id, n)| (*id, n.as_str())).collect();
    let t = |id: i64| tname.get(&id).map_or_else(|| format!("?{id}"), |s| s.to_string());
    let mkey: HashMap<i64, MethodKey> = raw
        .methods
        .iter()
        .map(|(id, name, sig)| (*id, (t(sig[0]), name.clone(), sig[1..].iter().map(|&x| t(x)).collect())))
        .collect();
    let m = |id: i64| mkey.get(&id).cloned().unwrap_or_else(|| ("?".into(), format!("?{id}"), vec![]));
    let entries = raw
        .entries
        .iter()
        .map(|(kind, frames, r)| {
            let ctx: CtxKey = frames.iter().map(|f| (m(f.method_id), f.bci)).collect();
            let recs = match kind {
                Kind::CallCount | Kind::Sampling => vec![(RecordKey::Count, r[0])],
                Kind::Conditional => r.chunks(3).map(|c| (RecordKey::Branch(c[0], c[1]), c[2])).collect(),
                _ => r.chunks(2).map(|c| (RecordKey::Type(t(c[0])), c[1])).collect(),
            };
            (*kind, ctx, recs)
        })
        .collect();
    Named {
        types: raw.types.iter().map(|(_, n)| n.clone()).collect(),
        methods: raw.methods.iter().map(|(id, _, _)| m(*id)).collect(),
        entries,
    }
}

fn read_raw(path: &Path) -> Raw {
    let mut raw = Raw::default();
    Reader::new().unwrap().read_path(path, &mut raw).unwrap();
    raw
}

/// The model seen through names, with the model's accessors.
fn model_raw(m: &Model) -> Raw {
    Raw {
        types: m.types().map(|t| (t.id(), t.name().to_string())).collect(),
        methods: m.methods().map(|x| (x.id(), x.name().to_string(), x.signature().to_vec())).collect(),
        entries: Kind::ALL
            .iter()
            .flat_map(|&k| m.entries(k))
            .map(|e| (e.kind(), e.context().frames().collect(), e.records().to_vec()))
            .collect(),
    }
}

/// Names in first-occurrence order: A's, then B's new ones.
fn union<T: Clone + Eq + std::hash::Hash>(a: &[T], b: &[T]) -> Vec<T> {
    let mut seen = HashSet::new();
    a.iter().chain(b).filter(|x| seen.insert((*x).clone())).cloned().collect()
}

fn add(entries: &mut Entries, named: &Named, scale: impl Fn(i64) -> i64) {
    for (kind, ctx, recs) in &named.entries {
        let slot = entries.entry(*kind).or_default().entry(ctx.clone()).or_default();
        for (k, c) in recs {
            let v = slot.entry(k.clone()).or_insert(0);
            *v = v.saturating_add(scale(*c));
        }
    }
}

fn check_merge(a_name: &str, b_name: &str, weight: f64) {
    let (Some(pa), Some(pb)) = (common::corpus_file(a_name), common::corpus_file(b_name)) else { return };
    let label = format!("{a_name} + {b_name} * {weight}");
    // Expected, from the streaming reader only.
    let (a, b) = (named(&read_raw(&pa)), named(&read_raw(&pb)));
    let mut expected: Entries = HashMap::new();
    add(&mut expected, &a, |c| c);
    add(&mut expected, &b, |c| {
        if weight.fract() == 0.0 {
            c.saturating_mul(weight as i64)
        } else {
            (c as f64 * weight).round() as i64
        }
    });

    // The model merge.
    let mut dst = Model::load(&pa).unwrap();
    let src = Model::load(&pb).unwrap();
    dst.merge(&src, weight).unwrap();
    let got = named(&model_raw(&dst));

    // The streaming merge gives the same bytes, from every source; so
    // does the model merge on a second thread.
    let want = dst.to_bytes().unwrap();
    let mut d = Model::load(&pa).unwrap();
    d.merge_with(&src, &iprof::MergeOptions::new().weight(weight).threaded(true)).unwrap();
    assert!(d.to_bytes().unwrap() == want, "{label}: threaded model merge");
    let opts = iprof::MergeOptions::new().weight(weight);
    let data = std::fs::read(&pb).unwrap();
    for threaded in [false, true] {
        let mut reader = Reader::with_options(&ReadOptions::new().threaded(threaded)).unwrap();
        for how in 0..4 {
            let mut d = Model::load(&pa).unwrap();
            match how {
                0 => reader.merge_bytes(&mut d, &data, &opts),
                1 => reader.merge_path(&mut d, &pb, &opts),
                2 => {
                    use std::os::fd::AsFd;
                    let f = std::fs::File::open(&pb).unwrap();
                    reader.merge_fd(&mut d, f.as_fd(), &opts)
                }
                _ => reader.merge_from(&mut d, std::fs::File::open(&pb).unwrap(), &opts),
            }
            .unwrap();
            assert!(d.to_bytes().unwrap() == want, "{label}: streaming merge {how}, threaded {threaded}");
        }
    }

    assert_eq!(got.types, union(&a.types, &b.types), "{label}: type names");
    assert_eq!(got.methods, union(&a.methods, &b.methods), "{label}: methods");
    let mut actual: Entries = HashMap::new();
    let mut ctxs = HashSet::new();
    for (kind, ctx, _) in &got.entries {
        assert!(ctxs.insert((*kind, ctx.clone())), "{label}: {kind} repeats a ctx");
    }
    add(&mut actual, &got, |c| c);
    for kind in Kind::ALL {
        let (e, g) = (expected.remove(&kind).unwrap_or_default(), actual.remove(&kind).unwrap_or_default());
        assert_eq!(g.len(), e.len(), "{label}: {kind}: number of contexts");
        for (ctx, recs) in &e {
            assert_eq!(g.get(ctx), Some(recs), "{label}: {kind}: {ctx:?}");
        }
    }
    // Ids: unique, and the result is a valid document (strict read).
    let ids: HashSet<i64> = dst.types().map(|t| t.id()).collect();
    assert_eq!(ids.len(), dst.type_count(), "{label}: type ids unique");
    let bytes = dst.to_bytes().unwrap();
    let mut strict = Reader::with_options(&iprof::ReadOptions::new().strict(true)).unwrap();
    strict.validate_bytes(&bytes).unwrap();
    assert!(strict.diagnostics().is_empty(), "{label}: {:?}", strict.diagnostics());
}

#[test]
fn merge_two_profiles() {
    check_merge(JSONATA, ASSORTED, 1.0);
}

#[test]
fn merge_with_weights() {
    check_merge(ASSORTED, JSONATA, 3.0);
    check_merge(JSONATA, JSONATA, 2.0);
}

#[test]
fn merge_with_a_fractional_weight() {
    // Rounded to nearest: the independent computation rounds half away
    // from zero, the library may round half to even, so compare within 1.
    let (Some(pa), Some(pb)) = (common::corpus_file(ASSORTED), common::corpus_file(JSONATA)) else { return };
    let mut dst = Model::load(&pa).unwrap();
    let src = Model::load(&pb).unwrap();
    let before: HashMap<Vec<Frame>, i64> =
        dst.entries(Kind::CallCount).map(|e| (e.context().frames().collect(), e.records()[0])).collect();
    dst.merge(&src, 0.5).unwrap();
    let b = named(&read_raw(&pb));
    let a = named(&model_raw(&Model::load(&pa).unwrap()));
    let mut expected: Entries = HashMap::new();
    add(&mut expected, &a, |c| c);
    add(&mut expected, &b, |c| (c as f64 * 0.5).round() as i64);
    let got = named(&model_raw(&dst));
    let mut actual: Entries = HashMap::new();
    add(&mut actual, &got, |c| c);
    for kind in Kind::ALL {
        let (e, g) = (&expected.get(&kind).cloned().unwrap_or_default(), actual.get(&kind).cloned().unwrap_or_default());
        assert_eq!(e.len(), g.len(), "{kind}");
        for (ctx, recs) in e {
            let grecs = &g[ctx];
            for (k, v) in recs {
                assert!((grecs[k] - v).abs() <= 1, "{kind} {ctx:?} {k:?}: {} vs {v}", grecs[k]);
            }
        }
    }
    assert!(!before.is_empty());
}
