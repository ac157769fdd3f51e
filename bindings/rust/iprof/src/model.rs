//! The in-memory model and its borrowed views.

use std::ffi::{c_int, c_void};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::io;
use std::iter::FusedIterator;
use std::marker::PhantomData;
use std::path::Path;
use std::ptr::{self, NonNull};

use iprof_sys as sys;

use crate::error::{check, Error, Result};
use crate::reader::{Flow, Reader};
use crate::writer::{WriteOptions, Writer};
use crate::{borrowed_str, c_string, cstr, slice_from_raw, snprintf_string, Frame, InstanceofKey, Kind, PanicSlot};

/// A profile in memory: its version, types, methods and entries. Names and
/// contexts are interned; lookups by id, name, signature and context are
/// O(1).
///
/// Read access (`&self`) hands out views that borrow the model; every
/// change takes `&mut self`, so no view can survive a change (see the
/// [crate documentation](crate#borrows-instead-of-lifetimes-rules)).
///
/// `Send` and `Sync`: see the [crate documentation](crate#threads).
pub struct Model {
    raw: NonNull<sys::iprof_model>,
}

// SAFETY: the C model has no thread affinity (no thread-local or global
// state; the bindings always use the libc allocator), so it can move to
// another thread.
unsafe impl Send for Model {}
// SAFETY: the C API documents that "a model that nobody mutates may be read
// from any number of threads at once: no accessor writes to the model".
// Through &Model only the const accessors (lookups, iteration, describe,
// writing it, being the source of a merge) are reachable; each mutation
// takes &mut Model, which the borrow checker grants only when no other
// reference - in any thread - exists.
unsafe impl Sync for Model {}

impl Model {
    /// An empty model of format version [`FORMAT_LATEST`](crate::FORMAT_LATEST).
    pub fn new() -> Result<Model> {
        let mut raw = ptr::null_mut();
        // SAFETY: valid out pointer; NULL allocator means libc.
        check(unsafe { sys::iprof_model_new(&mut raw, ptr::null()) })?;
        // SAFETY: a new model, handed over.
        unsafe { Model::from_raw(raw) }
    }

    /// Take ownership of a C model.
    ///
    /// # Safety
    /// `raw` must be a model from `iprof_model_new` or `iprof_model_load`
    /// (or NULL, which gives an error) that nothing else owns or frees.
    pub unsafe fn from_raw(raw: *mut sys::iprof_model) -> Result<Model> {
        NonNull::new(raw)
            .map(|raw| Model { raw })
            .ok_or_else(|| Error::from_code(sys::IPROF_ENOMEM))
    }

    /// The C handle, for calling `iprof_sys` directly. Still owned by this
    /// model; do not mutate it through `&self`.
    pub fn as_ptr(&self) -> *const sys::iprof_model {
        self.raw.as_ptr()
    }

    fn ptr(&self) -> *const sys::iprof_model {
        self.raw.as_ptr()
    }

    /// Load a file with a lenient reader with default options. Use
    /// [`Reader::load_path`] for other options or the diagnostics.
    pub fn load(path: impl AsRef<Path>) -> Result<Model> {
        Reader::new()?.load_path(path)
    }

    /// Load a document held in memory (lenient, default options).
    pub fn load_bytes(data: &[u8]) -> Result<Model> {
        Reader::new()?.load_bytes(data)
    }

    /// Load a document from any [`io::Read`] (lenient, default options).
    pub fn load_from(input: impl io::Read) -> Result<Model> {
        Reader::new()?.load_from(input)
    }

