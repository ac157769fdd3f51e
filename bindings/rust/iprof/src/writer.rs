//! The writer.

use std::ffi::{c_int, c_void, CString};
use std::io;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::ptr::{self, NonNull};

use iprof_sys as sys;

use crate::error::{Error, Result, Status};
use crate::model::Model;
use crate::{c_path, c_string, slice_from_raw, Frame, InstanceofKey, Kind, PanicSlot};

/// Options of a [`Writer`]: a builder over `iprof_write_options`. The
/// default writes GraalVM's own layout (minified, GraalVM's key order,
/// empty sections present) and validates entries against their kind's
/// rules.
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    flags: u32,
    format_version: Option<String>,
    buffer_size: usize,
    instanceof_key: InstanceofKey,
}

/// A writer's error as Rust spells it: a model whose input had keys the
/// library does not read is refused unless [`WriteOptions::drop_unknown`],
/// and the message names that option, not the C flag.
fn spelled(mut err: Error) -> Error {
    err.message = err.message.replace("IPROF_WRITE_DROP_UNKNOWN", "WriteOptions::drop_unknown(true)");
    err
}

impl WriteOptions {
    /// The defaults.
    pub fn new() -> WriteOptions {
        WriteOptions::default()
    }
    fn flag(mut self, flag: u32, on: bool) -> WriteOptions {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
        self
    }
    /// Indent the output, one element per line (`IPROF_WRITE_PRETTY`).
    pub fn pretty(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_PRETTY, on)
    }
    /// Drop instanceof entries when the target version predates 1.1.0
    /// instead of failing (`IPROF_WRITE_DROP_INSTANCEOF`).
    pub fn drop_instanceof(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_DROP_INSTANCEOF, on)
    }
    /// Write a model whose input held keys of types, methods or entries
    /// that the library does not read ([`Model::unread_count`](crate::Model::unread_count))
    /// without them, instead of failing with [`Status::Schema`](crate::Status::Schema)
    /// (`IPROF_WRITE_DROP_UNKNOWN`).
    pub fn drop_unknown(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_DROP_UNKNOWN, on)
    }
    /// Check the entry rules only, not the references, unique ids and
    /// signature lengths (`IPROF_WRITE_NO_REFERENCES`): for streaming a
    /// document whose entries refer to types and methods written elsewhere.
    pub fn no_references(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_NO_REFERENCES, on)
    }
    /// [`Writer::write_model`] writes the model's canonical form
    /// (`IPROF_WRITE_CANONICAL`): the bytes [`Model::canonicalize`](crate::Model::canonicalize)
    /// and a write would give, without changing the model or copying it; a
    /// model without one fails as canonicalizing it would.
    pub fn canonical(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_CANONICAL, on)
    }
    /// With [`canonical`](WriteOptions::canonical): sort and format on a second thread
    /// beside the calling one (`IPROF_WRITE_THREADED`), for the same bytes in
    /// less wall time. Only the calling thread calls the sink.
    pub fn threaded(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_THREADED, on)
    }
    /// Skip every check (`IPROF_WRITE_NO_VALIDATE`), for copying leniently
    /// loaded files as they are.
    pub fn no_validate(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_NO_VALIDATE, on)
    }
    /// Path sinks: skip fsync (`IPROF_WRITE_NO_SYNC`).
    pub fn no_sync(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_NO_SYNC, on)
    }
    /// Compress the output with gzip, for any sink (`IPROF_WRITE_GZIP`; a
    /// path ending in `.gz` is compressed without it). The header has no
    /// name and time 0, so equal documents give equal bytes. Without gzip
    /// support ([`gzip_supported`](crate::gzip_supported)) the first write
    /// fails with [`Status::Io`].
    pub fn gzip(self, on: bool) -> WriteOptions {
        self.flag(sys::IPROF_WRITE_GZIP, on)
    }
    /// The target format version (default: the one given to
    /// [`Writer::begin`], or the model's for [`Writer::write_model`], or
    /// [`FORMAT_LATEST`](crate::FORMAT_LATEST)). A version containing NUL
    /// makes the writer's creation fail with [`Status::Invalid`].
    pub fn format_version(mut self, version: &str) -> WriteOptions {
        self.format_version = Some(version.to_string());
        self
    }
    /// Output buffer bytes; 0: the default (256 KiB).
    pub fn buffer_size(mut self, bytes: usize) -> WriteOptions {
        self.buffer_size = bytes;
        self
    }
    /// The key of the instanceof section. [`InstanceofKey::Auto`] (the
    /// default): the model's spelling for [`Writer::write_model`] when its
    /// file had the section, else GraalVM's `"instanceOfProfiles"`; the
    /// other values force one spelling, to convert between them.
    pub fn instanceof_key(mut self, key: InstanceofKey) -> WriteOptions {
        self.instanceof_key = key;
        self
    }
    /// The C options and the string their `format_version` points to,
    /// which must be kept alive while they are used.
    fn raw(&self) -> Result<(sys::iprof_write_options, Option<CString>)> {
        let version = self.format_version.as_deref().map(|v| c_string("format version", v)).transpose()?;
        let opts = sys::iprof_write_options {
            flags: self.flags,
            format_version: version.as_ref().map_or(ptr::null(), |v| v.as_ptr()),
            buffer_size: self.buffer_size,
            instanceof_key: self.instanceof_key.raw(),
            ..sys::iprof_write_options::INIT
        };
        Ok((opts, version))
    }
}

