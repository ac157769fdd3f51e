package org.libiprof;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A type of a model: id and name. Valid until its model is closed or a
 * removal of types (remove, filter, prune, canonicalize) changes
 * the model; then every access throws ({@link ClosedException},
 * {@link StaleException}).
 */
public final class Type {
    private final Model model;
    private final MemorySegment ptr;
    private final int gen;

    Type(Model model, MemorySegment ptr) {
        this.model = model;
        this.ptr = ptr;
        this.gen = model.typeGen;
    }

    MemorySegment p() {
        model.ptr();
        if (gen != model.typeGen) {
            throw new StaleException("this Type was invalidated by a removal of types; look it up again");
        }
        return ptr;
    }

    /** {@return the model it belongs to} */
    public Model model() {
        return model;
    }

    /** {@return its id} */
    public long id() {
        try {
            return (long) Native.TYPE_ID.invokeExact(p());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return its name} */
    public String name() {
        try {
            long[] n = new long[1];
            MemorySegment s = (MemorySegment) Native.TYPE_NAME.invokeExact(p(), MemorySegment.ofArray(n));
            return Native.str(s, n[0]);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return false once its model is closed or it went stale} */
    public boolean valid() {
        return !model.isClosed() && gen == model.typeGen;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Type t && t.model == model && t.ptr.address() == ptr.address();
    }

    @Override
    public int hashCode() {
        return Long.hashCode(ptr.address()) ^ System.identityHashCode(model);
    }

    /** {@return "Type(id, name)"} */
    @Override
    public String toString() {
        return valid() ? "Type(" + id() + ", " + name() + ")" : "Type(invalid)";
    }

    static long[] sig(MemorySegment s, long n) {
        return n == 0 ? new long[0] : s.reinterpret(n * 8).toArray(ValueLayout.JAVA_LONG);
    }
}