    /// The document in GraalVM's layout for the model's version (see
    /// [`Writer`] for other options).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut w = Writer::to_memory(&WriteOptions::new())?;
        w.write_model(self)?;
        w.into_bytes()
    }

    /// Write the model to `path` atomically, in GraalVM's layout for the
    /// model's version.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let mut w = Writer::to_path(path, &WriteOptions::new())?;
        w.write_model(self)
    }

    // -- version -----------------------------------------------------------

    /// The format version ("1.0.0").
    pub fn version(&self) -> &str {
        // SAFETY: owned by the model, valid until set_version (&mut self).
        unsafe { cstr(sys::iprof_model_version(self.ptr())) }
    }

    /// Change the recorded format version (`MAJOR.MINOR.PATCH` of a version
    /// with the 0.4.0/1.x structure; [`Status::Version`](crate::Status::Version) otherwise).
    pub fn set_version(&mut self, version: &str) -> Result<()> {
        let version = c_string("version", version)?;
        // SAFETY: exclusive access; the string outlives the call.
        let rc = unsafe { sys::iprof_model_set_version(self.raw.as_ptr(), version.as_ptr()) };
        self.result(rc)
    }

    // -- types -------------------------------------------------------------

    /// Number of types.
    pub fn type_count(&self) -> usize {
        // SAFETY: read-only accessor of a live model.
        unsafe { sys::iprof_model_type_count(self.ptr()) }
    }

    /// The types in file order.
    pub fn types(&self) -> Types<'_> {
        Types { model: self, front: 0, back: self.type_count() }
    }

    /// The type at `index` (file order).
    pub fn type_at(&self, index: usize) -> Option<Type<'_>> {
        // SAFETY: read-only accessor; NULL when out of range.
        unsafe { Type::new(sys::iprof_model_type_at(self.ptr(), index)) }
    }

    /// The type with this id (the first one if a lenient file repeats it).
    pub fn type_by_id(&self, id: i64) -> Option<Type<'_>> {
        // SAFETY: read-only accessor.
        unsafe { Type::new(sys::iprof_model_type_by_id(self.ptr(), id)) }
    }

    /// The type with this name (the first one if a file repeats it).
    pub fn type_by_name(&self, name: &str) -> Option<Type<'_>> {
        // SAFETY: read-only accessor; the name outlives the call.
        unsafe { Type::new(sys::iprof_model_type_by_name(self.ptr(), name.as_ptr().cast(), name.len())) }
    }

    // -- methods -----------------------------------------------------------

    /// Number of methods.
    pub fn method_count(&self) -> usize {
        // SAFETY: read-only accessor.
        unsafe { sys::iprof_model_method_count(self.ptr()) }
    }

    /// The methods in file order.
    pub fn methods(&self) -> Methods<'_> {
        Methods { model: self, front: 0, back: self.method_count() }
    }

    /// The method at `index` (file order).
    pub fn method_at(&self, index: usize) -> Option<Method<'_>> {
        // SAFETY: read-only accessor.
        unsafe { Method::new(sys::iprof_model_method_at(self.ptr(), index)) }
    }

    /// The method with this id.
    pub fn method_by_id(&self, id: i64) -> Option<Method<'_>> {
        // SAFETY: read-only accessor.
        unsafe { Method::new(sys::iprof_model_method_by_id(self.ptr(), id)) }
    }

    /// The method with this name and signature (declaring type id, return
    /// type id, parameter type ids).
    pub fn method_find(&self, name: &str, signature: &[i64]) -> Option<Method<'_>> {
        // SAFETY: read-only accessor; arguments outlive the call.
        unsafe {
            Method::new(sys::iprof_model_method_find(
                self.ptr(),
                name.as_ptr().cast(),
                name.len(),
                signature.as_ptr(),
                signature.len(),
            ))
        }
    }

    /// "Type.name" (`Fib.fibonacci`); `?ID` for an undefined declaring
    /// type, just the name for an empty signature.
    pub fn describe_method(&self, method: Method<'_>) -> String {
        // SAFETY: read-only; the method is alive (borrowed) and the buffer
        // is as large as stated.
        snprintf_string(|buf, size| unsafe { sys::iprof_model_method_describe(self.ptr(), method.raw, buf, size) })
    }

    // -- contexts ----------------------------------------------------------

    /// Readable text of a context (`Fib.fibonacci:11 < Fib.main:9`), `?ID`
    /// for a method id without a method.
    pub fn describe_context(&self, context: Context<'_>) -> String {
        // SAFETY: as describe_method.
        snprintf_string(|buf, size| unsafe { sys::iprof_model_context_describe(self.ptr(), context.raw, buf, size) })
    }

    /// Number of interned context nodes (distinct frame sequences,
    /// including caller suffixes).
    pub fn context_count(&self) -> usize {
        // SAFETY: read-only accessor.
        unsafe { sys::iprof_model_context_count(self.ptr()) }
    }

    // -- entries -----------------------------------------------------------

    /// Number of entries of `kind`.
    pub fn entry_count(&self, kind: Kind) -> usize {
        // SAFETY: read-only accessor.
        unsafe { sys::iprof_model_entry_count(self.ptr(), kind.raw()) }
    }

    /// The entries of `kind` in file order.
    pub fn entries(&self, kind: Kind) -> Entries<'_> {
        Entries { model: self, kind, front: 0, back: self.entry_count(kind) }
    }

    /// Entry `index` of `kind`.
    pub fn entry_at(&self, kind: Kind, index: usize) -> Option<Entry<'_>> {
        // SAFETY: read-only accessor.
        unsafe { Entry::new(sys::iprof_model_entry_at(self.ptr(), kind.raw(), index)) }
    }

    /// The entry of `kind` with this context (frames callee first).
    pub fn entry_find(&self, kind: Kind, frames: &[Frame]) -> Option<Entry<'_>> {
        // SAFETY: read-only; Frame is two i64 (repr(C)), the interleaved
        // layout of the C API.
        unsafe {
            Entry::new(sys::iprof_model_entry_find(
                self.ptr(),
                kind.raw(),
                frames.as_ptr().cast(),
                frames.len(),
            ))
        }
    }

    // -- mutation ----------------------------------------------------------

    pub(crate) fn mut_ptr(&mut self) -> *mut sys::iprof_model {
        self.raw.as_ptr()
    }

    /// Add a type ([`Status::Invalid`](crate::Status::Invalid) if the id is taken).
    pub fn add_type(&mut self, id: i64, name: &str) -> Result<()> {
        // SAFETY: exclusive access; the name outlives the call (copied).
        let rc = unsafe { sys::iprof_model_add_type(self.mut_ptr(), id, name.as_ptr().cast(), name.len(), ptr::null_mut()) };
        self.result(rc)
    }

    /// Remove a type ([`Status::NotFound`](crate::Status::NotFound) if absent). References to it are
    /// not checked: remove those first.
    pub fn remove_type(&mut self, id: i64) -> Result<()> {
        // SAFETY: exclusive access; no view can be alive.
        let rc = unsafe { sys::iprof_model_remove_type(self.mut_ptr(), id) };
        self.result(rc)
    }

    /// Add a method ([`Status::Invalid`](crate::Status::Invalid) if the id is taken,
    /// [`Status::Dangling`](crate::Status::Dangling) if a signature type is not in the model).
    pub fn add_method(&mut self, id: i64, name: &str, signature: &[i64]) -> Result<()> {
        // SAFETY: exclusive access; arguments outlive the call (copied).
        let rc = unsafe {
            sys::iprof_model_add_method(
                self.mut_ptr(),
                id,
                name.as_ptr().cast(),
                name.len(),
                signature.as_ptr(),
                signature.len(),
                ptr::null_mut(),
            )
        };
        self.result(rc)
    }

    /// Remove a method. With `cascade` false, entries whose contexts
    /// mention it are not checked (remove those first); with `cascade`
    /// true, every entry, of any kind, whose context mentions it in any
    /// frame, callee or caller, goes too (`IPROF_REMOVE_CASCADE`).
    /// [`Status::NotFound`](crate::Status::NotFound), with
    /// [`method_id`](Error::method_id) set and nothing changed, if there is
    /// no such method.
    pub fn remove_method(&mut self, id: i64, cascade: bool) -> Result<()> {
        let flags = if cascade { sys::IPROF_REMOVE_CASCADE } else { 0 };
        // SAFETY: exclusive access.
        let rc = unsafe { sys::iprof_model_remove_method(self.mut_ptr(), id, flags) };
        self.result(rc)
    }

    /// Add an entry. If an entry of that kind and context exists, the
    /// records are combined by the kind's meaning (counts summed, pairs
    /// matched by type, triples by (bci, index) and occurrence, the i-th
    /// meeting the i-th, saturating at `i64::MAX`).
    /// Fails changing nothing: [`Status::Schema`](crate::Status::Schema) (rules),
    /// [`Status::Dangling`](crate::Status::Dangling) (unknown method or type ids),
    /// [`Status::Invalid`](crate::Status::Invalid) (no frames). The error
    /// names the entry's [`kind`](Error::kind) and
    /// [`context`](Error::context) and the undefined
    /// [`method_id`](Error::method_id) or [`type_id`](Error::type_id).
    pub fn add_entry(&mut self, kind: Kind, frames: &[Frame], records: &[i64]) -> Result<()> {
        // SAFETY: exclusive access; arguments outlive the call (copied).
        let rc = unsafe {
            sys::iprof_model_add_entry(
                self.mut_ptr(),
                kind.raw(),
                frames.as_ptr().cast(),
                frames.len(),
                records.as_ptr(),
                records.len(),
            )
        };
        self.result(rc)
    }

    /// Remove the entry of `kind` with this context ([`Status::NotFound`](crate::Status::NotFound)).
    pub fn remove_entry(&mut self, kind: Kind, frames: &[Frame]) -> Result<()> {
        // SAFETY: exclusive access.
        let rc = unsafe { sys::iprof_model_remove_entry(self.mut_ptr(), kind.raw(), frames.as_ptr().cast(), frames.len()) };
        self.result(rc)
    }

    /// Replace the records of the entry of `kind` with this context (the
    /// first one, if a lenient load kept several) by `records`, under the
    /// rules of [`add_entry`](Self::add_entry): the kind's record layout
    /// ([`Status::Schema`](crate::Status::Schema)) and defined type ids
    /// ([`Status::Dangling`](crate::Status::Dangling));
    /// [`Status::NotFound`](crate::Status::NotFound) when no entry of that
    /// kind has this context. On failure nothing changes and the error
    /// names the entry's [`kind`](Error::kind) and [`context`](Error::context)
    /// (and the undefined [`type_id`](Error::type_id)).
    pub fn set_entry_records(&mut self, kind: Kind, frames: &[Frame], records: &[i64]) -> Result<()> {
        // SAFETY: exclusive access; arguments outlive the call (copied).
        let rc = unsafe {
            sys::iprof_model_set_entry_records(
                self.mut_ptr(),
                kind.raw(),
                frames.as_ptr().cast(),
                frames.len(),
                records.as_ptr(),
                records.len(),
            )
        };
        self.result(rc)
    }

    /// Rewrite the records of every entry of `kind` with a function: `f`
    /// gets each entry in order (a view, as it is before the call) and a
    /// copy of its records to edit in place (their number stays). It
    /// returns `()`, or a [`ControlFlow`](std::ops::ControlFlow) whose
    /// `Break` stops the map, which then fails with
    /// [`Status::Stopped`](crate::Status::Stopped). Once `f` has seen every
    /// entry, the new records are checked as
    /// [`set_entry_records`](Self::set_entry_records) checks them and
    /// stored only if all pass; a stop or a failed check
    /// ([`Status::Schema`](crate::Status::Schema),
    /// [`Status::Dangling`](crate::Status::Dangling), the error naming the
    /// entry) changes nothing.
    ///
    /// A panic in `f` stops the map, changing nothing, and resumes once
    /// the C call has returned.
    ///
    /// ```
    /// # fn main() -> Result<(), iprof::Error> {
    /// # let mut model = iprof::Model::new()?;
    /// // Double every branch count (every third record).
    /// model.map_records(iprof::Kind::Conditional, |_entry, records| {
    ///     for count in records.iter_mut().skip(2).step_by(3) {
    ///         *count = count.saturating_mul(2);
    ///     }
    /// })?;
    /// # Ok(()) }
    /// ```
    pub fn map_records<R, F>(&mut self, kind: Kind, f: F) -> Result<()>
    where
        R: Flow,
        F: FnMut(Entry<'_>, &mut [i64]) -> R,
    {
        let mut state = MapState { f, panic: PanicSlot::default() };
        // SAFETY: exclusive access; the state outlives the call.
        let rc = unsafe {
            sys::iprof_model_map_records(
                self.mut_ptr(),
                kind.raw(),
                Some(map_records_tramp::<R, F>),
                (&mut state as *mut MapState<F>).cast(),
            )
        };
        state.panic.resume();
        self.result(rc)
    }

    /// Multiply the counts of every entry, or of the entries of `kind`
    /// (`None`: every kind), by `weight` (finite and `>= 0`): the count
    /// slot of each record (call count and sampling: the value;
    /// conditional: every third; virtual invoke, monitor, instanceof:
    /// every second) is multiplied, rounded as `rounding` says and
    /// saturated at the `i64` range; whole-number weights are exact. Ids,
    /// bcis and branch indexes are not touched. A bad weight fails with
    /// [`Status::Invalid`](crate::Status::Invalid) and the library's
    /// message (`weight nan: must be finite and >= 0`), changing nothing.
    pub fn scale(&mut self, kind: Option<Kind>, weight: f64, rounding: Rounding) -> Result<()> {
        // SAFETY: exclusive access.
        let rc = unsafe { sys::iprof_model_scale(self.mut_ptr(), kind.map_or(-1, Kind::raw), weight, rounding.raw()) };
        self.result(rc)
    }

    /// Merge `src` into this model, as `native-image-configure
    /// merge-pgo-profiles` does: types matched by name, methods by
    /// (declaring type name, name, signature type names), what is missing
    /// added (keeping `src`'s id when free), entries remapped and combined,
    /// their counts multiplied by `weight` (finite, `>= 0`; rounded to
    /// nearest, halves away from zero, saturating; see
    /// [`MergeOptions::rounding`] for other roundings). Fails with [`Status::Dangling`](crate::Status::Dangling), changing
    /// nothing, if `src` has unresolved references; [`Status::Invalid`](crate::Status::Invalid) for
    /// a bad weight (the message says which: `weight nan: must be finite
    /// and >= 0`); [`Status::Schema`](crate::Status::Schema) for unknown
    /// top-level keys that cannot be combined (see [`merge_with`](Self::merge_with)).
    ///
    /// The format version becomes the highest of the two: `src`'s when it
    /// is higher, or when this model is a [`Model::new`] whose version was
    /// never read or set (so merging files one by one into a new model
    /// gives the highest version among them).
    pub fn merge(&mut self, src: &Model, weight: f64) -> Result<()> {
        self.merge_with(src, &MergeOptions::new().weight(weight))
    }

    /// [`merge`](Self::merge) with options: the weight, its rounding and
    /// what to do with unknown top-level keys. This model keeps its own and takes those of
    /// `src` it lacks when each holds `[]`, `{}` or a scalar and a key both
    /// hold has equal values; otherwise the merge fails with
    /// [`Status::Schema`](crate::Status::Schema), changing nothing, and the
    /// error names the key, unless [`MergeOptions::drop_unknown`] drops them
    /// all. The instanceof spelling is this model's, else `src`'s
    /// ([`InstanceofKey::Camel`] when they disagree).
    pub fn merge_with(&mut self, src: &Model, options: &MergeOptions) -> Result<()> {
        let opts = options.raw();
        // SAFETY: &mut self and &Model cannot alias, so dst != src as the C
        // function requires; src is only read.
        let rc = unsafe { sys::iprof_model_merge(self.mut_ptr(), src.ptr(), &opts) };
        self.result(rc)
    }

    /// A status as a result with the model's report: model operations
    /// (add and remove, filter, merge, the canonical form,
    /// [`add_unknown`](Self::add_unknown)) say there why they failed and
    /// what about. Only a report of this very failure is used: a call that
    /// sets none leaves the last one in place.
    pub(crate) fn result(&self, rc: c_int) -> Result<()> {
        if rc == sys::IPROF_OK {
            return Ok(());
        }
        // SAFETY: the report is owned by the model and copied at once.
        unsafe {
            let report = sys::iprof_model_error(self.ptr());
            if report.is_null() {
                return Err(Error::from_code(rc));
            }
            let error = Error::from_raw(report);
            if error.code() != rc {
                return Err(Error::from_code(rc));
            }
            Err(error)
        }
    }

    // -- what the file held beyond the profile -----------------------------

    /// How many elements of the documents loaded or merged into the model
    /// held keys that no type, method or entry has: the reader does not
    /// read them (it warns), so the model lacks them, and writing it fails
    /// unless [`WriteOptions::drop_unknown`](crate::WriteOptions::drop_unknown).
    pub fn unread_count(&self) -> usize {
        // SAFETY: read-only accessor; NULL first is allowed.
        unsafe { sys::iprof_model_unread_count(self.ptr(), ptr::null_mut()) }
    }

    /// Where the first element [`unread_count`](Model::unread_count)
    /// counts was, as `types[3], key "x"`; `None` when there is none.
    pub fn first_unread(&self) -> Option<&str> {
        let mut first = ptr::null();
        // SAFETY: read-only accessor; the string lives as long as the model
        // (no call taking &self changes it).
        unsafe {
            sys::iprof_model_unread_count(self.ptr(), &mut first);
            (!first.is_null()).then(|| crate::cstr(first))
        }
    }

    /// Number of unknown top-level keys the model keeps.
    pub fn unknown_key_count(&self) -> usize {
        // SAFETY: read-only accessor.
        unsafe { sys::iprof_model_unknown_count(self.ptr()) }
    }

    /// Unknown top-level key `index` (file order): the key and its raw JSON
    /// value, exactly as the file held it.
    pub fn unknown_key_at(&self, index: usize) -> Option<(&str, &[u8])> {
        let (mut key, mut key_len, mut json, mut json_len) = (ptr::null(), 0, ptr::null(), 0);
        // SAFETY: read-only accessor; the strings live until the key is
        // removed (&mut self) or the model dropped.
        unsafe {
            let rc = sys::iprof_model_unknown_at(self.ptr(), index, &mut key, &mut key_len, &mut json, &mut json_len);
            (rc == sys::IPROF_OK).then(|| (borrowed_str(key, key_len), slice_from_raw(json.cast::<u8>(), json_len)))
        }
    }

    /// The top-level keys the library does not interpret (a fork's
    /// `ceConditionalProfilesV2`, GraalVM's `virtualInvokeMethodProfiles`),
    /// in file order, each with its raw JSON value. A loaded model keeps
    /// them and the writer puts them back where the file had them.
    pub fn unknown_keys(&self) -> impl DoubleEndedIterator<Item = (&str, &[u8])> + ExactSizeIterator + '_ {
        (0..self.unknown_key_count()).map(|i| self.unknown_key_at(i).expect("index below the count"))
    }

    /// Add an unknown top-level key with its raw JSON value (one JSON value,
    /// written as given, after every section). [`Status::Invalid`](crate::Status::Invalid)
    /// for a key the library interprets, [`Status::Syntax`](crate::Status::Syntax)
    /// for a value that is not one JSON value.
    pub fn add_unknown(&mut self, key: &str, json: impl AsRef<[u8]>) -> Result<()> {
        let json = json.as_ref();
        // A NUL-terminated copy: the C function reads key_len bytes (its
        // messages too), the terminator only keeps any older reading safe.
        let key_z = [key.as_bytes(), b"\0"].concat();
        // SAFETY: exclusive access; arguments outlive the call (copied).
        let rc = unsafe {
            sys::iprof_model_add_unknown(self.mut_ptr(), key_z.as_ptr().cast(), key.len(), json.as_ptr().cast(), json.len())
        };
        self.result(rc)
    }

    /// Remove every unknown top-level key named `key`
    /// ([`Status::NotFound`](crate::Status::NotFound) if there is none), or
    /// with `None` every unknown key (never `NotFound` then).
    pub fn remove_unknown(&mut self, key: Option<&str>) -> Result<()> {
        let (ptr, len) = key.map_or((ptr::null(), 0), |k| (k.as_ptr().cast(), k.len()));
        // SAFETY: exclusive access: no borrowed key or value is alive; the
        // key (NULL with 0: all) outlives the call.
        let rc = unsafe { sys::iprof_model_remove_unknown(self.mut_ptr(), ptr, len) };
        self.result(rc)
    }

    /// Build every lookup index now (`iprof_model_build_indexes`), so that
    /// lookups from several threads never allocate; they build them on
    /// first use otherwise.
    pub fn build_indexes(&mut self) -> Result<()> {
        // SAFETY: exclusive access.
        let rc = unsafe { sys::iprof_model_build_indexes(self.mut_ptr()) };
        self.result(rc)
    }

    /// The spelling of the instanceof key the model was read with;
    /// [`InstanceofKey::Auto`] when its file had no such section (or it
    /// was made with [`Model::new`]).
    pub fn instanceof_key(&self) -> InstanceofKey {
        // SAFETY: read-only accessor.
        InstanceofKey::from_raw(unsafe { sys::iprof_model_instanceof_key(self.ptr()) }).unwrap_or_default()
    }

    /// Set the spelling the writer uses for this model unless
    /// [`WriteOptions::instanceof_key`] says otherwise.
    pub fn set_instanceof_key(&mut self, key: InstanceofKey) {
        // SAFETY: exclusive access; every InstanceofKey is a valid value,
        // so the call cannot fail.
        unsafe { sys::iprof_model_set_instanceof_key(self.mut_ptr(), key.raw()) };
    }
}