/// The payload of a callback sink.
struct SinkState<'a> {
    output: Box<dyn io::Write + Send + 'a>,
    error: Option<io::Error>,
    panic: PanicSlot,
}

unsafe extern "C" fn tramp_write(data: *const c_void, len: usize, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<SinkState<'_>>();
    let data = slice_from_raw(data.cast::<u8>(), len);
    let output = &mut st.output;
    match st.panic.call(|| output.write_all(data)) {
        Some(Ok(())) => 0,
        Some(Err(e)) => {
            st.error = Some(e);
            1
        }
        None => 1,
    }
}

/// A writer producing one document, to a path (atomically), to memory, to
/// a file descriptor or to an [`io::Write`]; element by element
/// ([`begin`](Self::begin), types, methods, entries, [`end`](Self::end)) or
/// a whole model ([`write_model`](Self::write_model)).
///
/// After any failure the writer is failed: every later call returns the
/// same error. Dropping a path writer before a successful `end` removes its
/// temporary file and leaves the target untouched.
///
/// `'a` is the lifetime of a borrowed sink (a file descriptor or a
/// `&mut` writer); path and memory writers are `Writer<'static>`. `Send`
/// but not `Sync` (see the [crate documentation](crate#threads)).
pub struct Writer<'a> {
    raw: NonNull<sys::iprof_writer>,
    /// The callback sink, boxed so that its address stays put. Dropped
    /// after the C writer (see Drop).
    sink: Option<Box<SinkState<'a>>>,
    /// The target of a path writer, named in its errors.
    file: Option<PathBuf>,
    /// Borrows of the sink (fd) and !Sync.
    _marker: PhantomData<(&'a (), std::cell::Cell<()>)>,
}

// SAFETY: a writer has no thread affinity (no global state, libc
// allocator), and its callback sink is required to be Send; so the whole
// can move to another thread. Not Sync: the C API allows one thread per
// writer at a time.
unsafe impl Send for Writer<'_> {}

/// `IPROF_SINK_*_INIT`: an `iprof_sink` of `kind` with every field of the
/// other kinds unset.
fn sink(kind: c_int) -> sys::iprof_sink {
    sys::iprof_sink {
        version: sys::IPROF_SINK_VERSION,
        kind,
        path: ptr::null(),
        fd: -1,
        write_fn: None,
        write_payload: ptr::null_mut(),
    }
}

impl Writer<'static> {
    /// Write to `path` atomically: nothing is visible there until
    /// [`end`](Self::end) (or [`write_model`](Self::write_model)) succeeds.
    pub fn to_path(path: impl AsRef<Path>, options: &WriteOptions) -> Result<Writer<'static>> {
        let file = path.as_ref();
        let path = c_path(file).map_err(|e| e.in_file(file))?;
        let (opts, _version) = options.raw()?;
        let target = sys::iprof_sink { path: path.as_ptr(), ..sink(sys::IPROF_SINK_PATH) };
        let mut w = Writer::create(None, &target, &opts).map_err(|e| e.in_file(file))?;
        w.file = Some(file.to_path_buf());
        Ok(w)
    }

    /// Write into memory; get the bytes with [`bytes`](Writer::bytes) or
    /// [`into_bytes`](Writer::into_bytes).
    pub fn to_memory(options: &WriteOptions) -> Result<Writer<'static>> {
        let (opts, _version) = options.raw()?;
        Writer::create(None, &sink(sys::IPROF_SINK_BUFFER), &opts)
    }
}

