//! The streaming reader.

use std::ffi::{c_char, c_int, c_void};
use std::io;
use std::marker::PhantomData;
use std::ops::ControlFlow;
use std::path::Path;
use std::ptr::{self, NonNull};

use iprof_sys as sys;

use crate::error::{Error, Result};
use crate::model::{MergeOptions, Model};
use crate::{c_path, frames_from_raw, format_ctx, slice_from_raw, str_from_raw, Frame, Kind, PanicSlot};

/// Options of a [`Reader`]: a builder over `iprof_read_options`. The
/// default is lenient with the library's default sizes.
///
/// ```
/// let opts = iprof::ReadOptions::new().strict(true).chunk_size(64 * 1024);
/// let reader = iprof::Reader::with_options(&opts).unwrap();
/// ```
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    flags: u32,
    chunk_size: usize,
    max_element_size: usize,
    max_depth: usize,
    max_diagnostics: usize,
}

impl ReadOptions {
    /// The defaults: lenient, 256 KiB chunks, 1 GiB elements, no depth
    /// limit, 10000 diagnostics kept per read.
    pub fn new() -> ReadOptions {
        ReadOptions::default()
    }
    fn flag(mut self, flag: u32, on: bool) -> ReadOptions {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
        self
    }
    /// Fail on the first rule violation instead of recording it as a
    /// diagnostic (`IPROF_READ_STRICT`).
    pub fn strict(self, on: bool) -> ReadOptions {
        self.flag(sys::IPROF_READ_STRICT, on)
    }
    /// Do not check that referenced ids exist, nor that ids are unique
    /// (`IPROF_READ_NO_REFERENCES`): faster scans.
    pub fn no_references(self, on: bool) -> ReadOptions {
        self.flag(sys::IPROF_READ_NO_REFERENCES, on)
    }
    /// Model loads ([`Reader::load_bytes`], [`load_path`](Reader::load_path),
    /// ...) build the model on a second thread while the calling thread
    /// reads (`IPROF_READ_THREADED`): large files load faster. The model
    /// and its diagnostics are the same either way, and an [`io::Read`]
    /// source is still read on the calling thread only. Streaming reads
    /// ignore it.
    pub fn threaded(self, on: bool) -> ReadOptions {
        self.flag(sys::IPROF_READ_THREADED, on)
    }
    /// Model loads salvage a damaged input (`IPROF_READ_SALVAGE`): on a
    /// syntax error, truncation or refused element after the version, the
    /// load keeps every element complete before it and succeeds;
    /// [`Reader::damage`] says where. With [`strict`](Self::strict) the
    /// first rule violation counts as damage. What was kept may refer to
    /// what the damage cut off: [`Model::prune`](crate::Model::prune) with
    /// [`Prune::DANGLING`](crate::Prune::DANGLING) removes that. Streaming reads ignore it.
    ///
    /// ```
    /// let doc = br#"{"version":"1.0.0","types":[{"id":0,"name":"int"}],"methods":[{"id":1,"na"#;
    /// let mut reader = iprof::Reader::with_options(&iprof::ReadOptions::new().salvage(true))?;
    /// let model = reader.load_bytes(doc)?;
    /// assert_eq!((model.types().len(), model.methods().len()), (1, 0));
    /// assert_eq!(reader.damage().unwrap().offset(), doc.len() as u64);
    /// assert_eq!(reader.kept_end(), 50);
    /// # Ok::<(), iprof::Error>(())
    /// ```
    pub fn salvage(self, on: bool) -> ReadOptions {
        self.flag(sys::IPROF_READ_SALVAGE, on)
    }
    /// Bytes per read from a file or [`io::Read`]; 0: the default (256 KiB).
    pub fn chunk_size(mut self, bytes: usize) -> ReadOptions {
        self.chunk_size = bytes;
        self
    }
    /// The largest single element in bytes; 0: the default (1 GiB).
    pub fn max_element_size(mut self, bytes: usize) -> ReadOptions {
        self.max_element_size = bytes;
        self
    }
    /// JSON nesting limit in skipped values; 0: none.
    pub fn max_depth(mut self, depth: usize) -> ReadOptions {
        self.max_depth = depth;
        self
    }
    /// How many diagnostics a read keeps ([`Reader::diagnostics`]); the
    /// rest are only counted ([`Reader::diagnostics_dropped`]), so a file
    /// with a violation in every element cannot make a lenient read's
    /// memory grow with it. 0: the default (10000); `usize::MAX`: all.
    ///
    /// ```
    /// let doc = br#"{"version":"1.0.0","types":[],"methods":[],
    ///   "callCountProfiles":[{"ctx":"1:0","records":[1]},{"ctx":"2:0","records":[1]}]}"#;
    /// let mut reader = iprof::Reader::with_options(&iprof::ReadOptions::new().max_diagnostics(1))?;
    /// reader.validate_bytes(doc)?;
    /// assert_eq!(reader.diagnostics().len(), 1);
    /// assert_eq!(reader.diagnostics_dropped().errors, 1);
    /// # Ok::<(), iprof::Error>(())
    /// ```
    pub fn max_diagnostics(mut self, count: usize) -> ReadOptions {
        self.max_diagnostics = count;
        self
    }
    fn raw(&self) -> sys::iprof_read_options {
        sys::iprof_read_options {
            flags: self.flags,
            chunk_size: self.chunk_size,
            max_element_size: self.max_element_size,
            max_depth: self.max_depth,
            max_diagnostics: self.max_diagnostics,
            ..sys::iprof_read_options::INIT
        }
    }
}