/// How a count multiplied by a weight that is not a whole number is
/// rounded to an integer (`enum iprof_rounding`), by [`Model::scale`] and
/// [`MergeOptions::rounding`]. Whole-number weights are exact; results
/// saturate at the `i64` range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Rounding {
    /// To the nearest, halves away from zero (the default).
    #[default]
    NearestAway = 0,
    /// To the nearest, halves to even.
    NearestEven = 1,
    /// Down, towards negative infinity.
    Floor = 2,
}

impl Rounding {
    /// The rounding of a C value (`IPROF_ROUND_*`).
    pub fn from_raw(raw: i32) -> Option<Rounding> {
        [Rounding::NearestAway, Rounding::NearestEven, Rounding::Floor].get(usize::try_from(raw).ok()?).copied()
    }

    /// The C value (`IPROF_ROUND_*`).
    pub fn raw(self) -> i32 {
        self as i32
    }
}

/// Options of [`Model::merge_with`]: a builder over `iprof_merge_options`.
/// The default is weight 1, halves rounded away from zero, and refusing
/// unknown top-level keys that cannot be combined.
///
/// ```no_run
/// # fn main() -> Result<(), iprof::Error> {
/// let mut total = iprof::Model::new()?;
/// let run = iprof::Model::load("run.iprof")?;
/// total.merge_with(&run, &iprof::MergeOptions::new().weight(2.0).drop_unknown(true))?;
/// total.merge_with(&run, &iprof::MergeOptions::new().weight(0.5).rounding(iprof::Rounding::Floor))?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MergeOptions {
    weight: f64,
    rounding: Rounding,
    drop_unknown: bool,
    threaded: bool,
}

