package org.libiprof;

import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * A writer of one document ({@code iprof_writer}): to a path (atomically:
 * nothing is visible there until {@link #end()} succeeds; gzip for a name
 * ending in ".gz"), an {@link OutputStream} or memory. Either a whole
 * model ({@link #writeModel}) or element by element: {@link #begin},
 * types, methods, entries in the layout's order, {@link #end}. After a
 * failure every call fails the same way. Close it (a path writer that did
 * not end removes its temporary file); a use after close throws
 * {@link ClosedException}.
 */
public final class Writer implements AutoCloseable {
    /** {@code struct iprof_sink} (include/iprof/iprof.h). */
    static final StructLayout SINK = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), ValueLayout.JAVA_INT.withName("kind"),
            ValueLayout.ADDRESS.withName("path"), ValueLayout.JAVA_INT.withName("fd"), MemoryLayout.paddingLayout(4),
            ValueLayout.ADDRESS.withName("write_fn"), ValueLayout.ADDRESS.withName("write_payload"));
    /** IPROF_SINK_VERSION. */
    private static final int SINK_VERSION = 1;
    /** enum iprof_sink_kind: IPROF_SINK_BUFFER, _PATH, _CALLBACK. */
    private static final int BUFFER = 0;
    private static final int PATH = 1;
    private static final int CALLBACK = 3;

    private final Handle h;
    private final Session session;
    private final String target;
    private final Arena optionsArena = Arena.ofShared();

    private Writer(int kind, Path path, OutputStream out, WriteOptions options) {
        this.target = path != null ? path.toString() : null;
        this.session = out != null ? new Session(true) : null;
        try (Arena tmp = Arena.ofConfined()) {
            // format_version must stay valid until begin or write_model: it lives with the writer.
            MemorySegment o = options.toC(optionsArena);
            MemorySegment sink = tmp.allocate(SINK);
            sink.set(ValueLayout.JAVA_INT, at("version"), SINK_VERSION);
            sink.set(ValueLayout.JAVA_INT, at("kind"), kind);
            sink.set(ValueLayout.JAVA_INT, at("fd"), -1);
            if (kind == PATH) {
                sink.set(ValueLayout.ADDRESS, at("path"), Native.utf8(tmp, path.toString())); // copied by the call
            } else if (kind == CALLBACK) {
                sink.set(ValueLayout.ADDRESS, at("write_fn"), session.writer(out));
            }
            MemorySegment res = Handle.out(tmp);
            int rc = (int) Native.WRITER_NEW.invokeExact(res, sink, o);
            if (rc != 0) {
                throw new IprofException(Status.of(rc), "cannot create a writer");
            }
            h = new Handle(res.get(ValueLayout.ADDRESS, 0), Native.WRITER_FREE, "this Writer");
        } catch (Throwable t) {
            if (session != null) {
                session.close();
            }
            optionsArena.close();
            throw Native.rethrow(t);
        }
    }

    private static long at(String member) {
        return SINK.byteOffset(PathElement.groupElement(member));
    }

    /**
     * A writer to a path, atomically.
     * @param path the target
     * @param options the options
     * @return the writer
     */
    public static Writer toPath(Path path, WriteOptions options) {
        return new Writer(PATH, path, null, options);
    }

    /**
     * A writer to a stream (not closed, not flushed).
     * @param out the stream
     * @param options the options
     * @return the writer
     */
    public static Writer toStream(OutputStream out, WriteOptions options) {
        return new Writer(CALLBACK, null, out, options);
    }

    /**
     * A writer into memory; {@link #bytes()} gives the document.
     * @param options the options
     * @return the writer
     */
    public static Writer toMemory(WriteOptions options) {
        return new Writer(BUFFER, null, null, options);
    }

    private void check(int rc) {
        if (session != null) {
            session.rethrow();
        }
        if (rc == 0) {
            return;
        }
        try {
            MemorySegment e = (MemorySegment) Native.WRITER_ERROR.invokeExact(h.ptr());
            Report r = e.address() == 0 ? new Report(Status.of(rc), false, "write failed", 0, 0, 0, "", null, "", null, null)
                                        : Report.of(e);
            throw new IprofException(r, target, List.of(), 0);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Start the document.
     * @param formatVersion the version to write; null: the options', else the latest
     */
    public void begin(String formatVersion) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = formatVersion == null ? MemorySegment.NULL : Native.utf8(a, formatVersion);
            check((int) Native.WRITER_BEGIN.invokeExact(h.ptr(), v));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Write a type.
     * @param id its id
     * @param name its name
     */
    public void type(long id, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = Native.utf8(a, name);
            check((int) Native.WRITER_TYPE.invokeExact(h.ptr(), id, n, Native.len(n)));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Write a method.
     * @param id its id
     * @param name its name
     * @param signature declaring type id, return type id, parameter type ids
     */
    public void method(long id, String name, long... signature) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = Native.utf8(a, name);
            check((int) Native.WRITER_METHOD.invokeExact(h.ptr(), id, n, Native.len(n), Model.longs(a, signature),
                                                         (long) signature.length));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Write an entry (kinds in the layout's order).
     * @param kind its kind
     * @param frames its context, callee first
     * @param records its records
     */
    public void entry(Kind kind, List<Frame> frames, long... records) {
        try (Arena a = Arena.ofConfined()) {
            check((int) Native.WRITER_ENTRY.invokeExact(h.ptr(), kind.code(), Model.frames(a, frames),
                    (long) frames.size(), Model.longs(a, records), (long) records.length));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Write a top-level key the library does not interpret, with its raw JSON value.
     * @param key the key
     * @param json one JSON value
     */
    public void unknown(String key, String json) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment k = Native.utf8(a, key);
            MemorySegment j = Native.utf8(a, json);
            check((int) Native.WRITER_UNKNOWN.invokeExact(h.ptr(), k, Native.len(k), j, Native.len(j)));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Close the document and flush it; a path writer then renames it into place. */
    public void end() {
        try {
            check((int) Native.WRITER_END.invokeExact(h.ptr()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Write a whole model: begin, every element, end.
     * @param model the model (only read; a stream sink may read it too, not change it)
     */
    public void writeModel(Model model) {
        MemorySegment m = model.ptr();
        model.busy(true);
        try {
            check((int) Native.WRITER_WRITE_MODEL.invokeExact(h.ptr(), m));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        } finally {
            model.busy(false);
        }
    }

    /** {@return the bytes of a memory writer (after {@link #end()} or {@link #writeModel})} */
    public byte[] bytes() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment data = a.allocate(ValueLayout.ADDRESS);
            long[] len = new long[1];
            MemorySegment ptr = h.ptr();
            int rc = (int) Native.WRITER_BUFFER.invokeExact(ptr, data, MemorySegment.ofArray(len));
            check(rc);
            return len[0] == 0 ? new byte[0]
                               : data.get(ValueLayout.ADDRESS, 0).reinterpret(len[0]).toArray(ValueLayout.JAVA_BYTE);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Free the writer (a path writer that did not end leaves the target as it was). */
    @Override
    public void close() {
        if (h.closed()) {
            return;
        }
        h.close();
        if (session != null) {
            session.close();
        }
        optionsArena.close();
    }
}
