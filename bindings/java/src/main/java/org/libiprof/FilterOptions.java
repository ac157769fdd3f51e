package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What {@link Model#filter} drops ({@code iprof_filter_options}): kinds,
 * packages, a minimum count, all but the hottest percentage, contexts
 * deeper than a limit; then unused methods and types. Immutable; each
 * {@code withX} returns a changed copy; the defaults filter nothing (only
 * prune).
 */
public final class FilterOptions {
    private static final int VERSION = 2;
    private final Set<Kind> kinds;
    private final List<String> keep;
    private final List<String> drop;
    private final long minCount;
    private final double topPercent;
    private final long maxDepth;

    private FilterOptions(Set<Kind> kinds, List<String> keep, List<String> drop, long minCount,
                          double topPercent, long maxDepth) {
        this.kinds = kinds;
        this.keep = keep;
        this.drop = drop;
        this.minCount = minCount;
        this.topPercent = topPercent;
        this.maxDepth = maxDepth;
    }

    /** {@return options that filter nothing} */
    public static FilterOptions defaults() {
        return new FilterOptions(null, List.of(), List.of(), 0, 0, 0);
    }

    /**
     * {@return the changed options}
     * @param k the kinds to keep (not empty); the others are dropped
     */
    public FilterOptions withKinds(Set<Kind> k) {
        if (k.isEmpty()) {
            throw new IllegalArgumentException("an empty set of kinds to keep");
        }
        return new FilterOptions(EnumSet.copyOf(k), keep, drop, minCount, topPercent, maxDepth);
    }

    /**
     * {@return the changed options}
     * @param pkg a package whose entries (by callee) are kept
     */
    public FilterOptions withKeepPackage(String pkg) {
        List<String> k = new ArrayList<>(keep);
        noNul(pkg);
        k.add(pkg);
        return new FilterOptions(kinds, List.copyOf(k), drop, minCount, topPercent, maxDepth);
    }

    /**
     * {@return the changed options}
     * @param pkg a package whose methods, and every entry mentioning one, are dropped
     */
    public FilterOptions withDropPackage(String pkg) {
        List<String> d = new ArrayList<>(drop);
        noNul(pkg);
        d.add(pkg);
        return new FilterOptions(kinds, keep, List.copyOf(d), minCount, topPercent, maxDepth);
    }

    /**
     * {@return the changed options}
     * @param count drop entries whose total is below it; 0: no minimum
     */
    public FilterOptions withMinCount(long count) {
        return new FilterOptions(kinds, keep, drop, count, topPercent, maxDepth);
    }

    /**
     * {@return the changed options}
     * @param percent keep the hottest entries making this % of each kind; 0: all
     */
    public FilterOptions withTopPercent(double percent) {
        return new FilterOptions(kinds, keep, drop, minCount, percent, maxDepth);
    }

    /**
     * {@return the changed options}
     * @param depth cut contexts to their innermost {@code depth} frames; 0: no cut
     */
    public FilterOptions withMaxDepth(long depth) {
        if (depth < 0) {
            throw new IllegalArgumentException("negative max depth " + depth);
        }
        return new FilterOptions(kinds, keep, drop, minCount, topPercent, depth);
    }

    private static void noNul(String pkg) {
        if (pkg.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a package with a NUL character");
        }
    }

    private static MemorySegment strings(Arena arena, List<String> list) {
        if (list.isEmpty()) {
            return MemorySegment.NULL;
        }
        MemorySegment arr = arena.allocate(ValueLayout.ADDRESS, list.size());
        for (int i = 0; i < list.size(); i++) {
            arr.setAtIndex(ValueLayout.ADDRESS, i, Native.utf8(arena, list.get(i)));
        }
        return arr;
    }

    MemorySegment toC(Arena arena) {
        MemorySegment s = arena.allocate(64, 8);
        try {
            Status st = Status.of((int) Native.FILTER_OPTIONS_INIT.invokeExact(s, VERSION));
            if (st != Status.OK) {
                throw new IprofException(st, "iprof_filter_options_init refused version " + VERSION);
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        int bits = 0;
        if (kinds != null) {
            for (Kind k : kinds) {
                bits |= 1 << k.code();
            }
        }
        s.set(ValueLayout.JAVA_INT, 4, bits);
        s.set(ValueLayout.ADDRESS, 8, strings(arena, keep));
        s.set(ValueLayout.JAVA_LONG, 16, keep.size());
        s.set(ValueLayout.ADDRESS, 24, strings(arena, drop));
        s.set(ValueLayout.JAVA_LONG, 32, drop.size());
        s.set(ValueLayout.JAVA_LONG, 40, minCount);
        s.set(ValueLayout.JAVA_DOUBLE, 48, topPercent);
        s.set(ValueLayout.JAVA_LONG, 56, maxDepth);
        return s;
    }
}
