package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Options of a merge ({@code iprof_merge_options}): the weight of the
 * source's counts (finite and &gt;= 0; 1 by default), their rounding, and
 * whether unknown top-level keys are dropped instead of refused.
 * @param weight the factor for the source's counts
 * @param rounding how counts times a fractional weight are rounded
 * @param dropUnknown drop unknown top-level keys of both models (IPROF_MERGE_DROP_UNKNOWN)
 */
public record MergeOptions(double weight, Rounding rounding, boolean dropUnknown) {
    private static final int VERSION = 1;

    /** {@return weight 1, halves away from zero, unknown keys kept} */
    public static MergeOptions defaults() {
        return new MergeOptions(1.0, Rounding.NEAREST_AWAY, false);
    }

    /**
     * {@return the changed options}
     * @param w the weight
     */
    public MergeOptions withWeight(double w) {
        return new MergeOptions(w, rounding, dropUnknown);
    }

    /**
     * {@return the changed options}
     * @param r the rounding
     */
    public MergeOptions withRounding(Rounding r) {
        return new MergeOptions(weight, r, dropUnknown);
    }

    /**
     * {@return the changed options}
     * @param drop drop unknown keys
     */
    public MergeOptions withDropUnknown(boolean drop) {
        return new MergeOptions(weight, rounding, drop);
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
        s.set(ValueLayout.JAVA_INT, 4, dropUnknown ? 1 : 0);
        s.set(ValueLayout.JAVA_DOUBLE, 8, weight);
        s.set(ValueLayout.JAVA_INT, 16, rounding.ordinal());
        return s;
    }
}
