//! Safe Rust bindings of libiprof: read, validate, model, merge and write
//! the profiles of GraalVM Native Image's profile-guided optimization
//! (`.iprof` files, format versions 0.4.0, 1.0.0 and 1.1.0).
//!
//! * [`Reader`] streams a document through closures ([`Callbacks`]) or a
//!   [`Handler`] of yours, or loads it into a [`Model`]; its options are
//!   [`ReadOptions`].
//! * [`Model`] holds types, methods and entries, looks them up in O(1),
//!   combines records per [`Kind`] and merges profiles with a weight
//!   ([`MergeOptions`]); it can be rewritten into its canonical form
//!   ([`Model::canonicalize`]) or filtered ([`Model::filter`] with
//!   [`FilterOptions`]: criteria and `keep_*` closures); its records can be
//!   rewritten ([`Model::set_entry_records`], [`Model::map_records`]) and
//!   its counts scaled ([`Model::scale`] with a [`Rounding`]); a method can
//!   be removed with every entry that mentions it
//!   ([`Model::remove_method`] with `cascade`), and what nothing refers to,
//!   or what refers to the undefined, pruned ([`Model::prune`]). One
//!   vocabulary, the C library's: *remove* one element, *filter* by what
//!   to keep, *prune* by references. It keeps what its file held beyond the profile:
//!   unknown top-level keys ([`Model::unknown_keys`]) and the spelling of
//!   the instanceof key ([`InstanceofKey`]), so loading and writing a file
//!   gives back its bytes.
//! * [`Entry::branch_probabilities`] and [`Entry::type_shares`] compute
//!   what GraalVM's PGO tells the compiler from an entry;
//!   [`Entry::total`] and [`Model::method_totals`] rank the hottest
//!   entries and methods.
//! * [`Diff`] compares two models: what each lacks, how much of each
//!   one's count mass the other covers, and the biggest [`Change`]s.
//! * [`Writer`] writes a document element by element or a whole model, to
//!   a path (atomically), to memory, to a file descriptor or to any
//!   [`std::io::Write`], gzip-compressed with [`WriteOptions::gzip`] or
//!   for a path ending in `.gz` ([`gzip_supported`]); gzip input is read
//!   transparently.
//! * Every fallible call returns [`Result<T, Error>`](Error), with the
//!   status, message, line, column, offset and JSON path of the problem;
//!   errors of model operations also name the kind, context, type id and
//!   method id involved.
//!
//! ```no_run
//! # fn main() -> Result<(), iprof::Error> {
//! let model = iprof::Model::load("default.iprof")?;
//! for entry in model.entries(iprof::Kind::CallCount) {
//!     println!("{} {:?}", model.describe_context(entry.context()), entry.records());
//! }
//! # Ok(()) }
//! ```
//!
//! # Borrows instead of lifetimes rules
//!
//! The C API has lifetime rules that the borrow checker enforces here:
//!
//! * Views into a model ([`Type`], [`Method`], [`Context`], [`Entry`]) and
//!   the iterators over it borrow the model (`Type<'m>` holds a
//!   `&'m Model`), so a view cannot outlive the model: using one after
//!   [`Model`] is dropped does not compile.
//! * Every mutation ([`Model::add_entry`], [`Model::remove_type`],
//!   [`Model::filter`], [`Model::merge`] into it, ...) takes
//!   `&mut self`, so it cannot happen while a view is alive. This is what
//!   the C rule "entry pointers are valid until the next change to entries
//!   of that kind" and "a removed type or method must not be used" need:
//!
//! ```compile_fail,E0502
//! # fn main() -> Result<(), iprof::Error> {
//! let mut model = iprof::Model::new()?;
//! model.add_type(1, "A")?;
//! let a = model.type_at(0).unwrap();
//! model.remove_type(1)?;   // error: `model` is borrowed by `a`
//! println!("{}", a.name());
//! # Ok(()) }
//! ```
//!
//! ```compile_fail,E0597
//! let view = {
//!     let model = iprof::Model::new().unwrap();
//!     model.types().next()  // error: `model` does not live long enough
//! };
//! ```
//!
//! * Everything a reader callback receives (names, frames, records) is
//!   valid only during the call; closures and [`Handler`] methods take them
//!   with a lifetime of the call (`for<'e> FnMut(EntryEvent<'e>)`), so they
//!   cannot be kept: copy what you need.
//! * [`Writer::bytes`] borrows the writer, so the buffer cannot be used
//!   after the writer is dropped or written to again.
//! * [`Model::merge`] takes `&mut self` and `&Model`: the borrow checker
//!   guarantees that destination and source are different models, as the
//!   C function requires.
//! * A [`Diff<'a>`](Diff) borrows both models it compares, so they outlive
//!   it and cannot change while it exists; the methods and entries it
//!   returns borrow the models (`'a`), not the result.
//!
//! # Threads
//!
//! The C library has no global state and no thread affinity; one handle
//! must not be used by two threads at once, except that a model nobody
//! mutates may be read from any number of threads (no accessor writes to
//! it). Hence:
//!
//! * [`Model`] is `Send` (a handle can move to another thread) and `Sync`:
//!   through `&Model` only the read-only accessors are reachable, and every
//!   mutation needs `&mut Model`, which excludes all other access. Views
//!   and iterators are `Send` and `Sync` as they are a `&Model` plus a
//!   pointer into it.
//! * [`Reader`] is `Send` but not `Sync`: the library allows one read at a
//!   time per reader and does not promise that its error and diagnostics
//!   may be inspected from several threads at once.
//! * [`Writer`] is `Send` (its callback sink must be `Send` too) but not
//!   `Sync`, for the same reason.
//! * Reader callbacks run on the calling thread, during the call, so they
//!   need not be `Send`. So does the [`std::io::Read`] of
//!   [`Reader::load_from`] in a threaded load
//!   ([`ReadOptions::threaded`]): only the library's own model building
//!   runs on its second thread.
//!
//! All handles use the C library's default allocator (libc), which is
//! thread-safe.
//!
//! # Panics in callbacks
//!
//! A panic inside a closure called from C (a reader callback, a filter
//! predicate, a [`Model::map_records`] function, an [`std::io::Read`] or
//! [`std::io::Write`] sink) never unwinds through C: it is caught, the C
//! call is asked to stop (a stopped `map_records` changes nothing; for
//! a filter, every element not yet judged is kept), and the panic is resumed
//! once the C call has returned and left its handle in a consistent state.

