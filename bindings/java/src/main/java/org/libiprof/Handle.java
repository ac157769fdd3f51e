package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * A C handle owned by a Java object: its pointer lives in a shared arena
 * whose closing frees it. Every downcall that is given {@link #ptr()}
 * keeps the arena alive for the call, so a {@code close()} from another
 * thread during a call fails ({@link IllegalStateException}) instead of
 * freeing memory in use, and a call after the close throws instead of
 * touching freed memory.
 */
final class Handle {
    private final Arena arena;
    private final MemorySegment ptr;
    private final String what;
    private boolean closed;

    Handle(MemorySegment raw, MethodHandle free, String what) {
        this.arena = Arena.ofShared();
        this.what = what;
        this.ptr = raw.reinterpret(arena, p -> {
            try {
                free.invokeExact(p);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            }
        });
    }

    /** {@return the pointer, or throws {@link ClosedException}} */
    MemorySegment ptr() {
        if (closed) {
            throw new ClosedException(what);
        }
        return ptr;
    }

    /** {@return a pointer the C handle owns, tied to its lifetime} */
    MemorySegment own(MemorySegment p) {
        return p.reinterpret(arena, null);
    }

    /** {@return a pointer the C handle owns, {@code size} bytes, tied to its lifetime} */
    MemorySegment own(MemorySegment p, long size) {
        return p.reinterpret(size, arena, null);
    }

    Arena arena() {
        return arena;
    }

    boolean closed() {
        return closed;
    }

    void close() {
        if (!closed) {
            arena.close();
            closed = true;
        }
    }

    /** Create a handle with {@code create(out)}; on failure the status. */
    static MemorySegment out(Arena tmp) {
        return tmp.allocate(java.lang.foreign.ValueLayout.ADDRESS);
    }
}