/// What a callback returns: `()` to go on, or a [`ControlFlow`]
/// (`ControlFlow::Break(..)` stops the read, which then fails with
/// [`Status::Stopped`](crate::Status::Stopped)).
pub trait Flow {
    /// `true` to go on.
    fn keep_going(self) -> bool;
}

impl Flow for () {
    fn keep_going(self) -> bool {
        true
    }
}

impl<B> Flow for ControlFlow<B> {
    fn keep_going(self) -> bool {
        self.is_continue()
    }
}

/// One element of `methods`, as the reader passes it to
/// [`Callbacks::on_method`]. Borrowed for the duration of the callback.
#[derive(Clone, Copy, Debug)]
pub struct MethodEvent<'e> {
    /// The method id.
    pub id: i64,
    /// The name.
    pub name: &'e str,
    /// Declaring type id, return type id, then the parameter type ids.
    pub signature: &'e [i64],
}

/// One profile entry, as the reader passes it to the entry callbacks.
/// Borrowed for the duration of the callback.
#[derive(Clone, Copy, Debug)]
pub struct EntryEvent<'e> {
    /// The kind (which section it comes from).
    pub kind: Kind,
    /// The ctx parsed into frames, callee first.
    pub frames: &'e [Frame],
    /// The records, as int64.
    pub records: &'e [i64],
}

impl EntryEvent<'_> {
    /// The ctx text ("5:0<3:2").
    pub fn ctx(&self) -> String {
        format_ctx(self.frames)
    }
}

/// What a top-level key is, as [`Handler::key`] receives it (`enum
/// iprof_section`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// A profile section; both spellings of the instanceof key give
    /// [`Kind::Instanceof`].
    Kind(Kind),
    /// `"types"`.
    Types,
    /// `"methods"`.
    Methods,
    /// `"version"`.
    Version,
    /// A key the library does not know (see [`Handler::unknown`]).
    Unknown,
}

impl Section {
    /// The section of a C value (an `IPROF_KIND_*` or `IPROF_SECTION_*`).
    pub fn from_raw(raw: i32) -> Option<Section> {
        Some(match raw {
            sys::IPROF_SECTION_TYPES => Section::Types,
            sys::IPROF_SECTION_METHODS => Section::Methods,
            sys::IPROF_SECTION_VERSION => Section::Version,
            sys::IPROF_SECTION_UNKNOWN => Section::Unknown,
            kind => Section::Kind(Kind::from_raw(kind)?),
        })
    }

    /// The C value.
    pub fn raw(self) -> i32 {
        match self {
            Section::Kind(kind) => kind.raw(),
            Section::Types => sys::IPROF_SECTION_TYPES,
            Section::Methods => sys::IPROF_SECTION_METHODS,
            Section::Version => sys::IPROF_SECTION_VERSION,
            Section::Unknown => sys::IPROF_SECTION_UNKNOWN,
        }
    }
}

