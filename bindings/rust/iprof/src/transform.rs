//! Whole-model transformations (transform.h): the canonical form,
//! filtering, package matching and pruning.

use std::cell::{RefCell, RefMut};
use std::ffi::{c_char, c_int, c_void, CString};
use std::fmt;
use std::ops::{BitOr, BitOrAssign};
use std::ptr;

use iprof_sys as sys;

use crate::error::{Error, Result, Status};
use crate::model::{Entry, Method, Model, Type};
use crate::{c_string, Frame, Kind, PanicSlot};

/// A predicate of [`FilterOptions`]: true keeps. `RefCell` because
/// [`Model::filter`] borrows the options shared and calls the closure
/// mutably.
type Keep<P> = Option<RefCell<Box<P>>>;

/// Options of [`Model::filter`]: a builder over `iprof_filter_options`.
/// The default filters nothing (the filter then leaves the model as it is).
///
/// Besides the criteria (kinds, packages, counts, depth), four predicates
/// (closures, which may borrow for `'f`) say what to keep:
/// [`keep_frame`](Self::keep_frame), [`keep_entry`](Self::keep_entry),
/// [`keep_method`](Self::keep_method) and [`keep_type`](Self::keep_type).
/// The filter runs its steps in this order: kinds, `keep_frame`,
/// `keep_entry`, packages, minimum count, top percent, maximum depth, the
/// dropped packages' methods and types, `keep_method`, `keep_type`; so the
/// statistics see what the predicates kept. A predicate must not (and,
/// holding no `Model`, cannot) change the model; the views it is given
/// cannot escape it. A panic in a predicate keeps everything it has not
/// judged yet (what it refused before is gone) and resumes once the C call
/// has returned.
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
///
/// With predicates, in place of 0.x's `retain_*` calls:
///
/// ```no_run
/// # fn main() -> Result<(), iprof::Error> {
/// let mut model = iprof::Model::load("default.iprof")?;
/// let hot = [5_i64, 8];
/// model.filter(
///     &iprof::FilterOptions::new()
///         // every frame's method is one of `hot` (was retain_entries_by_frame(None, ..))
///         .keep_frame(|f| hot.contains(&f.method_id))
///         // call counts of at least 100, every other kind as it is
///         .keep_entry(|e| e.kind() != iprof::Kind::CallCount || e.records()[0] >= 100)
///         .keep_type(|t| !t.name().starts_with("jdk.internal.")),
/// )?;
/// # Ok(()) }
/// ```
#[derive(Default)]
pub struct FilterOptions<'f> {
    kinds: Option<u32>,
    keep: Vec<String>,
    drop: Vec<String>,
    min_count: i64,
    top_percent: f64,
    max_depth: usize,
    keep_frame: Keep<dyn FnMut(Frame) -> bool + 'f>,
    keep_entry: Keep<dyn for<'m> FnMut(Entry<'m>) -> bool + 'f>,
    keep_method: Keep<dyn for<'m> FnMut(Method<'m>) -> bool + 'f>,
    keep_type: Keep<dyn for<'m> FnMut(Type<'m>) -> bool + 'f>,
}

impl fmt::Debug for FilterOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FilterOptions")
            .field("kinds", &self.kinds)
            .field("keep_packages", &self.keep)
            .field("drop_packages", &self.drop)
            .field("min_count", &self.min_count)
            .field("top_percent", &self.top_percent)
            .field("max_depth", &self.max_depth)
            .field("keep_frame", &self.keep_frame.is_some())
            .field("keep_entry", &self.keep_entry.is_some())
            .field("keep_method", &self.keep_method.is_some())
            .field("keep_type", &self.keep_type.is_some())
            .finish()
    }
}