#![warn(missing_docs)]

mod analysis;
mod columns;
mod diff;
mod error;
mod model;
mod reader;
mod transform;
mod writer;

use std::any::Any;
use std::ffi::{c_char, CStr, CString};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

pub use iprof_sys as sys;

pub use analysis::{EXTREMELY_SLOW_PATH_PROBABILITY, INVALID_BRANCH_BCI};
pub use columns::Columns;
pub use diff::{Change, Changes, Diff, OnlyMethods, Side};
pub use error::{Error, Result, Severity, Status};
pub use model::{Context, ContextFrames, Entries, Entry, MergeOptions, Method, Methods, Model, Rounding, Type, Types};
pub use reader::{Callbacks, DroppedDiagnostics, EntryEvent, Flow, Handler, Interest, MethodEvent, ReadOptions, Reader, Section};
pub use transform::{package_matches, CanonicalOptions, FilterOptions, Prune, Pruned};
pub use writer::{WriteOptions, Writer};

/// Format version 0.2.0: GraalVM's legacy layout of 2022 (hotnessPoints,
/// conditionalPoints, invokePoints, monitorsProfile), read into the same
/// model and written back in its own layout; it has no sampling or
/// instanceof profiles.
pub const FORMAT_0_2_0: &str = "0.2.0";
/// Format version 0.4.0 (the one most GraalVM releases in the wild write).
pub const FORMAT_0_4_0: &str = "0.4.0";
/// Format version 1.0.0.
pub const FORMAT_1_0_0: &str = "1.0.0";
/// Format version 1.1.0 (adds instanceof profiles).
pub const FORMAT_1_1_0: &str = "1.1.0";
/// The newest format version the library knows.
pub const FORMAT_LATEST: &str = FORMAT_1_1_0;

/// The C library's version, "MAJOR.MINOR.PATCH".
pub fn library_version() -> &'static str {
    // SAFETY: static storage, never NULL.
    unsafe { error::static_str(sys::iprof_version_string()) }
}

/// Whether the C library reads and writes gzip-compressed profiles (it
/// was built with zlib). Without it, gzip input fails with
/// [`Status::Io`], and so does writing a `.gz` path or with
/// [`WriteOptions::gzip`].
pub fn gzip_supported() -> bool {
    // SAFETY: no arguments, no state.
    unsafe { sys::iprof_features() & sys::IPROF_FEATURE_GZIP != 0 }
}