/// Receives the elements of a streaming read, in document order. Every
/// method has a default that ignores the element; return
/// `ControlFlow::Break(())` to stop the read (it then fails with
/// [`Status::Stopped`](crate::Status::Stopped)).
///
/// Implement it on a struct when the callbacks share state (one `&mut self`
/// for all of them); use [`Callbacks`] for independent closures. `&mut H`
/// is a handler too, so the struct can be inspected after the read.
///
/// ```
/// use std::collections::HashMap;
/// use std::ops::ControlFlow;
/// use iprof::{EntryEvent, Handler, Kind, MethodEvent};
///
/// /// Call counts per method name.
/// #[derive(Default)]
/// struct Calls { names: HashMap<i64, String>, counts: HashMap<String, i64> }
///
/// impl Handler for Calls {
///     fn method(&mut self, m: MethodEvent<'_>) -> ControlFlow<()> {
///         self.names.insert(m.id, m.name.to_string());
///         ControlFlow::Continue(())
///     }
///     fn entry(&mut self, e: EntryEvent<'_>) -> ControlFlow<()> {
///         if e.kind == Kind::CallCount {
///             let name = self.names.get(&e.frames[0].method_id).cloned().unwrap_or_default();
///             *self.counts.entry(name).or_default() += e.records[0];
///         }
///         ControlFlow::Continue(())
///     }
/// }
///
/// let doc = br#"{"version":"1.0.0","types":[{"id":0,"name":"A"}],
///   "methods":[{"id":1,"name":"run","signature":[0,0]}],
///   "callCountProfiles":[{"ctx":"1:0","records":[42]}]}"#;
/// let mut calls = Calls::default();
/// iprof::Reader::new()?.read_bytes(doc, &mut calls)?;
/// assert_eq!(calls.counts["run"], 42);
/// # Ok::<(), iprof::Error>(())
/// ```
pub trait Handler {
    /// The `"version"` string.
    fn version(&mut self, version: &str) -> ControlFlow<()> {
        let _ = version;
        ControlFlow::Continue(())
    }
    /// One element of `"types"`.
    fn type_(&mut self, id: i64, name: &str) -> ControlFlow<()> {
        let _ = (id, name);
        ControlFlow::Continue(())
    }
    /// One element of `"methods"`.
    fn method(&mut self, method: MethodEvent<'_>) -> ControlFlow<()> {
        let _ = method;
        ControlFlow::Continue(())
    }
    /// One profile entry of any kind.
    fn entry(&mut self, entry: EntryEvent<'_>) -> ControlFlow<()> {
        let _ = entry;
        ControlFlow::Continue(())
    }
    /// A top-level key the library does not know, with the raw JSON text
    /// of its value (exactly the input's bytes).
    fn unknown(&mut self, key: &str, json: &[u8]) -> ControlFlow<()> {
        let _ = (key, json);
        ControlFlow::Continue(())
    }
    /// Each top-level key, in input order, before its value is read: the
    /// key as written (so which instanceof spelling the file uses) and
    /// what it is.
    fn key(&mut self, key: &str, section: Section) -> ControlFlow<()> {
        let _ = (key, section);
        ControlFlow::Continue(())
    }
    /// Which elements to deliver; the others are not even passed to the
    /// handler (an optimisation, default: all).
    fn interest(&self) -> Interest {
        Interest::ALL
    }
}

impl<H: Handler + ?Sized> Handler for &mut H {
    fn version(&mut self, version: &str) -> ControlFlow<()> {
        (**self).version(version)
    }
    fn type_(&mut self, id: i64, name: &str) -> ControlFlow<()> {
        (**self).type_(id, name)
    }
    fn method(&mut self, method: MethodEvent<'_>) -> ControlFlow<()> {
        (**self).method(method)
    }
    fn entry(&mut self, entry: EntryEvent<'_>) -> ControlFlow<()> {
        (**self).entry(entry)
    }
    fn unknown(&mut self, key: &str, json: &[u8]) -> ControlFlow<()> {
        (**self).unknown(key, json)
    }
    fn key(&mut self, key: &str, section: Section) -> ControlFlow<()> {
        (**self).key(key, section)
    }
    fn interest(&self) -> Interest {
        (**self).interest()
    }
}

/// Which elements a [`Handler`] wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interest {
    /// The version string.
    pub version: bool,
    /// Types.
    pub types: bool,
    /// Methods.
    pub methods: bool,
    /// Entries, per kind (indexed by `Kind as usize`).
    pub kinds: [bool; 6],
    /// Unknown top-level keys.
    pub unknown: bool,
    /// Every top-level key ([`Handler::key`]).
    pub keys: bool,
}

impl Interest {
    /// Everything.
    pub const ALL: Interest =
        Interest { version: true, types: true, methods: true, kinds: [true; 6], unknown: true, keys: true };
    /// Nothing: the read only validates.
    pub const NONE: Interest =
        Interest { version: false, types: false, methods: false, kinds: [false; 6], unknown: false, keys: false };

    fn is_none(&self) -> bool {
        *self == Interest::NONE
    }
}

type VersionFn<'a> = Box<dyn FnMut(&str) -> bool + 'a>;
type TypeFn<'a> = Box<dyn FnMut(i64, &str) -> bool + 'a>;
type MethodFn<'a> = Box<dyn FnMut(MethodEvent<'_>) -> bool + 'a>;
type EntryFn<'a> = Box<dyn FnMut(EntryEvent<'_>) -> bool + 'a>;
type UnknownFn<'a> = Box<dyn FnMut(&str, &[u8]) -> bool + 'a>;
type KeyFn<'a> = Box<dyn FnMut(&str, Section) -> bool + 'a>;

