//! Whole-model transformations (transform.h): the canonical form,
//! filtering, package matching and pruning.

use std::ffi::{c_char, CString};
use std::ptr;

use iprof_sys as sys;

use crate::error::{Error, Result, Status};
use crate::model::Model;
use crate::{c_string, Kind};

/// Options of [`Model::filter`]: a builder over `iprof_filter_options`.
/// The default filters nothing (the filter then leaves the model as it is).
///
/// ```no_run
/// # fn main() -> Result<(), iprof::Error> {
/// let mut model = iprof::Model::load("default.iprof")?;
/// model.filter(
///     &iprof::FilterOptions::new()
///         .kinds(&[iprof::Kind::CallCount, iprof::Kind::Sampling])
///         .keep_package("com.example")
///         .drop_package("com.example.generated")
///         .min_count(10)
///         .top_percent(99.0),
/// )?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilterOptions {
    kinds: Option<u32>,
    keep: Vec<String>,
    drop: Vec<String>,
    min_count: i64,
    top_percent: f64,
    max_depth: usize,
}

impl FilterOptions {
    /// Filter nothing.
    pub fn new() -> FilterOptions {
        FilterOptions::default()
    }
    /// Keep only the entries of these kinds (default: every kind). An empty
    /// slice makes [`Model::filter`] fail with [`Status::Invalid`].
    pub fn kinds(mut self, kinds: &[Kind]) -> FilterOptions {
        self.kinds = Some(kinds.iter().fold(0, |mask, &k| mask | sys::IPROF_KIND_BIT(k.raw())));
        self
    }
    /// Keep the entries whose callee method's declaring type is in this
    /// package (`"com.foo"` matches `com.foo.Bar` and `com.foo.impl.Baz`,
    /// not `com.foobar.X`; a trailing `.` is ignored). With any keep
    /// package, an entry whose callee no kept package matches is dropped
    /// (its callers are not judged); the longest matching keep or drop
    /// package decides (drop on a tie). Monitor entries and frames of
    /// unknown methods are not judged.
    pub fn keep_package(mut self, package: &str) -> FilterOptions {
        self.keep.push(package.to_string());
        self
    }
    /// [`keep_package`](Self::keep_package) for each of `packages`.
    pub fn keep_packages<S: AsRef<str>>(mut self, packages: impl IntoIterator<Item = S>) -> FilterOptions {
        self.keep.extend(packages.into_iter().map(|p| p.as_ref().to_string()));
        self
    }
    /// Take this package out of the file: drop every entry with a frame,
    /// callee or caller, whose method's declaring type is in the package,
    /// those methods, and the package's types that no remaining method
    /// signature or record names (see [`keep_package`](Self::keep_package)
    /// for the matching).
    pub fn drop_package(mut self, package: &str) -> FilterOptions {
        self.drop.push(package.to_string());
        self
    }
    /// [`drop_package`](Self::drop_package) for each of `packages`.
    pub fn drop_packages<S: AsRef<str>>(mut self, packages: impl IntoIterator<Item = S>) -> FilterOptions {
        self.drop.extend(packages.into_iter().map(|p| p.as_ref().to_string()));
        self
    }
    /// Drop the entries whose total count (the sum of their counts by
    /// kind) is below `count`; `<= 0`: no minimum (the default).
    pub fn min_count(mut self, count: i64) -> FilterOptions {
        self.min_count = count;
        self
    }
    /// Per kind, keep the hottest entries that make `percent`% of the
    /// kind's count mass (entries tied with the last one are kept too);
    /// 0: all (the default); `>= 100`: every entry with a positive total.
    /// A negative or NaN value makes [`Model::filter`] fail with
    /// [`Status::Invalid`].
    pub fn top_percent(mut self, percent: f64) -> FilterOptions {
        self.top_percent = percent;
        self
    }
    /// Then cut every context to its `depth` innermost frames (the callee
    /// and its nearest callers), combining the entries of a kind whose cut
    /// contexts coincide; 0: no cut (the default).
    pub fn max_depth(mut self, depth: usize) -> FilterOptions {
        self.max_depth = depth;
        self
    }
}

