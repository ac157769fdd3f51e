//! Status codes and error reports.

use std::ffi::CStr;
use std::fmt;
use std::path::{Path, PathBuf};

use iprof_sys as sys;

use crate::Kind;

/// The status of a failed call: the C library's `IPROF_E*` codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// `IPROF_ENOMEM`: an allocation failed.
    NoMemory,
    /// `IPROF_EIO`: reading or writing the file, fd or callback failed.
    Io,
    /// `IPROF_ESYNTAX`: the input is not well-formed JSON.
    Syntax,
    /// `IPROF_ESCHEMA`: the JSON does not follow the iprof schema or its rules.
    Schema,
    /// `IPROF_EVERSION`: unsupported or mismatched format version.
    Version,
    /// `IPROF_EDANGLING`: a method or type id is referenced but not defined.
    Dangling,
    /// `IPROF_ELIMIT`: a value exceeds a limit (int64 range, size limits).
    Limit,
    /// `IPROF_EINVAL`: invalid argument.
    Invalid,
    /// `IPROF_ESTOPPED`: a callback asked to stop.
    Stopped,
    /// `IPROF_ESTATE`: call out of order (a writer after end, for example).
    State,
    /// `IPROF_ENOTFOUND`: the requested element does not exist.
    NotFound,
    /// A code this version of the bindings does not know.
    Other(i32),
}

impl Status {
    /// The status of a C status code; `None` for `IPROF_OK` (0).
    pub fn from_code(code: i32) -> Option<Status> {
        Some(match code {
            sys::IPROF_OK => return None,
            sys::IPROF_ENOMEM => Status::NoMemory,
            sys::IPROF_EIO => Status::Io,
            sys::IPROF_ESYNTAX => Status::Syntax,
            sys::IPROF_ESCHEMA => Status::Schema,
            sys::IPROF_EVERSION => Status::Version,
            sys::IPROF_EDANGLING => Status::Dangling,
            sys::IPROF_ELIMIT => Status::Limit,
            sys::IPROF_EINVAL => Status::Invalid,
            sys::IPROF_ESTOPPED => Status::Stopped,
            sys::IPROF_ESTATE => Status::State,
            sys::IPROF_ENOTFOUND => Status::NotFound,
            other => Status::Other(other),
        })
    }

    /// The C status code (`IPROF_E*`, negative).
    pub fn code(self) -> i32 {
        match self {
            Status::NoMemory => sys::IPROF_ENOMEM,
            Status::Io => sys::IPROF_EIO,
            Status::Syntax => sys::IPROF_ESYNTAX,
            Status::Schema => sys::IPROF_ESCHEMA,
            Status::Version => sys::IPROF_EVERSION,
            Status::Dangling => sys::IPROF_EDANGLING,
            Status::Limit => sys::IPROF_ELIMIT,
            Status::Invalid => sys::IPROF_EINVAL,
            Status::Stopped => sys::IPROF_ESTOPPED,
            Status::State => sys::IPROF_ESTATE,
            Status::NotFound => sys::IPROF_ENOTFOUND,
            Status::Other(code) => code,
        }
    }

    /// The C name of the code ("IPROF_ESCHEMA"; "IPROF_E?" for unknown ones).
    pub fn name(self) -> &'static str {
        match self {
            Status::NoMemory => "IPROF_ENOMEM",
            Status::Io => "IPROF_EIO",
            Status::Syntax => "IPROF_ESYNTAX",
            Status::Schema => "IPROF_ESCHEMA",
            Status::Version => "IPROF_EVERSION",
            Status::Dangling => "IPROF_EDANGLING",
            Status::Limit => "IPROF_ELIMIT",
            Status::Invalid => "IPROF_EINVAL",
            Status::Stopped => "IPROF_ESTOPPED",
            Status::State => "IPROF_ESTATE",
            Status::NotFound => "IPROF_ENOTFOUND",
            Status::Other(_) => "IPROF_E?",
        }
    }

    /// The library's short English description ("no memory", ...).
    pub fn description(self) -> &'static str {
        // SAFETY: iprof_status_string never returns NULL and points to
        // static storage.
        unsafe { static_str(sys::iprof_status_string(self.code())) }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// Severity of a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The operation failed, or (a lenient read's diagnostic) a rule of the
    /// format is broken: the file is not valid.
    Error,
    /// The file is valid but something deserves attention (an unknown
    /// 0.x/1.x version).
    Warning,
}

