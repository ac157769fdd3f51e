//! A tour of the iprof Rust bindings (docs/bindings.md shows it and the
//! tests run it).
//!
//!     cargo run --example example [PROFILE]
//!
//! Loads a profile (default: examples/fib.iprof), prints what it holds and
//! its hottest call, streams its entries, merges it into a copy of itself,
//! changes it and writes it back.

use std::path::PathBuf;

use iprof::{Callbacks, Frame, Kind, Model, ReadOptions, Reader, WriteOptions, Writer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args_os().nth(1).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/fib.iprof")
    });

    // Errors carry the status, message, position and JSON path.
    if let Err(e) = Model::load_bytes(br#"{"version": "1.0.0", "types": [{"id": 0}], "methods": []}"#) {
        println!(
            "error: {} at line {}, column {}, {} ({})",
            e.message(), e.line(), e.column(), e.path(), e.status().name()
        );
    }

    let mut model = Model::load(&path)?;
    println!("version {}: {} types, {} methods", model.version(), model.type_count(), model.method_count());
    for kind in Kind::ALL {
        println!("{:<22} {}", kind.key(), model.entry_count(kind));
    }

    // The call-count entry with the largest count, as frames and as text.
    // Views borrow the model: they cannot outlive it or a change to it.
    let hottest = model
        .entries(Kind::CallCount)
        .reduce(|best, e| if e.records()[0] > best.records()[0] { e } else { best })
        .ok_or("no call counts")?;
    let where_: Vec<Frame> = hottest.context().frames().collect();
    println!(
        "hottest call count: {} at {} ({}), frames {:?}",
        hottest.records()[0],
        model.describe_context(hottest.context()),
        hottest.context(),
        where_.iter().map(|f| (f.method_id, f.bci)).collect::<Vec<_>>()
    );
    let fib_type = model.type_by_name("Fib").ok_or("no Fib")?.id();
    let void = model.type_by_name("void").ok_or("no void")?.id();
    let fib = model.method_find("fibonacci", &[fib_type, void]).ok_or("no fibonacci")?;
    let fib_id = fib.id();
    println!("method {} is {}", fib_id, model.describe_method(fib));

    // The model is Sync: read it from several threads at once.
    let totals: Vec<i64> = std::thread::scope(|s| {
        let model = &model;
        let handles: Vec<_> = Kind::ALL
            .iter()
            .map(|&kind| s.spawn(move || model.entries(kind).map(|e| e.records().len() as i64).sum::<i64>()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    println!("record values per kind: {totals:?}");

    // Streaming: closures per element (or a Handler of yours).
    let mut total = 0;
    let mut reader = Reader::with_options(&ReadOptions::new().strict(true))?;
    reader.read_path(
        &path,
        Callbacks::new()
            .on_kind(Kind::CallCount, |e| total += e.records[0])
            .on_kind(Kind::Conditional, |e| println!("conditional at {}: {:?}", e.ctx(), e.records)),
    )?;
    println!("calls counted while streaming: {total}");

    // Merge a second copy with weight 2, then add and remove entries. Every
    // change takes `&mut model`, so no view (like `hottest`) may be alive.
    let other = Model::load(&path)?;
    model.merge(&other, 2.0)?;
    let after = model.entry_find(Kind::CallCount, &where_).ok_or("lost")?;
    println!("after merge: {}", after.records()[0]);
    model.add_entry(Kind::CallCount, &[Frame::new(fib_id, 0)], &[1000])?;
    let second: Vec<Frame> = model.entry_at(Kind::Sampling, 1).ok_or("no sample")?.context().frames().collect();
    model.remove_entry(Kind::Sampling, &second)?;

    // Write: to memory, or to a path (atomically).
    let mut writer = Writer::to_memory(&WriteOptions::new().format_version(iprof::FORMAT_LATEST))?;
    writer.write_model(&model)?;
    let data = writer.into_bytes()?;
    let out = std::env::temp_dir().join(format!("iprof-example-{}.iprof", std::process::id()));
    Writer::to_path(&out, &WriteOptions::new().pretty(true))?.write_model(&model)?;
    let again = Reader::with_options(&ReadOptions::new().strict(true))?.load_path(&out)?;
    std::fs::remove_file(&out)?;
    println!(
        "written {} bytes; reloaded {} call counts, fibonacci called {} times",
        data.len(),
        again.entry_count(Kind::CallCount),
        again.entry_find(Kind::CallCount, &[Frame::new(fib_id, 0)]).ok_or("lost")?.records()[0]
    );
    Ok(())
}