/// A [`Handler`] made of closures, any of them absent. Each returns `()`
/// to go on or a [`ControlFlow`] to be able to stop (see [`Flow`]).
/// Closures may borrow local state (`'a`); they are called on the reading
/// thread, in document order, during the read call. Closures that need the
/// same mutable state need a `RefCell`, or a [`Handler`] struct instead.
///
/// ```
/// use std::collections::HashMap;
/// let doc = br#"{"version":"1.0.0","types":[{"id":0,"name":"int"}],"methods":[]}"#;
/// let mut names = HashMap::new();
/// let mut reader = iprof::Reader::new()?;
/// reader.read_bytes(doc, iprof::Callbacks::new().on_type(|id, name| {
///     names.insert(id, name.to_string());
/// }))?;
/// assert_eq!(names[&0], "int");
/// # Ok::<(), iprof::Error>(())
/// ```
#[derive(Default)]
pub struct Callbacks<'a> {
    version: Option<VersionFn<'a>>,
    type_: Option<TypeFn<'a>>,
    method: Option<MethodFn<'a>>,
    kinds: [Option<EntryFn<'a>>; 6],
    entry: Option<EntryFn<'a>>,
    unknown: Option<UnknownFn<'a>>,
    key: Option<KeyFn<'a>>,
}