impl<'f> FilterOptions<'f> {
    /// Filter nothing.
    pub fn new() -> FilterOptions<'f> {
        FilterOptions::default()
    }
    /// Keep only the entries of these kinds (default: every kind). An empty
    /// slice makes [`Model::filter`] fail with [`Status::Invalid`].
    pub fn kinds(mut self, kinds: &[Kind]) -> FilterOptions<'f> {
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
    pub fn keep_package(mut self, package: &str) -> FilterOptions<'f> {
        self.keep.push(package.to_string());
        self
    }
    /// [`keep_package`](Self::keep_package) for each of `packages`.
    pub fn keep_packages<S: AsRef<str>>(mut self, packages: impl IntoIterator<Item = S>) -> FilterOptions<'f> {
        self.keep.extend(packages.into_iter().map(|p| p.as_ref().to_string()));
        self
    }
    /// Take this package out of the file: drop every entry with a frame,
    /// callee or caller, whose method's declaring type is in the package,
    /// those methods, and the package's types that no remaining method
    /// signature or record names (see [`keep_package`](Self::keep_package)
    /// for the matching).
    pub fn drop_package(mut self, package: &str) -> FilterOptions<'f> {
        self.drop.push(package.to_string());
        self
    }
    /// [`drop_package`](Self::drop_package) for each of `packages`.
    pub fn drop_packages<S: AsRef<str>>(mut self, packages: impl IntoIterator<Item = S>) -> FilterOptions<'f> {
        self.drop.extend(packages.into_iter().map(|p| p.as_ref().to_string()));
        self
    }
    /// Drop the entries whose total count (the sum of their counts by
    /// kind) is below `count`; `<= 0`: no minimum (the default).
    pub fn min_count(mut self, count: i64) -> FilterOptions<'f> {
        self.min_count = count;
        self
    }
    /// Per kind, keep the hottest entries that make `percent`% of the
    /// kind's count mass (entries tied with the last one are kept too);
    /// 0: all (the default); `>= 100`: every entry with a positive total.
    /// A negative or NaN value makes [`Model::filter`] fail with
    /// [`Status::Invalid`].
    pub fn top_percent(mut self, percent: f64) -> FilterOptions<'f> {
        self.top_percent = percent;
        self
    }
    /// Then cut every context to its `depth` innermost frames (the callee
    /// and its nearest callers), combining the entries of a kind whose cut
    /// contexts coincide; 0: no cut (the default).
    pub fn max_depth(mut self, depth: usize) -> FilterOptions<'f> {
        self.max_depth = depth;
        self
    }
    /// Drop every entry, of any kind, with a frame, callee or caller, that
    /// `keep` refuses (monitor entries show their dummy frame `0:0`).
    /// `keep` sees the frames of each entry from the callee outwards, up
    /// to the first one it refuses, so it may be called more than once for
    /// a frame (once per entry it appears in) and not at all for the
    /// callers of a refused frame. For one kind only, use
    /// [`keep_entry`](Self::keep_entry) over
    /// [`Entry::context`]`().frames()`.
    pub fn keep_frame(mut self, keep: impl FnMut(Frame) -> bool + 'f) -> FilterOptions<'f> {
        self.keep_frame = Some(RefCell::new(Box::new(keep)));
        self
    }
    /// Drop every entry `keep` refuses, of the kinds kept so far (it sees
    /// every kind: test [`Entry::kind`] to judge one).
    pub fn keep_entry(mut self, keep: impl for<'m> FnMut(Entry<'m>) -> bool + 'f) -> FilterOptions<'f> {
        self.keep_entry = Some(RefCell::new(Box::new(keep)));
        self
    }
    /// Remove every method `keep` refuses. Entries that mention a removed
    /// method are not checked.
    pub fn keep_method(mut self, keep: impl for<'m> FnMut(Method<'m>) -> bool + 'f) -> FilterOptions<'f> {
        self.keep_method = Some(RefCell::new(Box::new(keep)));
        self
    }
    /// Remove every type `keep` refuses. References to a removed type are
    /// not checked.
    pub fn keep_type(mut self, keep: impl for<'m> FnMut(Type<'m>) -> bool + 'f) -> FilterOptions<'f> {
        self.keep_type = Some(RefCell::new(Box::new(keep)));
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

/// What [`Model::prune`] removes: `IPROF_PRUNE_*` flags, combined with
/// `|`. It removes in this order: [`DANGLING`](Prune::DANGLING), then
/// [`METHODS`](Prune::METHODS), then [`TYPES`](Prune::TYPES), so that
/// `Prune::METHODS | Prune::TYPES` also takes the types only the removed
/// methods used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prune(u32);

impl Prune {
    /// The methods no entry mentions in any frame (`IPROF_PRUNE_METHODS`).
    pub const METHODS: Prune = Prune(sys::IPROF_PRUNE_METHODS);
    /// The types no method signature and no record (virtual invoke,
    /// monitor, instanceof type ids) mentions (`IPROF_PRUNE_TYPES`).
    pub const TYPES: Prune = Prune(sys::IPROF_PRUNE_TYPES);
    /// What refers to types or methods the model does not define: methods
    /// whose signature names an undefined type, then entries whose context
    /// names an undefined method or whose records name an undefined type
    /// (what a salvaging load kept of a damaged file may hold;
    /// `IPROF_PRUNE_DANGLING`).
    pub const DANGLING: Prune = Prune(sys::IPROF_PRUNE_DANGLING);

    /// The `IPROF_PRUNE_*` flags.
    pub fn raw(self) -> u32 {
        self.0
    }
    /// Whether every flag of `other` is set.
    pub fn contains(self, other: Prune) -> bool {
        self.0 & other.0 == other.0
    }
}

impl BitOr for Prune {
    type Output = Prune;
    fn bitor(self, other: Prune) -> Prune {
        Prune(self.0 | other.0)
    }
}

impl BitOrAssign for Prune {
    fn bitor_assign(&mut self, other: Prune) {
        self.0 |= other.0;
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
        let rc = unsafe { sys::iprof_model_canonicalize(self.mut_ptr(), flags) };
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
    pub fn filter(&mut self, options: &FilterOptions<'_>) -> Result<()> {
        if options.kinds == Some(0) {
            return Err(Error::new(Status::Invalid, "no kinds to keep (leave kinds unset to keep every kind)"));
        }
        let (_keep, keep) = c_strings("package", &options.keep)?;
        let (_drop, drop) = c_strings("package", &options.drop)?;
        let mut frame = borrow(&options.keep_frame)?;
        let mut entry = borrow(&options.keep_entry)?;
        let mut method = borrow(&options.keep_method)?;
        let mut type_ = borrow(&options.keep_type)?;
        let mut state = FilterState {
            frame: frame.as_deref_mut().map(|b| &mut **b as _),
            entry: entry.as_deref_mut().map(|b| &mut **b as _),
            method: method.as_deref_mut().map(|b| &mut **b as _),
            type_: type_.as_deref_mut().map(|b| &mut **b as _),
            panic: PanicSlot::default(),
        };
        let opts = sys::iprof_filter_options {
            kinds: options.kinds.unwrap_or(0),
            keep_packages: if keep.is_empty() { ptr::null() } else { keep.as_ptr() },
            keep_package_count: keep.len(),
            drop_packages: if drop.is_empty() { ptr::null() } else { drop.as_ptr() },
            drop_package_count: drop.len(),
            min_count: options.min_count,
            top_percent: options.top_percent,
            max_depth: options.max_depth,
            keep_frame: state.frame.is_some().then_some(keep_frame_tramp as _),
            keep_entry: state.entry.is_some().then_some(keep_entry_tramp as _),
            keep_method: state.method.is_some().then_some(keep_method_tramp as _),
            keep_type: state.type_.is_some().then_some(keep_type_tramp as _),
            payload: (&mut state as *mut FilterState<'_>).cast(),
            ..sys::iprof_filter_options::INIT
        };
        // SAFETY: exclusive access; the options, the pointer arrays, the
        // strings (_keep, _drop) and the predicates' state outlive the call.
        let rc = unsafe { sys::iprof_model_filter(self.mut_ptr(), &opts) };
        state.panic.resume();
        self.result(rc)
    }

    /// Remove what nothing refers to (the methods no entry mentions in any
    /// frame, the types no method signature and no record mentions) or what
    /// refers to the undefined, as `what` says (see [`Prune`]); returns
    /// how many of each went. While the model keeps an unknown top-level
    /// key that may hold ids (anything but `[]`, `{}` or a scalar), which
    /// could name what would go, [`Prune::METHODS`] and [`Prune::TYPES`]
    /// remove nothing ([`Prune::DANGLING`] still does). Ids are not changed.
    pub fn prune(&mut self, what: Prune) -> Result<Pruned> {
        let before = Pruned::count(self);
        // SAFETY: exclusive access: no view of a removed element is alive.
        let rc = unsafe { sys::iprof_model_prune(self.mut_ptr(), what.raw()) };
        self.result(rc)?;
        // Prune only removes: the counts before minus after are what went.
        let after = Pruned::count(self);
        Ok(Pruned {
            types: before.types - after.types,
            methods: before.methods - after.methods,
            entries: std::array::from_fn(|k| before.entries[k] - after.entries[k]),
        })
    }
}

/// What [`Model::prune`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pruned {
    /// Types no longer named (with [`Prune::TYPES`]).
    pub types: usize,
    /// Methods no longer named, or whose signature named an undefined type.
    pub methods: usize,
    /// Entries per kind, indexed by [`Kind`] as `usize` (with
    /// [`Prune::DANGLING`]).
    pub entries: [usize; Kind::ALL.len()],
}

impl Pruned {
    /// The entries of `kind` that went.
    pub fn entries_of(&self, kind: Kind) -> usize {
        self.entries[kind as usize]
    }

    /// The model's element counts (a `Pruned` used as a tally).
    fn count(model: &Model) -> Pruned {
        Pruned {
            types: model.type_count(),
            methods: model.method_count(),
            entries: Kind::ALL.map(|k| model.entry_count(k)),
        }
    }
}

/// A predicate of the options, borrowed for one call: only a predicate
/// that runs a filter with its own options could find it borrowed.
fn borrow<T: ?Sized>(p: &Option<RefCell<Box<T>>>) -> Result<Option<RefMut<'_, Box<T>>>> {
    p.as_ref()
        .map(RefCell::try_borrow_mut)
        .transpose()
        .map_err(|_| Error::new(Status::Invalid, "a filter predicate is already running"))
}

/// The predicates of one [`Model::filter`] call, its C payload.
struct FilterState<'a> {
    frame: Option<&'a mut dyn FnMut(Frame) -> bool>,
    entry: Option<&'a mut dyn for<'m> FnMut(Entry<'m>) -> bool>,
    method: Option<&'a mut dyn for<'m> FnMut(Method<'m>) -> bool>,
    type_: Option<&'a mut dyn for<'m> FnMut(Type<'m>) -> bool>,
    panic: PanicSlot,
}

// The C predicates: non-zero keeps. After a panic everything left is kept
// (a filter cannot be stopped) and the panic resumes afterwards.

unsafe extern "C" fn keep_frame_tramp(method_id: i64, bci: i64, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<FilterState<'_>>();
    let Some(keep) = st.frame.as_mut() else { return 1 };
    c_int::from(st.panic.call(|| keep(Frame::new(method_id, bci))).unwrap_or(true))
}

unsafe extern "C" fn keep_entry_tramp(e: *const sys::iprof_entry, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<FilterState<'_>>();
    let (Some(keep), Some(view)) = (st.entry.as_mut(), Entry::new(e)) else { return 1 };
    c_int::from(st.panic.call(|| keep(view)).unwrap_or(true))
}

unsafe extern "C" fn keep_method_tramp(m: *const sys::iprof_method, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<FilterState<'_>>();
    let (Some(keep), Some(view)) = (st.method.as_mut(), Method::new(m)) else { return 1 };
    c_int::from(st.panic.call(|| keep(view)).unwrap_or(true))
}

unsafe extern "C" fn keep_type_tramp(t: *const sys::iprof_type, payload: *mut c_void) -> c_int {
    let st = &mut *payload.cast::<FilterState<'_>>();
    let (Some(keep), Some(view)) = (st.type_.as_mut(), Type::new(t)) else { return 1 };
    c_int::from(st.panic.call(|| keep(view)).unwrap_or(true))
}