/// Options of [`Model::canonicalize_with`]: a builder over the
/// `IPROF_CANONICAL_*` flags. The default refuses unknown top-level keys
/// that hold more than `[]`, `{}` or a scalar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CanonicalOptions {
    drop_unknown: bool,
}

impl CanonicalOptions {
    /// The defaults.
    pub fn new() -> CanonicalOptions {
        CanonicalOptions::default()
    }
    /// Drop the model's unknown top-level keys instead of failing on those
    /// that hold more than `[]`, `{}` or a scalar
    /// (`IPROF_CANONICAL_DROP_UNKNOWN`).
    pub fn drop_unknown(mut self, on: bool) -> CanonicalOptions {
        self.drop_unknown = on;
        self
    }
}

/// Whether a type is in a package, as [`Model::filter`] matches them
/// (`iprof_package_matches`): `package` matches a type named `package` or
/// starting with it followed by `.` (`"com.foo"` matches `com.foo.Bar`
/// and `com.foo.impl.Baz$1`, not `com.foobar.X` or `com.foo$X`); a
/// trailing `.` of `package` is ignored and the empty package matches
/// every type. A package containing a NUL byte matches nothing (the C
/// function takes NUL-terminated packages, and filters refuse them).
///
/// ```
/// assert!(iprof::package_matches("com.foo", "com.foo.impl.Baz$1"));
/// assert!(!iprof::package_matches("com.foo", "com.foobar.X"));
/// ```
pub fn package_matches(package: &str, type_name: &str) -> bool {
    let Ok(package) = CString::new(package) else { return false };
    // SAFETY: a NUL-terminated package and type_name.len() bytes, both
    // borrowed for the call; the function has no state.
    unsafe { sys::iprof_package_matches(package.as_ptr(), type_name.as_ptr().cast(), type_name.len()) == 1 }
}

/// What [`Model::prune`] removes (`IPROF_PRUNE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prune {
    /// The methods no entry mentions in any frame (`IPROF_PRUNE_METHODS`).
    Methods,
    /// The types no method signature and no record (virtual invoke,
    /// monitor, instanceof type ids) mentions (`IPROF_PRUNE_TYPES`).
    Types,
    /// Methods, then types, so that types only those methods used go too.
    MethodsAndTypes,
}

impl Prune {
    /// The `IPROF_PRUNE_*` flags.
    pub fn raw(self) -> u32 {
        match self {
            Prune::Methods => sys::IPROF_PRUNE_METHODS,
            Prune::Types => sys::IPROF_PRUNE_TYPES,
            Prune::MethodsAndTypes => sys::IPROF_PRUNE_METHODS | sys::IPROF_PRUNE_TYPES,
        }
    }
}

/// NUL-terminated copies of package names and the pointer array to them.
fn c_strings(what: &str, names: &[String]) -> Result<(Vec<CString>, Vec<*const c_char>)> {
    let owned = names.iter().map(|n| c_string(what, n)).collect::<Result<Vec<_>>>()?;
    let ptrs = owned.iter().map(|c| c.as_ptr()).collect();
    Ok((owned, ptrs))
}

impl Model {
    /// Rewrite the model into its canonical form, so that two models of
    /// the same profile (the same types, methods and entries by name,
    /// whatever their ids and order) write the same bytes: types sorted by
    /// name with ids `0..n`, methods sorted by key (declaring type name,
    /// name, signature type names) with ids `1..=n`, entries of each kind
    /// sorted by their frames, records sorted; duplicates combined (a
    /// repeated conditional record is kept: GraalVM counts each).
    /// Idempotent.
    ///
    /// Unknown top-level keys holding `[]`, `{}` or a scalar are kept,
    /// after every section and sorted by key; ids inside any other value
    /// could not be renumbered, so such a key fails the call (see
    /// [`canonicalize_with`](Self::canonicalize_with) to drop them).
    ///
    /// Fails with [`Status::Dangling`] (an undefined id) or
    /// [`Status::Schema`] (an entry breaking its kind's rules, both only
    /// possible after a lenient load, or an unknown key holding data, named
    /// in the error), leaving the model unchanged.
    pub fn canonicalize(&mut self) -> Result<()> {
        self.canonicalize_with(&CanonicalOptions::new())
    }