impl Default for MergeOptions {
    fn default() -> MergeOptions {
        MergeOptions { weight: 1.0, rounding: Rounding::NearestAway, drop_unknown: false, threaded: false }
    }
}

impl MergeOptions {
    /// Weight 1, halves away from zero, unknown keys kept or refused.
    pub fn new() -> MergeOptions {
        MergeOptions::default()
    }

    pub(crate) fn raw(&self) -> sys::iprof_merge_options {
        sys::iprof_merge_options {
            flags: if self.drop_unknown { sys::IPROF_MERGE_DROP_UNKNOWN } else { 0 }
                | if self.threaded { sys::IPROF_MERGE_THREADED } else { 0 },
            weight: self.weight,
            rounding: self.rounding.raw(),
            ..sys::iprof_merge_options::INIT
        }
    }
    /// The factor for the source's counts: finite and `>= 0` (else the
    /// merge fails with [`Status::Invalid`](crate::Status::Invalid)).
    pub fn weight(mut self, weight: f64) -> MergeOptions {
        self.weight = weight;
        self
    }
    /// How the source's counts times a weight that is not a whole number
    /// are rounded (default [`Rounding::NearestAway`]).
    pub fn rounding(mut self, rounding: Rounding) -> MergeOptions {
        self.rounding = rounding;
        self
    }
    /// Drop the unknown top-level keys of both models instead of failing on
    /// those that cannot be combined (`IPROF_MERGE_DROP_UNKNOWN`).
    pub fn drop_unknown(mut self, on: bool) -> MergeOptions {
        self.drop_unknown = on;
        self
    }
    /// Merge on a second thread while the calling one walks the source
    /// model ([`Model::merge_with`]) or reads the source (a reader's
    /// merges, as [`ReadOptions::threaded`](crate::ReadOptions::threaded)
    /// does): the same result (`IPROF_MERGE_THREADED`).
    pub fn threaded(mut self, on: bool) -> MergeOptions {
        self.threaded = on;
        self
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: we own the model; no view can outlive this borrow.
        unsafe { sys::iprof_model_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Model");
        d.field("version", &self.version())
            .field("types", &self.type_count())
            .field("methods", &self.method_count());
        for kind in Kind::ALL {
            d.field(kind.key(), &self.entry_count(kind));
        }
        d.finish()
    }
}

struct MapState<F> {
    f: F,
    panic: PanicSlot,
}

/// The function of `map_records`: 0 goes on; a `Break` or a panic stops
/// (the C call then changes nothing).
unsafe extern "C" fn map_records_tramp<R: Flow, F: FnMut(Entry<'_>, &mut [i64]) -> R>(
    e: *const sys::iprof_entry,
    records: *mut i64,
    count: usize,
    payload: *mut c_void,
) -> c_int {
    let st = &mut *payload.cast::<MapState<F>>();
    let Some(view) = Entry::new(e) else { return 1 };
    let records: &mut [i64] = if count == 0 || records.is_null() {
        &mut []
    } else {
        // SAFETY: the C side hands a writable copy of `count` records,
        // valid for the duration of the call and aliased by nothing else.
        std::slice::from_raw_parts_mut(records, count)
    };
    let f = &mut st.f;
    c_int::from(!st.panic.call(|| f(view, records).keep_going()).unwrap_or(false))
}

// ---------------------------------------------------------------------------
// Views

macro_rules! view {
    ($(#[$doc:meta])* $name:ident, $raw:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name<'m> {
            raw: *const $raw,
            _model: PhantomData<&'m Model>,
        }

        // SAFETY: a view is a shared borrow of a Model (which is Sync) plus
        // a pointer into it, used only with read-only accessors.
        unsafe impl Send for $name<'_> {}
        unsafe impl Sync for $name<'_> {}

        impl<'m> $name<'m> {
            /// SAFETY: `raw` NULL or pointing into a model borrowed for 'm.
            pub(crate) unsafe fn new(raw: *const $raw) -> Option<$name<'m>> {
                (!raw.is_null()).then_some($name { raw, _model: PhantomData })
            }

            /// The C pointer (valid while this view's borrow lasts).
            pub fn as_ptr(&self) -> *const $raw {
                self.raw
            }
        }
    };
}

