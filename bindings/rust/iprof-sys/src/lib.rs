//! Raw, hand-written declarations of the libiprof C API (`<iprof/iprof.h>`),
//! one for one: the same names, the same layouts, no wrappers.
//!
//! Everything here is `unsafe` to call and follows the C header's rules
//! (ownership, lifetimes, threads); see `include/iprof/*.h` and
//! `docs/api.md`. The `iprof` crate is the safe wrapper.
//!
//! Kept in sync with the headers by hand; a unit test takes the address of
//! every function declared here, so a misspelled symbol fails to link, and
//! its list has as many entries as lib/libiprof.map exports.
#![no_std]
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_double, c_int, c_uint, c_void};
use core::marker::{PhantomData, PhantomPinned};

// -------------------------------------------------------------------------
// Opaque handles. Zero-sized, !Send, !Sync, !Unpin: only ever used behind
// pointers that the library hands out.

macro_rules! opaque {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        pub struct $name {
            _p: [u8; 0],
            _marker: PhantomData<(*mut u8, PhantomPinned)>,
        }
    )*};
}

opaque! {
    /// An error or diagnostic report, owned by the handle that produced it.
    iprof_error;
    /// The streaming reader.
    iprof_reader;
    /// The in-memory model of a profile.
    iprof_model;
    /// A type of a model.
    iprof_type;
    /// A method of a model.
    iprof_method;
    /// An interned context (frame sequence) of a model.
    iprof_context;
    /// A profile entry of a model.
    iprof_entry;
    /// A writer producing one document.
    iprof_writer;
    /// The result of comparing two models (diff.h).
    iprof_diff;
}

// -------------------------------------------------------------------------
// common.h

/// `enum iprof_status`: `IPROF_OK` or a negative error code.
pub const IPROF_OK: c_int = 0;
pub const IPROF_ENOMEM: c_int = -1;
pub const IPROF_EIO: c_int = -2;
pub const IPROF_ESYNTAX: c_int = -3;
pub const IPROF_ESCHEMA: c_int = -4;
pub const IPROF_EVERSION: c_int = -5;
pub const IPROF_EDANGLING: c_int = -6;
pub const IPROF_ELIMIT: c_int = -7;
pub const IPROF_EINVAL: c_int = -8;
pub const IPROF_ESTOPPED: c_int = -9;
pub const IPROF_ESTATE: c_int = -10;
pub const IPROF_ENOTFOUND: c_int = -11;

/// Format versions (NUL-terminated, for passing to C directly). 0.2.0 is
/// GraalVM's legacy layout, read into the same model and written back in it.
pub const IPROF_FORMAT_0_2_0: &[u8; 6] = b"0.2.0\0";
pub const IPROF_FORMAT_0_4_0: &[u8; 6] = b"0.4.0\0";
pub const IPROF_FORMAT_1_0_0: &[u8; 6] = b"1.0.0\0";
pub const IPROF_FORMAT_1_1_0: &[u8; 6] = b"1.1.0\0";
pub const IPROF_FORMAT_LATEST: &[u8; 6] = IPROF_FORMAT_1_1_0;

/// `enum iprof_kind`.
pub const IPROF_KIND_CALL_COUNT: c_int = 0;
pub const IPROF_KIND_CONDITIONAL: c_int = 1;
pub const IPROF_KIND_VIRTUAL_INVOKE: c_int = 2;
pub const IPROF_KIND_MONITOR: c_int = 3;
pub const IPROF_KIND_SAMPLING: c_int = 4;
pub const IPROF_KIND_INSTANCEOF: c_int = 5;
pub const IPROF_KIND_COUNT: c_int = 6;

/// `enum iprof_instanceof_key`: the spelling of the instanceof section's key.
pub const IPROF_INSTANCEOF_KEY_AUTO: c_int = 0;
/// `"instanceofProfiles"`, the published document's spelling.
pub const IPROF_INSTANCEOF_KEY_LOWER: c_int = 1;
/// `"instanceOfProfiles"`, GraalVM 25's spelling.
pub const IPROF_INSTANCEOF_KEY_CAMEL: c_int = 2;

/// `enum iprof_severity`.
pub const IPROF_SEVERITY_ERROR: c_int = 0;
pub const IPROF_SEVERITY_WARNING: c_int = 1;

/// The two instanceof keys (NUL-terminated, for passing to C directly).
pub const IPROF_INSTANCEOF_KEY_LOWER_NAME: &[u8; 19] = b"instanceofProfiles\0";
pub const IPROF_INSTANCEOF_KEY_CAMEL_NAME: &[u8; 19] = b"instanceOfProfiles\0";

/// `iprof_features()` bits: gzip (a build with zlib), a second thread for
/// the `*_THREADED` flags (a build with POSIX threads).
pub const IPROF_FEATURE_GZIP: c_uint = 0x1;
pub const IPROF_FEATURE_THREADS: c_uint = 0x2;

pub const IPROF_ERROR_INFO_VERSION: c_uint = 1;

/// `struct iprof_error_info`, filled by `iprof_error_get_info`; the
/// strings are the report's and never NULL.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_error_info {
    pub version: c_uint,
    pub status: c_int,
    pub severity: c_int,
    /// An `IPROF_KIND_*` value, or -1 when the report names no kind.
    pub kind: c_int,
    pub message: *const c_char,
    pub path: *const c_char,
    pub context: *const c_char,
    pub offset: u64,
    pub line: u64,
    pub column: u64,
    pub has_type_id: c_int,
    pub has_method_id: c_int,
    pub type_id: i64,
    pub method_id: i64,
}

impl iprof_error_info {
    /// `IPROF_ERROR_INFO_INIT`.
    pub const INIT: iprof_error_info = iprof_error_info {
        version: IPROF_ERROR_INFO_VERSION,
        status: 0,
        severity: 0,
        kind: -1,
        message: core::ptr::null(),
        path: core::ptr::null(),
        context: core::ptr::null(),
        offset: 0,
        line: 0,
        column: 0,
        has_type_id: 0,
        has_method_id: 0,
        type_id: 0,
        method_id: 0,
    };
}

/// `struct iprof_allocator`. All three functions are required.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_allocator {
    pub malloc_fn: Option<unsafe extern "C" fn(size: usize, user: *mut c_void) -> *mut c_void>,
    pub realloc_fn: Option<
        unsafe extern "C" fn(
            ptr: *mut c_void,
            old_size: usize,
            new_size: usize,
            user: *mut c_void,
        ) -> *mut c_void,
    >,
    pub free_fn: Option<unsafe extern "C" fn(ptr: *mut c_void, size: usize, user: *mut c_void)>,
    pub user: *mut c_void,
}

// -------------------------------------------------------------------------
// analysis.h

/// GraalVM's `EXTREMELY_SLOW_PATH_PROBABILITY` (`1 - 0.999999`): the
/// probability of a branch that never ran, and the share left for receiver
/// types a profile did not record.
pub const IPROF_EXTREMELY_SLOW_PATH_PROBABILITY: c_double = 1.0 - 0.999999;
/// The bci GraalVM writes for switch cases that share their target with
/// another case (no probability of their own).
pub const IPROF_INVALID_BRANCH_BCI: i64 = -5;

// -------------------------------------------------------------------------
// diff.h

pub const IPROF_DIFF_A: c_int = 0;
pub const IPROF_DIFF_B: c_int = 1;
pub const IPROF_DIFF_OPTIONS_VERSION: c_uint = 1;
pub const IPROF_DIFF_DEFAULT_TOP: usize = 10;

/// `struct iprof_diff_options`; zero fields mean "default".
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_diff_options {
    pub version: c_uint,
    pub flags: c_uint,
    pub allocator: *const iprof_allocator,
    pub top: usize,
}

