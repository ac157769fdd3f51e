//! Comparing two models (diff.h).

use std::fmt;
use std::iter::FusedIterator;
use std::ptr::{self, NonNull};

use iprof_sys as sys;

use crate::error::{check, Error, Result, Status};
use crate::model::{Entry, Method, Model};
use crate::Kind;

/// A side of a [`Diff`]: the first or the second model compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(i32)]
pub enum Side {
    /// Model A, the first argument of [`Diff::new`].
    A = 0,
    /// Model B, the second argument of [`Diff::new`].
    B = 1,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    fn raw(self) -> i32 {
        self as i32
    }
}

/// The comparison of model A with model B (`iprof_diff`): which methods
/// and contexts each has that the other lacks, how much of each side's
/// count mass the other covers ([`overlap`](Self::overlap)), and the
/// entries whose normalised counts changed most ([`changes`](Self::changes)).
///
/// Nothing is matched by id: methods match by their key (name and the names
/// of the signature types), contexts frame by frame by bci and matching
/// method, entries of a kind by context.
///
/// ```no_run
/// # use iprof::{Diff, FilterOptions, Kind, Model, Side};
/// # fn main() -> Result<(), iprof::Error> {
/// let old = Model::load("old.iprof")?;
/// let mut new = Model::load("new.iprof.gz")?;
/// {
///     let d = Diff::with_top(&old, &new, 5)?; // borrows old and new
///     println!("{} in common, {} only in old", d.method_common_count(Side::A), d.method_only_count(Side::A));
///     for c in d.changes(Kind::CallCount) {
///         println!("{:+.4} {}", c.delta, c.context);
///     }
/// }
/// new.filter(&FilterOptions::new().keep_package("com.example").min_count(10).top_percent(99.0))?;
/// new.canonicalize()?;
/// new.save("small.iprof.gz")?;
/// # Ok(()) }
/// ```
///
/// `Diff<'a>` borrows both models for `'a`, as the C result does: they
/// cannot be dropped or changed while it exists, which the borrow checker
/// enforces:
///
/// ```compile_fail,E0502
/// # fn main() -> Result<(), iprof::Error> {
/// let mut a = iprof::Model::new()?;
/// let b = iprof::Model::new()?;
/// let diff = iprof::Diff::new(&a, &b)?;
/// a.add_type(1, "A")?;   // error: `a` is borrowed by `diff`
/// println!("{}", diff.method_common_count(iprof::Side::A));
/// # Ok(()) }
/// ```
///
/// The [`Method`]s and [`Entry`]s it hands out belong to the models (`'a`),
/// not to the result. `Send` and `Sync`: any number of threads may read a
/// result at once.
pub struct Diff<'a> {
    raw: NonNull<sys::iprof_diff>,
    models: [&'a Model; 2],
    top: usize,
}

// SAFETY: the result is only read by its accessors ("any number of threads
// may use it at once"), has no thread affinity (libc allocator), and the
// models it borrows are Sync.
unsafe impl Send for Diff<'_> {}
unsafe impl Sync for Diff<'_> {}

