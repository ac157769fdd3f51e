package org.libiprof;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * An interned context of a model: frames (method id, bci), callee first.
 * Contexts live as long as their model, until {@link Model#canonicalize}
 * rebuilds it; keep one to find an entry again after changes.
 */
public final class Context {
    private final Model model;
    private final MemorySegment ptr;
    private final int gen;

    Context(Model model, MemorySegment ptr) {
        this.model = model;
        this.ptr = ptr;
        this.gen = model.ctxGen;
    }

    MemorySegment p() {
        model.ptr();
        if (gen != model.ctxGen) {
            throw new StaleException("this Context was invalidated by canonicalize(); look it up again");
        }
        return ptr;
    }

    /** {@return the number of frames, at least 1} */
    public int depth() {
        try {
            return (int) (long) Native.CONTEXT_DEPTH.invokeExact(p());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the method id of the callee frame} */
    public long methodId() {
        try {
            return (long) Native.CONTEXT_METHOD_ID.invokeExact(p());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the bci of the callee frame} */
    public long bci() {
        try {
            return (long) Native.CONTEXT_BCI.invokeExact(p());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the context without its callee frame, or null at depth 1} */
    public Context caller() {
        try {
            MemorySegment c = (MemorySegment) Native.CONTEXT_CALLER.invokeExact(p());
            return c.address() == 0 ? null : model.context(c);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the frames as interleaved (method id, bci) pairs, callee first} */
    public long[] framePairs() {
        try {
            MemorySegment p = p();
            long depth = (long) Native.CONTEXT_DEPTH.invokeExact(p);
            long[] f = new long[(int) depth * 2];
            long got = (long) Native.CONTEXT_FRAMES.invokeExact(p, MemorySegment.ofArray(f), depth);
            assert got == depth;
            return f;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the frames, callee first} */
    public List<Frame> frames() {
        long[] f = framePairs();
        List<Frame> out = new ArrayList<>(f.length / 2);
        for (int i = 0; i < f.length; i += 2) {
            out.add(new Frame(f[i], f[i + 1]));
        }
        return out;
    }

    /** {@return a readable text, "Fib.fibonacci:11 &lt; Fib.main:9"} */
    public String describe() {
        MemorySegment p = p();
        return Model.snprintf((buf, size) -> {
            try {
                return (long) Native.MODEL_CONTEXT_DESCRIBE.invokeExact(model.ptr(), p, buf, size);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            }
        });
    }

    /** {@return false once its model is closed or it went stale} */
    public boolean valid() {
        return !model.isClosed() && gen == model.ctxGen;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Context c && c.model == model && c.ptr.address() == ptr.address();
    }

    @Override
    public int hashCode() {
        return Long.hashCode(ptr.address()) ^ System.identityHashCode(model);
    }

    /** {@return the ctx text, "5:0&lt;3:2"} */
    @Override
    public String toString() {
        MemorySegment p = p();
        return Model.snprintf((buf, size) -> {
            try {
                return (long) Native.CONTEXT_FORMAT.invokeExact(p, buf, size);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            }
        });
    }
}
