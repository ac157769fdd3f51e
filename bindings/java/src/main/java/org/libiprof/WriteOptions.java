package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Options of a write ({@code iprof_write_options}): immutable, each
 * {@code withX} returns a changed copy. The defaults write what a strict
 * read accepts, in GraalVM's layout of the model's version, minified.
 */
public final class WriteOptions {
    private static final int VERSION = 1;
    private static final WriteOptions DEFAULTS = new WriteOptions(0, null, 0, InstanceofKey.AUTO);
    static final int PRETTY = 0x1;
    static final int DROP_INSTANCEOF = 0x2;
    static final int NO_VALIDATE = 0x8;
    static final int NO_SYNC = 0x10;
    static final int GZIP = 0x20;
    static final int NO_REFERENCES = 0x40;
    static final int CANONICAL = 0x80;
    static final int THREADED = 0x100;
    static final int DROP_UNKNOWN = 0x200;

    private final int flags;
    private final String formatVersion;
    private final long bufferSize;
    private final InstanceofKey instanceofKey;

    private WriteOptions(int flags, String formatVersion, long bufferSize, InstanceofKey instanceofKey) {
        this.flags = flags;
        this.formatVersion = formatVersion;
        this.bufferSize = bufferSize;
        this.instanceofKey = instanceofKey;
    }

    /** {@return the default options} */
    public static WriteOptions defaults() {
        return DEFAULTS;
    }

    private WriteOptions flag(int bit, boolean on) {
        return new WriteOptions(on ? flags | bit : flags & ~bit, formatVersion, bufferSize, instanceofKey);
    }

    /**
     * {@return the changed options}
     * @param version the format version to write ("1.0.0", "0.2.0" for GraalVM's legacy
     *        layout ...); null: the model's (whole models) or the latest (streaming)
     */
    public WriteOptions withFormatVersion(String version) {
        return new WriteOptions(flags, version, bufferSize, instanceofKey);
    }

    /**
     * {@return the changed options}
     * @param pretty one element per line (IPROF_WRITE_PRETTY)
     */
    public WriteOptions withPretty(boolean pretty) {
        return flag(PRETTY, pretty);
    }

    /**
     * {@return the changed options}
     * @param drop drop instanceof entries for versions before 1.1.0 (IPROF_WRITE_DROP_INSTANCEOF)
     */
    public WriteOptions withDropInstanceof(boolean drop) {
        return flag(DROP_INSTANCEOF, drop);
    }

    /**
     * {@return the changed options}
     * @param validate false: no check at all (IPROF_WRITE_NO_VALIDATE)
     */
    public WriteOptions withValidate(boolean validate) {
        return flag(NO_VALIDATE, !validate);
    }

    /**
     * {@return the changed options}
     * @param check false: check the entry rules only (IPROF_WRITE_NO_REFERENCES)
     */
    public WriteOptions withCheckReferences(boolean check) {
        return flag(NO_REFERENCES, !check);
    }

    /**
     * {@return the changed options}
     * @param sync false: a path write skips fsync (IPROF_WRITE_NO_SYNC)
     */
    public WriteOptions withSync(boolean sync) {
        return flag(NO_SYNC, !sync);
    }

    /**
     * {@return the changed options}
     * @param gzip compress the output for any target (IPROF_WRITE_GZIP; a path ending in ".gz" is
     *        compressed anyway)
     */
    public WriteOptions withGzip(boolean gzip) {
        return flag(GZIP, gzip);
    }

    /**
     * {@return the changed options}
     * @param canonical write the model's canonical form without changing it (IPROF_WRITE_CANONICAL)
     */
    public WriteOptions withCanonical(boolean canonical) {
        return flag(CANONICAL, canonical);
    }

    /**
     * {@return the changed options}
     * @param threaded a canonical write sorts and formats on a second thread too (IPROF_WRITE_THREADED;
     *        on one thread in a build without threads: {@link Iprof#threadsSupported()})
     */
    public WriteOptions withThreaded(boolean threaded) {
        return flag(THREADED, threaded);
    }

    /**
     * {@return the changed options}
     * @param drop write a model whose input held keys the library does not read, without them
     *        (IPROF_WRITE_DROP_UNKNOWN)
     */
    public WriteOptions withDropUnknown(boolean drop) {
        return flag(DROP_UNKNOWN, drop);
    }

    /**
     * {@return the changed options}
     * @param key the spelling of the instanceof section's key
     */
    public WriteOptions withInstanceofKey(InstanceofKey key) {
        return new WriteOptions(flags, formatVersion, bufferSize, key);
    }

    /**
     * {@return the changed options}
     * @param bytes the output buffer; 0: 256 KiB
     */
    public WriteOptions withBufferSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative buffer size " + bytes);
        }
        return new WriteOptions(flags, formatVersion, bytes, instanceofKey);
    }

    /** {@return the format version to write, or null} */
    public String formatVersion() {
        return formatVersion;
    }

    /** The C struct, in {@code arena} (the version string too). */
    MemorySegment toC(Arena arena) {
        MemorySegment s = arena.allocate(40, 8);
        try {
            Status st = Status.of((int) Native.WRITE_OPTIONS_INIT.invokeExact(s, VERSION));
            if (st != Status.OK) {
                throw new IprofException(st, "iprof_write_options_init refused version " + VERSION);
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        s.set(ValueLayout.JAVA_INT, 4, flags);
        s.set(ValueLayout.ADDRESS, 8, formatVersion == null ? MemorySegment.NULL : Native.utf8(arena, formatVersion));
        s.set(ValueLayout.JAVA_LONG, 24, bufferSize);
        s.set(ValueLayout.JAVA_INT, 32, instanceofKey.ordinal());
        return s;
    }
}
