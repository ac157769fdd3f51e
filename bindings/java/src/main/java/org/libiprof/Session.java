package org.libiprof;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * The Java side of one C call that calls back: the upcall targets (each
 * catches everything, keeps the first exception and returns non-zero, as
 * an exception must never escape an upcall) and the stubs, made in a
 * confined arena that lives as long as the call; and the input of a read,
 * load or streaming merge ({@code iprof_source}), which may be one of them.
 */
class Session implements AutoCloseable {
    /** {@code struct iprof_source} (include/iprof/iprof.h). */
    static final StructLayout SOURCE = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), ValueLayout.JAVA_INT.withName("kind"),
            ValueLayout.ADDRESS.withName("data"), ValueLayout.JAVA_LONG.withName("len"),
            ValueLayout.ADDRESS.withName("path"), ValueLayout.JAVA_INT.withName("fd"), MemoryLayout.paddingLayout(4),
            ValueLayout.ADDRESS.withName("read_fn"), ValueLayout.ADDRESS.withName("read_payload"));
    /** IPROF_SOURCE_VERSION. */
    private static final int SOURCE_VERSION = 1;
    /** enum iprof_source_kind: IPROF_SOURCE_BUFFER, _PATH, _CALLBACK. */
    private static final int BUFFER = 0;
    private static final int PATH = 1;
    private static final int CALLBACK = 3;
    /** IPROF_READ_CALLBACKS_VERSION. */
    private static final int CALLBACKS_VERSION = 1;
    final Arena arena;
    private Throwable pending;
    private boolean stopped;
    private Callbacks cb;
    private InputStream in;
    private OutputStream out;
    private byte[] chunk;

    /** A session of one call on the calling thread. */
    Session() {
        this(false);
    }

    /** @param shared stubs usable from any thread (a writer's sink, called by each writer call) */
    Session(boolean shared) {
        arena = shared ? Arena.ofShared() : Arena.ofConfined();
    }

    int fail(Throwable t) {
        if (t instanceof StopRead) {
            stopped = true;
        } else if (pending == null) {
            pending = t;
        }
        return 1;
    }

    boolean stopped() {
        return stopped && pending == null;
    }

    /** Rethrow what a callback threw, if anything. */
    void rethrow() {
        Throwable t = pending;
        if (t == null) {
            return;
        }
        pending = null;
        if (t instanceof IOException e) {
            throw new UncheckedIOException(e);
        }
        throw Native.rethrow(t);
    }

    @Override
    public void close() {
        arena.close();
    }

    // ---- streaming reads -------------------------------------------------

    /** The document's version, once read. */
    String version = "";

    /** The C iprof_read_callbacks of {@code c} (null: none), and always the version's. */
    MemorySegment callbacks(Callbacks c) {
        if (c == null) {
            c = new Callbacks();
        }
        cb = c;
        MemorySegment s = arena.allocate(96, 8);
        s.set(ValueLayout.JAVA_INT, 0, CALLBACKS_VERSION);
        s.set(ValueLayout.ADDRESS, 8, stub(Fn.Up.VERSION_CB, "version"));
        if (c.type != null) {
            s.set(ValueLayout.ADDRESS, 16, stub(Fn.Up.TYPE_CB, "type"));
        }
        if (c.method != null) {
            s.set(ValueLayout.ADDRESS, 24, stub(Fn.Up.METHOD_CB, "method"));
        }
        if (!c.entries.isEmpty()) {
            MemorySegment e = stub(Fn.Up.ENTRY_CB, "entry");
            for (Kind k : c.entries.keySet()) {
                s.set(ValueLayout.ADDRESS, 32 + 8L * k.code(), e);
            }
        }
        if (c.unknown != null) {
            s.set(ValueLayout.ADDRESS, 80, stub(Fn.Up.UNKNOWN_CB, "unknown"));
        }
        if (c.key != null) {
            s.set(ValueLayout.ADDRESS, 88, stub(Fn.Up.KEY_CB, "key"));
        }
        return s;
    }

    MemorySegment stub(Fn.Up up, String method) {
        return Native.upcall(up, Native.target(this, method, up), arena);
    }

    int version(MemorySegment v, long len, MemorySegment payload) {
        try {
            version = Native.str(v, len);
            if (cb.version != null) {
                cb.version.accept(version);
            }
            return 0;
        } catch (Throwable t) {
            return fail(t);
        }
    }

    int type(long id, MemorySegment name, long len, MemorySegment payload) {
        try {
            cb.type.type(id, Native.str(name, len));
            return 0;
        } catch (Throwable t) {
            return fail(t);
        }
    }

    int method(long id, MemorySegment name, long len, MemorySegment sig, long sigLen, MemorySegment payload) {
        try {
            long[] s = sigLen == 0 ? new long[0] : sig.reinterpret(sigLen * 8).toArray(ValueLayout.JAVA_LONG);
            cb.method.accept(new MethodEvent(id, Native.str(name, len), s));
            return 0;
        } catch (Throwable t) {
            return fail(t);
        }
    }

    int entry(int kind, MemorySegment frames, long frameCount, MemorySegment records, long recordCount,
              MemorySegment payload) {
        EntryEvent e = null;
        try {
            Kind k = Kind.of(kind);
            e = new EntryEvent(k, frames, frameCount, records, recordCount);
            cb.entries.get(k).accept(e);
            return 0;
        } catch (Throwable t) {
            return fail(t);
        } finally {
            if (e != null) {
                e.end();
            }
        }
    }

    int unknown(MemorySegment key, long keyLen, MemorySegment json, long jsonLen, MemorySegment payload) {
        try {
            cb.unknown.accept(Native.str(key, keyLen), Native.str(json, jsonLen));
            return 0;
        } catch (Throwable t) {
            return fail(t);
        }
    }

    int key(MemorySegment key, long keyLen, int section, MemorySegment payload) {
        try {
            cb.key.accept(Native.str(key, keyLen), Section.of(section));
            return 0;
        } catch (Throwable t) {
            return fail(t);
        }
    }

    // ---- sources and streams ---------------------------------------------

    /**
     * The {@code iprof_source} of one of a path, bytes (copied into the arena) or a stream
     * (read through an upcall), for a call of this session.
     */
    MemorySegment source(Path path, byte[] data, InputStream stream) {
        MemorySegment s = arena.allocate(SOURCE);
        s.set(ValueLayout.JAVA_INT, at("version"), SOURCE_VERSION);
        s.set(ValueLayout.JAVA_INT, at("fd"), -1);
        if (path != null) {
            s.set(ValueLayout.JAVA_INT, at("kind"), PATH);
            s.set(ValueLayout.ADDRESS, at("path"), Native.utf8(arena, path.toString()));
        } else if (data != null) {
            MemorySegment buf = arena.allocate(Math.max(data.length, 1));
            MemorySegment.copy(data, 0, buf, ValueLayout.JAVA_BYTE, 0, data.length);
            s.set(ValueLayout.JAVA_INT, at("kind"), BUFFER);
            s.set(ValueLayout.ADDRESS, at("data"), buf);
            s.set(ValueLayout.JAVA_LONG, at("len"), data.length);
        } else {
            s.set(ValueLayout.JAVA_INT, at("kind"), CALLBACK);
            s.set(ValueLayout.ADDRESS, at("read_fn"), reader(stream));
        }
        return s;
    }

    private static long at(String member) {
        return SOURCE.byteOffset(PathElement.groupElement(member));
    }

    /** An iprof_read_fn reading {@code stream}. */
    MemorySegment reader(InputStream stream) {
        in = stream;
        chunk = new byte[1 << 16];
        return stub(Fn.Up.READ_FN, "read");
    }

    int read(MemorySegment buf, long capacity, MemorySegment len, MemorySegment payload) {
        try {
            int n = in.read(chunk, 0, (int) Math.min(capacity, chunk.length));
            long got = Math.max(n, 0);
            if (got > 0) {
                MemorySegment.copy(chunk, 0, buf.reinterpret(capacity), ValueLayout.JAVA_BYTE, 0, (int) got);
            }
            len.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, got);
            return 0;
        } catch (Throwable t) {
            return fail(t);
        }
    }

    /** An iprof_write_fn writing to {@code stream}. */
    MemorySegment writer(OutputStream stream) {
        out = stream;
        chunk = new byte[1 << 16];
        return stub(Fn.Up.WRITE_FN, "write");
    }

    int write(MemorySegment data, long len, MemorySegment payload) {
        try {
            MemorySegment d = data.reinterpret(len);
            for (long off = 0; off < len; ) {
                int n = (int) Math.min(len - off, chunk.length);
                MemorySegment.copy(d, ValueLayout.JAVA_BYTE, off, chunk, 0, n);
                out.write(chunk, 0, n);
                off += n;
            }
            return 0;
        } catch (Throwable t) {
            return fail(t);
        }
    }
}
