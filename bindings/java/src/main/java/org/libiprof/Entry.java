package org.libiprof;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A profile entry of a model: kind, context and records. Valid until its
 * model is closed or the next change to entries of its kind (C: "entry
 * pointers are valid until the next change to entries of that kind");
 * then every access, and every records view taken from it, throws. Keep
 * its {@link Context} to find it again with {@link Model#findEntry}.
 */
public final class Entry {
    private final Model model;
    private final Kind kind;
    private final MemorySegment ptr;
    private final int gen;

    Entry(Model model, Kind kind, MemorySegment ptr) {
        this.model = model;
        this.kind = kind;
        this.ptr = ptr;
        this.gen = model.kindGen[kind.ordinal()];
    }

    MemorySegment p() {
        model.ptr();
        if (gen != model.kindGen[kind.ordinal()]) {
            throw new StaleException("this Entry was invalidated by a change to " + kind.key()
                    + "; look it up again (Model.findEntry)");
        }
        return ptr;
    }

    /** {@return the model it belongs to} */
    public Model model() {
        return model;
    }

    /** {@return its kind} */
    public Kind kind() {
        return kind;
    }

    /** {@return its context} */
    public Context context() {
        try {
            return model.context((MemorySegment) Native.ENTRY_CONTEXT.invokeExact(p()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return its records as a C array of {@link #recordCount()} values, in the model's scope} */
    private MemorySegment raw(long[] n) {
        try {
            return (MemorySegment) Native.ENTRY_RECORDS.invokeExact(p(), MemorySegment.ofArray(n));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the number of records} */
    public int recordCount() {
        long[] n = new long[1];
        raw(n);
        return (int) n[0];
    }

    /**
     * {@return record i}
     * @param i 0 .. recordCount() - 1
     */
    public long record(int i) {
        long[] n = new long[1];
        MemorySegment r = raw(n);
        if (i < 0 || i >= n[0]) {
            throw new IndexOutOfBoundsException("record " + i + " of " + n[0]);
        }
        return r.reinterpret(n[0] * 8).getAtIndex(ValueLayout.JAVA_LONG, i);
    }

    /** {@return a copy of the records} */
    public long[] records() {
        long[] n = new long[1];
        MemorySegment r = raw(n);
        return n[0] == 0 ? new long[0] : r.reinterpret(n[0] * 8).toArray(ValueLayout.JAVA_LONG);
    }

    /**
     * The records without a copy: a read-only segment of {@code recordCount()} int64 values
     * ({@code view.getAtIndex(ValueLayout.JAVA_LONG, i)}). It is valid as long as this entry:
     * after a change to entries of its kind, or the model's close, reading it throws
     * {@link IllegalStateException} instead of reading freed memory.
     * @return the view
     */
    public MemorySegment recordsView() {
        long[] n = new long[1];
        MemorySegment r = raw(n);
        return model.view(kind, r, n[0] * 8);
    }

    /** {@return the sum of its count slots, saturating ({@code iprof_entry_total})} */
    public long total() {
        try {
            return (long) Native.ENTRY_TOTAL.invokeExact(p());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * The successor probabilities of a conditional entry, as GraalVM applies them: one
     * (bci, probability) per record whose bci is not {@link Iprof#INVALID_BRANCH_BCI}.
     * @return the pairs in record order, or empty when the counts add up to 0 or less
     * @throws IprofException EINVAL for another kind, ESCHEMA when the records are not whole triples
     */
    public Optional<List<BranchProbability>> branchProbabilities() {
        int cap = Math.max(recordCount() / 3, 1);
        long[] bcis = new long[cap];
        double[] probs = new double[cap];
        long[] count = new long[1];
        int rc;
        try {
            rc = (int) Native.ENTRY_BRANCH_PROBABILITIES.invokeExact(p(), MemorySegment.ofArray(bcis),
                    MemorySegment.ofArray(probs), (long) cap, MemorySegment.ofArray(count));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        if (rc == Status.ENOTFOUND.code()) {
            return Optional.empty();
        }
        check(rc, "branch probabilities");
        List<BranchProbability> out = new ArrayList<>();
        for (int i = 0; i < count[0]; i++) {
            out.add(new BranchProbability(bcis[i], probs[i]));
        }
        return Optional.of(out);
    }

    /**
     * The receiver-type shares of a virtual invoke, instanceof or monitor entry, as GraalVM
     * builds a type profile: highest share first, ties by type id.
     * @return the shares and the probability left for types not recorded (empty shares
     *         for an entry without pairs)
     * @throws IprofException EINVAL for another kind, ESCHEMA for an odd record count
     */
    public TypeShares typeShares() {
        int cap = Math.max(recordCount() / 2, 1);
        long[] types = new long[cap];
        double[] shares = new double[cap];
        long[] count = new long[1];
        double[] other = new double[1];
        int rc;
        try {
            rc = (int) Native.ENTRY_TYPE_SHARES.invokeExact(p(), MemorySegment.ofArray(types),
                    MemorySegment.ofArray(shares), (long) cap, MemorySegment.ofArray(count),
                    MemorySegment.ofArray(other));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        if (rc == Status.ENOTFOUND.code()) {
            return new TypeShares(List.of(), Iprof.EXTREMELY_SLOW_PATH_PROBABILITY);
        }
        check(rc, "type shares");
        List<TypeShares.Share> out = new ArrayList<>();
        for (int i = 0; i < count[0]; i++) {
            out.add(new TypeShares.Share(types[i], shares[i]));
        }
        return new TypeShares(out, other[0]);
    }

    private void check(int rc, String what) {
        if (rc != 0) {
            Status s = Status.of(rc);
            String why = s == Status.EINVAL ? "a " + kind.key() + " entry has no " + what
                                            : "the records of this " + kind.key() + " entry are not whole "
                                              + (kind == Kind.CONDITIONAL ? "triples" : "pairs");
            throw new IprofException(s, why);
        }
    }

    /** {@return its kind and readable context, "callCountProfiles Fib.fibonacci:11 &lt; Fib.main:9"} */
    public String describe() {
        return kind.key() + " " + context().describe();
    }

    /** {@return false once its model is closed or it went stale} */
    public boolean valid() {
        return !model.isClosed() && gen == model.kindGen[kind.ordinal()];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Entry e && e.model == model && e.ptr.address() == ptr.address() && e.gen == gen;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(ptr.address()) ^ System.identityHashCode(model);
    }

    /** {@return "Entry(kind ctx records)"} */
    @Override
    public String toString() {
        return valid() ? "Entry(" + kind.key() + " " + context() + " " + java.util.Arrays.toString(records()) + ")"
                       : "Entry(invalid)";
    }
}