view! {
    /// A type of a model, borrowed from it.
    Type, sys::iprof_type
}
view! {
    /// A method of a model, borrowed from it.
    Method, sys::iprof_method
}
view! {
    /// A context (a frame sequence) of a model, borrowed from it. Contexts
    /// are interned, so two contexts of one model are equal exactly when
    /// they are the same node: `==` and `Hash` compare the pointer.
    Context, sys::iprof_context
}
view! {
    /// A profile entry of a model, borrowed from it.
    Entry, sys::iprof_entry
}

impl<'m> Type<'m> {
    /// The id.
    pub fn id(&self) -> i64 {
        // SAFETY: valid type pointer for 'm.
        unsafe { sys::iprof_type_id(self.raw) }
    }
    /// The name (UTF-8; may contain NUL from `\u0000`).
    pub fn name(&self) -> &'m str {
        let mut len = 0;
        // SAFETY: the interned name lives as long as the model.
        unsafe { borrowed_str(sys::iprof_type_name(self.raw, &mut len), len) }
    }
}

impl fmt::Debug for Type<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Type").field("id", &self.id()).field("name", &self.name()).finish()
    }
}

impl<'m> Method<'m> {
    /// The id.
    pub fn id(&self) -> i64 {
        // SAFETY: valid method pointer for 'm.
        unsafe { sys::iprof_method_id(self.raw) }
    }
    /// The name.
    pub fn name(&self) -> &'m str {
        let mut len = 0;
        // SAFETY: the interned name lives as long as the model.
        unsafe { borrowed_str(sys::iprof_method_name(self.raw, &mut len), len) }
    }
    /// Declaring type id, return type id, then the parameter type ids.
    pub fn signature(&self) -> &'m [i64] {
        let mut len = 0;
        // SAFETY: the signature lives as long as the method.
        unsafe { slice_from_raw(sys::iprof_method_signature(self.raw, &mut len), len) }
    }
    /// The declaring type id (`signature[0]`).
    pub fn declaring_type_id(&self) -> Option<i64> {
        self.signature().first().copied()
    }
}