impl iprof_diff_options {
    /// `IPROF_DIFF_OPTIONS_INIT`.
    pub const INIT: iprof_diff_options = iprof_diff_options {
        version: IPROF_DIFF_OPTIONS_VERSION,
        flags: 0,
        allocator: core::ptr::null(),
        top: 0,
    };
}

pub const IPROF_DIFF_SUMMARY_VERSION: c_uint = 1;
pub const IPROF_DIFF_KIND_SUMMARY_VERSION: c_uint = 1;
pub const IPROF_DIFF_CHANGE_VERSION: c_uint = 1;

/// `struct iprof_diff_summary` (1.0), filled by `iprof_diff_get_summary`;
/// arrays indexed by `IPROF_DIFF_A`, `IPROF_DIFF_B`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_diff_summary {
    pub version: c_uint,
    pub method_only_count: [usize; 2],
    pub method_common_count: [usize; 2],
    pub staleness: c_double,
}

impl iprof_diff_summary {
    /// `IPROF_DIFF_SUMMARY_INIT`.
    pub const INIT: iprof_diff_summary = iprof_diff_summary {
        version: IPROF_DIFF_SUMMARY_VERSION,
        method_only_count: [0; 2],
        method_common_count: [0; 2],
        staleness: 0.0,
    };
}

/// `struct iprof_diff_kind_summary` (1.0), filled by `iprof_diff_get_kind`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_diff_kind_summary {
    pub version: c_uint,
    pub context_only_count: [usize; 2],
    pub context_common_count: [usize; 2],
    pub total: [u64; 2],
    pub common_total: [u64; 2],
    pub overlap: [c_double; 2],
    pub staleness: c_double,
    pub change_count: usize,
}

impl iprof_diff_kind_summary {
    /// `IPROF_DIFF_KIND_SUMMARY_INIT`.
    pub const INIT: iprof_diff_kind_summary = iprof_diff_kind_summary {
        version: IPROF_DIFF_KIND_SUMMARY_VERSION,
        context_only_count: [0; 2],
        context_common_count: [0; 2],
        total: [0; 2],
        common_total: [0; 2],
        overlap: [0.0; 2],
        staleness: 0.0,
        change_count: 0,
    };
}

/// `struct iprof_diff_change` (1.0), filled by `iprof_diff_get_change`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_diff_change {
    pub version: c_uint,
    pub entry: [*const iprof_entry; 2],
    pub value: [u64; 2],
    pub share: [c_double; 2],
    pub delta: c_double,
    pub relative: c_double,
}

impl iprof_diff_change {
    /// `IPROF_DIFF_CHANGE_INIT`.
    pub const INIT: iprof_diff_change = iprof_diff_change {
        version: IPROF_DIFF_CHANGE_VERSION,
        entry: [core::ptr::null(); 2],
        value: [0; 2],
        share: [0.0; 2],
        delta: 0.0,
        relative: 0.0,
    };
}

// -------------------------------------------------------------------------
// transform.h

/// Canonical form option: drop unknown top-level keys instead of failing.
pub const IPROF_CANONICAL_DROP_UNKNOWN: c_uint = 0x1;
/// `iprof_model_prune`: remove the methods no entry mentions.
pub const IPROF_PRUNE_METHODS: c_uint = 0x1;
/// `iprof_model_prune`: remove the types nothing mentions.
pub const IPROF_PRUNE_TYPES: c_uint = 0x2;
/// `iprof_model_prune`: remove what refers to undefined types or methods
/// (first of the three).
pub const IPROF_PRUNE_DANGLING: c_uint = 0x4;
pub const IPROF_FILTER_OPTIONS_VERSION: c_uint = 1;

/// `IPROF_KIND_BIT(kind)`: the bit of a kind in `iprof_filter_options::kinds`.
#[allow(non_snake_case)] // named as the C macro
pub const fn IPROF_KIND_BIT(kind: c_int) -> c_uint {
    1 << (kind as c_uint)
}

/// `struct iprof_filter_options`; zero fields mean "no such filter".
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_filter_options {
    pub version: c_uint,
    pub kinds: c_uint,
    pub keep_packages: *const *const c_char,
    pub keep_package_count: usize,
    pub drop_packages: *const *const c_char,
    pub drop_package_count: usize,
    pub min_count: i64,
    pub top_percent: c_double,
    /// Version 2: cut contexts to this many innermost frames; 0: no cut.
    pub max_depth: usize,
    /// Version 3: an entry with a frame this refuses goes.
    pub keep_frame: iprof_frame_pred,
    /// Version 3: an entry this refuses goes.
    pub keep_entry: iprof_model_entry_pred,
    /// Version 3: a method this refuses goes.
    pub keep_method: iprof_model_method_pred,
    /// Version 3: a type this refuses goes.
    pub keep_type: iprof_model_type_pred,
    /// Version 3: passed to every predicate.
    pub payload: *mut c_void,
}

impl iprof_filter_options {
    /// `IPROF_FILTER_OPTIONS_INIT`.
    pub const INIT: iprof_filter_options = iprof_filter_options {
        version: IPROF_FILTER_OPTIONS_VERSION,
        kinds: 0,
        keep_packages: core::ptr::null(),
        keep_package_count: 0,
        drop_packages: core::ptr::null(),
        drop_package_count: 0,
        min_count: 0,
        top_percent: 0.0,
        max_depth: 0,
        keep_frame: None,
        keep_entry: None,
        keep_method: None,
        keep_type: None,
        payload: core::ptr::null_mut(),
    };
}

// -------------------------------------------------------------------------
// reader.h

pub const IPROF_READ_STRICT: c_uint = 0x1;
pub const IPROF_READ_NO_REFERENCES: c_uint = 0x2;
/// Model loads and streaming merges only: build the model, or merge into it,
/// on a second thread while the calling thread reads (the allocator must be
/// thread-safe).
pub const IPROF_READ_THREADED: c_uint = 0x4;
/// Model loads only: keep what was read before damage (truncation, a
/// syntax error, a refused element) after the version, and succeed.
pub const IPROF_READ_SALVAGE: c_uint = 0x8;
pub const IPROF_READ_OPTIONS_VERSION: c_uint = 1;

/// `struct iprof_read_options`; zero fields mean "default".
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_read_options {
    pub version: c_uint,
    pub flags: c_uint,
    pub allocator: *const iprof_allocator,
    pub chunk_size: usize,
    pub max_element_size: usize,
    pub max_depth: usize,
    /// Diagnostics kept per read (version 2); 0: 10000, `usize::MAX`: all.
    pub max_diagnostics: usize,
}

impl iprof_read_options {
    /// `IPROF_READ_OPTIONS_INIT`.
    pub const INIT: iprof_read_options = iprof_read_options {
        version: IPROF_READ_OPTIONS_VERSION,
        flags: 0,
        allocator: core::ptr::null(),
        chunk_size: 0,
        max_element_size: 0,
        max_depth: 0,
        max_diagnostics: 0,
    };
}

pub type iprof_version_cb =
    Option<unsafe extern "C" fn(version: *const c_char, len: usize, payload: *mut c_void) -> c_int>;
pub type iprof_type_cb = Option<
    unsafe extern "C" fn(id: i64, name: *const c_char, name_len: usize, payload: *mut c_void) -> c_int,
>;
pub type iprof_method_cb = Option<
    unsafe extern "C" fn(
        id: i64,
        name: *const c_char,
        name_len: usize,
        signature: *const i64,
        signature_len: usize,
        payload: *mut c_void,
    ) -> c_int,
>;
pub type iprof_entry_cb = Option<
    unsafe extern "C" fn(
        kind: c_int,
        frames: *const i64,
        frame_count: usize,
        records: *const i64,
        record_count: usize,
        payload: *mut c_void,
    ) -> c_int,
