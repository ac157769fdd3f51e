package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * A C handle owned by a Java object. Its pointer is tied to a shared arena
 * whose closing frees it (the arena's cleanup), and every use checks the
 * closed flag first, so a use after {@code close()} throws
 * {@link ClosedException} instead of touching freed memory. Calls are
 * given the pointer itself (a segment of the global scope): a segment of
 * the arena would make every downcall acquire and release the arena (two
 * atomic operations, contended when several threads read one model),
 * which per-element accessors cannot afford. So, as in C, closing needs
 * exclusive access: a close on one thread while another thread is inside
 * a call on the same handle is a data race, as any change to a model
 * being read is.
 */
final class Handle {
    private final Arena arena;
    private final MemorySegment ptr;
    private final String what;
    private boolean closed;

    Handle(MemorySegment raw, MethodHandle free, String what) {
        this.arena = Arena.ofShared();
        this.what = what;
        this.ptr = raw;
        raw.reinterpret(arena, p -> {
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