/// The six kinds of profile entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(i32)]
pub enum Kind {
    /// `callCountProfiles`: records `[count]`.
    CallCount = 0,
    /// `conditionalProfiles`: records `[bci, index, count]*`.
    Conditional = 1,
    /// `virtualInvokeProfiles`: records `[type id, count]*`.
    VirtualInvoke = 2,
    /// `monitorProfiles`: ctx `0:0`, records `[type id, count]*`.
    Monitor = 3,
    /// `samplingProfiles`: records `[count]`.
    Sampling = 4,
    /// `instanceofProfiles`, or `instanceOfProfiles` as GraalVM 25 spells
    /// it (1.1.0; see [`InstanceofKey`]): records `[type id, count]*`.
    Instanceof = 5,
}

impl Kind {
    /// All kinds in the library's numbering order.
    pub const ALL: [Kind; 6] = [
        Kind::CallCount,
        Kind::Conditional,
        Kind::VirtualInvoke,
        Kind::Monitor,
        Kind::Sampling,
        Kind::Instanceof,
    ];

    /// The kind of a C kind number (`IPROF_KIND_*`).
    pub fn from_raw(kind: i32) -> Option<Kind> {
        Kind::ALL.get(usize::try_from(kind).ok()?).copied()
    }

    /// The C kind number (`IPROF_KIND_*`).
    pub fn raw(self) -> i32 {
        self as i32
    }

    /// The JSON key of the kind's section ("callCountProfiles", ...; the
    /// document's "instanceofProfiles" for [`Kind::Instanceof`]).
    pub fn key(self) -> &'static str {
        // SAFETY: valid kind, so static storage and not NULL.
        unsafe { error::static_str(sys::iprof_kind_name(self.raw())) }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The spelling of the instanceof section's key (`enum
/// iprof_instanceof_key`). The published document says
/// `"instanceofProfiles"`, GraalVM 25 writes and reads `"instanceOfProfiles"`.
/// A loaded model remembers the one its file used
/// ([`Model::instanceof_key`]); [`WriteOptions::instanceof_key`] chooses
/// what a writer writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum InstanceofKey {
    /// No choice: a writer uses the model's spelling, else GraalVM's
    /// `"instanceOfProfiles"`; a model that read no instanceof section.
    #[default]
    Auto = 0,
    /// `"instanceofProfiles"`, the document's spelling.
    Lower = 1,
    /// `"instanceOfProfiles"`, GraalVM's spelling.
    Camel = 2,
}

impl InstanceofKey {
    /// The spelling of a C value (`IPROF_INSTANCEOF_KEY_*`).
    pub fn from_raw(raw: i32) -> Option<InstanceofKey> {
        [InstanceofKey::Auto, InstanceofKey::Lower, InstanceofKey::Camel].get(usize::try_from(raw).ok()?).copied()
    }

    /// The C value (`IPROF_INSTANCEOF_KEY_*`).
    pub fn raw(self) -> i32 {
        self as i32
    }

    /// The JSON key, `None` for [`Auto`](InstanceofKey::Auto).
    pub fn key(self) -> Option<&'static str> {
        let name: &'static [u8] = match self {
            InstanceofKey::Auto => return None,
            InstanceofKey::Lower => sys::IPROF_INSTANCEOF_KEY_LOWER_NAME,
            InstanceofKey::Camel => sys::IPROF_INSTANCEOF_KEY_CAMEL_NAME,
        };
        // The constants are ASCII with one NUL at their end.
        std::str::from_utf8(&name[..name.len() - 1]).ok()
    }
}

/// One frame of a context: a method id and a bytecode index. A context is
/// a slice of frames, callee first (`"5:0<3:2"` is
/// `[Frame::new(5, 0), Frame::new(3, 2)]`).
///
/// `#[repr(C)]` with two `i64`, so `&[Frame]` has exactly the layout of the
/// C API's interleaved `(method id, bci)` arrays and is passed without
/// copying.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Frame {
    /// The method id.
    pub method_id: i64,
    /// The bytecode index (may be negative).
    pub bci: i64,
}

impl Frame {
    /// A frame.
    pub const fn new(method_id: i64, bci: i64) -> Frame {
        Frame { method_id, bci }
    }
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.method_id, self.bci)
    }
}