>;
pub type iprof_unknown_cb = Option<
    unsafe extern "C" fn(
        key: *const c_char,
        key_len: usize,
        json: *const c_char,
        json_len: usize,
        payload: *mut c_void,
    ) -> c_int,
>;

/// `enum iprof_section`: what a top-level key is, besides an `IPROF_KIND_*`.
pub const IPROF_SECTION_TYPES: c_int = 6;
pub const IPROF_SECTION_METHODS: c_int = 7;
pub const IPROF_SECTION_VERSION: c_int = 8;
pub const IPROF_SECTION_UNKNOWN: c_int = 9;

pub type iprof_key_cb =
    Option<unsafe extern "C" fn(key: *const c_char, key_len: usize, section: c_int, payload: *mut c_void) -> c_int>;

pub const IPROF_READ_CALLBACKS_VERSION: c_uint = 1;

/// `struct iprof_read_callbacks`; any callback may be `None`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_read_callbacks {
    pub version: c_uint,
    pub on_version: iprof_version_cb,
    pub on_type: iprof_type_cb,
    pub on_method: iprof_method_cb,
    pub on_call_count: iprof_entry_cb,
    pub on_conditional: iprof_entry_cb,
    pub on_virtual_invoke: iprof_entry_cb,
    pub on_monitor: iprof_entry_cb,
    pub on_sampling: iprof_entry_cb,
    pub on_instanceof: iprof_entry_cb,
    pub on_unknown: iprof_unknown_cb,
    pub on_key: iprof_key_cb,
}

impl iprof_read_callbacks {
    /// `IPROF_READ_CALLBACKS_INIT`.
    pub const INIT: iprof_read_callbacks = iprof_read_callbacks {
        version: IPROF_READ_CALLBACKS_VERSION,
        on_version: None,
        on_type: None,
        on_method: None,
        on_call_count: None,
        on_conditional: None,
        on_virtual_invoke: None,
        on_monitor: None,
        on_sampling: None,
        on_instanceof: None,
        on_unknown: None,
        on_key: None,
    };
}

pub type iprof_read_fn = Option<
    unsafe extern "C" fn(buf: *mut c_void, capacity: usize, len: *mut usize, payload: *mut c_void) -> c_int,
>;

pub const IPROF_READ_RESULT_VERSION: c_uint = 1;

/// `struct iprof_read_result`, filled by `iprof_reader_get_result`; the
/// pointers are the reader's, valid until its next read or its free.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_read_result {
    pub version: c_uint,
    pub diag_count: usize,
    pub dropped_errors: usize,
    pub dropped_warnings: usize,
    pub unread_count: usize,
    pub unread_first: *const c_char,
    pub damage: *const iprof_error,
    pub kept_end: u64,
}

impl iprof_read_result {
    /// `IPROF_READ_RESULT_INIT`.
    pub const INIT: iprof_read_result = iprof_read_result {
        version: IPROF_READ_RESULT_VERSION,
        diag_count: 0,
        dropped_errors: 0,
        dropped_warnings: 0,
        unread_count: 0,
        unread_first: core::ptr::null(),
        damage: core::ptr::null(),
        kept_end: 0,
    };
}

// -------------------------------------------------------------------------
// model.h

pub type iprof_model_type_cb =
    Option<unsafe extern "C" fn(type_: *const iprof_type, payload: *mut c_void) -> c_int>;
pub type iprof_model_method_cb =
    Option<unsafe extern "C" fn(method: *const iprof_method, payload: *mut c_void) -> c_int>;
pub type iprof_model_entry_cb =
    Option<unsafe extern "C" fn(entry: *const iprof_entry, payload: *mut c_void) -> c_int>;

/// Retain predicates: the function types of the `*_cb` ones, but non-zero
/// keeps the element (where a callback's non-zero stops).
pub type iprof_model_type_pred =
    Option<unsafe extern "C" fn(type_: *const iprof_type, payload: *mut c_void) -> c_int>;
pub type iprof_model_method_pred =
    Option<unsafe extern "C" fn(method: *const iprof_method, payload: *mut c_void) -> c_int>;
pub type iprof_model_entry_pred =
    Option<unsafe extern "C" fn(entry: *const iprof_entry, payload: *mut c_void) -> c_int>;

/// `iprof_filter_options.keep_frame` predicate: non-zero keeps the frame.
pub type iprof_frame_pred = Option<unsafe extern "C" fn(method_id: i64, bci: i64, payload: *mut c_void) -> c_int>;
/// `iprof_model_map_records` function: edit the records in place, return
/// 0 to go on, non-zero to stop.
pub type iprof_records_fn = Option<
    unsafe extern "C" fn(entry: *const iprof_entry, records: *mut i64, record_count: usize, payload: *mut c_void) -> c_int,
>;

/// `enum iprof_rounding`: how a count times a weight that is not a whole
/// number is rounded.
pub const IPROF_ROUND_NEAREST_AWAY: c_int = 0;
pub const IPROF_ROUND_NEAREST_EVEN: c_int = 1;
pub const IPROF_ROUND_FLOOR: c_int = 2;

/// `iprof_model_remove_method` flag: also every entry naming the method.
pub const IPROF_REMOVE_CASCADE: c_uint = 0x1;

/// Merge option: drop the unknown top-level keys of both models.
pub const IPROF_MERGE_DROP_UNKNOWN: c_uint = 0x1;
/// Merge option: merge on a second thread while the calling one walks or
/// reads the source.
pub const IPROF_MERGE_THREADED: c_uint = 0x2;
pub const IPROF_MERGE_OPTIONS_VERSION: c_uint = 1;

/// `struct iprof_merge_options`; `weight` defaults to 1.0, not 0.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_merge_options {
    pub version: c_uint,
    pub flags: c_uint,
    pub weight: c_double,
    /// An `IPROF_ROUND_*` value.
    pub rounding: c_int,
}

impl iprof_merge_options {
    /// `IPROF_MERGE_OPTIONS_INIT`.
    pub const INIT: iprof_merge_options = iprof_merge_options {
        version: IPROF_MERGE_OPTIONS_VERSION,
        flags: 0,
        weight: 1.0,
        rounding: IPROF_ROUND_NEAREST_AWAY,
    };
}

/// The version of `struct iprof_columns` these declarations mirror.
pub const IPROF_COLUMNS_VERSION: c_uint = 1;

/// `struct iprof_columns`: a kind's entries as columns, filled by
/// `iprof_model_columns`; the arrays belong to the model (valid until the
/// kind's entries change or the model is freed).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_columns {
    /// Set by the caller: 1 .. `IPROF_COLUMNS_VERSION`.
    pub version: c_uint,
    pub kind: c_int,
    pub count: usize,
    pub record_count: usize,
    pub records: *const i64,
    /// `count + 1` offsets into `records`.
    pub offsets: *const u64,
    pub contexts: *const *const iprof_context,
    pub frame_count: usize,
    /// `2 * frame_count` values: (method id, bci) pairs, callee first.
    pub frames: *const i64,
    /// `count + 1` offsets into `frames`, in pairs.
    pub frame_offsets: *const u64,
}

impl iprof_columns {
    /// `IPROF_COLUMNS_INIT`.
    pub const INIT: iprof_columns = iprof_columns {
        version: IPROF_COLUMNS_VERSION,
        kind: 0,
        count: 0,
        record_count: 0,
        records: core::ptr::null(),
        offsets: core::ptr::null(),
        contexts: core::ptr::null(),
        frame_count: 0,
        frames: core::ptr::null(),
        frame_offsets: core::ptr::null(),
    };
}

// -------------------------------------------------------------------------
// writer.h