impl fmt::Debug for Method<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Method")
            .field("id", &self.id())
            .field("name", &self.name())
            .field("signature", &self.signature())
            .finish()
    }
}

impl<'m> Context<'m> {
    /// Number of frames (>= 1).
    pub fn depth(&self) -> usize {
        // SAFETY: valid context for 'm.
        unsafe { sys::iprof_context_depth(self.raw) }
    }
    /// The method id of frame 0 (the callee).
    pub fn method_id(&self) -> i64 {
        // SAFETY: valid context for 'm.
        unsafe { sys::iprof_context_method_id(self.raw) }
    }
    /// The bci of frame 0.
    pub fn bci(&self) -> i64 {
        // SAFETY: valid context for 'm.
        unsafe { sys::iprof_context_bci(self.raw) }
    }
    /// Frame 0.
    pub fn frame(&self) -> Frame {
        Frame::new(self.method_id(), self.bci())
    }
    /// The caller's context (without frame 0), `None` at depth 1.
    pub fn caller(&self) -> Option<Context<'m>> {
        // SAFETY: interned caller node of the same model.
        unsafe { Context::new(sys::iprof_context_caller(self.raw)) }
    }
    /// The frames, callee first, without allocating.
    pub fn frames(&self) -> ContextFrames<'m> {
        ContextFrames { next: Some(*self), left: self.depth() }
    }
    /// The frames copied into a vector (with `iprof_context_frames`).
    pub fn to_frames(&self) -> Vec<Frame> {
        let depth = self.depth();
        let mut frames = vec![Frame::default(); depth];
        // SAFETY: room for `depth` frames of two i64 each.
        let n = unsafe { sys::iprof_context_frames(self.raw, frames.as_mut_ptr().cast(), depth) };
        frames.truncate(n.min(depth));
        frames
    }
}