/// An error or diagnostic: the status, an English message and where in the
/// input it happened (byte offset from 0, line and column from 1, columns
/// in bytes) with the JSON path of the element (`methods[12].signature[1]`).
/// Errors without an input position (no memory, a writer misuse, a model
/// mutation) have offset, line and column 0 and an empty path.
///
/// Errors of calls that read or write a file also carry its name
/// ([`file`](Error::file)). Errors of model operations (adding or removing
/// types, methods and entries, filter, merge, the canonical form,
/// [`Model::add_unknown`](crate::Model::add_unknown)) say what they are
/// about, as far as it applies: the [`kind`](Error::kind) and
/// [`context`](Error::context) of the entry, the [`type_id`](Error::type_id)
/// and [`method_id`](Error::method_id) involved.
///
/// It is a copy of the C report, so it outlives the handle that produced
/// it. `Display` gives `file:line:column: message (at path) [IPROF_ESCHEMA]`,
/// leaving out what is absent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub(crate) status: Status,
    pub(crate) severity: Severity,
    pub(crate) message: String,
    pub(crate) path: String,
    pub(crate) offset: u64,
    pub(crate) line: u64,
    pub(crate) column: u64,
    pub(crate) file: Option<PathBuf>,
    /// What a model operation's error is about; boxed, and absent for the
    /// errors that name nothing, to keep `Error` (and every `Result`) small.
    pub(crate) subject: Option<Box<Subject>>,
}

/// The kind, context and ids an error of a model operation is about.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Subject {
    kind: Option<Kind>,
    context: String,
    type_id: Option<i64>,
    method_id: Option<i64>,
}

