package org.libiprof;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A method of a model: id, name and signature (declaring type id, return
 * type id, parameter type ids). Valid until its model is closed or a
 * removal of methods (remove, filter, prune, canonicalize)
 * changes the model.
 */
public final class Method {
    private final Model model;
    private final MemorySegment ptr;
    private final int gen;

    Method(Model model, MemorySegment ptr) {
        this.model = model;
        this.ptr = ptr;
        this.gen = model.methodGen;
    }

    MemorySegment p() {
        model.ptr();
        if (gen != model.methodGen) {
            throw new StaleException("this Method was invalidated by a removal of methods; look it up again");
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
            return (long) Native.METHOD_ID.invokeExact(p());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return its name} */
    public String name() {
        try {
            long[] n = new long[1];
            MemorySegment s = (MemorySegment) Native.METHOD_NAME.invokeExact(p(), MemorySegment.ofArray(n));
            return Native.str(s, n[0]);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return its signature type ids: declaring type, return type, parameter types (a copy)} */
    public long[] signature() {
        try {
            long[] n = new long[1];
            MemorySegment s = (MemorySegment) Native.METHOD_SIGNATURE.invokeExact(p(), MemorySegment.ofArray(n));
            return Type.sig(s, n[0]);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    private Type typeAt(int i) {
        long[] s = signature();
        return s.length > i ? model.typeById(s[i]) : null;
    }

    /** {@return the type of signature[0], or null when absent or undefined} */
    public Type declaringType() {
        return typeAt(0);
    }

    /** {@return the type of signature[1], or null when absent or undefined} */
    public Type returnType() {
        return typeAt(1);
    }

    /** {@return the types of signature[2..] (null for an undefined id)} */
    public List<Type> parameterTypes() {
        long[] s = signature();
        List<Type> out = new ArrayList<>();
        for (int i = 2; i < s.length; i++) {
            out.add(model.typeById(s[i]));
        }
        return out;
    }

    /** {@return a readable name, "Fib.fibonacci" ("?id" for an undefined declaring type)} */
    public String describe() {
        MemorySegment p = p();
        return Model.snprintf((buf, size) -> {
            try {
                return (long) Native.MODEL_METHOD_DESCRIBE.invokeExact(model.ptr(), p, buf, size);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            }
        });
    }

    /** {@return false once its model is closed or it went stale} */
    public boolean valid() {
        return !model.isClosed() && gen == model.methodGen;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Method m && m.model == model && m.ptr.address() == ptr.address();
    }

    @Override
    public int hashCode() {
        return Long.hashCode(ptr.address()) ^ System.identityHashCode(model);
    }

    /** {@return "Method(id, name)"} */
    @Override
    public String toString() {
        return valid() ? "Method(" + id() + ", " + name() + ")" : "Method(invalid)";
    }
}
