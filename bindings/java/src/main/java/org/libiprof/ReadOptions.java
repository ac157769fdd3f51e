package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Options of a read or load ({@code iprof_read_options}): immutable, each
 * {@code withX} returns a changed copy. The defaults are those of the C
 * library: lenient, references checked, 256 KiB chunks, 10000 diagnostics
 * kept.
 */
public final class ReadOptions {
    private static final int VERSION = 1;
    private static final ReadOptions DEFAULTS = new ReadOptions(0, 0, 0, 0, 0);
    private static final int STRICT = 0x1;
    private static final int NO_REFERENCES = 0x2;
    private static final int THREADED = 0x4;
    private static final int SALVAGE = 0x8;

    private final int flags;
    private final long chunkSize;
    private final long maxElementSize;
    private final long maxDepth;
    private final long maxDiagnostics;

    private ReadOptions(int flags, long chunkSize, long maxElementSize, long maxDepth, long maxDiagnostics) {
        this.flags = flags;
        this.chunkSize = chunkSize;
        this.maxElementSize = maxElementSize;
        this.maxDepth = maxDepth;
        this.maxDiagnostics = maxDiagnostics;
    }

    /** {@return the default options} */
    public static ReadOptions defaults() {
        return DEFAULTS;
    }

    private ReadOptions flag(int bit, boolean on) {
        return new ReadOptions(on ? flags | bit : flags & ~bit, chunkSize, maxElementSize, maxDepth, maxDiagnostics);
    }

    /**
     * {@return the changed options}
     * @param strict fail on the first rule violation instead of recording it (IPROF_READ_STRICT)
     */
    public ReadOptions withStrict(boolean strict) {
        return flag(STRICT, strict);
    }

    /**
     * {@return the changed options}
     * @param check false: do not check that referenced ids exist (IPROF_READ_NO_REFERENCES)
     */
    public ReadOptions withCheckReferences(boolean check) {
        return flag(NO_REFERENCES, !check);
    }

    /**
     * {@return the changed options}
     * @param threaded loads build the model on a second C thread (IPROF_READ_THREADED; on one
     *        thread in a build without threads: {@link Iprof#threadsSupported()})
     */
    public ReadOptions withThreaded(boolean threaded) {
        return flag(THREADED, threaded);
    }

    /**
     * {@return the changed options}
     * @param salvage a load keeps what precedes damage (IPROF_READ_SALVAGE)
     */
    public ReadOptions withSalvage(boolean salvage) {
        return flag(SALVAGE, salvage);
    }

    /**
     * {@return the changed options}
     * @param bytes bytes per read from a file; 0: 256 KiB
     */
    public ReadOptions withChunkSize(long bytes) {
        return new ReadOptions(flags, nonNegative(bytes), maxElementSize, maxDepth, maxDiagnostics);
    }

    /**
     * {@return the changed options}
     * @param bytes the largest single element; 0: 1 GiB
     */
    public ReadOptions withMaxElementSize(long bytes) {
        return new ReadOptions(flags, chunkSize, nonNegative(bytes), maxDepth, maxDiagnostics);
    }

    /**
     * {@return the changed options}
     * @param depth the JSON nesting limit in skipped values; 0: none
     */
    public ReadOptions withMaxDepth(long depth) {
        return new ReadOptions(flags, chunkSize, maxElementSize, nonNegative(depth), maxDiagnostics);
    }

    /**
     * {@return the changed options}
     * @param count diagnostics kept per read; 0: 10000; -1: all
     */
    public ReadOptions withMaxDiagnostics(long count) {
        if (count < -1) {
            throw new IllegalArgumentException("maxDiagnostics " + count + ": want -1 (all), 0 (default) or more");
        }
        return new ReadOptions(flags, chunkSize, maxElementSize, maxDepth, count);
    }

    /** {@return whether reads are strict} */
    public boolean strict() {
        return (flags & STRICT) != 0;
    }

    private static long nonNegative(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative size " + v);
        }
        return v;
    }

    /** The C struct, in {@code arena}. */
    MemorySegment toC(Arena arena) {
        MemorySegment s = arena.allocate(48, 8);
        try {
            Status st = Status.of((int) Native.READ_OPTIONS_INIT.invokeExact(s, VERSION));
            if (st != Status.OK) {
                throw new IprofException(st, "iprof_read_options_init refused version " + VERSION);
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        s.set(ValueLayout.JAVA_INT, 4, flags);
        s.set(ValueLayout.JAVA_LONG, 16, chunkSize);
        s.set(ValueLayout.JAVA_LONG, 24, maxElementSize);
        s.set(ValueLayout.JAVA_LONG, 32, maxDepth);
        s.set(ValueLayout.JAVA_LONG, 40, maxDiagnostics);
        return s;
    }
}
