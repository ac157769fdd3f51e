//! What a profile tells the compiler (analysis.h): branch probabilities and
//! receiver-type shares as GraalVM's PGO derives them from an entry, entry
//! totals and the hottest methods.

use iprof_sys as sys;

use crate::error::{check, Error, Result, Status};
use crate::model::{Entry, Model};
use crate::Kind;

/// GraalVM's `EXTREMELY_SLOW_PATH_PROBABILITY` (`1 - 0.999999`): the
/// probability a branch that never ran is given instead of 0, and the
/// share left for the receiver types a profile did not record.
pub const EXTREMELY_SLOW_PATH_PROBABILITY: f64 = sys::IPROF_EXTREMELY_SLOW_PATH_PROBABILITY;

/// The bci GraalVM writes for switch cases that share their target with
/// another case: such a record adds its count to its branch index and gets
/// no probability of its own.
pub const INVALID_BRANCH_BCI: i64 = sys::IPROF_INVALID_BRANCH_BCI;

impl<'m> Entry<'m> {
    /// The entry's total count: the sum of the count slot of its records
    /// (call count and sampling: the value; conditional: every third
    /// value; virtual invoke, monitor, instanceof: every second),
    /// saturating at the `i64` limits.
    pub fn total(&self) -> i64 {
        // SAFETY: a valid entry for 'm, only read.
        unsafe { sys::iprof_entry_total(self.as_ptr()) }
    }

    /// The successor probabilities GraalVM's PGO derives from this
    /// conditional entry, bit for bit: `(bci, probability)` for each bci in
    /// the order of its first record, except [`INVALID_BRANCH_BCI`] (switch
    /// cases sharing a target). Every record counts, a repeated
    /// `(bci, index)` too: counts are summed per branch index, each record
    /// gets its index's sum over (its index's records x the entry's sum), a
    /// 0 becomes [`EXTREMELY_SLOW_PATH_PROBABILITY`] (the others scaled so
    /// that they still add up to 1), each index gets the sum of its
    /// records' probabilities and each bci its last record's index's.
    ///
    /// `Ok(None)` when the counts add up to 0: GraalVM applies no
    /// probabilities. [`Status::Invalid`] for an entry of another kind,
    /// [`Status::Schema`] for records that are not `(bci, index, count)`
    /// triples (a leniently loaded file).
    pub fn branch_probabilities(&self) -> Result<Option<Vec<(i64, f64)>>> {
        let (rc, pairs) = self.analysis(3, "branch probabilities need a conditional entry", |e, ids, values, cap, count| {
            // SAFETY: both arrays hold `cap` values, as the C function is told.
            unsafe { sys::iprof_entry_branch_probabilities(e, ids, values, cap, count) }
        })?;
        Ok((rc == sys::IPROF_OK).then_some(pairs))
    }

    /// The receiver-type profile GraalVM's PGO builds from this virtual
    /// invoke, instanceof or monitor entry: `(shares, not_recorded)`, where
    /// `shares` holds `(type id, share)` with the counts of a type summed,
    /// highest share first (ties by ascending type id), each
    /// `(1 - not_recorded) * count / total` (a total below 1 counts as 1),
    /// and `not_recorded`, the probability left for the types the profile
    /// did not see, is [`EXTREMELY_SLOW_PATH_PROBABILITY`]. An entry
    /// without records gives no shares.
    ///
    /// [`Status::Invalid`] for an entry of another kind, [`Status::Schema`]
    /// for an odd number of records (a leniently loaded file).
    pub fn type_shares(&self) -> Result<(Vec<(i64, f64)>, f64)> {
        let mut not_recorded = EXTREMELY_SLOW_PATH_PROBABILITY;
        let what = "type shares need a virtual invoke, instanceof or monitor entry";
        let (_, pairs) = self.analysis(2, what, |e, ids, values, cap, count| {
            // SAFETY: both arrays hold `cap` values; not_recorded is a valid
            // out pointer.
            unsafe { sys::iprof_entry_type_shares(e, ids, values, cap, count, &mut not_recorded) }
        })?;
        Ok((pairs, not_recorded))
    }

    /// Call an analysis.h function with output arrays of one value per
    /// group of `group` records (what the C functions need as scratch
    /// space); IPROF_OK and IPROF_ENOTFOUND come back with the pairs.
    fn analysis(
        &self,
        group: usize,
        what: &str,
        f: impl FnOnce(*const sys::iprof_entry, *mut i64, *mut f64, usize, *mut usize) -> i32,
    ) -> Result<(i32, Vec<(i64, f64)>)> {
        let records = self.records().len();
        let cap = records / group;
        let (mut ids, mut values, mut count) = (vec![0i64; cap], vec![0f64; cap], 0usize);
        let rc = f(self.as_ptr(), ids.as_mut_ptr(), values.as_mut_ptr(), cap, &mut count);
        match rc {
            sys::IPROF_OK | sys::IPROF_ENOTFOUND => {
                let n = count.min(cap);
                Ok((rc, ids[..n].iter().copied().zip(values[..n].iter().copied()).collect()))
            }
            sys::IPROF_EINVAL => Err(Error::new(Status::Invalid, format!("{what}, not a {} entry", self.kind()))),
            sys::IPROF_ESCHEMA => Err(Error::new(
                Status::Schema,
                format!("this {} entry has {records} records, not a multiple of {group}", self.kind()),
            )),
            _ => check(rc).map(|()| (rc, Vec::new())),
        }
    }
}

impl Model {
    /// The hottest methods by the entries of `kind`: `(method id, total)`,
    /// hottest first, ties by ascending method id, where a method's total
    /// is the sum of [`Entry::total`] over the entries whose callee
    /// (frame 0) it is (saturating). With [`Kind::CallCount`] this is the
    /// "hottest methods by call count" of `iprof stats`. `limit`: at most
    /// this many (the hottest); `None` for all. Monitor entries all count
    /// for method 0 (their `0:0` ctx).
    ///
    /// Fails only with [`Status::NoMemory`] (the C function's working
    /// memory, 16 bytes per entry of the kind).
    pub fn method_totals(&self, kind: Kind, limit: Option<usize>) -> Result<Vec<(i64, i64)>> {
        // No more methods than entries.
        let cap = limit.unwrap_or(usize::MAX).min(self.entry_count(kind));
        let (mut ids, mut totals, mut count) = (vec![0i64; cap], vec![0i64; cap], 0usize);
        // SAFETY: read-only; both arrays hold `cap` values.
        check(unsafe {
            sys::iprof_model_method_totals(self.as_ptr(), kind.raw(), ids.as_mut_ptr(), totals.as_mut_ptr(), cap, &mut count)
        })?;
        let n = count.min(cap);
        Ok(ids[..n].iter().copied().zip(totals[..n].iter().copied()).collect())
    }
}