impl<'a> Diff<'a> {
    /// Compare `a` with `b`, keeping the [`IPROF_DIFF_DEFAULT_TOP`](sys::IPROF_DIFF_DEFAULT_TOP)
    /// (10) biggest changes per kind. `a` and `b` may be the same model.
    pub fn new(a: &'a Model, b: &'a Model) -> Result<Diff<'a>> {
        Diff::with_top(a, b, sys::IPROF_DIFF_DEFAULT_TOP)
    }

    /// Compare `a` with `b`, keeping the `top` biggest changes per kind
    /// ([`Status::Invalid`] for 0).
    pub fn with_top(a: &'a Model, b: &'a Model, top: usize) -> Result<Diff<'a>> {
        if top == 0 {
            return Err(Error::new(Status::Invalid, "top must be at least 1"));
        }
        let opts = sys::iprof_diff_options { top, ..sys::iprof_diff_options::INIT };
        let mut raw = ptr::null_mut();
        // SAFETY: valid out pointer and options; both models are borrowed
        // (unchanged, alive) for 'a, which the result does not outlive.
        check(unsafe { sys::iprof_diff_new(&mut raw, a.as_ptr(), b.as_ptr(), &opts) })?;
        let raw = NonNull::new(raw).ok_or_else(|| Error::from_code(sys::IPROF_ENOMEM))?;
        Ok(Diff { raw, models: [a, b], top })
    }

    fn ptr(&self) -> *const sys::iprof_diff {
        self.raw.as_ptr()
    }

    /// The C handle, for calling `iprof_sys` directly (owned by this value).
    pub fn as_ptr(&self) -> *const sys::iprof_diff {
        self.ptr()
    }

    /// The model of a side.
    pub fn model(&self, side: Side) -> &'a Model {
        self.models[side as usize]
    }

    /// The number of changed entries kept per kind.
    pub fn top(&self) -> usize {
        self.top
    }

    /// The method counts and the staleness (`iprof_diff_get_summary`).
    fn summary(&self) -> sys::iprof_diff_summary {
        let mut out = sys::iprof_diff_summary::INIT;
        // SAFETY: read-only; out is a valid, versioned struct. The call
        // fails only for a bad version or a NULL argument, neither possible.
        unsafe { sys::iprof_diff_get_summary(self.ptr(), &mut out) };
        out
    }

    /// Everything the result holds about `kind` (`iprof_diff_get_kind`).
    fn kind_summary(&self, kind: Kind) -> sys::iprof_diff_kind_summary {
        let mut out = sys::iprof_diff_kind_summary::INIT;
        // SAFETY: as summary; a Kind is always a valid kind.
        unsafe { sys::iprof_diff_get_kind(self.ptr(), kind.raw(), &mut out) };
        out
    }

    // -- methods -----------------------------------------------------------

    /// The number of `side`'s methods whose key the other side lacks.
    pub fn method_only_count(&self, side: Side) -> usize {
        self.summary().method_only_count[side as usize]
    }

    /// `side`'s methods whose key the other side lacks, in that side's file
    /// order (methods of [`model(side)`](Self::model)).
    pub fn methods_only(&self, side: Side) -> OnlyMethods<'_, 'a> {
        OnlyMethods { diff: self, side, front: 0, back: self.method_only_count(side) }
    }

    /// The number of `side`'s methods whose key the other side has (the
    /// two sides differ only when one repeats a key).
    pub fn method_common_count(&self, side: Side) -> usize {
        self.summary().method_common_count[side as usize]
    }

    // -- contexts and count mass per kind ------------------------------------

    /// The number of `side`'s entries of `kind` whose context the other
    /// side has no entry of `kind` for.
    pub fn context_only_count(&self, side: Side, kind: Kind) -> usize {
        self.kind_summary(kind).context_only_count[side as usize]
    }

    /// The number of `side`'s entries of `kind` whose context the other
    /// side also has an entry of `kind` for.
    pub fn context_common_count(&self, side: Side, kind: Kind) -> usize {
        self.kind_summary(kind).context_common_count[side as usize]
    }

    /// The sum of the counts of `side`'s entries of `kind` (saturating).
    pub fn total(&self, side: Side, kind: Kind) -> u64 {
        self.kind_summary(kind).total[side as usize]
    }

    /// The same sum over `side`'s entries whose context the other side has.
    pub fn common_total(&self, side: Side, kind: Kind) -> u64 {
        self.kind_summary(kind).common_total[side as usize]
    }

    /// `common_total / total`: the share of `side`'s count mass of `kind`
    /// that the other side also has, in `0..=1`; `None` when `side` has no
    /// count mass of `kind` (the share is undefined).
    pub fn overlap(&self, side: Side, kind: Kind) -> Option<f64> {
        let v = self.kind_summary(kind).overlap[side as usize];
        (v >= 0.0).then_some(v)
    }

    // -- staleness -----------------------------------------------------------

    /// How far B's hot behaviour moved from A's, in `0..=1`: 0 when both
    /// tell GraalVM the same (hotness, branch probabilities, receiver-type
    /// shares), 1 when they have nothing in common; the mean of
    /// [`kind_staleness`](Self::kind_staleness) over the kinds where it is
    /// defined. Symmetric; `include/iprof/diff.h` gives the formula. A CI
    /// gate fails when it is above a threshold.
    pub fn staleness(&self) -> f64 {
        self.summary().staleness
    }

    /// The part of [`staleness`](Self::staleness) of `kind`, in `0..=1`;
    /// `None` when neither side has count mass of `kind`.
    pub fn kind_staleness(&self, kind: Kind) -> Option<f64> {
        let v = self.kind_summary(kind).staleness;
        (v >= 0.0).then_some(v)
    }

    // -- changes -------------------------------------------------------------

    /// The number of changed entries kept for `kind` (at most
    /// [`top`](Self::top)).
    pub fn change_count(&self, kind: Kind) -> usize {
        self.kind_summary(kind).change_count
    }

    /// Changed entry `index` of `kind` (biggest `|delta|` first).
    pub fn change(&self, kind: Kind, index: usize) -> Option<Change<'a>> {
        let mut c = sys::iprof_diff_change::INIT;
        // SAFETY: read-only; c is a valid, versioned struct. An index past
        // the kept changes fails (and leaves c alone).
        if unsafe { sys::iprof_diff_get_change(self.ptr(), kind.raw(), index, &mut c) } != sys::IPROF_OK {
            return None;
        }
        // SAFETY: the entries belong to the models, borrowed (unchanged)
        // for 'a.
        let (entry_a, entry_b) = unsafe { (Entry::new(c.entry[0]), Entry::new(c.entry[1])) };
        // The readable context as A describes it, B when A lacks the entry.
        let (side, entry) = match (&entry_a, &entry_b) {
            (Some(e), _) => (Side::A, e),
            (None, Some(e)) => (Side::B, e),
            (None, None) => unreachable!("a change has an entry on one side at least"),
        };
        let context = self.model(side).describe_context(entry.context());
        Some(Change {
            kind,
            context,
            count_a: c.value[0],
            count_b: c.value[1],
            share_a: c.share[0],
            share_b: c.share[1],
            delta: c.delta,
            relative: c.relative.is_finite().then_some(c.relative),
            entry_a,
            entry_b,
        })
    }

    /// The changed entries of `kind`, biggest `|delta|` first (ties in A's
    /// file order, then B's), at most [`top`](Self::top).
    pub fn changes(&self, kind: Kind) -> Changes<'_, 'a> {
        Changes { diff: self, kind, front: 0, back: self.change_count(kind) }
    }
}