impl<'a> Callbacks<'a> {
    /// No callbacks: a read just validates.
    pub fn new() -> Callbacks<'a> {
        Callbacks::default()
    }

    /// The `"version"` string.
    pub fn on_version<R: Flow>(mut self, mut f: impl FnMut(&str) -> R + 'a) -> Self {
        self.version = Some(Box::new(move |v| f(v).keep_going()));
        self
    }

    /// Each element of `"types"`: id and name.
    pub fn on_type<R: Flow>(mut self, mut f: impl FnMut(i64, &str) -> R + 'a) -> Self {
        self.type_ = Some(Box::new(move |id, name| f(id, name).keep_going()));
        self
    }

    /// Each element of `"methods"`.
    pub fn on_method<R: Flow>(mut self, mut f: impl FnMut(MethodEvent<'_>) -> R + 'a) -> Self {
        self.method = Some(Box::new(move |m| f(m).keep_going()));
        self
    }

    /// Every profile entry of every kind (unless a closure for its kind is
    /// set with [`on_kind`](Self::on_kind)).
    pub fn on_entry<R: Flow>(mut self, mut f: impl FnMut(EntryEvent<'_>) -> R + 'a) -> Self {
        self.entry = Some(Box::new(move |e| f(e).keep_going()));
        self
    }

    /// The profile entries of one kind; takes precedence over
    /// [`on_entry`](Self::on_entry) for that kind.
    pub fn on_kind<R: Flow>(mut self, kind: Kind, mut f: impl FnMut(EntryEvent<'_>) -> R + 'a) -> Self {
        self.kinds[kind as usize] = Some(Box::new(move |e| f(e).keep_going()));
        self
    }

    /// A top-level key the library does not know, with the raw JSON text of
    /// its value (exactly the input's bytes).
    pub fn on_unknown<R: Flow>(mut self, mut f: impl FnMut(&str, &[u8]) -> R + 'a) -> Self {
        self.unknown = Some(Box::new(move |key, json| f(key, json).keep_going()));
        self
    }

    /// Each top-level key, in input order, before its value: the key as
    /// written and what it is ([`Section`]).
    pub fn on_key<R: Flow>(mut self, mut f: impl FnMut(&str, Section) -> R + 'a) -> Self {
        self.key = Some(Box::new(move |key, section| f(key, section).keep_going()));
        self
    }
}

fn cf(go_on: bool) -> ControlFlow<()> {
    if go_on {
        ControlFlow::Continue(())
    } else {
        ControlFlow::Break(())
    }
}

impl Handler for Callbacks<'_> {
    fn version(&mut self, version: &str) -> ControlFlow<()> {
        cf(self.version.as_mut().map_or(true, |f| f(version)))
    }
    fn type_(&mut self, id: i64, name: &str) -> ControlFlow<()> {
        cf(self.type_.as_mut().map_or(true, |f| f(id, name)))
    }
    fn method(&mut self, method: MethodEvent<'_>) -> ControlFlow<()> {
        cf(self.method.as_mut().map_or(true, |f| f(method)))
    }
    fn entry(&mut self, entry: EntryEvent<'_>) -> ControlFlow<()> {
        let f = match self.kinds[entry.kind as usize].as_mut() {
            Some(f) => Some(f),
            None => self.entry.as_mut(),
        };
        cf(f.map_or(true, |f| f(entry)))
    }
    fn unknown(&mut self, key: &str, json: &[u8]) -> ControlFlow<()> {
        cf(self.unknown.as_mut().map_or(true, |f| f(key, json)))
    }
    fn key(&mut self, key: &str, section: Section) -> ControlFlow<()> {
        cf(self.key.as_mut().map_or(true, |f| f(key, section)))
    }
    fn interest(&self) -> Interest {
        let mut kinds = [false; 6];
        for (k, f) in kinds.iter_mut().zip(&self.kinds) {
            *k = f.is_some() || self.entry.is_some();
        }
        Interest {
            version: self.version.is_some(),
            types: self.type_.is_some(),
            methods: self.method.is_some(),
            kinds,
            unknown: self.unknown.is_some(),
            keys: self.key.is_some(),
        }
    }
}

/// The C table of a handler: a trampoline for every element it wants.
fn table<H: Handler>(interest: Interest) -> sys::iprof_read_callbacks {
    let entry = |kind: Kind| -> sys::iprof_entry_cb {
        if interest.kinds[kind as usize] {
            Some(tramp_entry::<H>)
        } else {
            None
        }
    };
    sys::iprof_read_callbacks {
        on_version: if interest.version { Some(tramp_version::<H>) } else { None },
        on_type: if interest.types { Some(tramp_type::<H>) } else { None },
        on_method: if interest.methods { Some(tramp_method::<H>) } else { None },
        on_call_count: entry(Kind::CallCount),
        on_conditional: entry(Kind::Conditional),
        on_virtual_invoke: entry(Kind::VirtualInvoke),
        on_monitor: entry(Kind::Monitor),
        on_sampling: entry(Kind::Sampling),
        on_instanceof: entry(Kind::Instanceof),
        on_unknown: if interest.unknown { Some(tramp_unknown::<H>) } else { None },
        on_key: if interest.keys { Some(tramp_key::<H>) } else { None },
        ..sys::iprof_read_callbacks::INIT
    }
}

/// The payload of the trampolines.
struct ReadState<H> {
    handler: H,
    panic: PanicSlot,
}

fn flow(result: Option<ControlFlow<()>>) -> c_int {
    match result {
        Some(ControlFlow::Continue(())) => 0,
        _ => 1,
    }
}

/// Call `f` with the string at `p`, borrowed, or with a lossy copy should
/// it not be UTF-8 (the library validates its input, so it always is).
unsafe fn with_str<R>(p: *const c_char, len: usize, f: impl FnOnce(&str) -> R) -> R {
    match str_from_raw(p, len) {
        Ok(s) => f(s),
        Err(copy) => f(&copy),
    }
}

unsafe extern "C" fn tramp_version<H: Handler>(version: *const c_char, len: usize, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<ReadState<H>>();
    let h = &mut st.handler;
    flow(st.panic.call(|| with_str(version, len, |v| h.version(v))))
}

unsafe extern "C" fn tramp_type<H: Handler>(id: i64, name: *const c_char, len: usize, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<ReadState<H>>();
    let h = &mut st.handler;
    flow(st.panic.call(|| with_str(name, len, |name| h.type_(id, name))))
}

unsafe extern "C" fn tramp_method<H: Handler>(
    id: i64,
    name: *const c_char,
    name_len: usize,
    signature: *const i64,
    signature_len: usize,
    payload: *mut c_void,
) -> c_int {
    let st = &mut *payload.cast::<ReadState<H>>();
    let h = &mut st.handler;
    let signature = slice_from_raw(signature, signature_len);
    flow(st.panic.call(|| with_str(name, name_len, |name| h.method(MethodEvent { id, name, signature }))))
}

unsafe extern "C" fn tramp_entry<H: Handler>(
    kind: c_int,
    frames: *const i64,
    frame_count: usize,
    records: *const i64,
    record_count: usize,
    payload: *mut c_void,
) -> c_int {
    let st = &mut *payload.cast::<ReadState<H>>();
    let Some(kind) = Kind::from_raw(kind) else { return 0 };
    let h = &mut st.handler;
    let event = EntryEvent {
        kind,
        frames: frames_from_raw(frames, frame_count),
        records: slice_from_raw(records, record_count),
    };
    flow(st.panic.call(|| h.entry(event)))
}

unsafe extern "C" fn tramp_unknown<H: Handler>(
    key: *const c_char,
    key_len: usize,
    json: *const c_char,
    json_len: usize,
    payload: *mut c_void,
) -> c_int {
    let st = &mut *payload.cast::<ReadState<H>>();
    let h = &mut st.handler;
    let json = slice_from_raw(json.cast::<u8>(), json_len);
    flow(st.panic.call(|| with_str(key, key_len, |key| h.unknown(key, json))))
}

unsafe extern "C" fn tramp_key<H: Handler>(key: *const c_char, key_len: usize, section: c_int, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<ReadState<H>>();
    let Some(section) = Section::from_raw(section) else { return 0 };
    let h = &mut st.handler;
    flow(st.panic.call(|| with_str(key, key_len, |key| h.key(key, section))))
}

/// The payload of the read function of an [`io::Read`] source.
pub(crate) struct InputState<'r> {
    input: &'r mut dyn io::Read,
    error: Option<io::Error>,
    panic: PanicSlot,
}