impl fmt::Display for Context<'_> {
    /// The ctx text ("5:0<3:2").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: valid context; buffer size as stated.
        f.write_str(&snprintf_string(|buf, size| unsafe { sys::iprof_context_format(self.raw, buf, size) }))
    }
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Context({self})")
    }
}

impl PartialEq for Context<'_> {
    fn eq(&self, other: &Self) -> bool {
        ptr::eq(self.raw, other.raw)
    }
}
impl Eq for Context<'_> {}
impl Hash for Context<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        ptr::hash(self.raw, state)
    }
}

/// The frames of a [`Context`], callee first.
#[derive(Clone, Debug)]
pub struct ContextFrames<'m> {
    next: Option<Context<'m>>,
    left: usize,
}

impl Iterator for ContextFrames<'_> {
    type Item = Frame;
    fn next(&mut self) -> Option<Frame> {
        let ctx = self.next?;
        self.next = ctx.caller();
        self.left = self.left.saturating_sub(1);
        Some(ctx.frame())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}
impl ExactSizeIterator for ContextFrames<'_> {}
impl FusedIterator for ContextFrames<'_> {}

impl<'m> Entry<'m> {
    /// The kind.
    pub fn kind(&self) -> Kind {
        // SAFETY: valid entry for 'm; the library only stores valid kinds.
        Kind::from_raw(unsafe { sys::iprof_entry_kind(self.raw) }).unwrap_or(Kind::CallCount)
    }
    /// The context (interned).
    pub fn context(&self) -> Context<'m> {
        // SAFETY: every entry has a context, which lives as long as the model.
        unsafe { Context::new(sys::iprof_entry_context(self.raw)) }.expect("an entry has a context")
    }
    /// The records.
    pub fn records(&self) -> &'m [i64] {
        let mut len = 0;
        // SAFETY: valid until the next change to entries of this kind,
        // which needs &mut Model and so cannot happen during 'm.
        unsafe { slice_from_raw(sys::iprof_entry_records(self.raw, &mut len), len) }
    }
}

