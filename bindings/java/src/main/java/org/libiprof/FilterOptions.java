package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What {@link Model#filter} keeps ({@code iprof_filter_options}): kinds,
 * what predicates accept (frames, entries, methods, types), packages, a
 * minimum count, the hottest percentage, contexts cut to a depth. Immutable;
 * each {@code withX} returns a changed copy; the defaults filter nothing.
 *
 * <p>The steps, each on what the ones before kept: 1 kinds, 2
 * {@link #withKeepFrame keep frame}, 3 {@link #withKeepEntry keep entry}, 4
 * packages, 5 minimum count, 6 top percent, 7 max depth, 8 the methods and
 * types of dropped packages, 9 {@link #withKeepMethod keep method}, 10
 * {@link #withKeepType keep type}. The predicates come first so that the
 * minimum and the top percent see what they kept. A method or type a
 * predicate refuses goes, and what names it stays (entries, signatures,
 * records): {@link Model#prune} removes the unreferenced.
 *
 * <p>Predicates must not change the model ({@link IllegalStateException}).
 * {@link Model#filter} runs each on every element of the model (a frame
 * predicate once per distinct frame) before anything changes, so an
 * exception from one leaves the model as it was.
 */
public final class FilterOptions {
    /** {@code struct iprof_filter_options} (include/iprof/transform.h). */
    static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), ValueLayout.JAVA_INT.withName("kinds"),
            ValueLayout.ADDRESS.withName("keep_packages"), ValueLayout.JAVA_LONG.withName("keep_package_count"),
            ValueLayout.ADDRESS.withName("drop_packages"), ValueLayout.JAVA_LONG.withName("drop_package_count"),
            ValueLayout.JAVA_LONG.withName("min_count"), ValueLayout.JAVA_DOUBLE.withName("top_percent"),
            ValueLayout.JAVA_LONG.withName("max_depth"), ValueLayout.ADDRESS.withName("keep_frame"),
            ValueLayout.ADDRESS.withName("keep_entry"), ValueLayout.ADDRESS.withName("keep_method"),
            ValueLayout.ADDRESS.withName("keep_type"), ValueLayout.ADDRESS.withName("payload"));
    /** IPROF_FILTER_OPTIONS_VERSION, the version of {@link #LAYOUT}. */
    private static final int VERSION = 1;

    /** Whether to keep a frame of a context ({@link #withKeepFrame}). */
    @FunctionalInterface
    public interface FramePredicate {
        /**
         * {@return true to keep it}
         * @param methodId the frame's method id (0 for the monitor's dummy frame)
         * @param bci its bci
         */
        boolean keep(long methodId, long bci);
    }

    private Set<Kind> kinds;
    private List<String> keepPackages = List.of();
    private List<String> dropPackages = List.of();
    private long minCount;
    private double topPercent;
    private long maxDepth;
    private FramePredicate keepFrame;
    private Predicate<Entry> keepEntry;
    private Predicate<Method> keepMethod;
    private Predicate<Type> keepType;

    private FilterOptions() {
    }

    private FilterOptions copy() {
        FilterOptions o = new FilterOptions();
        o.kinds = kinds;
        o.keepPackages = keepPackages;
        o.dropPackages = dropPackages;
        o.minCount = minCount;
        o.topPercent = topPercent;
        o.maxDepth = maxDepth;
        o.keepFrame = keepFrame;
        o.keepEntry = keepEntry;
        o.keepMethod = keepMethod;
        o.keepType = keepType;
        return o;
    }

    /** {@return options that filter nothing} */
    public static FilterOptions defaults() {
        return new FilterOptions();
    }

    /**
     * {@return the changed options}
     * @param k the kinds to keep (not empty); the others are dropped
     */
    public FilterOptions withKinds(Set<Kind> k) {
        if (k.isEmpty()) {
            throw new IllegalArgumentException("an empty set of kinds to keep");
        }
        FilterOptions o = copy();
        o.kinds = EnumSet.copyOf(k);
        return o;
    }

    /**
     * {@return the changed options}
     * @param pkg a package whose entries (by callee) are kept
     */
    public FilterOptions withKeepPackage(String pkg) {
        FilterOptions o = copy();
        o.keepPackages = plus(keepPackages, pkg);
        return o;
    }

    /**
     * {@return the changed options}
     * @param pkg a package whose methods, and every entry mentioning one, are dropped
     */
    public FilterOptions withDropPackage(String pkg) {
        FilterOptions o = copy();
        o.dropPackages = plus(dropPackages, pkg);
        return o;
    }

    /**
     * {@return the changed options}
     * @param count drop entries whose total is below it; 0: no minimum
     */
    public FilterOptions withMinCount(long count) {
        FilterOptions o = copy();
        o.minCount = count;
        return o;
    }

    /**
     * {@return the changed options}
     * @param percent keep the hottest entries making this % of each kind; 0: all
     */
    public FilterOptions withTopPercent(double percent) {
        FilterOptions o = copy();
        o.topPercent = percent;
        return o;
    }

    /**
     * {@return the changed options}
     * @param depth cut contexts to their innermost {@code depth} frames; 0: no cut
     */
    public FilterOptions withMaxDepth(long depth) {
        if (depth < 0) {
            throw new IllegalArgumentException("negative max depth " + depth);
        }
        FilterOptions o = copy();
        o.maxDepth = depth;
        return o;
    }

    /**
     * {@return the changed options}
     * @param keep step 2: an entry of any kind with a frame of its context, callee or
     *        caller, that this refuses goes (monitor entries show their dummy frame (0, 0));
     *        null: none
     */
    public FilterOptions withKeepFrame(FramePredicate keep) {
        FilterOptions o = copy();
        o.keepFrame = keep;
        return o;
    }

    /**
     * {@return the changed options}
     * @param keep step 3: an entry this refuses goes (for one kind, accept the entries
     *        of the others: {@link Entry#kind()}); null: none
     */
    public FilterOptions withKeepEntry(Predicate<Entry> keep) {
        FilterOptions o = copy();
        o.keepEntry = keep;
        return o;
    }

    /**
     * {@return the changed options}
     * @param keep step 9: a method this refuses goes, the entries naming it stay; null: none
     */
    public FilterOptions withKeepMethod(Predicate<Method> keep) {
        FilterOptions o = copy();
        o.keepMethod = keep;
        return o;
    }

    /**
     * {@return the changed options}
     * @param keep step 10: a type this refuses goes, the signatures and records naming it
     *        stay; null: none
     */
    public FilterOptions withKeepType(Predicate<Type> keep) {
        FilterOptions o = copy();
        o.keepType = keep;
        return o;
    }

    Set<Kind> kinds() {
        return kinds;
    }

    FramePredicate keepFrame() {
        return keepFrame;
    }

    Predicate<Entry> keepEntry() {
        return keepEntry;
    }

    Predicate<Method> keepMethod() {
        return keepMethod;
    }

    Predicate<Type> keepType() {
        return keepType;
    }

    private static List<String> plus(List<String> list, String pkg) {
        if (pkg.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a package with a NUL character");
        }
        List<String> l = new ArrayList<>(list);
        l.add(pkg);
        return List.copyOf(l);
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

    private static long at(String member) {
        return LAYOUT.byteOffset(PathElement.groupElement(member));
    }

    /** The C struct, its predicates the upcalls of {@code keep} (which answers from what it decided). */
    MemorySegment toC(Arena arena, Keep keep) {
        MemorySegment s = arena.allocate(LAYOUT);
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
        s.set(ValueLayout.JAVA_INT, at("kinds"), bits);
        s.set(ValueLayout.ADDRESS, at("keep_packages"), strings(arena, keepPackages));
        s.set(ValueLayout.JAVA_LONG, at("keep_package_count"), keepPackages.size());
        s.set(ValueLayout.ADDRESS, at("drop_packages"), strings(arena, dropPackages));
        s.set(ValueLayout.JAVA_LONG, at("drop_package_count"), dropPackages.size());
        s.set(ValueLayout.JAVA_LONG, at("min_count"), minCount);
        s.set(ValueLayout.JAVA_DOUBLE, at("top_percent"), topPercent);
        s.set(ValueLayout.JAVA_LONG, at("max_depth"), maxDepth);
        if (keepFrame != null) {
            s.set(ValueLayout.ADDRESS, at("keep_frame"), keep.stub(Fn.Up.FRAME_PRED, "keepFrame"));
        }
        if (keepEntry != null) {
            s.set(ValueLayout.ADDRESS, at("keep_entry"), keep.stub(Fn.Up.ELEMENT_PRED, "keepEntry"));
        }
        if (keepMethod != null) {
            s.set(ValueLayout.ADDRESS, at("keep_method"), keep.stub(Fn.Up.ELEMENT_PRED, "keepMethod"));
        }
        if (keepType != null) {
            s.set(ValueLayout.ADDRESS, at("keep_type"), keep.stub(Fn.Up.ELEMENT_PRED, "keepType"));
        }
        return s;
    }
}