impl<'r> InputState<'r> {
    pub(crate) fn new(input: &'r mut dyn io::Read) -> InputState<'r> {
        InputState { input, error: None, panic: PanicSlot::default() }
    }
}

pub(crate) unsafe extern "C" fn tramp_read(
    buf: *mut c_void,
    capacity: usize,
    len: *mut usize,
    payload: *mut c_void,
) -> c_int {
    let st = &mut *payload.cast::<InputState<'_>>();
    let buf = std::slice::from_raw_parts_mut(buf.cast::<u8>(), capacity);
    let input = &mut st.input;
    let result = st.panic.call(|| loop {
        match input.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => break other,
        }
    });
    match result {
        Some(Ok(n)) => {
            *len = n.min(capacity);
            0
        }
        Some(Err(e)) => {
            st.error = Some(e);
            1
        }
        None => 1,
    }
}

/// `IPROF_SOURCE_*_INIT`: an `iprof_source` of `kind` with every field of
/// the other kinds unset.
fn source(kind: c_int) -> sys::iprof_source {
    sys::iprof_source {
        version: sys::IPROF_SOURCE_VERSION,
        kind,
        data: ptr::null(),
        len: 0,
        path: ptr::null(),
        fd: -1,
        read_fn: None,
        read_payload: ptr::null_mut(),
    }
}

/// A document in memory, borrowed for the call that takes the source.
fn source_bytes(data: &[u8]) -> sys::iprof_source {
    sys::iprof_source { data: data.as_ptr().cast(), len: data.len(), ..source(sys::IPROF_SOURCE_BUFFER) }
}

/// A file, its NUL-terminated path borrowed for the call.
fn source_path(path: &std::ffi::CStr) -> sys::iprof_source {
    sys::iprof_source { path: path.as_ptr(), ..source(sys::IPROF_SOURCE_PATH) }
}

/// An open descriptor, read to its end and not closed.
#[cfg(unix)]
fn source_fd(fd: std::os::fd::BorrowedFd<'_>) -> sys::iprof_source {
    use std::os::fd::AsRawFd;
    sys::iprof_source { fd: fd.as_raw_fd(), ..source(sys::IPROF_SOURCE_FD) }
}

/// An [`io::Read`], through [`tramp_read`] and its [`InputState`].
fn source_input(input: *mut InputState<'_>) -> sys::iprof_source {
    sys::iprof_source { read_fn: Some(tramp_read), read_payload: input.cast(), ..source(sys::IPROF_SOURCE_CALLBACK) }
}

/// The streaming reader: validates documents, streams their elements to
/// closures and loads models. One reader serves any number of reads, one
/// at a time; each read replaces the error and diagnostics of the last.
///
/// `Send` but not `Sync` (see the [crate documentation](crate#threads)).
pub struct Reader {
    raw: NonNull<sys::iprof_reader>,
    /// Makes the reader !Sync (a `Cell` is Send but not Sync).
    _not_sync: PhantomData<std::cell::Cell<()>>,
}

// SAFETY: a reader has no thread affinity (no thread-local or global
// state, libc allocator); the C API allows "different readers in different
// threads at once", so moving one to another thread is fine. It is not
// Sync: &Reader would give concurrent access to one handle, which the C API
// does not promise to be safe.
unsafe impl Send for Reader {}

impl Reader {
    /// A lenient reader with the default options.
    pub fn new() -> Result<Reader> {
        Reader::with_options(&ReadOptions::default())
    }

    /// A reader with these options.
    pub fn with_options(options: &ReadOptions) -> Result<Reader> {
        let opts = options.raw();
        let mut raw = ptr::null_mut();
        // SAFETY: valid out pointer and options.
        let rc = unsafe { sys::iprof_reader_new(&mut raw, &opts) };
        crate::error::check(rc)?;
        let raw = NonNull::new(raw).ok_or_else(|| Error::from_code(sys::IPROF_ENOMEM))?;
        Ok(Reader { raw, _not_sync: PhantomData })
    }

    /// The C handle, for calling `iprof_sys` directly. It stays owned by
    /// this `Reader`.
    pub fn as_ptr(&self) -> *mut sys::iprof_reader {
        self.raw.as_ptr()
    }

    fn result(&self, rc: c_int) -> Result<()> {
        if rc == sys::IPROF_OK {
            Ok(())
        } else {
            // SAFETY: the reader is alive; the report is copied at once.
            Err(unsafe { Error::from_raw_or_code(sys::iprof_reader_error(self.raw.as_ptr()), rc) })
        }
    }

    /// Run one read of `source` with `handler`.
    fn stream<H: Handler>(&mut self, handler: H, source: &sys::iprof_source) -> Result<()> {
        let interest = handler.interest();
        let table = table::<H>(interest);
        let table_ptr: *const sys::iprof_read_callbacks = if interest.is_none() { ptr::null() } else { &table };
        let mut state = ReadState { handler, panic: PanicSlot::default() };
        // SAFETY: the source (and what it points to), the table and the
        // state outlive the call.
        let rc = unsafe {
            sys::iprof_reader_read(self.raw.as_ptr(), source, table_ptr, (&mut state as *mut ReadState<H>).cast())
        };
        state.panic.resume();
        self.result(rc)
    }