pub const IPROF_WRITE_PRETTY: c_uint = 0x1;
pub const IPROF_WRITE_DROP_INSTANCEOF: c_uint = 0x2;
pub const IPROF_WRITE_NO_VALIDATE: c_uint = 0x8;
pub const IPROF_WRITE_NO_SYNC: c_uint = 0x10;
pub const IPROF_WRITE_GZIP: c_uint = 0x20;
/// Check the entry rules only, not references, unique ids and signature
/// lengths (which the writer checks by default).
pub const IPROF_WRITE_NO_REFERENCES: c_uint = 0x40;
/// `write_model` writes the model's canonical form, without changing it.
pub const IPROF_WRITE_CANONICAL: c_uint = 0x80;
/// With `IPROF_WRITE_CANONICAL`: sort and format on a second thread (same bytes).
pub const IPROF_WRITE_THREADED: c_uint = 0x100;
pub const IPROF_WRITE_DROP_UNKNOWN: c_uint = 0x200;
pub const IPROF_WRITE_OPTIONS_VERSION: c_uint = 1;

/// `struct iprof_write_options`; zero fields mean "default".
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_write_options {
    pub version: c_uint,
    pub flags: c_uint,
    pub format_version: *const c_char,
    pub allocator: *const iprof_allocator,
    pub buffer_size: usize,
    /// An `IPROF_INSTANCEOF_KEY_*` value (version 2).
    pub instanceof_key: c_int,
}

impl iprof_write_options {
    /// `IPROF_WRITE_OPTIONS_INIT`.
    pub const INIT: iprof_write_options = iprof_write_options {
        version: IPROF_WRITE_OPTIONS_VERSION,
        flags: 0,
        format_version: core::ptr::null(),
        allocator: core::ptr::null(),
        buffer_size: 0,
        instanceof_key: IPROF_INSTANCEOF_KEY_AUTO,
    };
}

pub type iprof_write_fn =
    Option<unsafe extern "C" fn(data: *const c_void, len: usize, payload: *mut c_void) -> c_int>;

// -------------------------------------------------------------------------
// Sources and sinks (1.0: iprof.h; today reader.h and writer.h)

pub const IPROF_SOURCE_BUFFER: c_int = 0;
pub const IPROF_SOURCE_PATH: c_int = 1;
pub const IPROF_SOURCE_FD: c_int = 2;
pub const IPROF_SOURCE_CALLBACK: c_int = 3;
pub const IPROF_SOURCE_VERSION: c_uint = 1;

/// `struct iprof_source`: a kind and that kind's fields.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_source {
    pub version: c_uint,
    pub kind: c_int,
    pub data: *const c_void,
    pub len: usize,
    pub path: *const c_char,
    pub fd: c_int,
    pub read_fn: iprof_read_fn,
    pub read_payload: *mut c_void,
}

pub const IPROF_SINK_BUFFER: c_int = 0;
pub const IPROF_SINK_PATH: c_int = 1;
pub const IPROF_SINK_FD: c_int = 2;
pub const IPROF_SINK_CALLBACK: c_int = 3;
pub const IPROF_SINK_VERSION: c_uint = 1;

/// `struct iprof_sink`: a kind and that kind's fields.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct iprof_sink {
    pub version: c_uint,
    pub kind: c_int,
    pub path: *const c_char,
    pub fd: c_int,
    pub write_fn: iprof_write_fn,
    pub write_payload: *mut c_void,
}

// -------------------------------------------------------------------------
// Functions

