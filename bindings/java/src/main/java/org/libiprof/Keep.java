package org.libiprof;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The Java side of {@link Model#filter}'s predicates. The C filter calls its
 * {@code keep_*} predicates while it changes the model and cannot be stopped
 * by one, so the Java predicates run here first, on the unchanged model, and
 * the upcalls answer from what they refused: an exception from a predicate
 * then leaves the model as it was. What they refused is named by what stays
 * put while the filter runs: types and methods by their address (handles are
 * stable), entries by their kind and context (the C filter moves entries, not
 * contexts, before its step 3), frames by value.
 */
final class Keep extends Session {
    private final Set<Long> types;
    private final Set<Long> methods;
    /** Per kind code, the context addresses of the entries refused. */
    private final List<Set<Long>> entries;
    private final Set<Frame> frames;

    private Keep(Set<Long> types, Set<Long> methods, List<Set<Long>> entries, Set<Frame> frames) {
        this.types = types;
        this.methods = methods;
        this.entries = entries;
        this.frames = frames;
    }

    /**
     * Run the predicates of {@code o} on {@code m}, which they may read, not change.
     * @return what the upcalls answer from (close it after the filter)
     */
    static Keep of(Model m, FilterOptions o) {
        Set<Kind> kinds = o.kinds() == null ? EnumSet.allOf(Kind.class) : o.kinds();
        m.busy(true);
        try {
            Set<Long> types = refused(o.keepType(), m.types(), Type::p);
            Set<Long> methods = refused(o.keepMethod(), m.methods(), Method::p);
            List<Set<Long>> entries = new ArrayList<>();
            Set<Frame> frames = new HashSet<>();
            Set<Frame> seen = new HashSet<>();
            for (Kind k : Kind.values()) {
                Set<Long> refused = new HashSet<>();
                entries.add(refused);
                if (!kinds.contains(k)) {
                    continue; // step 1 drops the kind whole
                }
                if (o.keepEntry() != null) {
                    for (Entry e : m.entries(k)) {
                        if (!o.keepEntry().test(e)) {
                            refused.add(context(e.p()));
                        }
                    }
                }
                if (o.keepFrame() != null) {
                    // Every frame of the kind's contexts, in place (the columns), each judged once.
                    MemorySegment f = m.columns(k).frames();
                    for (long i = 0; i + 1 < f.byteSize() / 8; i += 2) {
                        Frame fr = new Frame(f.getAtIndex(ValueLayout.JAVA_LONG, i),
                                             f.getAtIndex(ValueLayout.JAVA_LONG, i + 1));
                        if (seen.add(fr) && !o.keepFrame().keep(fr.methodId(), fr.bci())) {
                            frames.add(fr);
                        }
                    }
                }
            }
            return new Keep(types, methods, entries, frames);
        } finally {
            m.busy(false);
        }
    }

    private static <T> Set<Long> refused(Predicate<T> keep, List<T> all,
                                         java.util.function.Function<T, MemorySegment> ptrOf) {
        Set<Long> out = new HashSet<>();
        if (keep != null) {
            for (T t : all) {
                if (!keep.test(t)) {
                    out.add(ptrOf.apply(t).address());
                }
            }
        }
        return out;
    }

    private static long context(MemorySegment entry) {
        try {
            return ((MemorySegment) Native.ENTRY_CONTEXT.invokeExact(entry)).address();
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    // ---- the upcalls (iprof_frame_pred, iprof_model_*_pred): never throw ----

    int keepFrame(long methodId, long bci, MemorySegment payload) {
        return frames.contains(new Frame(methodId, bci)) ? 0 : 1;
    }

    int keepEntry(MemorySegment entry, MemorySegment payload) {
        try {
            int kind = (int) Native.ENTRY_KIND.invokeExact(entry);
            return entries.get(kind).contains(context(entry)) ? 0 : 1;
        } catch (Throwable t) {
            fail(t);
            return 1;
        }
    }

    int keepMethod(MemorySegment method, MemorySegment payload) {
        return methods.contains(method.address()) ? 0 : 1;
    }

    int keepType(MemorySegment type, MemorySegment payload) {
        return types.contains(type.address()) ? 0 : 1;
    }
}