impl fmt::Debug for Entry<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("kind", &self.kind())
            .field("ctx", &self.context().to_string())
            .field("records", &self.records())
            .finish()
    }
}

// ---------------------------------------------------------------------------
// Iterators

/// The types of a model in file order (double-ended, exact size).
#[derive(Clone, Debug)]
pub struct Types<'m> {
    model: &'m Model,
    front: usize,
    back: usize,
}

/// The methods of a model in file order (double-ended, exact size).
#[derive(Clone, Debug)]
pub struct Methods<'m> {
    model: &'m Model,
    front: usize,
    back: usize,
}

/// The entries of one kind in file order (double-ended, exact size).
#[derive(Clone, Debug)]
pub struct Entries<'m> {
    model: &'m Model,
    kind: Kind,
    front: usize,
    back: usize,
}

macro_rules! index_iter {
    ($name:ident, $item:ident, |$s:ident, $i:ident| $at:expr) => {
        impl<'m> Iterator for $name<'m> {
            type Item = $item<'m>;
            fn next(&mut self) -> Option<$item<'m>> {
                if self.front >= self.back {
                    return None;
                }
                let ($s, $i) = (&*self, self.front);
                let item = $at;
                self.front += 1;
                item
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.back - self.front;
                (n, Some(n))
            }
            fn nth(&mut self, n: usize) -> Option<$item<'m>> {
                self.front = self.front.saturating_add(n).min(self.back);
                self.next()
            }
        }
        impl<'m> DoubleEndedIterator for $name<'m> {
            fn next_back(&mut self) -> Option<$item<'m>> {
                if self.front >= self.back {
                    return None;
                }
                self.back -= 1;
                let ($s, $i) = (&*self, self.back);
                $at
            }
        }
        impl ExactSizeIterator for $name<'_> {}
        impl FusedIterator for $name<'_> {}
    };
}

index_iter!(Types, Type, |s, i| s.model.type_at(i));
index_iter!(Methods, Method, |s, i| s.model.method_at(i));
index_iter!(Entries, Entry, |s, i| s.model.entry_at(s.kind, i));