extern "C" {
    // common.h
    pub fn iprof_status_string(status: c_int) -> *const c_char;
    pub fn iprof_version_string() -> *const c_char;
    pub fn iprof_kind_name(kind: c_int) -> *const c_char;
    /// An `IPROF_KIND_*` value, or -1 when the report names no kind.
    /// The ctx text the report is about, "" for none; never NULL.
    pub fn iprof_features() -> c_uint;
    pub fn iprof_error_get_info(err: *const iprof_error, out: *mut iprof_error_info) -> c_int;

    // reader.h
    pub fn iprof_read_options_init(opts: *mut iprof_read_options, version: c_uint) -> c_int;
    pub fn iprof_reader_new(out: *mut *mut iprof_reader, opts: *const iprof_read_options) -> c_int;
    pub fn iprof_reader_free(reader: *mut iprof_reader);
    pub fn iprof_reader_read(
        reader: *mut iprof_reader,
        source: *const iprof_source,
        callbacks: *const iprof_read_callbacks,
        payload: *mut c_void,
    ) -> c_int;
    pub fn iprof_reader_error(reader: *const iprof_reader) -> *const iprof_error;
    pub fn iprof_reader_diag(reader: *const iprof_reader, index: usize) -> *const iprof_error;
    pub fn iprof_reader_get_result(reader: *const iprof_reader, out: *mut iprof_read_result) -> c_int;

    // model.h: creating and loading
    pub fn iprof_model_new(out: *mut *mut iprof_model, allocator: *const iprof_allocator) -> c_int;
    pub fn iprof_model_free(model: *mut iprof_model);
    pub fn iprof_model_build_indexes(model: *mut iprof_model) -> c_int;
    pub fn iprof_model_load(
        out: *mut *mut iprof_model,
        reader: *mut iprof_reader,
        source: *const iprof_source,
    ) -> c_int;
    pub fn iprof_model_version(model: *const iprof_model) -> *const c_char;
    pub fn iprof_model_set_version(model: *mut iprof_model, version: *const c_char) -> c_int;

    // model.h: types
    pub fn iprof_model_type_count(model: *const iprof_model) -> usize;
    pub fn iprof_model_type_at(model: *const iprof_model, index: usize) -> *const iprof_type;
    pub fn iprof_model_type_by_id(model: *const iprof_model, id: i64) -> *const iprof_type;
    pub fn iprof_model_type_by_name(
        model: *const iprof_model,
        name: *const c_char,
        name_len: usize,
    ) -> *const iprof_type;
    pub fn iprof_type_id(type_: *const iprof_type) -> i64;
    pub fn iprof_type_name(type_: *const iprof_type, len: *mut usize) -> *const c_char;

    // model.h: methods
    pub fn iprof_model_method_count(model: *const iprof_model) -> usize;
    pub fn iprof_model_method_at(model: *const iprof_model, index: usize) -> *const iprof_method;
    pub fn iprof_model_method_by_id(model: *const iprof_model, id: i64) -> *const iprof_method;
    pub fn iprof_model_method_find(
        model: *const iprof_model,
        name: *const c_char,
        name_len: usize,
        signature: *const i64,
        signature_len: usize,
    ) -> *const iprof_method;
    pub fn iprof_method_id(method: *const iprof_method) -> i64;
    pub fn iprof_method_name(method: *const iprof_method, len: *mut usize) -> *const c_char;
    pub fn iprof_method_signature(method: *const iprof_method, len: *mut usize) -> *const i64;
    pub fn iprof_model_method_describe(
        model: *const iprof_model,
        method: *const iprof_method,
        buf: *mut c_char,
        size: usize,
    ) -> usize;

    // model.h: contexts
    pub fn iprof_context_depth(ctx: *const iprof_context) -> usize;
    pub fn iprof_context_method_id(ctx: *const iprof_context) -> i64;
    pub fn iprof_context_bci(ctx: *const iprof_context) -> i64;
    pub fn iprof_context_caller(ctx: *const iprof_context) -> *const iprof_context;
    pub fn iprof_context_frames(ctx: *const iprof_context, frames: *mut i64, max_frames: usize) -> usize;
    pub fn iprof_context_format(ctx: *const iprof_context, buf: *mut c_char, size: usize) -> usize;
    pub fn iprof_model_context_describe(
        model: *const iprof_model,
        ctx: *const iprof_context,
        buf: *mut c_char,
        size: usize,
    ) -> usize;
    pub fn iprof_model_context_count(model: *const iprof_model) -> usize;

    // model.h: entries
    pub fn iprof_model_entry_count(model: *const iprof_model, kind: c_int) -> usize;
    pub fn iprof_model_entry_at(model: *const iprof_model, kind: c_int, index: usize) -> *const iprof_entry;
    pub fn iprof_model_entry_find(
        model: *const iprof_model,
        kind: c_int,
        frames: *const i64,
        frame_count: usize,
    ) -> *const iprof_entry;
    pub fn iprof_entry_kind(entry: *const iprof_entry) -> c_int;
    pub fn iprof_entry_context(entry: *const iprof_entry) -> *const iprof_context;
    pub fn iprof_entry_records(entry: *const iprof_entry, len: *mut usize) -> *const i64;
    /// `iprof_model_columns` under its 1.0 name (declared so that every
    /// export is; the crates above call `iprof_model_columns` until 1.0).
    pub fn iprof_model_get_columns(model: *const iprof_model, kind: c_int, out: *mut iprof_columns) -> c_int;

    // model.h: iteration by callback

    // model.h: mutation
    pub fn iprof_model_add_type(
        model: *mut iprof_model,
        id: i64,
        name: *const c_char,
        name_len: usize,
        out: *mut *const iprof_type,
    ) -> c_int;
    pub fn iprof_model_remove_type(model: *mut iprof_model, id: i64) -> c_int;
    pub fn iprof_model_add_method(
        model: *mut iprof_model,
        id: i64,
        name: *const c_char,
        name_len: usize,
        signature: *const i64,
        signature_len: usize,
        out: *mut *const iprof_method,
    ) -> c_int;
    pub fn iprof_model_remove_method(model: *mut iprof_model, id: i64, flags: c_uint) -> c_int;
    pub fn iprof_model_add_entry(
        model: *mut iprof_model,
        kind: c_int,
        frames: *const i64,
        frame_count: usize,
        records: *const i64,
        record_count: usize,
    ) -> c_int;
    pub fn iprof_model_remove_entry(
        model: *mut iprof_model,
        kind: c_int,
        frames: *const i64,
        frame_count: usize,
    ) -> c_int;

    // model.h: editing records
    pub fn iprof_model_set_entry_records(
        model: *mut iprof_model,
        kind: c_int,
        frames: *const i64,
        frame_count: usize,
        records: *const i64,
        record_count: usize,
    ) -> c_int;
    pub fn iprof_model_map_records(model: *mut iprof_model, kind: c_int, fn_: iprof_records_fn, payload: *mut c_void) -> c_int;
    pub fn iprof_model_scale(model: *mut iprof_model, kind: c_int, weight: c_double, rounding: c_int) -> c_int;

    // model.h: merge
    pub fn iprof_merge_options_init(opts: *mut iprof_merge_options, version: c_uint) -> c_int;
    pub fn iprof_model_merge(
        dst: *mut iprof_model,
        src: *const iprof_model,
        opts: *const iprof_merge_options,
    ) -> c_int;
    pub fn iprof_model_merge_source(
        dst: *mut iprof_model,
        reader: *mut iprof_reader,
        source: *const iprof_source,
        opts: *const iprof_merge_options,
    ) -> c_int;

    // model.h: what the file held beyond the profile
    pub fn iprof_model_unknown_count(model: *const iprof_model) -> usize;
    pub fn iprof_model_unread_count(model: *const iprof_model, first: *mut *const c_char) -> usize;
    pub fn iprof_model_unknown_at(
        model: *const iprof_model,
        index: usize,
        key: *mut *const c_char,
        key_len: *mut usize,
        json: *mut *const c_char,
        json_len: *mut usize,
    ) -> c_int;
    pub fn iprof_model_add_unknown(
        model: *mut iprof_model,
        key: *const c_char,
        key_len: usize,
        json: *const c_char,
        json_len: usize,
    ) -> c_int;
    pub fn iprof_model_remove_unknown(model: *mut iprof_model, key: *const c_char, key_len: usize) -> c_int;
    pub fn iprof_model_instanceof_key(model: *const iprof_model) -> c_int;
    pub fn iprof_model_set_instanceof_key(model: *mut iprof_model, spelling: c_int) -> c_int;
    pub fn iprof_model_error(model: *const iprof_model) -> *const iprof_error;

    // writer.h
    pub fn iprof_write_options_init(opts: *mut iprof_write_options, version: c_uint) -> c_int;
    pub fn iprof_writer_new(
        out: *mut *mut iprof_writer,
        sink: *const iprof_sink,
        opts: *const iprof_write_options,
    ) -> c_int;
    pub fn iprof_writer_free(writer: *mut iprof_writer);
    pub fn iprof_writer_begin(writer: *mut iprof_writer, format_version: *const c_char) -> c_int;
    pub fn iprof_writer_type(writer: *mut iprof_writer, id: i64, name: *const c_char, name_len: usize) -> c_int;
    pub fn iprof_writer_method(
        writer: *mut iprof_writer,
        id: i64,
        name: *const c_char,
        name_len: usize,
        signature: *const i64,
        signature_len: usize,
    ) -> c_int;
    pub fn iprof_writer_entry(
        writer: *mut iprof_writer,
        kind: c_int,
        frames: *const i64,
        frame_count: usize,
        records: *const i64,
        record_count: usize,
    ) -> c_int;
    pub fn iprof_writer_end(writer: *mut iprof_writer) -> c_int;
    /// Bytes that are not a profile (a report) through the writer's sink.
    pub fn iprof_writer_raw(writer: *mut iprof_writer, data: *const c_void, len: usize) -> c_int;
    pub fn iprof_writer_unknown(
        writer: *mut iprof_writer,
        key: *const c_char,
        key_len: usize,
        json: *const c_char,
        json_len: usize,
    ) -> c_int;
    pub fn iprof_writer_write_model(writer: *mut iprof_writer, model: *const iprof_model) -> c_int;
    pub fn iprof_writer_error(writer: *const iprof_writer) -> *const iprof_error;
    pub fn iprof_writer_buffer(writer: *const iprof_writer, data: *mut *const c_void, len: *mut usize) -> c_int;
    // transform.h
    pub fn iprof_model_canonicalize(model: *mut iprof_model, flags: c_uint) -> c_int;
    pub fn iprof_filter_options_init(opts: *mut iprof_filter_options, version: c_uint) -> c_int;
    pub fn iprof_model_filter(model: *mut iprof_model, opts: *const iprof_filter_options) -> c_int;
    pub fn iprof_package_matches(package: *const c_char, type_name: *const c_char, type_name_len: usize) -> c_int;
    pub fn iprof_model_prune(model: *mut iprof_model, what: c_uint) -> c_int;
    // analysis.h
    pub fn iprof_entry_branch_probabilities(
        entry: *const iprof_entry,
        bcis: *mut i64,
        probabilities: *mut c_double,
        capacity: usize,
        count: *mut usize,
    ) -> c_int;
    pub fn iprof_entry_type_shares(
        entry: *const iprof_entry,
        types: *mut i64,
        shares: *mut c_double,
        capacity: usize,
        count: *mut usize,
        not_recorded: *mut c_double,
    ) -> c_int;
    pub fn iprof_entry_total(entry: *const iprof_entry) -> i64;
    pub fn iprof_model_method_totals(
        model: *const iprof_model,
        kind: c_int,
        method_ids: *mut i64,
        totals: *mut i64,
        capacity: usize,
        count: *mut usize,
    ) -> c_int;
    // diff.h
    pub fn iprof_diff_options_init(opts: *mut iprof_diff_options, version: c_uint) -> c_int;
    pub fn iprof_diff_new(
        out: *mut *mut iprof_diff,
        a: *const iprof_model,
        b: *const iprof_model,
        opts: *const iprof_diff_options,
    ) -> c_int;
    pub fn iprof_diff_free(diff: *mut iprof_diff);
    pub fn iprof_diff_method_only_at(diff: *const iprof_diff, side: c_int, index: usize) -> *const iprof_method;
    pub fn iprof_diff_get_summary(diff: *const iprof_diff, out: *mut iprof_diff_summary) -> c_int;
    pub fn iprof_diff_get_kind(diff: *const iprof_diff, kind: c_int, out: *mut iprof_diff_kind_summary) -> c_int;
    pub fn iprof_diff_get_change(
        diff: *const iprof_diff,
        kind: c_int,
        index: usize,
        out: *mut iprof_diff_change,
    ) -> c_int;
}

