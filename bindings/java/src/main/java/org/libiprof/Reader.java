package org.libiprof;

import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A reader ({@code iprof_reader}): reads documents from a path, bytes or an
 * {@link InputStream} (gzip input is inflated transparently), either as a
 * stream of elements handed to {@link Callbacks} or into a {@link Model}.
 * One reader serves many reads, one at a time; it is not for use by two
 * threads at once. Close it when done (try-with-resources); a use after
 * {@link #close()} throws {@link ClosedException}.
 */
public final class Reader implements AutoCloseable {
    private final Handle h;
    private final ReadOptions options;

    /** A reader with the default options. */
    public Reader() {
        this(ReadOptions.defaults());
    }

    /**
     * A reader.
     * @param options its options
     */
    public Reader(ReadOptions options) {
        this.options = options;
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment out = Handle.out(tmp);
            int rc = (int) Native.READER_NEW.invokeExact(out, options.toC(tmp));
            if (rc != 0) {
                throw new IprofException(Status.of(rc), "iprof_reader_new failed");
            }
            h = new Handle(out.get(ValueLayout.ADDRESS, 0), Native.READER_FREE, "this Reader");
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the options} */
    public ReadOptions options() {
        return options;
    }

    MemorySegment ptr() {
        return h.ptr();
    }

    /**
     * Read a file, calling {@code callbacks} for its elements.
     * @param path the file
     * @param callbacks the callbacks (null: validate only)
     * @return the version, diagnostics and whether a callback stopped the read
     * @throws IprofException when the document is invalid or cannot be read
     */
    public ReadResult read(Path path, Callbacks callbacks) {
        return read(path, null, null, callbacks);
    }

    /**
     * Read a document in memory, calling {@code callbacks} for its elements.
     * @param data the document
     * @param callbacks the callbacks (null: validate only)
     * @return the version, diagnostics and whether a callback stopped the read
     * @throws IprofException when the document is invalid
     */
    public ReadResult read(byte[] data, Callbacks callbacks) {
        return read(null, data, null, callbacks);
    }

    /**
     * Read a stream to its end, in chunks, calling {@code callbacks} for its elements.
     * @param in the stream (not closed)
     * @param callbacks the callbacks (null: validate only)
     * @return the version, diagnostics and whether a callback stopped the read
     * @throws IprofException when the document is invalid
     * @throws java.io.UncheckedIOException when the stream fails
     */
    public ReadResult read(InputStream in, Callbacks callbacks) {
        return read(null, null, in, callbacks);
    }

    /**
     * Validate a file: the diagnostics of a read without callbacks.
     * @param path the file
     * @return the diagnostics kept (none for a valid file)
     * @throws IprofException when the document is invalid beyond what a lenient read records
     */
    public List<Report> validate(Path path) {
        return read(path, null).diagnostics();
    }

    private ReadResult read(Path path, byte[] data, InputStream in, Callbacks callbacks) {
        try (Session s = new Session()) {
            MemorySegment cbs = s.callbacks(callbacks);
            int rc;
            try {
                rc = (int) Native.READER_READ.invokeExact(ptr(), s.source(path, data, in), cbs, MemorySegment.NULL);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            }
            s.rethrow();
            boolean stopped = s.stopped() && rc == Status.ESTOPPED.code();
            if (rc != 0 && !stopped) {
                throw error(path);
            }
            Result r = result();
            return new ReadResult(s.version, r.diagnostics(), r.droppedErrors() + r.droppedWarnings(), stopped);
        }
    }

    /**
     * Load a file into a model.
     * @param path the file
     * @return the model (close it)
     * @throws IprofException when the document is invalid or cannot be read
     */
    public Model load(Path path) {
        return load(path, null, null);
    }

    /**
     * Load a document in memory into a model.
     * @param data the document
     * @return the model (close it)
     * @throws IprofException when the document is invalid
     */
    public Model load(byte[] data) {
        return load(null, data, null);
    }

    /**
     * Load a stream into a model.
     * @param in the stream, read to its end (not closed)
     * @return the model (close it)
     * @throws IprofException when the document is invalid
     * @throws java.io.UncheckedIOException when the stream fails
     */
    public Model load(InputStream in) {
        return load(null, null, in);
    }

    private Model load(Path path, byte[] data, InputStream in) {
        try (Session s = new Session()) {
            MemorySegment out = Handle.out(s.arena);
            int rc;
            try {
                rc = (int) Native.MODEL_LOAD.invokeExact(out, ptr(), s.source(path, data, in));
            } catch (Throwable t) {
                throw Native.rethrow(t);
            }
            s.rethrow();
            if (rc != 0) {
                throw error(path);
            }
            Result r = result();
            return new Model(out.get(ValueLayout.ADDRESS, 0), r.diagnostics(), r.droppedErrors(),
                             r.droppedWarnings(), r.damage());
        }
    }

    /** {@return the diagnostics of the last read, in input order} */
    public List<Report> diagnostics() {
        return result().diagnostics();
    }

    /**
     * What the last read left besides its error ({@code iprof_read_result}), copied.
     * @param diagnostics the diagnostics kept, in input order
     * @param droppedErrors error diagnostics past those kept
     * @param droppedWarnings warning diagnostics past those kept
     * @param damage where a salvaging load stopped at damage, or null
     */
    private record Result(List<Report> diagnostics, long droppedErrors, long droppedWarnings, Report damage) {
    }

    /** {@code struct iprof_read_result} (include/iprof/iprof.h). */
    static final StructLayout RESULT = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), MemoryLayout.paddingLayout(4),
            ValueLayout.JAVA_LONG.withName("diag_count"), ValueLayout.JAVA_LONG.withName("dropped_errors"),
            ValueLayout.JAVA_LONG.withName("dropped_warnings"), ValueLayout.JAVA_LONG.withName("unread_count"),
            ValueLayout.ADDRESS.withName("unread_first"), ValueLayout.ADDRESS.withName("damage"),
            ValueLayout.JAVA_LONG.withName("kept_end"));
    /** IPROF_READ_RESULT_VERSION. */
    private static final int RESULT_VERSION = 1;

    private static long at(String member) {
        return RESULT.byteOffset(PathElement.groupElement(member));
    }

    /** The last read's result in one call, its reports copied. */
    private Result result() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = ptr();
            MemorySegment r = a.allocate(RESULT);
            r.set(ValueLayout.JAVA_INT, at("version"), RESULT_VERSION);
            int rc = (int) Native.READER_GET_RESULT.invokeExact(p, r);
            if (rc != 0) {
                throw new IprofException(Status.of(rc), "iprof_reader_get_result refused version " + RESULT_VERSION);
            }
            long n = r.get(ValueLayout.JAVA_LONG, at("diag_count"));
            List<Report> diags = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) {
                diags.add(Report.of((MemorySegment) Native.READER_DIAG.invokeExact(p, i)));
            }
            MemorySegment d = r.get(ValueLayout.ADDRESS, at("damage"));
            return new Result(diags, r.get(ValueLayout.JAVA_LONG, at("dropped_errors")),
                              r.get(ValueLayout.JAVA_LONG, at("dropped_warnings")),
                              d.address() == 0 ? null : Report.of(d));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The exception of the last failed read. */
    IprofException error(Path path) {
        try {
            MemorySegment e = (MemorySegment) Native.READER_ERROR.invokeExact(ptr());
            Report r = e.address() == 0 ? new Report(Status.EIO, false, "read failed", 0, 0, 0, "", null, "", null, null)
                                        : Report.of(e);
            Result res = result();
            return new IprofException(r, path == null ? null : path.toString(), res.diagnostics(),
                                      res.droppedErrors() + res.droppedWarnings());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Free the C reader; later uses throw {@link ClosedException}. Closing twice does nothing. */
    @Override
    public void close() {
        h.close();
    }
}