    /// Read a document held in memory, passing each element to `handler`
    /// (a [`Callbacks`] or a [`Handler`] of yours).
    pub fn read_bytes(&mut self, data: &[u8], handler: impl Handler) -> Result<()> {
        self.stream(handler, &source_bytes(data))
    }

    /// Read a file, chunk by chunk, passing each element to `handler`.
    pub fn read_path(&mut self, path: impl AsRef<Path>, handler: impl Handler) -> Result<()> {
        let file = path.as_ref();
        let path = c_path(file).map_err(|e| e.in_file(file))?;
        self.stream(handler, &source_path(&path)).map_err(|e| e.in_file(file))
    }

    /// Read from an open file descriptor up to its end (not closed).
    #[cfg(unix)]
    pub fn read_fd(&mut self, fd: std::os::fd::BorrowedFd<'_>, handler: impl Handler) -> Result<()> {
        self.stream(handler, &source_fd(fd))
    }

    /// Read from any [`io::Read`] (chunks of the reader's `chunk_size`). An
    /// I/O error fails the read with [`Status::Io`](crate::Status::Io) and
    /// its text in the message.
    pub fn read_from(&mut self, mut input: impl io::Read, handler: impl Handler) -> Result<()> {
        let mut state = InputState::new(&mut input);
        let result = self.stream(handler, &source_input(&mut state));
        finish_input(&mut state, result)
    }

    /// Validate a document in memory (a read without callbacks). Lenient
    /// readers record rule violations in [`diagnostics`](Self::diagnostics).
    pub fn validate_bytes(&mut self, data: &[u8]) -> Result<()> {
        self.read_bytes(data, Callbacks::new())
    }

    /// Validate a file (a read without callbacks).
    pub fn validate_path(&mut self, path: impl AsRef<Path>) -> Result<()> {
        self.read_path(path, Callbacks::new())
    }

    /// Load a model from `source`.
    fn load(&mut self, source: &sys::iprof_source) -> Result<Model> {
        let mut raw = ptr::null_mut();
        // SAFETY: valid out pointer; the source (and what it points to)
        // outlives the call.
        let rc = unsafe { sys::iprof_model_load(&mut raw, self.raw.as_ptr(), source) };
        self.result(rc)?;
        // SAFETY: a successful load hands over a new model.
        unsafe { Model::from_raw(raw) }
    }

    /// Load a model from memory with this reader's options; the reader
    /// keeps the error and diagnostics of the load.
    pub fn load_bytes(&mut self, data: &[u8]) -> Result<Model> {
        self.load(&source_bytes(data))
    }

    /// Load a model from a file.
    pub fn load_path(&mut self, path: impl AsRef<Path>) -> Result<Model> {
        let file = path.as_ref();
        let path = c_path(file).map_err(|e| e.in_file(file))?;
        self.load(&source_path(&path)).map_err(|e| e.in_file(file))
    }

    /// Load a model from an open file descriptor (not closed).
    #[cfg(unix)]
    pub fn load_fd(&mut self, fd: std::os::fd::BorrowedFd<'_>) -> Result<Model> {
        self.load(&source_fd(fd))
    }

    /// Load a model from any [`io::Read`].
    pub fn load_from(&mut self, mut input: impl io::Read) -> Result<Model> {
        let mut state = InputState::new(&mut input);
        let result = self.load(&source_input(&mut state));
        finish_input(&mut state, result)
    }

    /// Merge `source` into `dst` as it is read.
    fn merge(&mut self, dst: &mut Model, source: &sys::iprof_source, options: &MergeOptions) -> Result<()> {
        let opts = options.raw();
        // SAFETY: the source and opts outlive the call; dst is exclusively
        // ours.
        let rc = unsafe { sys::iprof_model_merge_source(dst.mut_ptr(), self.raw.as_ptr(), source, &opts) };
        dst.result(rc)
    }

    /// Merge a profile in memory into `dst` as it is read, without loading
    /// it as a model: what [`Model::merge_with`] does with a loaded model,
    /// with this reader's options (threaded when
    /// [`ReadOptions::threaded`] is set: reading and merging then run on
    /// two threads). All or nothing: on any failure `dst` is as it was.
    /// The error is `dst`'s report: for a failed read, the reader's (with
    /// its position); when merging failed, why (the reader then reports
    /// [`Status::Stopped`](crate::Status::Stopped)).
    pub fn merge_bytes(&mut self, dst: &mut Model, data: &[u8], options: &MergeOptions) -> Result<()> {
        self.merge(dst, &source_bytes(data), options)
    }

