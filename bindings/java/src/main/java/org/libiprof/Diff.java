package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The comparison of model A with model B ({@code iprof_diff}): what each
 * lacks, overlap of count mass, the biggest changes and the staleness
 * score. It reads both models: it throws {@link ClosedException} once it
 * or either model is closed and {@link StaleException} once either model
 * changed since it was made. Close it when done.
 */
public final class Diff implements AutoCloseable {
    /** The two sides. */
    public enum Side {
        /** The first model, the one {@link Model#diff} was called on. */
        A,
        /** The second model. */
        B
    }

    /**
     * A changed entry.
     * @param context the readable context, "Fib.fibonacci:11 &lt; Fib.main:9"
     * @param entryA the entry in A, or null
     * @param entryB the entry in B, or null
     * @param countA its count in A
     * @param countB its count in B
     * @param shareA its share of A's count mass of the kind
     * @param shareB its share of B's
     * @param delta shareB - shareA
     * @param relative delta / shareA; infinite when A lacks it
     */
    public record Change(String context, Entry entryA, Entry entryB, long countA, long countB, double shareA,
                         double shareB, double delta, double relative) {
    }

    private final Handle h;
    private final Model a;
    private final Model b;
    private final long mutationsA;
    private final long mutationsB;

    Diff(Model a, Model b, int top) {
        this.a = a;
        this.b = b;
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment o = tmp.allocate(24, 8);
            int rc = (int) Native.DIFF_OPTIONS_INIT.invokeExact(o, 1);
            if (rc != 0) {
                throw new IprofException(Status.of(rc), "iprof_diff_options_init refused version 1");
            }
            o.set(ValueLayout.JAVA_LONG, 16, (long) Math.max(top, 0));
            MemorySegment out = Handle.out(tmp);
            rc = (int) Native.DIFF_NEW.invokeExact(out, a.ptr(), b.ptr(), o);
            if (rc != 0) {
                throw new IprofException(Status.of(rc), "iprof_diff_new failed");
            }
            h = new Handle(out.get(ValueLayout.ADDRESS, 0), Native.DIFF_FREE, "this Diff");
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        mutationsA = a.mutations();
        mutationsB = b.mutations();
    }

    private MemorySegment p() {
        MemorySegment p = h.ptr();
        a.ptr();
        b.ptr();
        if (a.mutations() != mutationsA || b.mutations() != mutationsB) {
            throw new StaleException("a model of this Diff changed since; compare them again");
        }
        return p;
    }

    private Model model(Side s) {
        return s == Side.A ? a : b;
    }

    /**
     * {@return its methods whose key the other side lacks}
     * @param side a side
     */
    public List<Method> methodsOnly(Side side) {
        try {
            MemorySegment p = p();
            long n = (long) Native.DIFF_METHOD_ONLY_COUNT.invokeExact(p, side.ordinal());
            List<Method> out = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                out.add(model(side).method((MemorySegment) Native.DIFF_METHOD_ONLY_AT.invokeExact(p, side.ordinal(), i)));
            }
            return out;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return how many of its methods the other side also has}
     * @param side a side
     */
    public long methodCommonCount(Side side) {
        try {
            return (long) Native.DIFF_METHOD_COMMON_COUNT.invokeExact(p(), side.ordinal());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return how many of its entries have a context the other side lacks}
     * @param side a side
     * @param kind a kind
     */
    public long contextOnlyCount(Side side, Kind kind) {
        try {
            return (long) Native.DIFF_CONTEXT_ONLY_COUNT.invokeExact(p(), side.ordinal(), kind.code());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return how many of its entries have a context the other side also has}
     * @param side a side
     * @param kind a kind
     */
    public long contextCommonCount(Side side, Kind kind) {
        try {
            return (long) Native.DIFF_CONTEXT_COMMON_COUNT.invokeExact(p(), side.ordinal(), kind.code());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return its count mass of the kind (unsigned; saturating)}
     * @param side a side
     * @param kind a kind
     */
    public long total(Side side, Kind kind) {
        try {
            return (long) Native.DIFF_TOTAL.invokeExact(p(), side.ordinal(), kind.code());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return its count mass on contexts the other side also has}
     * @param side a side
     * @param kind a kind
     */
    public long commonTotal(Side side, Kind kind) {
        try {
            return (long) Native.DIFF_COMMON_TOTAL.invokeExact(p(), side.ordinal(), kind.code());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return commonTotal / total in 0 .. 1, or NaN without count mass}
     * @param side a side
     * @param kind a kind
     */
    public double overlap(Side side, Kind kind) {
        try {
            double v = (double) Native.DIFF_OVERLAP.invokeExact(p(), side.ordinal(), kind.code());
            return v < 0 ? Double.NaN : v;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return the changed entries kept, biggest |delta| first}
     * @param kind a kind
     */
    public List<Change> changes(Kind kind) {
        try {
            MemorySegment p = p();
            int k = kind.code();
            long n = (long) Native.DIFF_CHANGE_COUNT.invokeExact(p, k);
            List<Change> out = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                long idx = i;
                String ctx = Model.snprintf((buf, size) -> {
                    try {
                        return (long) Native.DIFF_CHANGE_DESCRIBE.invokeExact(p, k, idx, buf, size);
                    } catch (Throwable t) {
                        throw Native.rethrow(t);
                    }
                });
                out.add(new Change(ctx,
                        a.entry(kind, (MemorySegment) Native.DIFF_CHANGE_ENTRY.invokeExact(p, k, i, 0)),
                        b.entry(kind, (MemorySegment) Native.DIFF_CHANGE_ENTRY.invokeExact(p, k, i, 1)),
                        (long) Native.DIFF_CHANGE_VALUE.invokeExact(p, k, i, 0),
                        (long) Native.DIFF_CHANGE_VALUE.invokeExact(p, k, i, 1),
                        (double) Native.DIFF_CHANGE_SHARE.invokeExact(p, k, i, 0),
                        (double) Native.DIFF_CHANGE_SHARE.invokeExact(p, k, i, 1),
                        (double) Native.DIFF_CHANGE_DELTA.invokeExact(p, k, i),
                        (double) Native.DIFF_CHANGE_RELATIVE.invokeExact(p, k, i)));
            }
            return out;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the staleness score in 0 .. 1 (0: the compiler is told the same)} */
    public double staleness() {
        try {
            return (double) Native.DIFF_STALENESS.invokeExact(p());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return the kind's part of the score, or NaN when neither side has count mass of it}
     * @param kind a kind
     */
    public double staleness(Kind kind) {
        try {
            double v = (double) Native.DIFF_STALENESS_KIND.invokeExact(p(), kind.code());
            return v < 0 ? Double.NaN : v;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Free the result; the models are not touched. */
    @Override
    public void close() {
        h.close();
    }
}
