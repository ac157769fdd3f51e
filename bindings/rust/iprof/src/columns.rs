//! A kind's entries as columns (`iprof_model_get_columns`): every record in one
//! slice with offsets, and each entry's context as its frames in one slice
//! with offsets, borrowed from the model without a copy.

use iprof_sys as sys;

use crate::error::{check, Result};
use crate::model::{Context, Model};
use crate::{slice_from_raw, Frame, Kind};

/// The entries of one kind as columns ([`Model::columns`]): entry `i` is
/// `model.entry_at(kind, i)`. The slices are the model's own arrays
/// (built on the first call for the kind, then kept); they borrow the
/// model, so it cannot change while they are alive.
#[derive(Clone, Copy, Debug)]
pub struct Columns<'m> {
    raw: sys::iprof_columns,
    _model: &'m Model,
}

impl<'m> Columns<'m> {
    /// The kind.
    pub fn kind(&self) -> Kind {
        Kind::from_raw(self.raw.kind).unwrap_or(Kind::CallCount)
    }
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.raw.count
    }
    /// Whether the kind has no entries.
    pub fn is_empty(&self) -> bool {
        self.raw.count == 0
    }
    /// Every record, entry after entry.
    pub fn records(&self) -> &'m [i64] {
        // SAFETY: record_count values, the model's until its entries of the
        // kind change, which needs &mut Model: not during 'm.
        unsafe { slice_from_raw(self.raw.records, self.raw.record_count) }
    }
    /// `len() + 1` offsets: entry `i`'s records are
    /// `records()[offsets()[i]..offsets()[i + 1]]`.
    pub fn offsets(&self) -> &'m [u64] {
        // SAFETY: as records(); count + 1 values.
        unsafe { slice_from_raw(self.raw.offsets, self.raw.count + 1) }
    }
    /// Every entry's context frames, callee first, entry after entry.
    pub fn frames(&self) -> &'m [Frame] {
        // SAFETY: as records(); frame_count (method id, bci) pairs, the
        // layout of Frame (repr(C), two i64).
        unsafe { slice_from_raw(self.raw.frames as *const Frame, self.raw.frame_count) }
    }
    /// `len() + 1` offsets: entry `i`'s frames are
    /// `frames()[frame_offsets()[i]..frame_offsets()[i + 1]]`.
    pub fn frame_offsets(&self) -> &'m [u64] {
        // SAFETY: as records(); count + 1 values.
        unsafe { slice_from_raw(self.raw.frame_offsets, self.raw.count + 1) }
    }
    /// The records of entry `i` (panics when `i >= len()`).
    pub fn entry_records(&self, i: usize) -> &'m [i64] {
        let o = self.offsets();
        &self.records()[o[i] as usize..o[i + 1] as usize]
    }
    /// The frames of entry `i` (panics when `i >= len()`).
    pub fn entry_frames(&self, i: usize) -> &'m [Frame] {
        let o = self.frame_offsets();
        &self.frames()[o[i] as usize..o[i + 1] as usize]
    }
    /// The context of entry `i` (panics when `i >= len()`).
    pub fn context(&self, i: usize) -> Context<'m> {
        assert!(i < self.raw.count, "entry {i} of {}", self.raw.count);
        // SAFETY: count context pointers, each a node of the model.
        unsafe { Context::new(*self.raw.contexts.add(i)) }.expect("an entry has a context")
    }
}

impl Model {
    /// Every entry of `kind` as columns, without a copy (the C model keeps
    /// them once built, until the kind's entries change). Fails only with
    /// [`crate::Status::NoMemory`] on the first call for a kind.
    pub fn columns(&self, kind: Kind) -> Result<Columns<'_>> {
        let mut raw = sys::iprof_columns::INIT;
        // SAFETY: read-only; raw is a valid, versioned struct.
        check(unsafe { sys::iprof_model_get_columns(self.as_ptr(), kind.raw(), &mut raw) })?;
        Ok(Columns { raw, _model: self })
    }
}
