//! The streaming reader.

use std::ffi::{c_char, c_int, c_void};
use std::io;
use std::marker::PhantomData;
use std::ops::ControlFlow;
use std::path::Path;
use std::ptr::{self, NonNull};

use iprof_sys as sys;

use crate::error::{Error, Result};
use crate::model::Model;
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
}

impl ReadOptions {
    /// The defaults: lenient, 256 KiB chunks, 1 GiB elements, no depth limit.
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
    fn raw(&self) -> sys::iprof_read_options {
        sys::iprof_read_options {
            flags: self.flags,
            chunk_size: self.chunk_size,
            max_element_size: self.max_element_size,
            max_depth: self.max_depth,
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

type VersionFn<'a> = Box<dyn FnMut(&str) -> bool + 'a>;
type TypeFn<'a> = Box<dyn FnMut(i64, &str) -> bool + 'a>;
type MethodFn<'a> = Box<dyn FnMut(MethodEvent<'_>) -> bool + 'a>;
type EntryFn<'a> = Box<dyn FnMut(EntryEvent<'_>) -> bool + 'a>;
type UnknownFn<'a> = Box<dyn FnMut(&str, &[u8]) -> bool + 'a>;

/// The closures of one streaming read, any of them absent. Each returns
/// `()` to go on or a [`ControlFlow`] to be able to stop (see [`Flow`]).
/// Closures may borrow local state mutably (`'a`); they are called on the
/// reading thread, in document order, during the read call.
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

    fn is_empty(&self) -> bool {
        self.version.is_none()
            && self.type_.is_none()
            && self.method.is_none()
            && self.entry.is_none()
            && self.unknown.is_none()
            && self.kinds.iter().all(Option::is_none)
    }

    /// The C table: a trampoline for every closure that is set.
    fn table(&self) -> sys::iprof_read_callbacks {
        let entry = |kind: Kind| -> sys::iprof_entry_cb {
            if self.kinds[kind as usize].is_some() || self.entry.is_some() {
                Some(tramp_entry)
            } else {
                None
            }
        };
        sys::iprof_read_callbacks {
            on_version: self.version.as_ref().map(|_| tramp_version as _),
            on_type: self.type_.as_ref().map(|_| tramp_type as _),
            on_method: self.method.as_ref().map(|_| tramp_method as _),
            on_call_count: entry(Kind::CallCount),
            on_conditional: entry(Kind::Conditional),
            on_virtual_invoke: entry(Kind::VirtualInvoke),
            on_monitor: entry(Kind::Monitor),
            on_sampling: entry(Kind::Sampling),
            on_instanceof: entry(Kind::Instanceof),
            on_unknown: self.unknown.as_ref().map(|_| tramp_unknown as _),
            ..sys::iprof_read_callbacks::INIT
        }
    }
}

/// The payload of the trampolines.
struct ReadState<'a> {
    cb: Callbacks<'a>,
    panic: PanicSlot,
}

