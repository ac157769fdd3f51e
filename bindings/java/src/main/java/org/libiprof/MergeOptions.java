package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Options of a merge ({@code iprof_merge_options}): the weight of the
 * source's counts (finite and &gt;= 0; 1 by default), their rounding,
 * whether unknown top-level keys are dropped instead of refused, and
 * whether the merge runs on a second C thread.
 * @param weight the factor for the source's counts
 * @param rounding how counts times a fractional weight are rounded
 * @param dropUnknown drop unknown top-level keys of both models (IPROF_MERGE_DROP_UNKNOWN)
 * @param threaded merge on a second C thread while the calling one walks the source model
 *        or reads the source (IPROF_MERGE_THREADED): the same result
 */
public record MergeOptions(double weight, Rounding rounding, boolean dropUnknown, boolean threaded) {
    private static final int VERSION = 1;
    private static final int DROP_UNKNOWN = 0x1;
    private static final int THREADED = 0x2;

    /**
     * Options on the calling thread alone.
     * @param weight the factor for the source's counts
     * @param rounding how counts times a fractional weight are rounded
     * @param dropUnknown drop unknown top-level keys of both models
     */
    public MergeOptions(double weight, Rounding rounding, boolean dropUnknown) {
        this(weight, rounding, dropUnknown, false);
    }

    /** {@return weight 1, halves away from zero, unknown keys kept, one thread} */
    public static MergeOptions defaults() {
        return new MergeOptions(1.0, Rounding.NEAREST_AWAY, false, false);
    }

    /**
     * {@return the changed options}
     * @param w the weight
     */
    public MergeOptions withWeight(double w) {
        return new MergeOptions(w, rounding, dropUnknown, threaded);
    }

    /**
     * {@return the changed options}
     * @param r the rounding
     */
    public MergeOptions withRounding(Rounding r) {
        return new MergeOptions(weight, r, dropUnknown, threaded);
    }

    /**
     * {@return the changed options}
     * @param drop drop unknown keys
     */
    public MergeOptions withDropUnknown(boolean drop) {
        return new MergeOptions(weight, rounding, drop, threaded);
    }

    /**
     * {@return the changed options}
     * @param on merge on a second C thread
     */
    public MergeOptions withThreaded(boolean on) {
        return new MergeOptions(weight, rounding, dropUnknown, on);
    }

    MemorySegment toC(Arena arena) {
        MemorySegment s = arena.allocate(24, 8);
        try {
            Status st = Status.of((int) Native.MERGE_OPTIONS_INIT.invokeExact(s, VERSION));
            if (st != Status.OK) {
                throw new IprofException(st, "iprof_merge_options_init refused version " + VERSION);
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        s.set(ValueLayout.JAVA_INT, 4, (dropUnknown ? DROP_UNKNOWN : 0) | (threaded ? THREADED : 0));
        s.set(ValueLayout.JAVA_DOUBLE, 8, weight);
        s.set(ValueLayout.JAVA_INT, 16, rounding.ordinal());
        return s;
    }
}