impl Drop for Diff<'_> {
    fn drop(&mut self) {
        // SAFETY: we own the result; the models are not touched.
        unsafe { sys::iprof_diff_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Diff<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Diff")
            .field("methods_in_common", &self.method_common_count(Side::A))
            .field("methods_only_in_a", &self.method_only_count(Side::A))
            .field("methods_only_in_b", &self.method_only_count(Side::B))
            .field("top", &self.top)
            .finish()
    }
}

/// One of the entries of a kind whose normalised count changed most
/// between A and B. `share` is count / total of the kind on that side (0
/// where the side lacks the entry).
#[derive(Clone, Debug)]
pub struct Change<'a> {
    /// The kind.
    pub kind: Kind,
    /// The readable context ("Fib.fibonacci:11 < Fib.main:9"), as model A
    /// describes it, or model B when A lacks the entry.
    pub context: String,
    /// The entry of model A, `None` when A lacks it.
    pub entry_a: Option<Entry<'a>>,
    /// The entry of model B, `None` when B lacks it.
    pub entry_b: Option<Entry<'a>>,
    /// The entry's count in A (0 when A lacks it).
    pub count_a: u64,
    /// The entry's count in B (0 when B lacks it).
    pub count_b: u64,
    /// count_a / total(A, kind).
    pub share_a: f64,
    /// count_b / total(B, kind).
    pub share_b: f64,
    /// share_b - share_a, never 0.
    pub delta: f64,
    /// delta / share_a; `None` when share_a is 0 (an infinite change: the
    /// entry is new in B, or had a zero count in A).
    pub relative: Option<f64>,
}

impl PartialEq for Change<'_> {
    /// Compares the values; entries by identity (the same entry of the same
    /// model).
    fn eq(&self, other: &Self) -> bool {
        let same = |x: &Option<Entry<'_>>, y: &Option<Entry<'_>>| match (x, y) {
            (Some(x), Some(y)) => ptr::eq(x.as_ptr(), y.as_ptr()),
            (None, None) => true,
            _ => false,
        };
        self.kind == other.kind
            && self.context == other.context
            && same(&self.entry_a, &other.entry_a)
            && same(&self.entry_b, &other.entry_b)
            && self.count_a == other.count_a
            && self.count_b == other.count_b
            && self.share_a == other.share_a
            && self.share_b == other.share_b
            && self.delta == other.delta
            && self.relative == other.relative
    }
}

/// The methods of one side that the other lacks (double-ended, exact size).
#[derive(Clone, Debug)]
pub struct OnlyMethods<'d, 'a> {
    diff: &'d Diff<'a>,
    side: Side,
    front: usize,
    back: usize,
}

/// The changed entries of one kind (double-ended, exact size).
#[derive(Clone, Debug)]
pub struct Changes<'d, 'a> {
    diff: &'d Diff<'a>,
    kind: Kind,
    front: usize,
    back: usize,
}

impl<'a> OnlyMethods<'_, 'a> {
    fn at(&self, i: usize) -> Option<Method<'a>> {
        // SAFETY: the method belongs to the model of the side, borrowed for 'a.
        unsafe { Method::new(sys::iprof_diff_method_only_at(self.diff.ptr(), self.side.raw(), i)) }
    }
}

impl<'a> Changes<'_, 'a> {
    fn at(&self, i: usize) -> Option<Change<'a>> {
        self.diff.change(self.kind, i)
    }
}

macro_rules! diff_iter {
    ($name:ident, $item:ty) => {
        impl<'a> Iterator for $name<'_, 'a> {
            type Item = $item;
            fn next(&mut self) -> Option<$item> {
                if self.front >= self.back {
                    return None;
                }
                let item = self.at(self.front);
                self.front += 1;
                item
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.back - self.front;
                (n, Some(n))
            }
            fn nth(&mut self, n: usize) -> Option<$item> {
                self.front = self.front.saturating_add(n).min(self.back);
                self.next()
            }
        }
        impl<'a> DoubleEndedIterator for $name<'_, 'a> {
            fn next_back(&mut self) -> Option<$item> {
                if self.front >= self.back {
                    return None;
                }
                self.back -= 1;
                self.at(self.back)
            }
        }
        impl ExactSizeIterator for $name<'_, '_> {}
        impl FusedIterator for $name<'_, '_> {}
    };
}

diff_iter!(OnlyMethods, Method<'a>);
diff_iter!(Changes, Change<'a>);