fn flow(result: Option<bool>) -> c_int {
    match result {
        Some(true) => 0,
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

unsafe extern "C" fn tramp_version(version: *const c_char, len: usize, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<ReadState<'_>>();
    let Some(f) = st.cb.version.as_mut() else { return 0 };
    flow(st.panic.call(|| with_str(version, len, f)))
}

unsafe extern "C" fn tramp_type(id: i64, name: *const c_char, len: usize, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<ReadState<'_>>();
    let Some(f) = st.cb.type_.as_mut() else { return 0 };
    flow(st.panic.call(|| with_str(name, len, |name| f(id, name))))
}

unsafe extern "C" fn tramp_method(
    id: i64,
    name: *const c_char,
    name_len: usize,
    signature: *const i64,
    signature_len: usize,
    payload: *mut c_void,
) -> c_int {
    let st = &mut *payload.cast::<ReadState<'_>>();
    let Some(f) = st.cb.method.as_mut() else { return 0 };
    let signature = slice_from_raw(signature, signature_len);
    flow(st.panic.call(|| with_str(name, name_len, |name| f(MethodEvent { id, name, signature }))))
}

unsafe extern "C" fn tramp_entry(
    kind: c_int,
    frames: *const i64,
    frame_count: usize,
    records: *const i64,
    record_count: usize,
    payload: *mut c_void,
) -> c_int {
    let st = &mut *payload.cast::<ReadState<'_>>();
    let Some(kind) = Kind::from_raw(kind) else { return 0 };
    let f = match st.cb.kinds[kind as usize].as_mut() {
        Some(f) => f,
        None => match st.cb.entry.as_mut() {
            Some(f) => f,
            None => return 0,
        },
    };
    let event = EntryEvent {
        kind,
        frames: frames_from_raw(frames, frame_count),
        records: slice_from_raw(records, record_count),
    };
    flow(st.panic.call(|| f(event)))
}

unsafe extern "C" fn tramp_unknown(
    key: *const c_char,
    key_len: usize,
    json: *const c_char,
    json_len: usize,
    payload: *mut c_void,
) -> c_int {
    let st = &mut *payload.cast::<ReadState<'_>>();
    let Some(f) = st.cb.unknown.as_mut() else { return 0 };
    let json = slice_from_raw(json.cast::<u8>(), json_len);
    flow(st.panic.call(|| with_str(key, key_len, |key| f(key, json))))
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

    /// Run one read with `callbacks`; `call` does the C call.
    fn stream(
        &mut self,
        callbacks: Callbacks<'_>,
        call: impl FnOnce(*mut sys::iprof_reader, *const sys::iprof_read_callbacks, *mut c_void) -> c_int,
    ) -> Result<()> {
        let table = callbacks.table();
        let table_ptr: *const sys::iprof_read_callbacks = if callbacks.is_empty() { ptr::null() } else { &table };
        let mut state = ReadState { cb: callbacks, panic: PanicSlot::default() };
        let rc = call(self.raw.as_ptr(), table_ptr, (&mut state as *mut ReadState<'_>).cast());
        state.panic.resume();
        self.result(rc)
    }

    /// Read a document held in memory, calling `callbacks` per element.
    pub fn read_bytes(&mut self, data: &[u8], callbacks: Callbacks<'_>) -> Result<()> {
        self.stream(callbacks, |r, cb, payload| {
            // SAFETY: data, table and payload outlive the call.
            unsafe { sys::iprof_reader_read_buffer(r, data.as_ptr().cast(), data.len(), cb, payload) }
        })
    }

    /// Read a file, chunk by chunk, calling `callbacks` per element.
    pub fn read_path(&mut self, path: impl AsRef<Path>, callbacks: Callbacks<'_>) -> Result<()> {
        let path = c_path(path.as_ref())?;
        self.stream(callbacks, |r, cb, payload| {
            // SAFETY: path, table and payload outlive the call.
            unsafe { sys::iprof_reader_read_path(r, path.as_ptr(), cb, payload) }
        })
    }

    /// Read from an open file descriptor up to its end (not closed).
    #[cfg(unix)]
    pub fn read_fd(&mut self, fd: std::os::fd::BorrowedFd<'_>, callbacks: Callbacks<'_>) -> Result<()> {
        use std::os::fd::AsRawFd;
        self.stream(callbacks, |r, cb, payload| {
            // SAFETY: the fd is open for the call (borrowed).
            unsafe { sys::iprof_reader_read_fd(r, fd.as_raw_fd(), cb, payload) }
        })
    }

    /// Read from any [`io::Read`] (chunks of the reader's `chunk_size`). An
    /// I/O error fails the read with [`Status::Io`](crate::Status::Io) and
    /// its text in the message.
    pub fn read_from(&mut self, mut input: impl io::Read, callbacks: Callbacks<'_>) -> Result<()> {
        let mut source = InputState::new(&mut input);
        let src_ptr: *mut InputState<'_> = &mut source;
        let result = self.stream(callbacks, |r, cb, payload| {
            // SAFETY: source, table and payload outlive the call.
            unsafe { sys::iprof_reader_read_callback(r, Some(tramp_read), src_ptr.cast(), cb, payload) }
        });
        finish_input(&mut source, result)
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

    fn load(&mut self, call: impl FnOnce(*mut *mut sys::iprof_model, *mut sys::iprof_reader) -> c_int) -> Result<Model> {
        let mut raw = ptr::null_mut();
        let rc = call(&mut raw, self.raw.as_ptr());
        self.result(rc)?;
        // SAFETY: a successful load hands over a new model.
        unsafe { Model::from_raw(raw) }
    }

    /// Load a model from memory with this reader's options; the reader
    /// keeps the error and diagnostics of the load.
    pub fn load_bytes(&mut self, data: &[u8]) -> Result<Model> {
        // SAFETY: data outlives the call.
        self.load(|out, r| unsafe { sys::iprof_model_load_buffer(out, r, data.as_ptr().cast(), data.len()) })
    }

    /// Load a model from a file.
    pub fn load_path(&mut self, path: impl AsRef<Path>) -> Result<Model> {
        let path = c_path(path.as_ref())?;
        // SAFETY: path outlives the call.
        self.load(|out, r| unsafe { sys::iprof_model_load_path(out, r, path.as_ptr()) })
    }

    /// Load a model from an open file descriptor (not closed).
    #[cfg(unix)]
    pub fn load_fd(&mut self, fd: std::os::fd::BorrowedFd<'_>) -> Result<Model> {
        use std::os::fd::AsRawFd;
        // SAFETY: the fd is open for the call.
        self.load(|out, r| unsafe { sys::iprof_model_load_fd(out, r, fd.as_raw_fd()) })
    }

    /// Load a model from any [`io::Read`].
    pub fn load_from(&mut self, mut input: impl io::Read) -> Result<Model> {
        let mut source = InputState::new(&mut input);
        let src_ptr: *mut InputState<'_> = &mut source;
        let result = self.load(|out, r| {
            // SAFETY: source outlives the call.
            unsafe { sys::iprof_model_load_callback(out, r, Some(tramp_read), src_ptr.cast()) }
        });
        finish_input(&mut source, result)
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

    /// The diagnostics of the last read or load, in input order: warnings
    /// and, in lenient mode, the rule violations. A file is valid when the
    /// read succeeds and none has [`Severity::Error`](crate::Severity::Error).
    pub fn diagnostics(&self) -> Vec<Error> {
        // SAFETY: the reader is alive; indexes are in range; reports copied.
        unsafe {
            let r = self.raw.as_ptr();
            (0..sys::iprof_reader_diag_count(r))
                .map(|i| sys::iprof_reader_diag(r, i))
                .filter(|d| !d.is_null())
                .map(|d| Error::from_raw(d))
                .collect()
        }
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