/// `Result<T, iprof::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The status (what kind of failure).
    pub fn status(&self) -> Status {
        self.status
    }
    /// The C status code (`IPROF_E*`, negative).
    pub fn code(&self) -> i32 {
        self.status.code()
    }
    /// Error or warning (warnings only occur among a read's diagnostics).
    pub fn severity(&self) -> Severity {
        self.severity
    }
    /// The English message ("" when the library has nothing to add to the
    /// status).
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The file being read or written, `None` for memory, descriptors and
    /// streams (and for model mutations).
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }
    /// The JSON path of the element, "" for the document or no position.
    pub fn path(&self) -> &str {
        &self.path
    }
    /// Byte offset in the input, from 0.
    pub fn offset(&self) -> u64 {
        self.offset
    }
    /// Line in the input, from 1; 0 without a position.
    pub fn line(&self) -> u64 {
        self.line
    }
    /// Column in the input in bytes, from 1; 0 without a position.
    pub fn column(&self) -> u64 {
        self.column
    }
    /// The profile kind a model operation's error is about (the entry
    /// added, removed or merged), `None` when it names none.
    pub fn kind(&self) -> Option<Kind> {
        self.subject.as_ref().and_then(|s| s.kind)
    }
    /// The context a model operation's error is about, as ctx text
    /// (`"1:0<7:2"`; [`parse_ctx`](crate::parse_ctx) gives its frames);
    /// "" when it names none.
    pub fn context(&self) -> &str {
        self.subject.as_ref().map_or("", |s| &s.context)
    }
    /// The type id a model operation's error is about (a taken or
    /// undefined id), `None` when it names none.
    pub fn type_id(&self) -> Option<i64> {
        self.subject.as_ref().and_then(|s| s.type_id)
    }
    /// The method id a model operation's error is about, `None` when it
    /// names none.
    pub fn method_id(&self) -> Option<i64> {
        self.subject.as_ref().and_then(|s| s.method_id)
    }

    /// An error made on the Rust side (no position).
    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error {
            status,
            severity: Severity::Error,
            message: message.into(),
            path: String::new(),
            offset: 0,
            line: 0,
            column: 0,
            file: None,
            subject: None,
        }
    }

    /// An error from a bare status code: the message is the status text.
    pub(crate) fn from_code(code: i32) -> Error {
        let status = Status::from_code(code).unwrap_or(Status::Other(code));
        Error::new(status, status.description())
    }

    /// Copy a C report.
    ///
    /// # Safety
    /// `err` must be a valid report (alive for the duration of the call).
    pub(crate) unsafe fn from_raw(err: *const sys::iprof_error) -> Error {
        // One call fills every field; it fails only for a bad version,
        // which INIT rules out (the info then stays INIT: status 0).
        let mut info = sys::iprof_error_info::INIT;
        sys::iprof_error_get_info(err, &mut info);
        let code = info.status;
        Error {
            status: Status::from_code(code).unwrap_or(Status::Other(code)),
            severity: if info.severity == sys::IPROF_SEVERITY_WARNING {
                Severity::Warning
            } else {
                Severity::Error
            },
            message: owned_str(info.message),
            path: owned_str(info.path),
            offset: info.offset,
            line: info.line,
            column: info.column,
            file: None,
            subject: Some(Subject {
                kind: Kind::from_raw(info.kind),
                context: owned_str(info.context),
                type_id: (info.has_type_id != 0).then_some(info.type_id),
                method_id: (info.has_method_id != 0).then_some(info.method_id),
            })
            .filter(|s| *s != Subject::default())
            .map(Box::new),
        }
    }

    /// The report at `err` if not NULL, else one made from `code`.
    pub(crate) unsafe fn from_raw_or_code(err: *const sys::iprof_error, code: i32) -> Error {
        if err.is_null() {
            Error::from_code(code)
        } else {
            Error::from_raw(err)
        }
    }

    /// Name the file the failed call read or wrote.
    pub(crate) fn in_file(mut self, file: &Path) -> Error {
        self.file = Some(file.to_path_buf());
        self
    }

    /// Append the text of a Rust-side cause (an `io::Error` of a read or
    /// write callback) to the message.
    pub(crate) fn with_cause(mut self, cause: &dyn fmt::Display) -> Error {
        if self.message.is_empty() {
            self.message = cause.to_string();
        } else {
            self.message = format!("{}: {}", self.message, cause);
        }
        self
    }
}

impl fmt::Display for Error {
    /// `file:line:column: message (at path) [IPROF_ESCHEMA]`, leaving out
    /// what is absent; `warning: ` before the message of a warning; the
    /// status text when there is no message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut where_ = String::new();
        if let Some(file) = &self.file {
            where_ = format!("{}:", file.display());
        }
        if self.line > 0 {
            where_ += &format!("{}:{}:", self.line, self.column);
        }
        if !where_.is_empty() {
            write!(f, "{where_} ")?;
        }
        if self.severity == Severity::Warning {
            f.write_str("warning: ")?;
        }
        if self.message.is_empty() {
            f.write_str(self.status.description())?;
        } else {
            f.write_str(&self.message)?;
        }
        if !self.path.is_empty() {
            write!(f, " (at {})", self.path)?;
        }
        write!(f, " [{}]", self.status.name())
    }
}

impl std::error::Error for Error {}

/// Turn a C status into a `Result` (no report to copy).
pub(crate) fn check(code: i32) -> Result<()> {
    if code == sys::IPROF_OK {
        Ok(())
    } else {
        Err(Error::from_code(code))
    }
}

/// A C string in static storage as `&'static str`.
///
/// # Safety
/// `p` must be a non-NULL, NUL-terminated string that lives forever.
pub(crate) unsafe fn static_str(p: *const std::ffi::c_char) -> &'static str {
    match CStr::from_ptr(p).to_str() {
        Ok(s) => s,
        Err(_) => "?",
    }
}

/// Copy a NUL-terminated C string (NULL gives "").
unsafe fn owned_str(p: *const std::ffi::c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}