/// The ctx text of frames: `"5:0<3:2"`.
pub fn format_ctx(frames: &[Frame]) -> String {
    let parts: Vec<String> = frames.iter().map(Frame::to_string).collect();
    parts.join("<")
}

/// Parse ctx text (`"5:0<3:2"`) into frames; `None` if it is not
/// `id:bci` frames joined by `<` with int64 numbers.
pub fn parse_ctx(ctx: &str) -> Option<Vec<Frame>> {
    ctx.split('<')
        .map(|frame| {
            let (m, b) = frame.split_once(':')?;
            Some(Frame::new(m.parse().ok()?, b.parse().ok()?))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Helpers shared by the modules.

/// Interleaved int64 frames from C as frames.
///
/// # Safety
/// `frames` must point to `2 * count` valid `i64` for `'a` (or `count` is 0).
pub(crate) unsafe fn frames_from_raw<'a>(frames: *const i64, count: usize) -> &'a [Frame] {
    if count == 0 || frames.is_null() {
        &[]
    } else {
        std::slice::from_raw_parts(frames.cast::<Frame>(), count)
    }
}

/// A slice from a C pointer and length (NULL or 0 gives an empty slice).
pub(crate) unsafe fn slice_from_raw<'a, T>(p: *const T, len: usize) -> &'a [T] {
    if len == 0 || p.is_null() {
        &[]
    } else {
        std::slice::from_raw_parts(p, len)
    }
}

/// A C string of known length as `&str`. The library checks that input is
/// UTF-8 and the bindings only pass `&str`, so names are always UTF-8; an
/// invalid sequence would show as U+FFFD through `lossy`.
pub(crate) unsafe fn str_from_raw<'a>(p: *const c_char, len: usize) -> Result<&'a str, String> {
    let bytes = slice_from_raw(p.cast::<u8>(), len);
    std::str::from_utf8(bytes).map_err(|_| String::from_utf8_lossy(bytes).into_owned())
}

/// Like `str_from_raw` for strings that live as long as `'a`; non-UTF-8
/// (which the library does not produce) gives "\u{FFFD}".
pub(crate) unsafe fn borrowed_str<'a>(p: *const c_char, len: usize) -> &'a str {
    str_from_raw(p, len).unwrap_or("\u{FFFD}")
}

/// A NUL-terminated copy of a string for C; NUL inside is an error.
pub(crate) fn c_string(what: &str, s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::new(Status::Invalid, format!("{what} contains a NUL byte")))
}

/// A path as a NUL-terminated C string.
pub(crate) fn c_path(path: &Path) -> Result<CString> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path
        .to_str()
        .ok_or_else(|| Error::new(Status::Invalid, "path is not UTF-8"))?
        .as_bytes()
        .to_vec();
    CString::new(bytes).map_err(|_| Error::new(Status::Invalid, "path contains a NUL byte"))
}

/// A string from an snprintf-convention C function `f(buf, size) -> full
/// length`.
pub(crate) fn snprintf_string(mut f: impl FnMut(*mut c_char, usize) -> usize) -> String {
    let mut buf = vec![0u8; 256];
    loop {
        let n = f(buf.as_mut_ptr().cast(), buf.len());
        if n < buf.len() {
            buf.truncate(n);
            return String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        }
        buf.resize(n + 1, 0);
    }
}

/// A NUL-terminated C string owned by a handle as `&str`.
pub(crate) unsafe fn cstr<'a>(p: *const c_char) -> &'a str {
    if p.is_null() {
        ""
    } else {
        CStr::from_ptr(p).to_str().unwrap_or("\u{FFFD}")
    }
}

/// Where a panic caught in a callback waits until the C call returns.
#[derive(Default)]
pub(crate) struct PanicSlot(Option<Box<dyn Any + Send + 'static>>);

impl PanicSlot {
    /// Run `f` unless a panic is already pending; a panic is stored and
    /// gives `None`, as does a pending one.
    pub(crate) fn call<R>(&mut self, f: impl FnOnce() -> R) -> Option<R> {
        if self.0.is_some() {
            return None;
        }
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(r) => Some(r),
            Err(payload) => {
                self.0 = Some(payload);
                None
            }
        }
    }

    /// Resume a stored panic, on the Rust side of the FFI boundary.
    pub(crate) fn resume(&mut self) {
        if let Some(payload) = self.0.take() {
            std::panic::resume_unwind(payload);
        }
    }
}