mod names;
pub use names::library_file_names;

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{align_of, offset_of, size_of};

    // Each system's file names, whatever system runs the test.
    #[test]
    fn library_file_names_per_system() {
        assert_eq!(library_file_names("linux"), ["libiprof.so", "libiprof.so.1"]);
        assert_eq!(library_file_names("freebsd"), ["libiprof.so", "libiprof.so.1"]);
        assert_eq!(library_file_names("macos"), ["libiprof.dylib", "libiprof.1.dylib"]);
        assert_eq!(library_file_names("windows"), ["iprof.dll.a", "iprof.dll"]);
    }

    // The layouts of the C structs on LP64 and ILP32 alike: pointers and
    // size_t have the same size on every target libiprof supports.
    const P: usize = size_of::<usize>();

    #[test]
    fn diff_options_layout() {
        assert_eq!(offset_of!(iprof_diff_options, version), 0);
        assert_eq!(offset_of!(iprof_diff_options, flags), 4);
        assert_eq!(offset_of!(iprof_diff_options, allocator), 8);
        assert_eq!(offset_of!(iprof_diff_options, top), 8 + P);
        assert_eq!(size_of::<iprof_diff_options>(), 8 + 2 * P);
        assert_eq!(align_of::<iprof_diff_options>(), P);
    }

    // The 1.0 diff results on LP64 (what gcc's offsetof gives on x86_64).
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn diff_result_layouts() {
        assert_eq!(offset_of!(iprof_diff_summary, method_only_count), 8);
        assert_eq!(offset_of!(iprof_diff_summary, method_common_count), 24);
        assert_eq!(offset_of!(iprof_diff_summary, staleness), 40);
        assert_eq!(size_of::<iprof_diff_summary>(), 48);
        assert_eq!(offset_of!(iprof_diff_kind_summary, context_only_count), 8);
        assert_eq!(offset_of!(iprof_diff_kind_summary, context_common_count), 24);
        assert_eq!(offset_of!(iprof_diff_kind_summary, total), 40);
        assert_eq!(offset_of!(iprof_diff_kind_summary, common_total), 56);
        assert_eq!(offset_of!(iprof_diff_kind_summary, overlap), 72);
        assert_eq!(offset_of!(iprof_diff_kind_summary, staleness), 88);
        assert_eq!(offset_of!(iprof_diff_kind_summary, change_count), 96);
        assert_eq!(size_of::<iprof_diff_kind_summary>(), 104);
        assert_eq!(offset_of!(iprof_diff_change, entry), 8);
        assert_eq!(offset_of!(iprof_diff_change, value), 24);
        assert_eq!(offset_of!(iprof_diff_change, share), 40);
        assert_eq!(offset_of!(iprof_diff_change, delta), 56);
        assert_eq!(offset_of!(iprof_diff_change, relative), 64);
        assert_eq!(size_of::<iprof_diff_change>(), 72);
    }

    #[test]
    fn filter_options_layout() {
        assert_eq!(offset_of!(iprof_filter_options, version), 0);
        assert_eq!(offset_of!(iprof_filter_options, kinds), 4);
        assert_eq!(offset_of!(iprof_filter_options, keep_packages), 8);
        assert_eq!(offset_of!(iprof_filter_options, keep_package_count), 8 + P);
        assert_eq!(offset_of!(iprof_filter_options, drop_packages), 8 + 2 * P);
        assert_eq!(offset_of!(iprof_filter_options, drop_package_count), 8 + 3 * P);
        assert_eq!(offset_of!(iprof_filter_options, min_count), 8 + 4 * P);
        assert_eq!(offset_of!(iprof_filter_options, top_percent), 8 + 4 * P + 8);
        assert_eq!(offset_of!(iprof_filter_options, max_depth), 8 + 4 * P + 16);
        assert_eq!(offset_of!(iprof_filter_options, keep_frame), 8 + 5 * P + 16);
        assert_eq!(offset_of!(iprof_filter_options, payload), 8 + 9 * P + 16);
        assert_eq!(size_of::<iprof_filter_options>(), 8 + 10 * P + 16);
    }

    #[test]
    fn read_options_layout() {
        assert_eq!(offset_of!(iprof_read_options, version), 0);
        assert_eq!(offset_of!(iprof_read_options, flags), 4);
        assert_eq!(offset_of!(iprof_read_options, allocator), 8);
        assert_eq!(offset_of!(iprof_read_options, chunk_size), 8 + P);
        assert_eq!(offset_of!(iprof_read_options, max_element_size), 8 + 2 * P);
        assert_eq!(offset_of!(iprof_read_options, max_depth), 8 + 3 * P);
        assert_eq!(offset_of!(iprof_read_options, max_diagnostics), 8 + 4 * P);
        assert_eq!(size_of::<iprof_read_options>(), 8 + 5 * P);
        assert_eq!(align_of::<iprof_read_options>(), P.max(4));
    }

    #[test]
    fn write_options_layout() {
        assert_eq!(offset_of!(iprof_write_options, format_version), 8);
        assert_eq!(offset_of!(iprof_write_options, allocator), 8 + P);
        assert_eq!(offset_of!(iprof_write_options, buffer_size), 8 + 2 * P);
        assert_eq!(offset_of!(iprof_write_options, instanceof_key), 8 + 3 * P);
        assert_eq!(size_of::<iprof_write_options>(), 8 + 4 * P);
    }

    #[test]
    fn columns_layout() {
        assert_eq!(offset_of!(iprof_columns, version), 0);
        assert_eq!(offset_of!(iprof_columns, kind), 4);
        assert_eq!(offset_of!(iprof_columns, count), 8);
        assert_eq!(offset_of!(iprof_columns, record_count), 8 + P);
        assert_eq!(offset_of!(iprof_columns, records), 8 + 2 * P);
        assert_eq!(offset_of!(iprof_columns, offsets), 8 + 3 * P);
        assert_eq!(offset_of!(iprof_columns, contexts), 8 + 4 * P);
        assert_eq!(offset_of!(iprof_columns, frame_count), 8 + 5 * P);
        assert_eq!(offset_of!(iprof_columns, frames), 8 + 6 * P);
        assert_eq!(offset_of!(iprof_columns, frame_offsets), 8 + 7 * P);
        assert_eq!(size_of::<iprof_columns>(), 8 + 8 * P);
    }

    #[test]
    fn merge_options_layout() {
        assert_eq!(offset_of!(iprof_merge_options, version), 0);
        assert_eq!(offset_of!(iprof_merge_options, flags), 4);
        assert_eq!(offset_of!(iprof_merge_options, weight), 8);
        assert_eq!(offset_of!(iprof_merge_options, rounding), 16);
        // 20 bytes, padded to the alignment of double (8 on LP64, 4 on i386).
        assert_eq!(size_of::<iprof_merge_options>(), 16 + align_of::<c_double>().max(4));
    }

    #[test]
    fn error_info_layout() {
        assert_eq!(offset_of!(iprof_error_info, kind), 12);
        assert_eq!(offset_of!(iprof_error_info, message), 16);
        assert_eq!(offset_of!(iprof_error_info, context), 16 + 2 * P);
        let o = (16 + 3 * P).next_multiple_of(align_of::<u64>());
        assert_eq!(offset_of!(iprof_error_info, offset), o);
        assert_eq!(offset_of!(iprof_error_info, column), o + 16);
        assert_eq!(offset_of!(iprof_error_info, has_type_id), o + 24);
        assert_eq!(offset_of!(iprof_error_info, has_method_id), o + 28);
        assert_eq!(offset_of!(iprof_error_info, type_id), o + 32);
        assert_eq!(offset_of!(iprof_error_info, method_id), o + 40);
        assert_eq!(size_of::<iprof_error_info>(), o + 48);
    }

    #[test]
    fn read_result_layout() {
        assert_eq!(offset_of!(iprof_read_result, diag_count), P);
        assert_eq!(offset_of!(iprof_read_result, unread_count), 4 * P);
        assert_eq!(offset_of!(iprof_read_result, damage), 6 * P);
        let k = (7 * P).next_multiple_of(align_of::<u64>());
        assert_eq!(offset_of!(iprof_read_result, kept_end), k);
        assert_eq!(size_of::<iprof_read_result>(), k + 8);
    }

    /// The one-call forms on nothing: a NULL report, a fresh reader.
    #[test]
    fn one_call_reports_match_the_library() {
        unsafe {
            let mut info = iprof_error_info::INIT;
            assert_eq!(iprof_error_get_info(core::ptr::null(), &mut info), IPROF_OK);
            assert_eq!((info.status, info.kind), (IPROF_OK, -1));
            assert_eq!(*info.message, 0);
            info.version = 99;
            assert_eq!(iprof_error_get_info(core::ptr::null(), &mut info), IPROF_EINVAL);
            let mut reader: *mut iprof_reader = core::ptr::null_mut();
            assert_eq!(iprof_reader_new(&mut reader, core::ptr::null()), IPROF_OK);
            let mut res = iprof_read_result::INIT;
            assert_eq!(iprof_reader_get_result(reader, &mut res), IPROF_OK);
            assert_eq!((res.diag_count, res.unread_count, res.kept_end), (0, 0, 0));
            iprof_reader_free(reader);
            // Only the two bits; the iprof crate's
            // gzip_supported_matches_the_writer ties the gzip bit to what a
            // writer does.
            assert_eq!(iprof_features() & !(IPROF_FEATURE_GZIP | IPROF_FEATURE_THREADS), 0);
        }
    }

    #[test]
    fn callbacks_layout() {
        assert_eq!(offset_of!(iprof_read_callbacks, on_version), P);
        assert_eq!(offset_of!(iprof_read_callbacks, on_unknown), 10 * P);
        assert_eq!(offset_of!(iprof_read_callbacks, on_key), 11 * P);
        assert_eq!(size_of::<iprof_read_callbacks>(), 12 * P);
        assert_eq!(size_of::<iprof_allocator>(), 4 * P);
        assert_eq!(size_of::<iprof_source>(), 8 + 6 * P);
        assert_eq!(size_of::<iprof_sink>(), 8 + 4 * P);
    }

    #[test]
    fn options_init_matches_the_library() {
        unsafe {
            let mut r = core::mem::zeroed::<iprof_read_options>();
            assert_eq!(iprof_read_options_init(&mut r, IPROF_READ_OPTIONS_VERSION), IPROF_OK);
            assert_eq!(r.version, iprof_read_options::INIT.version);
            assert_eq!(r.flags, 0);
            assert!(r.allocator.is_null());
            assert_eq!((r.chunk_size, r.max_element_size, r.max_depth), (0, 0, 0));
            assert_eq!(iprof_read_options_init(&mut r, 99), IPROF_EINVAL);
            let mut w = core::mem::zeroed::<iprof_write_options>();
            assert_eq!(iprof_write_options_init(&mut w, IPROF_WRITE_OPTIONS_VERSION), IPROF_OK);
            assert_eq!(w.version, iprof_write_options::INIT.version);
            assert!(w.format_version.is_null());
            assert_eq!(w.instanceof_key, IPROF_INSTANCEOF_KEY_AUTO);
            assert_eq!(iprof_write_options_init(&mut w, 99), IPROF_EINVAL);
            let mut m = core::mem::zeroed::<iprof_merge_options>();
            m.flags = 3;
            m.rounding = 2;
            assert_eq!(iprof_merge_options_init(&mut m, IPROF_MERGE_OPTIONS_VERSION), IPROF_OK);
            assert_eq!((m.version, m.flags, m.weight), (iprof_merge_options::INIT.version, 0, 1.0));
            assert_eq!(m.rounding, IPROF_ROUND_NEAREST_AWAY);
            assert_eq!(iprof_merge_options_init(&mut m, 99), IPROF_EINVAL);
            let mut f = core::mem::zeroed::<iprof_filter_options>();
            f.min_count = 5;
            assert_eq!(iprof_filter_options_init(&mut f, IPROF_FILTER_OPTIONS_VERSION), IPROF_OK);
            assert_eq!((f.version, f.kinds), (iprof_filter_options::INIT.version, 0));
            assert!(f.keep_packages.is_null() && f.drop_packages.is_null());
            assert_eq!((f.keep_package_count, f.drop_package_count, f.min_count), (0, 0, 0));
            assert_eq!(f.top_percent, 0.0);
            assert!(f.keep_frame.is_none() && f.keep_entry.is_none() && f.payload.is_null());
            assert_eq!(iprof_filter_options_init(&mut f, 99), IPROF_EINVAL);
            let mut d = core::mem::zeroed::<iprof_diff_options>();
            d.top = 3;
            assert_eq!(iprof_diff_options_init(&mut d, IPROF_DIFF_OPTIONS_VERSION), IPROF_OK);
            assert_eq!((d.version, d.flags, d.top), (iprof_diff_options::INIT.version, 0, 0));
            assert!(d.allocator.is_null());
            assert_eq!(iprof_diff_options_init(&mut d, 99), IPROF_EINVAL);
        }
    }
    /// The number of functions libiprof exports (lib/libiprof.map) and
    /// this crate declares.
    const FUNCTION_COUNT: usize = 96;

    /// Every exported symbol of lib/libiprof.map is declared and links:
    /// taking the address of each forces the linker to resolve it.
    #[test]
    fn every_function_links() {
        let addrs: [*const (); FUNCTION_COUNT] = [
            iprof_status_string as *const (),
            iprof_version_string as *const (),
            iprof_kind_name as *const (),
            iprof_features as *const (),
            iprof_error_get_info as *const (),
            iprof_read_options_init as *const (),
            iprof_reader_new as *const (),
            iprof_reader_free as *const (),
            iprof_reader_read as *const (),
            iprof_reader_error as *const (),
            iprof_reader_diag as *const (),
            iprof_reader_get_result as *const (),
            iprof_model_new as *const (),
            iprof_model_build_indexes as *const (),
            iprof_model_free as *const (),
            iprof_model_load as *const (),
            iprof_model_version as *const (),
            iprof_model_set_version as *const (),
            iprof_model_type_count as *const (),
            iprof_model_type_at as *const (),
            iprof_model_type_by_id as *const (),
            iprof_model_type_by_name as *const (),
            iprof_type_id as *const (),
            iprof_type_name as *const (),
            iprof_model_method_count as *const (),
            iprof_model_method_at as *const (),
            iprof_model_method_by_id as *const (),
            iprof_model_method_find as *const (),
            iprof_method_id as *const (),
            iprof_method_name as *const (),
            iprof_method_signature as *const (),
            iprof_model_method_describe as *const (),
            iprof_context_depth as *const (),
            iprof_context_method_id as *const (),
            iprof_context_bci as *const (),
            iprof_context_caller as *const (),
            iprof_context_frames as *const (),
            iprof_context_format as *const (),
            iprof_model_context_describe as *const (),
            iprof_model_context_count as *const (),
            iprof_model_entry_count as *const (),
            iprof_model_entry_at as *const (),
            iprof_model_entry_find as *const (),
            iprof_entry_kind as *const (),
            iprof_entry_context as *const (),
            iprof_entry_records as *const (),
            iprof_model_get_columns as *const (),
            iprof_model_add_type as *const (),
            iprof_model_remove_type as *const (),
            iprof_model_add_method as *const (),
            iprof_model_remove_method as *const (),
            iprof_model_add_entry as *const (),
            iprof_model_remove_entry as *const (),
            iprof_model_set_entry_records as *const (),
            iprof_model_map_records as *const (),
            iprof_model_scale as *const (),
            iprof_model_merge as *const (),
            iprof_merge_options_init as *const (),
            iprof_model_merge_source as *const (),
            iprof_model_unknown_count as *const (),
            iprof_model_unread_count as *const (),
            iprof_model_unknown_at as *const (),
            iprof_model_add_unknown as *const (),
            iprof_model_remove_unknown as *const (),
            iprof_model_instanceof_key as *const (),
            iprof_model_set_instanceof_key as *const (),
            iprof_model_error as *const (),
            iprof_write_options_init as *const (),
            iprof_writer_new as *const (),
            iprof_writer_free as *const (),
            iprof_writer_begin as *const (),
            iprof_writer_type as *const (),
            iprof_writer_method as *const (),
            iprof_writer_entry as *const (),
            iprof_writer_end as *const (),
            iprof_writer_raw as *const (),
            iprof_writer_unknown as *const (),
            iprof_writer_write_model as *const (),
            iprof_writer_error as *const (),
            iprof_writer_buffer as *const (),
            iprof_model_canonicalize as *const (),
            iprof_filter_options_init as *const (),
            iprof_model_filter as *const (),
            iprof_package_matches as *const (),
            iprof_model_prune as *const (),
            iprof_entry_branch_probabilities as *const (),
            iprof_entry_type_shares as *const (),
            iprof_entry_total as *const (),
            iprof_model_method_totals as *const (),
            iprof_diff_options_init as *const (),
            iprof_diff_new as *const (),
            iprof_diff_free as *const (),
            iprof_diff_method_only_at as *const (),
            iprof_diff_get_summary as *const (),
            iprof_diff_get_kind as *const (),
            iprof_diff_get_change as *const (),
        ];
        assert!(addrs.iter().all(|a| !a.is_null()));
    }
    /// Every flag (`#define IPROF_... 0x..u`) and every struct version
    /// (`#define IPROF_..._VERSION n`) of the public headers is declared
    /// here with the same value, when the crate is inside the libiprof tree.
    #[test]
    fn constants_match_the_headers() {
        extern crate std;
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../..");
        let src = std::fs::read_to_string(std::format!("{}/src/lib.rs", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let (mut flags, mut versions) = (0, 0);
        for header in ["iprof.h", "stream.h", "edit.h", "transform.h", "diff.h", "analysis.h"] {
            let Ok(text) = std::fs::read_to_string(std::format!("{root}/include/iprof/{header}")) else {
                std::println!("SKIP: include/iprof/{header} is not there");
                return;
            };
            for line in text.lines() {
                let mut words = line.split_whitespace();
                let (Some("#define"), Some(name), Some(value), None) =
                    (words.next(), words.next(), words.next(), words.next())
                else {
                    continue;
                };
                let decl = if let Some(hex) = value.strip_prefix("0x").and_then(|v| v.strip_suffix('u')) {
                    flags += 1;
                    std::format!("pub const {name}: c_uint = 0x{hex};")
                } else if name.ends_with("_VERSION") && value.parse::<u32>().is_ok() {
                    versions += 1;
                    std::format!("pub const {name}: c_uint = {value};")
                } else {
                    continue;
                };
                assert!(src.contains(&decl), "missing or different: {decl}");
            }
        }
        assert!(flags >= 11 && versions >= 6, "{flags} flags, {versions} versions found");
        assert_eq!((IPROF_READ_CALLBACKS_VERSION, IPROF_WRITE_OPTIONS_VERSION), (1, 1));
    }
    /// Every format version of iprof.h (`#define IPROF_FORMAT_X_Y_Z "x.y.z"`)
    /// is declared here with the same value.
    #[test]
    fn format_constants_match_the_header() {
        extern crate std;
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../..");
        let src = std::fs::read_to_string(std::format!("{}/src/lib.rs", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let Ok(text) = std::fs::read_to_string(std::format!("{root}/include/iprof/iprof.h")) else {
            std::println!("SKIP: include/iprof/iprof.h is not there");
            return;
        };
        let mut found = 0;
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let (Some("#define"), Some(name), Some(value), None) = (words.next(), words.next(), words.next(), words.next())
            else {
                continue;
            };
            let Some(v) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) else {
                continue;
            };
            if !name.starts_with("IPROF_FORMAT_") {
                continue;
            }
            found += 1;
            let decl = std::format!("pub const {name}: &[u8; 6] = b\"{v}\\0\";");
            assert!(src.contains(&decl), "missing or different: {decl}");
        }
        assert_eq!(found, 4);
        assert_eq!(IPROF_FORMAT_0_2_0, b"0.2.0\0");
    }

    /// The constants of analysis.h, the predicate typedefs of transform.h and
    /// the values C gives them.
    #[test]
    fn analysis_constants_match_the_header() {
        extern crate std;
        assert_eq!(IPROF_EXTREMELY_SLOW_PATH_PROBABILITY, 1.0000000000287557e-06);
        assert_eq!(IPROF_INVALID_BRANCH_BCI, -5);
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../..");
        let Ok(text) = std::fs::read_to_string(std::format!("{root}/include/iprof/analysis.h")) else {
            std::println!("SKIP: include/iprof/analysis.h is not there");
            return;
        };
        assert!(text.contains("#define IPROF_EXTREMELY_SLOW_PATH_PROBABILITY (1.0 - 0.999999)\n"));
        assert!(text.contains("#define IPROF_INVALID_BRANCH_BCI (-5)\n"));
        let transform = std::fs::read_to_string(std::format!("{root}/include/iprof/transform.h")).unwrap();
        let src = std::fs::read_to_string(std::format!("{}/src/lib.rs", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for name in ["iprof_model_type_pred", "iprof_model_method_pred", "iprof_model_entry_pred"] {
            assert!(transform.contains(&std::format!("(*{name})")), "{name} is not in transform.h");
            assert!(src.contains(&std::format!("pub type {name} =")), "{name} is not mirrored");
        }
    }

    /// The declarations cover lib/libiprof.map (the exported symbols),
    /// when the crate is inside the libiprof tree.
    #[test]
    fn declarations_cover_the_symbol_map() {
        extern crate std;
        use std::string::String;
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../..");
        let Ok(map) = std::fs::read_to_string(std::format!("{root}/lib/libiprof.map")) else {
            std::println!("SKIP: lib/libiprof.map is not there");
            return;
        };
        let src = std::fs::read_to_string(std::format!("{}/src/lib.rs", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let missing: std::vec::Vec<String> = map
            .lines()
            .map(|l| l.trim().trim_end_matches(';'))
            .filter(|l| l.starts_with("iprof_"))
            .filter(|name| !src.contains(&std::format!("pub fn {name}(")))
            .map(String::from)
            .collect();
        assert!(missing.is_empty(), "not declared: {missing:?}");
        // As many exports as declarations, as every_function_links takes.
        let exported = map.lines().filter(|l| l.trim().starts_with("iprof_")).count();
        let declared = src.lines().filter(|l| l.trim_start().starts_with("pub fn iprof_")).count();
        assert_eq!((exported, declared), (FUNCTION_COUNT, FUNCTION_COUNT));
    }
}