    /// [`canonicalize`](Self::canonicalize) with options.
    pub fn canonicalize_with(&mut self, options: &CanonicalOptions) -> Result<()> {
        let flags = if options.drop_unknown { sys::IPROF_CANONICAL_DROP_UNKNOWN } else { 0 };
        // SAFETY: exclusive access (&mut self): no view is alive, so the
        // rebuilt contents invalidate nothing reachable.
        let rc = unsafe { sys::iprof_model_canonicalize_flags(self.mut_ptr(), flags) };
        self.result(rc)
    }

    /// Drop entries by kind, package, minimum count and top percentage (in
    /// that order; see [`FilterOptions`]), cut contexts to the maximum
    /// depth, then remove the methods of dropped packages and their types
    /// that no remaining method signature or record names (those stay:
    /// they would dangle). Everything the options do not name stays,
    /// whether anything refers to it or not: [`prune`](Self::prune)
    /// afterwards removes the unreferenced. Ids are not changed
    /// ([`canonicalize`](Self::canonicalize) renumbers).
    ///
    /// Fails with [`Status::Invalid`] for an empty kind list, a package
    /// containing NUL or a negative or NaN top percentage, leaving the model
    /// unchanged.
    pub fn filter(&mut self, options: &FilterOptions) -> Result<()> {
        if options.kinds == Some(0) {
            return Err(Error::new(Status::Invalid, "no kinds to keep (leave kinds unset to keep every kind)"));
        }
        let (_keep, keep) = c_strings("package", &options.keep)?;
        let (_drop, drop) = c_strings("package", &options.drop)?;
        let opts = sys::iprof_filter_options {
            kinds: options.kinds.unwrap_or(0),
            keep_packages: if keep.is_empty() { ptr::null() } else { keep.as_ptr() },
            keep_package_count: keep.len(),
            drop_packages: if drop.is_empty() { ptr::null() } else { drop.as_ptr() },
            drop_package_count: drop.len(),
            min_count: options.min_count,
            top_percent: options.top_percent,
            max_depth: options.max_depth,
            ..sys::iprof_filter_options::INIT
        };
        // SAFETY: exclusive access; the options, the pointer arrays and the
        // strings (_keep, _drop) outlive the call.
        let rc = unsafe { sys::iprof_model_filter(self.mut_ptr(), &opts) };
        self.result(rc)
    }

    /// Remove what nothing refers to: the methods no entry mentions in any
    /// frame, the types no method signature and no record mentions, or
    /// both (see [`Prune`]). Nothing is removed while the model keeps an
    /// unknown top-level key that may hold ids (anything but `[]`, `{}` or
    /// a scalar), which could name what would go. Ids are not changed.
    pub fn prune(&mut self, what: Prune) -> Result<()> {
        // SAFETY: exclusive access: no view of a removed element is alive.
        let rc = unsafe { sys::iprof_model_prune(self.mut_ptr(), what.raw()) };
        self.result(rc)
    }

    /// Remove what refers to types or methods the model does not define:
    /// methods whose signature names an undefined type, then entries whose
    /// context names an undefined method or whose records name an
    /// undefined type (what a salvaging load kept of a damaged file may
    /// hold). Returns how many went.
    pub fn drop_dangling(&mut self) -> Result<Dangling> {
        let mut methods = 0usize;
        let mut entries = [0usize; Kind::ALL.len()];
        // SAFETY: exclusive access: no view of a removed element is alive;
        // entries has room for every kind.
        let rc = unsafe {
            sys::iprof_model_drop_dangling(self.mut_ptr(), &mut methods, entries.as_mut_ptr())
        };
        self.result(rc)?;
        Ok(Dangling { methods, entries })
    }
}

/// What [`Model::drop_dangling`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dangling {
    /// Methods whose signature named an undefined type.
    pub methods: usize,
    /// Entries per kind, indexed by [`Kind`] as `usize`.
    pub entries: [usize; Kind::ALL.len()],
}

impl Dangling {
    /// The entries of `kind` that went.
    pub fn entries_of(&self, kind: Kind) -> usize {
        self.entries[kind as usize]
    }
}