impl<'a> Writer<'a> {
    /// Write to an open file descriptor (not closed, not synced), borrowed
    /// for the writer's life.
    #[cfg(unix)]
    pub fn to_fd(fd: std::os::fd::BorrowedFd<'a>, options: &WriteOptions) -> Result<Writer<'a>> {
        use std::os::fd::AsRawFd;
        let (opts, _version) = options.raw()?;
        // The fd stays open for 'a, which the writer cannot outlive.
        Writer::create(None, &sys::iprof_sink { fd: fd.as_raw_fd(), ..sink(sys::IPROF_SINK_FD) }, &opts)
    }

    /// Write through any [`io::Write`] (owned, or a `&mut` borrow). It is
    /// flushed by [`end`](Self::end). An I/O error fails the writer with
    /// [`Status::Io`] and the error's text in the message.
    pub fn to_write(output: impl io::Write + Send + 'a, options: &WriteOptions) -> Result<Writer<'a>> {
        let (opts, _version) = options.raw()?;
        let mut state = Box::new(SinkState { output: Box::new(output), error: None, panic: PanicSlot::default() });
        let payload: *mut SinkState<'a> = &mut *state;
        // The boxed state lives as long as the C writer (see Drop).
        let target = sys::iprof_sink {
            write_fn: Some(tramp_write),
            write_payload: payload.cast(),
            ..sink(sys::IPROF_SINK_CALLBACK)
        };
        Writer::create(Some(state), &target, &opts)
    }

    /// A writer to `target`, keeping `state` (a callback sink's payload)
    /// alive as long as it.
    fn create(
        state: Option<Box<SinkState<'a>>>,
        target: &sys::iprof_sink,
        opts: &sys::iprof_write_options,
    ) -> Result<Writer<'a>> {
        let mut raw = ptr::null_mut();
        // SAFETY: valid out pointer; the sink and the options are read by
        // the call (a path is copied); what a sink names outlives the
        // writer, as each constructor ensures.
        crate::error::check(unsafe { sys::iprof_writer_new(&mut raw, target, opts) })?;
        let raw = NonNull::new(raw).ok_or_else(|| Error::from_code(sys::IPROF_ENOMEM))?;
        Ok(Writer { raw, sink: state, file: None, _marker: PhantomData })
    }

    /// The C handle, for calling `iprof_sys` directly. Still owned by this
    /// writer.
    pub fn as_ptr(&self) -> *mut sys::iprof_writer {
        self.raw.as_ptr()
    }

    /// Turn a status into a result with the writer's report, resuming a
    /// sink panic and adding a sink I/O error.
    fn result(&mut self, rc: c_int) -> Result<()> {
        if let Some(sink) = self.sink.as_mut() {
            sink.panic.resume();
        }
        if rc == sys::IPROF_OK {
            return Ok(());
        }
        // SAFETY: the writer is alive; the report is copied.
        let mut err = spelled(unsafe { Error::from_raw_or_code(sys::iprof_writer_error(self.raw.as_ptr()), rc) });
        if let Some(file) = &self.file {
            err = err.in_file(file);
        }
        match self.sink.as_mut().and_then(|s| s.error.take()) {
            Some(io) => Err(err.with_cause(&io)),
            None => Err(err),
        }
    }

    /// Start the document; `None`: the options' version, else
    /// [`FORMAT_LATEST`](crate::FORMAT_LATEST).
    pub fn begin(&mut self, format_version: Option<&str>) -> Result<()> {
        let version = format_version.map(|v| c_string("format version", v)).transpose()?;
        let vptr = version.as_ref().map_or(ptr::null(), |v| v.as_ptr());
        // SAFETY: exclusive use; the version outlives the call.
        let rc = unsafe { sys::iprof_writer_begin(self.raw.as_ptr(), vptr) };
        self.result(rc)
    }

    /// One type.
    pub fn write_type(&mut self, id: i64, name: &str) -> Result<()> {
        // SAFETY: exclusive use; the name outlives the call.
        let rc = unsafe { sys::iprof_writer_type(self.raw.as_ptr(), id, name.as_ptr().cast(), name.len()) };
        self.result(rc)
    }

    /// One method; signature: declaring type, return type, parameter types.
    pub fn write_method(&mut self, id: i64, name: &str, signature: &[i64]) -> Result<()> {
        // SAFETY: exclusive use; arguments outlive the call.
        let rc = unsafe {
            sys::iprof_writer_method(
                self.raw.as_ptr(),
                id,
                name.as_ptr().cast(),
                name.len(),
                signature.as_ptr(),
                signature.len(),
            )
        };
        self.result(rc)
    }

    /// One entry. Sections come in the target version's order, entries of a
    /// kind consecutively ([`Status::State`] otherwise).
    pub fn write_entry(&mut self, kind: Kind, frames: &[Frame], records: &[i64]) -> Result<()> {
        // SAFETY: exclusive use; Frame has the interleaved layout.
        let rc = unsafe {
            sys::iprof_writer_entry(
                self.raw.as_ptr(),
                kind.raw(),
                frames.as_ptr().cast(),
                frames.len(),
                records.as_ptr(),
                records.len(),
            )
        };
        self.result(rc)
    }

    /// A top-level key the library does not interpret, with its raw JSON
    /// value (exactly one JSON value, written byte for byte), at this point
    /// of the document: the open section is closed first, and the sections
    /// up to it can no longer be written. [`Status::Invalid`] for a key the
    /// library writes itself, [`Status::Syntax`] for a value that is not one
    /// JSON value.
    pub fn write_unknown(&mut self, key: &str, json: impl AsRef<[u8]>) -> Result<()> {
        let json = json.as_ref();
        // SAFETY: exclusive use; arguments outlive the call.
        let rc = unsafe {
            sys::iprof_writer_unknown(self.raw.as_ptr(), key.as_ptr().cast(), key.len(), json.as_ptr().cast(), json.len())
        };
        self.result(rc)
    }

    /// Close the document, flush, and (path sink) sync and rename into
    /// place; an [`io::Write`] sink is flushed.
    pub fn end(&mut self) -> Result<()> {
        // SAFETY: exclusive use.
        let rc = unsafe { sys::iprof_writer_end(self.raw.as_ptr()) };
        self.result(rc)?;
        self.flush_sink()
    }

    fn flush_sink(&mut self) -> Result<()> {
        let Some(sink) = self.sink.as_mut() else { return Ok(()) };
        let output = &mut sink.output;
        let flushed = sink.panic.call(|| output.flush());
        sink.panic.resume();
        match flushed {
            Some(Err(e)) => Err(Error::new(Status::Io, "flushing the output failed").with_cause(&e)),
            _ => Ok(()),
        }
    }

    /// Write the whole model: begin, every element in model order, its
    /// unknown top-level keys where its file had them, end. The version is
    /// the options' one, or the model's; so is the instanceof key (see
    /// [`WriteOptions::instanceof_key`]).
    pub fn write_model(&mut self, model: &Model) -> Result<()> {
        // SAFETY: exclusive use of the writer; the model is only read.
        let rc = unsafe { sys::iprof_writer_write_model(self.raw.as_ptr(), model.as_ptr()) };
        self.result(rc)?;
        self.flush_sink()
    }

    /// The error of the failed writer, or `None`.
    pub fn error(&self) -> Option<Error> {
        // SAFETY: the writer is alive; the report is copied.
        unsafe {
            let err = sys::iprof_writer_error(self.raw.as_ptr());
            (!err.is_null()).then(|| spelled(Error::from_raw(err)))
        }
    }

    /// Memory sink: the bytes written so far (all of them after `end`),
    /// borrowed from the writer. [`Status::Invalid`] for other sinks.
    pub fn bytes(&self) -> Result<&[u8]> {
        let mut data = ptr::null();
        let mut len = 0;
        // SAFETY: the buffer is owned by the writer and valid until it is
        // freed or written to again, both excluded by the &self borrow.
        unsafe {
            crate::error::check(sys::iprof_writer_buffer(self.raw.as_ptr(), &mut data, &mut len))?;
            Ok(slice_from_raw(data.cast::<u8>(), len))
        }
    }

    /// Memory sink: the bytes, copied, and the writer freed.
    pub fn into_bytes(self) -> Result<Vec<u8>> {
        self.bytes().map(<[u8]>::to_vec)
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        // SAFETY: we own the writer. It is freed before `sink` (a field,
        // dropped after this body), which its callback may still use.
        unsafe { sys::iprof_writer_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Writer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer").field("raw", &self.raw).field("callback_sink", &self.sink.is_some()).finish()
    }
}