    /// [`merge_bytes`](Self::merge_bytes) from a file.
    pub fn merge_path(&mut self, dst: &mut Model, path: impl AsRef<Path>, options: &MergeOptions) -> Result<()> {
        let file = path.as_ref();
        let path = c_path(file).map_err(|e| e.in_file(file))?;
        self.merge(dst, &source_path(&path), options).map_err(|e| e.in_file(file))
    }

    /// [`merge_bytes`](Self::merge_bytes) from an open file descriptor
    /// (not closed).
    #[cfg(unix)]
    pub fn merge_fd(&mut self, dst: &mut Model, fd: std::os::fd::BorrowedFd<'_>, options: &MergeOptions) -> Result<()> {
        self.merge(dst, &source_fd(fd), options)
    }

    /// [`merge_bytes`](Self::merge_bytes) from any [`io::Read`].
    pub fn merge_from(&mut self, dst: &mut Model, mut input: impl io::Read, options: &MergeOptions) -> Result<()> {
        let mut state = InputState::new(&mut input);
        let result = self.merge(dst, &source_input(&mut state), options);
        finish_input(&mut state, result)
    }

    /// What the last read left besides its error (`iprof_reader_get_result`).
    fn read_result(&self) -> sys::iprof_read_result {
        let mut out = sys::iprof_read_result::INIT;
        // SAFETY: the reader is alive; out is a valid, versioned struct
        // (the call fails only for a bad version or NULL, neither possible).
        unsafe { sys::iprof_reader_get_result(self.raw.as_ptr(), &mut out) };
        out
    }

    /// The error of the last read or load, `None` if it succeeded (the same
    /// as the `Err` it returned).
    pub fn error(&self) -> Option<Error> {
        // SAFETY: the reader is alive; the report is copied.
        unsafe {
            let err = sys::iprof_reader_error(self.raw.as_ptr());
            (!err.is_null()).then(|| Error::from_raw(err))
        }
    }

    /// The damage a salvaging load ([`ReadOptions::salvage`]) stopped at:
    /// the error, with its offset, line, column and path, after which the
    /// input was not kept; `None` when the last load read the whole input
    /// (or did not salvage).
    pub fn damage(&self) -> Option<Error> {
        let err = self.read_result().damage;
        // SAFETY: the report is the reader's, alive until its next read;
        // it is copied at once.
        (!err.is_null()).then(|| unsafe { Error::from_raw(err) })
    }

    /// The input offset just past the last complete element of the last
    /// read or load (an element, a section's closing bracket, the version,
    /// an unknown key's value or the document's end; 0 before any); for
    /// gzip input, of the decompressed document.
    pub fn kept_end(&self) -> u64 {
        self.read_result().kept_end
    }

    /// The diagnostics of the last read or load, in input order: warnings
    /// and, in lenient mode, the rule violations; the first
    /// [`max_diagnostics`](ReadOptions::max_diagnostics) of them (10000 by
    /// default). A file is valid when the read succeeds, none has
    /// [`Severity::Error`](crate::Severity::Error) and no error was dropped
    /// ([`diagnostics_dropped`](Self::diagnostics_dropped)).
    pub fn diagnostics(&self) -> Vec<Error> {
        // SAFETY: the reader is alive; indexes are in range; reports copied.
        let r = self.raw.as_ptr();
        unsafe {
            (0..self.read_result().diag_count)
                .map(|i| sys::iprof_reader_diag(r, i))
                .filter(|d| !d.is_null())
                .map(|d| Error::from_raw(d))
                .collect()
        }
    }

    /// How many diagnostics the last read or load found beyond
    /// [`max_diagnostics`](ReadOptions::max_diagnostics) and did not keep
    /// in [`diagnostics`](Self::diagnostics), by severity (zero before any
    /// read).
    pub fn diagnostics_dropped(&self) -> DroppedDiagnostics {
        let result = self.read_result();
        DroppedDiagnostics { errors: result.dropped_errors, warnings: result.dropped_warnings }
    }
}

/// The diagnostics of a read that were counted but not kept
/// ([`Reader::diagnostics_dropped`], `iprof_reader_get_result`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DroppedDiagnostics {
    /// Rule violations ([`Severity::Error`](crate::Severity::Error)).
    pub errors: usize,
    /// Warnings ([`Severity::Warning`](crate::Severity::Warning)).
    pub warnings: usize,
}

impl DroppedDiagnostics {
    /// `errors + warnings`.
    pub fn total(&self) -> usize {
        self.errors.saturating_add(self.warnings)
    }
}

/// Resume a panic of an `io::Read` source, or add its I/O error to the
/// result.
fn finish_input<T>(source: &mut InputState<'_>, result: Result<T>) -> Result<T> {
    source.panic.resume();
    match (result, source.error.take()) {
        (Err(e), Some(io)) => Err(e.with_cause(&io)),
        (result, _) => result,
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        // SAFETY: we own the handle; nothing borrows it any more.
        unsafe { sys::iprof_reader_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader").field("raw", &self.raw).finish()
    }
}
