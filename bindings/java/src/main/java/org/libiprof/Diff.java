package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
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

    // ---- the three C structs (include/iprof/diff.h), each filled by one call ----

    private static final MemoryLayout SIDES_L = MemoryLayout.sequenceLayout(2, ValueLayout.JAVA_LONG);
    private static final MemoryLayout SIDES_D = MemoryLayout.sequenceLayout(2, ValueLayout.JAVA_DOUBLE);
    /** {@code struct iprof_diff_summary}. */
    static final StructLayout SUMMARY = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), MemoryLayout.paddingLayout(4),
            SIDES_L.withName("method_only_count"), SIDES_L.withName("method_common_count"),
            ValueLayout.JAVA_DOUBLE.withName("staleness"));
    /** {@code struct iprof_diff_kind_summary}. */
    static final StructLayout KIND_SUMMARY = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), MemoryLayout.paddingLayout(4),
            SIDES_L.withName("context_only_count"), SIDES_L.withName("context_common_count"),
            SIDES_L.withName("total"), SIDES_L.withName("common_total"), SIDES_D.withName("overlap"),
            ValueLayout.JAVA_DOUBLE.withName("staleness"), ValueLayout.JAVA_LONG.withName("change_count"));
    /** {@code struct iprof_diff_change}. */
    static final StructLayout CHANGE = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), MemoryLayout.paddingLayout(4),
            MemoryLayout.sequenceLayout(2, ValueLayout.ADDRESS).withName("entry"), SIDES_L.withName("value"),
            SIDES_D.withName("share"), ValueLayout.JAVA_DOUBLE.withName("delta"),
            ValueLayout.JAVA_DOUBLE.withName("relative"));
    /** IPROF_DIFF_SUMMARY_VERSION, IPROF_DIFF_KIND_SUMMARY_VERSION and IPROF_DIFF_CHANGE_VERSION. */
    private static final int STRUCT_VERSION = 1;

    private static long at(StructLayout l, String member) {
        return l.byteOffset(PathElement.groupElement(member));
    }

    /** The byte offset of a side's element of an array member (indexed by enum iprof_diff_side). */
    private static long at(StructLayout l, String member, Side side) {
        return l.byteOffset(PathElement.groupElement(member), PathElement.sequenceElement(side.ordinal()));
    }

    @FunctionalInterface
    private interface Fill {
        int call(MemorySegment diff, MemorySegment out) throws Throwable;
    }

    /** A struct of {@code layout}, its version set, filled by {@code fill}: read it with {@code read}. */
    private <T> T get(StructLayout layout, String what, Fill fill, java.util.function.Function<MemorySegment, T> read) {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment s = tmp.allocate(layout);
            s.set(ValueLayout.JAVA_INT, 0, STRUCT_VERSION);
            int rc = fill.call(p(), s);
            if (rc != 0) {
                throw new IprofException(Status.of(rc), what + " failed");
            }
            return read.apply(s);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    private <T> T summary(java.util.function.Function<MemorySegment, T> read) {
        return get(SUMMARY, "iprof_diff_get_summary",
                   (d, s) -> (int) Native.DIFF_GET_SUMMARY.invokeExact(d, s), read);
    }

    private <T> T kind(Kind kind, java.util.function.Function<MemorySegment, T> read) {
        return get(KIND_SUMMARY, "iprof_diff_get_kind",
                   (d, s) -> (int) Native.DIFF_GET_KIND.invokeExact(d, kind.code(), s), read);
    }

    /**
     * {@return its methods whose key the other side lacks}
     * @param side a side
     */
    public List<Method> methodsOnly(Side side) {
        long n = summary(s -> s.get(ValueLayout.JAVA_LONG, at(SUMMARY, "method_only_count", side)));
        try {
            MemorySegment p = p();
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
        return summary(s -> s.get(ValueLayout.JAVA_LONG, at(SUMMARY, "method_common_count", side)));
    }

    /**
     * {@return how many of its entries have a context the other side lacks}
     * @param side a side
     * @param kind a kind
     */
    public long contextOnlyCount(Side side, Kind kind) {
        return kind(kind, s -> s.get(ValueLayout.JAVA_LONG, at(KIND_SUMMARY, "context_only_count", side)));
    }

    /**
     * {@return how many of its entries have a context the other side also has}
     * @param side a side
     * @param kind a kind
     */
    public long contextCommonCount(Side side, Kind kind) {
        return kind(kind, s -> s.get(ValueLayout.JAVA_LONG, at(KIND_SUMMARY, "context_common_count", side)));
    }

    /**
     * {@return its count mass of the kind (unsigned; saturating)}
     * @param side a side
     * @param kind a kind
     */
    public long total(Side side, Kind kind) {
        return kind(kind, s -> s.get(ValueLayout.JAVA_LONG, at(KIND_SUMMARY, "total", side)));
    }

    /**
     * {@return its count mass on contexts the other side also has}
     * @param side a side
     * @param kind a kind
     */
    public long commonTotal(Side side, Kind kind) {
        return kind(kind, s -> s.get(ValueLayout.JAVA_LONG, at(KIND_SUMMARY, "common_total", side)));
    }

    /**
     * {@return commonTotal / total in 0 .. 1, or NaN without count mass}
     * @param side a side
     * @param kind a kind
     */
    public double overlap(Side side, Kind kind) {
        double v = kind(kind, s -> s.get(ValueLayout.JAVA_DOUBLE, at(KIND_SUMMARY, "overlap", side)));
        return v < 0 ? Double.NaN : v;
    }

    /**
     * {@return the changed entries kept, biggest |delta| first}
     * @param kind a kind
     */
    public List<Change> changes(Kind kind) {
        long n = kind(kind, s -> s.get(ValueLayout.JAVA_LONG, at(KIND_SUMMARY, "change_count")));
        List<Change> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            long index = i;
            out.add(get(CHANGE, "iprof_diff_get_change",
                        (d, s) -> (int) Native.DIFF_GET_CHANGE.invokeExact(d, kind.code(), index, s), c -> {
                Entry ea = a.entry(kind, c.get(ValueLayout.ADDRESS, at(CHANGE, "entry", Side.A)));
                Entry eb = b.entry(kind, c.get(ValueLayout.ADDRESS, at(CHANGE, "entry", Side.B)));
                // The context as A's model names it, else B's (0.x iprof_diff_change_describe).
                String ctx = (ea != null ? ea : eb).context().describe();
                return new Change(ctx, ea, eb, c.get(ValueLayout.JAVA_LONG, at(CHANGE, "value", Side.A)),
                        c.get(ValueLayout.JAVA_LONG, at(CHANGE, "value", Side.B)),
                        c.get(ValueLayout.JAVA_DOUBLE, at(CHANGE, "share", Side.A)),
                        c.get(ValueLayout.JAVA_DOUBLE, at(CHANGE, "share", Side.B)),
                        c.get(ValueLayout.JAVA_DOUBLE, at(CHANGE, "delta")),
                        c.get(ValueLayout.JAVA_DOUBLE, at(CHANGE, "relative")));
            }));
        }
        return out;
    }

    /** {@return the staleness score in 0 .. 1 (0: the compiler is told the same)} */
    public double staleness() {
        return summary(s -> s.get(ValueLayout.JAVA_DOUBLE, at(SUMMARY, "staleness")));
    }

    /**
     * {@return the kind's part of the score, or NaN when neither side has count mass of it}
     * @param kind a kind
     */
    public double staleness(Kind kind) {
        double v = kind(kind, s -> s.get(ValueLayout.JAVA_DOUBLE, at(KIND_SUMMARY, "staleness")));
        return v < 0 ? Double.NaN : v;
    }

    /** Free the result; the models are not touched. */
    @Override
    public void close() {
        h.close();
    }
}
